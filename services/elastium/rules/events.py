"""evolve: folds one event into the state.  Pure bookkeeping: every decision (what a band
collects, bonuses, shuffles) was taken by ``decide`` and is written in the event."""
from __future__ import annotations

from typing import Any, cast
from collections.abc import Callable

from services.elastium.rules.board import board
from services.elastium.rules.state import (
    ACTIONS_PER_TURN, EXTRA_ACTION_COST, State, is_cursed, new_state,
)

Event = dict[str, Any]


def _game_started(state: State | None, data: dict[str, Any]) -> State:
    return new_state(data["scenario"], data["players"], data["max_rounds"])


def _deck_shuffled(state: State, data: dict[str, Any]) -> State:
    state["deck"] = list(data["deck"])
    return state


def _private_decks_dealt(state: State, data: dict[str, Any]) -> State:
    state["own_decks"] = [list(deck) for deck in data["decks"]]
    return state


def _draw_pile(state: State, seat: int) -> list[str]:
    return state["own_decks"][seat] if is_cursed(state) else state["deck"]


def _cards_dealt(state: State, data: dict[str, Any]) -> State:
    seat = data["seat"]
    pile = _draw_pile(state, seat)
    for _ in data["cards"]:
        state["hands"][seat][pile.pop()] += 1
    return state


def _card_drawn(state: State, data: dict[str, Any]) -> State:
    seat = data["seat"]
    state["hands"][seat][_draw_pile(state, seat).pop()] += 1
    if data.get("bonus"):
        state["pending_bonus_cards"] -= 1
    return state


def _market_card_taken(state: State, data: dict[str, Any]) -> State:
    state["market"].remove(data["card"])
    state["hands"][data["seat"]][data["card"]] += 1
    if data.get("bonus"):
        state["pending_bonus_cards"] -= 1
    return state


def _market_card_revealed(state: State, data: dict[str, Any]) -> State:
    state["market"].append(state["deck"].pop())
    return state


def _discards_reshuffled(state: State, data: dict[str, Any]) -> State:
    seat = data.get("seat")
    if seat is None:
        state["deck"] = list(data["deck"])
        state["discard"] = []
    else:
        state["own_decks"][seat] = list(data["deck"])
        state["own_discards"][seat] = []
    return state


def _action_started(state: State, data: dict[str, Any]) -> State:
    state["actions_left"] -= 1
    return state


def _action_bought(state: State, data: dict[str, Any]) -> State:
    seat = data["seat"]
    state["energy"][seat] -= EXTRA_ACTION_COST
    state["energy_supply"] += EXTRA_ACTION_COST
    state["actions_left"] += 1
    state["extra_used"] = True
    return state


def _band_placed(state: State, data: dict[str, Any]) -> State:
    seat = data["seat"]
    hand = state["hands"][seat]
    for pay in data["payment"]:
        for card in pay["cards"]:
            hand[card] -= 1
        to = pay["to"]
        if to is not None and not pay.get("energy"):
            second = pay.get("second_to")
            for index, card in enumerate(pay["cards"]):
                state["hands"][second if index == 1 and second is not None else to][card] += 1
        else:
            (state["own_discards"][seat] if is_cursed(state) else state["discard"]).extend(pay["cards"])
        if pay.get("energy"):
            state["energy"][seat] -= 1
            state["energy"][to] += 1
    key = data["key"]
    state["bands"].append({"seat": seat, "key": key})
    state["bands_used"][seat] += 1
    for peg in data["pegs"]:
        owners = state["peg_owners"].setdefault(peg, [])
        if seat not in owners:
            owners.append(seat)
    walls = state["walls"][seat]
    walls.extend(w for w in board(state["scenario"], state["players"]).bands[key].walls if w not in walls)
    walls.sort()
    for seg in data["explored"]:
        state["explored"].setdefault(seg, seat)
    enclosed = state["enclosed"][seat]
    enclosed.extend(s for s in [*data["explored"], *data["enclosed"]] if s not in enclosed)
    if "chain" in data:
        state["chains"][seat] = list(data["chain"])
        state["chain_heads"][seat] = list(data["chain_heads"])
    return state


def _items_collected(state: State, data: dict[str, Any]) -> State:
    seat = data["seat"]
    for item in data["items"]:
        state["collected"][item] = seat
    state["score"][seat] += data["treasure"]
    state["energy"][seat] += data["energy"]
    state["energy_supply"] -= data["energy"]
    for artefact in data.get("artefacts", []):
        owned = state["artefacts"][seat]
        owned[artefact] = owned.get(artefact, 0) + 1
    state["pending_bonus_cards"] += data.get("bonus_cards", 0)
    return state


def _points_scored(state: State, data: dict[str, Any]) -> State:
    seat = data["seat"]
    state["score"][seat] += data["points"]
    if data["reason"] == "opposite-edge":
        state["edge_reached"].append(seat)
    if data["reason"] == "empty-segment":
        state["penalised"][seat].extend(data["segments"])
    return state


def _image_completed(state: State, data: dict[str, Any]) -> State:
    state["images_completed"].append(data["image"])
    return state


def _end_triggered(state: State, data: dict[str, Any]) -> State:
    state["end_triggered"] = data["reason"]
    return state


def _turn_ended(state: State, data: dict[str, Any]) -> State:
    state["turn_seat"] = data["next_seat"]
    state["actions_left"] = ACTIONS_PER_TURN
    state["extra_used"] = False
    return state


def _round_ended(state: State, data: dict[str, Any]) -> State:
    state["round"] = data["round"] + 1
    return state


def _game_ended(state: State, data: dict[str, Any]) -> State:
    state["result"] = {key: data[key] for key in ("winners", "scores", "breakdown", "bands_used")}
    state["score"] = list(data["scores"])
    return state


HANDLERS: dict[str, Callable[[Any, dict[str, Any]], State]] = {
    "game_started": _game_started,
    "deck_shuffled": _deck_shuffled,
    "private_decks_dealt": _private_decks_dealt,
    "cards_dealt": _cards_dealt,
    "card_drawn": _card_drawn,
    "market_card_taken": _market_card_taken,
    "market_card_revealed": _market_card_revealed,
    "discards_reshuffled": _discards_reshuffled,
    "action_started": _action_started,
    "action_bought": _action_bought,
    "band_placed": _band_placed,
    "items_collected": _items_collected,
    "points_scored": _points_scored,
    "image_completed": _image_completed,
    "end_triggered": _end_triggered,
    "turn_ended": _turn_ended,
    "round_ended": _round_ended,
    "game_ended": _game_ended,
}


def evolve(state: State | None, event: Event) -> State:
    handler = HANDLERS.get(event["type"])
    if handler is None:       # an unknown event changes nothing: evolve never fails
        return cast(State, state)
    return handler(state, event["data"])
