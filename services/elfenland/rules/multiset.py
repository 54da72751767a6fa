"""Hands, decks and the counter bag are multisets: ``{kind: count}`` dicts (JSON-friendly).

Nothing stores an order, so no view can leak a deck order: a draw picks at random from the
multiset in ``decide`` and the event records what was drawn.
"""
from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable
from itertools import combinations_with_replacement

Multiset = dict[str, int]


def size(items: Multiset) -> int:
    return sum(items.values())


def add(items: Multiset, kinds: Iterable[str]) -> None:
    for kind in kinds:
        items[kind] = items.get(kind, 0) + 1


def remove(items: Multiset, kinds: Iterable[str]) -> None:
    for kind in kinds:
        left = items.get(kind, 0) - 1
        if left > 0:
            items[kind] = left
        else:
            items.pop(kind, None)


def contains(items: Multiset, kinds: Iterable[str]) -> bool:
    return all(items.get(kind, 0) >= n for kind, n in Counter(kinds).items())


def draw(items: Multiset, count: int, rng: random.Random) -> list[str]:
    """``count`` kinds drawn at random without replacement (the multiset is left untouched)."""
    pool = [kind for kind in sorted(items) for _ in range(items[kind])]
    return rng.sample(pool, min(count, len(pool)))


def submultisets(items: Multiset, count: int, kinds: Iterable[str] | None = None) -> list[tuple[str, ...]]:
    """Every distinct choice of ``count`` items (sorted tuples of kinds), optionally among ``kinds``."""
    allowed = sorted(k for k in items if items[k] > 0 and (kinds is None or k in kinds))
    if sum(items[k] for k in allowed) < count:
        return []
    found = []
    for combo in combinations_with_replacement(allowed, count):
        if all(items[k] >= n for k, n in Counter(combo).items()):
            found.append(combo)
    return found
