"""Rolling, production, the bank running short, ending the turn."""
from __future__ import annotations

import pytest

from tests.catan.helpers import GAME, edge, fold, give, illegal, play, roll, set_up, to_main


def test_roll_first_then_build_then_end_turn() -> None:
    state = set_up()
    give(state, 0, brick=1, lumber=1)
    assert illegal(state, 0, {"type": "build_road", "edge": 0}) == "must-roll-first"
    assert illegal(state, 0, {"type": "end_turn"}) == "must-roll-first"
    assert illegal(state, 1, {"type": "roll"}) == "not-your-turn"
    events = roll(state, 0, 5)
    assert events[0]["type"] == "dice_rolled" and sum(events[0]["data"]["dice"]) == 5
    assert illegal(state, 0, {"type": "roll"}) == "already-rolled"
    assert {"type": "end_turn"} in GAME.legal_moves(state, 0)
    play(state, 0, {"type": "end_turn"})
    assert state["current"] == 1 and state["phase"] == "roll" and state["turn"] == 2


def test_settlements_produce_one_card_cities_two() -> None:
    state = set_up()
    # 10: Mountains 10 (hex 0, seat 0 at node 12) and Hills 10 (hex 6, seat 1 at 14, seat 3 at 20).
    events = roll(state, 0, 10)
    assert events[1] == {"type": "resources_produced", "data": {
        "gains": [{"ore": 1}, {"brick": 1}, {}, {"brick": 1}], "shortages": []}}
    give(state, 0, grain=2, ore=3)
    play(state, 0, {"type": "build_city", "node": 12})
    play(state, 0, {"type": "end_turn"})
    before = list(state["hands"][0])
    roll(state, 1, 10)
    assert state["hands"][0][4] == before[4] + 2


def test_the_robbers_hex_produces_nothing() -> None:
    state = set_up()
    fold(state, "robber_moved", seat=0, hex=0, victim=None)   # onto Mountains 10
    events = roll(state, 0, 10)
    assert events[1]["data"]["gains"] == [{}, {"brick": 1}, {}, {"brick": 1}]


def _drain_bank(state: dict, seat: int, resource: str, leave: int) -> None:
    give(state, seat, **{resource: state["bank"][("brick", "lumber", "wool", "grain", "ore").index(resource)] - leave})


def test_when_the_bank_cannot_pay_everybody_nobody_gets_that_resource() -> None:
    state = set_up()
    _drain_bank(state, 2, "brick", 1)        # seats 1 and 3 are owed a brick each on a 10
    events = roll(state, 0, 10)
    assert events[1]["data"] == {"gains": [{"ore": 1}, {}, {}, {}], "shortages": ["brick"]}
    assert state["bank"][0] == 1


@pytest.mark.parametrize("option, expected", [("nobody", 0), ("single-gets-rest", 1)])
def test_a_lone_receiver_gets_the_rest_only_with_the_option(option: str, expected: int) -> None:
    state = set_up(bank_shortage=option)
    give(state, 0, grain=2, ore=3)
    roll(state, 0, 2)
    play(state, 0, {"type": "build_city", "node": 12})     # seat 0 is now owed 2 ore on a 10
    _drain_bank(state, 2, "ore", 1)
    play(state, 0, {"type": "end_turn"})
    before = state["hands"][0][4]
    events = roll(state, 1, 10)
    assert events[1]["data"]["shortages"] == ["ore"]
    assert state["hands"][0][4] - before == expected


def test_a_turn_can_hold_several_builds() -> None:
    state = set_up()
    to_main(state)
    give(state, 0, brick=3, lumber=3)
    for a, b in [(17, 22), (22, 16), (16, 21)]:
        play(state, 0, {"type": "build_road", "edge": edge(a, b)})
    assert state["pieces"][0][0] == 10 and state["hands"][0] == [0, 0, 0, 0, 0]
