from __future__ import annotations

import dataclasses
import signal
import time
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from shared.play.config import Settings
from shared.http.service import create_app
from tests.shared.toygame import PLUGIN


@pytest.fixture()
def settings(redis_url: str, redis_client: Any) -> Settings:
    return dataclasses.replace(Settings.from_env(), redis_url=redis_url, rq_redis_url=redis_url,
                               enqueue_bots=False, snapshot_every=5)


@pytest.fixture()
def app(settings: Settings) -> Flask:
    return create_app(PLUGIN, settings)


@pytest.fixture()
def client(app: Flask) -> Iterator[FlaskClient]:
    with app.test_client() as c:
        yield c


def burst(worker: Any, **options: Any) -> None:
    """Run an RQ worker in this process until its queues are empty, then put back the SIGINT and
    SIGTERM handlers it installed over pytest's: left in place, every process forked later (the
    ladder's pool) would take SIGTERM as a request for a warm shutdown, and never end.  Its job
    timeouts use SIGALRM too, and cancel the alarm: pytest-timeout's is set again, for what was left."""
    kept = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGALRM)}
    alarm_left, _ = signal.getitimer(signal.ITIMER_REAL)
    started = time.monotonic()
    try:
        worker.work(burst=True, **options)
    finally:
        for sig, handler in kept.items():
            signal.signal(sig, handler)
        if alarm_left:
            signal.setitimer(signal.ITIMER_REAL, max(alarm_left - (time.monotonic() - started), 0.001))


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def new_game(client: FlaskClient, humans: int = 2, bots: int = 0, seed: int | None = 7) -> dict[str, Any]:
    players = [{"name": f"human{i}"} for i in range(humans)] + [{"name": f"bot{i}", "bot": "random"} for i in range(bots)]
    resp = client.post("/games", json={"players": players, "seed": seed})
    assert resp.status_code == 201, resp.get_json()
    return resp.get_json()


def recreate_with_another_history(store: Any, game_id: str, seed: int) -> Any:
    """Lose a toy game and recreate it under the same id from another seed: what a restore from
    the wrong backup, or a failover that lost writes, does to processes that saw the old log."""
    from unittest import mock

    import shared.play.runtime as runtime_module
    from shared.play.runtime import GameRuntime, StateCache
    from tests.shared.toygame import RaceGame

    for key in store.keys(game_id):
        store.redis.delete(key)
    other = GameRuntime(RaceGame(), store, cache=StateCache())
    with mock.patch.object(runtime_module, "new_game_id", lambda: game_id):
        other.create([{"name": "x"}, {"name": "y"}], {}, seed=seed)
    return other
