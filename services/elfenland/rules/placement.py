"""Where counters may go (phase "placement").  Each check returns the broken rule's reason
code, or None when the placement is allowed; ``decide`` and ``legal_moves`` share them.
"""
from __future__ import annotations

from services.elfenland.rules.board import ROADS, Road
from services.elfenland.rules.components import (
    DOUBLE_SPELL, EXCHANGE_SPELL, GOLD_COUNTER, OBSTACLE, SEA_MONSTER, TRANSPORT_COST, TRANSPORTS)
from services.elfenland.rules.state import State, held_counters, road_slot


def holds(state: State, seat: int, kind: str, count: int = 1) -> bool:
    seat_state = state["seats"][seat]
    owned = held_counters(seat_state).get(kind, 0)
    if kind == OBSTACLE:
        owned += seat_state["obstacles"]
    return owned >= count


def admits(road: Road, transport: str) -> bool:
    """Can this transport's counter lie on this road?  Never on water: rafts need none."""
    return road.terrain in TRANSPORT_COST[transport]


def placement_error(state: State, seat: int, kind: str, road: Road) -> str | None:
    """Why ``seat`` may not put a ``kind`` counter on ``road`` (None: it may)."""
    if kind in (DOUBLE_SPELL, EXCHANGE_SPELL):
        return "spell-needs-own-move"
    if kind not in TRANSPORTS and kind not in (OBSTACLE, SEA_MONSTER, GOLD_COUNTER):
        return "unknown-counter"
    if not holds(state, seat, kind):
        return "counter-not-held"
    slot = road_slot(state, road.id)
    if kind in TRANSPORTS:
        if not admits(road, kind):
            return "terrain-forbids-transport"
        if slot["transports"]:
            return "road-has-transport"
        return None
    if kind == SEA_MONSTER:
        if road.is_land:
            return "sea-monster-needs-water"
        return "road-has-obstacle" if slot["obstacle"] else None
    # Obstacles and gold go beside a transport counter, never together (Elfengold).
    if not slot["transports"]:
        return "needs-transport-counter"
    if slot["obstacle"]:
        return "road-has-obstacle"
    if slot["gold"]:
        return "road-has-gold"
    return None


def double_error(state: State, seat: int, road: Road, second: str) -> str | None:
    """Why the double-transport spell with ``second`` may not go on ``road``."""
    if not holds(state, seat, DOUBLE_SPELL):
        return "counter-not-held"
    if second not in TRANSPORTS:
        return "unknown-counter"
    if not holds(state, seat, second):
        return "counter-not-held"
    slot = road_slot(state, road.id)
    if not slot["transports"]:
        return "needs-transport-counter"
    if slot["double"]:
        return "road-has-double"
    if not admits(road, second):
        return "terrain-forbids-transport"
    return None


def exchange_error(state: State, seat: int, road: Road, other: Road) -> str | None:
    """Why the exchange spell may not swap the transport counters of ``road`` and ``other``."""
    if not holds(state, seat, EXCHANGE_SPELL):
        return "counter-not-held"
    if road.id == other.id:
        return "same-road"
    one, two = road_slot(state, road.id)["transports"], road_slot(state, other.id)["transports"]
    # A road under a double spell holds two transports: which one would move is unclear, so
    # only single-transport roads trade (NOTES.md).
    if len(one) != 1 or len(two) != 1:
        return "exchange-needs-single-transport"
    if not admits(road, two[0]) or not admits(other, one[0]):
        return "terrain-forbids-transport"
    return None


def roads_with_transports(state: State) -> list[Road]:
    return [ROADS[int(r)] for r, slot in sorted(state["board"].items(), key=lambda kv: int(kv[0]))
            if slot["transports"]]
