"""A chunked request body (no Content-Length) past MAX_BODY_BYTES, through real gunicorn: 413, never
a body cut at the limit and accepted."""
from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import requests

from tests.e2e.conftest import Stack

LIMIT = 2048


def chunked(body: bytes, size: int = 500) -> Iterator[bytes]:
    """requests sends a generator with Transfer-Encoding: chunked and no Content-Length."""
    for start in range(0, len(body), size):
        yield body[start:start + size]


def test_chunked_body_over_the_limit_is_413_and_creates_nothing(make_stack: Any, redis_client: Any) -> None:
    stack: Stack = make_stack("race")
    stack.env["MAX_BODY_BYTES"] = str(LIMIT)
    base = stack.start_web()
    game = json.dumps({"players": [{"name": "a"}, {"name": "b"}]}).encode()
    headers = {"Content-Type": "application/json"}
    # Valid JSON, then whitespace past the limit: a body cut at the limit would still parse.
    too_big = game + b" " * (LIMIT + 10 - len(game))
    games_before = redis_client.dbsize()
    resp = requests.post(f"{base}/games", data=chunked(too_big), headers=headers, timeout=10)
    assert resp.status_code == 413, resp.text
    assert resp.json()["reason"] == "payload-too-large"
    assert redis_client.dbsize() == games_before
    # At the limit exactly, and well under it, a chunked body is read whole and accepted.
    exact = game + b" " * (LIMIT - len(game))
    for body in (exact, game):
        resp = requests.post(f"{base}/games", data=chunked(body), headers=headers, timeout=10)
        assert resp.status_code == 201, resp.text
    # The same oversized body with a Content-Length is refused as before.
    resp = requests.post(f"{base}/games", data=too_big, headers=headers, timeout=10)
    assert resp.status_code == 413 and resp.json()["reason"] == "payload-too-large"
