"""The Elasund board picture: pieces where the view puts them, every clickable place once, names
escaped, a pure function, and a well-formed picture of every state of random games."""
from __future__ import annotations

import copy
import xml.etree.ElementTree as ET

import pytest

from services.elasund.api import PLUGIN
from services.elasund.pictures import (
    SQUARE, board_svg, building_rect, row_label_xy, square_centre, square_xy, track_space_height, track_xy,
    wall_rect,
)
from services.elasund.rules import board
from services.elasund.rules.game import GAME
from shared.game.engine import event
from shared.game.pictures import seat_colour
from shared.game.testing import play_random_game
from tests.elasund.helpers import building, fold, fresh, permit
from tests.shared.variants import VARIANTS

SVG = "{http://www.w3.org/2000/svg}"
SEATS = [{"name": "Ann", "bot": None}, {"name": "Ben", "bot": "random"}, {"name": "Cy", "bot": None},
         {"name": "Di", "bot": "heuristic"}]


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def groups(root: ET.Element, cls: str) -> list[ET.Element]:
    return [g for g in root.iter(f"{SVG}g") if g.get("class") == cls]


def piece(root: ET.Element, cls: str, **data: object) -> ET.Element:
    found = [g for g in groups(root, cls) if all(g.get(f"data-{k}") == str(v) for k, v in data.items())]
    assert len(found) == 1, (cls, data, len(found))
    return found[0]


def rect_of(element: ET.Element) -> tuple[float, float, float, float]:
    r = element.find(f"{SVG}rect")
    assert r is not None
    return float(r.get("x")), float(r.get("y")), float(r.get("width")), float(r.get("height"))


def centre(element: ET.Element) -> tuple[float, float]:
    x, y, w, h = rect_of(element)
    return x + w / 2, y + h / 2


def inside(point: tuple[float, float], box: tuple[float, float, float, float]) -> bool:
    x, y, w, h = box
    return x <= point[0] <= x + w and y <= point[1] <= y + h


def cubes_in(element: ET.Element) -> list[ET.Element]:
    return [r for r in element.iter(f"{SVG}rect") if r.get("class") == "cube"]


def cube_centre(cube: ET.Element) -> tuple[float, float]:
    return float(cube.get("x")) + float(cube.get("width")) / 2, float(cube.get("y")) + float(cube.get("height")) / 2


@pytest.fixture(scope="module")
def crafted() -> dict:
    """Four players: a neutral tavern and trade office with cubes, a permit, walls (one a tower),
    two church tiles (one without a cube), the ship with pirates in row 9, trade points."""
    state = fresh(4)
    state = building(state, 1, "tavern", 5, 9, cubes=[9])
    state = building(state, 2, "large", 7, 2, cubes=[2, 3])
    state = permit(state, 2, 3, 6, 4)
    state = fold(state,
                 event("wall_built", seat=3, space="T2", tile=3, tower=True),
                 event("wall_built", seat=0, space="T3", tile=1, tower=False),
                 event("church_tile_placed", seat=0, builder=0, tile=5, col=2, row=8),
                 event("church_tile_placed", seat=None, builder=1, tile=6, col=3, row=8),
                 event("ship_moved", row=9, pirates=True),
                 event("trade_moved", seat=1, total=5, removed=[], placed=[3, 5]))
    return GAME.view(state, None)


def test_the_plugin_serves_this_picture():
    assert PLUGIN.board_svg is board_svg


def test_buildings_are_drawn_on_their_squares_by_owner_and_size(crafted):
    root = parse(board_svg(crafted, SEATS))
    for b in crafted["buildings"]:
        drawn = piece(root, "building", seat=b["seat"], col=b["col"], row=b["row"])
        x, y, w, h = building_rect(b["kind"], b["col"], b["row"])
        assert rect_of(drawn) == (x + 3, y + 3, w - 6, h - 6)
        spec = board.BUILDINGS[b["kind"]]
        assert (w, h) == (spec["w"] * SQUARE, spec["h"] * SQUARE)
        body = drawn.find(f"{SVG}rect")
        assert body.get("stroke") == seat_colour(b["seat"])
    tavern = piece(root, "building", seat=1, col=5, row=9)
    assert tavern.find(f"{SVG}rect").get("fill") == "white"          # neutral: white, builder's border
    hut = piece(root, "building", seat=0, col=3, row=4)
    assert hut.find(f"{SVG}rect").get("fill") == seat_colour(0)      # own building: the seat's colour


def test_victory_cubes_stand_in_the_rows_they_count_in(crafted):
    root = parse(board_svg(crafted, SEATS))
    office = piece(root, "building", seat=2, col=7, row=2)
    cubes = cubes_in(office)
    assert [c.get("data-seat") for c in cubes] == ["2", "2"]
    for cube, row in zip(cubes, (2, 3)):
        assert inside(cube_centre(cube), (*square_xy(8, row), SQUARE, SQUARE))


def test_permits_walls_and_church_tiles_are_where_the_view_puts_them(crafted):
    root = parse(board_svg(crafted, SEATS))
    drawn = piece(root, "permit", seat=2, col=6, row=4)
    assert centre(drawn) == square_centre(6, 4)
    assert "".join(drawn.itertext()) == "3"

    spaces = board.wall_spaces(4)
    tower = piece(root, "wall", seat=3, space="T2")
    assert inside(centre(tower), wall_rect(4, spaces["T2"]))
    assert [c.get("data-seat") for c in cubes_in(tower)] == ["3"]
    plain = piece(root, "wall", seat=0, space="T3")
    assert inside(centre(plain), wall_rect(4, spaces["T3"])) and cubes_in(plain) == []

    with_cube = piece(root, "church-tile", col=2, row=8)
    assert with_cube.get("data-seat") == "0" and centre(with_cube) == square_centre(2, 8)
    without = piece(root, "church-tile", col=3, row=8)
    assert without.get("data-seat") is None and cubes_in(without) == []
    area = [r for r in root.iter(f"{SVG}rect") if r.get("class") == "church-area"]
    origin = board.church_origin(5)
    assert len(area) == 1 and inside((float(area[0].get("x")), float(area[0].get("y"))),
                                     (*square_xy(*origin), SQUARE, SQUARE))


def test_ship_pirates_and_trade_track(crafted):
    root = parse(board_svg(crafted, SEATS))
    ship = piece(root, "ship", row=9)
    _, cy = row_label_xy(9)
    for polygon in ship.iter(f"{SVG}polygon"):
        for point in polygon.get("points").split():
            assert cy - SQUARE / 2 <= float(point.split(",")[1]) <= cy + SQUARE / 2
    assert [p.get("class") for p in ship.iter(f"{SVG}polygon")].count("pirates") == 1
    shade = [r for r in root.iter(f"{SVG}rect") if r.get("class") == "ship-row"]
    assert len(shade) == 1 and float(shade[0].get("y")) == square_xy(0, 9)[1]

    height = track_space_height()
    for seat, total in enumerate(crafted["trade"]):
        disk = next(c for c in root.iter(f"{SVG}circle") if c.get("data-seat") == str(seat))
        x, y = track_xy(total)
        assert y <= float(disk.get("cy")) <= y + height
    track = groups(root, "trade-pieces")[0]
    for space in (3, 5):
        x, y = track_xy(space)
        assert [c.get("data-seat") for c in cubes_in(track) if y <= cube_centre(c)[1] <= y + height] == ["1"]


def test_no_ship_and_pirates_before_the_first_roll():
    root = parse(board_svg(GAME.view(fresh(2), None), SEATS[:2]))
    assert groups(root, "ship") == [] and not any(p.get("class") == "pirates" for p in root.iter(f"{SVG}polygon"))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_clickable_place_is_present_once(players):
    root = parse(board_svg(GAME.view(fresh(players), None), SEATS[:players]))
    places = [(g.get("data-kind"), g.get("data-id")) for g in root.iter() if g.get("data-kind")]
    assert len(places) == len(set(places))
    by_kind: dict[str, set[str]] = {}
    for kind, place in places:
        by_kind.setdefault(kind, set()).add(place)
    assert by_kind == {
        "plot": {board.key(col, row) for col, row in board.city_squares(players)},
        "wall": set(board.wall_spaces(players)),
        "row": {str(row) for row in board.ROWS},
    }
    for g in root.iter():
        if g.get("data-kind") == "plot":
            col, row = board.unkey(g.get("data-id"))
            assert (g.get("data-col"), g.get("data-row")) == (str(col), str(row))
            assert rect_of(g)[:2] == square_xy(col, row)


def test_legend_names_seats_with_their_colours_and_scores(crafted):
    root = parse(board_svg(crafted, SEATS))
    seats = groups(root, "seat")
    assert [g.get("data-seat") for g in seats] == ["0", "1", "2", "3"]
    for seat, g in enumerate(seats):
        assert g.find(f"{SVG}rect").get("fill") == seat_colour(seat)
        assert g.get("data-score") == str(crafted["cubes_on_board"][seat])
        assert SEATS[seat]["name"] in "".join(g.itertext())
        assert f"trade {crafted['trade'][seat]}" in "".join(g.itertext())


def test_a_hostile_name_comes_out_escaped(crafted):
    hostile = '<script>"&\x1b[31m'
    svg = board_svg(crafted, [{"name": hostile, "bot": None}, *SEATS[1:]])
    assert "<script" not in svg and "\x1b" not in svg
    root = parse(svg)
    assert not any(el.tag.endswith("script") for el in root.iter())
    assert '<script>"&[31m' in "".join(groups(root, "seat")[0].itertext())


def test_pure_same_picture_twice_and_the_view_untouched(crafted):
    before = copy.deepcopy(crafted)
    assert board_svg(crafted, SEATS) == board_svg(crafted, SEATS)
    assert crafted == before


def test_the_picture_has_a_viewbox_and_a_title(crafted):
    root = parse(board_svg(crafted, SEATS))
    assert root.get("viewBox", "").startswith("0 0 ") and root.find(f"{SVG}title").text == "Elasund board"


@pytest.mark.parametrize("players,options", VARIANTS["elasund"],
                         ids=[f"{p}p-{'-'.join(f'{k}={v}' for k, v in o.items()) or 'default'}"
                              for p, o in VARIANTS["elasund"]])
def test_every_state_of_a_random_game_draws(players, options):
    played = play_random_game(GAME, players, options, seed=7, check_every=10**6)
    assert played.finished
    seats = SEATS[:players]
    state = None
    for number, e in enumerate(played.events, start=1):
        state = GAME.evolve(state, e)
        try:
            svg = board_svg(GAME.view(state, None), seats)
            if number % 20 == 0:   # parsing is the slow part: a sample is parsed as XML
                parse(svg)
        except Exception as exc:  # say which state broke
            raise AssertionError(f"after event {number} ({e['type']}): {exc!r}") from exc
    winner = state["winner"]
    root = parse(board_svg(GAME.view(state, None), seats))
    assert "★" in "".join(groups(root, "seat")[winner].itertext())
