"""Elfenland's value features: what a position is worth to a seat, for the expert's search.

The weights are fit to self-play by the planner (``python -m shared.ai.valuefit elfenland``, see
``shared.ai.valuefit``) and live in ``value_model.json``.  What lies ahead (unvisited towns near the
elf, cards and counters to pay for the legs) is multiplied by the share of the game still to
play; the distance home (the home-town rule) counts most in the last round; while counters go
down and elves travel, the new towns the seat's best journey would still collect this round
(``lookahead.towns_in_reach``, the planner's own search) count too.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from shared.game.value import FeatureSet
from services.elfenland.lookahead import towns_in_reach
from services.elfenland.rules.board import DISTANCES, MARKER_TOWNS
from services.elfenland.rules.multiset import size
from services.elfenland.rules.state import State

NAMES = (
    "towns", "towns_near_left", "towns_far_left", "cards_left", "cards", "counters_left", "coins",
    "home_distance", "home_distance_last_round", "reach_placing", "reach_moving",
)


def features(state: State) -> list[list[float]]:
    return [_seat_features(state, seat, me) for seat, me in enumerate(state["seats"])]


def _seat_features(state: State, seat: int, me: dict[str, Any]) -> list[float]:
    rounds = max(state["rounds"], 1)
    left = max(0.0, (rounds - state["round"] + 1) / rounds)     # the current round still to play
    seen = set(me["visited"])
    unvisited = [town for town in MARKER_TOWNS if town not in seen]
    near = sum(1 for town in unvisited if DISTANCES[me["town"]][town] <= 2)
    far = sum(1 for town in unvisited if 2 < DISTANCES[me["town"]][town] <= 4)
    home = DISTANCES[me["town"]][me["home"]] if state["options"].get("home_towns") and me["home"] else 0
    cards = size(me["hand"])
    # What the counters on the roads and the cards in hand still bring this round: while the
    # counters go down (placement) and while the elf has not ended its journey (movement).
    moving = state["phase"] == "movement" and not me["moved"]
    placing = state["phase"] == "placement"
    reach = towns_in_reach(state, seat) if placing or moving else 0.0
    return [
        len(me["visited"]), near * left, far * left, cards * left, cards, len(me["counters"]) * left,
        me.get("coins", 0), home, home if state["round"] >= state["rounds"] else 0, reach * placing, reach * moving,
    ]


# Learnt over the editions (Elfengold's coins and gold-valued towns, Elfenroads) and without the
# home-town rule too, in turn: one set of weights serves every option set a game may be created with.
VARIANTS: tuple[dict[str, Any], ...] = (
    {}, {"edition": "elfengold"}, {"home_towns": False}, {"edition": "elfenroads"},
    {"edition": "elfengold", "wizards": True},
)
FEATURES = FeatureSet(NAMES, features, Path(__file__).with_name("value_model.json"), variants=VARIANTS)
