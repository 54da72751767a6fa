"""The lookahead the planner travels by and the value function counts: new towns within reach."""
from __future__ import annotations

# Positions: a set-up, counters and cards folded as the engine records them (positions.py); a
# seat that has moved travelled by the engine's own moves.

from services.elfenland.lookahead import towns_in_reach
from services.elfenland.value import FEATURES

from tests.elfenland.positions import GAME, new_game, place, road_between, set_hand, start_phase, walk


def reach_feature(state: dict, seat: int, name: str) -> float:
    return FEATURES.compute(state)[seat][FEATURES.names.index(name)]


def test_a_town_is_in_reach_only_with_a_counter_on_the_road_and_the_cards_to_pay_it() -> None:
    state = start_phase(new_game(2), "movement", first=0)
    road = road_between("Elvenhold", "Lapphalya")
    set_hand(state, 0, ["giant_pig"])
    assert towns_in_reach(state, 0) == 0            # no counter on any road yet
    place(state, 1, "giant_pig", road.id)
    # One new town for one card (a tenth of a town); a seat without the card reaches nothing.
    assert towns_in_reach(state, 0) == 0.9
    set_hand(state, 0, ["troll_wagon"])
    assert towns_in_reach(state, 0) == 0


def test_the_value_function_counts_the_reach_in_its_phase_and_not_after_the_journey() -> None:
    state = start_phase(new_game(2), "movement", first=0)
    place(state, 1, "giant_pig", road_between("Elvenhold", "Lapphalya").id)
    set_hand(state, 0, ["giant_pig"])
    assert reach_feature(state, 0, "reach_moving") == 0.9
    assert reach_feature(state, 0, "reach_placing") == 0
    # Down the river to Rivinia and back up by raft (the rafts dealt for it): the same hand, the
    # same town and Lapphalya still in reach, but the seat has travelled this round, and a seat
    # which has travelled this round reaches nothing more in it.
    state = walk(state, 0, ["Rivinia", "Elvenhold"])
    me = state["seats"][0]
    assert (me["hand"], me["town"], me["visited"], me["moved"]) == ({"giant_pig": 1}, "Elvenhold", ["Rivinia"], True)
    assert towns_in_reach(state, 0) == 0.9
    assert reach_feature(state, 0, "reach_moving") == 0
    start_phase(state, "placement", first=0)
    assert reach_feature(state, 0, "reach_placing") == 0.9


def test_the_reach_reads_only_what_the_seat_sees() -> None:
    state = start_phase(new_game(3), "movement", first=0)
    place(state, 1, "giant_pig", road_between("Elvenhold", "Lapphalya").id)
    set_hand(state, 0, ["giant_pig"])
    assert towns_in_reach(GAME.view(state, 0), 0) == towns_in_reach(state, 0)
