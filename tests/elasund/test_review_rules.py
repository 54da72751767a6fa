"""Review tests: rule cases the first suite did not pin (pirates by cube kind, the influence
deck running out, huts displaced by church tiles, the last free square, victory by the track)."""
from __future__ import annotations

import random

from services.elasund.rules import board
from services.elasund.rules.game import GAME
from services.elasund.rules.state import cubes_on_board, empty_squares, gold_in_bank
from shared.game.engine import event

from tests.elasund.helpers import (
    at_phase, building, empty_hand, fold, fresh, give, of_type, permit, play, refusal, roll_seed, types,
)


# -- pirates -------------------------------------------------------------------------------------------
def _pirates_in_row_4() -> dict:
    """Seat 1: a large building with flags in rows 3 and 4; seat 2: a tower on the east lane at
    row 4; seat 0 (the roller): a well flag in row 4, a market flag in row 5 and two towers on the
    north lane."""
    state = at_phase(fresh(4), "roll", current=0, ship=9)
    state = building(state, 1, "large", 5, 3, cubes=[3, 4])
    state = building(state, 0, "well", 7, 4, cubes=[4])
    state = building(state, 0, "market", 7, 5, cubes=[5])                     # row 5: not raided
    state = fold(state,
                 event("wall_built", seat=2, space="R4", tile=3, tower=True),
                 event("wall_built", seat=0, space="T7", tile=3, tower=True),
                 event("wall_built", seat=0, space="T6", tile=6, tower=True))
    for seat in range(4):
        state = empty_hand(state, seat)
    state = give(state, 0, influence=["red", "blue"])
    state = give(state, 1, gold=3)
    state = give(state, 2, gold=1, influence=["green"])
    state = give(state, 3, gold=5)
    return state


def test_pirates_count_each_cube_in_the_row_the_roller_pays_too_and_loots_per_tower() -> None:
    state = _pirates_in_row_4()
    discard_pile = sum(state["influence_discard"].values())
    state, _ = play(state, 0, {"type": "roll"}, roll_seed(state, 7))
    state, events = play(state, 0, {"type": "move_pirates", "row": 4})
    # Seat 1: the large building's row-4 flag only (its row-3 flag is safe); seat 2: its east tower
    # in row 4; seat 0: its well flag; seat 3: nothing.  Seat 1 holds only gold: taken at once.
    assert state["pending"]["owed"] == {"0": 1, "2": 1}
    assert of_type(events, "cards_discarded") == [{"seat": 1, "gold": 1, "influence": {"red": 0, "blue": 0,
                                                                                        "green": 0},
                                                   "reason": "pirates"}]
    assert sorted(GAME.to_act(state)) == [0, 2]
    assert refusal(state, 3, {"type": "discard", "gold": 1}) == "not-your-turn"
    state, _ = play(state, 2, {"type": "discard", "influence": {"green": 1}})
    assert state["phase"] == "discard" and GAME.to_act(state) == [0]
    state, events = play(state, 0, {"type": "discard", "influence": {"red": 1}})
    # Two towers, three cards in the pool (1 gold, green, red): the roller takes two at random.
    loot = of_type(events, "loot_taken")
    assert len(loot) == 1 and loot[0]["gold"] + sum(loot[0]["influence"].values()) == 2
    assert "pool" not in state["pending"] and state["phase"] == "build"
    assert sum(state["hands"][0]["influence"].values()) + state["hands"][0]["gold"] == 1 + 2
    assert gold_in_bank(state) + sum(h["gold"] for h in state["hands"]) == board.GOLD_CARDS
    # The card left in the pool settles: gold to the bank, influence to the discard pile.
    leftover_is_influence = loot[0]["gold"] == 1
    assert sum(state["influence_discard"].values()) == discard_pile + leftover_is_influence


def test_after_the_pirates_the_permit_goes_in_the_pirate_row() -> None:
    state = at_phase(fresh(4), "roll", current=0, ship=9)
    state, _ = play(state, 0, {"type": "roll"}, roll_seed(state, 7))
    state, _ = play(state, 0, {"type": "move_pirates", "row": 11})
    state, _ = play(state, 0, {"type": "end_building"})
    rows = {m["row"] for m in GAME.legal_moves(state, 0) if m["type"] == "place_permit" and "pay_colour" not in m}
    assert rows == {11}


def test_a_church_tile_cube_is_raided_in_its_row() -> None:
    state = at_phase(fresh(4), "roll", current=0, ship=9)
    state = fold(state, event("church_drawn", seat=3, tiles=[5, 9]),
                 event("church_tile_placed", seat=3, builder=3, tile=5, col=2, row=8),
                 event("church_tile_bottomed", seat=3, tile=9))
    state, _ = play(state, 0, {"type": "roll"}, roll_seed(state, 7))
    state, events = play(state, 0, {"type": "move_pirates", "row": 8})
    assert state["pending"]["owed"] == {"3": 1} and GAME.to_act(state) == [3]   # 3 gold + 1 influence: asked


# -- the influence deck ------------------------------------------------------------------------------
def test_an_empty_deck_takes_the_discard_pile_before_a_draw() -> None:
    state = at_phase(fresh(4), "build", current=0, ship=9)
    state = give(state, 0, gold=2)
    # One card left in the deck, five in the discard pile: seat 1 draws all but a red, then
    # discards five blues (the draws and the discard as the engine records them).
    deck = dict(state["influence_deck"])
    drawn = [colour for colour, count in sorted(deck.items()) for _ in range(count - (colour == "red"))]
    state = fold(state, event("cards_drawn", seat=1, gold=0, influence=drawn, reason="test"),
                 event("cards_discarded", seat=1, gold=0, influence={"red": 0, "blue": 5, "green": 0},
                       reason="test"))
    assert state["influence_deck"] == {"red": 1, "blue": 0, "green": 0}
    assert state["influence_discard"] == {"red": 0, "blue": 5, "green": 0}
    state = fold(state, event("wall_built", seat=0, space="T7", tile=1, tower=False),
                 event("wall_built", seat=0, space="T6", tile=2, tower=False),
                 event("wall_built", seat=0, space="T5", tile=3, tower=True),
                 event("wall_built", seat=0, space="T4", tile=4, tower=False),
                 event("phase_entered", phase="build"))
    state, events = play(state, 0, {"type": "build_wall", "space": "T3"})      # tile 5: two cards
    assert types(events).index("influence_reshuffled") < types(events).index("cards_drawn")
    assert len(of_type(events, "cards_drawn")[0]["influence"]) == 2
    assert sum(state["influence_deck"].values()) == 4 and sum(state["influence_discard"].values()) == 0


# -- starter huts -------------------------------------------------------------------------------------------
def test_a_church_tile_displaces_a_hut_and_the_turn_resumes_after_the_rebuild() -> None:
    # First tile 5 on the foundation: the church covers cols 1..3, rows 6, 8, 9; blue's large hut
    # stands on (1, 8..9), where tiles 4 and 7 go.
    state = give(at_phase(fresh(4), "build", current=0, ship=3), 0, gold=20)
    state = fold(state, event("church_drawn", seat=2, tiles=[5, 9]),
                 event("church_tile_placed", seat=2, builder=2, tile=5, col=2, row=8),
                 event("church_tile_bottomed", seat=2, tile=9))
    for seed in range(200):
        events = GAME.decide(state, 0, {"type": "build_church"}, random.Random(seed))
        if of_type(events, "church_tile_placed")[0]["tile"] == 7:
            break
    after = fold(GAME.copy(state), *events)
    placed = of_type(events, "church_tile_placed")[0]
    assert (placed["col"], placed["row"]) == (1, 9)
    removed = of_type(events, "building_removed")
    assert [(r["seat"], r["kind"]) for r in removed] == [(1, "worker_hut_large")]
    assert after["phase"] == "hut_rebuild" and GAME.to_act(after) == [1]
    assert refusal(after, 0, {"type": "end_building"}) == "not-your-turn"
    spot = GAME.legal_moves(after, 1)[0]
    after, events = play(after, 1, spot)
    assert after["phase"] == "build" and after["builds"] == 1 and GAME.to_act(after) == [0]
    assert not of_type(events, "gold_paid")                      # rebuilding is free


def test_the_second_hut_is_lost_when_the_first_takes_the_last_free_square() -> None:
    state = permit(permit(at_phase(fresh(4), "build", current=1, ship=2), 1, 1, 2, 3), 1, 0, 3, 3)
    keep = (7, 11)
    for col, row in empty_squares(state):
        if (col, row) not in board.trade_fields(4) and (col, row) not in [(2, 3), (3, 3), keep]:
            state = building(state, 3, "worker_hut_small", col, row)
    state, events = play(state, 1, {"type": "build", "building": "tavern", "col": 2, "row": 3})
    assert state["phase"] == "hut_rebuild" and GAME.legal_moves(state, 1) == [
        {"type": "rebuild_hut", "col": 7, "row": 11}]
    state, events = play(state, 1, {"type": "rebuild_hut", "col": 7, "row": 11})
    assert of_type(events, "hut_lost") == [{"seat": 0, "kind": "worker_hut_small"}]
    assert state["phase"] == "build" and GAME.to_act(state) == [1]


# -- victory -------------------------------------------------------------------------------------------------
def test_a_trade_track_cube_can_be_the_winning_tenth() -> None:
    state = at_phase(fresh(4), "build", current=2, ship=3)
    for space in ["T7", "T6", "T5", "T4", "T3", "T2", "B7", "B6", "B5"]:
        state = fold(state, event("wall_built", seat=2, space=space, tile=3, tower=True))
    state = fold(state, event("trade_moved", seat=2, total=2, removed=[], placed=[]))
    state = give(permit(state, 2, 0, 0, 3), 2, gold=1)
    state, events = play(state, 2, {"type": "build", "building": "house", "col": 0, "row": 3})
    assert of_type(events, "trade_moved") == [{"seat": 2, "total": 3, "removed": [], "placed": [3]}]
    assert events[-1] == {"type": "game_won", "data": {"seat": 2}}
    assert cubes_on_board(state, 2) == 10 and GAME.result(state)["winners"] == [2]
