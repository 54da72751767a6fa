"""A turn clock through real processes: gunicorn serving the toy game, a real RQ worker whose
scheduler keeps the deadlines, started only after the human's deadline has passed."""
from __future__ import annotations

import os
import signal
import time
from datetime import datetime, UTC
from typing import Any

import pytest
import redis
import requests
from rq.scheduler import SCHEDULER_KEY_TEMPLATE, RQScheduler
from rq.utils import utcparse

from shared.play.turn_clock import EXPIRED, iso_to_ms
from tests.e2e.conftest import Stack, wait_until
from tests.e2e.test_reliability import assert_log_is_whole

pytestmark = [pytest.mark.e2e]


def test_the_fallback_bot_plays_for_a_human_who_walked_away(make_stack: Any) -> None:
    stack: Stack = make_stack("race")
    base = stack.start_web()
    players = [{"name": "walked away"}, {"name": "bot", "bot": "roller"}]
    game = requests.post(f"{base}/games", json={"players": players, "turn_seconds": 1,
                                                "options": {"target": 30}}, timeout=5).json()
    gid, token = game["id"], game["players"][0]["token"]
    headers = {"Authorization": f"Bearer {token}"}
    view = requests.get(f"{base}/games/{gid}", headers=headers, timeout=5).json()
    assert view["to_act"] == [0] and view["turn_seconds"] == 1 and list(view["deadlines"]) == ["0"]
    # The deadline passes while no worker runs: RQ's scheduler of the worker that starts later
    # finds the overdue job in Redis and runs it.
    time.sleep(max(0.0, iso_to_ms(view["deadlines"]["0"]) / 1000 - time.time()) + 0.2)
    stack.start_worker()
    # The seat's own feed (a long-poll page) shows the clock running out and the bot's move for it.
    seen: list[dict[str, Any]] = []

    def expired_in_feed() -> bool:
        page = requests.get(f"{base}/games/{gid}/events", params={"after": len(seen), "wait": 2},
                            headers=headers, timeout=10).json()
        seen.extend(page["events"])
        return any(e["type"] == EXPIRED for e in seen)

    wait_until(expired_in_feed, "the clock of seat 0 to run out", timeout=15)
    expired = next(e for e in seen if e["type"] == EXPIRED)
    assert expired["data"]["seat"] == 0 and expired["data"]["bot"] == "roller"
    events = assert_log_is_whole(base, gid)
    played = events[expired["seq"]]              # the record right after it (seqs start at 1)
    assert played["cause"]["kind"] == "move" and played["cause"]["seat"] == 0
    # The view shows whose clock runs now: the human's whenever it is to act, never the bot's.
    after = requests.get(f"{base}/games/{gid}", timeout=5).json()
    assert after["version"] >= played["seq"]
    assert list(after["deadlines"]) == (["0"] if 0 in after["to_act"] else [])


def test_a_player_cannot_freeze_the_game_with_its_clocks_key(make_stack: Any) -> None:
    # The attack: seat 0 moves under keys the clock's fallback bot might use, then walks away.
    stack: Stack = make_stack("race")
    base = stack.start_web()
    stack.start_worker()
    players = [{"name": "walks away"}, {"name": "stays"}]
    game = requests.post(f"{base}/games", json={"players": players, "turn_seconds": 1}, timeout=5).json()
    gid, tokens = game["id"], [p["token"] for p in game["players"]]
    expiry = game["version"] + 2                  # hold, hold: seat 0's clock runs out then
    for turn, key in enumerate([f"bot-{expiry}", f"bot-{expiry}-fallback"]):
        moved = requests.post(f"{base}/games/{gid}/moves", json={"type": "hold"}, timeout=5,
                              headers={"Authorization": f"Bearer {tokens[turn]}", "Idempotency-Key": key})
        assert moved.status_code == 201, moved.text
    for key in (f"platform/clock/{expiry}", f"platform/clock/{expiry}/fallback"):
        refused = requests.post(f"{base}/games/{gid}/moves", json={"type": "hold"}, timeout=5,
                                headers={"Authorization": f"Bearer {tokens[0]}", "Idempotency-Key": key})
        assert (refused.status_code, refused.json()["reason"]) == (400, "malformed-request")
    # Seat 0's clock runs out: the fallback bot plays for it, and the game goes on.
    wait_until(lambda: requests.get(f"{base}/games/{gid}", timeout=5).json()["version"] > expiry + 1,
               "the clock's move for seat 0", timeout=30)
    events = assert_log_is_whole(base, gid)
    assert events[expiry]["type"] == EXPIRED and events[expiry]["data"]["seat"] == 0
    assert events[expiry + 1]["cause"]["seat"] == 0


def live_scheduler(conn: redis.Redis[bytes], queue: str = "bots-race") -> str | None:
    """The scheduler holding the queue's lock, if it beat in the last three seconds."""
    holder = conn.get(RQScheduler.get_locking_key(queue))
    beat = conn.hget(SCHEDULER_KEY_TEMPLATE % holder.decode(), "last_heartbeat") if holder else None
    if holder is None or beat is None:
        return None
    age = datetime.now(UTC) - utcparse(beat.decode()).replace(tzinfo=UTC)
    return holder.decode() if age.total_seconds() < 3 else None


def test_a_killed_workers_replacement_has_a_scheduler_within_seconds(make_stack: Any) -> None:
    stack: Stack = make_stack("race")
    base = stack.start_web()
    first = stack.start_worker("first")
    conn = redis.Redis.from_url(stack.env["REDIS_URL"])
    wait_until(lambda: live_scheduler(conn) is not None, "the first worker's scheduler", timeout=30)
    old = live_scheduler(conn)
    os.killpg(first.pid, signal.SIGKILL)         # the worker and its scheduler: neither lets go of the lock
    first.wait(5)
    assert conn.get(RQScheduler.get_locking_key("bots-race")) == (old or "").encode()
    stack.start_worker("second")
    # RQ's lock outlives its holder by a minute, and RQ's worker tries again every ten: here the
    # replacement takes the stale lock over.
    wait_until(lambda: live_scheduler(conn) not in (None, old), "the replacement's scheduler", timeout=30)
    players = [{"name": "walks away"}, {"name": "bot", "bot": "roller"}]
    game = requests.post(f"{base}/games", json={"players": players, "turn_seconds": 1}, timeout=5).json()
    wait_until(lambda: any(e["type"] == EXPIRED for e in assert_log_is_whole(base, game["id"])),
               "the clock to run out", timeout=15)
