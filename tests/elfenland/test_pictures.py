"""The Elfenland board picture: pieces where the geometry says, every clickable place once, safe
names, a pure function, and no state of any edition that makes it fail."""
from __future__ import annotations

# Views: of set-ups, of positions built as the engine records them (positions.py: counters laid,
# elves travelled by the engine's own moves) and of random games; one board no game reaches is
# written into a view, to show the picture draws whatever the view holds.

import copy
import json
import math
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from services.elfenland.pictures import (TOWN_XY, board_svg, counter_points, elf_xy,
                                         road_point, visited_xy)
from services.elfenland.rules import ElfenlandGame
from services.elfenland.rules.board import ROADS, START_TOWN, TOWNS
from shared.game.pictures import seat_colour
from shared.game.testing import play_random_game
from tests.elfenland.positions import (
    give_counter, lay_counters, new_game, place, play, set_hand, start_phase, walk)
from tests.shared.variants import VARIANTS

GAME = ElfenlandGame()
SVG = "{http://www.w3.org/2000/svg}"


def players(n: int) -> list[dict[str, Any]]:
    return [{"name": f"P{i}", "bot": None} for i in range(n)]


def spectator_view(n: int = 3, **options: Any) -> dict[str, Any]:
    return GAME.view(new_game(n, **options), None)


def placing(n: int, **options: Any) -> dict[str, Any]:
    return start_phase(new_game(n, **options), "placement", first=0)


def travelled(n: int, seat: int, towns: list[str]) -> dict[str, Any]:
    """Round 1's movement: the seats before ``seat`` end their journeys at once (no cards, no
    cut), then ``seat``'s elf travels through ``towns`` by the engine's own moves."""
    state = lay_counters(start_phase(new_game(n), "movement", first=0), seat, towns)
    for before in range(seat):
        set_hand(state, before, [])
        state, _ = play(state, before, {"type": "finish_travel"})
    return walk(state, seat, towns)


def draw(view: dict[str, Any], names: list[dict[str, Any]] | None = None) -> ET.Element:
    return ET.fromstring(board_svg(view, names if names is not None else players(len(view["seats"]))))


def find(root: ET.Element, **wanted: str) -> list[ET.Element]:
    """Elements whose attributes include all of ``wanted`` (``data_kind`` means ``data-kind``)."""
    want = {k.replace("_", "-"): str(v) for k, v in wanted.items()}
    return [el for el in root.iter() if all(el.get(k) == v for k, v in want.items())]


def translation(el: ET.Element) -> tuple[float, float]:
    inner = el.get("transform", "").removeprefix("translate(").removesuffix(")")
    x, y = inner.split(",")
    return float(x), float(y)


def distance_to_road(point: tuple[float, float], road_id: int) -> float:
    return min(math.dist(point, road_point(road_id, i / 400)) for i in range(401))


def test_every_town_and_road_is_a_clickable_place_exactly_once() -> None:
    root = draw(spectator_view())
    assert root.tag == f"{SVG}svg" and root.get("viewBox", "").startswith("0 0 ")
    towns = [el.get("data-id") for el in find(root, data_kind="town")]
    roads = [el.get("data-id") for el in find(root, data_kind="road")]
    assert sorted(towns) == sorted(TOWNS)
    assert sorted(roads, key=int) == [str(r.id) for r in ROADS]


def test_the_layout_places_every_town_apart_and_each_road_between_its_towns() -> None:
    assert set(TOWN_XY) == set(TOWNS)
    for a in TOWNS:
        for b in TOWNS:
            if a < b:
                assert math.dist(TOWN_XY[a], TOWN_XY[b]) > 100, (a, b)
    for road in ROADS:
        assert road_point(road.id, 0) == TOWN_XY[road.a] and road_point(road.id, 1) == TOWN_XY[road.b]


def test_the_two_roads_between_the_same_towns_are_drawn_apart() -> None:
    by_pair: dict[frozenset[str], list[int]] = {}
    for road in ROADS:
        by_pair.setdefault(frozenset((road.a, road.b)), []).append(road.id)
    twins = [ids for ids in by_pair.values() if len(ids) == 2]
    assert len(twins) == 7
    for first, second in twins:
        assert math.dist(road_point(first, 0.5), road_point(second, 0.5)) > 40


def test_a_counter_on_road_16_lies_on_road_16s_path() -> None:
    view = spectator_view()
    # A board no game reaches (an Elfenland obstacle beside Elfengold's sea monster, a gold counter
    # on a river): the picture draws whatever the view holds.
    view["board"] = {"16": {"transports": ["giant_pig"], "obstacle": "obstacle", "gold": False, "double": False},
                     "40": {"transports": [], "obstacle": "sea_monster", "gold": True, "double": False}}
    root = draw(view)
    on_16 = find(root, data_road="16")
    assert sorted(el.get("data-counter") for el in on_16) == ["giant_pig", "obstacle"]
    for el in on_16:
        assert distance_to_road(translation(el), 16) < 1.0
        # ... and not on its neighbour's (Lapphalya-Feodor shares a town with it).
        assert distance_to_road(translation(el), 13) > 20
    for el, spot in zip(on_16, counter_points(16, 2)):
        assert translation(el) == pytest.approx(spot, abs=0.1)
    on_40 = find(root, data_road="40")
    assert sorted(el.get("data-counter") for el in on_40) == ["gold", "sea_monster"]
    assert all(distance_to_road(translation(el), 40) < 1.0 for el in on_40)


def test_a_double_spell_shows_both_transports_and_its_mark_on_the_road() -> None:
    state = place(placing(3, edition="elfengold"), 1, "elfcycle", 26)
    for kind in ("double", "troll_wagon"):
        give_counter(state, 0, kind)
    state, _ = play(state, 0, {"type": "place_double", "road": 26, "counter": "troll_wagon"})
    view = GAME.view(state, None)
    assert view["board"]["26"] == {"transports": ["elfcycle", "troll_wagon"], "obstacle": None, "gold": False,
                                   "double": True}
    kinds = [el.get("data-counter") for el in find(draw(view), data_road="26")]
    assert kinds == ["elfcycle", "troll_wagon", "double"]


def test_each_elf_is_drawn_in_its_seat_colour_at_its_town() -> None:
    view = GAME.view(travelled(4, 1, ["Lapphalya"]), None)
    assert [seat["town"] for seat in view["seats"]] == ["Elvenhold", "Lapphalya", "Elvenhold", "Elvenhold"]
    root = draw(view)
    elves = {el.get("data-seat"): el for el in root.iter(f"{SVG}circle") if el.get("class") == "elf"}
    assert sorted(elves) == ["0", "1", "2", "3"]
    elf = elves["1"]
    assert elf.get("fill") == seat_colour(1) and elf.get("data-town") == "Lapphalya"
    x, y = float(elf.get("cx")), float(elf.get("cy"))
    assert (x, y) == pytest.approx(elf_xy("Lapphalya", 1, 4), abs=0.1)
    assert math.dist((x, y), TOWN_XY["Lapphalya"]) < 30
    # The three others still stand on different spots round Elvenhold.
    spots = {(elves[s].get("cx"), elves[s].get("cy")) for s in ("0", "2", "3")}
    assert len(spots) == 3
    assert all(math.dist((float(cx), float(cy)), TOWN_XY[START_TOWN]) < 30 for cx, cy in spots)


def test_visited_towns_are_marked_in_the_visitors_colour() -> None:
    view = GAME.view(travelled(3, 2, ["Beata", "Strykhaven"]), None)
    marks = [el for el in draw(view).iter(f"{SVG}rect") if el.get("data-visited")]
    assert sorted((el.get("data-seat"), el.get("data-visited")) for el in marks) == [("2", "Beata"), ("2", "Strykhaven")]
    for el in marks:
        assert el.get("fill") == seat_colour(2)
        centre = (float(el.get("x")) + 5, float(el.get("y")) + 5)
        assert centre == pytest.approx(visited_xy(el.get("data-visited"), 2, 3), abs=0.1)


def test_home_towns_are_ringed_once_the_view_shows_them() -> None:
    state = new_game(3)
    view = GAME.view(state, None)
    assert all(seat["home"] is None for seat in view["seats"])
    assert not [el for el in draw(view).iter() if el.get("data-home")]
    home = state["seats"][1]["home"]
    own = GAME.view(state, 1)                 # a seat's own view shows its home town, and only its own
    assert [seat["home"] for seat in own["seats"]] == [None, home, None]
    rings = [el for el in draw(own).iter() if el.get("data-home")]
    assert [(el.get("data-seat"), el.get("data-home"), el.get("stroke")) for el in rings] == [("1", home, seat_colour(1))]
    assert (float(rings[0].get("cx")), float(rings[0].get("cy"))) == TOWN_XY[home]


def test_rivers_point_downstream() -> None:
    root = draw(spectator_view())
    arrows = [el for el in root.iter(f"{SVG}polyline") if el.get("data-flows-to")]
    assert len(arrows) == 2 * sum(1 for r in ROADS if r.terrain == "river")
    for el in arrows:
        left, tip, right = [tuple(map(float, p.split(","))) for p in el.get("points", "").split()]
        base = ((left[0] + right[0]) / 2, (left[1] + right[1]) / 2)
        downstream = TOWN_XY[el.get("data-flows-to")]
        assert math.dist(tip, downstream) < math.dist(base, downstream)


def test_gold_values_appear_only_where_the_view_has_them() -> None:
    plain = draw(spectator_view(3))
    assert not [el for el in plain.iter() if el.get("data-gold")]
    gold_view = spectator_view(3, edition="elfengold", random_gold_values=True)
    shown = {el.get("data-gold") for el in draw(gold_view).iter() if el.get("data-gold")}
    assert shown == {str(v) for v in gold_view["gold_values"].values()}


def test_the_legend_names_every_seat_with_its_scores_at_the_end() -> None:
    played = play_random_game(GAME, 3, {}, seed=4, check_every=500)
    assert played.finished
    view = GAME.view(played.state, None)
    root = draw(view)
    result = view["result"]
    lines = {el.get("data-seat"): "".join(el.itertext()) for el in find(root, **{"class": "legend-seat"})}
    assert sorted(lines) == ["0", "1", "2"]
    for seat in range(3):
        assert f"P{seat}" in lines[str(seat)]
        assert f"score {result['scores'][seat]}" in lines[str(seat)]
        assert ("WINNER" in lines[str(seat)]) == (seat in result["winners"])


def test_a_hostile_name_comes_out_as_text() -> None:
    hostile = '<script>"x"\x1b[1m&'
    svg = board_svg(spectator_view(2), [{"name": hostile, "bot": None}, {"name": "ok", "bot": "random"}])
    assert "<script" not in svg and "\x1b" not in svg
    root = ET.fromstring(svg)
    line = "".join(find(root, **{"class": "legend-seat", "data_seat": "0"})[0].itertext())
    assert '<script>"x"[1m&' in line


def test_a_long_name_is_cut_in_the_legend() -> None:
    root = draw(spectator_view(2), [{"name": "N" * 200, "bot": None}, {"name": "ok", "bot": None}])
    line = "".join(find(root, **{"class": "legend-seat", "data_seat": "0"})[0].itertext())
    assert "N" * 23 + "\u2026:" in line and "N" * 24 not in line


def test_the_picture_is_a_pure_function_of_the_view() -> None:
    state = placing(4, edition="elfengold")
    for kind in ("dragon", "gold"):
        place(state, 1, kind, 3)
    view = GAME.view(state, None)
    assert view["board"] == {"3": {"transports": ["dragon"], "obstacle": None, "gold": True, "double": False}}
    before = copy.deepcopy(view)
    names = players(4)
    assert board_svg(view, names) == board_svg(copy.deepcopy(view), copy.deepcopy(names))
    assert view == before


def test_missing_names_or_odd_player_lists_do_not_break_the_picture() -> None:
    view = spectator_view(3)
    for names in ([], [{"name": None}], players(6)):
        draw(view, names)


ALL_VARIANTS = VARIANTS["elfenland"]


@pytest.mark.parametrize("case", range(len(ALL_VARIANTS)))
def test_every_state_of_random_games_draws(case: int) -> None:
    """After every event of a random game of each option set (the first to its end, the others
    for their first moves) the spectator's picture is drawn; every fifth one and the last are
    parsed too (well-formed SVG), which keeps the test to a second or so."""
    n, options = ALL_VARIANTS[case]
    played = play_random_game(GAME, n, options, seed=case, max_moves=None if case == 0 else 150,
                              check_every=1000)
    names = players(n)
    state = None
    for number, e in enumerate(played.events, start=1):
        state = GAME.evolve(state, json.loads(json.dumps(e)))
        svg = board_svg(GAME.view(state, None), names)
        if number % 5 == 0 or number == len(played.events):
            ET.fromstring(svg)
