"""Rule options: where the rule texts are silent or disagree (see NOTES.md)."""
from __future__ import annotations

from typing import Any

from shared.game.engine import InvalidOptions

# name -> (default, allowed values)
OPTIONS: dict[str, tuple[Any, tuple[Any, ...]]] = {
    # Proposed (official portal): the 4-gold east lane opens only once every 2-gold space is walled.
    "walls_blue_first": (True, (True, False)),
    # Proposed: the cube boxes printed beside trade-track spaces 3/5/7/9/11 (4/3/2/2/1) are capacities.
    "trade_track_capacity": (True, (True, False)),
    # Card shortage: "none" = English rules (nobody gets that card type this roll);
    # "after_discard" = French rules (after the half-discard refills the bank, income is paid).
    "shortage_payout": ("none", ("none", "after_discard")),
    # Displaced starter huts may not go on permits.  False: no permit at all (French text, the
    # brief); True: own permits allowed (English "other players' permits"), the permit goes home.
    "hut_on_own_permit": (False, (True, False)),
}


def default_options() -> dict[str, Any]:
    return {name: default for name, (default, _) in OPTIONS.items()}


def resolve_options(options: dict[str, Any] | None) -> dict[str, Any]:
    resolved = default_options()
    for name, value in (options or {}).items():
        if name not in OPTIONS:
            raise InvalidOptions(f"Unknown option {name!r}.")
        if value not in OPTIONS[name][1] or type(value) is not type(OPTIONS[name][0]):
            raise InvalidOptions(f"Option {name!r} must be one of {list(OPTIONS[name][1])}.")
        resolved[name] = value
    return resolved
