"""Building roads, settlements and cities: connection, distance, costs, piece limits."""
from __future__ import annotations

from tests.catan.helpers import GAME, edge, fold, give, illegal, play, set_up, to_main


def _ready(**resources: int) -> dict:
    state = to_main(set_up())
    give(state, 0, **resources)
    return state


def test_a_road_must_join_the_network_on_a_free_path_and_be_paid() -> None:
    state = _ready(brick=1, lumber=1)
    assert illegal(state, 0, {"type": "build_road", "edge": edge(0, 3)}) == "not-connected"
    assert illegal(state, 0, {"type": "build_road", "edge": edge(14, 19)}) == "edge-occupied"
    assert illegal(state, 0, {"type": "build_road", "edge": 99}) == "invalid-edge"
    spots = {m["edge"] for m in GAME.legal_moves(state, 0) if m["type"] == "build_road"}
    assert spots == {edge(12, 7), edge(12, 8), edge(17, 22), edge(17, 23),
                     edge(40, 35), edge(40, 45), edge(44, 39), edge(44, 48)}
    events = play(state, 0, {"type": "build_road", "edge": edge(17, 22)})
    assert events == [{"type": "road_built", "data": {"seat": 0, "edge": edge(17, 22), "free": False}}]
    assert state["hands"][0] == [0] * 5 and state["pieces"][0][0] == 12
    assert illegal(state, 0, {"type": "build_road", "edge": edge(22, 16)}) == "not-enough-resources"


def test_an_opponents_settlement_cuts_the_road_network() -> None:
    state = _ready(brick=3, lumber=3)
    play(state, 0, {"type": "build_road", "edge": edge(17, 22)})
    play(state, 0, {"type": "build_road", "edge": edge(22, 28)})     # up to seat 2's settlement
    assert illegal(state, 0, {"type": "build_road", "edge": edge(28, 34)}) == "not-connected"
    assert edge(28, 34) not in {m.get("edge") for m in GAME.legal_moves(state, 0)}


def test_a_settlement_needs_an_own_road_the_distance_rule_and_its_cost() -> None:
    state = _ready(brick=3, lumber=3, wool=1, grain=1)
    assert illegal(state, 0, {"type": "build_settlement", "node": 3}) == "not-connected"
    assert illegal(state, 0, {"type": "build_settlement", "node": 17}) == "settlement-too-close"
    play(state, 0, {"type": "build_road", "edge": edge(12, 7)})
    play(state, 0, {"type": "build_road", "edge": edge(7, 3)})
    assert [m["node"] for m in GAME.legal_moves(state, 0) if m["type"] == "build_settlement"] == [3]
    play(state, 0, {"type": "build_settlement", "node": 3})
    assert state["hands"][0] == [0, 0, 0, 0, 0] and state["node_owner"][3] == 0
    give(state, 0, brick=1, lumber=1, wool=1)
    play(state, 0, {"type": "build_road", "edge": edge(0, 3)})
    assert illegal(state, 0, {"type": "build_settlement", "node": 0}) == "settlement-too-close"


def test_settlements_are_limited_to_five() -> None:
    state = _ready(brick=3, lumber=3, wool=1, grain=1)
    for node in (3, 48, 50):       # crafted free settlements elsewhere: 5 on the board
        fold(state, "settlement_built", seat=0, node=node, free=True)
    play(state, 0, {"type": "build_road", "edge": edge(17, 22)})
    play(state, 0, {"type": "build_road", "edge": edge(22, 16)})
    assert illegal(state, 0, {"type": "build_settlement", "node": 16}) == "no-pieces-left"
    assert not [m for m in GAME.legal_moves(state, 0) if m["type"] == "build_settlement"]


def test_roads_are_limited_to_fifteen() -> None:
    state = _ready(brick=1, lumber=1)
    for e in (edge(0, 3), edge(1, 5), edge(2, 6), edge(9, 13), edge(10, 15), edge(11, 16),
              edge(21, 27), edge(24, 30), edge(31, 37), edge(32, 37), edge(38, 43),
              edge(42, 46), edge(49, 53)):
        fold(state, "road_built", seat=0, edge=e, free=True)
    assert state["pieces"][0][0] == 0
    assert illegal(state, 0, {"type": "build_road", "edge": edge(17, 22)}) == "no-pieces-left"


def test_a_city_replaces_an_own_settlement_doubles_its_production_and_costs_two_grain_three_ore() -> None:
    state = _ready(grain=4, ore=6)
    assert illegal(state, 0, {"type": "build_city", "node": 14}) == "not-your-settlement"
    assert illegal(state, 0, {"type": "build_city", "node": 3}) == "not-your-settlement"
    assert sorted(m["node"] for m in GAME.legal_moves(state, 0) if m["type"] == "build_city") == [12, 40]
    play(state, 0, {"type": "build_city", "node": 12})
    assert state["node_level"][12] == 2 and state["pieces"][0][1:] == [4, 3]
    assert state["hands"][0] == [0, 0, 0, 2, 3]
    assert illegal(state, 0, {"type": "build_city", "node": 12}) == "not-your-settlement"
    play(state, 0, {"type": "build_city", "node": 40})
    assert illegal(state, 0, {"type": "build_city", "node": 40}) == "not-your-settlement"
    assert GAME.view(state, None)["seats"][0]["public_points"] == 4


def test_cities_are_limited_to_four() -> None:
    state = _ready(grain=10, ore=15)
    for node in (3, 48, 50):
        fold(state, "settlement_built", seat=0, node=node, free=True)
    for node in (12, 40, 3, 48):
        play(state, 0, {"type": "build_city", "node": node})
    assert illegal(state, 0, {"type": "build_city", "node": 50}) == "no-pieces-left"
