"""Phase 2: starter huts rebuilt after displacement, city walls and church tiles."""
from __future__ import annotations

from services.elasund.rules import board
from services.elasund.rules.game import GAME
from services.elasund.rules.state import cubes_on_board, empty_squares
from shared.game.engine import event

from tests.elasund.helpers import at_phase, building, fold, fresh, give, of_type, permit, play, refusal, types


def _build_phase(players: int = 4, current: int = 0, **options: object) -> dict:
    return at_phase(fresh(players, options), "build", current=current, ship=2)


# -- starter huts ----------------------------------------------------------------------------------------
def _cover_both_small_huts(builder: int) -> tuple[dict, list]:
    """A tavern on (2..3, rows 3..4) covers red's (3, 4) and blue's (2, 4) small huts."""
    state = permit(permit(_build_phase(current=builder), builder, 1, 2, 3), builder, 0, 3, 3)
    return play(state, builder, {"type": "build", "building": "tavern", "col": 2, "row": 3})


def test_displaced_huts_are_rebuilt_builder_first_then_clockwise() -> None:
    state, events = _cover_both_small_huts(builder=1)
    assert state["phase"] == "hut_rebuild"
    assert [hut["seat"] for hut in state["pending"]["queue"]] == [1, 0]
    assert GAME.to_act(state) == [1]
    assert refusal(state, 0, {"type": "rebuild_hut", "col": 5, "row": 3}) == "not-your-turn"
    spots = GAME.legal_moves(state, 1)
    assert all(m["col"] != 0 for m in spots)                      # never on a harbour trade field
    state, _ = play(state, 1, {"type": "rebuild_hut", "col": 6, "row": 6})
    assert GAME.to_act(state) == [0]
    state, _ = play(state, 0, {"type": "rebuild_hut", "col": 6, "row": 8})
    assert state["phase"] == "build" and state["builds"] == 1 and GAME.to_act(state) == [1]
    huts = {(b["seat"], b["col"], b["row"]) for b in state["buildings"] if b["kind"] == "worker_hut_small"}
    assert {(1, 6, 6), (0, 6, 8)} <= huts


def test_the_builder_can_not_go_on_until_huts_are_rebuilt() -> None:
    state, _ = _cover_both_small_huts(builder=3)
    assert [hut["seat"] for hut in state["pending"]["queue"]] == [0, 1]   # clockwise after yellow
    assert refusal(state, 3, {"type": "end_building"}) == "not-your-turn"


def test_huts_avoid_trade_fields_and_permits() -> None:
    state = permit(_build_phase(current=1), 2, 2, 6, 6)
    state = permit(permit(state, 1, 1, 2, 3), 1, 0, 3, 3)
    state, _ = play(state, 1, {"type": "build", "building": "tavern", "col": 2, "row": 3})
    assert refusal(state, 1, {"type": "rebuild_hut", "col": 6, "row": 6}) == "hut-spot-not-free"
    assert refusal(state, 1, {"type": "rebuild_hut", "col": 5, "row": 2}) == "hut-spot-not-free"   # gate field
    assert refusal(state, 1, {"type": "rebuild_hut", "col": 0, "row": 6}) == "hut-spot-not-free"


def test_own_permit_allowed_for_a_hut_with_the_english_option() -> None:
    state = at_phase(fresh(4, {"hut_on_own_permit": True}), "build", current=1, ship=2)
    state = permit(state, 1, 4, 6, 6)
    state = permit(permit(state, 1, 1, 2, 3), 1, 0, 3, 3)
    state, _ = play(state, 1, {"type": "build", "building": "tavern", "col": 2, "row": 3})
    state, events = play(state, 1, {"type": "rebuild_hut", "col": 6, "row": 6})
    assert of_type(events, "permits_returned") == [{"squares": [[6, 6]]}]
    assert 4 in state["supply"][1]["permits"]


def test_a_hut_with_no_free_square_leaves_the_game() -> None:
    state = permit(permit(_build_phase(current=1), 1, 1, 2, 3), 1, 0, 3, 3)
    for col, row in empty_squares(state):
        if (col, row) not in board.trade_fields(4) and (col, row) not in [(2, 3), (3, 3)]:
            state = building(state, 3, "worker_hut_small", col, row)       # fill the city
    state, events = play(state, 1, {"type": "build", "building": "tavern", "col": 2, "row": 3})
    assert of_type(events, "hut_lost") == [{"seat": 1, "kind": "worker_hut_small"},
                                           {"seat": 0, "kind": "worker_hut_small"}]
    assert state["phase"] == "build"


def test_a_large_hut_needs_two_free_squares_one_above_the_other() -> None:
    state = permit(permit(_build_phase(current=2), 2, 1, 4, 8), 2, 0, 5, 9)
    state, _ = play(state, 2, {"type": "build", "building": "tavern", "col": 4, "row": 8})
    assert state["pending"]["queue"] == [{"seat": 0, "kind": "worker_hut_large"}]
    moves = GAME.legal_moves(state, 0)
    assert {"type": "rebuild_hut", "col": 6, "row": 12} not in moves     # would run off the board
    assert {"type": "rebuild_hut", "col": 6, "row": 11} in moves


# -- city walls ------------------------------------------------------------------------------------------
def test_walls_start_next_to_a_gate_and_grow_from_walls() -> None:
    state = give(_build_phase(), 0, gold=10)
    assert refusal(state, 0, {"type": "build_wall", "space": "T5"}) == "wall-not-connected"
    assert refusal(state, 0, {"type": "build_wall", "space": "X1"}) == "unknown-wall-space"
    state, events = play(state, 0, {"type": "build_wall", "space": "T7"})
    assert of_type(events, "gold_paid") == [{"seat": 0, "amount": 2, "to": None}]
    assert of_type(events, "wall_built") == [{"seat": 0, "space": "T7", "tile": 1, "tower": False,
                                                "build_number": 1}]
    assert len(of_type(events, "cards_drawn")[0]["influence"]) == 1       # tile 1: one influence card
    assert refusal(state, 0, {"type": "build_wall", "space": "T7"}) == "wall-space-taken"
    state, _ = play(state, 0, {"type": "build_wall", "space": "T6"})       # next to a wall: fine
    assert state["phase"] == "permit"


def test_the_red_lane_costs_four_and_opens_after_the_blue_lane_by_default() -> None:
    state = give(_build_phase(), 0, gold=10)
    assert refusal(state, 0, {"type": "build_wall", "space": "R3"}) == "blue-walls-first"
    for space in ("T2", "T3", "T4", "T5", "T6", "T7", "B2", "B3", "B4", "B5", "B6", "B7"):
        state = fold(state, event("wall_built", seat=1, space=space, tile=1, tower=False))
    state = fold(state, event("phase_entered", phase="build"))
    state, events = play(state, 0, {"type": "build_wall", "space": "R3"})
    assert of_type(events, "gold_paid") == [{"seat": 0, "amount": 4, "to": None}]
    free = give(_build_phase(walls_blue_first=False), 0, gold=10)
    assert {"type": "build_wall", "space": "R11"} in GAME.legal_moves(free, 0)


def test_your_top_tile_gives_cards_or_a_tower_with_a_cube() -> None:
    state = give(_build_phase(), 0, gold=20)
    state = fold(state, event("wall_built", seat=0, space="T7", tile=1, tower=False),
                 event("wall_built", seat=0, space="T6", tile=2, tower=False),
                 event("phase_entered", phase="build"))
    state, events = play(state, 0, {"type": "build_wall", "space": "T5"})
    assert of_type(events, "wall_built")[0] == {"seat": 0, "space": "T5", "tile": 3, "tower": True,
                                                   "build_number": 1}
    assert not of_type(events, "cards_drawn") and cubes_on_board(state, 0) == 1
    state = fold(state, event("wall_built", seat=0, space="T4", tile=4, tower=False))
    state, events = play(state, 0, {"type": "build_wall", "space": "T3"})
    assert len(of_type(events, "cards_drawn")[0]["influence"]) == 2       # tile 5: two cards


def test_no_wall_without_tiles_or_gold() -> None:
    state = _build_phase()
    state = fold(state, event("gold_paid", seat=0, amount=2, to=None))
    assert refusal(state, 0, {"type": "build_wall", "space": "T7"}) == "not-enough-gold"
    state = give(state, 0, gold=5)
    for n, space in enumerate(["B7", "B6", "B5", "B4", "B3", "B2", "T2", "T3", "T4"], start=1):
        state = fold(state, event("wall_built", seat=0, space=space, tile=n, tower=n % 3 == 0))
    assert refusal(state, 0, {"type": "build_wall", "space": "T7"}) == "no-wall-tiles"


# -- church --------------------------------------------------------------------------------------------
def test_the_first_church_builder_draws_two_keeps_one_and_buries_the_other() -> None:
    state = _build_phase()
    assert refusal(state, 0, {"type": "build_church"}) == "not-enough-gold"     # 3 gold < 7
    state = give(state, 0, gold=5)
    state, events = play(state, 0, {"type": "build_church"})
    assert of_type(events, "gold_paid") == [{"seat": 0, "amount": 7, "to": None}]
    drawn = of_type(events, "church_drawn")[0]["tiles"]
    assert state["phase"] == "church_choice" and len(drawn) == 2
    assert GAME.legal_moves(state, 0) == [{"type": "choose_church_tile", "tile": t} for t in drawn]
    other = next(t for t in range(1, 10) if t not in drawn)
    assert refusal(state, 0, {"type": "choose_church_tile", "tile": other}) == "tile-not-drawn"
    state, events = play(state, 0, {"type": "choose_church_tile", "tile": drawn[0]})
    placed = of_type(events, "church_tile_placed")[0]
    assert (placed["col"], placed["row"]) == board.FOUNDATION and placed["tile"] == drawn[0]
    assert of_type(events, "church_tile_bottomed") == [{"seat": 0, "tile": drawn[1]}]
    assert state["church"]["bottom"] == drawn[1] and state["church"]["origin"] == list(board.church_origin(drawn[0]))
    assert cubes_on_board(state, 0) == 1 and state["phase"] == "build" and state["builds"] == 1
    # The buried tile is known to its owner only.
    assert GAME.view(state, 0)["church"]["bottom"] == drawn[1]
    assert "bottom" not in GAME.view(state, 1)["church"] and "bottom" not in GAME.view(state, None)["church"]
    bottomed = next(e for e in events if e["type"] == "church_tile_bottomed")
    assert GAME.redact(bottomed, 1)["data"]["tile"] is None and GAME.redact(bottomed, 0) == bottomed


def _church_started(first: int = 5, bottom: int = 9) -> dict:
    state = give(_build_phase(current=1), 1, gold=20)
    return fold(state, event("church_drawn", seat=0, tiles=[first, bottom]),
                event("church_tile_placed", seat=0, builder=0, tile=first, col=2, row=8),
                event("church_tile_bottomed", seat=0, tile=bottom),
                event("phase_entered", phase="build"))


def test_later_church_tiles_go_to_their_place_removing_buildings_and_permits() -> None:
    # First tile 5 (the centre) on the foundation: the church covers cols 1..3, rows 6..9.
    base = _church_started()
    assert base["church"]["origin"] == [1, 6]
    seen = set()
    for seed in range(60):
        state = building(GAME.copy(base), 2, "tavern", 2, 9, cubes=[9])      # covers (2..3, 9..10)
        state = permit(state, 3, 4, 3, 6)
        state, events = play(state, 1, {"type": "build_church"}, seed)
        placed = of_type(events, "church_tile_placed")[0]
        square = board.church_square((1, 6), placed["tile"])
        assert (placed["col"], placed["row"]) == square and placed["seat"] == 1
        assert placed["tile"] != 9                                          # the buried tile comes last
        if square == (3, 6):
            seen.add("permit")
            assert of_type(events, "permits_returned") == [{"squares": [[3, 6]]}]
            assert not of_type(events, "gold_paid")[1:]                     # only the 7 gold: no compensation
            assert 4 in state["supply"][3]["permits"]
        if square in [(2, 9), (3, 9)]:
            seen.add("tavern")
            assert of_type(events, "building_removed")[0]["kind"] == "tavern"   # bigger than the tile: still goes
            assert cubes_on_board(state, 2) == 0 and state["stock"]["tavern"] == 5
        if square in [(1, 8), (1, 9)]:                                       # blue's large hut (size 2)
            seen.add("hut")
            assert state["phase"] == "hut_rebuild" and state["pending"]["queue"][0]["seat"] == 1
    assert seen == {"permit", "tavern", "hut"}


def test_the_buried_tile_is_drawn_when_it_is_the_last_one() -> None:
    state = _church_started()
    for tile in [1, 2, 3, 4, 6, 7, 8]:
        state = fold(state, event("church_tile_placed", seat=3, builder=3, tile=tile,
                                  col=board.church_square((1, 6), tile)[0], row=board.church_square((1, 6), tile)[1]))
    state = fold(state, event("phase_entered", phase="build"))
    state, events = play(state, 1, {"type": "build_church"})
    assert of_type(events, "church_tile_placed")[0]["tile"] == 9
    assert refusal(state, 1, {"type": "build_church"}) in ("church-complete", "wrong-phase")
    state = fold(state, event("phase_entered", phase="build"))
    assert refusal(state, 1, {"type": "build_church"}) == "church-complete"


def test_church_tiles_give_no_trade_points_and_are_never_covered() -> None:
    # First tile 3 on the foundation puts the church on cols 0..2: tiles 1, 4, 7 stand on harbour fields.
    state = _church_started(first=3, bottom=5)
    harbours = board.trade_fields(4)
    on_harbour = set()
    for seed in range(30):
        _, events = play(GAME.copy(state), 1, {"type": "build_church"}, seed)
        placed = of_type(events, "church_tile_placed")[0]
        if (placed["col"], placed["row"]) in harbours:
            on_harbour.add(placed["tile"])
        assert "trade_moved" not in types(events)
    assert on_harbour == {1, 4, 7}          # each harbour tile was placed, and gave no trade point
    state = permit(state, 1, 4, 3, 8)
    assert refusal(state, 1, {"type": "build", "building": "tavern", "col": 2, "row": 8}) == "church-site"
