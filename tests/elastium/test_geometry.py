"""Board geometry: band shapes on printed lines, exploring, enclosing by flood fill.

Bands are placed by play (``helpers.place``: the seat's turn and cards come by taking cards) or
folded with ``put`` (the engine's own band events, free) where only the shapes matter."""
from __future__ import annotations

import pytest

from services.elastium.rules.board import BARRIER, LINE, RHOMBUS, TRIANGLE, board, enclosed_segments, line_key
from shared.game.engine import IllegalMove
from tests.elastium.helpers import events_of, new_game, place, put, ring_lines, triangles_at


def test_lattice_has_80_pegs_205_lines_126_segments() -> None:
    b = board("jungle-temples", 4)
    kinds = [band.kind for band in b.bands.values()]
    assert len(b.pegs) == 80
    assert kinds.count(LINE) == 205 and kinds.count(TRIANGLE) == 126 and kinds.count(RHOMBUS) == 173
    assert len(b.triangle_sides) == 126


@pytest.mark.parametrize("scenario, sizes", [
    ("jungle-temples", (2, 3, 4)), ("fragile-ruins", (2, 3, 4)), ("cursed-triangle", (3, 4)), ("labyrinth", (2,)),
])
def test_band_sizes_per_scenario(scenario: str, sizes: tuple[int, ...]) -> None:
    assert board(scenario, 2).band_sizes == sizes


def test_rhombus_walls_are_its_four_outer_sides_and_it_explores_two_segments() -> None:
    b = board("jungle-temples", 2)
    band = b.band_for(["c2r3", "c3r3", "c2r4", "c3r4"])
    assert band is not None and band.kind == RHOMBUS
    assert sorted(band.explores) == ["s3i4", "s3i5"]
    assert line_key("c2r3", "c3r4") not in band.walls and len(band.walls) == 4


def test_band_off_the_printed_lines_is_rejected() -> None:
    state = new_game()
    with pytest.raises(IllegalMove) as exc:      # c1r0 and c3r0 are not joined by a line
        place(state, 0, ["c1r0", "c3r0"], payment=[])
    assert exc.value.reason == "band-not-on-lines"
    with pytest.raises(IllegalMove) as exc:      # three pegs in a straight line: no base shape
        place(state, 0, ["c1r0", "c2r0", "c3r0"], payment=[])
    assert exc.value.reason == "band-not-on-lines"


def test_more_than_four_pegs_is_rejected() -> None:
    state = new_game()
    with pytest.raises(IllegalMove) as exc:
        place(state, 0, ["c1r0", "c2r0", "c3r0", "c4r0", "c5r0"], payment=[])
    assert exc.value.reason == "band-size-not-allowed"


def test_two_peg_bands_are_refused_in_the_cursed_triangle() -> None:
    state = new_game("cursed-triangle")
    with pytest.raises(IllegalMove) as exc:
        place(state, 0, ["c1r0", "c2r0"], payment=[])
    assert exc.value.reason == "band-size-not-allowed"


def test_long_barrier_only_in_fragile_ruins_straight_or_bent() -> None:
    ruins = board("fragile-ruins", 2)
    straight = ruins.band_for(["c1r0", "c2r0", "c3r0"])
    bent = ruins.band_for(["c1r0", "c2r0", "c2r1"])      # c1r0-c2r0, c2r0-c2r1 lines, c1r0/c2r1 apart
    assert straight is not None and straight.kind == BARRIER and straight.middle == "c2r0"
    assert bent is not None and bent.kind == BARRIER and not bent.explores
    assert ruins.band_for(["c1r0", "c3r0", "c5r0"]) is None          # not joined by lines
    assert board("jungle-temples", 2).band_for(["c1r0", "c2r0", "c3r0"]) is None


def test_exploring_a_triangle_collects_its_items() -> None:
    state = new_game()
    state, events = place(state, 0, ["c0r0", "c1r0", "c0r1"])         # s0i0: 1 VP
    assert events_of(events, "items_collected")[0]["treasure"] == 1
    assert state["score"][0] == 1 and state["collected"]["s0i0"] == 0


def test_items_are_collected_once_by_the_first_explorer() -> None:
    state = new_game()
    state, _ = put(state, 0, ["c2r3", "c2r4", "c3r4"])       # s3i4: 1 VP
    state, events = put(state, 1, ["c2r3", "c2r4", "c3r4"])
    assert not events_of(events, "items_collected")
    assert state["score"] == [1, 0]


def test_six_lines_around_a_peg_enclose_its_six_triangles() -> None:
    b = board("jungle-temples", 2)
    walls = {line_key(a, c) for a, c in ring_lines(b, "c3r4")}
    assert len(walls) == 6
    assert enclosed_segments(b, walls) == triangles_at(b, "c3r4")
    assert enclosed_segments(b, walls - {sorted(walls)[0]}) == set()


def test_enclosing_collects_and_other_players_bands_do_not_break_it() -> None:
    state = new_game()
    lines = ring_lines(board("jungle-temples", 2), "c3r4")
    state, _ = put(state, 1, ["c3r3", "c3r4", "c4r4"])       # seat 1's band inside the ring
    for pegs in lines[:-1]:
        state, events = put(state, 0, pegs)
        assert not events_of(events, "items_collected")
    state, events = put(state, 0, lines[-1])
    placed = events_of(events, "band_placed")[0]
    assert set(placed["enclosed"]) == triangles_at(board("jungle-temples", 2), "c3r4")
    collected = events_of(events, "items_collected")[0]
    # 1+2+1+3+3 VP (s3i6's 3 VP went to seat 1 who explored it first) and 1 energy
    assert collected["treasure"] == 10 and collected["energy"] == 1
    assert "s3i6" not in collected["items"]


def test_the_board_edge_is_no_wall() -> None:
    b = board("jungle-temples", 2)
    # two lines cutting off the corner triangle s0i0 along with the border: not enclosed
    walls = {line_key("c1r0", "c0r1")}
    assert enclosed_segments(b, walls) == set()
    # the triangle band itself walls all three sides: the triangle is enclosed (and explored)
    walls = {line_key("c0r0", "c1r0"), line_key("c1r0", "c0r1"), line_key("c0r0", "c0r1")}
    assert enclosed_segments(b, walls) == {"s0i0"}


def test_a_band_explores_and_closes_at_once() -> None:
    """A rhombus completing a ring explores its 2 segments and closes the one left."""
    state = new_game()
    b = board("jungle-temples", 2)
    # ring around c3r4 made of a triangle, a rhombus and a line; the closing rhombus
    state, _ = put(state, 0, ["c2r3", "c2r4", "c3r4"])                  # s3i4
    state, _ = put(state, 0, ["c3r4", "c2r5", "c3r5", "c2r4"])          # s4i4 + s4i5
    state, _ = put(state, 0, ["c3r5", "c4r4"])
    state, events = put(state, 0, ["c2r3", "c3r3", "c3r4", "c4r4"])     # s3i5 + s3i6 closes s4i6
    placed = events_of(events, "band_placed")[0]
    assert sorted(placed["explored"]) == ["s3i5", "s3i6"]
    assert placed["enclosed"] == ["s4i6"]
    assert triangles_at(b, "c3r4") <= set(state["collected"])


def test_the_rules_example_fourth_band_explores_two_and_closes_two() -> None:
    """The rules' example: a line, a triangle, a rhombus; the 4th band (a rhombus) pays one card
    for its only new peg, explores 2 segments and closes 2 more.  The 2-peg band between two of
    the player's pegs would have closed them for free (Élodie's alternative)."""
    import copy

    from services.elastium.rules.placement import pegs_to_pay
    from tests.elastium.helpers import play, ready

    state = new_game()
    b = board("jungle-temples", 2)
    for pegs in (["c0r1", "c1r2"], ["c0r0", "c1r0", "c0r1"], ["c1r1", "c2r1", "c1r2", "c2r2"]):
        state, events = put(state, 0, pegs)
        assert events_of(events, "band_placed")[0]["enclosed"] == []
    fourth = b.band_for(["c1r0", "c2r0", "c1r1", "c2r1"])
    assert pegs_to_pay(state, 0, fourth) == [("c2r0", [])]          # only the vert peg is new
    state = ready(state, 0, cards={"vert": 1})                     # takes cards, places no band
    verts = state["hands"][0]["vert"]
    alternative = copy.deepcopy(state)
    state, events = play(state, 0, {"type": "place_band", "pegs": ["c1r0", "c2r0", "c1r1", "c2r1"],
                                    "payment": [{"peg": "c2r0", "cards": ["vert"], "to": None}]})
    placed = events_of(events, "band_placed")[0]
    assert sorted(placed["explored"]) == ["s0i2", "s0i3"]
    assert sorted(placed["enclosed"]) == ["s0i1", "s1i1"]
    collected = events_of(events, "items_collected")[0]
    assert sorted(collected["items"]) == ["s0i1", "s0i2", "s0i3", "s1i1"]
    assert collected["treasure"] == sum(b.segments[s]["treasure"] for s in collected["items"])
    assert state["discard"][-1] == "vert" and state["hands"][0]["vert"] == verts - 1
    alternative, events = play(alternative, 0, {"type": "place_band", "pegs": ["c1r0", "c1r1"], "payment": []})
    assert sorted(events_of(events, "band_placed")[0]["enclosed"]) == ["s0i1", "s1i1"]
    assert alternative["hands"][0]["vert"] == verts
