"""Catan's value features: what a position is worth to a seat, for the expert's search.

The weights are fit to self-play by the greedy bot (``python -m shared.ai.valuefit catan``, see
``shared.ai.valuefit``) and live in ``value_model.json``.  Production is multiplied by how much of
the game is left (``1 - leader's points / 10``): a pip is worth much at turn 3 and little when
someone is about to win, which no fixed weight can say.
"""
from __future__ import annotations

from pathlib import Path

from shared.game.value import FeatureSet
from services.catan.rules.board import NODE_HEXES
from services.catan.rules.state import (
    PIECES, SETTLEMENT, WINNING_POINTS, State, settlement_spots, victory_points,
)

# Dots on a number token: the number of dice combinations out of 36 that roll it.
PIPS = {2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 8: 5, 9: 4, 10: 3, 11: 2, 12: 1}


def node_production(state: State, node: int) -> list[float]:
    """Expected cards per 36 rolls, per resource, for a settlement on ``node``."""
    production = [0.0] * 5
    for hex_id in NODE_HEXES[node]:
        resource = state["hex_resource"][hex_id]
        if resource >= 0 and hex_id != state["robber"]:
            production[resource] += PIPS[state["numbers"][hex_id]]
    return production


def seat_production(state: State, seat: int) -> list[float]:
    total = [0.0] * 5
    for node, owner in enumerate(state["node_owner"]):
        if owner == seat:
            for i, value in enumerate(node_production(state, node)):
                total[i] += value * state["node_level"][node]
    return total


NAMES = (
    "points", "points_squared", "production_left", "city_production_left", "road_production_left",
    "kinds_produced_left", "knights_played",
    "road_length", "settlement_spots", "settlements_to_upgrade", "harbours", "on_turn",
)


def features(state: State) -> list[list[float]]:
    seats = range(state["players"])
    points = [victory_points(state, seat) for seat in seats]
    left = max(0.0, 1.0 - max(points) / WINNING_POINTS)
    return [_seat_features(state, seat, points[seat], left) for seat in seats]


def _seat_features(state: State, seat: int, points: int, left: float) -> list[float]:
    production = seat_production(state, seat)    # dots per resource: brick, lumber, wool, grain, ore
    harbours = sum(1 for node, owner in enumerate(state["node_owner"])
                   if owner == seat and state["node_harbour"][node] >= 0)
    return [
        points, points * points / WINNING_POINTS,
        sum(production) * left, (production[3] + production[4]) * left, (production[0] + production[1]) * left,
        sum(1 for p in production if p > 0) * left,
        state["knights"][seat],
        state["road_length"][seat], min(len(settlement_spots(state, seat)), 3),
        (PIECES[SETTLEMENT] - state["pieces"][seat][SETTLEMENT]) * left,
        harbours, 1.0 if state["current"] == seat else 0.0,
    ]


FEATURES = FeatureSet(NAMES, features, Path(__file__).with_name("value_model.json"))
