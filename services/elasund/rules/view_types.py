"""The shape of Elasund's view (``views.view``): what a seat or a spectator is sent, as types.

One type serves both: a seat's view differs from a spectator's only in its own entry of
``hands`` (the full hand instead of its size) and in the church's ``bottom`` and ``drawn``.
The marshmallow ``View`` in services/elasund/schemas.py documents the same shape for the API;
tests/elasund/test_view_types.py holds the engine to these types over played games.
"""
from __future__ import annotations

from typing import Literal, NotRequired, TypedDict, final

Phase = Literal["roll", "ship_choice", "pirate_row", "discard", "build", "church_choice", "hut_rebuild",
                "permit", "special", "over"]
BuildingKind = Literal["worker_hut_small", "worker_hut_large", "house", "workshop", "well", "market", "tavern",
                       "shop", "large"]
# The buildings a seat builds from its own supply (starter huts and neutral ones are not in it).
PlayerBuildingKind = Literal["house", "workshop"]
StarterKind = Literal["worker_hut_small", "worker_hut_large"]


class Influence(TypedDict):
    """Influence cards by colour."""

    red: int
    blue: int
    green: int


class OptionsInForce(TypedDict):
    walls_blue_first: bool
    trade_track_capacity: bool
    shortage_payout: Literal["none", "after_discard"]
    hut_on_own_permit: bool


class Supply(TypedDict):
    """What a seat has left to place: permit values, its own buildings, and how many walls it built."""

    permits: list[int]
    buildings: list[PlayerBuildingKind]
    walls_built: int


class Stock(TypedDict):
    """The neutral buildings left to build, by kind."""

    well: int
    market: int
    tavern: int
    shop: int
    large: int


class Building(TypedDict):
    id: int
    kind: BuildingKind
    seat: int
    col: int                  # its north-west square
    row: int                  # a printed row label
    cubes: list[int]          # the rows its victory cubes stand in
    trade_points: int


class Wall(TypedDict):
    seat: int
    tile: int
    tower: bool               # a watch tower: it carries one of the seat's victory cubes


# Final: a hand is one or the other, never a subtype with more keys, so ``"cards" in hand`` tells them apart.
@final
class OwnHand(TypedDict):
    """The viewer's own hand, in full."""

    gold: int
    influence: Influence


@final
class HiddenHand(TypedDict):
    """Another seat's hand (every hand, to a spectator): only how many cards it holds."""

    cards: int


Hand = OwnHand | HiddenHand


class NoPause(TypedDict):
    """No decision pending (a turn's ordinary phases, and the end)."""


class RowChoice(TypedDict):
    """``ship_choice`` and ``pirate_row``: the rows the roller may pick."""

    rows: list[int]


class PiratesDiscard(TypedDict):
    """``discard`` after the pirates: what each seat still owes (by seat number as a string) and how
    many cards lie face down in the pirates' pool (gone once the pool is paid out)."""

    reason: Literal["pirates"]
    owed: dict[str, int]
    pool_size: NotRequired[int]


class Income(TypedDict):
    gold: int
    influence: int


class ShortageDiscard(TypedDict):
    """``discard`` in an influence shortage: each seat's half still owed, and the income the roll was
    due (paid after the discards under the ``after_discard`` option)."""

    reason: Literal["influence_shortage"]
    owed: dict[str, int]
    due: list[Income]


class DisplacedHut(TypedDict):
    seat: int
    kind: StarterKind


class HutRebuild(TypedDict):
    """``hut_rebuild``: the displaced starter huts, the first one's owner to rebuild it now."""

    queue: list[DisplacedHut]


Pending = NoPause | RowChoice | PiratesDiscard | ShortageDiscard | HutRebuild


class ChurchTile(TypedDict):
    tile: int
    seat: int | None          # None: its builder had no victory cube left to put on it


class Church(TypedDict):
    tiles: dict[str, ChurchTile]          # by square, "col,row"
    origin: tuple[int, int] | None        # the church's 3x3 area's north-west square, fixed by its first tile
    stack: int
    # To the seat that put it under the stack.
    bottom: NotRequired[int]
    # To the seat on turn while it chooses a church tile: the tiles it drew.
    drawn: NotRequired[list[int]]


class ElasundView(TypedDict):
    """A seat's or a spectator's view of the game."""

    players: int
    options: OptionsInForce
    current: int
    turn: int
    phase: Phase
    ship: int | None                      # a row label; None before the first roll
    pirates: bool
    dice: tuple[int, int] | None          # None until the turn's roll
    builds: int                           # builds made this turn
    supply: list[Supply]                  # by seat
    stock: Stock
    buildings: list[Building]
    permits: dict[str, tuple[int, int]]   # "col,row" -> (seat, value)
    walls: dict[str, Wall]                # by wall space ("B2", "R10", "T5"...)
    trade: list[int]                      # each seat's disk on the trade track
    track_cubes: dict[str, list[int]]     # trade-track space -> the seats whose cubes stand beside it
    winner: int | None
    hands: list[Hand]                     # by seat
    cubes_on_board: list[int]             # by seat: the score
    gold_bank: int
    influence_deck: int
    influence_discard: int
    pending: Pending
    church: Church
    to_act: list[int]
