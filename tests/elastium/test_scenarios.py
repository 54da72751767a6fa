"""Each scenario's own rules and end."""
from __future__ import annotations

# Positions are played from a seeded set-up: bands by ``place`` (the seat's turn and cards come by
# taking cards) or folded with ``put`` (the events the engine's ``emit_band`` writes, free of charge)
# where only the board matters; completed images by putting every segment of them, end scores by
# greedy bots (``play_until``), end counts by the policies of ``helpers.drive`` or a chain laid
# along a path of the maze.  Each test asserts the position it needs before the move under test.

import copy
import itertools

import pytest

from services.elastium.bots import STRATEGIES
from services.elastium.rules.board import board
from services.elastium.rules.legal import legal_moves
from services.elastium.rules.placement import candidate_bands, payments
from services.elastium.rules.scoring import band_outcome, final_breakdown, territories
from shared.game.engine import IllegalMove, event
from tests.elastium.helpers import (
    drive, events_of, new_game, place, play, put, reaching, ready, ring_lines, start, turn_start,
)

TAKE = {"type": "take_cards", "market": []}


def points(events: list[dict], reason: str) -> list[tuple[int, int]]:
    return [(p["seat"], p["points"]) for p in events_of(events, "points_scored") if p["reason"] == reason]


# -- Jungle Temples -----------------------------------------------------------------------------

def test_jungle_opposite_edge_bonus_is_8_then_6_then_nothing() -> None:
    state = new_game(players=3)                               # seats S, W, E
    state, events = put(state, 0, ["c2r8", "c2r9"])           # S reaches the north edge
    assert points(events, "opposite-edge") == [(0, 8)]
    state, events = put(state, 0, ["c3r8", "c3r9"])           # only once per player
    assert points(events, "opposite-edge") == []
    state, events = put(state, 1, ["c7r5", "c6r5"])           # W reaches the east edge
    assert points(events, "opposite-edge") == [(1, 6)]
    state, events = put(state, 2, ["c0r5", "c1r5"])           # E reaches the west edge, third
    assert points(events, "opposite-edge") == []
    assert state["edge_reached"] == [0, 1]


def test_jungle_ends_at_18_points() -> None:
    # greedy bots play until seat 1 can place a band that brings it from 16 to 18 points
    pos = start(seed=5).play_until(lambda s: reaching(s, 1, 18) is not None, strategy=STRATEGIES["greedy"])
    assert pos.state["score"] == [17, 16] and pos.state["end_triggered"] is None
    pos.when(1, reaching(pos.state, 1, 18)).then_including(event("end_triggered", reason="score-reached", seat=1))


# -- Volcano ------------------------------------------------------------------------------------

def test_volcano_start_on_the_crater_rim_and_crater_pegs_are_unplayable() -> None:
    state = new_game("volcano")
    with pytest.raises(IllegalMove) as exc:
        place(state, 0, ["c1r0", "c2r0"])
    assert exc.value.reason == "first-band-not-on-start-peg"
    with pytest.raises(IllegalMove) as exc:
        place(state, 0, ["c3r4", "c4r4"], payment=[])
    assert exc.value.reason == "unknown-peg"
    state, _ = place(state, 1, ["c3r3", "c3r4"])      # the rim is open to every player
    assert state["bands_used"][1] == 1


def test_volcano_ends_after_six_rounds() -> None:
    state = new_game("volcano")
    for _ in range(6):
        for seat in (0, 0, 1, 1):
            assert state["result"] is None and state["energy"][seat] == 0    # no third action
            state, events = play(state, seat, TAKE)
    assert events_of(events, "game_ended") and state["round"] == 7


def points_or_energy(state: dict, seat: int) -> dict | None:
    """Volcano: seat 1 places the band collecting the most energy; seat 0 the one scoring the
    most while it stays under the 7 energy needed to escape."""
    best, most = None, 0
    for band in candidate_bands(state, seat):
        pay = payments(state, seat, band, limit=1)
        out = band_outcome(state, seat, band)
        value = out.energy if seat == 1 else out.total_points() if state["energy"][0] + out.energy < 7 else 0
        if pay and value > most:
            best, most = {"type": "place_band", "pegs": list(band.pegs), "payment": pay[0]}, value
    return best


def test_volcano_needs_seven_energy_to_escape_the_rest_converts() -> None:
    pos = drive(start("volcano"), lambda s: s["result"] is not None, points_or_energy)     # to round 6
    rows = pos.state["result"]["breakdown"]
    assert [r["score"] for r in rows] == [14, 3] and pos.state["energy"] == [1, 12]
    assert rows[0]["escaped"] is False and rows[1]["escaped"] is True
    assert rows[1]["total"] == 3 + (12 - 7) // 3
    assert pos.state["result"]["winners"] == [1]
    pos = drive(start("volcano"), lambda s: s["result"] is not None)          # both only take cards
    assert pos.state["energy"] == [0, 0] and pos.state["result"]["winners"] == []


# -- Archipelago -------------------------------------------------------------------------------

def test_archipelago_bridge_gives_two_energy_once() -> None:
    state = new_game("archipelago")
    state, events = put(state, 0, ["c3r1", "c4r1"])
    assert events_of(events, "items_collected")[0]["energy"] == 2
    state, events = put(state, 1, ["c3r1", "c4r1"])
    assert not events_of(events, "items_collected")


def test_archipelago_canals_cannot_be_explored_and_nothing_is_enclosed() -> None:
    state = new_game("archipelago")
    with pytest.raises(IllegalMove) as exc:            # c3r0-c4r0-c3r1 is a canal triangle
        place(state, 0, ["c3r0", "c4r0", "c3r1"], payment=[])
    assert exc.value.reason == "band-not-on-lines"
    for pegs in ring_lines(board("archipelago", 2), "c1r2"):
        state, events = put(state, 0, pegs)
        assert events_of(events, "band_placed")[0]["enclosed"] == []
    assert not events_of(events, "items_collected")


# -- Engraved Plateau --------------------------------------------------------------------------

def test_engraved_start_on_any_unoccupied_bright_peg() -> None:
    state = new_game("engraved-plateau")
    state, _ = place(state, 0, ["c3r9", "c3r8"])           # a north bright peg, for the south seat
    with pytest.raises(IllegalMove) as exc:
        place(state, 1, ["c3r9", "c2r9"])                  # that bright peg is occupied now
    assert exc.value.reason == "first-band-not-on-start-peg"
    state, _ = place(state, 1, ["c4r9", "c5r9"])           # another free bright peg is fine
    assert state["bands_used"] == [1, 1]


def test_engraved_image_segments_score_one_and_empty_ones_cost_three_once() -> None:
    state = new_game("engraved-plateau")
    state, events = put(state, 0, ["c2r3", "c3r3", "c2r4", "c3r4"])     # 2 segments of image A
    assert events_of(events, "items_collected")[0]["treasure"] == 2
    state, _ = put(state, 0, ["c2r4", "c3r4", "c2r5", "c3r5"])           # 2 more
    assert state["score"][0] == 4
    state, events = put(state, 0, ["c0r0", "c1r0", "c0r1"])           # empty segment s0i0
    assert points(events, "empty-segment") == [(0, -3)]
    state, events = put(state, 0, ["c0r0", "c1r0", "c0r1", "c1r1"])   # s0i0 again + s0i1 (image C)
    assert points(events, "empty-segment") == []
    state, _ = put(state, 1, ["c3r3", "c4r4", "c3r4"])                # s3i6 of image A: 1 VP
    assert state["score"][1] == 1
    state, events = put(state, 1, ["c0r0", "c1r0", "c0r1"])           # floored at 0
    assert points(events, "empty-segment") == [(1, -1)] and state["score"][1] == 0


def test_engraved_completing_an_image_pays_the_final_segment_and_the_majority() -> None:
    state = new_game("engraved-plateau")
    state, _ = put(state, 0, ["c2r3", "c3r3", "c2r4", "c3r4"])     # s3i4, s3i5
    state, _ = put(state, 1, ["c2r4", "c3r4", "c2r5", "c3r5"])     # s4i4, s4i5
    state, events = put(state, 0, ["c3r3", "c4r4", "c3r4", "c3r5"])   # s3i6, s4i6: completes A
    assert events_of(events, "image_completed") == [{"image": "A", "seat": 0}]
    assert points(events, "final-image-segment") == [(0, 1)]
    assert points(events, "image-majority") == [(0, 3)]            # 4 of 6 segments, size 6
    assert state["images_completed"] == ["A"]


def test_engraved_majority_ties_all_score() -> None:
    state = new_game("engraved-plateau")
    state, _ = put(state, 0, ["c2r3", "c3r3", "c2r4", "c3r4"])
    state, _ = put(state, 1, ["c2r4", "c3r4", "c2r5", "c3r5"])
    state, _ = put(state, 0, ["c3r3", "c4r4", "c3r4"])
    state, events = put(state, 1, ["c3r4", "c4r4", "c3r5"])
    assert sorted(points(events, "image-majority")) == [(0, 3), (1, 3)]


def put_image(state: dict, seat: int, image: str) -> tuple[dict, list[dict]]:
    """Every segment of ``image`` explored by ``seat``, one triangle each."""
    b = board(state["scenario"], state["players"])
    events: list[dict] = []
    for seg in b.images[image]["segments"]:
        state, events = put(state, seat, b.segments[seg]["pegs"])
    return state, events


def test_engraved_ends_after_five_images_with_two_players() -> None:
    state = new_game("engraved-plateau")
    for image in "BCDE":
        state, _ = put_image(state, 0, image)
    assert state["images_completed"] == ["B", "C", "D", "E"] and state["end_triggered"] is None
    state, _ = put(state, 0, ["c2r3", "c3r3", "c2r4", "c3r4"])
    state, _ = put(state, 0, ["c2r4", "c3r4", "c2r5", "c3r5"])
    state, events = put(state, 0, ["c3r3", "c4r4", "c3r4", "c3r5"])
    assert events_of(events, "end_triggered")[0]["reason"] == "images-completed"


# -- Fragile Ruins -----------------------------------------------------------------------------

def test_ruins_site_of_four_or_more_unexplored_segments_pays_one_each() -> None:
    state = new_game("fragile-ruins")
    b = board("fragile-ruins", 2)
    state, _ = put(state, 1, ["c2r3", "c2r4", "c3r4"])             # s3i4 explored by seat 1 first
    lines = ring_lines(b, "c3r4")
    for pegs in lines[:-1]:
        state, _ = put(state, 0, pegs)
    state, events = put(state, 0, lines[-1])
    site = [p for p in events_of(events, "points_scored") if p["reason"] == "excavation-site"]
    assert len(site) == 1 and site[0]["points"] == 5 and "s3i4" not in site[0]["segments"]


def test_ruins_small_enclosure_is_no_site() -> None:
    state = new_game("fragile-ruins")
    # a rhombus outline of 4 lines encloses 2 segments: too small for a site
    for pegs in (["c2r3", "c3r3"], ["c3r3", "c3r4"], ["c3r4", "c2r4"], ["c2r4", "c2r3"]):
        state, events = put(state, 0, pegs)
    assert sorted(events_of(events, "band_placed")[0]["enclosed"]) == ["s3i4", "s3i5"]
    assert points(events, "excavation-site") == []


def test_ruins_long_barrier_is_placed_and_walls_two_lines() -> None:
    state = new_game("fragile-ruins")
    state, events = place(state, 0, ["c1r0", "c2r0", "c3r0"])
    placed = events_of(events, "band_placed")[0]
    assert placed["kind"] == "barrier" and placed["explored"] == []
    assert state["walls"][0] == ["c1r0-c2r0", "c2r0-c3r0"]


def test_ruins_end_after_six_rounds() -> None:
    state = new_game("fragile-ruins", players=3)
    for _ in range(6):
        for seat in (0, 0, 1, 1, 2, 2):
            assert state["energy"][seat] == 0      # taking cards earns none: no third action
            state, events = play(state, seat, TAKE)
    assert events_of(events, "game_ended")


# -- Cursed Triangle ---------------------------------------------------------------------------

def test_cursed_start_anywhere_and_no_connection_needed() -> None:
    state = new_game("cursed-triangle")
    state, _ = place(state, 0, ["c3r4", "c4r4", "c3r5"])
    state, _ = place(state, 0, ["c0r0", "c1r0", "c0r1"])
    assert state["bands_used"][0] == 2


def test_cursed_pay_another_player_one_energy_instead_of_the_card() -> None:
    state = new_game("cursed-triangle", seed=6)
    state, _ = put(state, 1, ["c3r4", "c4r4", "c3r5"])
    state, _ = place(state, 0, ["c4r0", "c5r0", "c4r1"])                 # s0i8: 1 energy
    state = ready(state, 0, cards={"bleu": 1, "rouge": 1, "gris": 1})
    # just the three cards (a small hand keeps the listing of every payment short)
    assert state["hands"][0] == {"gris": 1, "bleu": 1, "vert": 0, "rouge": 1, "jaune": 0}
    assert state["energy"] == [1, 0]
    hand_1, discarded = dict(state["hands"][1]), list(state["own_discards"][0])
    move = {"type": "place_band", "pegs": ["c2r4", "c3r4", "c2r5"], "payment": [   # bleu, rouge, gris
        {"peg": "c2r4", "cards": ["bleu"], "to": None, "second_to": None, "energy": False},
        {"peg": "c3r4", "cards": ["rouge"], "to": 1, "second_to": None, "energy": True},
        {"peg": "c2r5", "cards": ["gris"], "to": None, "second_to": None, "energy": False}]}
    assert move in legal_moves(state, 0)
    state, events = play(state, 0, move)
    collected = events_of(events, "items_collected")
    assert state["energy"][1] == 1 and state["energy"][0] == (collected[0]["energy"] if collected else 0)
    assert state["hands"][1] == hand_1                     # the card was not given...
    assert sorted(state["own_discards"][0]) == sorted([*discarded, "bleu", "gris", "rouge"])   # ...but discarded


def test_energy_payment_only_in_the_cursed_triangle() -> None:
    state, _ = place(new_game(), 0, ["c4r0", "c3r1", "c4r1"])             # s0i7: 1 energy
    state, _ = put(state, 1, ["c5r0", "c5r1"])
    state = ready(state, 0, cards={"gris": 1})                            # c5r0 is gris
    assert state["energy"][0] >= 1
    card = {"type": "place_band", "pegs": ["c4r0", "c5r0"],
            "payment": [{"peg": "c5r0", "cards": ["gris"], "to": 1, "energy": False}]}
    play(copy.deepcopy(state), 0, card)                                   # the card is accepted
    with pytest.raises(IllegalMove) as exc:
        play(state, 0, {**card, "payment": [{"peg": "c5r0", "cards": ["gris"], "to": 1, "energy": True}]})
    assert exc.value.reason == "energy-payment-not-allowed"


def test_cursed_distinct_territories_score_four_each_at_the_end() -> None:
    state = new_game("cursed-triangle")
    state, _ = put(state, 0, ["c0r0", "c1r0", "c0r1"])
    state, _ = put(state, 0, ["c3r4", "c4r4", "c3r5"])
    assert territories(state, 0) == 2
    state, _ = put(state, 0, ["c4r4", "c3r5", "c4r5"])        # shares pegs: same territory
    assert territories(state, 0) == 2
    state, _ = put(state, 0, ["c1r0", "c2r0", "c1r1"])        # shares c1r0 with the first
    assert territories(state, 0) == 2
    assert final_breakdown(state)[0]["territory_points"] == 8


def test_cursed_ends_at_15_points() -> None:
    # greedy bots play until seat 0 can place a band that brings it from 13 to 15 points or more
    pos = start("cursed-triangle").play_until(lambda s: reaching(s, 0, 15) is not None, strategy=STRATEGIES["greedy"])
    assert pos.state["score"] == [13, 10] and pos.state["end_triggered"] is None
    state = pos.when(0, reaching(pos.state, 0, 15)).then_including(
        event("end_triggered", reason="score-reached", seat=0))
    assert state["score"][0] >= 15


# -- Two Deities -------------------------------------------------------------------------------

def test_deities_idol_and_normal_ground_in_one_band_is_refused() -> None:
    state = new_game("two-deities")
    with pytest.raises(IllegalMove) as exc:      # rhombus of idol O5 (s0i3) and normal s0i2
        place(state, 0, ["c1r0", "c2r0", "c1r1", "c2r1"], payment=[])
    assert exc.value.reason == "mixed-idol-band"
    state, _ = put(state, 0, ["c2r0", "c1r1", "c2r1"])       # the idol alone
    assert state["collected"]["s0i3"] == 0


def test_deities_majority_six_per_type_split_and_rounded_up() -> None:
    state = new_game("two-deities", players=3)
    b = board("two-deities", 3)
    orange = sorted(s for s, seg in b.segments.items() if seg.get("idol") == "orange")
    blue = sorted(s for s, seg in b.segments.items() if seg.get("idol") == "blue")
    for seat, idol in [(0, orange[0]), (1, orange[1]), (2, orange[2]), (1, blue[0]), (1, blue[1])]:
        state, _ = put(state, seat, b.segments[idol]["pegs"])            # the idol alone
    idols = {seg: seat for seg, seat in state["collected"].items() if b.segments.get(seg, {}).get("idol")}
    assert idols == {orange[0]: 0, orange[1]: 1, orange[2]: 2, blue[0]: 1, blue[1]: 1}
    rows = final_breakdown(state)
    assert [r.get("idol_points", 0) for r in rows] == [2, 2 + 6, 2]


# -- Labyrinth ---------------------------------------------------------------------------------

def test_labyrinth_chain_grows_from_its_head_and_crossing_it_costs_five() -> None:
    state = new_game("labyrinth")
    state, events = place(state, 0, ["c1r0", "c1r1"])          # tail c1r0 (bright), head c1r1; 2 VP
    assert state["chains"][0] == ["c1r0", "c1r1"] and state["score"][0] == 2
    with pytest.raises(IllegalMove) as exc:
        place(state, 0, ["c1r0", "c2r0"])                       # from the tail
    assert exc.value.reason == "band-not-from-chain-head"
    for a, c in itertools.pairwise(["c1r1", "c1r2", "c1r3", "c2r4", "c3r4", "c4r4", "c3r5", "c4r5"]):
        state, _ = place(state, 0, [a, c])
    assert state["score"][0] == 6
    state, events = place(state, 0, ["c4r5", "c4r4"])          # back onto its own chain
    assert points(events, "own-chain-crossed") == [(0, -5)]
    assert state["chain_heads"][0] == ["c4r4"]
    with pytest.raises(IllegalMove) as exc:
        place(state, 0, ["c4r4", "c3r4"])                       # its own line again
    assert exc.value.reason == "band-already-placed"


def test_labyrinth_only_two_peg_bands() -> None:
    state = new_game("labyrinth")
    with pytest.raises(IllegalMove) as exc:
        place(state, 0, ["c1r0", "c2r0", "c1r1"], payment=[])
    assert exc.value.reason == "band-size-not-allowed"


def test_labyrinth_artefact_gives_a_bonus_card_of_ones_choice() -> None:
    state = new_game("labyrinth")
    state, events = place(state, 0, ["c1r0", "c2r0"])          # épée on this line
    assert events_of(events, "items_collected")[0]["artefacts"] == ["épée"]
    assert state["pending_bonus_cards"] == 1
    moves = legal_moves(state, 0)
    assert {m["type"] for m in moves} == {"take_bonus_card"}
    with pytest.raises(IllegalMove):
        play(state, 0, TAKE)
    card = state["market"][0]
    state, events = play(state, 0, {"type": "take_bonus_card", "source": "market", "card": card})
    assert state["pending_bonus_cards"] == 0 and len(state["market"]) == 5
    assert state["actions_left"] == 1                           # the bonus card is no action


# a chain of the maze along a casque, a bouclier, an épée and a second bouclier line
ARTEFACT_CHAIN = ["c6r0", "c6r1", "c7r0", "c7r1", "c7r2", "c6r3", "c7r3", "c7r4", "c6r4", "c5r5", "c6r6",
                  "c6r7", "c7r8", "c7r9"]


def test_labyrinth_sets_of_three_artefacts_score_five() -> None:
    state = new_game("labyrinth")
    for a, c in itertools.pairwise(ARTEFACT_CHAIN):
        state, _ = place(state, 0, [a, c])
    assert state["artefacts"][0] == {"bouclier": 2, "épée": 1, "casque": 1}
    assert final_breakdown(state)[0]["artefact_points"] == 5


# a path of 19 lines through the maze, from a start peg of seat 0, never meeting itself
LONG_CHAIN = ["c1r0", "c1r1", "c0r1", "c1r2", "c1r3", "c2r4", "c1r5", "c2r5", "c3r4", "c3r5", "c4r4", "c4r5",
              "c5r4", "c6r4", "c5r5", "c5r6", "c4r7", "c5r8", "c4r9", "c5r9"]


def test_labyrinth_ends_when_a_player_has_used_18_bands() -> None:
    state = new_game("labyrinth")
    lines = list(itertools.pairwise(LONG_CHAIN))
    for a, c in lines[:17]:
        state, _ = place(state, 0, [a, c])
    state = ready(state, 0, list(lines[17]), until=lambda s: s["actions_left"] == 2)     # a fresh turn
    assert state["bands_used"][0] == 17 and state["end_triggered"] is None
    state, events = place(state, 0, list(lines[17]))
    assert events_of(events, "end_triggered")[0]["reason"] == "bands-exhausted"
    assert state["turn_seat"] == 0 and state["actions_left"] == 1
    with pytest.raises(IllegalMove) as exc:
        place(state, 0, list(lines[18]), payment=[])
    assert exc.value.reason == "no-bands-left"


def test_labyrinth_two_bright_pegs_let_the_second_band_choose_the_direction() -> None:
    state = new_game("labyrinth", players=3)                 # seat 1 sits west: c0r4, c0r5 bright
    state, _ = place(state, 1, ["c0r4", "c0r5"])
    assert sorted(state["chain_heads"][1]) == ["c0r4", "c0r5"]
    state, _ = place(state, 1, ["c0r5", "c1r5"])             # c0r4 was a dead end: go east
    assert state["chains"][1] == ["c0r4", "c0r5", "c1r5"] and state["chain_heads"][1] == ["c1r5"]
    with pytest.raises(IllegalMove) as exc:
        place(state, 1, ["c0r5", "c0r6"])
    assert exc.value.reason == "band-not-from-chain-head"


@pytest.mark.parametrize("image, bonus", [("A", 3), ("C", 2), ("E", 1)])
def test_engraved_majority_bonus_by_image_size(image: str, bonus: int) -> None:
    state = new_game("engraved-plateau")
    b = board("engraved-plateau", 2)
    segments = b.images[image]["segments"]
    for seg in segments:
        state, events = put(state, 0, b.segments[seg]["pegs"])
    assert events_of(events, "image_completed") == [{"image": image, "seat": 0}]
    assert points(events, "image-majority") == [(0, bonus)]
    assert b.images[image]["size"] == len(segments) == {3: 6, 2: 5, 1: 4}[bonus]


@pytest.mark.parametrize("players, images", [(3, 7), (4, 9)])
def test_engraved_image_count_ending_depends_on_players(players: int, images: int) -> None:
    state = new_game("engraved-plateau", players=players)
    for image in "BCDEFGHI"[:images - 1]:
        state, _ = put_image(state, 0, image)
    assert state["images_completed"] == list("BCDEFGHI"[:images - 1]) and state["end_triggered"] is None
    b = board("engraved-plateau", players)
    for seg in b.images["A"]["segments"]:
        state, events = put(state, 0, b.segments[seg]["pegs"])
    assert events_of(events, "end_triggered")[0]["reason"] == "images-completed"


def test_deities_an_enclosed_idol_counts_for_the_encloser() -> None:
    state = new_game("two-deities")
    b = board("two-deities", 2)
    # an idol away from the board edge, enclosed by a ring of lines around one of its pegs
    idol = next(s for s, seg in b.segments.items() if seg.get("idol") and
                all(0 < int(p[1:].split("r")[0]) < 7 and 0 < int(p.split("r")[1]) < 9 for p in seg["pegs"]))
    centre = b.segments[idol]["pegs"][0]
    for pegs in ring_lines(b, centre):
        state, events = put(state, 1, pegs)
    assert idol in events_of(events, "band_placed")[0]["enclosed"]
    assert state["collected"][idol] == 1
    assert final_breakdown(state)[1]["idol_points"] == 6


def test_labyrinth_ends_when_every_chain_is_blocked() -> None:
    """Our addition: chains in dead ends can never move again, so the game ends after the round."""
    state = new_game("labyrinth")
    state, _ = place(state, 0, ["c6r0", "c5r0"])
    state, events = place(state, 0, ["c5r0", "c4r0"])          # c4r0 is a dead end of the maze
    assert state["chain_heads"][0] == ["c4r0"] and not events_of(events, "end_triggered")
    state, _ = place(state, 1, ["c1r9", "c2r9"])
    state, _ = play(state, 1, TAKE)
    state, _ = play(play(state, 0, TAKE)[0], 0, TAKE)
    state, events = place(state, 1, ["c2r9", "c3r9"])          # c3r9 too, seat 1's first action
    assert events_of(events, "end_triggered") == [{"reason": "chains-blocked", "seat": 1}]
    assert [m["type"] for m in legal_moves(state, 1)] == ["take_cards"] * len(legal_moves(state, 1))
    state, events = play(state, 1, TAKE)                        # seat 1 ends the round
    assert events_of(events, "game_ended") and state["result"] is not None


def test_labyrinth_one_blocked_chain_does_not_end_the_game() -> None:
    state = new_game("labyrinth")
    state, _ = place(state, 0, ["c6r0", "c5r0"])
    state, _ = place(state, 0, ["c5r0", "c4r0"])
    state, events = place(state, 1, ["c1r9", "c2r9"])
    assert not events_of(events, "end_triggered")


def test_labyrinth_bonus_card_from_the_deck_is_hidden_from_the_others() -> None:
    from tests.elastium.helpers import GAME
    state = new_game("labyrinth")
    state, _ = place(state, 0, ["c1r0", "c2r0"])               # épée: one bonus card owed
    top = state["deck"][-1]
    before = dict(state["hands"][0])
    assert {"type": "take_bonus_card", "source": "deck", "card": None} in legal_moves(state, 0)
    state, events = play(state, 0, {"type": "take_bonus_card", "source": "deck", "card": None})
    drawn = next(e for e in events if e["type"] == "card_drawn")
    assert drawn["data"] == {"seat": 0, "card": top, "bonus": True}
    assert GAME.redact(drawn, 1)["data"]["card"] is None and GAME.redact(drawn, None)["data"]["card"] is None
    assert state["hands"][0][top] == before[top] + 1 and state["pending_bonus_cards"] == 0


def test_labyrinth_no_bonus_card_when_no_card_is_left() -> None:
    # both seats take cards, the market's last ones too, until every card is in a hand
    pos = drive(start("labyrinth"), lambda s: not (s["deck"] or s["discard"] or s["market"]) and turn_start(0)(s),
                lambda s, seat: None if s["deck"] else {"type": "take_cards", "market": s["market"][:2]})
    state, events = place(pos.state, 0, ["c1r0", "c2r0"])
    assert events_of(events, "items_collected")[0]["artefacts"] == ["épée"]
    assert events_of(events, "items_collected")[0]["bonus_cards"] == 0
    assert state["pending_bonus_cards"] == 0 and state["actions_left"] == 1


def test_cursed_enclosures_are_allowed_and_join_the_territory_they_touch() -> None:
    """"Les fermetures ... ne sont pas interdites": three triangles around a fourth close it."""
    state = new_game("cursed-triangle")
    b = board("cursed-triangle", 2)
    target = b.band_for(["c3r4", "c4r4", "c3r5"]).explores[0]
    around = [across for _, across in b.triangle_sides[target]]
    for seg in around:
        state, events = put(state, 0, b.segments[seg]["pegs"])
    placed = events_of(events, "band_placed")[0]
    assert placed["enclosed"] == [target] and state["collected"][target] == 0
    assert territories(state, 0) == 1                       # all share the closed triangle's pegs
    state, _ = put(state, 0, ["c0r0", "c1r0", "c0r1"])
    assert territories(state, 0) == 2
    assert final_breakdown(state)[0]["territory_points"] == 8
