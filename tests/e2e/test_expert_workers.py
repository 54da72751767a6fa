"""A bot that thinks does not stall the others: with two workers (``make run``'s default), the
turns of a greedy game keep coming while an expert thinks for 2 s a move in another game
(real gunicorn, real RQ workers, real Redis)."""
from __future__ import annotations

from typing import Any

import requests

from tests.e2e.conftest import wait_until

BUDGET_MS = 2000


def test_an_expert_thinking_leaves_other_games_turns_to_the_other_worker(make_stack: Any) -> None:
    stack = make_stack("catan")
    base = stack.start_web()
    stack.start_worker("worker-1")
    stack.start_worker("worker-2")
    thinker = requests.post(f"{base}/games", json={"players": [{"name": f"e{i}", "bot": "expert"} for i in range(3)],
                                                   "bot_budget_ms": BUDGET_MS}, timeout=10).json()
    # Let a worker take the expert's first turn before the quick game starts.
    wait_until(lambda: requests.get(f"{base}/games/{thinker['id']}", timeout=5).json()["version"] >= 2,
               "the expert's first move", timeout=30)
    quick = requests.post(f"{base}/games", json={"players": [{"name": f"g{i}", "bot": "greedy"} for i in range(3)]},
                          timeout=10).json()
    wait_until(lambda: requests.get(f"{base}/games/{quick['id']}", timeout=5).json()["status"] == "finished",
               "the greedy game to finish", timeout=120)
    events = requests.get(f"{base}/games/{quick['id']}/events", params={"limit": 1000}, timeout=10).json()["events"]
    assert len(events) > 100
    gaps = [(later["at"] - earlier["at"]) / 1000 for earlier, later in zip(events, events[1:])]
    # One worker would alternate between the games: the greedy game would wait out whole 2 s thoughts.
    assert max(gaps) < BUDGET_MS / 1000 * 0.75, sorted(gaps)[-5:]
    # ... while the experts were thinking all along: their game is still in its opening, where every
    # move is a choice, and each of its moves took the whole budget.
    wait_until(lambda: requests.get(f"{base}/games/{thinker['id']}", timeout=5).json()["version"] >= 4,
               "two more expert moves", timeout=30)
    thought = requests.get(f"{base}/games/{thinker['id']}/events", timeout=10).json()["events"]
    assert requests.get(f"{base}/games/{thinker['id']}", timeout=5).json()["status"] == "active"
    moves = [event["at"] for event in thought if event.get("cause", {}).get("kind") == "move"]
    assert len(moves) >= 3
    assert all((later - earlier) / 1000 >= BUDGET_MS / 1000 * 0.9 for earlier, later in zip(moves, moves[1:])), moves
