"""The shape of Catan's view (``views.view``), as the renderers read it and the API serves it.

One type serves every viewer: a spectator's view and a seat's have the same keys, and what a
viewer may not see is null (another seat's hand, its development cards, its points with the
hidden victory point cards).  services/catan/schemas.py documents the same shape for the API;
tests/catan/test_view_types.py holds random games' views to this one.
"""
from __future__ import annotations

from typing import Literal, NotRequired, TypedDict, get_args

Resource = Literal["brick", "lumber", "wool", "grain", "ore"]
RESOURCE_NAMES: tuple[Resource, ...] = get_args(Resource)      # in the bank's order (board.RESOURCES)
DevCard = Literal["knight", "victory_point", "road_building", "year_of_plenty", "monopoly"]
Terrain = Literal["hills", "forest", "pasture", "fields", "mountains", "desert"]
HarbourKind = Literal["3:1", "brick", "lumber", "wool", "grain", "ore"]
Phase = Literal["setup", "roll", "discard", "robber", "main", "road_building", "trade", "over"]
# A node's building: 0 none, 1 a settlement, 2 a city.
Level = Literal[0, 1, 2]

# Cards by name; a name with none is left out.
Cards = dict[Resource, int]
DevCards = dict[DevCard, int]


class ByResource(TypedDict):
    """A number for every resource (the bank's cards, a seat's bank trade rates)."""

    brick: int
    lumber: int
    wool: int
    grain: int
    ore: int


class Options(TypedDict):
    board: Literal["beginner", "variable"]
    bank_shortage: Literal["nobody", "single-gets-rest"]
    # Engine 3's option: a game of engine 2 has none (its players trade and build in any order).
    combined_trade_build: NotRequired[bool]


class Harbour(TypedDict):
    kind: HarbourKind
    nodes: list[int]          # the two coastal nodes it serves


class Board(TypedDict):
    terrains: list[Terrain]   # by hex, 0..18
    numbers: list[int | None]  # the number token by hex; null on the desert
    harbours: list[Harbour]
    robber: int               # the hex the robber stands on
    hex_nodes: list[list[int]]   # the six corner nodes of each hex
    edge_nodes: list[list[int]]  # the two nodes of each edge


class Pieces(TypedDict):
    roads: int
    settlements: int
    cities: int


class Counter(TypedDict):
    """A counter-offer, from the countering seat's side."""

    give: Cards
    get: Cards


class Offer(TypedDict):
    seat: int                 # the offering seat
    give: Cards
    get: Cards
    answers: list[bool | None]      # by seat: accepted, declined, or null (not yet, or the offerer)
    counters: list[Counter | None]  # by seat: its counter-offer, or null


class SeatView(TypedDict):
    """One seat as the viewer sees it: the hands are null but for the viewer's own (and once over)."""

    seat: int
    resource_count: int
    resources: Cards | None
    dev_card_count: int
    dev_cards: DevCards | None
    dev_cards_new: DevCards | None  # bought this turn, not playable yet (counted in dev_cards too)
    knights_played: int
    road_length: int
    public_points: int
    points: int | None        # with the hidden victory point cards
    pieces_left: Pieces
    pieces_placed: Pieces
    trade_rates: ByResource   # cards given per card in a bank trade
    must_discard: int


class CatanView(TypedDict):
    players: int
    options: Options
    you: int | None           # the viewer's seat; null for a spectator
    board: Board
    node_owner: list[int]     # by node: the seat, or -1
    node_level: list[Level]
    edge_owner: list[int]     # by edge: the seat, or -1
    phase: Phase
    to_act: list[int]
    current: int
    turn: int
    first_player: int
    setup_node: int           # the set-up settlement awaiting its road, or -1
    dice: list[int] | None    # the two dice of this turn's roll; null before the first roll
    rolled: bool
    dev_card_played: bool
    free_roads: int
    bank: ByResource
    dev_deck_size: int
    longest_road: int | None
    largest_army: int | None
    offer: Offer | None
    trading_open: bool
    offers_this_turn: int
    winner: int | None
    seats: list[SeatView]
