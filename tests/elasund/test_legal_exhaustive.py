"""legal_moves lists exactly the moves the validators accept (brute force over all candidates)."""
from __future__ import annotations

import random
from typing import Any
from collections.abc import Callable

import pytest

from services.elasund.rules import board, construction, permits
from services.elasund.rules.game import GAME
from shared.game.engine import IllegalMove

COLOURS: list[Any] = [None, *board.INFLUENCE_COLOURS]


def _accepts(check: Callable[..., Any], *args: Any) -> bool:
    try:
        check(*args)
    except IllegalMove:
        return False
    return True


def _positions(players: int, seed: int, phases: set[str], wanted: int) -> list[dict]:
    """States met in a random game in one of ``phases``."""
    rng = random.Random(seed)
    state = GAME.replay(GAME.setup(players, GAME.default_options(), random.Random(seed)))
    found = []
    for step in range(3000):
        if GAME.result(state) or len(found) >= wanted:
            break
        if state["phase"] in phases and rng.random() < 0.3:
            found.append(GAME.copy(state))
        seat = GAME.to_act(state)[0]
        for e in GAME.decide(state, seat, rng.choice(GAME.legal_moves(state, seat)), random.Random(step)):
            state = GAME.evolve(state, e)
    assert len(found) >= 3, "the random game should meet the phase several times"
    return found


def _key(move: dict) -> tuple:
    return tuple(sorted((k, str(v)) for k, v in move.items()))


@pytest.mark.parametrize("players", [2, 4])
def test_build_moves_are_exactly_the_accepted_builds(players: int) -> None:
    for state in _positions(players, players, {"build"}, 6):
        seat = state["current"]
        listed = {_key(m) for m in GAME.legal_moves(state, seat) if m["type"] == "build"}
        accepted = set()
        for kind in board.PLAYER_BUILDINGS + board.NEUTRAL_BUILDINGS:
            for col in range(9):
                for row in board.ROWS:
                    for colour in COLOURS:
                        if _accepts(construction.check_build, state, seat, kind, col, row, colour):
                            move = {"type": "build", "building": kind, "col": col, "row": row}
                            accepted.add(_key({**move, "pay_colour": colour} if colour else move))
        assert listed == accepted


@pytest.mark.parametrize("players", [3, 4])
def test_permit_moves_are_exactly_the_accepted_placements(players: int) -> None:
    for state in _positions(players, players + 10, {"permit", "special"}, 6):
        seat = state["current"]
        moves = GAME.legal_moves(state, seat)
        if state["phase"] == "permit":
            listed = {_key(m) for m in moves if m["type"] == "place_permit"}
            accepted = {_key({"type": "place_permit", "value": v, "col": c, "row": r,
                              **({"pay_colour": colour} if colour else {})})
                        for v in board.PERMIT_VALUES for c in range(9) for r in board.ROWS for colour in COLOURS
                        if _accepts(permits.check_place_permit, state, seat, v, c, r, colour)}
        else:
            listed = {_key(m) for m in moves if m["type"] in ("move_permit", "upgrade_permit")}
            accepted = set()
            for text in state["permits"]:
                fc, fr = board.unkey(text)
                for colour in board.INFLUENCE_COLOURS:
                    for c in range(9):
                        for r in board.ROWS:
                            move = {"type": "move_permit", "from_col": fc, "from_row": fr, "col": c, "row": r,
                                    "pay_colour": colour}
                            if _accepts(permits.check_move_permit, state, seat, move):
                                accepted.add(_key(move))
                    for value in board.PERMIT_VALUES:
                        move = {"type": "upgrade_permit", "col": fc, "row": fr, "value": value, "pay_colour": colour}
                        if _accepts(permits.check_upgrade_permit, state, seat, move):
                            accepted.add(_key(move))
        assert listed == accepted
