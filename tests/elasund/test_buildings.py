"""Phase 2 buildings: permits and majority, costs and compensation, covering, cubes, trade points."""
from __future__ import annotations

from services.elasund.rules.game import GAME
from services.elasund.rules.state import cubes_on_board
from shared.game.engine import event

from tests.elasund.helpers import at_phase, building, fold, fresh, give, of_type, permit, play, refusal, types


def _build_phase(players: int = 4, current: int = 0, **options: object) -> dict:
    return at_phase(fresh(players, options), "build", current=current, ship=2)


def _tavern(seat_col: int = 5, row: int = 3) -> dict:
    return {"type": "build", "building": "tavern", "col": seat_col, "row": row}


def test_a_building_needs_as_many_permits_as_its_size_asks() -> None:
    state = permit(_build_phase(), 0, 0, 5, 3)
    assert refusal(state, 0, _tavern()) == "not-enough-permits"            # a tavern needs two
    state = permit(state, 0, 1, 6, 4)
    assert _tavern() in GAME.legal_moves(state, 0)
    state, events = play(state, 0, _tavern())
    assert of_type(events, "gold_paid") == [{"seat": 0, "amount": 3, "to": None}]
    assert of_type(events, "permits_returned") == [{"squares": [[5, 3], [6, 4]]}]
    assert state["supply"][0]["permits"] == [0, 1, 2, 3, 4] and state["permits"] == {}
    assert state["stock"]["tavern"] == 4 and state["builds"] == 1


def test_the_highest_permit_total_builds_and_compensates_the_others() -> None:
    state = permit(permit(_build_phase(current=1), 0, 1, 5, 3), 1, 2, 6, 3)
    state = give(state, 1, gold=1)
    assert refusal(state, 0, _tavern()) == "not-your-turn"
    state = fold(state, event("turn_started", seat=0, turn=1), event("phase_entered", phase="build"))
    assert refusal(state, 0, _tavern()) == "no-permit-majority"
    state = fold(state, event("turn_started", seat=1, turn=1), event("phase_entered", phase="build"))
    state, events = play(state, 1, _tavern())
    assert of_type(events, "gold_paid") == [{"seat": 1, "amount": 3, "to": None}, {"seat": 1, "amount": 1, "to": 0}]
    assert state["hands"][0]["gold"] == 4 and state["hands"][1]["gold"] == 0
    assert state["supply"][0]["permits"] == [0, 1, 2, 3, 4]                 # every permit goes home


def test_a_tie_of_permit_totals_blocks_everyone() -> None:
    state = permit(permit(_build_phase(), 0, 2, 5, 3), 1, 2, 6, 3)
    assert refusal(state, 0, _tavern()) == "permit-tie"
    state = permit(state, 0, 0, 5, 4)                                       # still 2 against 2
    assert refusal(state, 0, _tavern()) == "permit-tie"


def test_no_build_without_gold_for_cost_and_compensation() -> None:
    state = permit(permit(_build_phase(), 0, 3, 5, 3), 1, 1, 6, 3)          # red has 3 gold: 3 + 1 needed
    assert refusal(state, 0, _tavern()) == "not-enough-gold"
    assert _tavern() not in GAME.legal_moves(state, 0)


def test_bigger_buildings_cover_smaller_ones_which_go_home() -> None:
    state = building(_build_phase(), 1, "house", 5, 3)                      # blue house (size 2)
    state = permit(permit(state, 0, 0, 5, 4), 0, 1, 6, 4)
    state, events = play(state, 0, _tavern())
    assert of_type(events, "building_removed")[0]["kind"] == "house"
    assert state["supply"][1]["buildings"] == ["workshop", "house"]


def test_a_building_never_covers_a_bigger_one() -> None:
    state = building(_build_phase(), 1, "tavern", 5, 3, cubes=[3])
    state = give(permit(state, 0, 4, 5, 5), 0, gold=5)
    assert refusal(state, 0, {"type": "build", "building": "market", "col": 5, "row": 4}) == "not-enough-permits"
    state = fold(state, event("permit_moved", seat=0, **{"from": [5, 5]}, to=[7, 3]))
    assert refusal(state, 0, {"type": "build", "building": "market", "col": 6, "row": 3}) == "cannot-cover-larger"


def test_same_size_needs_three_influence_cards_of_one_colour() -> None:
    state = building(_build_phase(), 1, "shop", 5, 3, cubes=[3])
    state = building(state, 2, "market", 7, 3, cubes=[3])
    state = permit(permit(state, 0, 1, 5, 5), 0, 2, 6, 5)
    move = {"type": "build", "building": "tavern", "col": 5, "row": 4}
    state = give(state, 0, influence=["blue", "blue"])
    assert refusal(state, 0, move) == "same-size-needs-influence"
    assert refusal(state, 0, {**move, "pay_colour": "blue"}) == "not-enough-influence"
    state = give(state, 0, influence=["blue"])
    assert refusal(state, 0, {**move, "row": 5, "pay_colour": "blue"}) == "payment-not-needed"
    assert {**move, "pay_colour": "blue"} in GAME.legal_moves(state, 0)
    state, events = play(state, 0, {**move, "pay_colour": "blue"})
    assert of_type(events, "influence_paid") == [{"seat": 0, "colours": {"blue": 3}}]
    assert cubes_on_board(state, 1) == 0 and state["stock"]["shop"] == 5     # neutral back, cube home


def test_never_over_the_church_foundation_church_tiles_or_outside_the_city() -> None:
    state = permit(_build_phase(), 0, 1, 3, 8)
    assert refusal(state, 0, {"type": "build", "building": "house", "col": 2, "row": 8}) == "church-site"
    state = fold(state, event("church_drawn", seat=1, tiles=[1, 2]),
                 event("church_tile_placed", seat=1, builder=1, tile=1, col=2, row=8))
    assert refusal(state, 0, {"type": "build", "building": "house", "col": 2, "row": 8}) == "church-site"
    two = permit(_build_phase(players=2), 0, 1, 4, 3)
    assert refusal(two, 0, {"type": "build", "building": "house", "col": 4, "row": 3}) == "outside-city"
    two = permit(two, 0, 0, 3, 11)
    two = give(two, 0, gold=5)
    assert refusal(two, 0, {"type": "build", "building": "large", "col": 2, "row": 11}) == "outside-city"


def test_neutral_buildings_carry_the_builders_cubes_on_their_flags() -> None:
    state = permit(permit(permit(_build_phase(), 0, 0, 5, 3), 0, 1, 6, 4), 0, 2, 5, 5)
    state = give(state, 0, gold=5)
    state, events = play(state, 0, {"type": "build", "building": "large", "col": 5, "row": 3})
    assert of_type(events, "building_built")[0]["cubes"] == [3, 4]
    assert cubes_on_board(state, 0) == 2


def test_own_buildings_come_from_the_supply_only() -> None:
    state = give(permit(_build_phase(), 0, 0, 5, 3), 0, gold=5)
    state, _ = play(state, 0, {"type": "build", "building": "house", "col": 5, "row": 3})
    state = permit(state, 0, 0, 5, 5)
    assert refusal(state, 0, {"type": "build", "building": "house", "col": 5, "row": 5}) == "building-not-available"
    assert refusal(state, 0, {"type": "build", "building": "worker_hut_small", "col": 5, "row": 5}) \
        == "building-not-available"


def test_trade_points_for_windmills_and_cubes_on_the_track() -> None:
    state = permit(permit(permit(_build_phase(), 0, 0, 0, 2), 0, 1, 1, 3), 0, 2, 0, 4)
    state = give(state, 0, gold=5)
    state, events = play(state, 0, {"type": "build", "building": "large", "col": 0, "row": 2})
    assert of_type(events, "trade_moved") == [{"seat": 0, "total": 3, "removed": [], "placed": [3]}]
    assert of_type(events, "building_built")[0]["trade_points"] == 3
    # A gate trade field (4 players) is worth 2.
    state = give(permit(state, 0, 0, 5, 2), 0, gold=5)
    state, events = play(state, 0, {"type": "build", "building": "well", "col": 5, "row": 2})
    assert of_type(events, "trade_moved") == [{"seat": 0, "total": 5, "removed": [], "placed": [5]}]


def test_losing_a_trade_field_building_moves_the_disk_back_and_takes_cubes() -> None:
    state = building(_build_phase(current=1), 0, "house", 0, 3, trade_points=1)
    state = fold(state, event("trade_moved", seat=0, total=3, removed=[], placed=[3]))
    state = permit(permit(state, 1, 0, 1, 2), 1, 1, 0, 2)
    state, events = play(state, 1, {"type": "build", "building": "tavern", "col": 0, "row": 2})
    moved = of_type(events, "trade_moved")
    assert moved[0] == {"seat": 0, "total": 2, "removed": [3], "placed": []}
    assert moved[1] == {"seat": 1, "total": 2, "removed": [], "placed": []}
    assert state["track_cubes"]["3"] == []


def test_trade_track_boxes_limit_cubes_unless_the_option_is_off() -> None:
    def crowded(**options: object) -> dict:
        state = _build_phase(**options)
        state = fold(state, event("trade_moved", seat=1, total=3, removed=[], placed=[3]),
                     event("trade_moved", seat=2, total=3, removed=[], placed=[3]),
                     event("trade_moved", seat=3, total=3, removed=[], placed=[3]),
                     event("trade_moved", seat=1, total=3, removed=[], placed=[3]))  # 4 boxes now full
        return give(permit(state, 0, 0, 0, 3), 0, gold=5)
    move = {"type": "build", "building": "house", "col": 0, "row": 3}
    _, events = play(crowded(), 0, move)
    assert of_type(events, "trade_moved") == [{"seat": 0, "total": 1, "removed": [], "placed": []}]
    state = fold(crowded(), event("trade_moved", seat=0, total=2, removed=[], placed=[]))
    _, events = play(state, 0, move)
    assert of_type(events, "trade_moved")[0]["placed"] == []
    state = fold(crowded(trade_track_capacity=False), event("trade_moved", seat=0, total=2, removed=[], placed=[]))
    _, events = play(state, 0, move)
    assert of_type(events, "trade_moved")[0]["placed"] == [3]


def test_two_builds_then_phase_three() -> None:
    state = permit(permit(_build_phase(), 0, 0, 5, 3), 0, 1, 7, 3)
    state = give(state, 0, gold=5)
    state, _ = play(state, 0, {"type": "build", "building": "house", "col": 5, "row": 3})
    assert state["phase"] == "build"
    state, events = play(state, 0, {"type": "build", "building": "workshop", "col": 7, "row": 3})
    assert types(events)[-1] == "phase_entered" and state["phase"] == "permit"


def test_end_building_moves_on_to_phase_three() -> None:
    state, _ = play(_build_phase(), 0, {"type": "end_building"})
    assert state["phase"] == "permit"


def test_passing_several_track_spaces_at_once_places_a_cube_on_each() -> None:
    state = fold(_build_phase(), event("trade_moved", seat=0, total=2, removed=[], placed=[]))
    state = give(permit(permit(permit(state, 0, 0, 0, 2), 0, 1, 1, 3), 0, 2, 0, 4), 0, gold=5)
    state, events = play(state, 0, {"type": "build", "building": "large", "col": 0, "row": 2})
    assert of_type(events, "trade_moved") == [{"seat": 0, "total": 5, "removed": [], "placed": [3, 5]}]
    assert cubes_on_board(state, 0) == 4                                     # 2 flags + 2 track cubes
