"""The bounded Redis pool of gevent workers (shared.play.redis_clients.MeteredPool), through the real
app and a real Redis: a pool with no free connection is load, told apart from a Redis outage."""
from __future__ import annotations

import dataclasses

import redis

from shared.play.config import Settings
from shared.log.eventstore import EventStore
from shared.play.redis_clients import MeteredPool
from shared.http.service import create_app
from tests.shared.conftest import new_game
from tests.shared.toygame import PLUGIN


def test_readyz_tells_an_exhausted_pool_from_a_redis_that_does_not_answer(settings: Settings) -> None:
    pool = MeteredPool.from_url(settings.redis_url, max_connections=1, timeout=0.2)
    store = EventStore(redis.Redis(connection_pool=pool), connection_per_thread=False,
                       appends_pool=redis.ConnectionPool.from_url(settings.redis_url))
    client = create_app(PLUGIN, settings, store=store).test_client()
    game = new_game(client)
    assert client.get("/readyz").get_json()["pool"] == {"size": 1, "in_use": 0, "waiting": 0, "refused": 0}

    held = pool.get_connection()            # a request that holds the only connection
    try:
        busy = client.get(f"/games/{game['id']}")
        assert busy.status_code == 503 and busy.get_json()["reason"] == "not-ready"
        assert "too busy" in busy.get_json()["detail"]
        ready = client.get("/readyz")           # Redis itself answers: ready, and busy
        assert ready.status_code == 200
        assert ready.get_json() == {"status": "ready", "pool": {"size": 1, "in_use": 1, "waiting": 0, "refused": 1}}
    finally:
        pool.release(held)
    assert client.get(f"/games/{game['id']}").status_code == 200

    # A Redis that does not answer at all is another matter: not ready.
    gone = dataclasses.replace(settings, redis_url="redis://127.0.0.1:1/0", readyz_timeout=0.5)
    down = create_app(PLUGIN, gone, store=store).test_client().get("/readyz")
    assert down.status_code == 503 and "does not answer" in down.get_json()["detail"]
