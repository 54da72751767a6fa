"""legal_moves lists every move decide accepts, and decide rejects malformed or untimely moves."""
from __future__ import annotations

# Positions: set-ups and random games played on, counters and phases folded as the engine records
# them (positions.py), an auction opened by play.

import random

import pytest

from services.elfenland.rules.board import ROADS
from services.elfenland.rules.components import COUNTER_KINDS
from shared.game.engine import GameOver, IllegalMove, NotYourTurn
from shared.game.testing import play_random_game

from tests.elfenland.positions import GAME, give_counter, new_game, place, play, rejection, road_between, start_phase


def _accepted(state: dict, seat: int, move: dict) -> bool:
    try:
        GAME.decide(state, seat, move, random.Random(1))
    except IllegalMove:
        return False
    return True


def test_every_listed_move_is_accepted_along_random_games() -> None:
    for options in ({"edition": "elfenland"}, {"edition": "elfengold", "wizards": True}):
        played = play_random_game(GAME, 3, options, seed=4, max_moves=0)
        state, rng = played.state, random.Random(9)
        for step in range(600):
            if GAME.result(state) is not None:
                break
            seat = GAME.to_act(state)[0]
            legal = GAME.legal_moves(state, seat)
            if step % 7 == 0:
                assert all(_accepted(state, seat, m) for m in legal[:150])
            for e in GAME.decide(state, seat, rng.choice(legal), random.Random(step)):
                state = GAME.evolve(state, e)


def test_every_accepted_placement_is_listed() -> None:
    state = start_phase(new_game(2, edition="elfengold"), "placement", first=0)
    for kind in ("dragon", "obstacle", "sea_monster", "gold", "unicorn"):
        give_counter(state, 0, kind)
    place(state, 1, "giant_pig", road_between("Elvenhold", "Lapphalya").id)
    legal = GAME.legal_moves(state, 0)
    for kind in COUNTER_KINDS:
        for road in ROADS:
            move = {"type": "place_counter", "counter": kind, "road": road.id}
            assert _accepted(state, 0, move) == (move in legal), move


def test_moves_out_of_turn_phase_or_shape_are_rejected() -> None:
    state = new_game(2)
    assert rejection(state, 1, {"type": "secret_counter", "reveal": False}) == "not-your-turn"
    assert rejection(state, 0, {"type": "travel", "road": 0, "cards": []}) == "wrong-phase"
    assert rejection(state, 0, {"type": "teleport"}) == "unknown-move"
    start_phase(state, "movement", first=0)
    assert rejection(state, 0, {"type": "travel", "road": 99, "cards": []}) == "unknown-road"
    assert rejection(state, 0, {"type": "travel", "road": 0, "cards": ["gold"]}) == "unknown-card"
    assert rejection(state, 0, {"type": "finish_travel", "take": "gold"}) == "no-gold-economy"
    with pytest.raises(NotYourTurn) as error:
        GAME.decide(state, 1, {"type": "finish_travel"}, random.Random(0))
    assert error.value.status == 409


def test_a_finished_game_accepts_nothing() -> None:
    played = play_random_game(GAME, 2, {"edition": "elfenland"}, seed=8, check_every=100)
    with pytest.raises(GameOver):
        GAME.decide(played.state, 0, {"type": "pass"}, random.Random(0))
    assert GAME.to_act(played.state) == [] and GAME.legal_moves(played.state, 0) == []


def test_malformed_moves_are_rejected_with_a_reason_never_a_crash() -> None:
    state = start_phase(new_game(2), "placement", first=0)
    give_counter(state, 0, "dragon")
    assert rejection(state, 0, {"type": ["pass"]}) == "unknown-move"
    assert rejection(state, 0, {"type": "place_counter", "counter": "dragon", "road": True}) == "unknown-road"
    state, _ = play(state, 0, {"type": "pass"})
    state, _ = play(state, 1, {"type": "pass"})
    assert state["phase"] == "keep"
    assert rejection(state, 0, {"type": "keep_counters", "counters": [["dragon"]]}) == "counter-not-held"
    gold = new_game(2, edition="elfengold")
    for seat in range(2):                     # round 1's counters revealed: the auction opens
        gold, _ = play(gold, seat, {"type": "reveal_counter", "counter": gold["seats"][seat]["pending"][0]})
    assert gold["phase"] == "auction" and GAME.to_act(gold) == [0]
    assert rejection(gold, 0, {"type": "bid", "amount": True}) == "bid-too-low"
