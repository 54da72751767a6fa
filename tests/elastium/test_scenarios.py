"""Each scenario's own rules and end."""
from __future__ import annotations

# Positions here are played from a seeded set-up where that is cheap; bands are folded with ``put``
# (the events ``emit_band`` writes, free of charge). Scores, energy, hands, images and artefacts
# that only a long game reaches (an end threshold, a floor, an end count) are set by hand next to
# the rule they test, since the rule reads the number, not its history. The engine has no state
# invariant check to run on them; ``tests/shared/test_snapshot_roundtrip.py`` and the random games
# cover reachable states.

import pytest

from services.elastium.rules.board import board
from services.elastium.rules.legal import legal_moves
from services.elastium.rules.scoring import final_breakdown, territories, winners
from shared.game.engine import IllegalMove
from tests.elastium.helpers import events_of, new_game, place, play, put, ring_lines, turn_to

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
    state = new_game()
    state["score"][1] = 17
    state, events = put(state, 1, ["c2r3", "c2r4", "c3r4"])
    assert events_of(events, "end_triggered")[0]["reason"] == "score-reached"


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


def test_volcano_needs_seven_energy_to_escape_the_rest_converts() -> None:
    state = new_game("volcano")
    state["score"] = [20, 5]
    state["energy"] = [6, 13]
    rows = final_breakdown(state)
    assert rows[0]["escaped"] is False and rows[1]["escaped"] is True
    assert rows[1]["total"] == 5 + (13 - 7) // 3
    assert winners(state, rows) == [1]
    state["energy"] = [0, 0]
    assert winners(state, final_breakdown(state)) == []


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
    state["score"][0] = 5
    state, events = put(state, 0, ["c0r0", "c1r0", "c0r1"])           # empty segment s0i0
    assert points(events, "empty-segment") == [(0, -3)]
    state, events = put(state, 0, ["c0r0", "c1r0", "c0r1", "c1r1"])   # s0i0 again + s0i1 (image C)
    assert points(events, "empty-segment") == []
    state["score"][1] = 1
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


def test_engraved_ends_after_five_images_with_two_players() -> None:
    state = new_game("engraved-plateau")
    state["images_completed"] = ["B", "C", "D", "E"]
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
    state = new_game("cursed-triangle")
    state, _ = put(state, 1, ["c3r4", "c4r4", "c3r5"])
    turn_to(state, 0)
    state["hands"][0] = {"gris": 1, "bleu": 1, "vert": 0, "rouge": 1, "jaune": 0}
    state["energy"] = [1, 0]
    hand_1 = dict(state["hands"][1])
    move = {"type": "place_band", "pegs": ["c2r4", "c3r4", "c2r5"], "payment": [   # bleu, rouge, gris
        {"peg": "c2r4", "cards": ["bleu"], "to": None, "second_to": None, "energy": False},
        {"peg": "c3r4", "cards": ["rouge"], "to": 1, "second_to": None, "energy": True},
        {"peg": "c2r5", "cards": ["gris"], "to": None, "second_to": None, "energy": False}]}
    assert move in legal_moves(state, 0)
    state, events = play(state, 0, move)
    collected = events_of(events, "items_collected")
    assert state["energy"][1] == 1 and state["energy"][0] == (collected[0]["energy"] if collected else 0)
    assert state["hands"][1] == hand_1                     # the card was not given...
    assert sorted(state["own_discards"][0]) == ["bleu", "gris", "rouge"]   # ...but discarded


def test_energy_payment_only_in_the_cursed_triangle() -> None:
    state, _ = put(new_game(), 1, ["c2r0", "c2r1"])
    turn_to(state, 0)
    state["hands"][0] = {"gris": 0, "bleu": 1, "vert": 1, "rouge": 0, "jaune": 0}
    state["energy"][0] = 3
    with pytest.raises(IllegalMove) as exc:
        play(state, 0, {"type": "place_band", "pegs": ["c1r0", "c2r0"], "payment": [
            {"peg": "c1r0", "cards": ["bleu"], "to": None, "energy": False},
            {"peg": "c2r0", "cards": ["vert"], "to": 1, "energy": True}]})
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
    state = new_game("cursed-triangle")
    state["score"][0] = 14
    state, events = put(state, 0, ["c2r3", "c3r3", "c2r4", "c3r4"])
    assert state["score"][0] >= 15 and events_of(events, "end_triggered")[0]["reason"] == "score-reached"


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
    state["collected"].update({orange[0]: 0, orange[1]: 1, orange[2]: 2, blue[0]: 1, blue[1]: 1})
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
    state, _ = place(state, 0, ["c1r1", "c1r2"])               # 1 VP
    state, _ = place(state, 0, ["c1r2", "c0r1"])
    state["score"][0] = 7
    state, events = place(state, 0, ["c0r1", "c1r1"])          # back onto its own chain
    assert points(events, "own-chain-crossed") == [(0, -5)]
    assert state["chain_heads"][0] == ["c1r1"]
    with pytest.raises(IllegalMove) as exc:
        place(state, 0, ["c1r1", "c1r2"])                       # its own line again
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


def test_labyrinth_sets_of_three_artefacts_score_five() -> None:
    state = new_game("labyrinth")
    state["artefacts"][0] = {"épée": 2, "casque": 1, "bouclier": 3}
    assert final_breakdown(state)[0]["artefact_points"] == 5


def test_labyrinth_ends_when_a_player_has_used_18_bands() -> None:
    state = new_game("labyrinth")
    state, _ = place(state, 0, ["c1r0", "c1r1"])
    state["bands_used"][0] = 17
    state, events = place(state, 0, ["c1r1", "c1r2"])
    assert events_of(events, "end_triggered")[0]["reason"] == "bands-exhausted"
    turn_to(state, 0)
    with pytest.raises(IllegalMove) as exc:
        place(state, 0, ["c1r2", "c1r3"])
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
    state["images_completed"] = list("BCDEFGHIJKL")[:images - 1]
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
    state = new_game("labyrinth")
    state["deck"], state["discard"], state["market"] = [], [], []
    state, events = place(state, 0, ["c1r0", "c2r0"])
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
