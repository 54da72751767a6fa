"""``evolve``: folds one event into the state, in place.  Never fails, never draws randomness.

Derived bookkeeping (whose turn, phase changes, longest road, largest army, the win) is computed
here from the facts the event records, so the events stay small and replay stays exact.
"""
from __future__ import annotations

from typing import Any
from collections.abc import Callable

from services.catan.rules import board
from services.catan.rules.board import RESOURCE_INDEX
from services.catan.rules.state import (
    CITY, CITY_COST, DEV_CARD_COST, DEV_INDEX, DISCARD, DISCARD_LIMIT, EMPTY, GENERIC_HARBOUR,
    KNIGHT, LARGEST_ARMY_MIN, LONGEST_ROAD_MIN, MAIN, OVER, ROAD, ROAD_BUILDING, ROAD_COST, ROBBER,
    ROLL, SETTLEMENT, SETTLEMENT_COST, SETUP, TRADE, WINNING_POINTS, State, longest_road,
    new_state, resume_phase, victory_points,
)

Event = dict[str, Any]


def _pay(state: State, seat: int, cost: tuple[int, ...] | list[int]) -> None:
    hand, bank = state["hands"][seat], state["bank"]
    for i, count in enumerate(cost):
        hand[i] -= count
        bank[i] += count


def _receive(state: State, seat: int, counts: dict[str, int]) -> None:
    hand, bank = state["hands"][seat], state["bank"]
    for name, count in counts.items():
        i = RESOURCE_INDEX[name]
        hand[i] += count
        bank[i] -= count


def _built(state: State, seat: int) -> None:
    """The player on turn paid for a piece or a card: their trading is over (``may_trade``).
    (Only the player on turn builds; the check keeps crafted test positions honest too.)"""
    if seat == state["current"]:
        state["built"] = True


def _check_win(state: State) -> None:
    """The player on turn wins the moment they hold 10 points (hidden cards included)."""
    if state["phase"] not in (SETUP, OVER) and \
            victory_points(state, state["current"]) >= WINNING_POINTS:
        state["winner"] = state["current"]
        state["phase"] = OVER
        state["offer"] = None


def _award_longest_road(state: State, builder: int | None) -> None:
    """Move the Longest Road card after lengths changed.

    ``builder`` extended their own road: they take the card only with a strictly longer road than
    the holder's.  ``builder=None`` means a settlement cut roads: if the holder's road got shorter
    (or nobody holds it), the card goes to the unique longest road of 5+, else it is set aside.
    """
    lengths, holder = state["road_length"], state["longest_road"]
    if builder is not None and holder is not None:
        if builder != holder and lengths[builder] > lengths[holder]:
            state["longest_road"] = builder
        return
    best = max(lengths)
    leaders = [seat for seat, length in enumerate(lengths) if length == best]
    state["longest_road"] = leaders[0] if best >= LONGEST_ROAD_MIN and len(leaders) == 1 else None


def _game_started(state: State | None, data: dict[str, Any]) -> State:
    return new_state(data)


def _settlement_built(state: State, data: dict[str, Any]) -> State:
    seat, node = data["seat"], data["node"]
    state["node_owner"][node] = seat
    state["node_level"][node] = 1
    state["pieces"][seat][SETTLEMENT] -= 1
    if not data["free"]:
        _pay(state, seat, SETTLEMENT_COST)
        _built(state, seat)
    harbour = state["node_harbour"][node]
    if harbour != board.NO_HARBOUR:
        rates = state["rates"][seat]
        for i in range(5) if harbour == GENERIC_HARBOUR else (harbour,):
            rates[i] = min(rates[i], 3 if harbour == GENERIC_HARBOUR else 2)
    if state["phase"] == SETUP:
        state["setup_node"] = node
        return state
    # A settlement on an opponent's road cuts it in two.
    edge_owner = state["edge_owner"]
    cut = {edge_owner[e] for e in board.NODE_EDGES[node]} - {EMPTY, seat}
    if cut:
        holder = state["longest_road"]
        before = state["road_length"][holder] if holder is not None else None
        for other in cut:
            state["road_length"][other] = longest_road(state, other)
        if holder is None or state["road_length"][holder] < before:
            _award_longest_road(state, None)
    _check_win(state)
    return state


def _road_built(state: State, data: dict[str, Any]) -> State:
    seat, edge = data["seat"], data["edge"]
    state["edge_owner"][edge] = seat
    state["roads"][seat].append(edge)
    state["pieces"][seat][ROAD] -= 1
    phase = state["phase"]
    if phase == SETUP:
        state["setup_node"] = EMPTY
        state["setup_index"] += 1
        if state["setup_index"] == len(state["setup_order"]):
            state["phase"] = ROLL
            state["current"] = state["first_player"]
            state["turn"] = 1
        else:
            state["current"] = state["setup_order"][state["setup_index"]]
        state["road_length"][seat] = longest_road(state, seat)
        return state
    if phase == ROAD_BUILDING:
        state["free_roads"] -= 1
        if state["free_roads"] <= 0:
            state["phase"] = resume_phase(state)
    elif not data["free"]:
        _pay(state, seat, ROAD_COST)
        _built(state, seat)
    state["road_length"][seat] = longest_road(state, seat)
    if state["road_length"][seat] >= LONGEST_ROAD_MIN:
        _award_longest_road(state, seat)
    _check_win(state)
    return state


def _city_built(state: State, data: dict[str, Any]) -> State:
    seat, node = data["seat"], data["node"]
    state["node_level"][node] = 2
    state["pieces"][seat][CITY] -= 1
    state["pieces"][seat][SETTLEMENT] += 1
    _pay(state, seat, CITY_COST)
    _built(state, seat)
    _check_win(state)
    return state


def _starting_resources(state: State, data: dict[str, Any]) -> State:
    _receive(state, data["seat"], data["resources"])
    return state


def _dice_rolled(state: State, data: dict[str, Any]) -> State:
    state["dice"] = data["dice"]
    state["rolled"] = True
    if sum(data["dice"]) != 7:
        state["phase"] = MAIN
        return state
    discards = state["discards"]
    for seat, hand in enumerate(state["hands"]):
        total = sum(hand)
        discards[seat] = total // 2 if total > DISCARD_LIMIT else 0
    state["phase"] = DISCARD if any(discards) else ROBBER
    return state


def _resources_produced(state: State, data: dict[str, Any]) -> State:
    for seat, gains in enumerate(data["gains"]):
        if gains:
            _receive(state, seat, gains)
    return state


def _cards_discarded(state: State, data: dict[str, Any]) -> State:
    seat, resources = data["seat"], data["resources"]
    _receive(state, seat, {name: -count for name, count in resources.items()})
    state["discards"][seat] = 0
    if not any(state["discards"]):
        state["phase"] = ROBBER
    return state


def _robber_moved(state: State, data: dict[str, Any]) -> State:
    state["robber"] = data["hex"]
    state["phase"] = resume_phase(state)
    return state


def _card_stolen(state: State, data: dict[str, Any]) -> State:
    i = RESOURCE_INDEX[data["resource"]]
    state["hands"][data["victim"]][i] -= 1
    state["hands"][data["seat"]][i] += 1
    return state


def _dev_card_bought(state: State, data: dict[str, Any]) -> State:
    seat, card = data["seat"], DEV_INDEX[data["card"]]
    _pay(state, seat, DEV_CARD_COST)
    _built(state, seat)             # a purchase on the building costs card, like a building
    state["dev_deck"][card] -= 1
    state["dev_hand"][seat][card] += 1
    state["dev_new"][seat][card] += 1
    _check_win(state)
    return state


def _play_card(state: State, seat: int, card: int) -> None:
    state["dev_hand"][seat][card] -= 1
    state["dev_played"] = True


def _knight_played(state: State, data: dict[str, Any]) -> State:
    seat = data["seat"]
    _play_card(state, seat, KNIGHT)
    knights = state["knights"]
    knights[seat] += 1
    holder = state["largest_army"]
    if knights[seat] >= LARGEST_ARMY_MIN and (holder is None or knights[seat] > knights[holder]):
        state["largest_army"] = seat
    state["phase"] = ROBBER
    _check_win(state)
    return state


def _road_building_played(state: State, data: dict[str, Any]) -> State:
    _play_card(state, data["seat"], DEV_INDEX["road_building"])
    state["free_roads"] = data["roads"]
    state["phase"] = ROAD_BUILDING
    return state


def _road_building_ended(state: State, data: dict[str, Any]) -> State:
    state["free_roads"] = 0
    if state["phase"] == ROAD_BUILDING:
        state["phase"] = resume_phase(state)
    return state


def _year_of_plenty_played(state: State, data: dict[str, Any]) -> State:
    seat = data["seat"]
    _play_card(state, seat, DEV_INDEX["year_of_plenty"])
    for name in data["resources"]:
        _receive(state, seat, {name: 1})
    return state


def _monopoly_played(state: State, data: dict[str, Any]) -> State:
    seat, i = data["seat"], RESOURCE_INDEX[data["resource"]]
    _play_card(state, seat, DEV_INDEX["monopoly"])
    hands = state["hands"]
    for victim, count in enumerate(data["taken"]):
        hands[victim][i] -= count
        hands[seat][i] += count
    return state


def _bank_traded(state: State, data: dict[str, Any]) -> State:
    seat = data["seat"]
    _receive(state, seat, {data["give"]: -data["count"], data["get"]: 1})
    return state


def _trade_offered(state: State, data: dict[str, Any]) -> State:
    seat = data["seat"]
    answers: list[bool | None] = [None] * state["players"]
    answers[seat] = False     # the offerer does not answer their own offer
    state["offer"] = {"seat": seat, "give": dict(data["give"]), "get": dict(data["get"]),
                      "answers": answers, "counters": [None] * state["players"]}
    state["offers"] += 1
    state["phase"] = TRADE
    return state


def _lapse_if_refused(state: State) -> None:
    offer = state["offer"]
    if all(answer is False for answer in offer["answers"]) and not any(offer["counters"]):
        # Everybody said no and nobody countered: the offer lapses by itself.
        state["offer"] = None
        state["phase"] = MAIN


def _trade_answered(state: State, data: dict[str, Any]) -> State:
    state["offer"]["answers"][data["seat"]] = data["accept"]
    _lapse_if_refused(state)
    return state


def _trade_countered(state: State, data: dict[str, Any]) -> State:
    # A counter-offer declines the offer's own terms (answer False) and stands as the seat's terms.
    offer, seat = state["offer"], data["seat"]
    offer["answers"][seat] = False
    offer["counters"][seat] = {"give": dict(data["give"]), "get": dict(data["get"])}
    return state


def _trade_confirmed(state: State, data: dict[str, Any]) -> State:
    offer, seat, partner = state["offer"], data["seat"], data["partner"]
    counter = offer["counters"][partner]
    if offer["answers"][partner] is True or counter is None:
        given, taken = offer["give"], offer["get"]               # the offer's own terms
    else:
        given, taken = counter["get"], counter["give"]           # the partner's terms
    hands = state["hands"]
    for name, count in given.items():
        hands[seat][RESOURCE_INDEX[name]] -= count
        hands[partner][RESOURCE_INDEX[name]] += count
    for name, count in taken.items():
        hands[partner][RESOURCE_INDEX[name]] -= count
        hands[seat][RESOURCE_INDEX[name]] += count
    state["offer"] = None
    state["phase"] = MAIN
    return state


def _trade_cancelled(state: State, data: dict[str, Any]) -> State:
    state["offer"] = None
    state["phase"] = MAIN
    return state


def _turn_ended(state: State, data: dict[str, Any]) -> State:
    seat = data["seat"]
    state["dev_new"][seat] = [0] * 5
    state["dev_played"] = False
    state["offers"] = 0
    state["built"] = False
    state["rolled"] = False
    state["dice"] = None
    state["current"] = (seat + 1) % state["players"]
    state["turn"] += 1
    state["phase"] = ROLL
    # A player may come to their turn already holding 10 (e.g. Longest Road fell to them).
    _check_win(state)
    return state


HANDLERS: dict[str, Callable[[Any, dict[str, Any]], State]] = {
    "game_started": _game_started,
    "settlement_built": _settlement_built,
    "road_built": _road_built,
    "city_built": _city_built,
    "starting_resources": _starting_resources,
    "dice_rolled": _dice_rolled,
    "resources_produced": _resources_produced,
    "cards_discarded": _cards_discarded,
    "robber_moved": _robber_moved,
    "card_stolen": _card_stolen,
    "dev_card_bought": _dev_card_bought,
    "knight_played": _knight_played,
    "road_building_played": _road_building_played,
    "road_building_ended": _road_building_ended,
    "year_of_plenty_played": _year_of_plenty_played,
    "monopoly_played": _monopoly_played,
    "bank_traded": _bank_traded,
    "trade_offered": _trade_offered,
    "trade_answered": _trade_answered,
    "trade_countered": _trade_countered,
    "trade_confirmed": _trade_confirmed,
    "trade_cancelled": _trade_cancelled,
    "turn_ended": _turn_ended,
}


def evolve(state: State | None, event: Event) -> State:
    return HANDLERS[event["type"]](state, event["data"])
