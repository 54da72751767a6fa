"""Small statistics helpers for the benchmarks (win rates over a handful of games)."""
from __future__ import annotations

import math


def wilson_interval(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval for a proportion ``wins / n`` (``z=1.96``: 95%).

    Unlike the normal approximation it stays inside [0, 1] and is not zero-width at 0 or n wins,
    which matters for the 20-game samples the bot benchmarks take.  ``n == 0`` says nothing: (0, 1).
    """
    if n <= 0:
        return 0.0, 1.0
    if not 0 <= wins <= n:
        raise ValueError(f"wins must be within 0..{n}, got {wins}")
    p = wins / n
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)
