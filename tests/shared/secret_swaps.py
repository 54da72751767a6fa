"""Pairs of states for the fair-bot tests: the same state with the secrets hidden from one seat
moved around, written apart from the games' ``conceal`` (random swaps of single items between
hidden places, not a pooled deal).

``swapped(name, state, seat, rng)`` returns a copy where items hidden from ``seat`` changed places
(other hands, decks, face-down counters, home towns, ...) and every public count stayed: what
``seat`` sees is the same, what it cannot see may differ.
"""
from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import Any

State = dict[str, Any]
Piles = list[list[Any]]


def swap_walk(piles: Piles, rng: random.Random, fits: Callable[[Any, int], bool] = lambda item, pile: True,
              swaps: int = 40) -> Piles:
    """Random swaps of two items anywhere in ``piles`` (an item only into a pile it ``fits``)."""
    places = [(p, i) for p, pile in enumerate(piles) for i in range(len(pile))]
    if len(places) < 2:
        return piles
    for _ in range(swaps):
        (p, i), (q, j) = rng.sample(places, 2)
        a, b = piles[p][i], piles[q][j]
        if fits(a, q) and fits(b, p):
            piles[p][i], piles[q][j] = b, a
    return piles


def _listed(counts: dict[str, int] | list[int]) -> list[Any]:
    pairs = enumerate(counts) if isinstance(counts, list) else counts.items()
    return [kind for kind, n in pairs for _ in range(n)]


def _counted(items: list[Any], keys: list[Any]) -> dict[Any, int]:
    counts = {key: 0 for key in keys}
    for item in items:
        counts[item] = counts.get(item, 0) + 1
    return counts


def _catan(state: State, seat: int, rng: random.Random) -> State:
    others = [s for s in range(state["players"]) if s != seat]
    hands = swap_walk([_listed(state["hands"][s]) for s in others], rng)
    for s, cards in zip(others, hands):
        state["hands"][s] = [cards.count(k) for k in range(5)]
    # A seat's cards bought this turn sit first in its pile: whatever lands there is new.
    dev = [[*_listed(state["dev_new"][s]),
            *_listed([h - n for h, n in zip(state["dev_hand"][s], state["dev_new"][s])])] for s in others]
    piles = swap_walk(dev + [_listed(state["dev_deck"])], rng)
    for s, cards, new in zip(others, piles, [sum(state["dev_new"][s]) for s in others]):
        state["dev_hand"][s] = [cards.count(k) for k in range(5)]
        state["dev_new"][s] = [cards[:new].count(k) for k in range(5)]
    state["dev_deck"] = [piles[-1].count(k) for k in range(5)]
    return state


def _elasund(state: State, seat: int, rng: random.Random) -> State:
    holders = [hand for s, hand in enumerate(state["hands"]) if s != seat]
    if "pool" in state["pending"]:
        holders.append(state["pending"]["pool"])
    colours = list(state["influence_deck"])
    piles = [["$"] * h["gold"] + _listed(h["influence"]) for h in holders]
    piles += [_listed(state["influence_deck"]), _listed(state["influence_discard"])]
    n = len(holders)
    swap_walk(piles, rng, fits=lambda item, pile: item != "$" or pile < n)
    for holder, cards in zip(holders, piles):
        holder["gold"] = cards.count("$")
        holder["influence"] = _counted([c for c in cards if c != "$"], colours)
    state["influence_deck"], state["influence_discard"] = _counted(piles[n], colours), _counted(piles[n + 1], colours)
    church = state["church"]
    sees_drawn = seat == state["current"] and state["phase"] == "church_choice"
    if church["drawn"] is not None and not sees_drawn:
        church["drawn"], church["pool"] = swap_walk([list(church["drawn"]), list(church["pool"])], rng)
    if church["bottom"] is not None and church["bottom_seat"] != seat:
        church["bottom"] = rng.choice(church["pool"])
    rng.shuffle(church["pool"])
    return state


def _elfenland(state: State, seat: int, rng: random.Random) -> State:
    from services.elfenland.rules.board import HOME_TOWN_CARDS
    from services.elfenland.rules.state import rules_of
    others = [s for i, s in enumerate(state["seats"]) if i != seat]
    piles = [_listed(s["hand"]) for s in others] + [_listed(state["deck"])]
    secret_discard = not rules_of(state).gold_economy
    if secret_discard:
        piles.append(_listed(state["discard"]))
    swap_walk(piles, rng)
    for s, cards in zip(others, piles):
        s["hand"] = {k: n for k, n in _counted(cards, []).items() if n}
    state["deck"] = {k: n for k, n in _counted(piles[len(others)], []).items() if n}
    if secret_discard:
        state["discard"] = {k: n for k, n in _counted(piles[-1], []).items() if n}
    # Face-down and drawn counters of the others and the bag.
    down = [[c["kind"] for c in s["counters"] if c["hidden"]] for s in others]
    counters = swap_walk(down + [list(s["pending"]) for s in others] + [_listed(state["bag"])], rng)
    for s, kinds, drawn in zip(others, counters, counters[len(others):]):
        kinds = list(kinds)
        s["counters"] = [c if not c["hidden"] else {"kind": kinds.pop(), "hidden": True} for c in s["counters"]]
        rng.shuffle(s["counters"])
        s["pending"] = drawn
    state["bag"] = {k: n for k, n in _counted(counters[-1], []).items() if n}
    # Home towns: the others' cards and the ones nobody holds.
    own = state["seats"][seat]["home"]
    dealt = [s for s in others if s["home"] is not None]
    spare = [t for t in HOME_TOWN_CARDS if t != own and all(t != s["home"] for s in dealt)]
    homes = swap_walk([[s["home"] for s in dealt], spare], rng)
    for s, town in zip(dealt, homes[0]):
        s["home"] = town
    return state


def _elastium(state: State, seat: int, rng: random.Random) -> State:
    others = [s for s in range(state["players"]) if s != seat]
    piles = [_listed(state["hands"][s]) for s in others] + [list(state["deck"])]
    piles += [list(deck) for deck in state["own_decks"]]
    swap_walk(piles, rng)
    for s, cards in zip(others, piles):
        state["hands"][s] = _counted(cards, list(state["hands"][s]))
    state["deck"] = piles[len(others)]
    state["own_decks"] = piles[len(others) + 1:]
    return state


SWAPPERS: dict[str, Callable[[State, int, random.Random], State]] = {
    "catan": _catan, "elasund": _elasund, "elfenland": _elfenland, "elastium": _elastium,
}


def swapped(name: str, state: State, seat: int, rng: random.Random) -> State:
    return SWAPPERS[name](copy.deepcopy(state), seat, rng)
