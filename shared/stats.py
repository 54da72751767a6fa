"""Small statistics for the bot ladders: win-rate intervals and Elo ratings."""
from __future__ import annotations

import math


def wilson_interval(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a win rate (95% with the default ``z``); (0, 1) without games.

    Better than the normal approximation for small samples and rates near 0 or 1, which is where
    a ladder of a few dozen games lives.  A shared win counts as its share (``wins`` may be fractional).
    """
    if games <= 0:
        return 0.0, 1.0
    rate = wins / games
    denominator = 1 + z * z / games
    centre = (rate + z * z / (2 * games)) / denominator
    half = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def elo_gap(win_rate: float, opponents: int) -> float:
    """The Elo difference between one bot and ``opponents`` equal bots it won ``win_rate`` of its
    games against (a multi-player game read as the first place of a Plackett-Luce model, where a
    bot of strength g wins with probability g / (sum of strengths); 2 players: the usual Elo).

    Rates of 0 or 1 say only "much weaker" or "much stronger": they are clamped to a finite gap.
    """
    rate = min(max(win_rate, 0.005), 0.995)
    strength_ratio = opponents * rate / (1 - rate)
    return 400 * math.log10(strength_ratio)
