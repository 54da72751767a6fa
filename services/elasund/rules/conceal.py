"""What a bot of ``seat`` gets instead of the state (``Game.conceal``): the others' secrets resampled.

Hidden from a seat (see views.py): the other seats' hands (gold and influence colours; their
sizes and the gold in the bank are public), the colours in the influence deck and the discard
pile (sizes only), what was discarded face down to the pirates (its size only), the two church
tiles the first builder drew (unless the seat is that builder) and which tile of the stack was
put under it (unless the seat put it there).  Influence cards are pooled over all of those and
gold over the hands and the pirates' pool; the deck and the discard pile get influence only.
"""
from __future__ import annotations

import random
from typing import Any

from shared.game.engine import deal_back

from services.elasund.rules import board
from services.elasund.rules.state import CHURCH_CHOICE, State

GOLD = "gold"      # the gold cards' place among the influence colours while they are pooled


def _cards(counts: dict[str, int]) -> list[str]:
    return [colour for colour, n in counts.items() for _ in range(n)]


def _counts(cards: list[str]) -> dict[str, int]:
    counts = {colour: 0 for colour in board.INFLUENCE_COLOURS}
    for colour in cards:
        counts[colour] += 1
    return counts


def conceal(state: State, seat: int, rng: random.Random) -> State:
    """Resample in place (``state`` is the caller's copy) and return it."""
    if state["winner"] is not None:
        return state
    _cards_and_gold(state, seat, rng)
    _church(state["church"], seat, seat == state["current"] and state["phase"] == CHURCH_CHOICE, rng)
    return state


def _cards_and_gold(state: State, seat: int, rng: random.Random) -> None:
    # Holders of gold and influence: the other hands and the pirates' face-down pool.
    holders: list[dict[str, Any]] = [hand for s, hand in enumerate(state["hands"]) if s != seat]
    if "pool" in state["pending"]:
        holders.append(state["pending"]["pool"])
    influence = [card for holder in holders for card in _cards(holder["influence"])]
    influence += _cards(state["influence_deck"]) + _cards(state["influence_discard"])
    gold = sum(holder["gold"] for holder in holders)
    sizes = [holder["gold"] + sum(holder["influence"].values()) for holder in holders]
    deck_n, discard_n = sum(state["influence_deck"].values()), sum(state["influence_discard"].values())
    deck, discard, rest = deal_back(influence, [deck_n, discard_n, len(influence) - deck_n - discard_n], rng)
    state["influence_deck"], state["influence_discard"] = _counts(deck), _counts(discard)
    for holder, cards in zip(holders, deal_back(rest + [GOLD] * gold, sizes, rng)):
        holder["gold"] = cards.count(GOLD)
        holder["influence"] = _counts([card for card in cards if card != GOLD])


def _church(church: dict[str, Any], seat: int, sees_drawn: bool, rng: random.Random) -> None:
    drawn_hidden = church["drawn"] is not None and not sees_drawn
    bottom = church["bottom"]
    bottom_seen = bottom is not None and church["bottom_seat"] == seat
    hidden = [t for t in church["pool"] if not (bottom_seen and t == bottom)]
    drawn = list(church["drawn"]) if drawn_hidden else []
    new_drawn, pool = deal_back(hidden + drawn, [len(drawn), len(hidden)], rng)
    if drawn_hidden:
        church["drawn"] = new_drawn
    church["pool"] = pool + ([bottom] if bottom_seen else [])
    if bottom is not None and not bottom_seen:
        church["bottom"] = rng.choice(sorted(pool))
