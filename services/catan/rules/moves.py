"""``decide``: checks a move against the rules and returns the events it causes.

Never modifies the state.  Every random outcome (dice, stolen card, drawn development card) is
drawn here from the given ``rng`` and written into the events.  A broken rule raises
``IllegalMove`` with a stable kebab-case reason.
"""
from __future__ import annotations

import random
from typing import Any, TypeGuard
from collections.abc import Callable

from shared.game.engine import Event, GameOver, IllegalMove, NotYourTurn, event
from services.catan.rules import board
from services.catan.rules.board import HEX_NODES, RESOURCE_INDEX, RESOURCES
from services.catan.rules.state import (
    CITY, CITY_COST, DEV_CARD_COST, DEV_CARDS, DEV_INDEX, DISCARD, EMPTY, KNIGHT, MAIN, MONOPOLY,
    OVER, RESOURCES_PER_TYPE, ROAD, ROAD_BUILDING, ROAD_COST, ROBBER, ROLL, SETTLEMENT,
    SETTLEMENT_COST, SETUP, TRADE, YEAR_OF_PLENTY, Ruleset, State, can_afford, may_trade, road_connects,
    road_spots, settlement_allowed_at, to_act,
)

Move = dict[str, Any]

# Where each move type may be made; a move outside its phases gets the phase's reason below.
MOVE_PHASES: dict[str, tuple[str, ...]] = {
    "build_settlement": (SETUP, MAIN),
    "build_road": (SETUP, MAIN, ROAD_BUILDING),
    "build_city": (MAIN,),
    "roll": (ROLL,),
    "discard": (DISCARD,),
    "move_robber": (ROBBER,),
    "end_turn": (MAIN,),
    "buy_dev_card": (MAIN,),
    "play_knight": (ROLL, MAIN),
    "play_road_building": (ROLL, MAIN),
    "play_year_of_plenty": (ROLL, MAIN),
    "play_monopoly": (ROLL, MAIN),
    "bank_trade": (MAIN,),
    "offer_trade": (MAIN,),
    "answer_trade": (TRADE,),
    "counter_trade": (TRADE,),
    "confirm_trade": (TRADE,),
    "cancel_trade": (TRADE,),
}
PHASE_REASONS: dict[str, tuple[str, str]] = {
    SETUP: ("setup-in-progress", "During set-up only settlements and their roads are placed."),
    ROLL: ("must-roll-first", "Roll the dice first (only a development card may come before)."),
    DISCARD: ("discard-pending", "Players with more than 7 cards must discard first."),
    ROBBER: ("robber-must-move", "Move the robber first."),
    MAIN: ("already-rolled", "The dice were already rolled this turn."),
    ROAD_BUILDING: ("must-place-road", "Place the free roads of the Road Building card first."),
    TRADE: ("offer-open", "Confirm or withdraw the open trade offer first."),
}


def _fail(reason: str, detail: str) -> IllegalMove:
    return IllegalMove(reason, detail)


def _is_index(value: Any, size: int) -> TypeGuard[int]:
    """An int in ``0..size-1`` (JSON ``true`` is a Python int too: refuse it)."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < size


def _resource(name: Any) -> int:
    if not isinstance(name, str) or name not in RESOURCE_INDEX:
        raise _fail("invalid-resource", f"Unknown resource {name!r}; one of {', '.join(RESOURCES)}.")
    return RESOURCE_INDEX[name]


def _counts(value: Any, reason: str) -> list[int]:
    """A ``{resource: count}`` dict as a 5-list; ``reason`` if it is not one."""
    if not isinstance(value, dict):
        raise _fail(reason, "Give an object of resource counts, e.g. {\"ore\": 2}.")
    counts = [0] * 5
    for name, count in value.items():
        if not _is_index(count, RESOURCES_PER_TYPE * 5 + 1):      # 0..95: no more cards exist
            raise _fail(reason, f"Counts must be non-negative integers ({name}: {count!r}).")
        counts[_resource(name)] += count
    return counts


def _id_field(move: Move, name: str, size: int, what: str) -> int:
    """``move[name]`` as an id ``0..size-1``, else ``invalid-<name>``."""
    value = move.get(name)
    if not _is_index(value, size):
        raise _fail(f"invalid-{name}", f"{name} must be {what} id 0..{size - 1}.")
    return value


def _node(move: Move) -> int:
    return _id_field(move, "node", board.NODE_COUNT, "an intersection")


def _edge(move: Move) -> int:
    return _id_field(move, "edge", board.EDGE_COUNT, "a path")


def _require_pieces(state: State, seat: int, kind: int, name: str) -> None:
    if state["pieces"][seat][kind] <= 0:
        raise _fail("no-pieces-left", f"You have no {name} left in your supply.")


def _require_cost(state: State, seat: int, cost: tuple[int, ...], what: str) -> None:
    if not can_afford(state["hands"][seat], cost):
        raise _fail("not-enough-resources", f"You cannot pay for {what}.")


# -- building ---------------------------------------------------------------------------------
def _build_settlement(state: State, seat: int, move: Move, rng: random.Random) -> list[Event]:
    node = _node(move)
    if state["phase"] == SETUP and state["setup_node"] != EMPTY:
        raise _fail("must-place-road", "Place the road next to the settlement you just placed.")
    if state["node_owner"][node] != EMPTY:
        raise _fail("node-occupied", "That intersection is already built on.")
    if not settlement_allowed_at(state, node):
        raise _fail("settlement-too-close", "The distance rule: the neighbouring intersections must be free.")
    if state["phase"] == SETUP:
        events = [event("settlement_built", seat=seat, node=node, free=True)]
        if state["setup_index"] >= state["players"]:
            # The second settlement yields one card per adjacent producing hex.
            gained = [0] * 5
            for hex_id in board.NODE_HEXES[node]:
                resource = state["hex_resource"][hex_id]
                if resource >= 0:
                    gained[resource] += 1
            events.append(event("starting_resources", seat=seat,
                                resources={RESOURCES[i]: n for i, n in enumerate(gained) if n}))
        return events
    _require_pieces(state, seat, SETTLEMENT, "settlements")
    if not any(state["edge_owner"][e] == seat for e in board.NODE_EDGES[node]):
        raise _fail("not-connected", "A settlement must touch one of your roads.")
    _require_cost(state, seat, SETTLEMENT_COST, "a settlement")
    return [event("settlement_built", seat=seat, node=node, free=False)]


def _build_road(state: State, seat: int, move: Move, rng: random.Random) -> list[Event]:
    edge = _edge(move)
    phase = state["phase"]
    if phase == SETUP:
        if state["setup_node"] == EMPTY:
            raise _fail("must-place-settlement", "Place a settlement first, then its road.")
        if state["edge_owner"][edge] != EMPTY:
            raise _fail("edge-occupied", "There is already a road on that path.")
        if state["setup_node"] not in board.EDGE_NODES[edge]:
            raise _fail("road-not-at-settlement", "The set-up road must touch the settlement just placed.")
        return [event("road_built", seat=seat, edge=edge, free=True)]
    if state["edge_owner"][edge] != EMPTY:
        raise _fail("edge-occupied", "There is already a road on that path.")
    _require_pieces(state, seat, ROAD, "roads")
    if not road_connects(state, seat, edge):
        raise _fail("not-connected", "A road must join your road or building (not through an opponent's).")
    if phase == ROAD_BUILDING:
        events = [event("road_built", seat=seat, edge=edge, free=True)]
        if state["free_roads"] > 1 and not _another_road_possible(state, seat, edge):
            events.append(event("road_building_ended", seat=seat))
        return events
    _require_cost(state, seat, ROAD_COST, "a road")
    return [event("road_built", seat=seat, edge=edge, free=False)]


def _another_road_possible(state: State, seat: int, placed: int) -> bool:
    """After placing ``placed``, is there a second free road to place? (Road Building card)"""
    if state["pieces"][seat][ROAD] <= 1:
        return False
    if any(spot != placed for spot in road_spots(state, seat)):
        return True
    # Spots opened by the road just placed (not yet in the state).
    for node in board.EDGE_NODES[placed]:
        owner = state["node_owner"][node]
        if owner in (EMPTY, seat) and any(state["edge_owner"][e] == EMPTY and e != placed
                                          for e in board.NODE_EDGES[node]):
            return True
    return False


def _build_city(state: State, seat: int, move: Move, rng: random.Random) -> list[Event]:
    node = _node(move)
    if state["node_owner"][node] != seat or state["node_level"][node] != 1:
        raise _fail("not-your-settlement", "A city replaces one of your own settlements.")
    _require_pieces(state, seat, CITY, "cities")
    _require_cost(state, seat, CITY_COST, "a city")
    return [event("city_built", seat=seat, node=node)]


# -- the dice and the robber --------------------------------------------------------------------
def production(state: State, total: int) -> tuple[list[list[int]], list[str]]:
    """Cards each seat receives for a roll of ``total``, and the resources the bank could not pay.

    When the bank cannot pay everybody a resource, nobody gets it; with the option
    ``bank_shortage: single-gets-rest`` a lone receiver takes what is left instead.
    """
    players = state["players"]
    gains = [[0] * 5 for _ in range(players)]
    robber, node_owner, node_level = state["robber"], state["node_owner"], state["node_level"]
    hex_resource = state["hex_resource"]
    for hex_id in state["number_hexes"][total]:
        if hex_id == robber:
            continue
        resource = hex_resource[hex_id]
        for node in HEX_NODES[hex_id]:
            owner = node_owner[node]
            if owner != EMPTY:
                gains[owner][resource] += node_level[node]
    shortages = []
    bank = state["bank"]
    for i in range(5):
        demand = sum(g[i] for g in gains)
        if demand > bank[i]:
            receivers = [g for g in gains if g[i]]
            if len(receivers) == 1 and state["options"]["bank_shortage"] == "single-gets-rest":
                receivers[0][i] = bank[i]
            else:
                for g in receivers:
                    g[i] = 0
            shortages.append(RESOURCES[i])
    return gains, shortages


def _roll(state: State, seat: int, move: Move, rng: random.Random) -> list[Event]:
    dice = [rng.randint(1, 6), rng.randint(1, 6)]
    events = [event("dice_rolled", seat=seat, dice=dice)]
    total = dice[0] + dice[1]
    if total != 7:
        gains, shortages = production(state, total)
        if any(any(g) for g in gains) or shortages:
            events.append(event("resources_produced",
                                gains=[{RESOURCES[i]: n for i, n in enumerate(g) if n} for g in gains],
                                shortages=shortages))
    return events


def _discard(state: State, seat: int, move: Move, rng: random.Random) -> list[Event]:
    owed = state["discards"][seat]
    if not owed:
        raise _fail("no-discard-needed", "You do not have to discard.")
    counts = _counts(move.get("resources"), "invalid-discard")
    if sum(counts) != owed or not can_afford(state["hands"][seat], tuple(counts)):
        raise _fail("invalid-discard", f"Discard exactly {owed} cards from your hand.")
    return [event("cards_discarded", seat=seat,
                  resources={RESOURCES[i]: n for i, n in enumerate(counts) if n})]


def robbable(state: State, seat: int) -> list[bool]:
    """Per seat: may ``seat`` rob them (an opponent holding cards)?"""
    return [other != seat and any(hand) for other, hand in enumerate(state["hands"])]


def robber_victims(state: State, seat: int, hex_id: int, can_rob: list[bool] | None = None) -> list[int]:
    """Opponents with a building on ``hex_id`` and at least one card."""
    can_rob = can_rob or robbable(state, seat)
    node_owner = state["node_owner"]
    return sorted({owner for node in HEX_NODES[hex_id]
                   if (owner := node_owner[node]) != EMPTY and can_rob[owner]})


def _move_robber(state: State, seat: int, move: Move, rng: random.Random) -> list[Event]:
    hex_id, victim = _id_field(move, "hex", board.HEX_COUNT, "a land hex"), move.get("victim")
    if hex_id == state["robber"]:
        raise _fail("robber-same-hex", "The robber must move to another land hex.")
    # The steal is optional: "Ce joueur peut également utiliser le voleur pour prendre ... une
    # carte" (a 7), "Puis le joueur peut dérober" (a knight): no victim is always allowed.
    victims = robber_victims(state, seat, hex_id)
    if victim is not None and not (_is_index(victim, state["players"]) and victim in victims):
        raise _fail("invalid-victim", "Rob an opponent with a building on that hex and cards in hand.")
    events = [event("robber_moved", seat=seat, hex=hex_id, victim=victim)]
    if victim is not None:
        hand = state["hands"][victim]
        pick = rng.randrange(sum(hand))
        for i, count in enumerate(hand):  # noqa: B007 - the index found is read after the loop
            if pick < count:
                break
            pick -= count
        events.append(event("card_stolen", seat=seat, victim=victim, resource=RESOURCES[i]))
    return events


def _end_turn(state: State, seat: int, move: Move, rng: random.Random) -> list[Event]:
    return [event("turn_ended", seat=seat)]


# -- development cards --------------------------------------------------------------------------
def _buy_dev_card(state: State, seat: int, move: Move, rng: random.Random) -> list[Event]:
    deck = state["dev_deck"]
    if not any(deck):
        raise _fail("no-dev-cards-left", "The development card deck is empty.")
    _require_cost(state, seat, DEV_CARD_COST, "a development card")
    # Drawing uniformly from the remaining cards is the top card of a shuffled deck.
    pick = rng.randrange(sum(deck))
    for card, count in enumerate(deck):  # noqa: B007 - the index found is read after the loop
        if pick < count:
            break
        pick -= count
    return [event("dev_card_bought", seat=seat, card=DEV_CARDS[card])]


def _check_playable(state: State, seat: int, card: int) -> None:
    if state["dev_played"]:
        raise _fail("one-card-per-turn", "Only one development card may be played per turn.")
    owned = state["dev_hand"][seat][card]
    if not owned:
        raise _fail("no-such-card", f"You have no {DEV_CARDS[card]} card.")
    if owned <= state["dev_new"][seat][card]:
        raise _fail("card-bought-this-turn", "A development card cannot be played the turn it was bought.")


def _play_knight(state: State, seat: int, move: Move, rng: random.Random) -> list[Event]:
    _check_playable(state, seat, KNIGHT)
    return [event("knight_played", seat=seat)]


def _play_road_building(state: State, seat: int, move: Move, rng: random.Random) -> list[Event]:
    _check_playable(state, seat, DEV_INDEX["road_building"])
    _require_pieces(state, seat, ROAD, "roads")
    if not road_spots(state, seat):
        raise _fail("no-road-location", "There is nowhere to build a road.")
    return [event("road_building_played", seat=seat, roads=min(2, state["pieces"][seat][ROAD]))]


def _play_year_of_plenty(state: State, seat: int, move: Move, rng: random.Random) -> list[Event]:
    _check_playable(state, seat, YEAR_OF_PLENTY)
    names = move.get("resources")
    if not isinstance(names, list) or len(names) != 2:
        raise _fail("invalid-resource", "Name exactly two resources to take from the bank.")
    wanted = [0] * 5
    for name in names:
        wanted[_resource(name)] += 1
    if not can_afford(state["bank"], tuple(wanted)):
        raise _fail("bank-empty", "The bank does not have those resources.")
    return [event("year_of_plenty_played", seat=seat, resources=list(names))]


def _play_monopoly(state: State, seat: int, move: Move, rng: random.Random) -> list[Event]:
    _check_playable(state, seat, MONOPOLY)
    name = move.get("resource")
    i = _resource(name)
    taken = [0 if other == seat else hand[i] for other, hand in enumerate(state["hands"])]
    return [event("monopoly_played", seat=seat, resource=name, taken=taken)]


# -- trade --------------------------------------------------------------------------------------
def _steal_required(state: State, seat: int, move: Move) -> None:
    """Engine 2: moving the robber to a hex with a victim, the player had to rob one."""
    hex_id = _id_field(move, "hex", board.HEX_COUNT, "a land hex")
    victims = robber_victims(state, seat, hex_id) if hex_id != state["robber"] else []
    if move.get("victim") is None and victims:
        raise _fail("victim-required", f"Choose a player to rob among {victims}.")


def _require_trading(state: State, rules: Ruleset) -> None:
    if not may_trade(state, rules):
        raise _fail("trading-over", "Trading comes before building: you built or bought this turn "
                    "(the option combined_trade_build allows mixing).")


def _trade_terms(move: Move) -> tuple[list[int], list[int]]:
    """The move's ``give`` and ``get`` counts: both non-empty, no resource on both sides."""
    give, get = _counts(move.get("give"), "invalid-trade"), _counts(move.get("get"), "invalid-trade")
    if not any(give) or not any(get):
        raise _fail("invalid-trade", "Both sides of a trade must hold cards (no gifts).")
    if any(g and r for g, r in zip(give, get)):
        raise _fail("invalid-trade", "A resource cannot be on both sides of a trade.")
    return give, get


def _names(counts: list[int]) -> dict[str, int]:
    return {RESOURCES[i]: n for i, n in enumerate(counts) if n}


def _bank_trade(state: State, seat: int, move: Move, rng: random.Random) -> list[Event]:
    give, get = _resource(move.get("give")), _resource(move.get("get"))
    if give == get:
        raise _fail("same-resource", "Trade one resource for a different one.")
    rate = state["rates"][seat][give]
    if state["hands"][seat][give] < rate:
        raise _fail("not-enough-resources", f"You need {rate} {RESOURCES[give]} for this trade.")
    if not state["bank"][get]:
        raise _fail("bank-empty", f"The bank has no {RESOURCES[get]} left.")
    return [event("bank_traded", seat=seat, give=RESOURCES[give], count=rate, get=RESOURCES[get])]


def _offer_trade(state: State, seat: int, move: Move, rng: random.Random) -> list[Event]:
    give, get = _trade_terms(move)
    if not can_afford(state["hands"][seat], tuple(give)):
        raise _fail("not-enough-resources", "You do not hold the cards you offer.")
    return [event("trade_offered", seat=seat, give=_names(give), get=_names(get))]


def _holds(state: State, seat: int, counts: dict[str, int]) -> bool:
    hand = state["hands"][seat]
    return all(hand[RESOURCE_INDEX[name]] >= count for name, count in counts.items())


def _offer_requests(state: State, seat: int) -> bool:
    """Whether ``seat`` holds what the open offer asks for."""
    return _holds(state, seat, state["offer"]["get"])


def _check_can_answer(state: State, seat: int) -> None:
    offer = state["offer"]
    if seat == offer["seat"]:
        raise _fail("own-offer", "You cannot answer your own offer.")
    if offer["answers"][seat] is not None:
        raise _fail("already-answered", "You already answered this offer.")


def _answer_trade(state: State, seat: int, move: Move, rng: random.Random) -> list[Event]:
    _check_can_answer(state, seat)
    accept = move.get("accept")
    if not isinstance(accept, bool):
        raise _fail("invalid-answer", "accept must be true or false.")
    if accept and not _offer_requests(state, seat):
        raise _fail("not-enough-resources", "You do not hold the cards the offer asks for.")
    return [event("trade_answered", seat=seat, accept=accept)]


def _counter_trade(state: State, seat: int, move: Move, rng: random.Random) -> list[Event]:
    """An answer with the seat's own terms ("Si tu me donnes 3 minerais, je te donnerai 1
    brique"): ``give`` is what the answering seat gives the player on turn, ``get`` what it
    asks back.  The seat must hold what it gives (it knows its own hand); whether the player on
    turn holds the rest is only checked when they accept (their hand is hidden)."""
    _check_can_answer(state, seat)
    give, get = _trade_terms(move)
    if not can_afford(state["hands"][seat], tuple(give)):
        raise _fail("not-enough-resources", "You do not hold the cards your counter-offer gives.")
    return [event("trade_countered", seat=seat, give=_names(give), get=_names(get))]


def _confirm_trade(state: State, seat: int, move: Move, rng: random.Random) -> list[Event]:
    """The player on turn trades with one seat: on their own terms with a seat that accepted,
    or on the seat's terms with a seat that countered ("Hans accepte l'offre de Gabi")."""
    offer, partner = state["offer"], move.get("seat")
    if seat != offer["seat"]:
        raise NotYourTurn("Only the player who made the offer confirms it.")
    if not _is_index(partner, state["players"]):
        raise _fail("not-accepted", "Confirm the trade with a player who accepted it or countered.")
    counter = offer["counters"][partner]
    if offer["answers"][partner] is not True and counter is None:
        raise _fail("not-accepted", "Confirm the trade with a player who accepted it or countered.")
    if counter is not None and not _holds(state, seat, counter["get"]):
        raise _fail("not-enough-resources", "You do not hold the cards this counter-offer asks for.")
    return [event("trade_confirmed", seat=seat, partner=partner)]


def _cancel_trade(state: State, seat: int, move: Move, rng: random.Random) -> list[Event]:
    if seat != state["offer"]["seat"]:
        raise NotYourTurn("Only the player who made the offer withdraws it.")
    return [event("trade_cancelled", seat=seat)]


DECIDERS: dict[str, Callable[[State, int, Move, random.Random], list[Event]]] = {
    "build_settlement": _build_settlement,
    "build_road": _build_road,
    "build_city": _build_city,
    "roll": _roll,
    "discard": _discard,
    "move_robber": _move_robber,
    "end_turn": _end_turn,
    "buy_dev_card": _buy_dev_card,
    "play_knight": _play_knight,
    "play_road_building": _play_road_building,
    "play_year_of_plenty": _play_year_of_plenty,
    "play_monopoly": _play_monopoly,
    "bank_trade": _bank_trade,
    "offer_trade": _offer_trade,
    "answer_trade": _answer_trade,
    "counter_trade": _counter_trade,
    "confirm_trade": _confirm_trade,
    "cancel_trade": _cancel_trade,
}


def _out_of_phase(state: State, seat: int, kind: str) -> IllegalMove:
    """The most helpful reason for a move that does not belong to the current phase."""
    phase = state["phase"]
    if phase == TRADE and seat != state["current"]:
        return _fail("answer-the-offer", "Answer the open trade offer (accept, reject or counter).")
    if kind in ("answer_trade", "counter_trade", "confirm_trade", "cancel_trade"):
        return _fail("no-open-offer", "There is no open trade offer.")
    if phase == MAIN and kind in ("discard", "move_robber"):
        return _fail("not-now", "That move only follows a roll of 7.")
    return _fail(*PHASE_REASONS[phase])


def decide(state: State, seat: int, move: Move, rng: random.Random, rules: Ruleset) -> list[Event]:
    """The events ``move`` causes, under the rules of engine version ``rules``."""
    phase = state["phase"]
    if phase == OVER:
        raise GameOver()
    if seat not in to_act(state):
        raise NotYourTurn()
    kind = move.get("type") if isinstance(move, dict) else None
    decider = DECIDERS.get(kind) if isinstance(kind, str) else None
    if decider is None or not isinstance(kind, str) or (kind == "counter_trade" and not rules.counter_offers):
        raise _fail("unknown-move", f"Unknown move type {kind!r}.")
    if phase not in MOVE_PHASES[kind]:
        raise _out_of_phase(state, seat, kind)
    if kind in ("bank_trade", "offer_trade"):
        _require_trading(state, rules)
    elif kind == "move_robber" and not rules.optional_steal:
        _steal_required(state, seat, move)
    return decider(state, seat, move, rng)
