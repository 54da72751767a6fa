"""The event store works unchanged on a Redis Cluster: three masters on loopback ports."""
from __future__ import annotations

import random
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from redis.cluster import RedisCluster

from shared import redis_server
from shared.engine import random_strategy
from shared.eventstore import EventStore
from shared.replay import audit_log
from shared.runtime import GameRuntime, StateCache
from tests.shared.test_eventstore import all_at_once, records
from tests.shared.toygame import RaceGame

pytestmark = pytest.mark.slow
SLOTS = 16384


def cluster_ports(count: int) -> list[int]:
    """Ports whose cluster-bus twins (port + 10000) are free too: ephemeral ports are too high."""
    rng = random.Random()
    ports: list[int] = []
    while len(ports) < count:
        port = rng.randrange(20000, 30000)
        if port not in ports and redis_server.port_is_free(port) and redis_server.port_is_free(port + 10000):
            ports.append(port)
    return ports


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisCluster]:
    ports = cluster_ports(3)
    procs: list[subprocess.Popen[bytes]] = []
    try:
        for port in ports:
            data = tmp_path_factory.mktemp(f"node{port}")
            procs.append(subprocess.Popen(
                [redis_server.server_binary(), "--port", str(port), "--bind", "127.0.0.1", "--dir", str(data),
                 "--cluster-enabled", "yes", "--cluster-config-file", str(Path(data) / "nodes.conf"),
                 "--cluster-node-timeout", "2000", "--save", "", "--appendonly", "no"],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        nodes = [redis.Redis(port=p) for p in ports]
        deadline = time.monotonic() + 10
        while not all(redis_server.answers(f"redis://127.0.0.1:{p}/0") for p in ports):
            assert time.monotonic() < deadline, "cluster nodes did not start"
            time.sleep(0.05)
        bounds = [0, SLOTS // 3, 2 * SLOTS // 3, SLOTS]
        for i, node in enumerate(nodes):
            node.execute_command("CLUSTER", "ADDSLOTSRANGE", bounds[i], bounds[i + 1] - 1)
        for port in ports[1:]:
            nodes[0].execute_command("CLUSTER", "MEET", "127.0.0.1", port)
        deadline = time.monotonic() + 20
        while not all(b"cluster_state:ok" in n.execute_command("CLUSTER", "INFO") for n in nodes):
            assert time.monotonic() < deadline, "cluster did not form"
            time.sleep(0.1)
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
