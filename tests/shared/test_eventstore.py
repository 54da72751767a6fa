"""The event store against a real Redis: versions, races, idempotency, the Cluster hash tag."""
from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from redis.crc import key_slot

from shared.log.eventstore import GENESIS_HASH, EventStore, event_hash


def records(start: int, n: int, head: str = GENESIS_HASH) -> list[dict[str, Any]]:
    out = []
    for i in range(n):
        r: dict[str, Any] = {"seq": start + i + 1, "type": "t", "data": {"i": i}, "at": 0}
        r["hash"] = head = event_hash(head, r)
        out.append(r)
    return out


def all_at_once(count: int, attempt: Callable[[], str]) -> list[str]:
    """Run ``attempt`` in ``count`` threads released together; their answers."""
    results: list[str] = []
    barrier = threading.Barrier(count)

    def runner() -> None:
        barrier.wait()
        results.append(attempt())

    threads = [threading.Thread(target=runner) for _ in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


def test_append_checks_the_expected_version(redis_client: Any) -> None:
    store = EventStore(redis_client)
    assert store.append("g1", 0, records(0, 2)).status == "OK"
    assert store.version("g1") == 2
    conflict = store.append("g1", 0, records(0, 1))
    assert conflict.status == "CONFLICT" and conflict.version == 2
    assert store.append("g1", 2, records(2, 3)).version == 5
    assert [r["seq"] for r in store.read("g1")] == [1, 2, 3, 4, 5]
    assert [r["seq"] for r in store.read("g1", after=3)] == [4, 5]
    assert [r["seq"] for r in store.read("g1", after=1, limit=2)] == [2, 3]


def test_idempotency_key_answers_the_first_append(redis_client: Any) -> None:
    store = EventStore(redis_client)
    store.append("g2", 0, records(0, 1))
    first = store.append("g2", 1, records(1, 2), idempotency_field="0:k", fingerprint="fp")
    again = store.append("g2", 1, records(1, 2), idempotency_field="0:k", fingerprint="fp")
    assert first.status == "OK" and again.status == "DUPLICATE"
    assert (again.version, again.fingerprint, again.first_seq) == (3, "fp", 2)
    assert store.version("g2") == 3


def test_fifty_concurrent_writers_one_wins(redis_client: Any, redis_url: str) -> None:
    import redis
    store = EventStore(redis_client)
    store.append("race", 0, records(0, 1))
    # A client per writer (redis-py connects on first use, so after the barrier, as real clients race).
    results = all_at_once(50, lambda: EventStore(redis.Redis.from_url(redis_url)).append("race", 1, records(1, 2)).status)
    assert results.count("OK") == 1 and results.count("CONFLICT") == 49
    assert [r["seq"] for r in store.read("race")] == [1, 2, 3]


def test_one_game_lives_in_one_cluster_slot() -> None:
    slots = {key_slot(k.encode()) for k in EventStore.keys("someGame42")}
    assert len(slots) == 1
