"""Catan bots: ``random`` (uniform over legal moves) and ``greedy`` (a hand-written value function).

The greedy bot reads only what its own view shows: the board, every building, its own hand and
development cards, the others' card counts and public points, the open offer and its answers.
It picks a build target (city > settlement > road toward a good spot > development card).  It
trades first (trading ends with the first purchase unless ``combined_trade_build``): bank trades
of surplus toward the target, keeping the cards of what it can already build; when a bank trade
cannot help and it lacks one or two cards, it offers one surplus card for one missing card, at
most once per turn (the state counts the offers made this turn).  Then it builds, and ends the
turn.  Of the acceptances and counter-offers its offer gets, it confirms the one that brings its
target closest for the fewest cards (and no more than two cards net), never with a player showing
8 points or more.  Answering another's offer, it accepts one that brings a card its target lacks
for no more cards than it gets, paid from surplus; otherwise, when the offer holds a card it
lacks, it counters with one surplus card for one of those (the offerer showed it holds them).

The expert's favourite and playouts are the same bot in another ``Style`` (``EXPERT``): other
weights for where it builds, and a race for the longest road when it is two roads short of it.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from shared.game.engine import Game, Move, Strategy, random_strategy
from shared.play.search import ExpertBot
from shared.game.value import load
from services.catan.rules import board
from services.catan.rules.board import NODE_LINKS, RESOURCE_INDEX, RESOURCES
from services.catan.rules.state import (
    CITY, CITY_COST, DEV_CARD_COST, EMPTY, LARGEST_ARMY_MIN, LONGEST_ROAD_MIN, ROAD, ROAD_COST, SETTLEMENT,
    NEWEST, SETTLEMENT_COST, Ruleset, State, longest_road, may_trade, resource_counts, settlement_allowed_at,
    settlement_spots, victory_points,
)
from services.catan.value import FEATURES, PIPS, node_production, seat_production

# How much a pip of each resource is worth when choosing where to build (brick, lumber, wool,
# grain, ore).  ``greedy`` favours the road and settlement resources.
RESOURCE_WEIGHT = (1.1, 1.1, 0.8, 1.0, 0.9)
# The expert's own greedy play values the city and development card resources more.
EXPERT_RESOURCE_WEIGHT = (0.9, 0.9, 1.0, 1.1, 1.1)


@dataclass(frozen=True)
class Style:
    """What a greedy bot values where it builds, and whether it races for the longest road."""

    weights: tuple[float, ...]  # a pip of brick, lumber, wool, grain, ore on the site
    harbour: float              # a harbour on the site
    second_step: float          # a site two roads away, against one a road away
    road_race: int              # roads short of the longest road from which it builds toward it (0: never)


# Plain ``greedy`` keeps its style: it is the rule-of-thumb level people play and the ladder's yardstick.
PLAIN = Style(RESOURCE_WEIGHT, harbour=1.0, second_step=0.6, road_race=0)
# The expert's favourite and playouts: tuned one part at a time by seeded self-play against two
# plain greedy bots, each part kept only where it won more (the figures: docs/bots.md).
EXPERT = Style(EXPERT_RESOURCE_WEIGHT, harbour=0.0, second_step=0.8, road_race=2)

NOTHING: tuple[int, ...] = (0, 0, 0, 0, 0)
CLOSE_TO_WINNING = 8          # public points from which the bot trades with nobody
MAX_NET_CARDS = 2             # most cards a trade may cost net (a counter of 3 for 1, at worst)


def node_value(state: State, seat: int, node: int, have: list[float] | None = None,
               style: Style = PLAIN) -> float:
    """How good a settlement on ``node`` is for ``seat``: weighted production, plus a bonus
    for resources the seat does not produce yet, plus a little for a harbour."""
    have = have if have is not None else seat_production(state, seat)
    value = 0.0
    for i, pips in enumerate(node_production(state, node)):
        value += pips * style.weights[i]
        if pips and not have[i]:
            value += 2.5
    if state["node_harbour"][node] != board.NO_HARBOUR:
        value += style.harbour
    return value


def _missing(hand: list[int], cost: tuple[int, ...]) -> list[int]:
    return [max(0, need - have) for have, need in zip(hand, cost)]


def _plus(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(x + y for x, y in zip(a, b))


def _road_target_value(state: State, seat: int, edge: int, have: list[float],
                       style: Style = PLAIN) -> float:
    """Value of the best settlement site a new road on ``edge`` leads to (1 or 2 steps away)."""
    best = 0.0
    for node in board.EDGE_NODES[edge]:
        owner = state["node_owner"][node]
        if owner not in (EMPTY, seat):
            continue
        if settlement_allowed_at(state, node):
            best = max(best, node_value(state, seat, node, have, style))
        for _, nxt in NODE_LINKS[node]:
            if settlement_allowed_at(state, nxt):
                best = max(best, style.second_step * node_value(state, seat, nxt, have, style))
    return best


def ruleset_of(game: Game) -> Ruleset:
    """The rules of the engine version the bot plays by (a game keeps its version)."""
    ruleset = getattr(game, "ruleset", NEWEST)
    return ruleset if isinstance(ruleset, Ruleset) else NEWEST


class _Plan:
    """The greedy bot's reasoning for one decision, over its legal moves."""

    def __init__(self, game: Game, state: State, seat: int, style: Style = PLAIN) -> None:
        self.state, self.seat, self.style = state, seat, style
        self.ruleset = ruleset_of(game)
        self.moves = game.legal_moves(state, seat)
        self.by_type: dict[str, list[Move]] = {}
        for move in self.moves:
            self.by_type.setdefault(move["type"], []).append(move)
        self.hand = state["hands"][seat]
        self.have = seat_production(state, seat)

    def first(self, kind: str) -> Move | None:
        moves = self.by_type.get(kind)
        return moves[0] if moves else None

    def best(self, kind: str, score: Any) -> Move | None:
        moves = self.by_type.get(kind)
        return max(moves, key=score) if moves else None

    def best_settlement(self) -> Move | None:
        """The settlement on the site worth most to this seat (``node_value`` in the plan's style)."""
        return self.best("build_settlement",
                         lambda m: node_value(self.state, self.seat, m["node"], self.have, self.style))

    def best_road(self) -> Move | None:
        """The road toward the best settlement site (``_road_target_value`` in the plan's style)."""
        return self.best("build_road",
                         lambda m: _road_target_value(self.state, self.seat, m["edge"], self.have, self.style))

    # -- choosing what to save for -------------------------------------------------------------
    def target(self) -> tuple[int, ...] | None:
        state, seat = self.state, self.seat
        pieces = state["pieces"][seat]
        if pieces[CITY] and pieces[SETTLEMENT] < 5:
            return CITY_COST
        if pieces[SETTLEMENT] and settlement_spots(state, seat):
            return SETTLEMENT_COST
        if pieces[ROAD]:
            return ROAD_COST
        if any(state["dev_deck"]):
            return DEV_CARD_COST
        return None

    def trade_toward(self, cost: tuple[int, ...], keep: tuple[int, ...] = NOTHING) -> Move | None:
        """A bank trade giving surplus (beyond ``cost`` and ``keep``) for a missing card of ``cost``."""
        missing = _missing(self.hand, cost)
        if not any(missing):
            return None
        rates = self.state["rates"][self.seat]
        for move in self.by_type.get("bank_trade", ()):
            give, get = board.RESOURCE_INDEX[move["give"]], board.RESOURCE_INDEX[move["get"]]
            if missing[get] and self.hand[give] - cost[give] - keep[give] >= rates[give]:
                return move
        return None

    def close_to_winning(self, seat: int) -> bool:
        return victory_points(self.state, seat, hidden=False) >= CLOSE_TO_WINNING

    def offer_helps(self) -> bool:
        """Accept an offer that brings a card we miss for our target, costs only cards the
        target does not need, and does not feed a player close to winning."""
        offer = self.state["offer"]
        if {"type": "answer_trade", "accept": True} not in self.moves:
            return False
        if self.close_to_winning(offer["seat"]):
            return False
        target = self.target() or CITY_COST
        missing = _missing(self.hand, target)
        gains = any(missing[board.RESOURCE_INDEX[name]] for name in offer["give"])
        surplus = all(self.hand[board.RESOURCE_INDEX[name]] - target[board.RESOURCE_INDEX[name]] >= count
                      for name, count in offer["get"].items())
        return gains and surplus and sum(offer["get"].values()) <= sum(offer["give"].values())

    def counter(self) -> Move | None:
        """Our own terms for an offer we do not accept: one card of our biggest surplus for one
        card we lack among those the offerer gives (so it holds them), preferring to give what
        the offerer asked for; none for a player close to winning."""
        offer = self.state["offer"]
        if not self.ruleset.counter_offers or self.close_to_winning(offer["seat"]):
            return None
        target = self.target() or CITY_COST
        missing = _missing(self.hand, target)
        offered = [board.RESOURCE_INDEX[name] for name in offer["give"]]
        wanted = [i for i in offered if missing[i]]
        if not wanted:
            return None
        get = max(wanted, key=lambda i: (missing[i], target[i], -i))
        surplus = [have - need for have, need in zip(self.hand, target)]
        asked = {board.RESOURCE_INDEX[name] for name in offer["get"]}
        spare = [i for i in range(5) if surplus[i] > 0 and i != get]
        if not spare:
            return None
        give = max(spare, key=lambda i: (i in asked, surplus[i], -i))
        return {"type": "counter_trade", "give": {RESOURCES[give]: 1}, "get": {RESOURCES[get]: 1}}

    def offer(self, target: tuple[int, ...] | None, keep: tuple[int, ...] = NOTHING) -> Move | None:
        """One card of our biggest surplus (beyond the target and ``keep``) for one card the
        target lacks: only while trading, only the first offer of the turn, only when the
        target is one or two cards away."""
        if not may_trade(self.state, self.ruleset) or self.state["offers"] or target is None:
            return None
        missing = _missing(self.hand, target)
        if not 1 <= sum(missing) <= 2:
            return None
        surplus = [have - need - kept for have, need, kept in zip(self.hand, target, keep)]
        give = max(range(5), key=lambda i: surplus[i])
        if surplus[give] <= 0:
            return None
        get = max(range(5), key=lambda i: (missing[i], target[i]))
        return {"type": "offer_trade", "give": {RESOURCES[give]: 1}, "get": {RESOURCES[get]: 1}}

    def close_offer(self) -> Move:
        """As the offerer, once everybody answered: weigh each acceptance (our terms) and each
        counter-offer (theirs) by how many missing cards of our target it brings, then by the
        fewest cards it costs, then by the partner's fewest public points.  Nothing that does
        not bring the target closer, costs more than two cards net, or feeds a player close to
        winning; cancel when nothing is left."""
        state, offer = self.state, self.state["offer"]
        target = self.target() or CITY_COST
        lacking = sum(_missing(self.hand, target))
        best: tuple[tuple[int, ...], Move] | None = None
        for move in self.by_type.get("confirm_trade", ()):
            partner = move["seat"]
            if self.close_to_winning(partner):
                continue
            counter = offer["counters"][partner]
            if offer["answers"][partner] is True or counter is None:
                gives, gets = resource_counts(offer["give"]), resource_counts(offer["get"])
            else:
                gives, gets = resource_counts(counter["get"]), resource_counts(counter["give"])
            after = [h - g + r for h, g, r in zip(self.hand, gives, gets)]
            gain = lacking - sum(_missing(after, target))
            cost = sum(gives) - sum(gets)
            if gain <= 0 or cost > MAX_NET_CARDS:
                continue
            key = (gain, -cost, -victory_points(state, partner, hidden=False), -partner)
            if best is None or key > best[0]:
                best = (key, move)
        return best[1] if best else {"type": "cancel_trade"}

    def answer(self) -> Move:
        if self.offer_helps():
            return {"type": "answer_trade", "accept": True}
        return self.counter() or {"type": "answer_trade", "accept": False}

    # -- phases ---------------------------------------------------------------------------------
    def setup(self) -> Move:
        return self.best_settlement() or self.best_road()  # type: ignore[return-value]

    def robber(self) -> Move:
        state, seat = self.state, self.seat

        def harm(move: Move) -> float:
            hex_id = move["hex"]
            if state["hex_resource"][hex_id] < 0:
                return -1.0
            pips = PIPS[state["numbers"][hex_id]]
            score = 0.0
            for node in board.HEX_NODES[hex_id]:
                owner = state["node_owner"][node]
                if owner == seat:
                    score -= 10 * pips * state["node_level"][node]
                elif owner != EMPTY:
                    score += pips * state["node_level"][node] * (1 + victory_points(state, owner, hidden=False) / 5)
            victim = move["victim"]
            if victim is not None:
                score += 0.5 * sum(state["hands"][victim]) / 5 + 1
            return score

        return self.best("move_robber", harm)  # type: ignore[return-value]

    def discard(self) -> Move:
        owed = self.state["discards"][self.seat]
        target = self.target() or CITY_COST
        hand = list(self.hand)
        dropped = [0] * 5
        for _ in range(owed):
            # Drop from the resource with the most cards beyond what the target needs.
            i = max(range(5), key=lambda r: (hand[r] - target[r], hand[r]) if hand[r] else (-99, 0))
            hand[i] -= 1
            dropped[i] += 1
        return {"type": "discard", "resources": {RESOURCES[i]: n for i, n in enumerate(dropped) if n}}

    def dev_card(self) -> Move | None:
        state, seat = self.state, self.seat
        knight = self.first("play_knight")
        if knight:
            robber_on_me = any(state["node_owner"][n] == seat for n in board.HEX_NODES[state["robber"]])
            knights = state["knights"]
            army = state["largest_army"]
            gains_army = knights[seat] + 1 >= LARGEST_ARMY_MIN and (
                army is None or (army != seat and knights[seat] + 1 > knights[army]))
            if robber_on_me or gains_army or state["rolled"]:
                return knight
        target = self.target() or CITY_COST
        missing = _missing(self.hand, target)
        plenty = self.by_type.get("play_year_of_plenty")
        if plenty and sum(missing) >= 2:
            def fills(m: Move) -> int:
                want = list(missing)
                got = 0
                for name in m["resources"]:
                    i = board.RESOURCE_INDEX[name]
                    if want[i]:
                        want[i] -= 1
                        got += 1
                return got
            return max(plenty, key=fills)
        monopoly = self.by_type.get("play_monopoly")
        if monopoly and state["rolled"]:
            need = max(range(5), key=lambda i: (missing[i], target[i]))
            return {"type": "play_monopoly", "resource": RESOURCES[need]}
        road_building = self.first("play_road_building")
        if road_building and state["rolled"] and not settlement_spots(state, seat):
            return road_building
        return None

    def trade_first(self, target: tuple[int, ...] | None, has_spot: bool) -> Move | None:
        """The trades that come before building: toward a city, then a settlement, keeping the
        cards of what we can build already; then one offer to the table (before the cards go
        to a development card)."""
        city_ready, settle_ready = "build_city" in self.by_type, "build_settlement" in self.by_type
        if target is CITY_COST and not city_ready and self.hand[3] + self.hand[4] >= 3:
            trade = self.trade_toward(CITY_COST, SETTLEMENT_COST if settle_ready else NOTHING)
            if trade:
                return trade
        if has_spot and not settle_ready:
            trade = self.trade_toward(SETTLEMENT_COST, CITY_COST if city_ready else NOTHING)
            if trade:
                return trade
        keep = _plus(CITY_COST if city_ready else NOTHING, SETTLEMENT_COST if settle_ready else NOTHING)
        return self.offer(target, keep)

    def main(self) -> Move:
        move = self.build_or_trade()
        if move["type"] in ("end_turn", "buy_dev_card"):
            return self.race_for_longest_road() or move
        return move

    def race_for_longest_road(self) -> Move | None:
        """When the style races (``road_race``) and the seat is that many roads or fewer short of
        the longest road (5, or one more than anyone else's), the road that lengthens its own most."""
        state, seat = self.state, self.seat
        roads = self.by_type.get("build_road")
        if not self.style.road_race or not roads or state["longest_road"] == seat:
            return None
        mine = state["road_length"][seat]
        needed = max([LONGEST_ROAD_MIN] + [length + 1 for s, length in enumerate(state["road_length"]) if s != seat])
        if needed - mine > self.style.road_race:
            return None
        length, best = max(((self.road_length_with(move["edge"]), move) for move in roads), key=lambda pair: pair[0])
        return best if length > mine else None

    def road_length_with(self, edge: int) -> int:
        """The seat's longest road if it built on ``edge`` (on a copy of the two lists it changes)."""
        state, seat = self.state, self.seat
        edge_owner = list(state["edge_owner"])
        edge_owner[edge] = seat
        roads = list(state["roads"])
        roads[seat] = roads[seat] + [edge]
        return longest_road({**state, "edge_owner": edge_owner, "roads": roads}, seat)

    def build_or_trade(self) -> Move:
        """A development card to play, the trades toward the target, the best building, a
        development card to buy, or the end of the turn."""
        state, seat = self.state, self.seat
        played = self.dev_card()
        if played:
            return played
        target = self.target()
        has_spot = bool(settlement_spots(state, seat)) and state["pieces"][seat][SETTLEMENT]
        trade = self.trade_first(target, has_spot)
        if trade:
            return trade
        city = self.best("build_city", lambda m: sum(node_production(state, m["node"])))
        if city:
            return city
        settle = self.best_settlement()
        if settle:
            return settle
        if not has_spot and "build_road" in self.by_type:
            return self.best_road()  # type: ignore[return-value]
        buy = self.first("buy_dev_card")
        if buy and (target is not SETTLEMENT_COST or sum(self.hand) > 7):
            return buy
        for cost in (target, ROAD_COST if not has_spot else None, DEV_CARD_COST):
            if cost:
                trade = self.trade_toward(cost)
                if trade:
                    return trade
        if sum(self.hand) > 7 and "build_road" in self.by_type:
            # Spend rather than lose half to a 7.
            return self.best_road()  # type: ignore[return-value]
        return {"type": "end_turn"}


def greedy_strategy(game: Game, state: State, seat: int, rng: random.Random,
                    style: Style = PLAIN) -> Move:
    """``style``: what it values where it builds (``PLAIN``, or the expert's ``EXPERT``)."""
    plan = _Plan(game, state, seat, style)
    phase = state["phase"]
    if phase == "setup":
        return plan.setup()
    if phase == "roll":
        return plan.dev_card() or {"type": "roll"}
    if phase == "discard":
        return plan.discard()
    if phase == "robber":
        return plan.robber()
    if phase == "main":
        return plan.main()
    if phase == "road_building":
        return plan.best_road()  # type: ignore[return-value]
    if phase == "trade":
        if seat == state["offer"]["seat"]:
            return plan.close_offer()
        return plan.answer()
    return random_strategy(game, state, seat, rng)


def expert_greedy_strategy(game: Game, state: State, seat: int, rng: random.Random) -> Move:
    """The greedy bot in the expert's style (``EXPERT``): its favourite and playouts."""
    return greedy_strategy(game, state, seat, rng, EXPERT)


STRATEGIES: dict[str, Strategy] = {"random": random_strategy, "greedy": greedy_strategy}


# -- expert: search on top of greedy ------------------------------------------------------------

MAX_OFFERS_PER_TURN = 2      # the expert's own limit, so that offering never loops


def trade_offers(game: Game, state: State, seat: int) -> list[Move]:
    """One-for-one offers (of a card it holds two or more of, for one it lacks) while the seat may
    trade (twice a turn at most), and one-for-one counter-offers to an open offer: the trades
    ``legal_moves`` leaves out."""
    hand = state["hands"][seat]
    phase = state["phase"]
    ruleset = ruleset_of(game)
    if phase == "main" and state["current"] == seat and may_trade(state, ruleset) \
            and state["offers"] < MAX_OFFERS_PER_TURN:
        spare = [i for i, n in enumerate(hand) if n >= 2]
        lacking = [i for i, n in enumerate(hand) if n == 0]
        return [{"type": "offer_trade", "give": {RESOURCES[g]: 1}, "get": {RESOURCES[w]: 1}}
                for g in spare for w in lacking][:6]
    offer = state.get("offer")
    if phase == "trade" and offer is not None and seat != offer["seat"] and offer["answers"][seat] is None \
            and ruleset.counter_offers:
        wanted = [RESOURCE_INDEX[name] for name in offer["give"] if hand[RESOURCE_INDEX[name]] == 0]
        spare = [i for i, n in enumerate(hand) if n >= 2]
        return [{"type": "counter_trade", "give": {RESOURCES[g]: 1}, "get": {RESOURCES[w]: 1}}
                for g in spare for w in wanted if g != w][:4]
    return []


# Which kinds of move the search looks at first when there are more than it has time for: what
# scores or builds toward scoring, then the robber and the cards, then roads and trades.
KIND_PRIORITY = {"build_city": 0, "build_settlement": 0, "play_knight": 1, "play_monopoly": 1,
                 "play_year_of_plenty": 1, "play_road_building": 1, "buy_dev_card": 1, "move_robber": 2,
                 "end_turn": 2, "roll": 2, "build_road": 3, "offer_trade": 4, "counter_trade": 4,
                 "bank_trade": 5}


def rank_moves(game: Game, state: State, seat: int, moves: list[Move]) -> list[Move]:
    """Best first, by kind (``KIND_PRIORITY``) and within a kind by where it leads: a settlement's
    or city's site value, a road's best reachable site, a robber's hex by the opponents' points
    there; so the search spends its worlds on the moves that could matter."""
    have = seat_production(state, seat)

    def within(move: Move) -> float:
        kind = move["type"]
        if "node" in move:                  # a settlement (in set-up too) or a city
            return node_value(state, seat, move["node"], have, EXPERT)
        if kind == "build_road" and "edge" in move:
            return _road_target_value(state, seat, move["edge"], have, EXPERT)
        if kind == "move_robber":
            victims = [owner for node in board.HEX_NODES[move["hex"]]
                       if (owner := state["node_owner"][node]) not in (EMPTY, seat)]
            own = sum(1 for node in board.HEX_NODES[move["hex"]] if state["node_owner"][node] == seat)
            return (sum(victory_points(state, v, hidden=False) for v in victims) - 5 * own
                    + (move.get("victim") is not None))
        return 0.0

    return sorted(moves, key=lambda m: (KIND_PRIORITY.get(m["type"], 3), -within(m)))


# The value function is fit to greedy self-play (services/catan/value.py): its scores are log-odds.
# Playouts of 40 plies (a few turns): with the stronger playout style, 15-ply playouts judged by
# that function talked the expert out of its favourite's good moves (docs/bots.md).
expert_strategy = ExpertBot(expert_greedy_strategy, load(FEATURES), horizon=40, sharpness=1.0, extra_moves=trade_offers,
                            rank=rank_moves)

STRATEGIES["expert"] = expert_strategy
