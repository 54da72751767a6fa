"""Graceful stop (SIGTERM), against real processes: gunicorn finishes what is in flight, stops
taking requests, ends open feeds with a reconnect hint; a bot worker finishes its turn."""
from __future__ import annotations

import signal
import threading
from pathlib import Path
from typing import Any

import pytest
import redis
import requests
from tests.e2e.conftest import Stack, auth, feed_subscribers, wait_until
from tests.e2e.test_feed import open_stream, sse_messages
from tests.e2e.test_reliability import create, full_log
from tests.e2e.test_worker_faults import assert_each_bot_turn_once, running_job, start_sweeper

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


def test_sigterm_finishes_in_flight_requests_and_ends_feeds_with_a_hint(make_stack: Any, tmp_path: Path) -> None:
    stack: Stack = make_stack("race")
    stack.env["SLOW_HOLD_SECONDS"] = "4"          # a "hold" takes this long to decide
    marks = tmp_path / "holds"
    stack.env["SLOW_HOLD_MARKS"] = str(marks)     # ... and says when it starts to
    base = stack.start_web()
    game = create(base, [{"name": "a"}, {"name": "b"}], seed=3)
    gid = game["id"]
    view = requests.get(f"{base}/games/{gid}", timeout=5).json()
    version, token = view["version"], game["players"][view["to_act"][0]]["token"]

    stream = open_stream(base, gid)
    messages = sse_messages(stream)
    assert "retry" in next(messages)                          # the stream's opening hint
    assert [int(next(messages)["id"]) for _ in range(version)] == list(range(1, version + 1))
    answers: dict[str, requests.Response | BaseException] = {}

    def call(name: str, method: str, path: str, **kwargs: Any) -> None:
        try:
            answers[name] = requests.request(method, base + path, timeout=30, **kwargs)
        except requests.RequestException as exc:
            answers[name] = exc

    # The long-poll waits on a game of its own: its subscription shows when it is in the server.
    quiet = create(base, [{"name": "a"}, {"name": "b"}], seed=4)["id"]
    quiet_version = requests.get(f"{base}/games/{quiet}", timeout=5).json()["version"]
    calls = [threading.Thread(target=call, args=("poll", "GET", f"/games/{quiet}/events"),
                              kwargs={"params": {"after": quiet_version, "wait": 30}}),
             threading.Thread(target=call, args=("move", "POST", f"/games/{gid}/moves"),
                              kwargs={"json": {"type": "hold"}, "headers": auth(token)})]
    for thread in calls:
        thread.start()
    # Both requests have reached the server: the move sleeps in decide, the poll waits on the news.
    wait_until(lambda: marks.exists() and marks.read_text().startswith("hold"), "the move to be deciding")
    wait_until(lambda: feed_subscribers(stack.env["REDIS_URL"], "race", quiet) > 0, "the poll to wait")

    stack.processes["web"].send_signal(signal.SIGTERM)
    # The open stream ends with the hint (not cut at the graceful timeout), then closes.
    rest = list(messages)
    assert rest and rest[-1].get("retry") and "stopping" in " ".join(rest[-1].get("comment", [])), rest
    # New connections are refused once the listener is closed (the balancer goes elsewhere).
    wait_until(lambda: _refused(base), "gunicorn to stop accepting")
    for thread in calls:
        thread.join(20)
    poll, move = answers["poll"], answers["move"]
    assert isinstance(poll, requests.Response) and poll.status_code == 200, poll     # answered what it had
    assert isinstance(move, requests.Response) and move.status_code == 201, move     # finished, not cut
    assert stack.processes["web"].wait(15) == 0

    # The move is in the log once, and a fresh instance serves the game on.
    fresh = stack.start_web("web-2")
    events = full_log(fresh, gid)
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    assert len(events) == move.json()["version"] and [e["type"] for e in events][-1] == "turn_passed"


def _refused(base: str) -> bool:
    try:
        requests.get(base + "/healthz", timeout=2)
    except requests.ConnectionError:
        return True
    return False


def test_sigterm_lets_a_worker_finish_its_bot_turn_exactly_once(make_stack: Any, redis_url: str) -> None:
    stack: Stack = make_stack("race")
    stack.env.update({"SLOW_BOT_SECONDS": "1.5", "SWEEP_INTERVAL_SECONDS": "0.5", "BOT_STUCK_SECONDS": "2"})
    base = stack.start_web()
    gid = create(base, [{"name": "a", "bot": "slow"}, {"name": "b", "bot": "slow"}], seed=21)["id"]
    worker = stack.start_worker()
    start_sweeper(stack)          # it must not play the turn again behind the stopping worker
    conn = redis.Redis.from_url(redis_url)
    wait_until(lambda: running_job(conn, gid) is not None, "the worker to be mid-turn")
    version = running_job(conn, gid).args[2]            # type: ignore[union-attr]
    worker.send_signal(signal.SIGTERM)
    assert worker.wait(20) == 0
    assert int(conn.hget("{g:" + gid + "}:meta", "version")) > version, "the worker left its turn unplayed"
    stack.start_worker("worker-2")
    wait_until(lambda: conn.hget("{g:" + gid + "}:meta", "status") == b"finished", "the game to finish", timeout=60)
    assert_each_bot_turn_once(base, gid, conn)


def test_sigterm_stops_the_sweeper_between_passes(make_stack: Any) -> None:
    """It has a handler: as PID 1 in a container a process without one would ignore SIGTERM."""
    stack: Stack = make_stack("race")
    stack.env["SWEEP_INTERVAL_SECONDS"] = "30"
    start_sweeper(stack)
    sweeper = stack.processes["sweeper"]
    wait_until(lambda: _catches(sweeper.pid, signal.SIGTERM), "the sweeper to be running")
    sweeper.send_signal(signal.SIGTERM)
    assert sweeper.wait(10) == 0                  # not the 30 s to its next pass, nor killed by the signal


def _catches(pid: int, sig: int) -> bool:
    """The process has a handler for ``sig`` (its SigCgt mask in /proc)."""
    status = Path(f"/proc/{pid}/status").read_text()
    mask = int(next(line.split()[1] for line in status.splitlines() if line.startswith("SigCgt:")), 16)
    return bool(mask >> (sig - 1) & 1)
