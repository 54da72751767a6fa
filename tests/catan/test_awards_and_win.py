"""Longest Road, Largest Army and winning with 10 points on one's own turn."""
from __future__ import annotations

import random

from tests.catan.helpers import (
    GAME, buy_card, edge, fold, give, holding, illegal, next_turn, play, set_up, to_main,
)

CHAIN = [(17, 23), (23, 18), (18, 13), (13, 9)]          # with 12-17: 12-17-23-18-13-9
WEST = [(12, 7), (7, 3)]                                 # extends it to 3-7-12-...-9
SEAT2 = [(33, 38), (38, 43), (43, 47)]                   # with 28-33 and 47-51: five in a row


def _roads(state: dict, seat: int, links: list[tuple[int, int]]) -> None:
    give(state, seat, brick=len(links), lumber=len(links))
    for a, b in links:
        play(state, seat, {"type": "build_road", "edge": edge(a, b)})


def _cut_at_18(state: dict) -> None:
    """Seat 1 builds up to intersection 18 and settles there, cutting seat 0's chain."""
    assert state["current"] == 1
    _roads(state, 1, [(19, 24), (24, 18)])
    give(state, 1, brick=1, lumber=1, wool=1, grain=1)
    play(state, 1, {"type": "build_settlement", "node": 18})


def test_longest_road_needs_five_continuous_roads() -> None:
    state = to_main(set_up())
    _roads(state, 0, CHAIN[:3])
    assert state["road_length"][0] == 4 and state["longest_road"] is None
    _roads(state, 0, CHAIN[3:])
    assert state["road_length"][0] == 5 and state["longest_road"] == 0
    assert GAME.view(state, 1)["seats"][0]["public_points"] == 4


def test_branches_count_only_the_longest_path() -> None:
    state = to_main(set_up())
    _roads(state, 0, [(17, 23), (23, 18), (12, 7), (12, 8)])
    assert len(state["roads"][0]) == 6 and state["road_length"][0] == 4     # 7-12-17-23-18
    assert state["longest_road"] is None


def test_only_a_strictly_longer_road_takes_the_card() -> None:
    state = to_main(set_up())
    _roads(state, 0, CHAIN)
    next_turn(state)
    next_turn(state)
    _roads(state, 2, SEAT2)
    assert state["road_length"][2] == 5 and state["longest_road"] == 0
    _roads(state, 2, [(51, 48)])
    assert state["road_length"][2] == 6 and state["longest_road"] == 2


def test_a_cut_road_keeps_the_card_while_still_the_unique_longest() -> None:
    state = to_main(set_up())
    _roads(state, 0, CHAIN + WEST)
    assert state["road_length"][0] == 7 and state["longest_road"] == 0
    next_turn(state)
    _cut_at_18(state)
    # 3-7-12-17-23-18 and 18-13-9: the roads up to the cut still count on both sides.
    assert state["road_length"][0] == 5 and state["longest_road"] == 0


def test_a_cut_that_leaves_no_unique_longest_road_sets_the_card_aside() -> None:
    state = to_main(set_up())
    _roads(state, 0, CHAIN + WEST)
    next_turn(state)
    play(state, 1, {"type": "end_turn"})
    to_main(state, 2)
    _roads(state, 2, SEAT2)
    assert state["longest_road"] == 0
    for _ in range(3):
        next_turn(state)
    _cut_at_18(state)
    assert state["road_length"][0] == 5 and state["road_length"][2] == 5
    assert state["longest_road"] is None
    assert GAME.view(state, None)["seats"][0]["public_points"] == 2


def test_a_cut_below_five_sets_the_card_aside() -> None:
    state = to_main(set_up())
    _roads(state, 0, CHAIN)
    next_turn(state)
    _cut_at_18(state)
    assert state["road_length"][0] == 3 and state["longest_road"] is None


def _knights(state: dict, seat: int, count: int) -> None:
    """Crafted plays: buy, play and resolve ``count`` knights for ``seat``."""
    for _ in range(count):
        buy_card(state, seat, "knight")
        fold(state, "knight_played", seat=seat)
        fold(state, "robber_moved", seat=seat, hex=state["robber"] - 1 or 1, victim=None)


def test_largest_army_goes_to_the_third_knight_and_moves_only_on_a_strict_majority() -> None:
    state = holding("knight")
    play(state, 0, {"type": "play_knight"})
    play(state, 0, {"type": "move_robber", "hex": 4, "victim": None})
    assert state["knights"][0] == 1 and state["largest_army"] is None
    _knights(state, 0, 2)
    assert state["largest_army"] == 0
    _knights(state, 1, 3)
    assert state["largest_army"] == 0
    _knights(state, 1, 1)
    assert state["largest_army"] == 1
    assert GAME.view(state, 2)["seats"][1]["knights_played"] == 4


def _nine_points_for_seat_0(state: dict) -> None:
    """Seat 0: three cities and a settlement (7) and two hidden victory point cards (9)."""
    for node in (3, 48):
        fold(state, "settlement_built", seat=0, node=node, free=True)
    give(state, 0, grain=6, ore=9)
    for node in (12, 40, 3):
        play(state, 0, {"type": "build_city", "node": node})
    buy_card(state, 0, "victory_point")
    buy_card(state, 0, "victory_point")


def test_ten_points_on_ones_own_turn_win_immediately() -> None:
    state = to_main(set_up())
    _nine_points_for_seat_0(state)
    assert GAME.result(state) is None
    assert GAME.view(state, 1)["seats"][0]["dev_cards"] is None
    give(state, 0, grain=2, ore=3)
    play(state, 0, {"type": "build_city", "node": 48})
    assert state["phase"] == "over" and GAME.to_act(state) == []
    assert GAME.result(state) == {"winners": [0], "scores": [10, 2, 2, 2], "turns": 1}
    assert illegal(state, 0, {"type": "end_turn"}) == "game-over"
    assert GAME.legal_moves(state, 0) == []
    # The hidden victory point cards are revealed to everybody once the game is over.
    assert GAME.view(state, 1)["seats"][0]["dev_cards"] == {"victory_point": 2}


def test_drawing_the_tenth_point_as_a_victory_point_card_wins() -> None:
    state = to_main(set_up())
    _nine_points_for_seat_0(state)
    give(state, 0, wool=1, grain=1, ore=1)
    for seed in range(200):
        [bought] = GAME.decide(state, 0, {"type": "buy_dev_card"}, random.Random(seed))
        if bought["data"]["card"] == "victory_point":
            play(state, 0, {"type": "buy_dev_card"}, seed=seed)
            break
    assert GAME.result(state)["winners"] == [0]


def test_points_gained_on_another_turn_win_when_ones_turn_comes() -> None:
    state = to_main(set_up())
    for node in (3, 48):
        fold(state, "settlement_built", seat=1, node=node, free=True)    # crafted
    for _ in range(5):
        buy_card(state, 1, "victory_point")
    give(state, 1, grain=2, ore=3)
    fold(state, "city_built", seat=1, node=14)
    assert GAME.view(state, 1)["seats"][1]["points"] == 10
    assert GAME.result(state) is None                 # it is seat 0's turn
    play(state, 0, {"type": "end_turn"})
    assert GAME.result(state)["winners"] == [1]


def test_road_length_counts_loops_and_stops_at_an_opponents_building() -> None:
    from services.catan.rules.board import HEX_NODES
    from services.catan.rules.state import longest_road
    state = to_main(set_up())
    ring = HEX_NODES[9]                     # the six sides around the desert: a bare loop
    for i in range(6):
        fold(state, "road_built", seat=3, edge=edge(ring[i], ring[(i + 1) % 6]), free=True)
    assert longest_road(state, 3) == 6
    fold(state, "road_built", seat=3, edge=edge(23, 17), free=True)     # a tail off the loop
    assert longest_road(state, 3) == 7
    fold(state, "settlement_built", seat=2, node=24, free=True)          # a cut on the loop
    # The loop may still start and end at 24 (6), but the tail can no longer run round it.
    assert longest_road(state, 3) == 6


def _brute_force_road_length(state: dict, seat: int) -> int:
    """Reference: a walk from every end of every road, stopping at opponents' buildings."""
    from services.catan.rules.board import EDGE_NODES, NODE_LINKS

    def walk(node: int, used: frozenset[int]) -> int:
        owner = state["node_owner"][node]
        if used and owner not in (-1, seat):
            return 0
        return max([1 + walk(other, used | {e}) for e, other in NODE_LINKS[node]
                    if state["edge_owner"][e] == seat and e not in used] or [0])

    return max([walk(n, frozenset()) for road in state["roads"][seat] for n in EDGE_NODES[road]] or [0])


def test_road_lengths_match_a_brute_force_search_through_random_games() -> None:
    from shared.game.testing import play_random_game
    for seed in range(4):
        played = play_random_game(GAME, 4, {"board": "variable"}, seed=seed, check_every=1000)
        state = GAME.replay(played.events[:1])
        for e in played.events[1:]:
            GAME.evolve(state, e)
            if e["type"] in ("road_built", "settlement_built"):
                assert state["road_length"] == [_brute_force_road_length(state, s) for s in range(4)]


def _eight_points_for_seat_0(state: dict) -> None:
    """Seat 0: three cities and two settlements on the board (crafted): 3*2 + 2 = 8."""
    for node in (3, 48, 50):
        fold(state, "settlement_built", seat=0, node=node, free=True)
    give(state, 0, grain=6, ore=9)
    for node in (12, 40, 3):
        fold(state, "city_built", seat=0, node=node)
    assert GAME.view(state, 0)["seats"][0]["points"] == 8


def test_the_knight_that_brings_largest_army_and_the_tenth_point_wins_at_once() -> None:
    state = holding("knight", count=3)
    for robber in (4, 5):                       # a knight on each of seat 0's next two turns
        play(state, 0, {"type": "play_knight"})
        play(state, 0, {"type": "move_robber", "hex": robber, "victim": None})
        to_main(state)
        for _ in range(3):
            next_turn(state)
        play(state, state["current"], {"type": "end_turn"})
    assert state["current"] == 0 and state["phase"] == "roll" and state["knights"][0] == 2
    _eight_points_for_seat_0(state)
    assert GAME.result(state) is None and state["largest_army"] is None
    events = play(state, 0, {"type": "play_knight"})
    assert events == [{"type": "knight_played", "data": {"seat": 0}}]
    assert state["largest_army"] == 0 and state["phase"] == "over"
    assert GAME.result(state)["winners"] == [0] and GAME.to_act(state) == []
    assert illegal(state, 0, {"type": "move_robber", "hex": 4, "victim": None}) == "game-over"


def test_the_road_that_brings_longest_road_and_the_tenth_point_wins_at_once() -> None:
    state = to_main(set_up())
    _eight_points_for_seat_0(state)
    _roads(state, 0, CHAIN[:3])
    assert GAME.result(state) is None and state["road_length"][0] == 4
    _roads(state, 0, CHAIN[3:])
    assert state["longest_road"] == 0 and GAME.result(state) == {
        "winners": [0], "scores": [10, 2, 2, 2], "turns": 1}


def test_a_cut_that_hands_the_builder_longest_road_can_win_the_game() -> None:
    # Seat 0 holds Longest Road with 5; seat 1 (8 points, a road of 5) cuts it at 18 and wins.
    state = to_main(set_up())
    _roads(state, 0, CHAIN)
    assert state["longest_road"] == 0
    play(state, 0, {"type": "end_turn"})
    to_main(state, 1)
    for node in (3, 48):
        fold(state, "settlement_built", seat=1, node=node, free=True)
    give(state, 1, grain=6, ore=9)
    for node in (3, 48, 36):
        fold(state, "city_built", seat=1, node=node)      # three cities and settlement 14: 7
    _roads(state, 1, [(19, 24), (24, 18), (14, 10), (10, 15)])
    assert state["road_length"][1] == 5 and state["longest_road"] == 0
    assert GAME.view(state, 0)["seats"][1]["public_points"] == 7
    give(state, 1, brick=1, lumber=1, wool=1, grain=1)
    play(state, 1, {"type": "build_settlement", "node": 18})       # 8 points, and the cut
    assert state["road_length"][0] == 3 and state["longest_road"] == 1
    assert GAME.result(state) == {"winners": [1], "scores": [2, 10, 2, 2], "turns": 2}
