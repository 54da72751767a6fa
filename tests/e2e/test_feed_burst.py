"""A burst of feed clients under real gunicorn, with a small Redis pool and bot games moving:
joining and waiting cost no read per client, so none of them (nor a move, nor a probe) is refused
for want of a pooled connection."""
from __future__ import annotations

import socket
import threading
from typing import Any

import pytest
import redis
import requests

from tests.e2e.conftest import create_race, play_one, wait_until

pytestmark = pytest.mark.e2e

GAMES = 4
LONG_POLLS = 400
STREAMS = 400


def _send(port: int, request: str) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port))
    sock.sendall(request.encode())
    return sock


def _status(sock: socket.socket) -> int:
    """The status code of the answer on ``sock`` (its first line)."""
    sock.settimeout(60)
    head = b""
    while b"\r\n" not in head:
        chunk = sock.recv(64)
        if not chunk:
            return 0
        head += chunk
    return int(head.split(b" ", 2)[1])


class GameReads:
    """Counts the commands that read the given games' keys, from Redis's MONITOR."""

    def __init__(self, url: str, game_ids: list[str]) -> None:
        self.url = url
        self.tags = tuple(f"{{g:{gid}}}" for gid in game_ids)
        self.count = 0
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)

    def __enter__(self) -> GameReads:
        self._thread.start()
        self._ready.wait(5)
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        redis.Redis.from_url(self.url).ping()        # a command, so the monitor returns and sees the stop
        self._thread.join(10)

    def _watch(self) -> None:
        with redis.Redis.from_url(self.url).monitor() as monitor:
            self._ready.set()
            while not self._stop.is_set():
                command = monitor.next_command()["command"]
                verb, _, rest = command.partition(" ")
                if verb.upper() in ("HGETALL", "HGET", "HMGET", "XRANGE") and rest.startswith(self.tags):
                    self.count += 1


def test_a_burst_of_waiting_clients_on_a_small_pool_gets_no_503(race_stack: Any, redis_url: str) -> None:
    # Two pooled connections and one second's wait for one: what a thousand waiters on a busy
    # machine did to the 32 of production, scaled to what a test can open.
    stack = race_stack(worker=True, REDIS_POOL_SIZE="2", BOT_STUCK_SECONDS="30",
                       FEED_CONNECTIONS_PER_ADDRESS="0")     # all of them from this one address
    base = stack.base_url
    port = stack.port
    bots = [requests.post(f"{base}/games", timeout=5, json={
        "players": [{"name": "a", "bot": "random"}, {"name": "b", "bot": "random"}],
        "options": {"target": 100}}).json()["id"] for _ in range(2)]
    games = [create_race(base) for _ in range(GAMES)]
    held: list[tuple[str, socket.socket]] = []
    reads = GameReads(redis_url, [game["id"] for game in games])
    try:
        reads.__enter__()
        for i in range(LONG_POLLS + STREAMS):
            game = games[i % GAMES]
            if i < LONG_POLLS:
                request = (f"GET /games/{game['id']}/events?after={game['version']}&wait=5 HTTP/1.1\r\n"
                           f"Host: x\r\nConnection: close\r\n\r\n")
            else:
                request = (f"GET /games/{game['id']}/events?after={game['version']} HTTP/1.1\r\nHost: x\r\n"
                           f"Accept: text/event-stream\r\nConnection: close\r\n\r\n")
            held.append(("poll" if i < LONG_POLLS else "stream", _send(port, request)))
        # Every game moves while the burst is being taken in: each move wakes its waiters.
        for game in games:
            play_one(base, game)
        ready = requests.get(f"{base}/readyz", timeout=10)
        assert ready.status_code == 200, ready.text         # Redis is fine, however busy the pool
        assert ready.json()["pool"]["size"] == 2
        statuses = [(kind, _status(sock)) for kind, sock in held]
        reads.__exit__()
        refused = [s for s in statuses if s[1] != 200]
        assert not refused, f"{len(refused)} of {len(statuses)} waiting clients refused: {refused[:5]}"
        # Joining and waiting cost less than a read per client: clients of one game arriving together
        # share one, and the subscriber reads each game once for all its waiters.  (Reading for each
        # client, two or three reads apiece, made twice as many as there are clients.)  How many
        # route reads share a flight depends on the machine's load, hence the margin.
        assert reads.count < len(held), f"{reads.count} reads of the games for {len(held)} clients"
        # The bot games moved on meanwhile (their worker appends through the same Redis).
        wait_until(lambda: all(requests.get(f"{base}/games/{gid}", timeout=5).json()["version"] > 20
                               for gid in bots), "the bot games to move")
    finally:
        reads.__exit__()
        for _, sock in held:
            sock.close()
