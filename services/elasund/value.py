"""Elasund's value features: what a position is worth to a seat, for the expert's search.

The weights are fit to self-play by the heuristic bot (``python -m shared.ai.valuefit elasund``, see
``shared.ai.valuefit``) and live in ``value_model.json``.  Income and permits are multiplied by how
much of the game is left (``1 - leader's cubes / cubes to win``): what a workshop or a waiting
permit will bring shrinks as the end nears.
"""
from __future__ import annotations

from pathlib import Path

from shared.game.value import FeatureSet
from services.elasund.rules import board
from services.elasund.rules.state import State, building_squares, cubes_on_board, influence_total

# Ways out of 36 to roll each row's number (a 7 is the pirates: no income).
ROLL_WAYS = {2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 8: 5, 9: 4, 10: 3, 11: 2, 12: 1}

NAMES = (
    "cubes", "cubes_squared", "gold", "influence_cards", "gold_income_left", "influence_income_left",
    "permits_left", "permit_value_left", "trade_track", "walls_built", "buildings_in_supply", "on_turn",
)


def income(state: State, seat: int) -> tuple[float, float]:
    """The seat's expected gold and influence per roll, in 36ths."""
    gold = influence = 0.0
    for building in state["buildings"]:
        icon = board.BUILDINGS[building["kind"]]["income"]
        if icon and building["seat"] == seat:
            ways = sum(ROLL_WAYS.get(row, 0) for row in {square[1] for square in building_squares(building)})
            if icon == "gold":
                gold += ways
            else:
                influence += ways
    return gold, influence


def features(state: State) -> list[list[float]]:
    seats = range(state["players"])
    cubes = [cubes_on_board(state, seat) for seat in seats]
    left = max(0.0, 1.0 - max(cubes) / board.CUBES_PER_PLAYER)
    return [_seat_features(state, seat, cubes[seat], left) for seat in seats]


def _seat_features(state: State, seat: int, cubes: int, left: float) -> list[float]:
    hand = state["hands"][seat]
    gold_income, influence_income = income(state, seat)
    permits = [value for owner, value in state["permits"].values() if owner == seat]
    supply = state["supply"][seat]
    return [
        cubes, cubes * cubes / board.CUBES_PER_PLAYER, hand["gold"], influence_total(hand["influence"]),
        gold_income * left, influence_income * left, len(permits) * left, sum(permits) * left,
        state["trade"][seat], supply["walls_built"], len(supply["buildings"]),
        1.0 if state["current"] == seat else 0.0,
    ]


FEATURES = FeatureSet(NAMES, features, Path(__file__).with_name("value_model.json"))
