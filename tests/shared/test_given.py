"""``given(events).when(seat, move).then(events)``: rule tests from positions reached by events."""
from __future__ import annotations

import pytest

from shared.game.engine import event
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
