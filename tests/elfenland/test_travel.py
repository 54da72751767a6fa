"""Phase 5: travel costs, water, caravans, boatmen and the town markers."""
from __future__ import annotations

# Positions: a set-up, then counters and cards folded as the engine records them (positions.py);
# an elf that must stand elsewhere first travels there by the engine's own moves (journey).

from services.elfenland.rules.board import ROADS

from tests.elfenland.positions import (
    GAME, give_counter, journey, lay_pig_path, new_game, place, play, rejection, road_between, set_hand,
    start_phase)


def _moving(players: int = 2, **options) -> dict:
    return start_phase(new_game(players, **options), "movement", first=0)


def _costs(state: dict, road_id: int) -> list[list[str]]:
    return [m["cards"] for m in GAME.legal_moves(state, 0) if m["type"] == "travel" and m["road"] == road_id]


def test_normal_and_slow_transports() -> None:
    state = _moving()
    plain = road_between("Elvenhold", "Lapphalya")
    forest = road_between("Elvenhold", "Erg'Eren")
    place(state, 1, "dragon", plain.id)
    place(state, 1, "troll_wagon", forest.id)
    set_hand(state, 0, ["dragon", "troll_wagon", "troll_wagon", "unicorn"])
    assert ["dragon"] in _costs(state, plain.id)
    assert ["troll_wagon", "troll_wagon"] in _costs(state, forest.id)          # slow in forest
    assert rejection(state, 0, {"type": "travel", "road": forest.id, "cards": ["troll_wagon"]}) == "wrong-cards"
    assert rejection(state, 0, {"type": "travel", "road": plain.id, "cards": ["unicorn"]}) == "wrong-cards"
    state, events = play(state, 0, {"type": "travel", "road": forest.id, "cards": ["troll_wagon", "troll_wagon"]})
    assert events[0]["type"] == "travelled" and events[0]["data"]["to"] == "Erg'Eren"
    assert state["seats"][0]["hand"] == {"dragon": 1, "unicorn": 1}
    assert state["seats"][0]["visited"] == ["Erg'Eren"]


def test_an_obstacle_costs_one_more_card_of_the_kind() -> None:
    state = _moving()
    desert = road_between("Al'Baran", "Feodor")
    state = journey(state, 0, "Feodor")
    place(state, 1, "troll_wagon", desert.id)
    place(state, 1, "obstacle", desert.id)
    set_hand(state, 0, ["troll_wagon"] * 3)
    # The rules' example: troll wagon in the desert with an obstacle takes three cards.
    assert _costs(state, desert.id) == [["troll_wagon"] * 3]
    assert rejection(state, 0, {"type": "travel", "road": desert.id, "cards": ["troll_wagon"] * 2}) == "wrong-cards"


def test_a_land_road_needs_a_counter_and_must_leave_the_elfs_town() -> None:
    state = _moving()
    plain = road_between("Elvenhold", "Lapphalya")
    far = road_between("Parundia", "Wylhien")
    set_hand(state, 0, ["dragon"] * 4)
    assert rejection(state, 0, {"type": "travel", "road": plain.id, "cards": ["dragon"]}) == "no-transport-counter"
    assert rejection(state, 0, {"type": "travel", "road": plain.id, "cards": ["dragon"] * 3}) == "no-transport-counter"
    place(state, 1, "dragon", far.id)
    assert rejection(state, 0, {"type": "travel", "road": far.id, "cards": ["dragon"]}) == "road-not-adjacent"
    assert rejection(state, 0, {"type": "travel", "road": plain.id, "cards": ["unicorn"]}) == "cards-not-in-hand"


def test_rivers_one_raft_downstream_two_upstream() -> None:
    state = _moving()
    down = road_between("Elvenhold", "Rivinia", "river")       # flows Elvenhold -> Rivinia
    up = road_between("Beata", "Elvenhold", "river")           # flows Beata -> Elvenhold
    set_hand(state, 0, ["raft"] * 3)
    assert _costs(state, down.id) == [["raft"]]
    assert _costs(state, up.id) == [["raft", "raft"]]
    state, _ = play(state, 0, {"type": "travel", "road": down.id, "cards": ["raft"]})
    assert _costs(state, down.id) == [["raft", "raft"]]        # back upstream


def test_lakes_under_the_authors_and_the_german_rules() -> None:
    state = _moving()
    nebulae = road_between("Elvenhold", "Strykhaven", "lake")
    magnum = road_between("Grangor", "Parundia", "lake")
    set_hand(state, 0, ["raft", "raft", "dragon", "unicorn", "unicorn"])
    assert ["raft"] in _costs(state, nebulae.id)
    # The boatmen take any three cards across Mare Nebulae.
    assert ["dragon", "unicorn", "unicorn"] in _costs(state, nebulae.id)
    state = journey(state, 0, "Grangor")
    assert _costs(state, magnum.id) == [["raft", "raft"]]          # no boatmen on Mare Magnum
    assert rejection(state, 0, {"type": "travel", "road": magnum.id, "cards": ["dragon", "unicorn", "unicorn"]}) == "wrong-cards"
    river = road_between("Mah'Davikia", "Grangor", "river")
    assert rejection(state, 0, {"type": "travel", "road": river.id, "cards": ["dragon", "unicorn", "unicorn"]}) == "wrong-cards"
    assert _costs(state, river.id) == [["raft", "raft"]]            # upstream, no caravan on rivers
    german = _moving(lake_rules="german")
    set_hand(german, 0, ["raft", "raft", "dragon", "unicorn", "unicorn"])
    assert _costs(german, nebulae.id) == [["raft", "raft"]]


def test_caravans_any_three_cards_four_past_an_obstacle() -> None:
    state = _moving()
    plain = road_between("Elvenhold", "Lapphalya")
    place(state, 1, "magic_cloud", plain.id)
    set_hand(state, 0, ["dragon", "raft", "unicorn", "giant_pig"])
    options = _costs(state, plain.id)
    assert ["dragon", "raft", "unicorn"] in options and len(options) == 4     # C(4, 3) caravans
    state, _ = play(state, 0, {"type": "travel", "road": plain.id, "cards": ["giant_pig", "raft", "unicorn"]})
    assert state["seats"][0]["town"] == "Lapphalya"
    blocked = _moving()
    place(blocked, 1, "magic_cloud", plain.id)
    place(blocked, 1, "obstacle", plain.id)
    set_hand(blocked, 0, ["dragon", "raft", "unicorn", "giant_pig"])
    assert _costs(blocked, plain.id) == [["dragon", "giant_pig", "raft", "unicorn"]]


def test_the_stricter_caravan_takes_five_cards() -> None:
    state = _moving(caravan_cards=5)
    plain = road_between("Elvenhold", "Lapphalya")
    place(state, 1, "magic_cloud", plain.id)
    set_hand(state, 0, ["dragon", "raft", "unicorn", "giant_pig"])
    assert _costs(state, plain.id) == []
    set_hand(state, 0, ["dragon", "raft", "unicorn", "giant_pig", "elfcycle"])
    assert _costs(state, plain.id) == [["dragon", "elfcycle", "giant_pig", "raft", "unicorn"]]


def test_markers_for_every_town_reached_and_roads_reused() -> None:
    state = _moving()
    plain, forest = lay_pig_path(state)
    set_hand(state, 0, ["giant_pig"] * 4)
    for road in (plain, forest, forest):
        state, _ = play(state, 0, {"type": "travel", "road": road.id, "cards": ["giant_pig"]})
    assert state["seats"][0]["town"] == "Lapphalya"
    assert state["seats"][0]["visited"] == ["Lapphalya", "Rivinia"]        # once each
    state, _ = play(state, 0, {"type": "travel", "road": plain.id, "cards": ["giant_pig"]})
    assert "Elvenhold" not in state["seats"][0]["visited"]                 # the capital has no marker
    assert state["seats"][0]["hand"] == {}
    state, events = play(state, 0, {"type": "finish_travel"})
    assert GAME.to_act(state) == [1]


# The transport table as the French text words it: "ne peuvent pas traverser" = None, "lents" = 2.
_TEXT_TABLE = {
    "giant_pig": {"plain": 1, "forest": 1, "mountain": None, "desert": None},
    "troll_wagon": {"plain": 1, "forest": 2, "mountain": 2, "desert": 2},
    "elfcycle": {"plain": 1, "forest": 1, "mountain": 2, "desert": None},
    "unicorn": {"plain": None, "forest": 1, "mountain": 1, "desert": 2},
    "magic_cloud": {"plain": 2, "forest": 2, "mountain": 1, "desert": None},
    "dragon": {"plain": 1, "forest": 2, "mountain": 1, "desert": 1},
}


def test_every_transport_on_every_terrain_follows_the_table() -> None:
    for transport, costs in _TEXT_TABLE.items():
        for terrain, cost in costs.items():
            road = next(r for r in ROADS if r.terrain == terrain)
            state = start_phase(new_game(2), "placement", first=0)
            if cost is None:
                give_counter(state, 0, transport)
                move = {"type": "place_counter", "counter": transport, "road": road.id}
                assert rejection(state, 0, move) == "terrain-forbids-transport", (transport, terrain)
                assert move not in GAME.legal_moves(state, 0)
                continue
            place(state, 1, transport, road.id)
            start_phase(state, "movement", first=0)
            state = journey(state, 0, road.a)
            set_hand(state, 0, [transport] * 3)
            same_kind = [c for c in _costs(state, road.id) if set(c) == {transport} and len(c) < 3]
            assert same_kind == [[transport] * cost], (transport, terrain)
            state, events = play(state, 0, {"type": "travel", "road": road.id, "cards": [transport] * cost})
            assert events[0]["data"]["to"] == road.b and state["seats"][0]["hand"] == (
                {transport: 3 - cost} if cost < 3 else {})

