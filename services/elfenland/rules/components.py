"""Cards, counters, the transport table and what each edition puts in the box."""
from __future__ import annotations

from dataclasses import dataclass

TRANSPORTS = ("giant_pig", "elfcycle", "magic_cloud", "unicorn", "troll_wagon", "dragon")
RAFT = "raft"
WIZARD = "wizard"
GOLD_CARD = "gold"
# Cards a hand may hold.  Gold cards never stay in a hand: they go to the gold pile at once.
HAND_CARDS = (*TRANSPORTS, RAFT, WIZARD)
# Cards any caravan or boatmen crew accepts ("trois cartes Voyage quelconques"): wizards are
# magic, not travel cards, so they are not counted (NOTES.md).
TRAVEL_CARDS = (*TRANSPORTS, RAFT)

OBSTACLE = "obstacle"          # the tree ("embuche"): land roads beside a transport counter
SEA_MONSTER = "sea_monster"    # Elfengold: rivers and lakes
GOLD_COUNTER = "gold"          # doubles the value of the next town reached by that road
DOUBLE_SPELL = "double"        # lets a second transport counter join the road
EXCHANGE_SPELL = "exchange"    # swaps the transport counters of two roads
COUNTER_KINDS = (*TRANSPORTS, OBSTACLE, SEA_MONSTER, GOLD_COUNTER, DOUBLE_SPELL, EXCHANGE_SPELL)

# Cards needed per transport and land terrain; a missing terrain means "cannot go there".
# Two cards = the transport is slow there.
TRANSPORT_COST: dict[str, dict[str, int]] = {
    "giant_pig": {"plain": 1, "forest": 1},
    "elfcycle": {"plain": 1, "forest": 1, "mountain": 2},
    "magic_cloud": {"plain": 2, "forest": 2, "mountain": 1},
    "unicorn": {"forest": 1, "mountain": 1, "desert": 2},
    "troll_wagon": {"plain": 1, "forest": 2, "mountain": 2, "desert": 2},
    "dragon": {"plain": 1, "forest": 2, "mountain": 1, "desert": 1},
}

EDITIONS = ("elfenland", "elfengold", "elfenroads")


@dataclass(frozen=True)
class Edition:
    """The box contents and procedure of one edition."""
    name: str
    rounds: int
    gold_economy: bool                  # Elfengold procedure: coins, card draft, auctions
    cards: dict[str, int]               # travel cards, gold cards excluded
    gold_cards: int
    counters: dict[str, int]            # the counter pile / bag
    personal_obstacles: bool            # Elfenland: each player owns one obstacle
    caravans: bool                      # caravans on land roads and boatmen on Mare Nebulae
    start_cards: int                    # Elfengold: 5 cards dealt at the start
    start_coins: int
    counters_kept: int                  # counters a player may keep from one round to the next
    cards_kept: int | None              # cards a player may keep (None: no limit)


def _each(kinds: tuple[str, ...], count: int) -> dict[str, int]:
    return {k: count for k in kinds}


_GOLD_TRANSPORT_COUNTERS = {"dragon": 4, "magic_cloud": 4, "unicorn": 5, "elfcycle": 8,
                            "troll_wagon": 8, "giant_pig": 9}

EDITION_RULES: dict[str, Edition] = {
    "elfenland": Edition(
        name="elfenland", rounds=4, gold_economy=False,
        cards={**_each(TRANSPORTS, 10), RAFT: 12}, gold_cards=0,
        counters=_each(TRANSPORTS, 8), personal_obstacles=True, caravans=True,
        start_cards=0, start_coins=0, counters_kept=1, cards_kept=4),
    "elfengold": Edition(
        name="elfengold", rounds=6, gold_economy=True,
        cards=_each(TRAVEL_CARDS, 9), gold_cards=7,
        counters={**_GOLD_TRANSPORT_COUNTERS, GOLD_COUNTER: 2, DOUBLE_SPELL: 2, EXCHANGE_SPELL: 2,
                  OBSTACLE: 2, SEA_MONSTER: 2},
        personal_obstacles=False, caravans=True,
        start_cards=5, start_coins=12, counters_kept=2, cards_kept=None),
    # "Jouer a Elfenroads sur le plateau d'Elfenland": Elfengold's procedure with Elfenroads'
    # 70 cards and 42 counters, no spells, no sea monsters, no caravans, no boatmen.
    "elfenroads": Edition(
        name="elfenroads", rounds=6, gold_economy=True,
        cards=_each(TRAVEL_CARDS, 9), gold_cards=7,
        counters={**_GOLD_TRANSPORT_COUNTERS, GOLD_COUNTER: 2, OBSTACLE: 2},
        personal_obstacles=False, caravans=False,
        start_cards=5, start_coins=12, counters_kept=2, cards_kept=None),
}

WIZARD_CARDS = 6
FACE_UP_COUNTERS = 5     # Elfenland phase 3
COUNTER_PICKS = 3        # Elfenland phase 3: counters each player takes
FACE_UP_CARDS = 3        # Elfengold phase 1
CARD_PICKS = 3           # Elfengold phase 1: cards each player takes
GOLD_CARD_COINS = 3
INCOME = 2
ELFENLAND_HAND = 8
GOLD_FINISH_CARDS = 2    # Elfengold: cards drawn instead of the towns' gold
WIZARD_OBSTACLE_COINS = 1
WIZARD_FLIGHT_COINS = 3
BOATMEN_CARDS = 3
