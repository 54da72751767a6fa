"""The live feed under real gunicorn (gevent workers) and Redis: SSE, long-polls, and clients
that wait, dawdle or never read, none of which may hold up a probe or a move."""
from __future__ import annotations

import json
import signal
import socket
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any
from collections.abc import Iterator

import pytest
import requests

from tests.e2e.conftest import Stack, auth, create_race, feed_subscribers, play_one, wait_until

pytestmark = pytest.mark.e2e


def sse_messages(resp: requests.Response) -> Iterator[dict[str, Any]]:
    """Parse a text/event-stream answer: one dict per message (comments under ``comment``)."""
    message: dict[str, Any] = {}
    for line in resp.iter_lines(decode_unicode=True):
        if line == "":
            if message:
                yield message
            message = {}
        elif line.startswith(":"):
            message.setdefault("comment", []).append(line[1:].strip())
        else:
            name, _, value = line.partition(":")
            message[name] = value.removeprefix(" ")


def open_stream(base: str, gid: str, headers: dict[str, str] | None = None) -> requests.Response:
    resp = requests.get(f"{base}/games/{gid}/events", stream=True, timeout=10,
                        headers={"Accept": "text/event-stream", **(headers or {})})
    assert resp.status_code == 200, resp.text
    assert resp.headers["Content-Type"].startswith("text/event-stream")
    return resp


def test_the_stream_is_the_json_feed_live_redacted_resumable_and_ends(race_stack: Any) -> None:
    stack = race_stack(SSE_HEARTBEAT_SECONDS="0.3")
    base = stack.base_url
    game = create_race(base)
    gid, seat0 = game["id"], game["players"][0]["token"]

    stream = open_stream(base, gid, auth(seat0))
    messages = sse_messages(stream)
    first = next(messages)
    assert first.get("retry") == "2000"                      # the reconnect hint comes first
    received: list[dict[str, Any]] = []
    heartbeats = 0
    # Live: each move shows up on the open stream (one move after another is seen).
    for _ in range(4):
        version = play_one(base, game)
        while not received or received[-1]["seq"] < version:
            message = next(messages)
            if "data" in message:
                assert int(message["id"]) == json.loads(message["data"])["seq"]
                received.append(json.loads(message["data"]))
            heartbeats += "keep-alive" in message.get("comment", [])
    # Quiet: heartbeats keep the line alive.
    while heartbeats < 2:
        heartbeats += "keep-alive" in next(messages).get("comment", [])
    stream.close()

    # Exactly the JSON feed this seat reads: the same redaction (its own card, not the other's).
    page = requests.get(f"{base}/games/{gid}/events", headers=auth(seat0), timeout=5).json()["events"]
    assert received == page[:len(received)]
    dealt = {e["data"]["seat"]: e["data"]["card"] for e in received if e["type"] == "card_dealt"}
    assert dealt[0] is not None and dealt[1] is None

    # Resume after event 3, as a reconnecting EventSource does.
    resumed = sse_messages(open_stream(base, gid, {**auth(seat0), "Last-Event-ID": "3"}))
    ids = [int(m["id"]) for m in (next(resumed) for _ in range(4)) if "id" in m]
    assert ids[0] == 4

    # To the end: the stream says so and closes; reconnecting then answers 204 (EventSource stops).
    spectator = sse_messages(open_stream(base, gid))
    while requests.get(f"{base}/games/{gid}", timeout=5).json()["status"] != "finished":
        play_one(base, game, "roll")
    final = requests.get(f"{base}/games/{gid}", timeout=5).json()["version"]
    tail = list(spectator)                                   # ends by itself
    assert tail[-1]["event"] == "end" and json.loads(tail[-1]["data"])["version"] == final
    again = requests.get(f"{base}/games/{gid}/events", timeout=5,
                         headers={"Accept": "text/event-stream", "Last-Event-ID": str(final)})
    assert again.status_code == 204
    # A plain client (Accept: */*) still gets the JSON page it always got.
    plain = requests.get(f"{base}/games/{gid}/events", timeout=5)
    assert plain.headers["Content-Type"] == "application/json" and plain.json()["status"] == "finished"


def _raw(port: int, payload: bytes, rcvbuf: int | None = None) -> socket.socket:
    sock = socket.socket()
    if rcvbuf:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    sock.connect(("127.0.0.1", port))
    if payload:
        sock.sendall(payload)
    return sock


def test_waiting_slow_and_silent_clients_do_not_hold_up_probes_or_moves(race_stack: Any) -> None:
    """One process; 300 clients waiting on the feed, 100 slow or silent ones: probes and moves
    still answer at once, and a waiting long-poll is woken by the move."""
    stack = race_stack(FEED_CONNECTIONS_PER_ADDRESS="0")         # all of them from this one address
    base = stack.base_url
    port = stack.port
    game = create_race(base)
    gid = game["id"]
    far = 10_000
    held: list[socket.socket] = []
    try:
        for _ in range(150):        # long-polls for an event that will not come
            held.append(_raw(port, f"GET /games/{gid}/events?after={far}&wait=30 HTTP/1.1\r\n"
                                   f"Host: x\r\n\r\n".encode()))
        for i in range(150):        # SSE streams; a third of them never read a byte
            held.append(_raw(port, f"GET /games/{gid}/events HTTP/1.1\r\nHost: x\r\n"
                                   f"Accept: text/event-stream\r\n\r\n".encode(),
                             rcvbuf=1024 if i % 3 == 0 else None))
        for _ in range(50):         # slow headers: a request line and never the blank line
            held.append(_raw(port, b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: 1\r\n"))
        for _ in range(50):         # slow bodies: 10 bytes of a promised 1,000
            held.append(_raw(port, b"POST /games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                                   b"Content-Length: 1000\r\n\r\n{\"players\""))
        # A long-poll that a move must wake, well before its 20 s run out.
        waker = _raw(port, f"GET /games/{gid}/events?after={game['version']}&wait=20 HTTP/1.1\r\nHost: x\r\n"
                           f"Connection: close\r\n\r\n".encode())
        # Once the server has taken them all in (each stream has sent its first line), they wait.
        for sock in held[150:300]:
            sock.settimeout(20)
            assert sock.recv(64).startswith(b"HTTP/1.1 200")
        wait_until(lambda: feed_subscribers(stack.env["REDIS_URL"], "race", gid) > 0,
                   "the long-polls to wait on the game's news")
        slowest = 0.0
        for _ in range(10):
            start = time.monotonic()
            assert requests.get(f"{base}/healthz", timeout=5).status_code == 200
            ready = requests.get(f"{base}/readyz", timeout=5)
            assert ready.status_code == 200, ready.text
            slowest = max(slowest, time.monotonic() - start)
        assert slowest < 1.0, f"probes took {slowest:.2f}s behind the waiting clients"
        start = time.monotonic()
        play_one(base, game)
        assert time.monotonic() - start < 1.0
        waker.settimeout(5)
        answer = b""
        while b"\r\n\r\n" not in answer or not answer.rstrip().endswith(b"}"):
            chunk = waker.recv(65536)
            if not chunk:
                break
            answer += chunk
        assert time.monotonic() - start < 3.0, "the waiting long-poll was not woken by the move"
        body = json.loads(answer.split(b"\r\n\r\n", 1)[1])
        assert [e["seq"] for e in body["events"]] == [game["version"] + 1]
        waker.close()
    finally:
        for sock in held:
            sock.close()


def test_waiting_clients_are_woken_after_a_redis_restart(tmp_path: Path, stack_env: dict[str, str]) -> None:
    """The feed's subscription comes back by itself after Redis restarts: a long-poll begun after
    the restart is woken by the next move, not by its timeout."""
    from shared.ops import redis_server
    proc, url, port = redis_server.start_server(data_dir=str(tmp_path), appendonly=True)
    stack = Stack("race", {**stack_env, "REDIS_URL": url, "RQ_REDIS_URL": url})
    try:
        base = stack.start_web()
        game = create_race(base)
        gid = game["id"]
        version = play_one(base, game)
        proc.send_signal(signal.SIGKILL)
        proc.wait(5)
        proc, _, _ = redis_server.start_server(port=port, data_dir=str(tmp_path), appendonly=True)
        wait_until(lambda: requests.get(f"{base}/readyz", timeout=5).status_code == 200, "readiness")
        import threading
        answer: dict[str, Any] = {}

        def poll() -> None:
            answer.update(requests.get(f"{base}/games/{gid}/events",
                                       params={"after": version, "wait": 20}, timeout=30).json())

        waiting = threading.Thread(target=poll)
        waiting.start()
        # The server's subscriber is back on the new Redis, its game's channel subscribed again.
        wait_until(lambda: feed_subscribers(url, "race", gid) > 0, "the feed to subscribe the game again")
        started = time.monotonic()
        play_one(base, game)
        waiting.join()
        assert [e["seq"] for e in answer["events"]] == [version + 1]
        assert time.monotonic() - started < 5, "the long-poll ran to its timeout: nobody woke it"
    finally:
        stack.stop()
        proc.terminate()
        proc.wait(5)


def test_a_cancelled_game_ends_its_stream_and_its_long_polls(race_stack: Any) -> None:
    """A game cancelled while it waits for players logs nothing more: its stream says ``end`` and
    closes, reconnecting answers 204, and a long-poll answers at once instead of waiting."""
    stack = race_stack()
    base = stack.base_url
    created = requests.post(f"{base}/games", json={"players": [{"name": "a"}, {"open": True}]}, timeout=5).json()
    gid = created["id"]
    stream = open_stream(base, gid)
    messages = sse_messages(stream)
    assert next(messages).get("retry") == "2000"
    received = [json.loads(next(messages)["data"])["seq"]]              # the setup: a waiting game streams
    # Woken by the cancel, not by its own time (MAX_WAIT_SECONDS 30 is past the request's timeout).
    with ThreadPoolExecutor(1) as pool:
        held = pool.submit(requests.get, f"{base}/games/{gid}/events", timeout=20,
                           params={"after": created["version"], "wait": 30})
        cancelled = requests.post(f"{base}/games/{gid}/cancel", headers=auth(created["host_token"]), timeout=5)
        assert cancelled.status_code == 200
        assert held.result().json()["status"] == "cancelled"
    final = cancelled.json()["version"]
    tail = list(messages)                                   # ends by itself
    assert [json.loads(m["data"])["seq"] for m in tail if "id" in m] == list(range(received[-1] + 1, final + 1))
    assert tail[-1]["event"] == "end" and json.loads(tail[-1]["data"]) == {"version": final, "status": "cancelled"}
    again = requests.get(f"{base}/games/{gid}/events", timeout=5,
                         headers={"Accept": "text/event-stream", "Last-Event-ID": str(final)})
    assert again.status_code == 204
    # Caught up, a long-poll answers at once: the request's timeout is shorter than the wait it asks.
    page = requests.get(f"{base}/games/{gid}/events", params={"after": final, "wait": 30}, timeout=10).json()
    assert (page["status"], page["events"]) == ("cancelled", [])
