"""What each viewer may see: ``view`` of the state and ``redact`` of an event.

Hidden: hands (others see counts), hidden counters (others see that one is hidden), home towns,
the Elfengold counters drawn but not yet revealed, the deck and the counter bag (sizes only:
their contents would reveal the hands by subtraction), and Elfenland's discard pile (cards
discarded at the end of a round are secret).  Coins are public: the rules never hide them.
"""
from __future__ import annotations

import json
from typing import Any, cast

from shared.game.engine import Event

from services.elfenland.rules.multiset import size
from services.elfenland.rules.state import State, rules_of, to_act
from services.elfenland.rules.view_types import ElfenlandView, SeatView


_MASK = {"kind": None, "hidden": True}


def public_order(counters: list[dict[str, Any]], own: bool = False) -> list[dict[str, Any]]:
    """Counters as another seat may see them: the visible ones by kind, then one mask per hidden
    one (``own``: the hidden ones by kind, unmasked, so the owner's list lines up with the others').

    Never in held (or chosen) order: where a masked counter sits among the visible ones would
    tell whether its kind sorts before or after theirs, or which one was taken or kept.
    """
    visible = sorted((c for c in counters if not c["hidden"]), key=lambda c: c["kind"])
    hidden = sorted((c for c in counters if c["hidden"]), key=lambda c: c["kind"])
    return [dict(c) for c in visible] + [dict(c) if own else dict(_MASK) for c in hidden]


def _seat_view(seat_state: dict[str, Any], own: bool) -> SeatView:
    shown = dict(seat_state)
    shown["hand_size"] = size(seat_state["hand"])
    shown["pending_size"] = len(seat_state["pending"])
    if not own:
        shown["hand"] = None
        shown["home"] = None
        shown["pending"] = None
        shown["counters"] = public_order(seat_state["counters"])
    else:
        shown["counters"] = public_order(seat_state["counters"], own=True)
    return cast(SeatView, shown)


def view(state: State, seat: int | None) -> ElfenlandView:
    """The state as ``seat`` sees it (None: a spectator), of the shape view_types declares."""
    copy = json.loads(json.dumps(state))
    # Once the game is over every card is turned up ("Tous les joueurs revelent leur carte de
    # village natal"), as the platform then serves the events unredacted.
    over = state["result"] is not None
    copy["seats"] = [_seat_view(s, own=(over or i == seat)) for i, s in enumerate(copy["seats"])]
    copy["deck_size"], copy["bag_size"] = size(state["deck"]), size(state["bag"])
    del copy["deck"], copy["bag"]
    copy["discard_size"] = size(state["discard"])
    if not rules_of(state).gold_economy:
        del copy["discard"]
    copy["viewer"] = seat
    copy["to_act"] = to_act(state)
    return copy


# Event fields only the named seat may see while the game runs.
_PRIVATE_FIELDS: dict[str, tuple[str, ...]] = {
    "home_town_dealt": ("town",),
    "cards_dealt": ("cards",),
    "secret_counter_drawn": ("counter",),
    "counters_drawn": ("counters",),
    "cards_kept": ("kept", "discarded"),
}


def _hide(value: Any) -> Any:
    """Lists keep their length (the count is public), single values become null."""
    return [None] * len(value) if isinstance(value, list) else None


def redact(e: Event, seat: int | None) -> Event:
    data = e["data"]
    owner = data.get("seat")
    if seat is not None and owner == seat:
        return e
    if e["type"] in _PRIVATE_FIELDS:
        hidden = {f: _hide(data[f]) for f in _PRIVATE_FIELDS[e["type"]]}
        return {"type": e["type"], "data": {**data, **hidden}}
    if e["type"] == "card_drawn":          # a face-down draw
        return {"type": e["type"], "data": {**data, "card": None}}
    if e["type"] == "counters_kept":
        return {"type": e["type"], "data": {**data, "kept": public_order(data["kept"]),
                                            "discarded": public_order(data["discarded"])}}
    return e
