"""The HTTP benchmark runs end to end (real gunicorn servers) and prints its three figures."""
from __future__ import annotations

import json
from typing import Any

import pytest

from shared.ops.bench import bench_http, bench_scaleout

pytestmark = [pytest.mark.e2e]


def test_http_bench_prints_the_bare_endpoints_and_the_move_server(redis_url: str, redis_client: Any,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    bench_http(redis_url, clients=2, rounds=2, moves_per_round=5)
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["bench"] for line in lines] == ["http-bare-flask", "http-bare-flask-one-redis-call",
                                                 "http-catan-post-moves"]
    moves = lines[2]
    assert moves["moves_per_second"] > 0 and moves["target_vs_bare"] == 0.5
    assert len(moves["vs_bare_by_round"]) == 2 and moves["vs_bare"] > 0
    assert moves["p50_ms"] <= moves["p99_ms"] and moves["server_cpu_ms_per_request"] > 0


@pytest.mark.parametrize("cluster", [False, True], ids=["redis", "cluster"])
def test_scaleout_bench_prints_one_and_two_instances(redis_url: str, redis_client: Any, cluster: bool,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    bench_scaleout(redis_url, cluster=cluster, clients=2, rounds=1, moves_per_round=5)
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    store = "redis-cluster-3-masters" if cluster else "redis"
    assert [line["bench"] for line in lines] == [f"scaleout-one-instance-{store}", f"scaleout-two-instances-{store}"]
    one, two = lines
    assert one["moves_per_second"] > 0 and two["moves_per_second"] > 0 and two["target_vs_one"] == 1.6
    assert two["vs_one"] > 0 and two["cpu_ms_per_move"]["load_generator"] > 0   # servers: in clock ticks, may read 0
    assert set(two["cpu_ms_per_move"]) == {"servers", "balancer", "load_generator", "redis"}
    assert two["cpu_ms_per_move"]["redis"] > 0 and two["redis_masters"] == (3 if cluster else 1)
