"""What a bot of ``seat`` gets instead of the state (``Game.conceal``): the others' secrets resampled.

Hidden from a seat (see views.py): the cards in the other seats' hands (their counts are public),
the order and colours of the draw deck and of every Cursed Triangle deck (the seat's own
included: nobody sees those).  They are pooled and dealt back with the same counts, in a new
order.  The market, the discards and the seat's own hand are public to it and stay.
"""
from __future__ import annotations

import random

from shared.game.engine import deal_back

from services.elastium.rules.state import State, empty_hand


def conceal(state: State, seat: int, rng: random.Random) -> State:
    """Resample in place (``state`` is the caller's copy) and return it."""
    if state["result"] is not None:
        return state                     # every hand is turned up
    others = [s for s in range(state["players"]) if s != seat]
    hands = [[colour for colour, n in state["hands"][s].items() for _ in range(n)] for s in others]
    piles = [*hands, state["deck"], *state["own_decks"]]
    dealt = deal_back([card for pile in piles for card in pile], [len(pile) for pile in piles], rng)
    for s, cards in zip(others, dealt):
        hand = empty_hand()
        for colour in cards:
            hand[colour] = hand.get(colour, 0) + 1
        state["hands"][s] = hand
    state["deck"] = dealt[len(others)]
    state["own_decks"] = dealt[len(others) + 1:]
    return state
