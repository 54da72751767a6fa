"""``given(events).when(seat, move).then(events)``: rule tests from positions reached by events."""
from __future__ import annotations

import pytest

from shared.game.engine import IllegalMove, event
from shared.game.testing import given
from tests.shared.toygame import RaceGame

GAME = RaceGame()
SETUP = [event("game_started", players=3, target=10), *[event("card_dealt", seat=s, card=4) for s in range(3)]]


def test_a_six_is_acknowledged_by_the_others_before_play_goes_on() -> None:
    after_six = given(GAME, [*SETUP, event("rolled", seat=0, die=6)])
    after_six.when(0, {"type": "roll"}).then_refused("not-your-turn")
    after_six.when(1, {"type": "roll"}).then_refused("must-acknowledge")
    state = after_six.when(1, {"type": "ack"}).then(event("acknowledged", seat=1))
    assert GAME.to_act(state) == [2]


def test_a_roll_that_reaches_the_target_wins_and_moves_played_on_lead_there() -> None:
    near = given(GAME, [*SETUP, event("rolled", seat=0, die=5), event("turn_passed", to=1),
                        event("rolled", seat=1, die=2), event("turn_passed", to=2)]).after(2, {"type": "hold"})
    # Seed 0 rolls a 4 (any roll is matched by type): 5 + 4 falls short of 10, so the turn passes.
    near.when(0, {"type": "roll"}, seed=0).then({"type": "rolled"}, event("turn_passed", to=1))
    state = given(GAME, [*near.events, event("rolled", seat=0, die=4)]).state
    assert state["scores"] == [9, 2, 0]


def test_then_fails_on_other_events_and_on_a_refusal() -> None:
    start = given(GAME, SETUP)
    with pytest.raises(AssertionError):
        start.when(0, {"type": "hold"}).then(event("turn_passed", to=2))
    with pytest.raises(AssertionError):
        start.when(0, {"type": "ack"}).then(event("acknowledged", seat=0))
    with pytest.raises(AssertionError):
        start.when(0, {"type": "hold"}).then_refused("not-your-turn")


def test_setup_is_the_games_own_for_the_seed_and_comes_first() -> None:
    import random
    start = given(GAME).setup(3, {"target": 12}, seed=7)
    assert start.events == GAME.setup(3, {"target": 12}, random.Random(7))
    assert start.state["target"] == 12 and start.state == GAME.replay(start.events)
    assert given(GAME).setup(2).state["target"] == 10          # the game's default options
    with pytest.raises(AssertionError):
        start.setup(3)


def test_after_a_type_plays_the_first_legal_move_of_it_and_refuses_an_illegal_one() -> None:
    start = given(GAME).setup(2, seed=1)
    assert start.legal(0, "hold") == [{"type": "hold"}] and start.legal(1) == []
    held = start.after(0, "hold")
    assert held.events[-1] == event("turn_passed", to=1) and GAME.to_act(held.state) == [1]
    with pytest.raises(AssertionError, match="no legal ack"):
        held.after(1, "ack")
    with pytest.raises(IllegalMove):
        held.after(0, {"type": "roll"})
    assert GAME.to_act(held.state) == [1]


def test_fold_adds_constructed_events_and_a_when_leaves_the_position_for_the_next() -> None:
    after_six = given(GAME).setup(3, seed=1).fold(event("rolled", seat=0, die=6))
    acked = after_six.when(1, {"type": "ack"}).then(event("acknowledged", seat=1))
    assert acked["pending"] == [2]
    assert after_six.state["pending"] == [1, 2]             # then() folded a copy
    after_six.when(2, {"type": "ack"}).then(event("acknowledged", seat=2))


def test_then_including_finds_events_in_order_and_then_excluding_finds_none() -> None:
    near = given(GAME, [*SETUP, event("rolled", seat=0, die=9), event("turn_passed", to=1),
                        event("turn_passed", to=2), event("turn_passed", to=0)])
    won = near.when(0, {"type": "roll"}, seed=0).then_including(event("won", seat=0))
    assert GAME.result(won)["winners"] == [0]
    near.when(0, {"type": "roll"}).then_including({"type": "rolled"}, {"type": "won"})
    with pytest.raises(AssertionError):
        near.when(0, {"type": "roll"}).then_including({"type": "won"}, {"type": "rolled"})
    with pytest.raises(AssertionError):
        near.when(0, {"type": "roll"}).then_excluding("won")
    near.when(0, {"type": "hold"}).then_excluding("won", "rolled")
    with pytest.raises(AssertionError):
        near.when(0, {"type": "ack"}).then_including({"type": "acknowledged"})


def test_play_until_plays_on_to_the_first_position_that_holds_and_fails_when_the_game_ends_first() -> None:
    leader_at_six = given(GAME, SETUP).play_until(lambda s: max(s["scores"]) >= 6, seed=1)
    assert max(leader_at_six.state["scores"]) >= 6
    # It stops at the move that got there: a roll, then at most the turn passing, come after nobody had six.
    first = next(i for i in range(len(SETUP), len(leader_at_six.events) + 1)
                 if max(given(GAME, leader_at_six.events[:i]).state["scores"]) >= 6)
    assert leader_at_six.events[first - 1]["type"] == "rolled" and len(leader_at_six.events) - first <= 1
    with pytest.raises(AssertionError, match="try another seed"):
        given(GAME, SETUP).play_until(lambda s: max(s["scores"]) > 100, seed=1)
