"""What a seat (or a spectator) may see: ``view`` of the state and ``redact`` of an event.

Private: the influence cards in a hand (its colours; others see only hand sizes), the colours a
seat draws, discards to pirates or a shortage and loots, the two church tiles the first builder
draws and the one put under the stack.  The deck is stored as counts, never as an order.
"""
from __future__ import annotations

import copy
import json
from typing import Any

from services.elasund.rules.state import (
    CHURCH_CHOICE, State, cubes_on_board, gold_in_bank, hand_size, influence_total, to_act,
)
from services.elasund.rules.view_types import Church, ElasundView, Pending

PUBLIC_KEYS = ("players", "options", "current", "turn", "phase", "ship", "pirates", "dice", "builds",
               "supply", "stock", "buildings", "permits", "walls", "trade", "track_cubes", "winner")


def view(state: State, seat: int | None) -> ElasundView:
    # The state is plain JSON: a JSON round trip copies it several times faster than deepcopy.
    seen: ElasundView = json.loads(json.dumps({name: state[name] for name in PUBLIC_KEYS}))
    seen["hands"] = [json.loads(json.dumps(hand)) if viewer == seat else {"cards": hand_size(state, viewer)}
                     for viewer, hand in enumerate(state["hands"])]
    seen["cubes_on_board"] = [cubes_on_board(state, s) for s in range(state["players"])]
    seen["gold_bank"] = gold_in_bank(state)
    seen["influence_deck"] = influence_total(state["influence_deck"])
    seen["influence_discard"] = influence_total(state["influence_discard"])
    seen["pending"] = _pending(state)
    seen["church"] = _church(state, seat)
    seen["to_act"] = to_act(state)
    return seen


def _pending(state: State) -> Pending:
    pending: Any = copy.deepcopy(state["pending"])
    pool = pending.pop("pool", None)
    if pool is not None:  # what was discarded to the pirates is face down: only its size shows
        pending["pool_size"] = pool["gold"] + influence_total(pool["influence"])
    return pending


def _church(state: State, seat: int | None) -> Church:
    church = state["church"]
    seen: Church = {"tiles": copy.deepcopy(church["tiles"]), "origin": church["origin"],
                    "stack": len(church["pool"])}
    if seat is not None and church["bottom"] is not None and church["bottom_seat"] == seat:
        seen["bottom"] = church["bottom"]
    # ``drawn`` is None from ``church_tile_bottomed`` on, while the phase still says CHURCH_CHOICE.
    if seat == state["current"] and state["phase"] == CHURCH_CHOICE and church["drawn"] is not None:
        seen["drawn"] = list(church["drawn"])
    return seen


# event type -> fields only the event's seat may see
SECRET_FIELDS: dict[str, tuple[str, ...]] = {
    "cards_drawn": ("influence",),
    "cards_discarded": ("influence",),
    "loot_taken": ("gold", "influence"),
    "church_drawn": ("tiles",),
    "church_tile_bottomed": ("tile",),
}
# Influence paid as a cost (matching colours) is shown to everyone: the rules have it played openly.


def redact(event: dict[str, Any], seat: int | None) -> dict[str, Any]:
    secret = SECRET_FIELDS.get(event["type"])
    data = event["data"]
    if not secret or data.get("seat") == seat:
        return event
    hidden = dict(data)
    for name in secret:
        value = hidden[name]
        hidden[name] = None
        if name == "influence":
            hidden["influence_count"] = len(value) if isinstance(value, list) else influence_total(value)
    if event["type"] == "loot_taken":
        hidden["count"] = data["gold"] + influence_total(data["influence"])
    return {"type": event["type"], "data": hidden}
