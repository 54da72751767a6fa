"""The island: topology tables, the beginner board, the variable set-up, harbours."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from services.catan.rules import board
from tests.catan.helpers import GAME, edge, start


def test_topology_has_54_intersections_72_paths_and_consistent_tables() -> None:
    assert (board.HEX_COUNT, board.NODE_COUNT, board.EDGE_COUNT) == (19, 54, 72)
    assert Counter(len(h) for h in board.NODE_HEXES) == {1: 18, 2: 12, 3: 24}
    for node in range(board.NODE_COUNT):
        assert len(board.NODE_NODES[node]) in (2, 3)
        for e in board.NODE_EDGES[node]:
            assert node in board.EDGE_NODES[e]
        for h in board.NODE_HEXES[node]:
            assert node in board.HEX_NODES[h]
    # Two corners of a hex side are neighbours; opposite corners are not.
    assert 12 in board.NODE_NODES[8] and 12 not in board.NODE_NODES[4]


def test_beginner_board_matches_the_research_facts() -> None:
    layout = board.beginner_board()
    assert Counter(layout["terrains"]) == {"forest": 4, "pasture": 4, "fields": 4, "hills": 3,
                                           "mountains": 3, "desert": 1}
    assert sorted(n for n in layout["numbers"] if n) == sorted(board.DATA["token_spiral"])
    assert layout["numbers"][layout["terrains"].index("desert")] is None
    assert layout["terrains"][:3] == ["mountains", "pasture", "forest"]
    assert layout["numbers"][:3] == [10, 2, 9]
    state = start()
    assert state["robber"] == 9 and state["terrains"][9] == "desert"


def test_nine_harbours_four_generic_and_one_per_resource_brick_west_of_forest_8() -> None:
    harbours = board.harbour_layout()
    assert Counter(h["kind"] for h in harbours) == {"3:1": 4, "brick": 1, "lumber": 1, "wool": 1,
                                                   "grain": 1, "ore": 1}
    brick = next(h for h in harbours if h["kind"] == "brick")
    assert board.HEX_NODES[12][4:6] == [38, 33]            # SW and NW corners of Forest 8
    assert sorted(brick["nodes"]) == [33, 38]
    assert board.DATA["hexes"][12] == {"terrain": "forest", "number": 8}
    nodes = [n for h in harbours for n in h["nodes"]]
    assert len(set(nodes)) == 18
    assert all(len(board.NODE_HEXES[n]) < 3 for n in nodes)   # all on the coast
    assert edge(33, 38) == board.side_edge(12, "W")


@pytest.mark.parametrize("corner", range(6))
def test_letter_spiral_walks_neighbouring_hexes_and_covers_the_island(corner: int) -> None:
    order = board.spiral_order(corner)
    assert sorted(order) == list(range(19)) and order[-1] == 9
    assert all(b in board.HEX_NEIGHBOURS[a] for a, b in zip(order, order[1:]))


def test_variable_board_lays_tokens_along_the_spiral_skipping_the_desert_with_no_red_neighbours() -> None:
    for seed in range(60):
        layout = board.variable_board(random.Random(seed))
        numbers, terrains = layout["numbers"], layout["terrains"]
        along = [numbers[h] for h in board.spiral_order(layout["spiral_corner"]) if terrains[h] != "desert"]
        assert along == board.DATA["token_spiral"]
        assert numbers[terrains.index("desert")] is None
        for h in range(19):
            if numbers[h] in (6, 8):
                assert all(numbers[n] not in (6, 8) for n in board.HEX_NEIGHBOURS[h])


def test_the_official_spiral_never_puts_red_numbers_side_by_side() -> None:
    # Why the redraw guard in variable_board never fires: for every start corner and every
    # desert position, the A-R sequence keeps 6s and 8s apart.
    for corner in range(6):
        for desert in range(19):
            tokens = iter(board.DATA["token_spiral"])
            numbers = [None if h == desert else 0 for h in range(19)]
            for h in board.spiral_order(corner):
                if h != desert:
                    numbers[h] = next(tokens)
            assert not board._red_numbers_touch(numbers)


def test_variable_setup_event_records_the_layout_and_the_robber_on_the_desert() -> None:
    [started] = GAME.setup(4, {"board": "variable"}, random.Random(5))
    data = started["data"]
    assert {"terrains", "numbers", "spiral_corner", "attempts", "harbours", "first_player"} <= set(data)
    assert data["terrains"][data["robber"]] == "desert"
    state = GAME.evolve(None, started)
    assert state["terrains"] == data["terrains"]


def test_first_player_is_the_highest_start_roll_ties_roll_again() -> None:
    for seed in range(30):
        data = GAME.setup(3, {}, random.Random(seed))[0]["data"]
        last = data["start_rolls"][-1]
        assert last[data["first_player"]] == max(last)
        assert last.count(max(last)) == 1


def test_setup_rejects_bad_player_counts_and_options() -> None:
    from shared.game.engine import InvalidOptions
    with pytest.raises(InvalidOptions):
        GAME.setup(2, {}, random.Random(0))
    with pytest.raises(InvalidOptions):
        GAME.setup(4, {"board": "hexagonal"}, random.Random(0))
