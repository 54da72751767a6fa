"""Turns (two actions, a bought third), the end of the round and the final count."""
from __future__ import annotations

import random

from services.elastium.rules.scoring import final_breakdown, winners
from shared.game.engine import event
from shared.game.testing import Given, given
from tests.elastium.helpers import (
    GAME, TAKE, drive, energy_for_seat_0, events_of, new_game, play, put, start, turn_start,
)


def test_two_actions_then_the_turn_passes() -> None:
    state = new_game()
    state, events = play(state, 0, TAKE)
    assert state["turn_seat"] == 0 and not events_of(events, "turn_ended")
    state, events = play(state, 0, TAKE)
    assert events_of(events, "turn_ended") == [{"seat": 0, "next_seat": 1}]
    assert state["turn_seat"] == 1 and state["actions_left"] == 2


def test_not_your_turn_and_game_over_are_refused() -> None:
    setup = GAME.setup(2, {"scenario": "jungle-temples"}, random.Random(1))
    given(GAME, setup).when(1, TAKE).then_refused("not-your-turn")
    ended = event("game_ended", winners=[0], scores=[18, 12], breakdown=[{}, {}], bands_used=[0, 0])
    given(GAME, [*setup, ended]).when(0, TAKE).then_refused("game-over")


def rich_seat_0() -> Given:
    """Seat 0 at the start of a turn with 6 energy or more, collected by its own bands."""
    return drive(start(), lambda s: s["energy"][0] >= 6 and turn_start(0)(s), energy_for_seat_0)


def test_three_energy_buy_a_third_action_once_a_turn() -> None:
    pos = rich_seat_0().after(0, TAKE).after(0, TAKE)
    energy, supply = pos.state["energy"][0], pos.state["energy_supply"]
    assert pos.legal(0) == [{"type": "buy_action"}, {"type": "end_turn"}]
    pos.when(0, TAKE).then_refused("not-allowed-in-extra-phase")
    state = pos.when(0, {"type": "buy_action"}).then(event("action_bought", seat=0))
    assert state["energy"][0] == energy - 3 and state["energy_supply"] == supply + 3 and state["actions_left"] == 1
    pos.after(0, {"type": "buy_action"})
    assert {"type": "end_turn"} not in pos.legal(0)      # the bought action is taken at once
    assert pos.state["energy"][0] >= 3
    pos.when(0, TAKE).then_including(event("turn_ended", seat=0, next_seat=1))   # only once a turn


def test_declining_the_third_action_ends_the_turn() -> None:
    pos = rich_seat_0().after(0, TAKE).after(0, TAKE)
    energy = pos.state["energy"][0]
    state = pos.when(0, {"type": "end_turn"}).then(event("turn_ended", seat=0, next_seat=1))
    assert state["turn_seat"] == 1 and state["energy"][0] == energy


def test_the_round_is_finished_after_the_end_is_triggered() -> None:
    # Built by hand: 17 points take a long game of good play to reach, and the rule under test (the
    # round is played out once the end is triggered) does not depend on how they were scored.
    state = new_game()
    state["score"][0] = 17
    state, events = put(state, 0, ["c2r3", "c2r4", "c3r4"])          # +1 VP: 18
    assert events_of(events, "end_triggered") == [{"reason": "score-reached", "seat": 0}]
    for seat in (0, 0, 1):
        state, _ = play(state, seat, TAKE)
    assert state["result"] is None           # seat 1 still plays its turn of the round
    state, events = play(state, 1, TAKE)
    ended = events_of(events, "game_ended")
    assert ended and ended[0]["winners"] == [0] and GAME.result(state)["scores"][0] >= 18


def test_three_unused_energy_are_one_point() -> None:
    # The final count is a function of an end position; one built by hand states the case plainly.
    state = new_game()
    state["score"] = [5, 5]
    state["energy"] = [8, 2]
    rows = final_breakdown(state)
    assert [r["total"] for r in rows] == [7, 5]


def test_ties_go_to_fewer_bands_then_are_shared() -> None:
    # Equal end scores with chosen band counts: a hand-built end position for the tie-breaker.
    state = new_game(players=3)
    state["score"] = [6, 6, 6]
    state["bands_used"] = [4, 3, 3]
    rows = final_breakdown(state)
    assert winners(state, rows) == [1, 2]
    state["bands_used"] = [2, 3, 3]
    assert winners(state, rows) == [0]


def test_the_round_cap_ends_a_game_that_cannot_reach_its_end() -> None:
    state = new_game(max_rounds=1)
    for seat in (0, 0, 1, 1):
        state, events = play(state, seat, TAKE)
    assert events_of(events, "game_ended") and GAME.to_act(state) == []
