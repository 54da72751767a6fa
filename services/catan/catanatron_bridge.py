"""Our Catan bots playing inside catanatron's engine, by catanatron's rules (a bench, not the platform).

    python -m services.catan.catanatron_bridge --games 20 --bot greedy

catanatron (the pip package, 3.2.x) is a bench-only dependency: it is imported here only, and
only when a function needs it, so the services never load it.  At every decision of our seat:

1. **Ids** — one fixed bijection between catanatron's BASE topology (tile cube coordinates,
   node ids 0..53, edges as node pairs) and ours (hexes 0..18, nodes 0..53, edges 0..71), derived
   from geometry: catanatron's cube coordinate ``(x, y, z)`` is our hex centre
   ``(4 + x - y, 6 + 3z)`` on the lattice of ``rules/board.py``, and its node refs NORTH,
   NORTHEAST, ... SOUTHWEST, NORTHWEST are our corners in ``HEX_NODES`` order.  The nine harbour
   positions coincide exactly; catanatron shuffles the harbour *kinds* each game, so the
   translated state uses its kinds.
2. **State** — catanatron's ``Game`` becomes one of our engine states for the acting seat
   (``translate``): board, robber, buildings, roads, the seat's own hand and development cards,
   public counts of the others' cards (their cards are dealt at random from what is unseen: the
   bank and the seat's own hand are public, so the pool of the others' cards is known, never
   their split), knights played, awards, deck size, bank, and the phase of catanatron's prompt.
3. **Moves** — our move maps to at most one catanatron action (``move_key``/``action_key``).
   A strategy taking ``allowed=`` gets a predicate accepting only moves that map to a playable
   action; one that does not (``greedy``) gets a game whose ``legal_moves`` at this state lists only
   those.  A chosen move that still maps to nothing is replaced by the closest playable action and
   counted as a fallback.

Where catanatron 3.2.1's rules differ from ours, the translated state follows catanatron:
trading and building mix freely (``combined_trade_build``), a card bought this turn may be played
(``dev_new`` is left empty), only a knight may be played before the roll (filtered by
``allowed``), a robber move must steal when someone can be robbed, Year of Plenty may take one
card when the bank is short, Road Building needs road money to be played, and there is no domestic
trade (the state says the turn's one offer is made: ``offers = 1``, so ``greedy`` makes none).
Discards are catanatron's: it offers one DISCARD action and picks the cards at random, so our
bot's discard choice is not used (counted as ``random_discards``, not as a fallback).
"""
from __future__ import annotations

import argparse
import inspect
import json
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any
from collections.abc import Callable

from services.catan.bots import STRATEGIES
from services.catan.rules import board
from services.catan.rules.board import EDGE_ID, GENERIC_HARBOUR, HEX_NODES, NO_HARBOUR, RESOURCES
from services.catan.rules.game import CatanGame
from services.catan.rules.state import (
    DEV_CARDS, DEV_DECK, DISCARD, EMPTY, MAIN, RESOURCES_PER_TYPE, ROAD_BUILDING, ROBBER, ROLL,
    SETUP, State, longest_road,
)
from shared.game.engine import Move, Strategy, deal_back
from shared.ai.stats import wilson_interval

Coordinate = tuple[int, int, int]
TheirEdge = tuple[int, int]
ActionKey = tuple[Any, ...]

GAME = CatanGame()

# catanatron's freqdeck order and names; ours are brick, lumber, wool, grain, ore.
THEIR_RESOURCES: tuple[str, ...] = ("WOOD", "BRICK", "SHEEP", "WHEAT", "ORE")
THEIRS: dict[str, str] = {"brick": "BRICK", "lumber": "WOOD", "wool": "SHEEP", "grain": "WHEAT", "ore": "ORE"}
OURS: dict[str, str] = {theirs: ours for ours, theirs in THEIRS.items()}
# our resource index -> index in catanatron's freqdecks
THEIR_INDEX: tuple[int, ...] = tuple(THEIR_RESOURCES.index(THEIRS[name]) for name in RESOURCES)
TERRAIN: dict[str | None, str] = {"BRICK": "hills", "WOOD": "forest", "SHEEP": "pasture",
                                  "WHEAT": "fields", "ORE": "mountains", None: "desert"}
THEIR_DEV: tuple[str, ...] = tuple(name.upper() for name in DEV_CARDS)   # KNIGHT, VICTORY_POINT, ...
# catanatron's node refs in our HEX_NODES corner order (clockwise from the top).
NODE_REFS: tuple[str, ...] = ("NORTH", "NORTHEAST", "SOUTHEAST", "SOUTH", "SOUTHWEST", "NORTHWEST")

# Our move type -> catanatron ActionType value (the moves with no counterpart are absent).
ACTION_TYPES: dict[str, str] = {
    "build_settlement": "BUILD_SETTLEMENT", "build_road": "BUILD_ROAD", "build_city": "BUILD_CITY",
    "roll": "ROLL", "discard": "DISCARD", "move_robber": "MOVE_ROBBER", "end_turn": "END_TURN",
    "buy_dev_card": "BUY_DEVELOPMENT_CARD", "play_knight": "PLAY_KNIGHT_CARD",
    "play_road_building": "PLAY_ROAD_BUILDING", "play_year_of_plenty": "PLAY_YEAR_OF_PLENTY",
    "play_monopoly": "PLAY_MONOPOLY", "bank_trade": "MARITIME_TRADE",
}


# -- 1. the id map -----------------------------------------------------------------------------
@dataclass(frozen=True)
class IdMap:
    """Ids of catanatron's BASE topology <-> ours.  Fixed: catanatron numbers nodes in the order
    of its topology template, whatever the shuffled resources, numbers and harbour kinds."""

    hex_of: dict[Coordinate, int]            # their land tile coordinate -> our hex
    coordinate_of: list[Coordinate]          # our hex -> their coordinate
    node_of: dict[int, int]                  # their node -> our node
    their_node: list[int]                    # our node -> their node
    edge_of: dict[TheirEdge, int]            # their edge (either order) -> our edge
    their_edge: list[TheirEdge]              # our edge -> their edge (smaller node first)
    harbour_edges: tuple[int, ...]           # our edges where catanatron's 9 ports sit


def _our_hex(coordinate: Coordinate) -> int:
    """Our hex id of a cube coordinate: its centre on our lattice is ``(4 + x - y, 6 + 3z)``
    (catanatron's EAST ``(1, -1, 0)`` is +2 across, its SOUTHEAST ``(0, -1, 1)`` one row down)."""
    x, y, z = coordinate
    across, row = 4 + x - y, 2 + z
    if not 0 <= row < len(board.ROW_LENGTHS):
        raise ValueError(f"tile {coordinate} is off our board")
    col, odd = divmod(across - abs(row - 2), 2)
    if odd or not 0 <= col < board.ROW_LENGTHS[row]:
        raise ValueError(f"tile {coordinate} is off our board")
    return sum(board.ROW_LENGTHS[:row]) + col


def _port_nodes(port: Any) -> tuple[int, int]:
    from catanatron.models.map import PORT_DIRECTION_TO_NODEREFS
    a, b = PORT_DIRECTION_TO_NODEREFS[port.direction]
    return port.nodes[a], port.nodes[b]


def build_id_map(catan_map: Any) -> IdMap:
    """The map for a catanatron ``CatanMap`` of the BASE topology; ``ValueError`` for another one."""
    hex_of: dict[Coordinate, int] = {}
    node_of: dict[int, int] = {}
    for coordinate, tile in catan_map.land_tiles.items():
        hex_id = _our_hex(coordinate)
        hex_of[coordinate] = hex_id
        refs = {ref.value: node for ref, node in tile.nodes.items()}
        for corner, ref in enumerate(NODE_REFS):
            ours = HEX_NODES[hex_id][corner]
            if node_of.setdefault(refs[ref], ours) != ours:
                raise ValueError(f"catanatron node {refs[ref]} lands on two of our nodes")
    if len(hex_of) != board.HEX_COUNT or sorted(hex_of.values()) != list(range(board.HEX_COUNT)):
        raise ValueError("catanatron's land tiles do not cover our 19 hexes")
    if sorted(node_of.values()) != list(range(board.NODE_COUNT)) or len(node_of) != board.NODE_COUNT:
        raise ValueError("catanatron's land nodes are not our 54 nodes")
    edge_of: dict[TheirEdge, int] = {}
    for tile in catan_map.land_tiles.values():
        for a, b in tile.edges.values():
            edge = EDGE_ID.get((node_of[a], node_of[b]))
            if edge is None:
                raise ValueError(f"catanatron edge {(a, b)} joins two of our nodes that are not adjacent")
            edge_of[(a, b)] = edge_of[(b, a)] = edge
    their_edge: list[TheirEdge] = [(-1, -1)] * board.EDGE_COUNT
    for (a, b), ours in edge_of.items():
        their_edge[ours] = (min(a, b), max(a, b))
    if len(set(edge_of.values())) != board.EDGE_COUNT:
        raise ValueError("catanatron's edges are not our 72 edges")
    their_node = [-1] * board.NODE_COUNT
    for theirs, ours in node_of.items():
        their_node[ours] = theirs
    coordinate_of: list[Coordinate] = [(0, 0, 0)] * board.HEX_COUNT
    for coordinate, ours in hex_of.items():
        coordinate_of[ours] = coordinate
    harbours = tuple(sorted(edge_of[_port_nodes(port)] for port in catan_map.ports_by_id.values()))
    return IdMap(hex_of, coordinate_of, node_of, their_node, edge_of, their_edge, harbours)


@lru_cache(maxsize=1)
def id_map() -> IdMap:
    """The map of catanatron's BASE topology (from the map its board module builds at import,
    so building it draws nothing from the global ``random`` catanatron games are seeded with)."""
    from catanatron.models.board import base_map
    return build_id_map(base_map)


def check_topology(catan_map: Any, ids: IdMap) -> None:
    """Refuse a map whose tiles are not where the id map says (e.g. the 7-tile MINI map)."""
    for coordinate, tile in catan_map.land_tiles.items():
        hex_id = ids.hex_of.get(coordinate)
        refs = {ref.value: node for ref, node in tile.nodes.items()}
        if hex_id is None or any(ids.node_of.get(refs[ref]) != HEX_NODES[hex_id][corner]
                                 for corner, ref in enumerate(NODE_REFS)):
            raise ValueError("only catanatron's BASE map topology is supported")
    if len(catan_map.land_tiles) != board.HEX_COUNT:
        raise ValueError("only catanatron's BASE map topology is supported")


# -- 2. the state ------------------------------------------------------------------------------
def _ours(freqdeck: list[int]) -> list[int]:
    """A catanatron freqdeck (WOOD, BRICK, SHEEP, WHEAT, ORE) as our 5-list."""
    return [freqdeck[THEIR_INDEX[i]] for i in range(5)]


def _tally(cards: list[int]) -> list[int]:
    counts = [0] * 5
    for card in cards:
        counts[card] += 1
    return counts


def _cards(counts: list[int]) -> list[int]:
    return [kind for kind, n in enumerate(counts) for _ in range(n)]


def translate(game: Any, color: Any, rng: random.Random) -> tuple[State, int]:
    """Our engine state for ``color`` (the seat catanatron is asking now) and its seat.

    Seats are catanatron's seating order (``state.colors``), so seat 0 starts.  The others'
    resource and development cards are dealt with ``rng`` from the unseen pool with their public
    counts: the true split is never read.
    """
    cs = game.state
    ids = id_map()
    check_topology(cs.board.map, ids)
    seat = cs.color_to_index[color]
    state = _started(cs, ids)
    _place_pieces(state, cs, ids)
    _seat_counts(state, cs)
    _harbour_rates(state)
    for s in range(state["players"]):
        state["road_length"][s] = longest_road(state, s)
    _deal_cards(state, cs, seat, rng)
    _set_phase(state, cs, seat)
    return state, seat


def _started(cs: Any, ids: IdMap) -> State:
    """Our state right after ``game_started`` on catanatron's board: its terrains, numbers,
    harbour kinds and robber."""
    tiles = cs.board.map.land_tiles
    terrains = [TERRAIN[tiles[ids.coordinate_of[h]].resource] for h in range(board.HEX_COUNT)]
    numbers = [tiles[ids.coordinate_of[h]].number for h in range(board.HEX_COUNT)]
    harbours = []
    for port in sorted(cs.board.map.ports_by_id.values(), key=lambda p: p.id):
        a, b = _port_nodes(port)
        harbours.append({"kind": "3:1" if port.resource is None else OURS[port.resource],
                         "nodes": sorted((ids.node_of[a], ids.node_of[b]))})
    options = {**GAME.default_options(), "board": "variable", "combined_trade_build": True}
    return GAME.evolve(None, {"type": "game_started", "data": {
        "players": len(cs.colors), "options": options, "terrains": terrains, "numbers": numbers,
        "harbours": harbours, "robber": ids.hex_of[cs.board.robber_coordinate],
        "start_rolls": [], "first_player": 0}})


def _place_pieces(state: State, cs: Any, ids: IdMap) -> None:
    """The buildings and roads on the board."""
    index = cs.color_to_index
    for node, (owner, kind) in cs.board.buildings.items():
        ours = ids.node_of[node]
        state["node_owner"][ours] = index[owner]
        state["node_level"][ours] = 2 if kind == "CITY" else 1
    for owner in cs.colors:
        for their in cs.buildings_by_color[owner]["ROAD"]:
            edge = ids.edge_of[tuple(their)]
            state["edge_owner"][edge] = index[owner]
            state["roads"][index[owner]].append(edge)


def _seat_counts(state: State, cs: Any) -> None:
    """Each seat's pieces left, knights played, and the awards."""
    ps = cs.player_state
    for s in range(state["players"]):
        key = f"P{s}_"
        state["pieces"][s] = [ps[key + "ROADS_AVAILABLE"], ps[key + "SETTLEMENTS_AVAILABLE"],
                              ps[key + "CITIES_AVAILABLE"]]
        state["knights"][s] = ps[key + "PLAYED_KNIGHT"]
        if ps[key + "HAS_ROAD"]:
            state["longest_road"] = s
        if ps[key + "HAS_ARMY"]:
            state["largest_army"] = s


def _harbour_rates(state: State) -> None:
    """The bank trade rates the buildings on harbours give their owners."""
    for node, owner in enumerate(state["node_owner"]):
        harbour = state["node_harbour"][node]
        if owner != EMPTY and harbour != NO_HARBOUR:
            rates = state["rates"][owner]
            for i in range(5) if harbour == GENERIC_HARBOUR else (harbour,):
                rates[i] = min(rates[i], 3 if harbour == GENERIC_HARBOUR else 2)


def _deal_cards(state: State, cs: Any, seat: int, rng: random.Random) -> None:
    """The cards.  Public: the bank, every hand's size, each seat's development card count, the
    cards played, the deck's size.  Private: ``seat``'s own hand and cards; the others' are dealt
    with ``rng`` from what ``seat`` cannot see."""
    ps = cs.player_state
    players = state["players"]
    mine = f"P{seat}_"
    state["bank"] = _ours(list(cs.resource_freqdeck))
    own = [ps[mine + THEIRS[name] + "_IN_HAND"] for name in RESOURCES]
    others = [s for s in range(players) if s != seat]
    unseen = [RESOURCES_PER_TYPE - bank - mine_ for bank, mine_ in zip(state["bank"], own)]
    sizes = [sum(ps[f"P{s}_{r}_IN_HAND"] for r in THEIR_RESOURCES) for s in others]
    for s, cards in zip(others, deal_back(_cards(unseen), sizes, rng)):
        state["hands"][s] = _tally(cards)
    state["hands"][seat] = own
    own_dev = [ps[mine + card + "_IN_HAND"] for card in THEIR_DEV]
    played = [sum(ps[f"P{s}_PLAYED_{card}"] for s in range(players)) for card in THEIR_DEV]
    unseen_dev = [total - held - gone for total, held, gone in zip(DEV_DECK, own_dev, played)]
    dev_sizes = [sum(ps[f"P{s}_{card}_IN_HAND"] for card in THEIR_DEV) for s in others]
    piles = deal_back(_cards(unseen_dev), [*dev_sizes, len(cs.development_listdeck)], rng)
    for s, cards in zip(others, piles):
        state["dev_hand"][s] = _tally(cards)
    state["dev_hand"][seat] = own_dev
    state["dev_deck"] = _tally(piles[-1])
    # catanatron lets a card be played the turn it was bought: nothing is "new".


def _set_phase(state: State, cs: Any, seat: int) -> None:
    """Phase, turn and the per-turn flags from catanatron's prompt."""
    ps = cs.player_state
    prompt = cs.current_prompt.value
    current = cs.current_turn_index
    players = len(cs.colors)
    state["turn"] = cs.num_turns
    # The turn's one domestic offer counts as made: catanatron has no domestic trade.
    state["offers"] = 1
    if cs.is_initial_build_phase:
        placed = len(cs.board.buildings)
        order = list(range(players))
        state["phase"] = SETUP
        state["setup_order"] = order + order[::-1]
        state["current"] = seat
        if prompt == "BUILD_INITIAL_ROAD":
            last = cs.buildings_by_color[cs.colors[seat]]["SETTLEMENT"][-1]
            state["setup_node"] = id_map().node_of[last]
            state["setup_index"] = placed - 1
        else:
            state["setup_index"] = placed
        return
    state["current"] = current
    state["rolled"] = bool(ps[f"P{current}_HAS_ROLLED"])
    state["dev_played"] = bool(ps[f"P{current}_HAS_PLAYED_DEVELOPMENT_CARD_IN_TURN"])
    if state["rolled"]:
        rolls = [a.value for a in reversed(cs.actions) if a.action_type.value == "ROLL"]
        state["dice"] = list(rolls[0]) if rolls and rolls[0] else None
    if prompt == "DISCARD":
        state["phase"] = DISCARD
        state["discards"][seat] = sum(state["hands"][seat]) // 2
    elif prompt == "MOVE_ROBBER":
        state["phase"] = ROBBER
    elif cs.is_road_building:
        state["phase"] = ROAD_BUILDING
        state["free_roads"] = cs.free_roads_available
    else:
        state["phase"] = MAIN if state["rolled"] else ROLL


# -- 3. moves <-> actions ----------------------------------------------------------------------
def action_key(action: Any) -> ActionKey:
    """A hashable description of a catanatron action (its value without the log-only parts)."""
    kind, value = action.action_type.value, action.value
    if kind == "BUILD_ROAD":
        return kind, (min(value), max(value))
    if kind in ("BUILD_SETTLEMENT", "BUILD_CITY", "PLAY_MONOPOLY"):
        return kind, value
    if kind == "MOVE_ROBBER":
        return kind, value[0], value[1]
    if kind == "MARITIME_TRADE":
        given = [r for r in value[:-1] if r is not None]
        return kind, given[0], len(given), value[-1]
    if kind == "PLAY_YEAR_OF_PLENTY":
        return kind, tuple(sorted(value, key=THEIR_RESOURCES.index))
    return (kind,)              # ROLL, END_TURN, DISCARD (cards chosen by catanatron), buys, plays


def move_key(move: Move, state: State, seat: int, colors: tuple[Any, ...]) -> ActionKey | None:
    """The catanatron action our ``move`` means, as an ``action_key``; None when there is none
    (domestic trade)."""
    kind = ACTION_TYPES.get(move.get("type", ""))
    if kind is None:
        return None
    ids = id_map()
    if kind == "BUILD_ROAD":
        return kind, ids.their_edge[move["edge"]]
    if kind in ("BUILD_SETTLEMENT", "BUILD_CITY"):
        return kind, ids.their_node[move["node"]]
    if kind == "MOVE_ROBBER":
        victim = move.get("victim")
        return kind, ids.coordinate_of[move["hex"]], None if victim is None else colors[victim]
    if kind == "MARITIME_TRADE":
        give = board.RESOURCE_INDEX[move["give"]]
        return kind, THEIRS[move["give"]], state["rates"][seat][give], THEIRS[move["get"]]
    if kind == "PLAY_YEAR_OF_PLENTY":
        return kind, tuple(sorted((THEIRS[name] for name in move["resources"]), key=THEIR_RESOURCES.index))
    if kind == "PLAY_MONOPOLY":
        return kind, THEIRS[move["resource"]]
    return (kind,)


def closest_action(move: Move, playable: list[Any], ids: IdMap | None = None) -> Any:
    """A playable action near in meaning to ``move`` (which maps to none): the same kind of
    action (for the robber, on the same hex), else ending the turn, else rolling, else the first."""
    kind = ACTION_TYPES.get(move.get("type", ""))
    same = [a for a in playable if a.action_type.value == kind]
    if same:
        if kind == "MOVE_ROBBER" and isinstance(move.get("hex"), int):
            there = [a for a in same if a.value[0] == (ids or id_map()).coordinate_of[move["hex"]]]
            if there:
                return there[0]
        return same[0]
    for wanted in ("END_TURN", "ROLL"):
        for action in playable:
            if action.action_type.value == wanted:
                return action
    return playable[0]


class _RootFiltered(CatanGame):
    """Our game, except that at one state (the root of this decision) ``legal_moves`` lists only
    the moves ``allowed`` accepts: how a strategy without an ``allowed`` parameter is kept to
    catanatron's playable actions.  Any other state (a search's) gets the full list."""

    def __init__(self, root: State, allowed: Callable[[Move], bool]) -> None:
        super().__init__()
        self.root, self.allowed = root, allowed

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        moves = super().legal_moves(state, seat)
        if state is not self.root:
            return moves
        return [m for m in moves if self.allowed(m)] or moves


def _accepts(strategy: Strategy, name: str) -> bool:
    try:
        params = inspect.signature(strategy).parameters
    except (TypeError, ValueError):
        return False
    return name in params or any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values())


@dataclass
class Tally:
    """What one of our players did in catanatron, over one or more games."""

    decisions: int = 0                 # decisions our strategy was asked for
    forced: int = 0                    # decisions with a single playable action (not asked)
    random_discards: int = 0           # DISCARD actions (catanatron picks the cards)
    fallbacks: Counter[str] = field(default_factory=Counter)   # our move type -> count

    def add(self, other: Tally) -> None:
        self.decisions += other.decisions
        self.forced += other.forced
        self.random_discards += other.random_discards
        self.fallbacks.update(other.fallbacks)


def choose_action(game: Any, color: Any, playable: list[Any], strategy: Strategy, rng: random.Random,
                  deal_rng: random.Random, budget_ms: int | None, tally: Tally) -> Any:
    """The catanatron action our strategy picks for ``color`` among ``playable``."""
    kinds = {a.action_type.value for a in playable}
    if "DISCARD" in kinds:
        tally.random_discards += 1
    if len(playable) == 1:
        tally.forced += 1
        return playable[0]
    state, seat = translate(game, color, deal_rng)
    by_key = {action_key(a): a for a in playable}
    colors = game.state.colors

    def allowed(move: Move) -> bool:
        key = move_key(move, state, seat, colors)
        return key is not None and key in by_key

    kwargs: dict[str, Any] = {}
    if _accepts(strategy, "budget_ms"):
        kwargs["budget_ms"] = budget_ms
    # The optional keywords are outside the Strategy type: call it as a plain callable.
    call: Callable[..., Move] = strategy
    if _accepts(strategy, "allowed"):
        move = call(GAME, state, seat, rng, allowed=allowed, **kwargs)
    else:
        move = call(_RootFiltered(state, allowed), state, seat, rng, **kwargs)
    tally.decisions += 1
    key = move_key(move, state, seat, colors)
    action = by_key.get(key) if key is not None else None
    if action is None:
        tally.fallbacks[str(move.get("type"))] += 1
        action = closest_action(move, playable)
    return action


# -- 4. the catanatron Player --------------------------------------------------------------------
@lru_cache(maxsize=1)
def player_class() -> type:
    """``OurPlayer``, a subclass of catanatron's ``Player`` (built on first use: catanatron is
    imported only then)."""
    from catanatron import Player

    class OurPlayer(Player):
        """One of our strategies (by name in ``bots.STRATEGIES``) as a catanatron player."""

        def __init__(self, color: Any, strategy_name: str = "greedy", budget_ms: int | None = None,
                     seed: int = 0) -> None:
            super().__init__(color)
            if strategy_name not in STRATEGIES:
                raise ValueError(f"unknown strategy {strategy_name!r}; one of {', '.join(STRATEGIES)}")
            self.strategy_name = strategy_name
            self.strategy = STRATEGIES[strategy_name]
            self.budget_ms = budget_ms
            self.rng = random.Random(seed)                  # the strategy's own draws
            self.deal_rng = random.Random(seed ^ 0x5EED)    # dealing the others' unseen cards
            self.tally = Tally()

        def decide(self, game: Any, playable_actions: Any) -> Any:
            return choose_action(game, self.color, list(playable_actions), self.strategy, self.rng,
                                 self.deal_rng, self.budget_ms, self.tally)

        def __repr__(self) -> str:
            return f"OurPlayer({self.strategy_name}):{self.color.value}"

    return OurPlayer


def __getattr__(name: str) -> Any:
    # ``from services.catan.catanatron_bridge import OurPlayer`` imports catanatron only then.
    if name == "OurPlayer":
        return player_class()
    raise AttributeError(name)


# -- 5. matches ----------------------------------------------------------------------------------
def seat_players(game: Any, players: list[Any]) -> None:
    """Seat ``players`` in this order (catanatron shuffles the seating when it creates a game;
    the bench rotates our seat instead).  Only before the first action: every seat's counters
    are still equal then, so only the order and the first prompt's actions change."""
    from catanatron.models.actions import generate_playable_actions
    cs = game.state
    if cs.actions:
        raise ValueError("seat the players before the game starts")
    cs.players = list(players)
    cs.colors = tuple(p.color for p in players)
    cs.color_to_index = {c: i for i, c in enumerate(cs.colors)}
    cs.playable_actions = generate_playable_actions(cs)


def decide_in_stable_order(player: Any, game: Any, playable_actions: Any) -> Any:
    """``player.decide`` over the playable actions sorted by their repr.

    catanatron builds some action lists from sets (maritime trades, Year of Plenty, robber
    victims) whose order follows string hashing (per process unless PYTHONHASHSEED is set) and,
    on Python 3.11, ``hash(None)`` (an address): the same seed then replays differently in another
    process.  A player picking uniformly or by value picks with the same odds from a sorted list,
    so sorting changes no player's play, only makes a seed reproducible."""
    return player.decide(game, sorted(playable_actions, key=repr))


def play_game(strategy_name: str, seed: int, our_seat: int, fourth: str = "weighted",
              budget_ms: int | None = None) -> dict[str, Any]:
    """One 4-player catanatron game (BASE map, 10 points): our bot at ``our_seat``, then
    WeightedRandomPlayer, VictoryPointPlayer and ``fourth`` (``weighted`` or ``vp``)."""
    from catanatron import Color, Game
    from catanatron.players.search import VictoryPointPlayer
    from catanatron.players.weighted_random import WeightedRandomPlayer
    ours = player_class()(Color.RED, strategy_name, budget_ms, seed=seed)
    last = WeightedRandomPlayer if fourth == "weighted" else VictoryPointPlayer
    others = [WeightedRandomPlayer(Color.BLUE), VictoryPointPlayer(Color.ORANGE), last(Color.WHITE)]
    order = others[:our_seat] + [ours] + others[our_seat:]
    game = Game(order, seed=seed)      # (seed 0 would mean a random seed to catanatron)
    seat_players(game, order)
    winner = game.play(decide_fn=decide_in_stable_order)
    return {"winner": None if winner is None else winner.value, "won": winner == Color.RED,
            "finished": winner is not None, "turns": game.state.num_turns, "tally": ours.tally,
            "seat": our_seat, "fourth": fourth}


def run_match(games: int, strategy_name: str, seed: int, budget_ms: int | None) -> dict[str, Any]:
    """``games`` 4-player games of our ``strategy_name`` against catanatron's WeightedRandomPlayer
    and VictoryPointPlayer (the fourth seat alternates between the two every 4 games), our seat
    rotating 0, 1, 2, 3.  Unfinished games (catanatron's turn cap) count as not won."""
    started = time.perf_counter()
    wins = unfinished = turns = 0
    by_seat = [[0, 0] for _ in range(4)]            # [wins, games] per seat of ours
    tally = Tally()
    for i in range(games):
        fourth = "weighted" if (i // 4) % 2 == 0 else "vp"
        result = play_game(strategy_name, seed * 100_003 + i + 1, i % 4, fourth, budget_ms)
        wins += result["won"]
        unfinished += not result["finished"]
        turns += result["turns"]
        by_seat[i % 4][0] += result["won"]
        by_seat[i % 4][1] += 1
        tally.add(result["tally"])
    lo, hi = wilson_interval(wins, games)
    return {
        "bench": "catan-vs-catanatron", "bot": strategy_name, "budget_ms": budget_ms, "seed": seed,
        "opponents": "WeightedRandomPlayer, VictoryPointPlayer, and one more of either",
        "games": games, "wins": wins, "win_rate": round(wins / games, 4) if games else 0.0,
        "wilson95": [round(lo, 4), round(hi, 4)], "unfinished": unfinished,
        "wins_by_seat": by_seat, "mean_turns": round(turns / games, 1) if games else 0.0,
        "fallbacks": sum(tally.fallbacks.values()), "fallback_moves": dict(tally.fallbacks),
        "decisions": tally.decisions, "forced": tally.forced, "random_discards": tally.random_discards,
        "seconds": round(time.perf_counter() - started, 2),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--bot", default="greedy", help=f"one of {', '.join(STRATEGIES)}")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--budget-ms", type=int, default=None, help="per-decision budget for search bots")
    args = parser.parse_args(argv)
    print(json.dumps(run_match(args.games, args.bot, args.seed, args.budget_ms)), flush=True)


if __name__ == "__main__":
    main()
