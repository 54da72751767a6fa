"""What a bot of ``seat`` gets instead of the state (``Game.conceal``): the others' secrets resampled.

Hidden from a seat (see views.py): the other seats' resource cards and development cards (their
counts are public) and the development deck's composition (its size is public).  The other
seats' resource cards are pooled and dealt back with the same counts; their development cards
and the deck are pooled and dealt back likewise, each seat's cards bought this turn (not
playable yet) taken from the cards dealt to it.  The bank, the board and the seat's own cards
stay as they are.
"""
from __future__ import annotations

import random

from shared.game.engine import deal_back

from services.catan.rules.state import OVER, State

Hand = list[int]


def _cards(counts: Hand) -> list[int]:
    return [kind for kind, n in enumerate(counts) for _ in range(n)]


def _tally(cards: list[int]) -> Hand:
    hand = [0] * 5
    for kind in cards:
        hand[kind] += 1
    return hand


def conceal(state: State, seat: int, rng: random.Random) -> State:
    """Resample in place (``state`` is the caller's copy) and return it."""
    if state["phase"] == OVER:
        return state                     # every card is turned up
    others = [s for s in range(state["players"]) if s != seat]
    hands = deal_back((card for s in others for card in _cards(state["hands"][s])),
                      [sum(state["hands"][s]) for s in others], rng)
    for s, cards in zip(others, hands):
        state["hands"][s] = _tally(cards)
    # The deck last: the others' piles come first, each seat's new cards first in its pile.
    piles = deal_back([card for s in others for card in _cards(state["dev_hand"][s])]
                      + _cards(state["dev_deck"]),
                      [sum(state["dev_hand"][s]) for s in others] + [sum(state["dev_deck"])], rng)
    for s, cards in zip(others, piles):
        state["dev_hand"][s] = _tally(cards)
        state["dev_new"][s] = _tally(cards[:sum(state["dev_new"][s])])
    state["dev_deck"] = _tally(piles[-1])
    return state
