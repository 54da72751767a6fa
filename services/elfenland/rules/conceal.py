"""What a bot of ``seat`` gets instead of the state (``Game.conceal``): the others' secrets resampled.

Hidden from a seat (see views.py): the other seats' travel cards (counts public), their
face-down counters (that they have some is public) and the Elfengold counters they drew but have
not revealed, their home towns, the deck and the counter bag (sizes only), and in Elfenland (not
Elfengold) the discard pile.  Cards are pooled over the other hands, the deck and a secret
discard pile; counters over the others' face-down and drawn counters and the bag; the others'
home towns are drawn again from the home-town cards the seat does not hold.
"""
from __future__ import annotations

import random
from typing import Any

from shared.game.engine import deal_back

from services.elfenland.rules.board import HOME_TOWN_CARDS
from services.elfenland.rules.multiset import Multiset, add, size
from services.elfenland.rules.state import State, rules_of


def _items(items: Multiset) -> list[str]:
    return [kind for kind, n in items.items() for _ in range(n)]


def _multiset(kinds: list[str]) -> Multiset:
    items: Multiset = {}
    add(items, kinds)
    return items


def conceal(state: State, seat: int, rng: random.Random) -> State:
    """Resample in place (``state`` is the caller's copy) and return it."""
    if state["result"] is not None:
        return state                     # every card is turned up
    others = [s for i, s in enumerate(state["seats"]) if i != seat]
    _cards(state, others, rng)
    _counters(state, others, rng)
    _homes(others, state["seats"][seat]["home"], rng)
    return state


def _cards(state: State, others: list[dict[str, Any]], rng: random.Random) -> None:
    piles: list[Multiset] = [s["hand"] for s in others] + [state["deck"]]
    secret_discard = not rules_of(state).gold_economy
    if secret_discard:
        piles.append(state["discard"])
    dealt = deal_back([card for pile in piles for card in _items(pile)], [size(pile) for pile in piles], rng)
    for s, cards in zip(others, dealt):
        s["hand"] = _multiset(cards)
    state["deck"] = _multiset(dealt[len(others)])
    if secret_discard:
        state["discard"] = _multiset(dealt[-1])


def _counters(state: State, others: list[dict[str, Any]], rng: random.Random) -> None:
    face_down = [[c["kind"] for c in s["counters"] if c["hidden"]] for s in others]
    pending = [s["pending"] for s in others]
    secret = [*face_down, *pending, _items(state["bag"])]
    dealt = deal_back([kind for kinds in secret for kind in kinds], [len(kinds) for kinds in secret], rng)
    for s, down, drawn in zip(others, dealt, dealt[len(others):]):
        # The order the others' counters are held in is no secret worth keeping: a canonical one.
        shown = sorted((c for c in s["counters"] if not c["hidden"]), key=lambda c: c["kind"])
        s["counters"] = shown + [{"kind": kind, "hidden": True} for kind in down]
        s["pending"] = drawn
    state["bag"] = _multiset(dealt[-1])


def _homes(others: list[dict[str, Any]], own: str | None, rng: random.Random) -> None:
    dealt = [s for s in others if s["home"] is not None]
    towns = rng.sample(sorted(town for town in HOME_TOWN_CARDS if town != own), len(dealt))
    for s, town in zip(dealt, towns):
        s["home"] = town
