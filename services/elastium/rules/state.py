"""The game state (a JSON-compatible dict) and small read-only questions about it.

Cards are colour names; a hand is ``{colour: count}`` because cards of one colour are
interchangeable.  Decks are lists whose *last* element is the top card.
"""
from __future__ import annotations

from typing import Any

from services.elastium.rules.board import COLOURS, Board, board

State = dict[str, Any]

CARDS_PER_COLOUR = 10
ENERGY_SUPPLY = 50
ACTIONS_PER_TURN = 2
EXTRA_ACTION_COST = 3
ENERGY_PER_POINT = 3
MARKET_SIZE = 5
OPENING_HAND = (4, 5, 6, 7)     # by seat order
CURSED_DRAW = 3
TAKE_CARDS = 2

# phases of the seat to act
ACTIONS = "actions"    # has actions left
EXTRA = "extra"        # spent both actions, may buy a third one with energy or end the turn
BONUS = "bonus"        # Labyrinth: owes itself a bonus card for an artefact (not an action)


def new_state(scenario: str, players: int, max_rounds: int) -> State:
    return {
        "scenario": scenario,
        "players": players,
        "max_rounds": max_rounds,
        "round": 1,
        "turn_seat": 0,
        "actions_left": ACTIONS_PER_TURN,
        "extra_used": False,
        "pending_bonus_cards": 0,
        "deck": [],
        "discard": [],
        "market": [],
        "hands": [empty_hand() for _ in range(players)],
        "own_decks": [[] for _ in range(players)],       # Cursed Triangle only
        "own_discards": [[] for _ in range(players)],    # Cursed Triangle only
        "score": [0] * players,
        "energy": [0] * players,
        "energy_supply": ENERGY_SUPPLY,
        "bands": [],                                      # [{"seat", "key"}] in placement order
        "bands_used": [0] * players,
        "peg_owners": {},                                 # peg -> seats, in arrival order
        "walls": [[] for _ in range(players)],            # line keys of each seat's bands
        "explored": {},                                   # segment -> first seat to explore it
        "enclosed": [[] for _ in range(players)],         # segments each seat has enclosed
        "collected": {},                                  # segment or line -> seat
        "penalised": [[] for _ in range(players)],        # Engraved: empty segments charged
        "images_completed": [],
        "edge_reached": [],                               # Jungle: seats in order of arrival
        "artefacts": [{} for _ in range(players)],        # Labyrinth: artefact -> count
        "chains": [[] for _ in range(players)],           # Labyrinth: pegs, tail first
        "chain_heads": [[] for _ in range(players)],      # Labyrinth: pegs the next band may start at
        "end_triggered": None,
        "result": None,
    }


def empty_hand() -> dict[str, int]:
    return {colour: 0 for colour in COLOURS}


def board_of(state: State) -> Board:
    return board(state["scenario"], state["players"])


def is_cursed(state: State) -> bool:
    return state["scenario"] == "cursed-triangle"


def phase(state: State) -> str:
    if state["pending_bonus_cards"]:
        return BONUS
    if state["actions_left"] > 0:
        return ACTIONS
    return EXTRA


def can_buy_action(state: State, seat: int) -> bool:
    return not state["extra_used"] and state["energy"][seat] >= EXTRA_ACTION_COST


def hand_size(hand: dict[str, int]) -> int:
    return sum(hand.values())


def own_pegs(state: State, seat: int) -> set[str]:
    return {peg for peg, owners in state["peg_owners"].items() if seat in owners}


def bands_of(state: State, seat: int) -> set[str]:
    return {band["key"] for band in state["bands"] if band["seat"] == seat}


def cards_available(state: State, seat: int) -> int:
    """Cards the seat could still draw (deck plus the discards a reshuffle would bring back)."""
    if is_cursed(state):
        return len(state["own_decks"][seat]) + len(state["own_discards"][seat])
    return len(state["deck"]) + len(state["discard"])


def bands_left(state: State, seat: int) -> int | None:
    """Labyrinth: each player has 18 bands; elsewhere bands are unlimited."""
    limit = board_of(state).rules.get("bands_per_player")
    return None if limit is None else limit - state["bands_used"][seat]
