"""The multiset helpers the rules and the bots lean on, against their plain definitions."""
from __future__ import annotations

import random
from collections import Counter
from itertools import combinations_with_replacement

from services.elfenland.rules.multiset import contains, submultisets

KINDS = ("boar", "cloud", "dragon", "elfcycle", "raft", "troll", "unicorn", "wizard")


def plain_submultisets(items: dict[str, int], count: int, kinds: tuple[str, ...] | None) -> list[tuple[str, ...]]:
    allowed = sorted(k for k in items if items[k] > 0 and (kinds is None or k in kinds))
    return [combo for combo in combinations_with_replacement(allowed, count)
            if all(items[k] >= n for k, n in Counter(combo).items())]


def test_submultisets_are_every_affordable_choice_in_lexicographic_order() -> None:
    rng = random.Random(3)
    for _ in range(600):
        hand = {k: rng.randint(0, 4) for k in rng.sample(KINDS, rng.randint(0, len(KINDS)))}
        count = rng.randint(0, 5)
        among = tuple(rng.sample(KINDS, 5)) if rng.random() < 0.5 else None
        assert submultisets(hand, count, among) == plain_submultisets(hand, count, among)


def test_contains_counts_each_kind() -> None:
    rng = random.Random(4)
    for _ in range(600):
        hand = {k: rng.randint(0, 3) for k in rng.sample(KINDS, 4)}
        wanted = [rng.choice(KINDS) for _ in range(rng.randint(0, 5))]
        assert contains(hand, wanted) == all(hand.get(k, 0) >= n for k, n in Counter(wanted).items())
