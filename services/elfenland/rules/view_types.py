"""The shape of Elfenland's view (``views.view``): what the renderers read and the API serves.

One type serves every viewer: a seat's view and the spectator's have the same keys, and what the
viewer may not see is null (another seat's hand, home town and drawn counters) or masked (a
hidden counter's kind).  The marshmallow ``View`` in services/elfenland/schemas.py documents the
same shape for the API; tests/elfenland/test_view_types.py holds played games' views to this one.
"""
from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

Edition = Literal["elfenland", "elfengold", "elfenroads"]
Phase = Literal["secret_counter", "draft_counters", "draft_cards", "reveal_counter", "placement", "movement",
                "auction", "keep", "setup", "round_start", "over"]
Transport = Literal["giant_pig", "elfcycle", "magic_cloud", "unicorn", "troll_wagon", "dragon"]
# A counter in a hand, the bag or face up: the transports, the obstacles and Elfengold's gold and spells.
CounterKind = Literal["giant_pig", "elfcycle", "magic_cloud", "unicorn", "troll_wagon", "dragon",
                      "obstacle", "sea_monster", "gold", "double", "exchange"]
Obstacle = Literal["obstacle", "sea_monster"]
# A card a hand may hold (gold cards go to the gold pile the moment they are drawn).
HandCard = Literal["giant_pig", "elfcycle", "magic_cloud", "unicorn", "troll_wagon", "dragon", "raft", "wizard"]
# A card of the deck: a hand's cards and Elfengold's gold cards (which the discard pile holds too).
DeckCard = Literal["giant_pig", "elfcycle", "magic_cloud", "unicorn", "troll_wagon", "dragon", "raft", "wizard",
                   "gold"]
Town = str


class Options(TypedDict):
    """The options in force, defaults filled in."""

    edition: Edition
    lake_rules: Literal["author", "german"]
    home_towns: bool
    caravan_cards: Literal[3, 5]
    wizards: bool
    random_gold_values: bool


class Counter(TypedDict):
    """A transport counter a seat holds; another seat's hidden one is masked (``kind`` null)."""

    kind: CounterKind | None
    hidden: bool


class RoadSlot(TypedDict):
    """What lies on a road (the board lists only roads with something on them)."""

    transports: list[Transport]
    obstacle: Obstacle | None
    gold: bool
    double: bool


class Auction(TypedDict):
    """Elfengold's auction: the lots left, the highest bid and its bidder, whose turn it is."""

    lots: list[CounterKind]
    high: int
    bidder: int | None
    passed: list[int]
    turn: int


class SeatView(TypedDict):
    """One seat as the viewer sees it: ``hand``, ``home`` and ``pending`` are null for another
    seat while the game runs (``hand_size`` and ``pending_size`` are always shown)."""

    hand: dict[HandCard, int] | None
    counters: list[Counter]
    obstacles: int
    town: Town
    visited: list[Town]
    home: Town | None
    coins: int
    pending: list[CounterKind] | None
    earned: int
    moved: bool
    hand_size: int
    pending_size: int


class Result(TypedDict):
    """The end of the game: winners, each seat's score and what decided it."""

    winners: list[int]
    scores: list[int]
    towns: list[int]
    home_towns: list[Town | None]
    home_distances: list[int]
    tiebreak: Literal["coins", "cards"]
    tiebreak_values: list[int]
    ended_early: bool


class ElfenlandView(TypedDict):
    """The whole view, a seat's (``viewer`` its number) or the spectator's (``viewer`` null)."""

    edition: Edition
    options: Options
    players: int
    rounds: int
    round: int
    first: int
    phase: Phase
    step: int
    passes: int
    discarding: bool
    redraw: bool
    gold_values: dict[Town, int]
    face_up_cards: list[DeckCard]
    gold_pile: int
    face_up_counters: list[CounterKind]
    board: dict[str, RoadSlot]
    auction: Auction | None
    seats: list[SeatView]
    result: Result | None
    deck_size: int
    bag_size: int
    discard_size: int
    viewer: int | None
    to_act: list[int]
    # Elfengold and Elfenroads only: their discard pile is public (Elfenland's is secret).
    discard: NotRequired[dict[DeckCard, int]]
