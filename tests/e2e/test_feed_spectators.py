"""Many spectators of one game under real gunicorn: following a game costs its process one read
of the log per delivery whatever the number of followers, and a stream that meets an exhausted
pool of Redis connections tries again instead of ending (its client would come straight back)."""
from __future__ import annotations

import re
import selectors
import socket
import sys
import threading
import time
from pathlib import Path
from typing import Any, cast

import pytest
import redis
import requests

from shared.ops.redis_server import free_port
from tests.e2e.conftest import Stack, create_race, feed_subscribers, play_one, wait_until
from tests.e2e.test_feed import sse_messages

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
FOLLOWERS = 100
MOVES = 5


class LogReads:
    """Counts the reads of a game's log (XRANGE on its key), from Redis's MONITOR."""

    def __init__(self, url: str, game_id: str) -> None:
        self.url = url
        self.tag = f"{{g:{game_id}}}"
        self.count = 0
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)

    def __enter__(self) -> LogReads:
        self._thread.start()
        assert self._ready.wait(5)
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        redis.Redis.from_url(self.url).ping()        # a command, so the monitor returns and sees the stop
        self._thread.join(10)

    def _watch(self) -> None:
        with redis.Redis.from_url(self.url).monitor() as monitor:
            self._ready.set()
            while not self._stop.is_set():
                verb, _, rest = monitor.next_command()["command"].partition(" ")
                if verb.upper() == "XRANGE" and rest.startswith(self.tag):
                    self.count += 1


def _follow(port: int, game_id: str, after: int) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port))
    sock.sendall(f"GET /games/{game_id}/events?after={after} HTTP/1.1\r\nHost: x\r\n"
                 f"Accept: text/event-stream\r\n\r\n".encode())
    sock.setblocking(False)
    return sock


def _read_until(streams: dict[socket.socket, bytearray], last: int, seconds: float = 60) -> None:
    """Read every stream until each has the event ``last`` (or time's up)."""
    selector = selectors.DefaultSelector()
    wanted = b"id: %d\n" % last
    for sock in streams:
        if wanted not in streams[sock]:
            selector.register(sock, selectors.EVENT_READ)
    deadline = time.monotonic() + seconds
    while selector.get_map() and time.monotonic() < deadline:
        for key, _ in selector.select(timeout=0.5):
            sock = cast(socket.socket, key.fileobj)
            chunk = sock.recv(65536)
            streams[sock] += chunk
            if not chunk or wanted in streams[sock]:
                selector.unregister(sock)
    selector.close()


def test_followers_of_a_game_cost_one_read_per_event_not_one_each(race_stack: Any, redis_url: str) -> None:
    stack = race_stack(FEED_CONNECTIONS_PER_ADDRESS="0")          # all of them from this one address
    base = stack.base_url
    port = stack.port
    game = create_race(base)
    gid, start = game["id"], game["version"]
    version = start
    for _ in range(MOVES):
        version = play_one(base, game)
    first = {_follow(port, gid, version): bytearray()}      # the game is followed here
    wait_until(lambda: feed_subscribers(redis_url, "race", gid) > 0, "the feed to subscribe the game")
    streams: dict[socket.socket, bytearray] = {}
    try:
        with LogReads(redis_url, gid) as alone:          # what moves cost with one follower
            for _ in range(MOVES):
                version = play_one(base, game)
                _read_until(first, version)
        with LogReads(redis_url, gid) as crowded:
            # Spectators arriving at the game's start (as at a table's next game) and following it.
            for _ in range(FOLLOWERS):
                streams[_follow(port, gid, start)] = bytearray()
            _read_until(streams, version)
            for _ in range(MOVES):
                version = play_one(base, game)
                _read_until(streams, version)
        for received in streams.values():
            assert received.startswith(b"HTTP/1.1 200"), bytes(received[:200])
            seqs = [int(s) for s in re.findall(rb"\nid: (\d+)\n", bytes(received))]
            assert seqs == list(range(start + 1, version + 1))     # every event, once, in order
        # Each move reads the log to load the game, and the subscriber reads its new events once
        # for everyone; the followers' catching up and following read nothing more.
        assert crowded.count <= alone.count + 2, \
            f"{crowded.count} reads of the log for {MOVES} moves and {FOLLOWERS} followers, {alone.count} for one"
    finally:
        for sock in [*first, *streams]:
            sock.close()


def test_a_stream_that_meets_an_exhausted_pool_goes_on_without_reconnecting(make_stack: Any, redis_url: str) -> None:
    stack: Stack = make_stack("race")
    # One pooled connection, waited for one second at most.
    stack.env.update(REDIS_POOL_SIZE="1", REDIS_TIMEOUT_SECONDS="1")
    port = free_port()
    stack.start("web", [str(Path(sys.executable).parent / "gunicorn"), "-c", str(ROOT / "deploy/gunicorn.conf.py"),
                        "--bind", f"127.0.0.1:{port}", "tests.shared.pool_holder_wsgi:app"])
    base = f"http://127.0.0.1:{port}"
    wait_until(lambda: requests.get(base + "/healthz", timeout=1).ok, "gunicorn")
    other = stack.start_web("other")            # another instance, whose pool nobody holds
    game = create_race(base)
    gid = game["id"]
    version = play_one(base, game)
    resp = requests.get(f"{base}/games/{gid}/events", stream=True, timeout=60,
                        headers={"Accept": "text/event-stream", "Last-Event-ID": str(version)})
    assert resp.status_code == 200, resp.text
    messages: list[dict[str, Any]] = []

    def read() -> None:
        try:
            for message in sse_messages(resp):
                messages.append(message)
        except (requests.RequestException, AttributeError):     # the test closed the stream
            pass

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    wait_until(lambda: feed_subscribers(redis_url, "race", gid) > 0, "the feed to subscribe the game")
    try:
        held = requests.post(f"{base}/test/hold-pool", params={"seconds": 4}, timeout=5)
        assert held.status_code == 204
        # A move while the stream's process has no connection to spare: its subscriber cannot read
        # the new event, nor the stream, for a few seconds.
        moved = play_one(other, game)
        wait_until(lambda: any(m.get("id") == str(moved) for m in messages), "the event, once the pool is free",
                   timeout=30)
        comments = [c for m in messages for c in m.get("comment", [])]
        assert "busy; trying again" in comments                       # it did meet the exhausted pool
        assert not any("reconnect to resume" in c for c in comments)
        assert reader.is_alive()                                       # the same stream goes on
        assert requests.get(f"{base}/readyz", timeout=5).json()["pool"]["refused"] >= 1
        after = play_one(other, game)
        wait_until(lambda: any(m.get("id") == str(after) for m in messages), "the next event")
        assert [m["id"] for m in messages if "id" in m] == [str(moved), str(after)]
    finally:
        resp.close()
