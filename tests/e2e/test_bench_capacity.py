"""The spectators and capacity benchmarks run end to end on tiny sizes (real gunicorn, a real RQ
worker, real Redis) and print their figures.  No figure is checked against a target here."""
from __future__ import annotations

import json
from typing import Any

import pytest

from shared.ops.bench_capacity import bench_bot_cpu, bench_capacity, bench_spectators

pytestmark = [pytest.mark.e2e]


def test_spectators_bench_checks_every_stream(redis_url: str, redis_client: Any,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    figure = bench_spectators(redis_url, spectators=6, clients=2, rounds=1, moves_per_round=4,
                              watch_only_seconds=0.5)
    (printed,) = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert printed == json.loads(json.dumps(figure))
    assert figure["streams_opened"] == 6 and figure["table_events"] > 0
    # A reader that missed, repeated or reordered an event would be counted here.
    assert figure["all_caught_up"] and figure["spectators_with_violations"] == 0
    assert figure["events_missing"] == figure["duplicates"] == figure["gaps"] == 0
    assert figure["moves"] == 2 * 4 and not figure["moves_failed"]
    assert figure["moves_p50_ms"] <= figure["moves_p99_ms"] and figure["healthz_samples"] > 0
    assert figure["client_cpu_seconds_whole_run"] > 0 and "server_cpu_ms_per_delivered_event_watch_only" in figure


def test_capacity_bench_prints_cpu_per_move_and_a_sizing(redis_url: str, redis_client: Any,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    bench_capacity(redis_url, scaleout=[], bot_seconds=0.5, clients=2, rounds=1, moves_per_round=5,
                   levels=(("random", None),), run_scaleout=False)
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["bench"] for line in lines] == ["capacity-moves-cpu", "capacity-bot-cpu", "capacity-per-core",
                                                 "capacity-sizing"]
    moves, bot, _, sizing = lines
    assert moves["cpu_ms_per_move"]["redis"] > 0 and moves["bare_requests_per_second"] > 0
    assert bot["bot"] == "random" and bot["bot_moves"] > 0 and bot["worker_cpu_ms_per_bot_move"] > 0
    assert [row["games"] for row in sizing["rows"]] == [1_000, 10_000, 100_000]
    assert all(row["instances"] >= 2 and row["workers"] >= 2 and row["redis_shards"] >= 1 for row in sizing["rows"])


def test_the_bot_cpu_bench_plays_the_search_bots_whose_turns_go_to_the_thinking_queue(
        redis_url: str, redis_client: Any, capsys: pytest.CaptureFixture[str]) -> None:
    """``make bench``'s expert level: its worker takes the thinking queue too (it once waited 120 s
    for expert turns on the other queue, and the capacity bench stopped there)."""
    figure = bench_bot_cpu(redis_url, "expert", 20, 0.5, games=1)
    assert figure["bot"] == "expert" and figure["bot_moves"] > 0 and figure["worker_cpu_ms_per_bot_move"] > 0
