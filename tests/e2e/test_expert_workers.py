"""A bot that thinks does not stall the others: search bots' turns have a queue and workers of
their own, so the turns of a greedy game keep coming while experts think for 2 s a move in other
games (real gunicorn, real RQ workers, real Redis)."""
from __future__ import annotations

from typing import Any

import redis
import requests
from rq import Queue
from rq.registry import StartedJobRegistry

from shared.play.bots import thinking_queue_name
from tests.e2e.conftest import wait_until

BUDGET_MS = 2000


def version(base: str, gid: str) -> int:
    return int(requests.get(f"{base}/games/{gid}", timeout=5).json()["version"])


def test_an_expert_thinking_leaves_other_games_turns_to_the_other_worker(make_stack: Any) -> None:
    stack = make_stack("catan")
    base = stack.start_web()
    stack.start_worker("worker-1")
    stack.start_thinker()
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


def play_until_a_bot_acts(base: str, gid: str, token: str) -> int:
    """Seat 0's moves (the first legal one each time) until a bot is to act; the version then."""
    auth = {"Authorization": f"Bearer {token}"}
    while True:
        view = requests.get(f"{base}/games/{gid}", headers=auth, timeout=5).json()
        if 0 not in view["to_act"]:
            return int(view["version"])
        move = requests.get(f"{base}/games/{gid}/legal-moves", headers=auth, timeout=5).json()["moves"][0]
        assert requests.post(f"{base}/games/{gid}/moves", json=move, headers=auth, timeout=10).status_code == 201


def test_a_medium_bot_answers_while_eight_expert_games_think(make_stack: Any) -> None:
    stack = make_stack("catan")
    base = stack.start_web()
    stack.start_worker("worker")
    stack.start_thinker()
    conn = redis.Redis.from_url(stack.env["RQ_REDIS_URL"])
    thinking = Queue(thinking_queue_name("catan"), connection=conn)
    mine = requests.post(f"{base}/games", timeout=10, json={"players": [
        {"name": "me"}, {"name": "g1", "bot": "greedy"}, {"name": "g2", "bot": "greedy"}]}).json()
    gid, token = mine["id"], mine["players"][0]["token"]
    # The first reply warms the worker up (it imports the game with its first job).
    at = play_until_a_bot_acts(base, gid, token)
    wait_until(lambda: version(base, gid) > at, "the greedy bot's first reply", timeout=60)
    experts = [requests.post(f"{base}/games", timeout=10, json={
        "players": [{"name": f"e{i}", "bot": "expert"} for i in range(3)], "bot_budget_ms": BUDGET_MS}).json()["id"]
        for _ in range(8)]
    wait_until(lambda: StartedJobRegistry(queue=thinking).count > 0 and thinking.count > 0,
               "the experts to think, and more of their turns to wait", timeout=60)
    before = {e: version(base, e) for e in experts}
    at = play_until_a_bot_acts(base, gid, token)
    wait_until(lambda: version(base, gid) > at, "the greedy bot's reply", timeout=60)
    moved = [e for e in experts if version(base, e) > before[e]]
    # On one queue the greedy turn would wait behind every expert turn queued before it (one per
    # game): here it is answered while the experts are still busy, most games still waiting.
    assert len(moved) < len(experts) // 2, moved
    assert StartedJobRegistry(queue=thinking).count > 0 or thinking.count > 0
    # And the experts do play, on their own workers.
    wait_until(lambda: sum(version(base, e) > before[e] for e in experts) >= 2, "the experts' moves", timeout=60)
