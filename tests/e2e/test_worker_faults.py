"""Bot workers, the sweeper and the runner under faults: a Redis restart, a worker killed, a
job stranded by RQ between dequeue and start.  Real gunicorn, workers and Redis processes."""
from __future__ import annotations

import json
import signal
import time
from pathlib import Path
from typing import Any

import pytest
import redis
import requests
from rq.exceptions import NoSuchJobError
from rq.job import Job, JobStatus
from rq.serializers import JSONSerializer

from shared.log import platform_events as pe
from shared.ops import redis_server
from shared.play.bots import TAKEN_GRACE_SECONDS, job_id, queue_name
from tests.e2e.conftest import Stack, wait_until
from tests.e2e.test_clocks_e2e import live_scheduler
from tests.e2e.test_reliability import assert_log_is_whole, create, full_log

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


def start_sweeper(stack: Stack) -> None:
    stack.start_sweeper()


def assert_each_bot_turn_once(base: str, gid: str, store: redis.Redis[bytes]) -> None:
    """The log is whole and audits, and every move in it is one bot job's, recorded once under
    that job's idempotency key (``<seat>:platform/bot/<version>``), at the version it was played at."""
    events = assert_log_is_whole(base, gid)
    moves = [e for e in events if e.get("cause", {}).get("kind") == "move"]
    idem = {k.decode(): v.decode() for k, v in store.hgetall("{g:" + gid + "}:idem").items()}
    assert len(idem) == len(moves), (idem, [m["seq"] for m in moves])
    for move in moves:
        seat, version = move["cause"]["seat"], move["seq"] - 1
        recorded = idem.get(f"{seat}:{pe.move_key('bot', version)}") \
            or idem.get(f"{seat}:{pe.move_key('bot', version, fallback=True)}")
        assert recorded is not None and int(recorded.split("|")[2]) == move["seq"], (move, recorded)


def running_job(conn: redis.Redis[bytes], gid: str) -> Job | None:
    """The bot job playing the race's current turn, once a worker has started it."""
    meta = {k.decode(): v.decode() for k, v in conn.hgetall("{g:" + gid + "}:meta").items()}
    try:
        job = Job.fetch(job_id("race", gid, int(meta["version"]), json.loads(meta["to_act"])[0]),
                        connection=conn, serializer=JSONSerializer)
    except NoSuchJobError:
        return None
    return job if job.get_status() == JobStatus.STARTED and job.last_heartbeat else None


def test_workers_and_sweeper_ride_out_a_redis_restart(tmp_path: Path, stack_env: dict[str, str]) -> None:
    proc, url, port = redis_server.start_server(data_dir=str(tmp_path), appendonly=True)
    stack = Stack("race", {**stack_env, "REDIS_URL": url, "RQ_REDIS_URL": url, "SLOW_BOT_SECONDS": "0.02",
                           "SWEEP_INTERVAL_SECONDS": "0.5", "BOT_STUCK_SECONDS": "3"})
    try:
        base = stack.start_web()
        players = [{"name": "a", "bot": "slow"}, {"name": "b", "bot": "slow"}]
        games = [requests.post(f"{base}/games", json={"players": players, "options": {"target": 4}},
                               timeout=5).json()["id"] for _ in range(60)]
        workers = [stack.start_worker("worker-1"), stack.start_worker("worker-2")]
        start_sweeper(stack)
        store = redis.Redis.from_url(url)
        # Three setup events per game, then about four moves: strike a third of the way in.
        wait_until(lambda: sum(int(store.hget("{g:" + g + "}:meta", "version") or 0) for g in games) > 60 * 4.5,
                   "the bots to be playing")
        assert not all(store.hget("{g:" + g + "}:meta", "status") == b"finished" for g in games)
        proc.send_signal(signal.SIGKILL)            # mid-play: Redis is gone for four seconds
        proc.wait(5)
        time.sleep(4)
        proc, _, _ = redis_server.start_server(port=port, data_dir=str(tmp_path), appendonly=True)
        # A scheduler runs again (its lock, kept by the AOF, is refreshed or taken over).
        wait_until(lambda: live_scheduler(store) is not None, "a scheduler after the restart", timeout=30)
        finished = lambda: all(store.hget("{g:" + g + "}:meta", "status") == b"finished" for g in games)  # noqa: E731
        wait_until(finished, "every game to finish after the restart", timeout=90)
        for name, process in stack.processes.items():
            assert process.poll() is None, f"{name} died across the Redis restart"
        assert all(w.poll() is None for w in workers)
        for gid in games:
            assert_each_bot_turn_once(base, gid, store)
    finally:
        stack.stop()
        proc.terminate()
        proc.wait(5)


def test_worker_killed_mid_turn_in_an_all_bot_game(make_stack: Any, redis_url: str) -> None:
    stack: Stack = make_stack("race")
    stack.env.update({"SLOW_BOT_SECONDS": "1", "SWEEP_INTERVAL_SECONDS": "0.5", "BOT_STUCK_SECONDS": "2"})
    base = stack.start_web()
    game = create(base, [{"name": "a", "bot": "slow"}, {"name": "b", "bot": "slow"}], seed=21)
    gid = game["id"]
    worker = stack.start_worker()
    start_sweeper(stack)
    conn = redis.Redis.from_url(redis_url)
    wait_until(lambda: running_job(conn, gid) is not None, "the worker to be mid-turn")
    version = running_job(conn, gid).args[2]            # type: ignore[union-attr]
    worker.send_signal(signal.SIGKILL)
    worker.wait(5)
    assert int(conn.hget("{g:" + gid + "}:meta", "version")) == version, "killed after it moved"
    stack.start_worker("worker-2")
    wait_until(lambda: conn.hget("{g:" + gid + "}:meta", "status") == b"finished", "the game to finish", timeout=60)
    assert_each_bot_turn_once(base, gid, conn)


def test_job_stranded_between_dequeue_and_start_is_played_again(make_stack: Any, redis_url: str) -> None:
    """RQ 3 moves a dequeued job to ``<queue>:intermediate`` (still marked queued) before it
    starts it: a worker killed in between leaves it there, and no worker will ever take it."""
    stack: Stack = make_stack("race")
    stack.env.update({"SWEEP_INTERVAL_SECONDS": "0.5", "BOT_STUCK_SECONDS": "2"})
    base = stack.start_web()
    game = create(base, [{"name": "human"}, {"name": "bot", "bot": "roller"}], seed=8)
    gid, token = game["id"], game["players"][0]["token"]
    conn = redis.Redis.from_url(redis_url)
    queue_key = f"rq:queue:{queue_name('race')}"
    view = requests.get(f"{base}/games/{gid}", timeout=5).json()
    if view["to_act"] == [1]:                                   # the bot starts: its job is queued
        version = view["version"]
    else:
        version = requests.post(f"{base}/games/{gid}/moves", json={"type": "hold"},
                                headers={"Authorization": f"Bearer {token}"}, timeout=5).json()["version"]
    jid = job_id("race", gid, version, 1)
    # What a worker's dequeue does, and then the worker is gone.
    assert conn.lmove(queue_key, queue_key + ":intermediate", "LEFT", "RIGHT").decode() == jid
    assert conn.hget(f"rq:job:{jid}", "status") == b"queued"
    stack.start_worker()
    # Once the worker is blocked waiting on the (empty) queue, it has looked, and took nothing.
    wait_until(lambda: any("b" in client["flags"] for client in conn.client_list()), "the worker to wait on its queue")
    assert len(full_log(base, gid)) == version, "a worker took a job that was not in the queue"
    start_sweeper(stack)
    started = time.monotonic()
    wait_until(lambda: len(full_log(base, gid)) > version, "the stranded turn to be played", timeout=15)
    # BOT_STUCK_SECONDS, TAKEN_GRACE_SECONDS, two sweeps, and a margin for a busy machine.
    assert time.monotonic() - started < 2 + TAKEN_GRACE_SECONDS + 1 + 3
    assert conn.lpos(queue_key + ":intermediate", jid) is None
    assert_each_bot_turn_once_or_human(base, gid, conn)


def assert_each_bot_turn_once_or_human(base: str, gid: str, store: redis.Redis[bytes]) -> None:
    events = assert_log_is_whole(base, gid)
    bot_moves = [e for e in events if e.get("cause", {}).get("kind") == "move" and e["cause"]["seat"] == 1]
    idem = {k.decode() for k in store.hkeys("{g:" + gid + "}:idem") if k.startswith(b"1:")}
    assert len(idem) == len(bot_moves) and all(f"1:{pe.move_key('bot', m['seq'] - 1)}" in idem for m in bot_moves)
