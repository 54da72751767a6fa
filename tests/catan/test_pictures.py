"""The Catan board picture: pieces where the ids say, every clickable place once, safe names,
a pure function, and no failure on any spectator view of a random game."""
from __future__ import annotations

import copy
import json
import math
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from services.catan.api import PLUGIN
from services.catan.pictures import SIZE, board_svg, harbour_xy, hex_corners, hex_xy, node_xy, road_path
from services.catan.rules.board import EDGE_COUNT, EDGE_NODES, HEX_COUNT, NODE_COUNT
from shared.game.testing import play_random_game
from tests.catan.helpers import GAME, edge, give, play, roll, set_up, start, to_main

SVG = "{http://www.w3.org/2000/svg}"
PLAYERS = [{"name": f"Player {seat}", "bot": seat % 2 == 1} for seat in range(4)]
Point = tuple[float, float]


def picture(state: dict[str, Any], players: list[dict[str, Any]] = PLAYERS) -> ET.Element:
    """The spectator's picture of a state, as JSON would carry the view, parsed (so well-formed)."""
    view = json.loads(json.dumps(GAME.view(state, None)))
    return ET.fromstring(board_svg(view, players[:state["players"]]))


def find(root: ET.Element, **wanted: Any) -> list[ET.Element]:
    return [el for el in root.iter() if all(el.get(k.replace("_", "-")) == str(v) for k, v in wanted.items())]


def polygon_points(el: ET.Element) -> list[Point]:
    return [(float(x), float(y)) for x, y in (pair.split(",") for pair in el.get("points", "").split())]


def bbox_centre(points: list[Point]) -> Point:
    xs, ys = [x for x, _ in points], [y for _, y in points]
    return (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2


def near(a: Point, b: Point, tolerance: float = 0.2) -> bool:
    return math.dist(a, b) <= tolerance


def on_segment(p: Point, a: Point, b: Point) -> bool:
    """``p`` lies on the segment ``a``-``b`` (to rounding)."""
    (ax, ay), (bx, by), (px, py) = a, b, p
    t = ((px - ax) * (bx - ax) + (py - ay) * (by - ay)) / ((bx - ax) ** 2 + (by - ay) ** 2)
    return 0 <= t <= 1 and near(p, (ax + t * (bx - ax), ay + t * (by - ay)), 0.3)


def test_the_geometry_makes_regular_hexes_that_share_their_corners() -> None:
    for hex_id in range(HEX_COUNT):
        for corner in hex_corners(hex_id):
            assert math.dist(corner, hex_xy(hex_id)) == pytest.approx(SIZE)
    assert len({(round(x, 3), round(y, 3)) for x, y in map(node_xy, range(NODE_COUNT))}) == NODE_COUNT
    for e in range(EDGE_COUNT):
        a, b = road_path(e)
        assert (a, b) == (node_xy(EDGE_NODES[e][0]), node_xy(EDGE_NODES[e][1]))
        assert math.dist(a, b) == pytest.approx(SIZE)


def test_every_clickable_place_is_drawn_once_where_its_id_says() -> None:
    root = picture(start(4))
    hexes, nodes, edges = (find(root, data_kind=kind) for kind in ("hex", "node", "edge"))
    assert sorted(int(el.get("data-id")) for el in hexes) == list(range(HEX_COUNT))
    assert sorted(int(el.get("data-id")) for el in nodes) == list(range(NODE_COUNT))
    assert sorted(int(el.get("data-id")) for el in edges) == list(range(EDGE_COUNT))
    assert {el.get("data-kind") for el in root.iter() if el.get("data-kind")} == {"hex", "node", "edge"}
    for el in hexes:
        corners = polygon_points(el)
        expected = hex_corners(int(el.get("data-id")))
        assert len(corners) == 6 and all(near(p, q) for p, q in zip(corners, expected))
    for el in nodes:
        assert near((float(el.get("cx")), float(el.get("cy"))), node_xy(int(el.get("data-id"))))
    for el in edges:
        a, b = road_path(int(el.get("data-id")))
        assert near((float(el.get("x1")), float(el.get("y1"))), a)
        assert near((float(el.get("x2")), float(el.get("y2"))), b)


def test_terrains_and_number_tokens_follow_the_board_with_6_and_8_in_red() -> None:
    state = start(4)
    root = picture(state)
    tokens = find(root, **{"class": "token"})
    assert len(tokens) == HEX_COUNT - 1                      # every hex but the desert
    for token in tokens:
        hex_id = int(token.get("data-hex"))
        assert token.text == str(state["numbers"][hex_id])
        assert abs(float(token.get("x")) - hex_xy(hex_id)[0]) < 0.2
        red = token.get("fill") == "#c62828"
        assert red == (state["numbers"][hex_id] in (6, 8))
    desert = state["terrains"].index("desert")
    [desert_hex] = find(root, data_kind="hex", data_id=desert)
    assert "desert" in desert_hex.find(f"{SVG}title").text
    fills = {el.get("fill") for el in find(root, data_kind="hex")}
    assert len(fills) == 6                                   # one colour per terrain


def test_settlements_roads_and_cities_stand_at_their_ids_in_their_seats_colours() -> None:
    state = to_main(set_up(4))
    give(state, 0, grain=2, ore=3)
    play(state, 0, {"type": "build_city", "node": 12})
    root = picture(state)
    [city] = find(root, **{"class": "city"})
    assert (city.get("data-seat"), city.get("data-node")) == ("0", "12")
    assert near(bbox_centre(polygon_points(city)), node_xy(12), 2)
    [settlement] = find(root, **{"class": "settlement", "data-node": 14})
    assert settlement.get("data-seat") == "1"
    assert near(bbox_centre(polygon_points(settlement)), node_xy(14), 2)
    assert settlement.get("fill") != city.get("fill")
    assert len(find(root, **{"class": "settlement"})) == 7
    # Seat 0's set-up road runs from node 12 to node 17.
    [road] = find(root, **{"class": "road", "data-edge": edge(12, 17)})
    assert road.get("data-seat") == "0"
    a, b = road_path(edge(12, 17))
    for line in road:
        assert on_segment((float(line.get("x1")), float(line.get("y1"))), a, b)
        assert on_segment((float(line.get("x2")), float(line.get("y2"))), a, b)
    assert road[-1].get("stroke") == city.get("fill")
    assert len(find(root, **{"class": "road"})) == 8


def test_the_robber_is_drawn_on_its_hex() -> None:
    state = to_main(set_up(4))
    play(state, 0, {"type": "end_turn"})
    roll(state, 1, 7)
    play(state, 1, {"type": "move_robber", "hex": 4})          # seat 0 there has no cards to steal
    [robber] = find(picture(state), **{"class": "robber"})
    assert robber.get("data-hex") == "4"
    head = robber.find(f"{SVG}circle")
    assert math.dist((float(head.get("cx")), float(head.get("cy"))), hex_xy(4)) < SIZE * math.sqrt(3) / 2


def test_harbours_show_their_kind_at_sea_joined_to_their_two_nodes() -> None:
    state = start(4)
    harbours = find(picture(state), **{"class": "harbour"})
    assert len(harbours) == 9
    for group, harbour in zip(harbours, state["harbours"]):
        nodes = harbour["nodes"]
        assert group.get("data-harbour") == harbour["kind"]
        assert group.get("data-nodes") == f"{nodes[0]} {nodes[1]}"
        assert harbour["kind"] in "".join(group.itertext())
        marker = harbour_xy(nodes)
        assert min(math.dist(marker, hex_xy(h)) for h in range(HEX_COUNT)) > SIZE   # out at sea
        piers = group.findall(f"{SVG}line")
        assert [near((float(p.get("x2")), float(p.get("y2"))), node_xy(n)) for p, n in zip(piers, nodes)] \
            == [True, True]


def test_the_legend_shows_names_colours_and_the_points_the_view_holds() -> None:
    state = to_main(set_up(4))
    root = picture(state)
    legend = find(root, **{"class": "legend"})
    assert [el.get("data-seat") for el in legend] == ["0", "1", "2", "3"]
    words = "".join(legend[1].itertext())
    assert "Player 1" in words and "(bot)" in words and "2 VP" in words
    assert legend[1].find(f"{SVG}rect").get("fill") != legend[0].find(f"{SVG}rect").get("fill")


def test_a_hostile_name_comes_out_as_text() -> None:
    hostile = '<script>"x"</script>\x1b&'
    players = [{"name": hostile, "bot": False}, {"name": "W" * 100, "bot": False}] + PLAYERS[2:]
    view = GAME.view(start(4), None)
    svg = board_svg(view, players)
    assert "<script" not in svg and "\x1b" not in svg
    legend = find(ET.fromstring(svg), **{"class": "legend"})
    assert '<script>"x"</script>&:' in "".join(legend[0].itertext())
    assert "W" * 23 + "…:" in "".join(legend[1].itertext())     # long names are cut short


def test_the_picture_is_a_pure_function_of_the_view() -> None:
    state = to_main(set_up(3))
    view = GAME.view(state, None)
    kept = copy.deepcopy(view)
    assert board_svg(view, PLAYERS[:3]) == board_svg(copy.deepcopy(view), PLAYERS[:3])
    assert view == kept
    assert PLUGIN.board_svg is board_svg


@pytest.mark.parametrize("players, options, moves", [
    (3, {"board": "beginner", "bank_shortage": "nobody"}, 5000),
    (4, {"board": "variable", "bank_shortage": "single-gets-rest"}, 5000),
    (4, {"board": "beginner", "bank_shortage": "single-gets-rest"}, 300),
    (3, {"board": "variable", "bank_shortage": "nobody"}, 300),
])
def test_every_spectator_view_of_a_random_game_draws(players: int, options: dict[str, Any], moves: int) -> None:
    played = play_random_game(GAME, players, options, seed=7, max_moves=moves, check_every=10**6)
    assert played.finished or moves < 5000
    state = None
    for number, event in enumerate(played.events):
        state = GAME.evolve(state, event)
        view = GAME.view(state, None)
        sampled = number % 20 == 0 or number == len(played.events) - 1
        svg = board_svg(json.loads(json.dumps(view)) if sampled else view, PLAYERS[:players])
        if sampled:   # parsing every picture would take longer than drawing them
            root = ET.fromstring(svg)
            assert len(find(root, data_kind="node")) == NODE_COUNT
    buildings = find(root, **{"class": "settlement"}) + find(root, **{"class": "city"})
    assert len(buildings) == sum(owner >= 0 for owner in state["node_owner"])
    if played.finished:
        assert " wins " in "".join(root.itertext())


def test_a_settlement_of_seat_1_at_node_12_is_drawn_at_node_12() -> None:
    """The issue's own example: the settlement stands at node 12's coordinates, in seat 1's colour,
    and nowhere else (the view is the spectator's, as the API serves it)."""
    state = start(3)
    play(state, 0, {"type": "build_settlement", "node": 0})
    play(state, 0, {"type": "build_road", "edge": edge(0, next(b for a, b in EDGE_NODES if a == 0))})
    play(state, 1, {"type": "build_settlement", "node": 12})
    root = picture(state)
    [settlement] = find(root, **{"class": "settlement", "data-seat": 1})
    assert settlement.get("data-node") == "12"
    assert near(bbox_centre(polygon_points(settlement)), node_xy(12), 2)
    assert not near(bbox_centre(polygon_points(settlement)), node_xy(13), 10)
    [seat0] = find(root, **{"class": "settlement", "data-seat": 0})
    assert seat0.get("fill") != settlement.get("fill")
