"""Elastium's value features: what a position is worth to a seat, for the expert's search.

The weights are fit to self-play by the greedy bot over the eight scenarios (``python -m
shared.ai.valuefit elastium``, see ``shared.ai.valuefit``) and live in ``value_model.json``.  The points
are those the end of the game would count now (``final_breakdown``: score, energy, the scenario's
bonuses); the rest is what will bring more (cards to pay for bands, energy short of a point) and
the tie-break (fewer bands used).
"""
from __future__ import annotations

from pathlib import Path

from shared.game.value import FeatureSet
from services.elastium.rules.scoring import final_breakdown
from services.elastium.rules.state import ENERGY_PER_POINT, State, board_of

NAMES = ("points", "cards", "energy_towards_a_point", "bands_used", "volcano_energy_short", "on_turn")


def features(state: State) -> list[list[float]]:
    escape = board_of(state).rules.get("min_energy_at_end", 0)     # the Volcano's: 7 energy to escape
    rows = []
    for row in final_breakdown(state):                             # one row per seat, in order
        seat, energy = row["seat"], state["energy"][row["seat"]]
        rows.append([
            row["total"], sum(state["hands"][seat].values()), (energy % ENERGY_PER_POINT) / ENERGY_PER_POINT,
            state["bands_used"][seat], max(0, escape - energy), 1.0 if state["turn_seat"] == seat else 0.0,
        ])
    return rows


FEATURES = FeatureSet(NAMES, features, Path(__file__).with_name("value_model.json"))
