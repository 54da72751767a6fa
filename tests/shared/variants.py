"""One game per option set that changes what a state can look like, for every title.

Used by the tests that walk every intermediate state of random games (tests/shared/
test_every_state.py).  Player counts vary too; each entry is ``(players, options)``.
"""
from __future__ import annotations

from typing import Any

Variant = tuple[int, dict[str, Any]]

VARIANTS: dict[str, list[Variant]] = {
    "catan": [
        (3, {"board": "beginner"}),
        (4, {"board": "variable", "bank_shortage": "single-gets-rest"}),
    ],
    "elasund": [
        (2, {}),
        (3, {"shortage_payout": "after_discard", "walls_blue_first": False}),
        (4, {"trade_track_capacity": False, "hut_on_own_permit": True}),
    ],
    "elfenland": [
        (2, {}),
        (3, {"lake_rules": "german", "home_towns": False}),
        (4, {"caravan_cards": 5}),
        (3, {"edition": "elfengold"}),
        (4, {"edition": "elfengold", "wizards": True, "random_gold_values": True}),
        (3, {"edition": "elfenroads"}),
        (2, {"edition": "elfenroads", "home_towns": False, "lake_rules": "german", "random_gold_values": True}),
    ],
    "elastium": [
        (2, {"scenario": "jungle-temples"}),
        (3, {"scenario": "volcano"}),
        (2, {"scenario": "archipelago"}),
        (2, {"scenario": "engraved-plateau"}),
        (3, {"scenario": "fragile-ruins"}),
        (2, {"scenario": "cursed-triangle"}),
        (2, {"scenario": "two-deities"}),
        (3, {"scenario": "labyrinth"}),
    ],
}


def cases() -> list[tuple[str, int, dict[str, Any]]]:
    return [(name, players, options) for name, variants in VARIANTS.items() for players, options in variants]


def case_id(case: tuple[str, int, dict[str, Any]]) -> str:
    name, players, options = case
    return "-".join([name, f"{players}p", *(f"{k}={v}" for k, v in options.items())])
