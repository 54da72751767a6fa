"""Bots for Elfenland: ``random`` and ``planner``.

The planner sees only ``game.view(state, seat)``.  It keeps a *route*: the roads of a greedy
tour from its town to the nearest towns it has not visited yet.  It drafts the counters and
cards that fit that route and its hand, places its counters on the route's roads, and while
moving it searches a few roads ahead for the payments that collect the most new towns for the
fewest cards (ending near its home town in the last round).
"""
from __future__ import annotations

import random
from collections import deque
from typing import Any, cast

from shared.game.engine import Game, Move, State, Strategy, random_strategy
from shared.play.search import ExpertBot
from shared.game.value import load

from services.elfenland.lookahead import SEARCH_DEPTH, TOWN_POINTS, best_journey
from services.elfenland.rules.board import MARKER_TOWNS, ROADS, ROADS_AT, Road
from services.elfenland.rules.components import (
    GOLD_COUNTER, OBSTACLE, RAFT, SEA_MONSTER, TRANSPORT_COST, TRANSPORTS)
from services.elfenland.rules.multiset import remove
from services.elfenland.rules.placement import admits
from services.elfenland.rules.state import road_slot
from services.elfenland.value import FEATURES

View = dict[str, Any]
ROUTE_LENGTH = 6


def route(view: View, seat: int, length: int = ROUTE_LENGTH) -> list[tuple[Road, str]]:
    """A greedy tour: (road, from town) steps to the nearest unvisited towns, one after another."""
    me = view["seats"][seat]
    town, seen = me["town"], set(me["visited"])
    steps: list[tuple[Road, str]] = []
    while len(steps) < length and len(seen) < len(MARKER_TOWNS):
        path = _path_to_unvisited(town, seen)
        if not path:
            break
        for road, start in path:
            steps.append((road, start))
            town = road.other_end(start)
            if town in MARKER_TOWNS:
                seen.add(town)
    return steps[:length]


def _path_to_unvisited(start: str, seen: set[str]) -> list[tuple[Road, str]]:
    back: dict[str, tuple[Road, str] | None] = {start: None}
    queue = deque([start])
    while queue:
        town = queue.popleft()
        if town in MARKER_TOWNS and town not in seen:
            path = []
            while (step := back[town]) is not None:
                road, prev = step
                path.append((road, prev))
                town = prev
            return path[::-1]
        for road in ROADS_AT[town]:
            nxt = road.other_end(town)
            if nxt not in back:
                back[nxt] = (road, town)
                queue.append(nxt)
    return []


def _fit(view: View, seat: int, kind: str, road: Road) -> int:
    """How well a transport counter of ``kind`` on ``road`` serves this hand (0: not at all)."""
    if kind not in TRANSPORTS or not admits(road, kind):
        return 0
    cost = TRANSPORT_COST[kind][road.terrain]
    held = view["seats"][seat]["hand"].get(kind, 0)
    return 3 if held >= cost else 1 + (held > 0)


def _open_route_roads(view: View, seat: int) -> list[Road]:
    return [road for road, _ in route(view, seat) if road.is_land and not road_slot(view, road.id)["transports"]]


def _counter_value(view: View, seat: int, kind: str) -> int:
    return max((_fit(view, seat, kind, road) for road in _open_route_roads(view, seat)), default=0)


# -- phase by phase ----------------------------------------------------------------------------

def _draft_counters(view: View, seat: int, legal: list[Move]) -> Move:
    takes = [m for m in legal if m["type"] == "take_counter"]
    best = max(takes, key=lambda m: _counter_value(view, seat, m["counter"]), default=None)
    if best and _counter_value(view, seat, best["counter"]) >= 2:
        return best
    return next((m for m in legal if m["type"] == "draw_counter"), best or legal[0])


def _card_value(view: View, seat: int, card: str) -> int:
    me = view["seats"][seat]
    held = [c["kind"] for c in me["counters"]]
    on_route = [road for road, _ in route(view, seat)]
    value = 2 * held.count(card) + sum(1 for r in on_route for t in road_slot(view, r.id)["transports"] if t == card)
    if card == RAFT:
        value += sum(1 for r in on_route if not r.is_land)
    return value


def _draft_cards(view: View, seat: int, legal: list[Move]) -> Move:
    if view["gold_pile"] >= 2 and {"type": "take_gold"} in legal:
        return {"type": "take_gold"}
    takes = [m for m in legal if m["type"] == "take_card"]
    best = max(takes, key=lambda m: _card_value(view, seat, m["card"]), default=None)
    if best and _card_value(view, seat, best["card"]) > 0:
        return best
    return next((m for m in legal if m["type"] == "draw_card"), legal[0])


def _auction(view: View, seat: int, legal: list[Move]) -> Move:
    auction, coins = view["auction"], view["seats"][seat]["coins"]
    lot = auction["lots"][0]
    worth = {GOLD_COUNTER: 4}.get(lot, 1 + _counter_value(view, seat, lot))
    amount = auction["high"] + 1
    if amount <= min(worth, coins) and {"type": "bid", "amount": amount} in legal:
        return {"type": "bid", "amount": amount}
    return {"type": "pass"}


def _placement(view: View, seat: int, legal: list[Move]) -> Move:
    places = [m for m in legal if m["type"] == "place_counter"]
    my_roads = {road.id for road, _ in route(view, seat)}
    # Transports on my own route's open roads first, best fit first.
    scored = [(_fit(view, seat, m["counter"], ROADS[m["road"]]), m) for m in places
              if m["road"] in my_roads and m["counter"] in TRANSPORTS]
    scored += [(2, m) for m in places if m["counter"] == GOLD_COUNTER and m["road"] in my_roads]
    if scored:
        fit, move = max(scored, key=lambda fm: fm[0])
        if fit >= 2:
            return move
    # Obstacles and sea monsters slow the others down: a road beside a rival, off my route.
    rivals = {s["town"] for i, s in enumerate(view["seats"]) if i != seat}
    for move in places:
        road = ROADS[move["road"]]
        if (move["counter"] in (OBSTACLE, SEA_MONSTER) and road.id not in my_roads
                and (road.a in rivals or road.b in rivals)):
            return move
    return {"type": "pass"}


def _movement(view: View, seat: int, legal: list[Move]) -> Move:
    me = view["seats"][seat]
    _, move = best_journey(view, seat, me["town"], dict(me["hand"]), set(me["visited"]), SEARCH_DEPTH)
    if move is not None and move in legal:
        return move
    finishes = [m for m in legal if m["type"] == "finish_travel"]
    if len(finishes) > 1 and me["earned"] >= 3:
        return {"type": "finish_travel", "take": "gold"}
    return finishes[-1]


def _keep(view: View, seat: int, legal: list[Move]) -> Move:
    me = view["seats"][seat]

    def worth(move: Move) -> float:
        if move["type"] == "keep_cards":
            # Pairs pay slow roads; rafts need no counter.
            return sum(me["hand"].get(c, 0) + (1 if c == RAFT else 0) for c in move["cards"])
        return sum(me["hand"].get(c, 0) + (3 if c == GOLD_COUNTER else 0) for c in move["counters"])
    return max(legal, key=worth)


def planner_strategy(game: Game, state: State, seat: int, rng: random.Random) -> Move:
    view = cast(View, game.view(state, seat))      # only read: a cast, no copy on the bot's path
    legal = game.legal_moves(state, seat)
    phase = view["phase"]
    if phase == "secret_counter":
        return {"type": "secret_counter", "reveal": False}
    chooser = {"draft_counters": _draft_counters, "draft_cards": _draft_cards, "auction": _auction,
               "placement": _placement, "movement": _movement, "keep": _keep}.get(phase)
    if legal and legal[0]["type"] == "keep_cards":
        chooser = _keep              # Elfenland: the hand cut to 4 right after the move
    move = chooser(view, seat, legal) if chooser else legal[0]
    return move if move in legal else rng.choice(legal)


STRATEGIES: dict[str, Strategy] = {"random": random_strategy, "planner": planner_strategy}


# -- expert: search on top of planner -----------------------------------------------------------

def rank_moves(game: Game, state: State, seat: int, moves: list[Move]) -> list[Move]:
    """Best first by the planner's own yardsticks, so that the search's few candidates are the
    planner's runners-up rather than a random draw among dozens of placements: a counter by how
    well it serves the route, a card by the counters it would pay, a placement by its fit on
    the seat's own route (or a rival's road for an obstacle), a journey by the towns the search
    a few roads ahead finds after it, a kept hand by the planner's worth."""
    view = cast(View, game.view(state, seat))      # only read: a cast, no copy on the bot's path
    me = view["seats"][seat]
    my_roads = {road.id for road, _ in route(view, seat)}
    rivals = {s["town"] for i, s in enumerate(view["seats"]) if i != seat}
    seen = set(me["visited"])

    def score(move: Move) -> float:
        kind = move["type"]
        if kind == "take_counter":
            return _counter_value(view, seat, move["counter"])
        if kind == "take_card":
            return _card_value(view, seat, move["card"])
        if kind in ("place_counter", "place_double"):
            road, counter = ROADS[move["road"]], move["counter"]
            if counter in TRANSPORTS:
                return _fit(view, seat, counter, road) + (2 if road.id in my_roads else 0)
            if counter == GOLD_COUNTER:
                return 3 if road.id in my_roads else 0
            if counter in (OBSTACLE, SEA_MONSTER):
                return 2 if road.id not in my_roads and (road.a in rivals or road.b in rivals) else -1
            return 0
        if kind == "travel":
            road = ROADS[move["road"]]
            nxt = road.other_end(me["town"])
            rest = dict(me["hand"])
            remove(rest, move["cards"])
            ahead, _ = best_journey(view, seat, nxt, rest, seen | {nxt}, SEARCH_DEPTH - 1)
            gain = TOWN_POINTS if nxt in MARKER_TOWNS and nxt not in seen else 0
            return gain - len(move["cards"]) + ahead
        if kind == "keep_cards":
            return sum(me["hand"].get(c, 0) + (1 if c == RAFT else 0) for c in move["cards"])
        if kind == "keep_counters":
            return sum(me["hand"].get(c, 0) + (3 if c == GOLD_COUNTER else 0) for c in move["counters"])
        return 0

    return sorted(moves, key=lambda move: -score(move))


# A planner decision costs about a millisecond and a half: short playouts, few candidates, the
# planner's runners-up (rank_moves).  Its value function is fit to planner self-play over the
# editions (services/elfenland/value.py).
expert_strategy = ExpertBot(planner_strategy, load(FEATURES), horizon=8, sharpness=1.0, max_candidates=5,
                            rank=rank_moves)

STRATEGIES["expert"] = expert_strategy
