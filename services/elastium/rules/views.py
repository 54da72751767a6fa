"""What each viewer may see: views of the state and redacted events.

Hidden: every deck order (from everyone, the owner of a Cursed Triangle deck included) and the
cards in another player's hand, until the game is over (then every view shows every hand).
Market, discards and payments are public.
"""
from __future__ import annotations

import copy
from typing import Any, cast

from services.elastium.rules.events import Event
from services.elastium.rules.state import State, hand_size, phase
from services.elastium.rules.view_types import ElastiumView

PUBLIC_KEYS = (
    "scenario", "players", "max_rounds", "round", "turn_seat", "actions_left", "extra_used",
    "pending_bonus_cards", "market", "discard", "own_discards", "score", "energy", "energy_supply",
    "bands", "bands_used", "peg_owners", "explored", "enclosed", "collected", "penalised",
    "images_completed", "edge_reached", "artefacts", "chains", "chain_heads", "end_triggered", "result",
)


def view(state: State, seat: int | None) -> ElastiumView:
    """The state as ``seat`` sees it (None: a spectator), of the shape view_types declares."""
    seen: dict[str, Any] = {key: copy.deepcopy(state[key]) for key in PUBLIC_KEYS}
    seen["phase"] = phase(state)
    seen["deck_count"] = len(state["deck"])
    seen["own_deck_counts"] = [len(deck) for deck in state["own_decks"]]
    seen["hand_counts"] = [hand_size(hand) for hand in state["hands"]]
    if seat is not None:
        seen["seat"] = seat
        seen["hand"] = dict(state["hands"][seat])
    if state["result"] is not None:
        # the game is over: nothing is secret any more, every hand is turned up (deck orders
        # stay out: they decide nothing now)
        seen["hands"] = [dict(hand) for hand in state["hands"]]
        # Ending rolls the round counter past the last round played: show the last one.
        seen["phase"] = "over"
        seen["round"] = min(state["round"], state["max_rounds"])
    return cast(ElastiumView, seen)


def redact(e: Event, seat: int | None) -> Event:
    kind, data = e["type"], e["data"]
    if kind == "deck_shuffled" or kind == "discards_reshuffled":
        hidden = {k: v for k, v in data.items() if k != "deck"}
        return {"type": kind, "data": {**hidden, "count": len(data["deck"])}}
    if kind == "private_decks_dealt":
        return {"type": kind, "data": {"counts": [len(deck) for deck in data["decks"]]}}
    if kind == "cards_dealt" and data["seat"] != seat:
        return {"type": kind, "data": {**data, "cards": [None] * len(data["cards"])}}
    if kind == "card_drawn" and data["seat"] != seat:
        return {"type": kind, "data": {**data, "card": None}}
    return copy.deepcopy(e)
