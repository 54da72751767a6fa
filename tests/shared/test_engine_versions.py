"""A game keeps the rules engine version it started with, for its whole life and across restarts.

Real Redis, real runtimes: a game created under an older engine goes on with that engine's rules
(moves, bots, audit) in a process that serves newer ones, every process meeting it through a
snapshot as a restarted one would, and an instance that does not serve its version refuses it.
"""
from __future__ import annotations

import random
from typing import Any

import pytest

from shared.game import registry
from shared.game.engine import EngineUnavailable
from shared.log.eventstore import EventStore
from shared.play.problems import RetryLater
from shared.log.replay import audit_log
from shared.play.runtime import GameRuntime, StateCache


def _runtime(store: EventStore, newest: str | None = None) -> GameRuntime:
    plugin = registry.plugin("elasund")
    game = plugin.rules(newest) if newest else plugin.newest_rules()
    return GameRuntime(game, store, snapshot_every=5, cache=StateCache(), engines=plugin.rules)


def test_the_plugin_maps_each_released_version_to_its_rules() -> None:
    for name in registry.available():
        plugin = registry.plugin(name)
        assert plugin.engine_versions[-1] == plugin.game.engine_version
        for version in plugin.engine_versions:
            assert plugin.rules(version).engine_version == version
        with pytest.raises(EngineUnavailable) as raised:
            plugin.rules("0")
        assert raised.value.served == plugin.engine_versions
    assert registry.plugin("elasund").engine_versions == ("1", "2", "3")


def test_served_versions_may_be_restricted(monkeypatch: pytest.MonkeyPatch) -> None:
    plugin = registry.plugin("elasund")
    monkeypatch.setenv("ENGINE_VERSIONS_ELASUND", "2")
    assert plugin.engine_versions == ("2",) and plugin.newest_rules().engine_version == "2"
    with pytest.raises(EngineUnavailable):
        plugin.rules("3")


def test_an_engine_2_game_goes_on_by_engine_2_through_snapshots_and_audits(redis_client: Any) -> None:
    """Created by an instance of the older release, then played on by processes of the newer one
    that each meet the game through its snapshot (a restart before every move): every move is
    decided by engine 2, and the log audits under engine 2 (under engine 3 its draws differ)."""
    store = EventStore(redis_client)
    game_id, _, seats = _runtime(store, newest="2").create([{"name": "a"}, {"name": "b"}, {"name": "c"}], {},
                                                           seed=5)
    rng = random.Random(5)
    for _ in range(150):
        runtime = _runtime(store)                       # a restarted process: no cache, the snapshot
        loaded = runtime.load(game_id)
        rules = runtime.rules_for(loaded.meta)
        assert rules.engine_version == "2"
        if rules.result(loaded.state) is not None:
            break
        seat = rng.choice(rules.to_act(loaded.state))
        runtime.submit(game_id, seat, rng.choice(rules.legal_moves(loaded.state, seat)))
    assert store.meta(game_id)["engine_version"] == "2"
    records = store.read(game_id)
    plugin = registry.plugin("elasund")
    assert audit_log(plugin.rules("2"), records).ok
    assert not audit_log(plugin.rules("3"), records).ok     # the draws differ: the versions are distinct


def test_an_instance_without_the_games_version_refuses_it_and_appends_nothing(
        redis_client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    store = EventStore(redis_client)
    game_id, _, _ = _runtime(store).create([{"name": "a"}, {"name": "b"}], {}, seed=9)
    monkeypatch.setenv("ENGINE_VERSIONS_ELASUND", "2")          # an instance of the older release
    old = _runtime(store)
    assert old.game.engine_version == "2"
    version = store.version(game_id)
    with pytest.raises(RetryLater) as refused:
        old.submit(game_id, 0, {"type": "roll"})
    assert refused.value.kind == "engine-unavailable" and refused.value.status == 503
    assert store.version(game_id) == version
