"""Hands, decks and the counter bag are multisets: ``{kind: count}`` dicts (JSON-friendly).

Nothing stores an order, so no view can leak a deck order: a draw picks at random from the
multiset in ``decide`` and the event records what was drawn.
"""
from __future__ import annotations

import random
from collections.abc import Iterable
from functools import lru_cache

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
    wanted: dict[str, int] = {}
    for kind in kinds:
        wanted[kind] = wanted.get(kind, 0) + 1
    return all(items.get(kind, 0) >= n for kind, n in wanted.items())


def draw(items: Multiset, count: int, rng: random.Random) -> list[str]:
    """``count`` kinds drawn at random without replacement (the multiset is left untouched)."""
    pool = [kind for kind in sorted(items) for _ in range(items[kind])]
    return rng.sample(pool, min(count, len(pool)))


def submultisets(items: Multiset, count: int, kinds: Iterable[str] | None = None) -> list[tuple[str, ...]]:
    """Every distinct choice of ``count`` items (sorted tuples of kinds), optionally among ``kinds``,
    in lexicographic order (``itertools.combinations_with_replacement``'s, without the choices
    the multiset cannot give: those are never made)."""
    allowed = tuple(sorted((k, n) for k, n in items.items() if n > 0 and (kinds is None or k in kinds)))
    return list(_choices(allowed, count))


@lru_cache(maxsize=8192)
def _choices(allowed: tuple[tuple[str, int], ...], count: int) -> tuple[tuple[str, ...], ...]:
    """submultisets of ``allowed`` ((kind, count) pairs, sorted), remembered: the bots' searches
    ask for the same hand's choices again and again (every caravan road out of a town)."""
    kinds = [kind for kind, _ in allowed]
    left = [n for _, n in allowed]
    if sum(left) < count:
        return ()
    found: list[tuple[str, ...]] = []
    chosen: list[str] = []

    def extend(start: int, missing: int) -> None:
        if missing == 0:
            found.append(tuple(chosen))
            return
        for i in range(start, len(kinds)):
            if left[i]:
                left[i] -= 1
                chosen.append(kinds[i])
                extend(i, missing - 1)
                chosen.pop()
                left[i] += 1

    extend(0, count)
    return tuple(found)
