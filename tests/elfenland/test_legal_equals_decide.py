"""``legal_moves`` is exactly the set ``decide`` accepts, over a broad space of candidate moves.

Along random games of every edition, a candidate space is built from the move schemas (every
counter kind on every road, every card combination up to five cards on every road, every bid up
to coins + 3, every keep choice...).  At sampled steps each candidate is decided: the accepted
ones must be exactly the listed ones (bids above the richest purse + 1 are accepted but not
listed: they have the same effect, see NOTES.md).
"""
from __future__ import annotations

# Positions: random games, and for the keep phases set-ups with counters and cards folded as the
# engine records them (positions.py), then played into the phase.

import json
import random
from itertools import combinations_with_replacement

import pytest

from services.elfenland.rules.board import ROADS, ROADS_AT, TOWNS
from services.elfenland.rules.components import COUNTER_KINDS, HAND_CARDS, TRANSPORTS
from services.elfenland.rules.multiset import submultisets
from services.elfenland.rules.state import held_counters
from shared.game.engine import IllegalMove

from tests.elfenland.positions import GAME, new_game

_SIMPLE = [{"type": t} for t in ("draw_counter", "draw_card", "take_gold", "pass")]


def _card_combos(hand: dict[str, int], most: int = 5) -> list[list[str]]:
    kinds = sorted(k for k in hand if hand[k] > 0) + ["dragon"]      # one kind maybe not held
    found = []
    for n in range(0, most + 1):
        found += [list(c) for c in combinations_with_replacement(sorted(set(kinds)), n)]
    return found


def candidates(state: dict, seat: int) -> list[dict]:
    me = state["seats"][seat]
    moves: list[dict] = list(_SIMPLE)
    moves += [{"type": "secret_counter", "reveal": r} for r in (False, True)]
    moves += [{"type": "take_counter", "counter": k} for k in COUNTER_KINDS]
    moves += [{"type": "take_card", "card": c} for c in (*HAND_CARDS, "gold")]
    moves += [{"type": "reveal_counter", "counter": k} for k in COUNTER_KINDS]
    richest = max(s["coins"] for s in state["seats"])
    high = state["auction"]["high"] if state["auction"] else 0
    moves += [{"type": "bid", "amount": a} for a in range(0, max(richest, high) + 2)]
    phase = state["phase"]
    if phase == "placement":
        moves += [{"type": "place_counter", "counter": k, "road": r.id} for k in COUNTER_KINDS for r in ROADS]
        moves += [{"type": "place_double", "road": r.id, "counter": k} for k in TRANSPORTS for r in ROADS]
        moves += [{"type": "exchange", "road": a.id, "other_road": b.id} for a in ROADS for b in ROADS]
    if phase == "movement":
        combos = _card_combos(me["hand"])
        roads = list(ROADS_AT[me["town"]]) + [ROADS[0] if ROADS[0] not in ROADS_AT[me["town"]] else ROADS[30]]
        moves += [{"type": "travel", "road": r.id, "cards": c} for r in roads for c in combos]
        moves += [{"type": "fly", "town": t} for t in TOWNS]
        moves += [{"type": "finish_travel", **({} if t is None else {"take": t})} for t in (None, "gold", "cards")]
    held = held_counters(me)
    for n in range(0, 4):
        moves += [{"type": "keep_counters", "counters": list(c)} for c in submultisets(held, n)]
    for n in (3, 4, 5):
        moves += [{"type": "keep_cards", "cards": list(c)} for c in submultisets(me["hand"], n)]
    return moves


def _accepted(state: dict, seat: int, move: dict) -> bool:
    try:
        GAME.decide(state, seat, move, random.Random(1))
    except IllegalMove:
        return False
    return True


def _key(move: dict) -> str:
    return json.dumps(move, sort_keys=True)


def check_exact(state: dict, seat: int) -> None:
    legal = GAME.legal_moves(state, seat)
    listed = {_key(m) for m in legal}
    # The listed moves join the candidates: every one of them must be accepted too.
    accepted = {_key(m) for m in candidates(state, seat) + legal if _accepted(state, seat, m)}
    assert accepted == listed, (state["phase"], sorted(accepted - listed)[:5], sorted(listed - accepted)[:5])


@pytest.mark.parametrize("players,options,seed", [
    (3, {"edition": "elfenland"}, 1),
    (2, {"edition": "elfenland", "lake_rules": "german", "caravan_cards": 5}, 2),
    (3, {"edition": "elfengold", "wizards": True}, 3),
    (2, {"edition": "elfenroads"}, 4),
])
def test_listed_moves_are_exactly_the_accepted_ones(players: int, options: dict, seed: int) -> None:
    state, rng = new_game(players, seed=seed, **options), random.Random(seed)
    seen_phases = set()
    step = 0
    while GAME.result(state) is None and step < 2500:
        acting = GAME.to_act(state)
        seat = acting[rng.randrange(len(acting))]
        phase = (state["phase"], state["discarding"], state["redraw"])
        # Every phase (and sub-step) the first time it comes, then a sample.
        if phase not in seen_phases or rng.random() < 0.03:
            seen_phases.add(phase)
            check_exact(state, seat)
            for other in set(range(players)) - set(acting):
                assert GAME.legal_moves(state, other) == []
        move = rng.choice(GAME.legal_moves(state, seat))
        for e in GAME.decide(state, seat, move, random.Random(step)):
            state = GAME.evolve(state, e)
        step += 1
    assert GAME.result(state) is not None


def test_keep_phases_list_exactly_the_accepted_choices() -> None:
    from tests.elfenland.positions import give_counter, play, set_hand, start_phase
    state = start_phase(new_game(3), "placement", first=0)
    for kind in ("dragon", "dragon", "unicorn"):
        give_counter(state, 0, kind)
    give_counter(state, 2, "elfcycle")
    for seat in range(3):
        state, _ = play(state, seat, {"type": "pass"})
    assert state["phase"] == "keep" and GAME.to_act(state) == [0, 2]
    for seat in (0, 1, 2):
        check_exact(state, seat)
    moving = start_phase(new_game(2), "movement", first=0)
    set_hand(moving, 0, ["raft", "raft", "dragon", "unicorn", "unicorn", "elfcycle"])
    moving, _ = play(moving, 0, {"type": "finish_travel"})
    assert moving["discarding"]
    check_exact(moving, 0)
    check_exact(moving, 1)
    gold = start_phase(new_game(2, edition="elfengold"), "movement", first=0)
    for kind in ("gold", "double", "exchange"):
        give_counter(gold, 1, kind)
    gold, _ = play(gold, 0, {"type": "finish_travel", "take": "cards"})
    gold, _ = play(gold, 1, {"type": "finish_travel", "take": "cards"})
    assert gold["phase"] == "keep"
    for seat in (0, 1):
        check_exact(gold, seat)
