"""Reliability under faults and races, with real gunicorn, RQ workers and Redis processes."""
from __future__ import annotations

import os
import signal
import subprocess
import threading
import time
import uuid
from pathlib import Path
from typing import Any

import pytest
import requests

from tests.e2e.conftest import Stack, wait_until

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def create(base: str, players: list[dict[str, Any]], seed: int | None = None) -> dict[str, Any]:
    resp = requests.post(f"{base}/games", json={"players": players, "seed": seed}, timeout=5)
    assert resp.status_code == 201, resp.text
    return resp.json()


def full_log(base: str, gid: str) -> list[dict[str, Any]]:
    resp = requests.get(f"{base}/games/{gid}/events", params={"limit": 1000}, timeout=5)
    assert resp.status_code == 200, resp.text
    return resp.json()["events"]


def assert_log_is_whole(base: str, gid: str) -> list[dict[str, Any]]:
    events = full_log(base, gid)
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1)), "gap or duplicate in the log"
    audit = requests.get(f"{base}/games/{gid}/audit", timeout=10).json()
    assert audit["ok"], audit
    return events


def test_fifty_clients_same_move_same_version_one_wins(make_stack: Any) -> None:
    stack: Stack = make_stack("race")
    stack.env["WEB_CONCURRENCY"] = "2"
    base = stack.start_web(workers=2)
    game = create(base, [{"name": "a"}, {"name": "b"}], seed=4)
    gid = game["id"]
    view = requests.get(f"{base}/games/{gid}", timeout=5).json()
    token = game["players"][view["to_act"][0]]["token"]
    barrier = threading.Barrier(50)
    statuses: list[int] = []
    reasons: list[str] = []

    def client() -> None:
        session = requests.Session()
        barrier.wait()
        resp = session.post(f"{base}/games/{gid}/moves", json={"type": "hold"},
                            headers={**auth(token), "If-Match": f'"{view["version"]}"'}, timeout=30)
        statuses.append(resp.status_code)
        if resp.status_code != 201:
            reasons.append(resp.json()["reason"])

    threads = [threading.Thread(target=client) for _ in range(50)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert statuses.count(201) == 1 and statuses.count(409) == 49, statuses
    assert set(reasons) == {"stale-version"}
    events = assert_log_is_whole(base, gid)
    assert sum(1 for e in events if e["type"] == "turn_passed") == 1


def test_worker_killed_mid_bot_turn_the_turn_still_happens_once(make_stack: Any, tmp_path: Path) -> None:
    stack: Stack = make_stack("race")
    marks = tmp_path / "bot-marks"
    stack.env.update({"SLOW_BOT_SECONDS": "1.5", "SWEEP_INTERVAL_SECONDS": "0.5", "BOT_STUCK_SECONDS": "2",
                      "SLOW_BOT_MARKS": str(marks)})
    base = stack.start_web()
    worker = stack.start_worker()
    game = create(base, [{"name": "human"}, {"name": "slowbot", "bot": "slow"}], seed=8)
    gid, token = game["id"], game["players"][0]["token"]
    wait_until(lambda: requests.get(f"{base}/games/{gid}", timeout=5).json()["to_act"] == [0], "the human's turn")
    def lines() -> list[str]:
        return marks.read_text().splitlines() if marks.exists() else []

    before = lines()                                                   # the bot's earlier turns, ended
    moved = requests.post(f"{base}/games/{gid}/moves", json={"type": "hold"}, headers=auth(token), timeout=5)
    assert moved.status_code == 201, moved.text
    version = moved.json()["version"]
    import redis
    from rq.job import Job, JobStatus
    from rq.registry import ScheduledJobRegistry, StartedJobRegistry
    from rq.serializers import JSONSerializer

    from shared.play.bots import BotQueue, job_id, queue_name
    conn = redis.Redis.from_url(stack.env["RQ_REDIS_URL"])
    jid = job_id("race", gid, version, 1)

    def this_turn() -> list[str]:
        return lines()[len(before):]

    wait_until(lambda: this_turn() == [f"start {worker.pid}"], "the worker's bot to start thinking")
    assert Job.fetch(jid, connection=conn, serializer=JSONSerializer).get_status() == JobStatus.STARTED
    assert jid in StartedJobRegistry(queue_name("race"), connection=conn).get_job_ids()
    worker.send_signal(signal.SIGKILL)   # the bot is mid-thought: it started and has not finished
    worker.wait(5)
    assert this_turn() == [f"start {worker.pid}"], "the turn ended before the kill"
    now = requests.get(f"{base}/games/{gid}", timeout=5)
    assert now.status_code == 200 and now.json()["version"] == version, ("killed before it moved", now.text)
    stack.start_worker("worker-2")
    stack.start_sweeper()
    wait_until(lambda: requests.get(f"{base}/games/{gid}", timeout=5).json()["version"] > version,
               "the bot's turn after the restart", timeout=30)
    # Any duplicate run would be a job still queued, running or scheduled (RQ's retry) once the
    # restarted turn has ended: wait until none is left, then count the bot's moves.
    queue = BotQueue(conn, "race").queue

    def settled() -> bool:
        return (any(line.startswith("done") for line in this_turn()[1:]) and queue.count == 0
                and set(StartedJobRegistry(queue=queue).get_job_ids()) <= {jid}
                and not ScheduledJobRegistry(queue=queue).get_job_ids())
    wait_until(settled, "the restarted turn to end, no job left to run it again", timeout=30)
    events = assert_log_is_whole(base, gid)
    bot_moves = [e for e in events if e["seq"] > version and e.get("cause", {}).get("seat") == 1]
    assert len(bot_moves) == 1, bot_moves
    after_kill = this_turn()[1:]
    assert f"done {worker.pid}" not in after_kill and any(line.startswith("done") for line in after_kill), after_kill


def test_redis_restart_with_aof_loses_no_accepted_move(tmp_path: Path, stack_env: dict[str, str]) -> None:
    from shared.ops import redis_server
    proc, url, port = redis_server.start_server(data_dir=str(tmp_path), appendonly=True)
    stack = Stack("race", {**stack_env, "REDIS_URL": url, "RQ_REDIS_URL": url})
    try:
        base = stack.start_web()
        game = create(base, [{"name": "a"}, {"name": "b"}], seed=2)
        gid = game["id"]
        accepted = 0
        for _ in range(20):
            view = requests.get(f"{base}/games/{gid}", timeout=5).json()
            if view["status"] == "finished":
                break
            seat = view["to_act"][0]
            moves = requests.get(f"{base}/games/{gid}/legal-moves", headers=auth(game["players"][seat]["token"]),
                                 timeout=5).json()["moves"]
            resp = requests.post(f"{base}/games/{gid}/moves", json=moves[-1],
                                 headers=auth(game["players"][seat]["token"]), timeout=5)
            assert resp.status_code == 201
            accepted = resp.json()["version"]
        proc.send_signal(signal.SIGKILL)   # a crash, not a clean shutdown
        proc.wait(5)
        assert requests.get(f"{base}/readyz", timeout=5).status_code == 503
        proc, _, _ = redis_server.start_server(port=port, data_dir=str(tmp_path), appendonly=True)
        wait_until(lambda: requests.get(f"{base}/readyz", timeout=5).status_code == 200, "readiness after restart")
        events = assert_log_is_whole(base, gid)
        assert events[-1]["seq"] == accepted
    finally:
        stack.stop()
        proc.terminate()
        proc.wait(5)


def test_gunicorn_worker_killed_mid_request_leaves_no_half_move(make_stack: Any) -> None:
    stack: Stack = make_stack("race")
    base = stack.start_web(workers=2)
    master = stack.processes["web"].pid
    games = [create(base, [{"name": "a"}, {"name": "b"}], seed=100 + i) for i in range(6)]
    answered: dict[str, list[dict[str, Any]]] = {g["id"]: [] for g in games}
    unexpected: list[tuple[str, int, str]] = []     # any answer but 200 to a view, 201 to a move
    dropped: list[str] = []                          # requests cut off by a kill
    playing = threading.Event()
    playing.set()

    # A request cut off, or left unanswered while both workers were down (a new one still booting),
    # is retried as a client would: the same idempotency key for a move.
    cut = (requests.ConnectionError, requests.exceptions.ChunkedEncodingError, requests.Timeout)

    def player(game: dict[str, Any]) -> None:
        session = requests.Session()
        gid = game["id"]
        while playing.is_set():
            try:
                got = session.get(f"{base}/games/{gid}", timeout=5)
            except cut:
                dropped.append("view")
                time.sleep(0.1)
                continue
            if got.status_code != 200:
                unexpected.append(("view", got.status_code, got.text[:300]))
                return
            view = got.json()
            token = game["players"][view["to_act"][0]]["token"]
            # "hold" is always legal for the seat to act and never ends the game: moves go on
            # for as long as workers are being killed.
            key = uuid.uuid4().hex
            for _ in range(5):          # retry a dropped request with the same idempotency key
                try:
                    resp = session.post(f"{base}/games/{gid}/moves", json={"type": "hold"},
                                        headers={**auth(token), "Idempotency-Key": key,
                                                 "If-Match": f'"{view["version"]}"'}, timeout=5)
                    break
                except cut:
                    dropped.append("move")      # dropped before or during the answer
                    time.sleep(0.2)
            else:
                continue
            if resp.status_code != 201:
                unexpected.append(("move", resp.status_code, resp.text[:300]))
                return
            answered[gid].append(resp.json())

    threads = [threading.Thread(target=player, args=(g,)) for g in games]
    for t in threads:
        t.start()
    killed: list[int] = []
    try:
        # Kill a serving worker three times, and on until a kill has cut a request off.
        while len(killed) < 8 and (len(killed) < 3 or not dropped):
            # Each kill strikes a server that is playing again: both workers up, moves answered since.
            moves_so_far = sum(map(len, answered.values()))

            def fresh() -> list[int]:
                children = subprocess.run(["pgrep", "-P", str(master)], capture_output=True, text=True).stdout.split()
                alive = [int(pid) for pid in children if int(pid) not in killed]
                return alive if len(alive) == 2 and sum(map(len, answered.values())) > moves_so_far + 2 else []
            victim = wait_until(fresh, f"gunicorn to serve moves again after {len(killed)} kills")[0]
            os.kill(victim, signal.SIGKILL)
            killed.append(victim)
    finally:
        playing.clear()
        for t in threads:
            t.join()
    assert not unexpected, unexpected
    assert dropped, f"none of {len(killed)} kills cut a request off: nothing was killed mid-request"
    for game in games:
        assert answered[game["id"]], "a player made no move"
        events = {e["seq"]: e for e in assert_log_is_whole(base, game["id"])}
        for answer in answered[game["id"]]:
            for e in answer["events"]:
                assert events[e["seq"]]["hash"] == e["hash"], "an acknowledged move is missing or differs"


def test_two_instances_serve_one_game_consistently(make_stack: Any) -> None:
    stack: Stack = make_stack("race")
    first = stack.start_web("web-a")
    second = stack.start_web("web-b")
    assert first != second
    game = create(first, [{"name": "a"}, {"name": "b"}], seed=6)
    gid = game["id"]
    for i in range(10):
        here, there = (first, second) if i % 2 else (second, first)
        view = requests.get(f"{here}/games/{gid}", timeout=5).json()
        assert view == requests.get(f"{there}/games/{gid}", timeout=5).json()
        if view["status"] == "finished":
            break
        token = game["players"][view["to_act"][0]]["token"]
        resp = requests.post(f"{here}/games/{gid}/moves", json={"type": "hold"}, headers=auth(token), timeout=5)
        assert resp.status_code == 201
        assert requests.get(f"{there}/games/{gid}", timeout=5).json()["version"] == resp.json()["version"]
    # Both instances race for the same version: one wins, the other hears 409.
    view = requests.get(f"{first}/games/{gid}", timeout=5).json()
    token = game["players"][view["to_act"][0]]["token"]
    headers = {**auth(token), "If-Match": f'"{view["version"]}"'}
    answers = [requests.post(f"{url}/games/{gid}/moves", json={"type": "hold"}, headers=headers, timeout=5).status_code
               for url in (first, second)]
    assert sorted(answers) == [201, 409]
    assert_log_is_whole(first, gid)
