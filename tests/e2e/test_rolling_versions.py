"""A rolling deploy with a new rules engine version: two gunicorn instances behind a real haproxy,
one of the older release (it serves Elasund engines 1 and 2) and one of the newer (1, 2 and 3), on one
Redis.  A game of the newer version is played through the balancer: every move is decided by
engine 3 or refused with 503 engine-unavailable (Retry-After), never decided by engine 2; a game
of the older version is played by both instances, by engine 2's rules."""
from __future__ import annotations

import random
from typing import Any

import pytest
import requests

from shared.game import registry
from shared.ops.balancer import Balancer
from shared.log.eventstore import EventStore
from shared.log.replay import audit_log
from tests.e2e.conftest import Stack

pytestmark = [pytest.mark.e2e]

MOVES = 40


def _ask(method: str, url: str, refusals: list[requests.Response], **kwargs: Any) -> requests.Response:
    """One request through the balancer, asked again (without waiting out Retry-After: the
    balancer's next instance may serve the version) while the instance says engine-unavailable."""
    while True:
        answer = requests.request(method, url, timeout=10, **kwargs)
        if answer.status_code != 503:
            return answer
        refusals.append(answer)


def _play(base: str, game: dict[str, Any], refusals: list[requests.Response],
          decided: list[int]) -> None:
    """Random legal moves through the balancer, each retried until an instance decides it."""
    rng = random.Random(7)
    gid = game["id"]
    tokens = {p["seat"]: p["token"] for p in game["players"]}
    for _ in range(MOVES):
        body = _ask("GET", f"{base}/games/{gid}", refusals).json()
        if body["status"] == "finished":
            return
        seat = body["to_act"][0]
        auth = {"Authorization": f"Bearer {tokens[seat]}"}
        legal = _ask("GET", f"{base}/games/{gid}/legal-moves", refusals, headers=auth).json()
        answer = _ask("POST", f"{base}/games/{gid}/moves", refusals, json=rng.choice(legal["moves"]),
                      headers={**auth, "If-Match": f'"{body["version"]}"'})
        assert answer.status_code == 201, answer.text
        decided.append(answer.json()["version"])


def test_a_game_is_decided_by_its_own_engine_or_refused_during_a_rolling_deploy(
        make_stack: Any, redis_client: Any) -> None:
    stack: Stack = make_stack("elasund")
    stack.env["ENGINE_VERSIONS_ELASUND"] = "1,2"                # the older release
    old = stack.start_web("old")
    del stack.env["ENGINE_VERSIONS_ELASUND"]
    new = stack.start_web("new")
    assert requests.get(f"{old}/healthz", timeout=5).json()["engine_versions"] == ["1", "2"]
    assert requests.get(f"{new}/healthz", timeout=5).json()["engine_versions"] == ["1", "2", "3"]
    balancer = Balancer([int(old.rsplit(":", 1)[1]), int(new.rsplit(":", 1)[1])], balance="roundrobin")
    try:
        players = [{"name": "a"}, {"name": "b"}, {"name": "c"}]
        newer = requests.post(f"{new}/games", json={"players": players, "seed": 11}, timeout=10).json()
        older = requests.post(f"{old}/games", json={"players": players, "seed": 11}, timeout=10).json()
        store = EventStore(redis_client)
        assert store.meta(newer["id"])["engine_version"] == "3"
        assert store.meta(older["id"])["engine_version"] == "2"

        refusals: list[requests.Response] = []
        decided: list[int] = []
        _play(balancer.url, newer, refusals, decided)
        assert len(decided) == MOVES and refusals, "the older instance was never asked"
        for refusal in refusals:
            assert refusal.headers["Content-Type"].startswith("application/problem+json")
            assert refusal.json()["reason"] == "engine-unavailable"
            assert int(refusal.headers["Retry-After"]) >= 1

        plugin = registry.plugin("elasund")
        records = store.read(newer["id"])
        assert audit_log(plugin.rules("3"), records).ok          # every move decided by engine 3
        assert not audit_log(plugin.rules("2"), records).ok      # (engine 2 would have drawn otherwise)
        audit = _ask("GET", f"{balancer.url}/games/{newer['id']}/audit", refusals)
        assert audit.json()["ok"] and audit.json()["audit_engine_version"] == "3"

        # The older version's game: both instances serve it, both decide it by engine 2.
        refusals.clear()
        decided.clear()
        _play(balancer.url, older, refusals, decided)
        assert not refusals and len(decided) == MOVES
        assert audit_log(plugin.rules("2"), store.read(older["id"])).ok
    finally:
        balancer.stop()
