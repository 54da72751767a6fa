"""The services' Redis connections: bounded by REDIS_TIMEOUT_SECONDS, and recovering after a restart."""
from __future__ import annotations

import dataclasses
import signal
import time
from collections.abc import Iterator
from typing import Any

import pytest
import redis

from shared.ops import redis_server
from shared.play.config import Settings
from shared.log.eventstore import EventStore
from shared.play.redis_clients import KernelTimeoutConnection, connect_event_store
from shared.log.replay import audit_log
from shared.play.runtime import GameRuntime
from tests.shared.toygame import RaceGame


@pytest.fixture()
def private_redis() -> Iterator[tuple[Any, str, int]]:
    proc, url, port = redis_server.start_server()
    yield proc, url, port
    proc.send_signal(signal.SIGCONT)
    proc.kill()
    proc.wait(5)


def settings_for(url: str, timeout: float) -> Settings:
    return dataclasses.replace(Settings.from_env(), redis_url=url, rq_redis_url=url, redis_cluster=False,
                               redis_timeout=timeout)


def test_a_hung_redis_fails_the_call_within_the_timeout_and_the_store_recovers(private_redis: Any) -> None:
    proc, url, _ = private_redis
    runtime = GameRuntime(RaceGame(), connect_event_store(settings_for(url, 0.5)), snapshot_every=0)
    game_id, version, _ = runtime.create([{"name": "x"}, {"name": "y"}], {}, seed=1)
    assert isinstance(runtime.store._client.connection, KernelTimeoutConnection)
    proc.send_signal(signal.SIGSTOP)                 # hung: the port accepts bytes, nothing answers
    try:
        for call in (lambda: runtime.store.read(game_id), lambda: runtime.load(game_id),
                     lambda: runtime.submit(game_id, runtime.game.to_act(runtime.load(game_id).state)[0],
                                            {"type": "hold"})):
            started = time.monotonic()
            with pytest.raises(redis.RedisError):
                call()
            assert time.monotonic() - started < 3
    finally:
        proc.send_signal(signal.SIGCONT)
    # The late replies of the timed-out calls are never read as answers to new ones.
    loaded = runtime.load(game_id)
    assert loaded.version == version == runtime.store.version(game_id)
    seat = runtime.game.to_act(loaded.state)[0]
    assert runtime.submit(game_id, seat, {"type": "hold"}).version == version + 1


def test_a_connection_the_server_closed_is_replaced_before_it_is_used(private_redis: Any) -> None:
    proc, url, port = private_redis
    store = connect_event_store(settings_for(url, 2))
    assert store.read("nothing-yet") == []
    proc.kill()
    proc.wait(5)
    restarted, _, _ = redis_server.start_server(port=port)
    try:
        assert store.read("nothing-yet") == []       # this thread's connection died with the server
    finally:
        restarted.kill()
        restarted.wait(5)


def test_a_move_after_a_redis_restart_is_appended_once(tmp_path: Any) -> None:
    # A move's append skips the connection check (a system call on the hot path): its
    # connection died with the server, so the script never ran, and the store runs it again.
    proc, url, port = redis_server.start_server(data_dir=str(tmp_path), appendonly=True)
    try:
        runtime = GameRuntime(RaceGame(), connect_event_store(settings_for(url, 2)), snapshot_every=0)
        game_id, version, _ = runtime.create([{"name": "x"}, {"name": "y"}], {}, seed=1)
        seat = runtime.game.to_act(runtime.load(game_id).state)[0]
        proc.kill()
        proc.wait(5)
        proc, _, _ = redis_server.start_server(port=port, data_dir=str(tmp_path), appendonly=True)
        outcome = runtime.submit(game_id, seat, {"type": "hold"}, loaded=runtime.peek(game_id))
        assert outcome.version == version + 1 == runtime.store.version(game_id)
        assert [r["seq"] for r in runtime.store.read(game_id)] == list(range(1, version + 2))
    finally:
        proc.kill()
        proc.wait(5)


def test_an_append_whose_answer_was_lost_is_found_in_the_log(redis_client: Any,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    store = EventStore(redis_client)
    runtime = GameRuntime(RaceGame(), store, snapshot_every=0)
    game_id, version, _ = runtime.create([{"name": "x"}, {"name": "y"}], {}, seed=1)
    seat = runtime.game.to_act(runtime.load(game_id).state)[0]
    script = store._append

    def runs_then_loses_the_answer(*args: Any, **kwargs: Any) -> Any:
        script(*args, **kwargs)
        raise redis.ConnectionError("Connection closed by server.")

    monkeypatch.setattr(store, "_append", runs_then_loses_the_answer)
    outcome = runtime.submit(game_id, seat, {"type": "hold"})
    assert outcome.version == version + 1 == store.version(game_id)     # applied once, reported once
    assert audit_log(runtime.game, store.read(game_id)).ok
