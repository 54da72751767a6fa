"""The event store works unchanged on a Redis Cluster: three masters on loopback ports."""
from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from redis.cluster import RedisCluster

from shared.ops import redis_server
from shared.game.engine import random_strategy
from shared.log.eventstore import EventStore
from shared.log.replay import audit_log
from shared.play.runtime import GameRuntime, StateCache
from tests.shared.test_eventstore import all_at_once, records
from tests.shared.toygame import RaceGame

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisCluster]:
    procs, ports = redis_server.start_cluster(str(tmp_path_factory.mktemp("cluster")))
    try:
        client = RedisCluster(host="127.0.0.1", port=ports[0])
        yield client
        client.close()
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            proc.wait(5)


def test_appends_and_races_on_a_cluster(cluster: RedisCluster) -> None:
    store = EventStore(cluster)
    game_ids = [f"clustergame{i}" for i in range(12)]
    for gid in game_ids:
        assert store.append(gid, 0, records(0, 2)).status == "OK"
        assert store.append(gid, 0, records(0, 1)).status == "CONFLICT"
    owners = {cluster.get_node_from_key(EventStore.keys(gid)[0]).name for gid in game_ids}
    assert len(owners) >= 2, "games should spread over the masters"
    results = all_at_once(20, lambda: store.append("clusterrace", 0, records(0, 3)).status)
    assert results.count("OK") == 1 and results.count("CONFLICT") == 19
    assert [r["seq"] for r in store.read("clusterrace")] == [1, 2, 3]


def test_games_play_replay_and_audit_on_a_cluster(cluster: RedisCluster) -> None:
    game = RaceGame()
    store = EventStore(cluster)
    runtime = GameRuntime(game, store, snapshot_every=3)
    game_id, _, _ = runtime.create([{"name": "a"}, {"name": "b"}, {"name": "c"}], {}, seed=9)
    rng = random.Random(9)
    for _ in range(200):
        loaded = runtime.load(game_id)
        if game.result(loaded.state) is not None:
            break
        seat = game.to_act(loaded.state)[0]
        runtime.submit(game_id, seat, random_strategy(game, loaded.state, seat, rng), idempotency_key=f"k{_}")
    played = runtime.load(game_id)
    assert store.load_snapshot(game_id) is not None
    cold = GameRuntime(game, store, cache=StateCache()).load(game_id)
    store.delete_snapshot(game_id)
    from_log: Any = GameRuntime(game, store, cache=StateCache()).load(game_id)
    assert cold.state == from_log.state == played.state
    assert audit_log(game, store.read(game_id)).ok


def test_the_service_answers_its_probes_moves_and_audits_on_a_cluster(cluster: RedisCluster, settings: Any) -> None:
    """The whole app on a Cluster event store: readiness (no single pool to report there), a move,
    the feed and the audit (its cache reads the log stream by key)."""
    import dataclasses

    from shared.http.service import create_app
    from tests.shared.conftest import auth, new_game
    from tests.shared.toygame import PLUGIN
    node = cluster.get_default_node()
    client = create_app(PLUGIN, dataclasses.replace(
        settings, redis_url=f"redis://{node.host}:{node.port}/0", redis_cluster=True)).test_client()
    ready = client.get("/readyz")
    assert ready.status_code == 200 and ready.get_json()["status"] == "ready", ready.get_json()
    game = new_game(client)
    token = game["players"][0]["token"]
    move = client.get(f"/games/{game['id']}/legal-moves", headers=auth(token)).get_json()["moves"][0]
    assert client.post(f"/games/{game['id']}/moves", json=move, headers=auth(token)).status_code == 201
    assert len(client.get(f"/games/{game['id']}/events").get_json()["events"]) >= 2
    audit = client.get(f"/games/{game['id']}/audit").get_json()
    assert audit["ok"] and audit["version"] >= 2, audit
