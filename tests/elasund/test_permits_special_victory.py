"""Phases 3 and 4 (permits, gold, special actions) and victory."""
from __future__ import annotations

from services.elasund.rules import board
from services.elasund.rules.game import GAME
from services.elasund.rules.state import cubes_on_board
from shared.game.engine import GameOver, event

import pytest

from tests.elasund.helpers import at_phase, building, empty_hand, fold, fresh, give, of_type, permit, play, refusal


def _permit_phase(players: int = 4, ship: int = 3) -> dict:
    return at_phase(fresh(players), "permit", current=0, ship=ship)


def test_place_a_permit_in_the_ships_row_paying_its_value() -> None:
    state = empty_hand(_permit_phase(), 0)
    state = give(state, 0, gold=3)
    state, events = play(state, 0, {"type": "place_permit", "value": 2, "col": 5, "row": 3})
    assert of_type(events, "gold_paid") == [{"seat": 0, "amount": 2, "to": None}]
    assert state["permits"] == {"5,3": [0, 2]} and state["supply"][0]["permits"] == [0, 1, 3, 4]
    # No influence cards: phase 4 is skipped and the next seat rolls.
    assert events[-1] == {"type": "turn_started", "data": {"seat": 1, "turn": state["turn"]}}


def test_permit_rows_values_and_squares_are_checked() -> None:
    state = _permit_phase()
    assert refusal(state, 0, {"type": "place_permit", "value": 0, "col": 5, "row": 4}) == "row-not-open"
    assert refusal(state, 0, {"type": "place_permit", "value": 4, "col": 5, "row": 3}) == "not-enough-gold"
    assert refusal(state, 0, {"type": "place_permit", "value": 7, "col": 5, "row": 3}) == "permit-not-in-supply"
    state = permit(state, 1, 0, 5, 3)
    assert refusal(state, 0, {"type": "place_permit", "value": 0, "col": 5, "row": 3}) == "square-not-empty"
    ship8 = _permit_phase(ship=8)
    assert refusal(ship8, 0, {"type": "place_permit", "value": 0, "col": 2, "row": 8}) == "square-not-empty"  # foundation
    assert refusal(ship8, 0, {"type": "place_permit", "value": 0, "col": 1, "row": 8}) == "square-not-empty"  # hut


def test_two_matching_influence_cards_open_any_row() -> None:
    state = give(_permit_phase(), 0, influence=["green", "green"])
    move = {"type": "place_permit", "value": 1, "col": 6, "row": 10}
    assert refusal(state, 0, {**move, "pay_colour": "red"}) == "not-enough-influence"
    assert refusal(state, 0, {**move, "row": 3, "pay_colour": "green"}) == "payment-not-needed"
    assert {**move, "pay_colour": "green"} in GAME.legal_moves(state, 0)
    state, events = play(state, 0, {**move, "pay_colour": "green"})
    assert of_type(events, "influence_paid") == [{"seat": 0, "colours": {"green": 2}}]
    assert state["permits"]["6,10"] == [0, 1]


def test_a_full_ship_row_opens_the_rows_next_to_it() -> None:
    state = _permit_phase(players=2, ship=6)
    for col in range(5):                                    # fill row 6 (two players: cols 0..4)
        state = building(state, 1, "worker_hut_small", col, 6)
    moves = GAME.legal_moves(state, 0)
    rows = {m["row"] for m in moves if m["type"] == "place_permit" and "pay_colour" not in m}
    assert rows == {5, 8}
    state, _ = play(state, 0, {"type": "place_permit", "value": 0, "col": 2, "row": 5})
    assert state["permits"]["2,5"] == [0, 0]


def test_take_two_gold_instead() -> None:
    state, events = play(_permit_phase(), 0, {"type": "take_gold"})
    assert of_type(events, "cards_drawn")[0]["gold"] == 2 and state["hands"][0]["gold"] == 5


def _special(influence: list[str], gold: int = 0) -> dict:
    state = at_phase(fresh(4), "special", current=0, ship=3)
    state = give(empty_hand(state, 0), 0, gold=gold, influence=influence)
    return permit(state, 0, 1, 5, 3)


def test_move_a_permit_for_two_matching_cards() -> None:
    state = _special(["red", "red", "blue"])
    move = {"type": "move_permit", "from_col": 5, "from_row": 3, "col": 7, "row": 11, "pay_colour": "red"}
    assert refusal(state, 0, {**move, "pay_colour": "blue"}) == "not-enough-influence"
    assert refusal(state, 0, {**move, "from_col": 6}) == "not-your-permit"
    assert refusal(state, 0, {**move, "col": 2, "row": 8}) == "square-not-empty"
    assert move in GAME.legal_moves(state, 0)
    state, events = play(state, 0, move)
    assert state["permits"] == {"7,11": [0, 1]}
    assert events[-1]["type"] == "turn_started" and state["current"] == 1


def test_upgrade_a_permit_for_two_matching_cards_and_the_difference() -> None:
    state = _special(["blue", "blue"], gold=2)
    move = {"type": "upgrade_permit", "col": 5, "row": 3, "value": 4, "pay_colour": "blue"}
    assert refusal(state, 0, move) == "not-enough-gold"                   # 4 - 1 = 3 gold
    assert refusal(state, 0, {**move, "value": 0}) == "permit-not-higher"
    state, events = play(state, 0, {**move, "value": 3})
    assert of_type(events, "gold_paid") == [{"seat": 0, "amount": 2, "to": None}]
    assert state["permits"]["5,3"] == [0, 3] and state["supply"][0]["permits"] == [0, 1, 2, 4]


def test_place_a_permit_anywhere_for_three_colours_and_its_value() -> None:
    state = _special(["red", "blue"], gold=2)
    move = {"type": "place_permit_anywhere", "value": 2, "col": 8, "row": 12}
    assert refusal(state, 0, move) == "not-enough-influence"
    state = give(state, 0, influence=["green"])
    state, events = play(state, 0, move)
    assert of_type(events, "influence_paid") == [{"seat": 0, "colours": {"red": 1, "blue": 1, "green": 1}}]
    assert state["permits"]["8,12"] == [0, 2] and state["hands"][0]["gold"] == 0


def test_take_two_gold_for_three_colours() -> None:
    state = _special(["red", "blue", "green"])
    state, events = play(state, 0, {"type": "special_gold"})
    assert state["hands"][0]["gold"] == 2 and sum(state["hands"][0]["influence"].values()) == 0


def test_at_most_one_special_action_or_none() -> None:
    state = _special(["red", "red", "red", "red"])
    state, events = play(state, 0, {"type": "end_turn"})
    assert state["current"] == 1 and state["phase"] == "roll"
    assert refusal(_special(["red"]), 0, {"type": "move_permit", "from_col": 5, "from_row": 3, "col": 7, "row": 11,
                                        "pay_colour": "red"}) == "not-enough-influence"


def test_phase_rules_reject_moves_of_other_phases() -> None:
    assert refusal(_special(["red"]), 0, {"type": "roll"}) == "wrong-phase"
    assert refusal(_special(["red"]), 0, {"type": "fly"}) == "unknown-move"


# -- victory -----------------------------------------------------------------------------------------------
def test_the_tenth_cube_on_the_board_during_your_turn_wins_at_once() -> None:
    state = at_phase(fresh(4), "build", current=0, ship=3)
    spaces = ["T7", "T6", "T5", "T4", "T3", "T2", "B7", "B6", "B5"]
    for space in spaces:
        state = fold(state, event("wall_built", seat=0, space=space, tile=3, tower=True))
    assert cubes_on_board(state, 0) == 9 and GAME.result(state) is None
    state = give(permit(state, 0, 0, 5, 3), 0, gold=5)
    state, events = play(state, 0, {"type": "build", "building": "well", "col": 5, "row": 3})
    assert events[-1] == {"type": "game_won", "data": {"seat": 0}}
    assert GAME.result(state)["winners"] == [0] and GAME.result(state)["scores"][0] == 10
    assert GAME.to_act(state) == [] and GAME.legal_moves(state, 0) == []
    with pytest.raises(GameOver):
        GAME.decide(state, 0, {"type": "end_building"}, __import__("random").Random(0))


def test_a_neutral_building_never_carries_more_cubes_than_are_left() -> None:
    state = at_phase(fresh(4), "build", current=0, ship=3)
    for space in ["T7", "T6", "T5", "T4", "T3", "T2", "B7", "B6", "B5"]:
        state = fold(state, event("wall_built", seat=0, space=space, tile=3, tower=True))
    state = give(permit(permit(permit(state, 0, 0, 5, 3), 0, 1, 6, 4), 0, 2, 5, 5), 0, gold=5)
    state, events = play(state, 0, {"type": "build", "building": "large", "col": 5, "row": 3})
    assert of_type(events, "building_built")[0]["cubes"] == [3]
    assert GAME.result(state)["winners"] == [0]
    assert board.CUBES_PER_PLAYER == 10
