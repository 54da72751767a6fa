"""How many new towns an elf can still reach with the cards in its hand and the counters on the
roads: a search a few roads ahead, shared by the planner (which journey to make) and the value
function (what a position holds for the rest of the round).

It reads only what a seat sees of the state: the board's counters, its own hand and town, the
towns it has visited and, in the last round with the home-town rule, where its home lies.
"""
from __future__ import annotations

from typing import Any

from shared.game.engine import Move
from services.elfenland.rules.board import DISTANCES, MARKER_TOWNS, ROADS_AT
from services.elfenland.rules.multiset import remove
from services.elfenland.rules.travel import payments

SEARCH_DEPTH = 4
TOWN_POINTS = 10          # a new town against the cards spent on the way: one card costs one point


def best_journey(view: dict[str, Any], seat: int, town: str, hand: dict[str, int], seen: set[str],
                 depth: int = SEARCH_DEPTH) -> tuple[float, Move | None]:
    """Best (value, first travel move) from ``town`` within ``depth`` roads: TOWN_POINTS per new
    town, less a point per card spent, less TOWN_POINTS per road still between the elf and its
    home town at the end of the last round (home-town rule)."""
    me = view["seats"][seat]
    final_round = view["round"] == view["rounds"] and view["options"]["home_towns"] and me["home"]
    value = -TOWN_POINTS * DISTANCES[town][me["home"]] if final_round else 0.0
    best: tuple[float, Move | None] = (value, None)
    if depth == 0:
        return best
    probe = {**view, "seats": [{**me, "town": town, "hand": hand}]}
    for road in ROADS_AT[town]:
        options = payments(probe, 0, road)
        cheap = [p for p in options if len(set(p)) == 1] or options[:1]
        for cards in cheap[:2]:
            nxt = road.other_end(town)
            gain = TOWN_POINTS if nxt in MARKER_TOWNS and nxt not in seen else 0
            rest = dict(hand)
            remove(rest, cards)
            sub, _ = best_journey(view, seat, nxt, rest, seen | {nxt}, depth - 1)
            total = gain - len(cards) + sub
            if total > best[0]:
                best = (total, {"type": "travel", "road": road.id, "cards": list(cards)})
    return best


def towns_in_reach(view: dict[str, Any], seat: int) -> float:
    """The new towns the seat's best journey from here collects (cards spent counted as tenths)."""
    me = view["seats"][seat]
    value, _ = best_journey(view, seat, me["town"], dict(me["hand"]), set(me["visited"]))
    return max(value, 0.0) / TOWN_POINTS
