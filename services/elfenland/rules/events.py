"""``evolve``: folds one event into the state.  Pure bookkeeping: no checks, no randomness.

Every random outcome (cards dealt or drawn, counters drawn) is written in the event by
``decide``/``setup``, so replay only copies it.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from services.elfenland.rules.board import MARKER_TOWNS
from services.elfenland.rules.components import (
    DOUBLE_SPELL, EXCHANGE_SPELL, GOLD_CARD, GOLD_COUNTER, OBSTACLE, SEA_MONSTER, TRANSPORTS)
from services.elfenland.rules.multiset import add, remove
from services.elfenland.rules.scoring import Ending, game_ends_now
from services.elfenland.rules.state import State, new_state, over_card_limit, rules_of

Data = dict[str, Any]


def _take_counter(seat_state: dict[str, Any], kind: str) -> None:
    """Remove one counter of ``kind``; a visible one first, so a secret counter stays secret."""
    counters = seat_state["counters"]
    matching = [i for i, c in enumerate(counters) if c["kind"] == kind]
    visible = [i for i in matching if not counters[i]["hidden"]]
    counters.pop((visible or matching)[0])


def _slot(state: State, road: int) -> dict[str, Any]:
    return state["board"].setdefault(str(road), {"transports": [], "obstacle": None,
                                                 "gold": False, "double": False})


def _round_started(s: State, d: Data) -> None:
    s["round"], s["first"], s["phase"], s["step"], s["passes"] = d["round"], d["first"], "round_start", 0, 0
    for seat_state in s["seats"]:
        seat_state["earned"], seat_state["moved"] = 0, False


def _phase_started(s: State, d: Data) -> None:
    s["phase"], s["step"], s["passes"], s["discarding"], s["redraw"] = d["phase"], 0, 0, False, False


def _home_town_dealt(s: State, d: Data) -> None:
    s["seats"][d["seat"]]["home"] = d["town"]


def _cards_dealt(s: State, d: Data) -> None:
    remove(s["deck"], d["cards"])
    add(s["seats"][d["seat"]]["hand"], d["cards"])


def _gold_cards_added(s: State, d: Data) -> None:
    add(s["deck"], [GOLD_CARD] * d["count"])


def _face_up_card_added(s: State, d: Data) -> None:
    remove(s["deck"], [d["card"]])
    s["face_up_cards"].append(d["card"])


def _gold_card_found(s: State, d: Data) -> None:
    remove(s["deck"], [GOLD_CARD])
    s["gold_pile"] += 1
    if d.get("seat") is not None:
        # Drawn blind in the draft: the player draws again or takes the gold pile.
        s["redraw"] = True


def _deck_reshuffled(s: State, d: Data) -> None:
    for kind, n in s["discard"].items():
        s["deck"][kind] = s["deck"].get(kind, 0) + n
    s["discard"] = {}


def _card_taken(s: State, d: Data) -> None:
    s["face_up_cards"].remove(d["card"])
    add(s["seats"][d["seat"]]["hand"], [d["card"]])
    s["step"] += 1
    s["redraw"] = False


def _card_drawn(s: State, d: Data) -> None:
    remove(s["deck"], [d["card"]])
    add(s["seats"][d["seat"]]["hand"], [d["card"]])
    if d["draft"]:
        s["step"] += 1
        s["redraw"] = False


def _gold_taken(s: State, d: Data) -> None:
    s["gold_pile"] = 0
    add(s["discard"], [GOLD_CARD] * d["cards"])
    s["seats"][d["seat"]]["coins"] += d["coins"]
    s["step"] += 1
    s["redraw"] = False


def _income(s: State, d: Data) -> None:
    for seat_state in s["seats"]:
        seat_state["coins"] += d["coins"]


def _secret_counter_drawn(s: State, d: Data) -> None:
    remove(s["bag"], [d["counter"]])
    s["seats"][d["seat"]]["counters"].append({"kind": d["counter"], "hidden": True})


def _secret_counter_chosen(s: State, d: Data) -> None:
    if d["reveal"]:
        counters = s["seats"][d["seat"]]["counters"]
        # The counter drawn this round is the last hidden one of its kind.
        index = max(i for i, c in enumerate(counters) if c["hidden"] and c["kind"] == d["counter"])
        counters[index]["hidden"] = False
    s["step"] += 1


def _counters_revealed(s: State, d: Data) -> None:
    remove(s["bag"], d["counters"])
    s["face_up_counters"].extend(d["counters"])


def _face_up_counter_added(s: State, d: Data) -> None:
    remove(s["bag"], [d["counter"]])
    s["face_up_counters"].append(d["counter"])


def _counter_taken(s: State, d: Data) -> None:
    if d["source"] == "face_up":
        s["face_up_counters"].remove(d["counter"])
    else:
        remove(s["bag"], [d["counter"]])
    s["seats"][d["seat"]]["counters"].append({"kind": d["counter"], "hidden": False})
    s["step"] += 1


def _counters_drawn(s: State, d: Data) -> None:
    remove(s["bag"], d["counters"])
    s["seats"][d["seat"]]["pending"] = list(d["counters"])


def _counter_revealed(s: State, d: Data) -> None:
    seat_state = s["seats"][d["seat"]]
    hidden = list(seat_state["pending"])
    hidden.remove(d["counter"])
    seat_state["counters"].append({"kind": d["counter"], "hidden": False})
    seat_state["counters"].extend({"kind": kind, "hidden": True} for kind in hidden)
    seat_state["pending"] = []
    s["step"] += 1


def _fresh_lot(s: State) -> None:
    auction = s["auction"]
    auction.update(high=0, bidder=None, passed=[], turn=s["first"])


def _next_bidder(s: State, after: int) -> None:
    """The next seat clockwise still bidding (not passed, not the high bidder)."""
    auction, n = s["auction"], s["players"]
    for offset in range(1, n + 1):
        seat = (after + offset) % n
        if seat not in auction["passed"] and seat != auction["bidder"]:
            auction["turn"] = seat
            return


def _auction_opened(s: State, d: Data) -> None:
    remove(s["bag"], d["lots"])
    s["auction"] = {"lots": list(d["lots"])}
    _fresh_lot(s)


def _bid_placed(s: State, d: Data) -> None:
    s["auction"]["high"], s["auction"]["bidder"] = d["amount"], d["seat"]
    _next_bidder(s, d["seat"])


def _bid_passed(s: State, d: Data) -> None:
    s["auction"]["passed"].append(d["seat"])
    _next_bidder(s, d["seat"])


def _lot_sold(s: State, d: Data) -> None:
    seat_state = s["seats"][d["seat"]]
    seat_state["coins"] -= d["price"]
    seat_state["counters"].append({"kind": d["counter"], "hidden": False})
    s["auction"]["lots"].pop(0)
    _fresh_lot(s)


def _lot_overbid(s: State, d: Data) -> None:
    # The over-bidder pays everything he has; the same counter is offered again.
    s["seats"][d["seat"]]["coins"] = 0
    _fresh_lot(s)


def _lot_unsold(s: State, d: Data) -> None:
    add(s["bag"], [d["counter"]])
    s["auction"]["lots"].pop(0)
    _fresh_lot(s)


def _auction_closed(s: State, d: Data) -> None:
    s["auction"] = None


def _counter_placed(s: State, d: Data) -> None:
    seat_state, kind = s["seats"][d["seat"]], d["counter"]
    if kind == OBSTACLE and seat_state["obstacles"] > 0:
        seat_state["obstacles"] -= 1          # Elfenland: the player's own obstacle
    else:
        _take_counter(seat_state, kind)
    slot = _slot(s, d["road"])
    if kind in TRANSPORTS:
        slot["transports"].append(kind)
    elif kind in (OBSTACLE, SEA_MONSTER):
        slot["obstacle"] = kind
    elif kind == GOLD_COUNTER:
        slot["gold"] = True
    s["passes"] = 0
    s["step"] += 1


def _double_placed(s: State, d: Data) -> None:
    seat_state = s["seats"][d["seat"]]
    _take_counter(seat_state, DOUBLE_SPELL)
    _take_counter(seat_state, d["counter"])
    slot = _slot(s, d["road"])
    slot["double"] = True
    slot["transports"].append(d["counter"])
    s["passes"] = 0
    s["step"] += 1


def _exchange_played(s: State, d: Data) -> None:
    _take_counter(s["seats"][d["seat"]], EXCHANGE_SPELL)
    add(s["bag"], [EXCHANGE_SPELL])        # "remis dans le sac" right after use
    one, other = _slot(s, d["road"]), _slot(s, d["other_road"])
    one["transports"], other["transports"] = other["transports"], one["transports"]
    s["passes"] = 0
    s["step"] += 1


def _passed(s: State, d: Data) -> None:
    s["passes"] += 1
    s["step"] += 1


def _arrive(seat_state: dict[str, Any], town: str) -> None:
    seat_state["town"] = town
    seat_state["moved"] = True
    if town in MARKER_TOWNS and town not in seat_state["visited"]:
        seat_state["visited"].append(town)


def _travelled(s: State, d: Data) -> None:
    seat_state = s["seats"][d["seat"]]
    remove(seat_state["hand"], d["cards"])
    add(s["discard"], d["cards"])
    seat_state["coins"] -= d["coins"]
    seat_state["earned"] += d["earned"]
    _arrive(seat_state, d["to"])


def _flew(s: State, d: Data) -> None:
    seat_state = s["seats"][d["seat"]]
    remove(seat_state["hand"], [d["card"]])
    add(s["discard"], [d["card"]])
    seat_state["coins"] -= d["coins"]
    _arrive(seat_state, d["town"])


def _travel_finished(s: State, d: Data) -> None:
    seat_state = s["seats"][d["seat"]]
    seat_state["coins"] += d["coins"]
    seat_state["earned"] = 0
    if over_card_limit(s, d["seat"]) and not game_ends_now(s):
        # Elfenland: the player cuts his hand to 4 before the next player moves.  The limit holds
        # "d'un tour sur l'autre": after the game's last movement (the last round, or a round
        # from the third on once an elf has seen every town) there is no next round, so no cut,
        # and the tie-break counts "les cartes Voyage en main" really held.
        s["discarding"] = True
    else:
        s["step"] += 1


def _counters_kept(s: State, d: Data) -> None:
    s["seats"][d["seat"]]["counters"] = [dict(c) for c in d["kept"]]
    add(s["bag"], [c["kind"] for c in d["discarded"]])


def _cards_kept(s: State, d: Data) -> None:
    seat_state = s["seats"][d["seat"]]
    remove(seat_state["hand"], d["discarded"])
    add(s["discard"], d["discarded"])
    if s["phase"] == "movement" and s.get("discarding"):
        s["discarding"] = False
        s["step"] += 1


def _round_ended(s: State, d: Data) -> None:
    personal_obstacles = rules_of(s).personal_obstacles
    returned = list(s["face_up_counters"])
    for slot in s["board"].values():
        returned.extend(slot["transports"])
        if slot["obstacle"] and not personal_obstacles:
            returned.append(slot["obstacle"])   # Elfenland's own obstacles leave the game
        if slot["gold"]:
            returned.append(GOLD_COUNTER)
        if slot["double"]:
            returned.append(DOUBLE_SPELL)
    add(s["bag"], returned)
    s["board"], s["face_up_counters"] = {}, []
    if not rules_of(s).gold_economy:
        # Elfenland: the cards played this round go back to the pile dealt next round.
        _deck_reshuffled(s, d)


def _game_ended(s: State, d: Data) -> None:
    s["phase"], s["result"] = "over", d["result"]


EVOLVERS: dict[str, Callable[[State, Data], None]] = {
    "round_started": _round_started,
    "phase_started": _phase_started,
    "home_town_dealt": _home_town_dealt,
    "cards_dealt": _cards_dealt,
    "gold_cards_added": _gold_cards_added,
    "face_up_card_added": _face_up_card_added,
    "gold_card_found": _gold_card_found,
    "deck_reshuffled": _deck_reshuffled,
    "card_taken": _card_taken,
    "card_drawn": _card_drawn,
    "gold_taken": _gold_taken,
    "income": _income,
    "secret_counter_drawn": _secret_counter_drawn,
    "secret_counter_chosen": _secret_counter_chosen,
    "counters_revealed": _counters_revealed,
    "face_up_counter_added": _face_up_counter_added,
    "counter_taken": _counter_taken,
    "counters_drawn": _counters_drawn,
    "counter_revealed": _counter_revealed,
    "auction_opened": _auction_opened,
    "bid_placed": _bid_placed,
    "bid_passed": _bid_passed,
    "lot_sold": _lot_sold,
    "lot_overbid": _lot_overbid,
    "lot_unsold": _lot_unsold,
    "auction_closed": _auction_closed,
    "counter_placed": _counter_placed,
    "double_placed": _double_placed,
    "exchange_played": _exchange_played,
    "passed": _passed,
    "travelled": _travelled,
    "flew": _flew,
    "travel_finished": _travel_finished,
    "counters_kept": _counters_kept,
    "cards_kept": _cards_kept,
    "round_ended": _round_ended,
    "game_ended": _game_ended,
}


def evolve(state: State | None, event: dict[str, Any]) -> State:
    if state is None:
        return new_state(event["data"])
    EVOLVERS[event["type"]](state, event["data"])
    return state


def fold(state: State | None, event: dict[str, Any], ending: Ending) -> State:
    """``evolve`` as the engine version of ``ending`` folds: engine 3 also cut a hand over the
    limit after the game's last movement (the player then acts once more, ``keep_cards``)."""
    state = evolve(state, event)
    if ending.cut_after_last_movement and event["type"] == "travel_finished":
        seat = event["data"]["seat"]
        if over_card_limit(state, seat) and game_ends_now(state):
            state["step"] -= 1              # ``_travel_finished`` moved on instead of cutting
            state["discarding"] = True
    return state
