"""The Elastium board picture: places once each, pieces where they belong, safe names, purity,
and no failure on any spectator view of random games of every scenario.

Every position drawn is played: bands are placed once play has brought the seat its turn and the
cards (``helpers.place``), scores are the greedy bots' own."""
from __future__ import annotations

import copy
import math
import random
import xml.etree.ElementTree as ET

import pytest

from services.elastium.pictures import board_svg, centroid, peg_xy
from services.elastium.rules.board import SCENARIOS, board, line_key, raw_boards
from shared.game.engine import random_strategy
from services.elastium.bots import STRATEGIES
from tests.elastium.helpers import GAME, new_game, place, start
from tests.shared.variants import VARIANTS

NAMES = [{"name": "Ana", "bot": False}, {"name": "Bo", "bot": True},
         {"name": "Cy", "bot": False}, {"name": "Di", "bot": True}]


def picture(state: dict, players: list[dict] | None = None) -> ET.Element:
    svg = board_svg(GAME.view(state, None), (players or NAMES)[:state["players"]])
    return ET.fromstring(svg)


def places(root: ET.Element, kind: str) -> list[str]:
    return [e.get("data-id") for e in root.iter() if e.get("data-kind") == kind]


def close(a: tuple[float, float], b: tuple[float, float], within: float) -> bool:
    return math.dist(a, b) <= within


def points_of(element: ET.Element) -> list[tuple[float, float]]:
    return [(float(x), float(y)) for x, y in (pair.split(",") for pair in element.get("points", "").split())]


def band_element(root: ET.Element, seat: int, key: str) -> ET.Element:
    found = [e for e in root.iter() if e.get("class") == "band" and e.get("data-band") == key
             and e.get("data-seat") == str(seat)]
    assert len(found) == 1, (seat, key, len(found))
    return found[0]


@pytest.mark.parametrize("scenario", SCENARIOS)
@pytest.mark.parametrize("players", [2, 4])
def test_every_peg_line_and_segment_is_a_place_once(scenario: str, players: int) -> None:
    root = picture(new_game(scenario, players))
    b = board(scenario, players)
    pegs, lines, segments = places(root, "peg"), places(root, "line"), places(root, "segment")
    assert sorted(pegs) == sorted(b.pegs)                     # the crater's two pegs take no band
    assert sorted(segments) == (sorted(b.playable) if scenario != "labyrinth" else [])
    assert len(lines) == len(set(lines))
    # every 2-peg band the face allows is a line of the picture, every triangle a segment
    two = {key.replace("+", "-") for key, band in b.bands.items() if len(band.pegs) == 2}
    assert two <= set(lines)
    assert {band.explores[0] for band in b.bands.values() if len(band.pegs) == 3 and band.explores} <= set(segments)
    for peg in pegs:
        circle = next(e for e in root.iter() if e.get("data-kind") == "peg" and e.get("data-id") == peg)
        assert close((float(circle.get("cx")), float(circle.get("cy"))), peg_xy(peg), 0.1)
        assert circle.get("data-colour") == b.colours[peg]


def test_line_ids_are_the_moves_pegs_and_lie_between_them() -> None:
    root = picture(new_game("labyrinth", 3))
    maze = {line_key(a, c) for a, c in raw_boards()["scenarios"]["labyrinth"]["lines"]}
    for element in root.iter():
        if element.get("data-kind") == "line":
            a, c = element.get("data-id").split("-")
            assert element.get("data-id") in maze
            assert close((float(element.get("x1")), float(element.get("y1"))), peg_xy(a), 0.1)
            assert close((float(element.get("x2")), float(element.get("y2"))), peg_xy(c), 0.1)


def test_a_triangle_band_joins_its_pegs_and_tints_the_segment_it_explored() -> None:
    state, _ = place(new_game("jungle-temples", 2), 0, ["c1r0", "c2r0", "c1r1"])
    root = picture(state)
    band = band_element(root, 0, "c1r0+c2r0+c1r1")
    assert band.tag.endswith("polygon")
    corners = points_of(band)
    assert len(corners) == 3
    for peg in ("c1r0", "c2r0", "c1r1"):          # one corner near each peg, inside the triangle
        assert sum(close(corner, peg_xy(peg), 12) for corner in corners) == 1
    segment = next(e for e in root.iter() if e.get("data-kind") == "segment" and e.get("data-id") == "s0i2")
    tint = [e for e in root.iter() if e.get("class") == "collected" and e.get("points") == segment.get("points")]
    assert [e.get("data-seat") for e in tint] == ["0"]
    # nothing else is tinted: one band explored one segment
    assert len([e for e in root.iter() if e.get("class") == "collected"]) == 1


def test_a_rhombus_band_of_the_other_seat_has_its_four_corners() -> None:
    state, _ = place(new_game("jungle-temples", 2), 1, ["c3r9", "c4r9", "c3r8", "c4r8"])
    corners = points_of(band_element(picture(state), 1, "c3r8+c4r8+c3r9+c4r9"))
    assert len(corners) == 4
    for peg in ("c3r8", "c4r8", "c3r9", "c4r9"):
        assert sum(close(corner, peg_xy(peg), 14) for corner in corners) == 1


def test_a_labyrinth_line_band_runs_peg_to_peg_and_marks_its_head_and_the_item_taken() -> None:
    state, _ = place(new_game("labyrinth", 2), 0, ["c1r0", "c1r1"])
    root = picture(state)
    ends = points_of(band_element(root, 0, "c1r0+c1r1"))
    assert len(ends) == 2
    assert close(ends[0], peg_xy("c1r0"), 6) and close(ends[1], peg_xy("c1r1"), 6)
    heads = [e for e in root.iter() if e.get("class") == "chain-head"]
    assert state["chain_heads"][0] == ["c1r1"] and [h.get("data-seat") for h in heads] == ["0"]
    assert close((float(heads[0].get("cx")), float(heads[0].get("cy"))), peg_xy("c1r1"), 0.1)
    taken = [e for e in root.iter() if e.get("class") == "collected"]     # the line's 2 VP
    assert len(taken) == 1 and taken[0].get("data-seat") == "0"
    assert close((float(taken[0].get("cx")), float(taken[0].get("cy"))), centroid(["c1r0", "c1r1"]), 0.1)


def test_each_scenario_draws_its_own_features() -> None:
    def count(root: ET.Element, cls: str) -> int:
        return sum(1 for e in root.iter() if e.get("class") == cls)
    assert count(picture(new_game("archipelago", 2)), "bridge") == 8
    assert count(picture(new_game("two-deities", 2)), "idol") == 14
    assert count(picture(new_game("labyrinth", 4)), "artefact") == 12
    assert count(picture(new_game("volcano", 3)), "unplayable") == 2
    assert count(picture(new_game("jungle-temples", 4)), "start") == 16
    engraved = ET.tostring(picture(new_game("engraved-plateau", 2)), encoding="unicode")
    assert ">H<" in engraved and ">K<" not in engraved          # images I-L are 3-4 player images


def test_enclosed_segments_are_hatched_in_the_seat_of_the_encloser() -> None:
    state, _ = place(new_game("jungle-temples", 2), 1, ["c4r8", "c3r9", "c4r9"])    # explores s8i7
    assert state["enclosed"] == [[], ["s8i7"]]
    root = picture(state)
    hatched = [e for e in root.iter() if e.get("class") == "enclosed"]
    assert [(e.get("data-seat"), e.get("fill")) for e in hatched] == [("1", "url(#enclosed-1)")]
    assert any(e.get("id") == "enclosed-1" for e in root.iter())


def test_hostile_names_are_escaped_and_legend_shows_names_and_scores() -> None:
    hostile = [{"name": '<script>"x"</script>\x1b[1m', "bot": False}, {"name": "Bo & Co", "bot": True}]
    # greedy bots play on until both seats have scored, differently
    state = start().play_until(lambda s: 0 < s["score"][0] != s["score"][1] > 0, strategy=STRATEGIES["greedy"]).state
    svg = board_svg(GAME.view(state, None), hostile)
    assert "<script" not in svg and "\x1b" not in svg
    root = ET.fromstring(svg)
    words = " ".join("".join(e.itertext()) for e in root.iter() if e.get("class") == "legend")
    assert '<script>"x"</script>[1m' in words and "Bo & Co (bot)" in words
    assert all(f": {score} VP" in words for score in state["score"])


def test_the_picture_is_pure() -> None:
    state, _ = place(new_game("fragile-ruins", 3), 0, ["c1r0", "c2r0", "c1r1"])
    view = GAME.view(state, None)
    before = copy.deepcopy(view)
    assert board_svg(view, NAMES[:3]) == board_svg(view, NAMES[:3])
    assert view == before


@pytest.mark.parametrize("players, options", VARIANTS["elastium"],
                         ids=[o["scenario"] for _, o in VARIANTS["elastium"]])
def test_every_spectator_view_of_a_short_random_game_draws(players: int, options: dict) -> None:
    """After every event, from setup to the end (max_rounds 2 makes random games end soon)."""
    rng = random.Random(7)
    events = GAME.setup(players, {**options, "max_rounds": 2}, random.Random(1))
    state = None
    drawn = 0
    while True:
        for e in events:
            state = GAME.evolve(state, e)
            ET.fromstring(board_svg(GAME.view(state, None), NAMES[:players]))
            drawn += 1
        if GAME.result(state) is not None:
            break
        seat = GAME.to_act(state)[0]
        move = random_strategy(GAME, state, seat, rng)
        events = GAME.decide(state, seat, move, random.Random(rng.getrandbits(32)))
    assert drawn > 10


def test_a_long_barrier_bends_at_its_middle_peg() -> None:
    state, _ = place(new_game("fragile-ruins", 3), 0, ["c1r0", "c2r0", "c0r1"])     # middle c1r0
    bend = points_of(band_element(picture(state), 0, "c1r0+c2r0+c0r1"))
    assert len(bend) == 3
    assert close(bend[1], peg_xy("c1r0"), 6)
    assert {close(bend[0], peg_xy("c2r0"), 6), close(bend[0], peg_xy("c0r1"), 6)} == {True, False}
    assert close(bend[2], peg_xy("c0r1" if close(bend[0], peg_xy("c2r0"), 6) else "c2r0"), 6)


def test_cursed_triangle_legend_counts_each_seats_own_deck() -> None:
    state = new_game("cursed-triangle", 2)
    words = " ".join("".join(e.itertext()) for e in picture(state).iter() if e.get("class") == "legend")
    assert f"{len(state['own_decks'][0])} in own deck" in words and "market" not in words
