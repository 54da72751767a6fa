"""The expert's greedy style races for the longest road; the plain greedy bot does not."""
from __future__ import annotations

import random

from services.catan import bots
from tests.catan.helpers import GAME, edge, give, play, set_up, to_main

CHAIN = [(17, 23), (23, 18), (18, 13)]          # with seat 0's set-up road 12-17


def _seat0_with_roads(links: list[tuple[int, int]]) -> dict:
    state = to_main(set_up())
    give(state, 0, brick=len(links) + 1, lumber=len(links) + 1)    # and one road more in hand
    for a, b in links:
        play(state, 0, {"type": "build_road", "edge": edge(a, b)})
    return state


def _move(state: dict, style: bots.Style) -> dict:
    return bots.greedy_strategy(GAME, state, 0, random.Random(0), style)


def test_two_roads_short_of_the_longest_road_the_expert_style_builds_the_longest_extension() -> None:
    state = _seat0_with_roads(CHAIN[:2])            # 12-17-23-18: three roads, five take the card
    assert state["road_length"][0] == 3 and state["longest_road"] is None
    assert _move(state, bots.PLAIN) == {"type": "end_turn"}
    move = _move(state, bots.EXPERT)
    assert move["type"] == "build_road"
    plan = bots._Plan(GAME, state, 0, bots.EXPERT)
    assert plan.road_length_with(move["edge"]) == 4
    assert max(plan.road_length_with(m["edge"]) for m in plan.by_type["build_road"]) == 4


def test_three_roads_short_it_saves_its_cards() -> None:
    state = _seat0_with_roads(CHAIN[:1])            # two roads
    assert state["road_length"][0] == 2
    assert _move(state, bots.EXPERT) == {"type": "end_turn"}


def test_the_holder_does_not_race_any_more() -> None:
    state = _seat0_with_roads(CHAIN + [(13, 9)])    # five roads: seat 0 holds the card
    assert state["longest_road"] == 0
    assert _move(state, bots.EXPERT) == {"type": "end_turn"}
