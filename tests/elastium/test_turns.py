"""Turns (two actions, a bought third), the end of the round and the final count."""
from __future__ import annotations

# Every position is played from a seeded set-up: energy and end scores by bots or by the policies of
# ``helpers.drive``, tied scores by bands placed at each seat's start (``helpers.place``).

import random
from itertools import combinations

from services.elastium.bots import STRATEGIES
from services.elastium.rules.scoring import final_breakdown, winners
from services.elastium.rules.state import State
from shared.game.engine import event
from shared.game.testing import Given, given
from tests.elastium.helpers import (
    GAME, TAKE, drive, energy_for_seat_0, events_of, new_game, place, play, reaching, start, turn_start,
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
    # Greedy bots play until seat 0, at the start of a turn, can place a band bringing it to 18 points.
    pos = start().play_until(lambda s: reaching(s, 0, 18) is not None, strategy=STRATEGIES["greedy"])
    assert turn_start(0)(pos.state) and pos.state["score"] == [16, 13] and pos.state["energy"] == [1, 1]
    band = reaching(pos.state, 0, 18)
    pos.when(0, band).then_including(event("end_triggered", reason="score-reached", seat=0))
    pos.after(0, band).after(0, TAKE)
    assert pos.state["turn_seat"] == 1 and pos.state["result"] is None   # seat 1 still plays its turn
    pos.after(1, TAKE)
    assert pos.state["result"] is None
    state = pos.when(1, TAKE).then_including({"type": "game_ended"})
    assert state["result"]["winners"] == [0] and state["result"]["scores"][0] >= 18


def test_three_unused_energy_are_one_point() -> None:
    # Seat 0 collects energy with its bands, seat 1 takes cards, until the round cap of 8 ends the game.
    pos = drive(start(max_rounds=8), lambda s: s["result"] is not None, energy_for_seat_0)
    rows = pos.state["result"]["breakdown"]
    assert pos.state["energy"] == [7, 0] and [r["score"] for r in rows] == [6, 0]
    assert [r["total"] for r in rows] == [8, 0]


# a 1 VP triangle without energy at each seat's start (jungle-temples, 3 seats: S, W, E)
ONE_POINT = [["c3r0", "c4r0", "c3r1"], ["c0r2", "c1r2", "c0r3"], ["c6r3", "c6r4", "c7r4"]]


def one_point_each(bands: list[int]) -> State:
    """Each seat places its 1 VP triangle, then lines along its sides (free: its own pegs) up to
    ``bands[seat]`` bands."""
    state = new_game(players=3)
    for seat, pegs in enumerate(ONE_POINT):
        state, _ = place(state, seat, pegs)
        for a, c in list(combinations(pegs, 2))[:bands[seat] - 1]:
            state, _ = place(state, seat, [a, c])
    return state


def test_ties_go_to_fewer_bands_then_are_shared() -> None:
    state = one_point_each([4, 3, 3])
    assert state["score"] == [1, 1, 1] and state["energy"] == [0, 0, 0] and state["bands_used"] == [4, 3, 3]
    assert winners(state, final_breakdown(state)) == [1, 2]
    state = one_point_each([2, 3, 3])
    assert state["score"] == [1, 1, 1] and state["energy"] == [0, 0, 0] and state["bands_used"] == [2, 3, 3]
    assert winners(state, final_breakdown(state)) == [0]


def test_the_round_cap_ends_a_game_that_cannot_reach_its_end() -> None:
    state = new_game(max_rounds=1)
    for seat in (0, 0, 1, 1):
        state, events = play(state, seat, TAKE)
    assert events_of(events, "game_ended") and GAME.to_act(state) == []
