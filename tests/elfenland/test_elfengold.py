"""Elfengold: set-up, card draft, income, counters, auctions, gold, spells, wizards."""
from __future__ import annotations

# Positions: a set-up played on (the first round's counters and auction), round 2 begun by
# ``round_ended`` and ``round_started`` (positions.in_round), counters and cards folded as the
# engine records them; a rich seat takes a gold pile in the card draft, and an empty deck is
# the end of a random game's hoarding (``play_until`` with a seed, checked before the draw).

import random

import pytest

from services.elfenland.rules.board import GOLD_VALUES, MARKER_TOWNS
from services.elfenland.rules.multiset import size
from shared.game.engine import InvalidOptions
from shared.game.testing import given

from tests.elfenland.positions import (
    GAME, lay_pig_path, clear_counters, fold, give_counter, in_round, new_game, place, play, rejection,
    road_between, set_hand, start_phase, types)


def _gold(players: int = 2, **options) -> dict:
    return new_game(players, edition="elfengold", **options)


def test_setup_five_cards_twelve_coins_three_face_up_then_gold_cards() -> None:
    events = GAME.setup(3, {**GAME.default_options(), "edition": "elfengold"}, random.Random(4))
    order = types(events)
    assert order.index("gold_cards_added") > max(i for i, t in enumerate(order) if t == "face_up_card_added")
    state = GAME.replay(events)
    assert [size(s["hand"]) for s in state["seats"]] == [5, 5, 5]
    assert [s["coins"] for s in state["seats"]] == [12, 12, 12]
    assert len(state["face_up_cards"]) == 3 and state["deck"]["gold"] == 7
    assert size(state["deck"]) == 63 + 7 - 15 - 3
    # Round 1 skips the card draft and income: straight to the two counters drawn each.
    assert state["phase"] == "reveal_counter" and all(len(s["pending"]) == 2 for s in state["seats"])


def test_two_counters_drawn_one_shown_one_hidden() -> None:
    state = _gold()
    first, second = state["seats"][0]["pending"]
    state, _ = play(state, 0, {"type": "reveal_counter", "counter": second})
    assert sorted(state["seats"][0]["counters"], key=lambda c: c["hidden"]) == [
        {"kind": second, "hidden": False}, {"kind": first, "hidden": True}]
    assert rejection(state, 1, {"type": "reveal_counter", "counter": "exchange_x"}) == "counter-not-drawn"


def _auction(players: int = 3) -> dict:
    state = _gold(players)
    for seat in range(players):
        state, events = play(state, seat, {"type": "reveal_counter", "counter": state["seats"][seat]["pending"][0]})
    assert state["phase"] == "auction" and len(state["auction"]["lots"]) == 2 * players
    return state


def test_auction_sold_to_the_last_bidder() -> None:
    state = _auction()
    lot = state["auction"]["lots"][0]
    state, _ = play(state, 0, {"type": "bid", "amount": 2})
    assert rejection(state, 1, {"type": "bid", "amount": 2}) == "bid-too-low"
    state, _ = play(state, 1, {"type": "bid", "amount": 3})
    state, _ = play(state, 2, {"type": "pass"})
    assert GAME.to_act(state) == [0]
    state, events = play(state, 0, {"type": "pass"})
    assert events[-1]["type"] == "lot_sold" and events[-1]["data"] == {"seat": 1, "counter": lot, "price": 3}
    assert state["seats"][1]["coins"] == 9 and {"kind": lot, "hidden": False} in state["seats"][1]["counters"]
    assert len(state["auction"]["lots"]) == 5 and GAME.to_act(state) == [0]


def test_unsold_counters_go_back_to_the_bag() -> None:
    state = _auction()
    lot = state["auction"]["lots"][0]
    before = state["bag"].get(lot, 0)
    for seat in range(3):
        state, events = play(state, seat, {"type": "pass"})
    assert events[-1]["type"] == "lot_unsold" and state["bag"][lot] == before + 1


def test_overbidding_pays_everything_and_reopens_the_lot() -> None:
    state = _auction()
    lot = state["auction"]["lots"][0]
    state, _ = play(state, 0, {"type": "bid", "amount": 20})        # 12 coins only
    state, _ = play(state, 1, {"type": "pass"})
    state, events = play(state, 2, {"type": "pass"})
    assert events[-1]["type"] == "lot_overbid" and state["seats"][0]["coins"] == 0
    assert state["auction"]["lots"][0] == lot and state["auction"]["passed"] == []
    assert rejection(state, 0, {"type": "bid", "amount": 1}) == "no-coins"
    assert {"type": "bid", "amount": 1} not in GAME.legal_moves(state, 0)


def _rich_auction() -> dict:
    """Round 2's auction, three players: in the card draft seat 1 took a gold pile of six cards
    (turned up by the refills) and the others drew, then came the income and the counters."""
    state = _draft(3)
    for _ in range(6):
        fold(state, "gold_card_found")
    state, _ = play(state, 0, {"type": "draw_card"})
    state, _ = play(state, 1, {"type": "take_gold"})
    while state["phase"] == "draft_cards":
        state, _ = play(state, GAME.to_act(state)[0], {"type": "draw_card"})
    for seat in range(3):
        state, _ = play(state, seat, {"type": "reveal_counter", "counter": state["seats"][seat]["pending"][0]})
    assert state["phase"] == "auction" and GAME.to_act(state) == [0]
    return state


def test_bids_are_listed_up_to_one_above_the_richest_purse() -> None:
    # An over-bid above every purse stops anyone outbidding within his means: bids differ up to
    # the richest player's coins + 1, and any higher amount has the same effect.
    state = _rich_auction()
    assert [s["coins"] for s in state["seats"]] == [14, 32, 14]
    bids = [m["amount"] for m in GAME.legal_moves(state, 0) if m["type"] == "bid"]
    assert bids == list(range(1, 34))
    state, _ = play(state, 0, {"type": "bid", "amount": 33})
    assert [m["amount"] for m in GAME.legal_moves(state, 1) if m["type"] == "bid"] == [34]
    state, _ = play(state, 1, {"type": "pass"})
    state, events = play(state, 2, {"type": "pass"})
    assert events[-1]["data"] == {"seat": 0, "amount": 33, "paid": 14}
    assert state["seats"][0]["coins"] == 0 and state["seats"][1]["coins"] == 32
    state, _ = play(state, 0, {"type": "pass"})
    state, _ = play(state, 1, {"type": "bid", "amount": 1})         # the reopened lot, cheaply


def test_the_auction_ends_with_the_lots_then_placement() -> None:
    state = _auction(2)
    while state["phase"] == "auction":
        state, _ = play(state, GAME.to_act(state)[0], {"type": "pass"})
    assert state["phase"] == "placement" and state["auction"] is None


def _draft(players: int = 2) -> dict:
    return start_phase(in_round(_gold(players), 2), "draft_cards", first=0)


def test_card_draft_face_up_refilled_deck_or_gold_pile() -> None:
    state = _draft()
    card = state["face_up_cards"][0]
    state, events = play(state, 0, {"type": "take_card", "card": card})
    assert types(events)[0] == "card_taken" and len(state["face_up_cards"]) == 3
    fold(state, "gold_card_found")
    fold(state, "gold_card_found")
    state, events = play(state, 1, {"type": "take_gold"})
    assert events[0]["data"] == {"seat": 1, "cards": 2, "coins": 6} and state["seats"][1]["coins"] == 18
    assert rejection(state, 0, {"type": "take_gold"}) == "gold-pile-empty"


def test_a_gold_card_drawn_blind_joins_the_pile_and_the_player_draws_again() -> None:
    state = _draft()
    for seed in range(100):          # a seed whose blind draw is a gold card
        events = GAME.decide(state, 0, {"type": "draw_card"}, random.Random(seed))
        if events[0]["type"] == "gold_card_found":
            break
    for e in events:
        state = GAME.evolve(state, e)
    assert state["gold_pile"] == 1 and GAME.to_act(state) == [0]
    # "Il peut ensuite soit piocher une autre carte pour la remplacer, soit prendre le tas d'or."
    assert GAME.legal_moves(state, 0) == [{"type": "draw_card"}, {"type": "take_gold"}]
    face_up = state["face_up_cards"][0]
    assert rejection(state, 0, {"type": "take_card", "card": face_up}) == "must-draw-or-take-gold"
    state, events = play(state, 0, {"type": "take_gold"})
    assert events[0]["data"] == {"seat": 0, "cards": 1, "coins": 3} and GAME.to_act(state) == [1]
    assert {"type": "take_card", "card": face_up} in GAME.legal_moves(state, 1)


def test_a_gold_card_turned_up_by_a_refill_does_not_bind_the_next_pick() -> None:
    state = _draft()
    card = state["face_up_cards"][0]
    for seed in range(100):          # a seed whose refill turns up a gold card
        events = GAME.decide(state, 0, {"type": "take_card", "card": card}, random.Random(seed))
        if "gold_card_found" in types(events):
            break
    for e in events:
        state = GAME.evolve(state, e)
    assert state["gold_pile"] == 1 and GAME.to_act(state) == [1]
    assert any(m["type"] == "take_card" for m in GAME.legal_moves(state, 1))


def test_income_of_two_from_round_two_after_the_draft() -> None:
    state = _draft()
    coins = [s["coins"] for s in state["seats"]]
    while state["phase"] == "draft_cards":     # a gold card drawn blind does not use a pick
        state, events = play(state, GAME.to_act(state)[0], {"type": "draw_card"})
    assert "income" in types(events) and [s["coins"] for s in state["seats"]] == [c + 2 for c in coins]
    assert state["phase"] == "reveal_counter"


def _moving(**options) -> dict:
    state = start_phase(_gold(**options), "movement", first=0)
    for seat in (0, 1):
        clear_counters(state, seat)
    return state


def test_gold_after_moving_doubled_by_a_gold_counter_elvenhold_pays_nothing() -> None:
    state = _moving()
    plain, forest = lay_pig_path(state)
    place(state, 1, "gold", forest.id)
    set_hand(state, 0, ["giant_pig"] * 4)
    for road in (plain, forest, forest):
        state, _ = play(state, 0, {"type": "travel", "road": road.id, "cards": ["giant_pig"]})
    # Lapphalya 2 + Rivinia 3 x2 + Lapphalya 2 x2 (every passage of the gold road doubles)
    assert state["seats"][0]["earned"] == 2 + 6 + 4
    state, events = play(state, 0, {"type": "travel", "road": plain.id, "cards": ["giant_pig"]})
    assert events[0]["data"]["earned"] == 0 and state["seats"][0]["earned"] == 12    # Elvenhold: 0
    state, events = play(state, 0, {"type": "finish_travel", "take": "gold"})
    assert events[0]["data"]["coins"] == 12 and state["seats"][0]["coins"] == 12 + 12


def test_cards_instead_of_gold_and_no_gold_without_moving() -> None:
    state = _moving()
    assert rejection(state, 0, {"type": "finish_travel", "take": "gold"}) == "did-not-move"
    assert rejection(state, 0, {"type": "finish_travel"}) == "take-required"
    hand = size(state["seats"][0]["hand"])
    state, events = play(state, 0, {"type": "finish_travel", "take": "cards"})
    assert size(state["seats"][0]["hand"]) == hand + 2 and state["seats"][0]["coins"] == 12


def test_gold_counter_needs_a_transport_and_no_obstacle() -> None:
    state = start_phase(_gold(), "placement", first=0)
    road = road_between("Elvenhold", "Lapphalya")
    give_counter(state, 0, "gold")
    assert rejection(state, 0, {"type": "place_counter", "counter": "gold", "road": road.id}) == "needs-transport-counter"
    place(state, 1, "dragon", road.id)
    place(state, 1, "obstacle", road.id)
    assert rejection(state, 0, {"type": "place_counter", "counter": "gold", "road": road.id}) == "road-has-obstacle"


def test_no_obstacle_on_a_road_with_gold() -> None:
    state = start_phase(_gold(), "placement", first=0)
    road = road_between("Elvenhold", "Lapphalya")
    place(state, 1, "dragon", road.id)
    place(state, 1, "gold", road.id)
    give_counter(state, 0, "obstacle")
    assert rejection(state, 0, {"type": "place_counter", "counter": "obstacle", "road": road.id}) == "road-has-gold"


def test_double_spell_adds_a_second_transport() -> None:
    state = start_phase(_gold(), "placement", first=0)
    road = road_between("Elvenhold", "Erg'Eren")       # forest
    place(state, 1, "dragon", road.id)
    give_counter(state, 0, "double")
    give_counter(state, 0, "giant_pig")
    assert {"type": "place_double", "road": road.id, "counter": "giant_pig"} in GAME.legal_moves(state, 0)
    state, _ = play(state, 0, {"type": "place_double", "road": road.id, "counter": "giant_pig"})
    assert state["board"][str(road.id)] == {"transports": ["dragon", "giant_pig"], "obstacle": None,
                                            "gold": False, "double": True}
    start_phase(state, "movement", first=0)
    set_hand(state, 0, ["giant_pig", "dragon", "dragon"])
    costs = [m["cards"] for m in GAME.legal_moves(state, 0) if m["type"] == "travel" and m["road"] == road.id]
    assert ["giant_pig"] in costs and ["dragon", "dragon"] in costs


def test_exchange_spell_swaps_counters_where_the_terrain_allows() -> None:
    state = start_phase(_gold(), "placement", first=0)
    plain = road_between("Elvenhold", "Lapphalya")
    mountain = road_between("Strykhaven", "Virst", "mountain")
    forest = road_between("Elvenhold", "Erg'Eren")
    place(state, 1, "giant_pig", plain.id)
    place(state, 1, "dragon", mountain.id)
    place(state, 1, "unicorn", forest.id)
    give_counter(state, 0, "exchange")
    assert rejection(state, 0, {"type": "exchange", "road": plain.id, "other_road": mountain.id}) == "terrain-forbids-transport"
    bag = state["bag"].get("exchange", 0)
    state, _ = play(state, 0, {"type": "exchange", "road": mountain.id, "other_road": forest.id})
    assert state["board"][str(mountain.id)]["transports"] == ["unicorn"]
    assert state["board"][str(forest.id)]["transports"] == ["dragon"]
    assert state["bag"]["exchange"] == bag + 1                  # back in the bag at once


def test_sea_monster_on_water_adds_a_raft() -> None:
    state = start_phase(_gold(), "placement", first=0)
    river = road_between("Elvenhold", "Rivinia", "river")
    give_counter(state, 0, "sea_monster")
    assert rejection(state, 0, {"type": "place_counter", "counter": "sea_monster",
                                "road": road_between("Elvenhold", "Lapphalya").id}) == "sea-monster-needs-water"
    state, _ = play(state, 0, {"type": "place_counter", "counter": "sea_monster", "road": river.id})
    start_phase(state, "movement", first=0)
    set_hand(state, 0, ["raft"] * 3)
    costs = [m["cards"] for m in GAME.legal_moves(state, 0) if m["type"] == "travel" and m["road"] == river.id]
    assert costs == [["raft", "raft"]]                            # downstream 1 + 1


def test_two_counters_kept_and_no_card_limit() -> None:
    state = _moving()
    for kind in ("dragon", "unicorn", "gold"):
        give_counter(state, 0, kind)
    set_hand(state, 0, ["dragon"] * 3 + ["unicorn"] * 3 + ["elfcycle"] * 3)
    state, _ = play(state, 0, {"type": "finish_travel", "take": "cards"})
    state, _ = play(state, 1, {"type": "finish_travel", "take": "cards"})
    assert state["phase"] == "keep" and GAME.to_act(state) == [0]
    assert all(m["type"] == "keep_counters" for m in GAME.legal_moves(state, 0))
    assert rejection(state, 0, {"type": "keep_counters", "counters": ["dragon"]}) == "wrong-count"
    state, _ = play(state, 0, {"type": "keep_counters", "counters": ["gold", "unicorn"]})
    assert state["round"] == 2 and size(state["seats"][0]["hand"]) == 11      # 9 + 2 drawn, all kept
    assert sorted(c["kind"] for c in state["seats"][0]["counters"][:2]) == ["gold", "unicorn"]


def test_wizard_passes_an_obstacle_for_a_coin() -> None:
    state = _moving(wizards=True)
    road = road_between("Elvenhold", "Lapphalya")
    place(state, 1, "giant_pig", road.id)
    place(state, 1, "obstacle", road.id)
    set_hand(state, 0, ["giant_pig", "wizard"])
    state, events = play(state, 0, {"type": "travel", "road": road.id, "cards": ["giant_pig", "wizard"]})
    assert events[0]["data"]["coins"] == 1 and state["seats"][0]["coins"] == 11


def test_wizard_flies_anywhere_for_three_coins_without_gold() -> None:
    state = _moving(wizards=True)
    set_hand(state, 0, ["wizard"])
    assert rejection(state, 0, {"type": "fly", "town": "Elvenhold"}) == "already-there"
    state, events = play(state, 0, {"type": "fly", "town": "Al'Baran"})
    assert state["seats"][0]["town"] == "Al'Baran" and state["seats"][0]["coins"] == 9
    assert state["seats"][0]["visited"] == ["Al'Baran"] and state["seats"][0]["earned"] == 0
    assert rejection(state, 0, {"type": "fly", "town": "Beata"}) == "no-wizard-card"


def test_wizards_only_with_elfengold() -> None:
    with pytest.raises(InvalidOptions):
        GAME.setup(2, {**GAME.default_options(), "wizards": True}, random.Random(0))


def test_random_gold_values_shuffle_the_twenty_discs() -> None:
    state = _gold(random_gold_values=True)
    assert sorted(state["gold_values"].values()) == sorted(v for t, v in GOLD_VALUES.items() if t in MARKER_TOWNS)
    assert state["gold_values"] != {t: GOLD_VALUES[t] for t in MARKER_TOWNS}


def test_elfenroads_has_no_caravans_spells_or_sea_monsters() -> None:
    events = GAME.setup(2, {**GAME.default_options(), "edition": "elfenroads"}, random.Random(1))
    assert events[0]["data"]["deck"] == {k: 9 for k in ("giant_pig", "elfcycle", "magic_cloud", "unicorn",
                                                        "troll_wagon", "dragon", "raft")}
    assert [e["data"]["count"] for e in events if e["type"] == "gold_cards_added"] == [7]   # 63 + 7 = 70
    assert events[0]["data"]["bag"] == {"dragon": 4, "magic_cloud": 4, "unicorn": 5, "elfcycle": 8,
                                        "troll_wagon": 8, "giant_pig": 9, "gold": 2, "obstacle": 2}
    assert events[0]["data"]["gold_values"]["Al'Baran"] == 7 and "Elvenhold" not in events[0]["data"]["gold_values"]
    state = GAME.replay(events)
    assert size(state["bag"]) + sum(len(s["pending"]) for s in state["seats"]) == 42
    assert not {"double", "exchange", "sea_monster"} & set(state["bag"])
    start_phase(state, "movement", first=0)
    assert state["seats"][0]["town"] == "Elvenhold"
    road = road_between("Elvenhold", "Lapphalya")
    place(state, 1, "magic_cloud", road.id)
    set_hand(state, 0, ["dragon", "raft", "unicorn", "giant_pig"])
    travel = [m for m in GAME.legal_moves(state, 0) if m["type"] == "travel"]
    assert travel and not [m for m in travel if m["road"] == road.id]     # no caravan
    assert all(m["cards"] == ["raft"] for m in travel)                    # no boatmen either


def test_sea_monster_on_mare_nebulae_raises_rafts_and_boatmen_by_one() -> None:
    state = start_phase(_gold(), "placement", first=0)
    lake = road_between("Elvenhold", "Virst", "lake")
    give_counter(state, 0, "sea_monster")
    state, _ = play(state, 0, {"type": "place_counter", "counter": "sea_monster", "road": lake.id})
    start_phase(state, "movement", first=0)
    set_hand(state, 0, ["raft", "raft", "dragon", "dragon", "unicorn"])
    costs = [m["cards"] for m in GAME.legal_moves(state, 0) if m["type"] == "travel" and m["road"] == lake.id]
    assert ["raft", "raft"] in costs and ["dragon", "dragon", "raft", "unicorn"] in costs
    assert all(len(c) in (2, 4) for c in costs)


def test_an_empty_deck_is_refilled_from_the_discard_pile() -> None:
    # Seed 1: four players' hoarded hands have emptied the deck by round 4's card draft.
    reached = given(GAME).setup(4, {"edition": "elfengold"}, seed=1).play_until(
        lambda s: s["phase"] == "draft_cards" and not s["deck"] and not s["redraw"], seed=1)
    state = reached.state
    assert state["round"] == 4 and size(state["discard"]) > 0
    drawn = reached.when(GAME.to_act(state)[0], {"type": "draw_card"})
    state = drawn.then_including({"type": "deck_reshuffled"})
    assert types(drawn.events or [])[0] == "deck_reshuffled" and state["discard"] == {}


def test_every_counter_played_goes_back_to_the_bag_at_the_end_of_the_round() -> None:
    # "Tous les jetons joues (transport, obstacles, or et sortileges) sont retires de la carte et
    # mis dans le sac."
    state = start_phase(_gold(), "placement", first=0)
    road = road_between("Elvenhold", "Erg'Eren")
    river = road_between("Elvenhold", "Rivinia", "river")
    place(state, 1, "dragon", road.id)
    place(state, 1, "gold", road.id)
    place(state, 1, "obstacle", road.id)
    place(state, 1, "sea_monster", river.id)
    give_counter(state, 0, "double")
    give_counter(state, 0, "giant_pig")
    state, _ = play(state, 0, {"type": "place_double", "road": road.id, "counter": "giant_pig"})
    start_phase(state, "movement", first=0)
    for seat in (0, 1):
        clear_counters(state, seat)
    bag = dict(state["bag"])
    state, _ = play(state, 0, {"type": "finish_travel", "take": "cards"})
    events = GAME.decide(state, 1, {"type": "finish_travel", "take": "cards"}, random.Random(0))
    for e in events[:types(events).index("round_ended") + 1]:
        state = GAME.evolve(state, e)
    assert state["board"] == {}
    for kind in ("dragon", "giant_pig", "gold", "obstacle", "sea_monster", "double"):
        assert state["bag"].get(kind, 0) == bag.get(kind, 0) + 1, kind
