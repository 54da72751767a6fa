"""Small statistics for the bot benchmarks: win-rate intervals and Elo ratings."""
from __future__ import annotations

import math


def wilson_interval(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval for a proportion ``wins / n`` (``z=1.96``: 95%).

    Unlike the normal approximation it stays inside [0, 1] and is not zero-width at 0 or n wins,
    which matters for the few dozen games a ladder takes.  A shared win counts as its share
    (``wins`` may be fractional).  ``n == 0`` says nothing: (0, 1).
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


def elo_gap(win_rate: float, opponents: int) -> float:
    """The Elo difference between one bot and ``opponents`` equal bots it won ``win_rate`` of its
    games against: a multi-player game read as the first place of a Plackett-Luce model, where a
    bot of strength g wins with probability g / (sum of the table's strengths), and a strength
    ratio r is 400 log10(r) Elo (with one opponent, the usual Elo formula).

    Rates of 0 or 1 say only "much weaker" or "much stronger": they are clamped to a finite gap.
    """
    rate = min(max(win_rate, 0.005), 0.995)
    return 400 * math.log10(opponents * rate / (1 - rate))
