"""The founding phase: snake order, distance rule, the road at the new settlement, resources."""
from __future__ import annotations

from tests.catan.helpers import GAME, SETUP_4, edge, illegal, play, set_up, start


def test_two_rounds_second_in_reverse_order_then_first_player_rolls() -> None:
    state = start(4, first=2)
    order = []
    for node, towards in SETUP_4:
        seat = state["current"]
        assert GAME.to_act(state) == [seat]
        order.append(seat)
        play(state, seat, {"type": "build_settlement", "node": node})
        play(state, seat, {"type": "build_road", "edge": edge(node, towards)})
    assert order == [2, 3, 0, 1, 1, 0, 3, 2]
    assert state["phase"] == "roll" and GAME.to_act(state) == [2]
    assert GAME.legal_moves(state, 2)[0] == {"type": "roll"}


def test_distance_rule_and_occupied_intersections() -> None:
    state = start()
    play(state, 0, {"type": "build_settlement", "node": 12})
    play(state, 0, {"type": "build_road", "edge": edge(12, 17)})
    assert illegal(state, 1, {"type": "build_settlement", "node": 12}) == "node-occupied"
    assert illegal(state, 1, {"type": "build_settlement", "node": 17}) == "settlement-too-close"
    assert illegal(state, 1, {"type": "build_settlement", "node": 8}) == "settlement-too-close"
    legal_nodes = {m["node"] for m in GAME.legal_moves(state, 1)}
    assert legal_nodes.isdisjoint({12, 7, 8, 17}) and 22 in legal_nodes
    assert len(legal_nodes) == 54 - 4


def test_each_settlement_gets_one_road_touching_it() -> None:
    state = start()
    assert illegal(state, 0, {"type": "build_road", "edge": edge(12, 17)}) == "must-place-settlement"
    play(state, 0, {"type": "build_settlement", "node": 12})
    assert illegal(state, 0, {"type": "build_settlement", "node": 40}) == "must-place-road"
    assert illegal(state, 0, {"type": "build_road", "edge": edge(17, 22)}) == "road-not-at-settlement"
    assert sorted(m["edge"] for m in GAME.legal_moves(state, 0)) == sorted(
        [edge(12, 7), edge(12, 8), edge(12, 17)])
    assert illegal(state, 1, {"type": "build_settlement", "node": 40}) == "not-your-turn"
    assert illegal(state, 0, {"type": "roll"}) == "setup-in-progress"


def test_only_the_second_settlement_yields_starting_resources() -> None:
    state = start()
    for node, towards in SETUP_4[:7]:
        seat = state["current"]
        events = play(state, seat, {"type": "build_settlement", "node": node})
        play(state, seat, {"type": "build_road", "edge": edge(node, towards)})
        if node in (12, 14, 28, 20):
            assert [e["type"] for e in events] == ["settlement_built"]
    assert state["hands"][0] == [0, 0, 0, 0, 0]
    # Seat 0's second settlement at 40: Mountains 3, Fields 4, Fields 6.
    events = play(state, 0, {"type": "build_settlement", "node": 40})
    assert events[1] == {"type": "starting_resources", "data": {"seat": 0, "resources": {"grain": 2, "ore": 1}}}
    assert state["hands"][0] == [0, 0, 0, 2, 1]
    assert state["bank"][3] == 19 - 2 - sum(h[3] for h in state["hands"][1:])


def test_setup_works_for_three_players() -> None:
    state = set_up(3)
    assert state["pieces"] == [[13, 3, 4]] * 3
    assert state["phase"] == "roll" and state["turn"] == 1
