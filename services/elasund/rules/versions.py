"""What each kept Elasund engine version decides and folds differently (``ElasundGame(version)``).

One engine serves them all; these are the only points where they differ.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from services.elasund.rules import board
from services.elasund.rules.events import evolve
from services.elasund.rules.state import State

# The order in which a draw lists the hidden cards before picking among them.  Never the order of
# a dict in the state: a state folded from the log and one loaded from a snapshot (canonical JSON,
# sorted keys) list their colours differently.  Engines 1 and 2 listed the colours in the order
# the fold gives its dicts, which is the components' order (red, blue, green): drawing in that
# fixed order decides exactly what they recorded.  Engine 3 draws in sorted order, the order of
# the canonical form itself.
RULES_ORDER: tuple[str, ...] = tuple(board.INFLUENCE_COLOURS)
SORTED_ORDER: tuple[str, ...] = tuple(sorted(board.INFLUENCE_COLOURS))


@dataclass(frozen=True)
class Engine:
    version: str
    draw_order: tuple[str, ...]
    # Engine 2 on: the trade-track disk stops at 11 (the track's last space), in ``move_disk``
    # and in the fold.  Engine 1 counted on past it, and a later loss counted back from there.
    disk_stops_at_track_end: bool


ENGINE_RULES: dict[str, Engine] = {
    "1": Engine("1", RULES_ORDER, disk_stops_at_track_end=False),
    "2": Engine("2", RULES_ORDER, disk_stops_at_track_end=True),
    "3": Engine("3", SORTED_ORDER, disk_stops_at_track_end=True),
}
NEWEST = ENGINE_RULES["3"]


def fold(state: State | None, event: dict[str, Any], engine: Engine) -> State:
    """``evolve`` as ``engine`` folds: engine 1 kept a disk's total past 11 as recorded."""
    state = evolve(state, event)
    if not engine.disk_stops_at_track_end and event["type"] == "trade_moved":
        state["trade"][event["data"]["seat"]] = event["data"]["total"]
    return state
