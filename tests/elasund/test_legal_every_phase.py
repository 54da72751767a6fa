"""legal_moves is exactly what decide accepts, in every phase, for every seat and every move type.

Brute force through ``GAME.decide`` itself (not the validators): every move type with every
argument in (and just outside) its range, so a move type accepted in a phase but never listed, or
listed but refused, shows up.  Also the engine's bookkeeping invariants over random games.
"""
from __future__ import annotations

import itertools
import json
import random
from typing import Any
from collections.abc import Iterator

import pytest

from services.elasund.rules import board
from services.elasund.rules.game import GAME
from services.elasund.rules.state import cubes_on_board, gold_in_bank, influence_total
from shared.game.engine import IllegalMove, event

from tests.elasund.helpers import at_phase, fold, fresh, give

COLOURS: list[Any] = [None, *board.INFLUENCE_COLOURS]
COLS = range(-1, 10)
NO_FIELDS = ("roll", "end_building", "build_church", "take_gold", "special_gold", "end_turn")


def _candidates(state: dict) -> Iterator[dict]:
    for move_type in NO_FIELDS:
        yield {"type": move_type}
    for row in [1, 7, 13, *board.ROWS]:
        yield {"type": "move_ship", "row": row}
        yield {"type": "move_pirates", "row": row}
    for gold in range(5):
        for red, blue, green in itertools.product(range(4), repeat=3):
            yield {"type": "discard", "gold": gold, "influence": {"red": red, "blue": blue, "green": green}}
    for kind, col, row, colour in itertools.product(board.BUILDINGS, COLS, board.ROWS, COLOURS):
        move = {"type": "build", "building": kind, "col": col, "row": row}
        yield {**move, "pay_colour": colour} if colour else move
    for space in [*board.wall_spaces(4), "R7", "GATE_TOP"]:
        yield {"type": "build_wall", "space": space}
    for tile in range(11):
        yield {"type": "choose_church_tile", "tile": tile}
    for col, row in itertools.product(COLS, board.ROWS):
        yield {"type": "rebuild_hut", "col": col, "row": row}
        for value in range(-1, 6):
            yield {"type": "place_permit_anywhere", "value": value, "col": col, "row": row}
            for colour in COLOURS:
                move = {"type": "place_permit", "value": value, "col": col, "row": row}
                yield {**move, "pay_colour": colour} if colour else move
                if colour:
                    yield {"type": "upgrade_permit", "value": value, "col": col, "row": row, "pay_colour": colour}
    for text in state["permits"]:
        from_col, from_row = board.unkey(text)
        for col, row, colour in itertools.product(COLS, board.ROWS, board.INFLUENCE_COLOURS):
            yield {"type": "move_permit", "from_col": from_col, "from_row": from_row, "col": col, "row": row,
                   "pay_colour": colour}


def _key(move: dict) -> str:
    if move["type"] == "discard":
        move = {**move, "influence": {c: move["influence"].get(c, 0) for c in board.INFLUENCE_COLOURS}}
    return json.dumps(move, sort_keys=True)


def _assert_listing_is_exact(state: dict) -> None:
    acting = GAME.to_act(state)
    before = json.dumps(state, sort_keys=True)
    candidates = list(_candidates(state))
    for seat in range(state["players"]):
        listed = [_key(m) for m in GAME.legal_moves(state, seat)]
        assert len(listed) == len(set(listed)), "a move is listed twice"
        accepted = set()
        for move in candidates:
            try:
                GAME.decide(state, seat, move, random.Random(1))
            except IllegalMove:
                continue
            accepted.add(_key(move))
        assert set(listed) == accepted, (state["phase"], seat, sorted(set(listed) ^ accepted)[:5])
        assert bool(listed) == (seat in acting)
    assert json.dumps(state, sort_keys=True) == before, "decide (accepting or refusing) changed the state"


def _positions() -> dict[str, list[dict]]:
    """Two states per phase from random games, plus crafted ones for the rare pauses."""
    found: dict[str, list[dict]] = {}
    for seed, players in [(1, 2), (2, 3), (3, 4)]:
        rng = random.Random(seed)
        state = GAME.replay(GAME.setup(players, GAME.default_options(), random.Random(seed)))
        for step in range(1500):
            if GAME.result(state):
                break
            if len(found.setdefault(state["phase"], [])) < 2 and rng.random() < 0.1:
                found[state["phase"]].append(GAME.copy(state))
            seat = rng.choice(GAME.to_act(state))
            for e in GAME.decide(state, seat, rng.choice(GAME.legal_moves(state, seat)), random.Random(step)):
                state = GAME.evolve(state, e)
    church = give(at_phase(fresh(3), "build", current=1, ship=4), 1, gold=7)
    church = fold(church, *GAME.decide(church, 1, {"type": "build_church"}, random.Random(2)))
    found.setdefault("church_choice", []).append(church)
    # An influence shortage: two seats owe half their influence cards (several seats act at once).
    short = give(give(at_phase(fresh(3), "roll", current=0), 1, influence=["red", "blue", "green"]), 2,
                 influence=["red", "red", "blue"])
    short = fold(short, event("phase_entered", phase="discard",
                              pending={"reason": "influence_shortage", "owed": {"1": 2, "2": 2}, "due": []}))
    found.setdefault("discard", []).append(short)
    return found


@pytest.mark.slow
def test_every_phase_lists_exactly_the_moves_decide_accepts() -> None:
    positions = _positions()
    assert {"roll", "ship_choice", "pirate_row", "discard", "build", "church_choice", "hut_rebuild", "permit",
            "special"} <= set(positions)
    for states in positions.values():
        for state in states:
            _assert_listing_is_exact(state)


def _check_invariants(state: dict) -> None:
    pool = state["pending"].get("pool", {"gold": 0, "influence": {}})
    hands = state["hands"]
    assert gold_in_bank(state) >= 0
    assert sum(h["gold"] for h in hands) + pool["gold"] + gold_in_bank(state) == board.GOLD_CARDS
    assert (influence_total(state["influence_deck"]) + influence_total(state["influence_discard"])
            + sum(influence_total(h["influence"]) for h in hands) + influence_total(pool["influence"])) == 39
    assert all(n >= 0 for h in hands for n in [h["gold"], *h["influence"].values()])
    assert all(n >= 0 for n in state["influence_deck"].values())
    squares: set = set()
    for b in state["buildings"]:
        for square in board.footprint(b["kind"], b["col"], b["row"]):
            assert square not in squares and board.in_city(state["players"], *square)
            assert board.key(*square) not in state["permits"] and board.key(*square) not in state["church"]["tiles"]
            squares.add(square)
    assert board.key(*board.FOUNDATION) not in state["permits"]
    for seat in range(state["players"]):
        on_board = [v for owner, v in state["permits"].values() if owner == seat]
        assert sorted(state["supply"][seat]["permits"] + on_board) == board.PERMIT_VALUES
        assert cubes_on_board(state, seat) <= board.CUBES_PER_PLAYER
        # The disk always shows the windmills under the seat's standing buildings.
        assert state["trade"][seat] == sum(b["trade_points"] for b in state["buildings"] if b["seat"] == seat)
    for space, seats in state["track_cubes"].items():
        assert len(set(seats)) == len(seats) and len(seats) <= board.VP_SPACES[int(space)]
        assert all(state["trade"][seat] >= int(space) for seat in seats)
    for kind in board.NEUTRAL_BUILDINGS:
        standing = sum(1 for b in state["buildings"] if b["kind"] == kind)
        assert standing + state["stock"][kind] == board.BUILDINGS[kind]["count"]


def test_cards_permits_buildings_and_the_track_stay_consistent_in_random_games() -> None:
    for seed, players in [(5, 2), (6, 3), (7, 4), (8, 4)]:
        rng = random.Random(seed)
        state = GAME.replay(GAME.setup(players, GAME.default_options(), random.Random(seed)))
        for step in range(3000):
            _check_invariants(state)
            if GAME.result(state):
                break
            seat = rng.choice(GAME.to_act(state))
            for e in GAME.decide(state, seat, rng.choice(GAME.legal_moves(state, seat)), random.Random(step)):
                state = GAME.evolve(state, e)
        assert GAME.result(state) is not None
