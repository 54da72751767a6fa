"""Bots for Elfenland: ``random`` and ``planner``."""
from __future__ import annotations

from shared.engine import Strategy, random_strategy

STRATEGIES: dict[str, Strategy] = {"random": random_strategy}
