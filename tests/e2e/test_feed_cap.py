"""The cap on feed connections per client address, under real gunicorn: one client cannot take
every connection a process holds, and probes and moves answer while it sits at its cap."""
from __future__ import annotations

import json
import socket
from typing import Any

import pytest
import requests

from tests.e2e.conftest import create_race, play_one, wait_until

pytestmark = pytest.mark.e2e

CAP = 20


def _stream(port: int, gid: str) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port))
    sock.sendall(f"GET /games/{gid}/events HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n".encode())
    return sock


def _head(sock: socket.socket) -> bytes:
    """The answer's head (and whatever came with it) on ``sock``."""
    sock.settimeout(20)
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(4096)
        if not chunk:
            break
        data += chunk
    return data


def test_streams_and_waiting_long_polls_are_capped_per_address(race_stack: Any) -> None:
    # Heartbeats often: a stream the client closed is noticed at the server's next write.
    stack = race_stack(FEED_CONNECTIONS_PER_ADDRESS=str(CAP), SSE_HEARTBEAT_SECONDS="0.5")
    base = stack.base_url
    port = stack.port
    game = create_race(base)
    gid = game["id"]
    opened = [_stream(port, gid) for _ in range(3 * CAP)]
    try:
        heads = [_head(sock) for sock in opened]
        accepted = [s for s, h in zip(opened, heads) if h.startswith(b"HTTP/1.1 200")]
        refused = [h for h in heads if h.startswith(b"HTTP/1.1 429")]
        assert (len(accepted), len(refused)) == (CAP, 2 * CAP)
        head, _, body = refused[0].partition(b"\r\n\r\n")
        assert b"Content-Type: application/problem+json" in head and b"Retry-After: " in head
        # A long-poll that would wait counts as well; a plain page read does not.
        polled = requests.get(f"{base}/games/{gid}/events", params={"wait": 5, "after": 1000}, timeout=10)
        assert polled.status_code == 429 and polled.json()["reason"] == "too-many-streams"
        assert int(polled.headers["Retry-After"]) >= 1
        assert requests.get(f"{base}/games/{gid}/events", timeout=5).status_code == 200
        # The rest of the service answers while this client sits at its cap.
        assert requests.get(f"{base}/healthz", timeout=5).status_code == 200
        assert requests.get(f"{base}/readyz", timeout=5).status_code == 200
        version = play_one(base, game)
        # The open streams carry the move.
        assert b"id: %d" % version in _until_contains(accepted[0], b"id: %d" % version)
        # A stream that ends gives its place back.
        for sock in accepted[:5]:
            sock.close()

        def one_more() -> bool:
            sock = _stream(port, gid)
            opened.append(sock)
            return _head(sock).startswith(b"HTTP/1.1 200")
        wait_until(one_more, "a freed place for a stream")
    finally:
        for sock in opened:
            sock.close()


def _until_contains(sock: socket.socket, wanted: bytes) -> bytes:
    sock.settimeout(10)
    data = b""
    while wanted not in data:
        chunk = sock.recv(4096)
        if not chunk:
            break
        data += chunk
    return data


def test_a_long_poll_gives_its_place_back_when_it_answers(race_stack: Any) -> None:
    stack = race_stack(FEED_CONNECTIONS_PER_ADDRESS="1")
    base = stack.base_url
    game = create_race(base)
    for _ in range(3):       # one at a time, each within the cap of one
        page = requests.get(f"{base}/games/{game['id']}/events", params={"wait": 0.2, "after": 1000}, timeout=10)
        assert page.status_code == 200, page.text
        assert json.loads(page.text)["events"] == []
