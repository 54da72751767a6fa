"""The game state (a JSON-compatible dict of small ints and lists) and the questions asked of it.

Resources are 5-int lists in the order of ``board.RESOURCES`` (brick, lumber, wool, grain,
ore); development cards are 5-int lists in the order of ``DEV_CARDS``.  Moves and events use the
names, the state uses the indices, because the state is what the hot loop touches.
"""
from __future__ import annotations

from dataclasses import dataclass
from operator import ge
from typing import Any

from services.catan.rules import board
from services.catan.rules.board import GENERIC_HARBOUR, NODE_LINKS, RESOURCE_INDEX, RESOURCES

State = dict[str, Any]
Hand = list[int]

ROAD_COST: tuple[int, ...] = (1, 1, 0, 0, 0)
SETTLEMENT_COST: tuple[int, ...] = (1, 1, 1, 1, 0)
CITY_COST: tuple[int, ...] = (0, 0, 0, 2, 3)
DEV_CARD_COST: tuple[int, ...] = (0, 0, 1, 1, 1)

DEV_CARDS: tuple[str, ...] = ("knight", "victory_point", "road_building", "year_of_plenty", "monopoly")
DEV_INDEX: dict[str, int] = {name: i for i, name in enumerate(DEV_CARDS)}
# (ROAD_BUILDING is the phase below: the card's index has its own name.)
KNIGHT, VICTORY_POINT, ROAD_BUILDING_CARD, YEAR_OF_PLENTY, MONOPOLY = range(5)
DEV_DECK: tuple[int, ...] = (14, 5, 2, 2, 2)

# Index into a player's ``pieces`` (how many are still in their supply).
ROAD, SETTLEMENT, CITY = range(3)
PIECES: tuple[int, ...] = (15, 5, 4)

RESOURCES_PER_TYPE = 19
WINNING_POINTS = 10
LONGEST_ROAD_MIN = 5
LARGEST_ARMY_MIN = 3
DISCARD_LIMIT = 7          # more than this many cards on a 7: discard half
EMPTY = -1

# Phases.  The seat(s) to act follow from the phase (see ``to_act``).
SETUP, ROLL, DISCARD, ROBBER, MAIN, ROAD_BUILDING, TRADE, OVER = (
    "setup", "roll", "discard", "robber", "main", "road_building", "trade", "over")

@dataclass(frozen=True)
class Ruleset:
    """What one released engine version decides differently (``CatanGame(version)``)."""
    version: str
    # Engine 3: trading comes before building (``may_trade``); engine 2 let a player trade after building.
    trade_before_building: bool
    # Engine 3: counter-offers (``counter_trade``); engine 2 had no such move.
    counter_offers: bool
    # Engine 3: the steal after moving the robber is optional; engine 2 required a victim when there was one.
    optional_steal: bool
    # Engine 3 added the option ``combined_trade_build``.
    options: tuple[str, ...]


RULESETS: dict[str, Ruleset] = {
    "2": Ruleset("2", trade_before_building=False, counter_offers=False, optional_steal=False,
                 options=("board", "bank_shortage")),
    "3": Ruleset("3", trade_before_building=True, counter_offers=True, optional_steal=True,
                 options=("board", "bank_shortage", "combined_trade_build")),
}
NEWEST = RULESETS["3"]

DEFAULT_OPTIONS: dict[str, Any] = {"board": "beginner", "bank_shortage": "nobody",
                                   "combined_trade_build": False}
OPTION_CHOICES: dict[str, tuple[Any, ...]] = {
    "board": ("beginner", "variable"),
    "bank_shortage": ("nobody", "single-gets-rest"),
    "combined_trade_build": (False, True),
}


def new_state(data: dict[str, Any]) -> State:
    """The state right after ``game_started``: empty board, full bank, first settlement to place."""
    players: int = data["players"]
    first: int = data["first_player"]
    order = [(first + i) % players for i in range(players)]
    node_harbour = [board.NO_HARBOUR] * board.NODE_COUNT
    for harbour in data["harbours"]:
        kind = GENERIC_HARBOUR if harbour["kind"] == "3:1" else RESOURCE_INDEX[harbour["kind"]]
        for node in harbour["nodes"]:
            node_harbour[node] = kind
    hex_resource = [board.TERRAIN_RESOURCE[t] for t in data["terrains"]]
    number_hexes: list[list[int]] = [[] for _ in range(13)]
    for hex_id, number in enumerate(data["numbers"]):
        if number is not None:
            number_hexes[number].append(hex_id)
    return {
        "players": players,
        "options": dict(data["options"]),
        "terrains": list(data["terrains"]),
        "numbers": list(data["numbers"]),
        "hex_resource": hex_resource,
        "number_hexes": number_hexes,
        "harbours": [dict(h, nodes=list(h["nodes"])) for h in data["harbours"]],
        "node_harbour": node_harbour,
        "robber": data["robber"],
        "first_player": first,
        "phase": SETUP,
        "setup_order": order + order[::-1],
        "setup_index": 0,
        "setup_node": EMPTY,          # settlement just placed in set-up, awaiting its road
        "current": first,
        "turn": 0,
        "rolled": False,
        "dice": None,
        "node_owner": [EMPTY] * board.NODE_COUNT,
        "node_level": [0] * board.NODE_COUNT,   # 1 settlement, 2 city (= cards it produces)
        "edge_owner": [EMPTY] * board.EDGE_COUNT,
        "roads": [[] for _ in range(players)],  # edge ids per seat, for cheap road queries
        "hands": [[0] * 5 for _ in range(players)],
        "bank": [RESOURCES_PER_TYPE] * 5,
        "rates": [[4] * 5 for _ in range(players)],   # best bank trade rate per resource
        "pieces": [list(PIECES) for _ in range(players)],
        "dev_deck": list(DEV_DECK),
        "dev_hand": [[0] * 5 for _ in range(players)],
        "dev_new": [[0] * 5 for _ in range(players)],  # bought this turn: not playable yet
        "dev_played": False,
        "knights": [0] * players,
        "road_length": [0] * players,
        "longest_road": None,
        "largest_army": None,
        "discards": [0] * players,    # cards each seat still has to discard after a 7
        "free_roads": 0,
        "offer": None,
        "offers": 0,                  # domestic offers made this turn (public; bots offer once)
        "built": False,               # the player on turn built or bought this turn: trading is over
        "winner": None,
    }


def can_afford(hand: Hand, cost: tuple[int, ...]) -> bool:
    return all(map(ge, hand, cost))


def victory_points(state: State, seat: int, hidden: bool = True) -> int:
    """Points of ``seat``; ``hidden=False`` leaves out the victory point cards nobody else sees."""
    pieces = state["pieces"][seat]
    points = (PIECES[SETTLEMENT] - pieces[SETTLEMENT]) + 2 * (PIECES[CITY] - pieces[CITY])
    if state["longest_road"] == seat:
        points += 2
    if state["largest_army"] == seat:
        points += 2
    if hidden:
        points += state["dev_hand"][seat][VICTORY_POINT]
    return points


def may_trade(state: State, rules: Ruleset) -> bool:
    """Whether the player on turn may still trade (domestic or maritime) this turn.

    The almanac orders the turn: "après qu'il ait terminé tous ses échanges, ce joueur peut
    maintenant construire", so the first road, settlement, city or development card bought
    closes trading for the turn.  Playing a development card does not: a card may be played
    "n'importe quand durant le tour", and its free roads or cards are no purchase.  The option
    ``combined_trade_build`` (the later editions' rule) lets trading and building mix.
    (``options.get``: games started before the option existed replay with the default.)
    Engine 2 (``rules``) let trading and building mix.
    """
    return not rules.trade_before_building or not state["built"] \
        or bool(state["options"].get("combined_trade_build", False))


def resume_phase(state: State) -> str:
    """Where the turn goes back to after the robber or free roads: before or after the roll."""
    return MAIN if state["rolled"] else ROLL


def to_act(state: State) -> list[int]:
    phase = state["phase"]
    if phase == OVER:
        return []
    if phase == DISCARD:
        return [seat for seat, count in enumerate(state["discards"]) if count]
    if phase == TRADE:
        # Everybody else answers first; then the offerer confirms an acceptance or withdraws.
        # (Keeping the offerer out until then means a bot offerer never races the answers.)
        pending = [seat for seat, answer in enumerate(state["offer"]["answers"]) if answer is None]
        return pending or [state["offer"]["seat"]]
    return [state["current"]]


def settlement_allowed_at(state: State, node: int) -> bool:
    """The distance rule: the intersection and its neighbours are all free."""
    owner = state["node_owner"]
    return owner[node] == EMPTY and all(owner[other] == EMPTY for _, other in NODE_LINKS[node])


def road_connects(state: State, seat: int, edge: int) -> bool:
    """Whether ``edge`` touches the seat's network: its building, or its road through a node
    that no opponent occupies (an opponent's settlement cuts the network)."""
    node_owner, edge_owner = state["node_owner"], state["edge_owner"]
    for node in board.EDGE_NODES[edge]:
        owner = node_owner[node]
        if owner == seat:
            return True
        if owner == EMPTY and any(edge_owner[e] == seat for e, _ in NODE_LINKS[node] if e != edge):
            return True
    return False


def road_spots(state: State, seat: int) -> list[int]:
    """Free edges where ``seat`` may build a road (after set-up every building touches a road)."""
    node_owner, edge_owner = state["node_owner"], state["edge_owner"]
    spots: set[int] = set()
    for road in state["roads"][seat]:
        for node in board.EDGE_NODES[road]:
            owner = node_owner[node]
            if owner != EMPTY and owner != seat:
                continue
            for edge, _ in NODE_LINKS[node]:
                if edge_owner[edge] == EMPTY:
                    spots.add(edge)
    return sorted(spots)


def settlement_spots(state: State, seat: int) -> list[int]:
    """Free intersections on the seat's roads that respect the distance rule."""
    spots: set[int] = set()
    for road in state["roads"][seat]:
        for node in board.EDGE_NODES[road]:
            if settlement_allowed_at(state, node):
                spots.add(node)
    return sorted(spots)


def longest_road(state: State, seat: int) -> int:
    """Length of the seat's longest simple trail of roads; an opponent's building stops it."""
    edge_owner, node_owner = state["edge_owner"], state["node_owner"]
    roads = state["roads"][seat]
    if not roads:
        return 0

    def blocked(node: int) -> bool:
        owner = node_owner[node]
        return owner != EMPTY and owner != seat

    def walk(node: int, used: int) -> int:
        if used and blocked(node):
            return 0
        best = 0
        for edge, other in NODE_LINKS[node]:
            bit = 1 << edge
            if edge_owner[edge] == seat and not used & bit:
                length = 1 + walk(other, used | bit)
                if length > best:
                    best = length
        return best

    degree: dict[int, int] = {}
    for road in roads:
        for node in board.EDGE_NODES[road]:
            degree[node] = degree.get(node, 0) + 1
    # A longest trail can always be made to start at a dead end, a fork or a cut node: from a
    # free node with two roads it could be stretched by the other road, or rotated if it is a
    # closed loop through a fork.  Only a component that is a bare loop has no such node; then
    # the loop itself is the trail.
    starts = [node for node, count in degree.items() if count != 2 or blocked(node)]
    best = max((walk(node, 0) for node in starts), default=0)
    for loop in _components_without(roads, set(starts)):
        best = max(best, loop)
    return best


def _components_without(roads: list[int], starts: set[int]) -> list[int]:
    """Edge counts of the road components that contain none of ``starts``."""
    unseen = set(roads)
    sizes = []
    while unseen:
        stack, size, touches_start = [unseen.pop()], 0, False
        while stack:
            edge = stack.pop()
            size += 1
            for node in board.EDGE_NODES[edge]:
                touches_start = touches_start or node in starts
                for other_edge in board.NODE_EDGES[node]:
                    if other_edge in unseen:
                        unseen.discard(other_edge)
                        stack.append(other_edge)
        if not touches_start:
            sizes.append(size)
    return sizes


def resource_counts(counts: dict[str, int]) -> Hand:
    """``{"ore": 2}`` -> ``[0, 0, 0, 0, 2]``."""
    hand = [0] * 5
    for name, count in counts.items():
        hand[RESOURCE_INDEX[name]] += count
    return hand


def resource_names(hand: Hand) -> dict[str, int]:
    """``[0, 0, 0, 0, 2]`` -> ``{"ore": 2}`` (zeros left out)."""
    return {RESOURCES[i]: count for i, count in enumerate(hand) if count}
