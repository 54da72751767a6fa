"""Group commit (shared.log.group_commit): overlapping appends share a round trip, and nothing else
changes: each gets its own reply or error, versions stay strict, a failed batch loses nothing."""
from __future__ import annotations

import json
import threading
from typing import Any

import redis

from shared.ops import redis_server
from shared.log.eventstore import EventStore
from shared.log.group_commit import GroupCommit, _Pending
from shared.log.replay import audit_log
from shared.play.runtime import GameRuntime
from tests.shared.toygame import RaceGame


def play_concurrently(runtime: GameRuntime, games: list[str], moves_each: int) -> list[BaseException]:
    """One thread per game, each playing ``moves_each`` moves as fast as it can."""
    failures: list[BaseException] = []

    def play(game_id: str) -> None:
        try:
            for _ in range(moves_each):
                loaded = runtime.load(game_id)
                if runtime.game.result(loaded.state) is not None:
                    return
                seat = runtime.game.to_act(loaded.state)[0]
                runtime.submit(game_id, seat, {"type": "hold"} if loaded.state["pending"] == [] else
                               {"type": "acknowledge"})
        except BaseException as exc:  # noqa: BLE001 - reported by the test
            failures.append(exc)

    threads = [threading.Thread(target=play, args=(g,)) for g in games]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return failures


def test_overlapping_appends_share_round_trips_and_every_log_stays_whole(redis_client: Any) -> None:
    store = EventStore(redis_client)
    runtime = GameRuntime(RaceGame(), store, snapshot_every=0)
    games = [runtime.create([{"name": "x"}, {"name": "y"}], {"target": 1000}, seed=i)[0] for i in range(16)]
    assert store.appends is not None
    batches: list[int] = []
    store.appends.on_batch = batches.append                     # each round trip's number of appends
    assert play_concurrently(runtime, games, 40) == []
    assert sum(batches) == 16 * 40                              # every move, once
    assert len(batches) < sum(batches)                          # and some travelled together
    for game_id in games:
        log = store.read(game_id)
        assert [r["seq"] for r in log] == list(range(1, len(log) + 1)) and audit_log(runtime.game, log).ok


def test_two_writers_of_one_game_in_one_batch_one_wins(redis_client: Any) -> None:
    """A batch is a pipeline, not a transaction: each script checks its expected version as if
    alone, so of two appends at the same version in one batch the first wins, the second conflicts."""
    store = EventStore(redis_client)
    runtime = GameRuntime(RaceGame(), store, snapshot_every=0)
    game_id, version, _ = runtime.create([{"name": "x"}, {"name": "y"}], {}, seed=3)
    head = runtime.load(game_id).head
    first = runtime._records([{"type": "turn_passed", "data": {"to": 1}}], version, head, {"kind": "move"})
    second = runtime._records([{"type": "turn_passed", "data": {"to": 1}}], version, head, {"kind": "move"})
    results: dict[str, Any] = {}
    assert store.appends is not None
    gate = store.appends._lock
    with gate:                          # hold the queue so both join one batch
        store.appends._leading = True
        threads = [threading.Thread(target=lambda n=n, r=r: results.__setitem__(
            n, store.append(game_id, version, r, expected_head=head))) for n, r in (("a", first), ("b", second))]
        for t in threads:
            t.start()
    while len(store.appends._queue) < 2:
        threading.Event().wait(0.005)
    store.appends._leading = False
    batches: list[int] = []
    store.appends.on_batch = batches.append
    store.appends._lead()               # what a leader does: both in one round trip
    for t in threads:
        t.join(5)
    assert batches == [2]
    assert sorted(r.status for r in results.values()) == ["CONFLICT", "OK"]
    assert store.version(game_id) == version + 1


def make_batch(store: EventStore, runtime: GameRuntime, count: int) -> tuple[list[str], list[_Pending]]:
    """``count`` appends (one move each on its own game), queued by hand as one batch."""
    games, pending = [], []
    for i in range(count):
        game_id, version, _ = runtime.create([{"name": "x"}, {"name": "y"}], {}, seed=100 + i)
        loaded = runtime.load(game_id)
        records = runtime._records([{"type": "turn_passed", "data": {"to": 1}}], version, loaded.head,
                                   {"kind": "move"})
        log, meta, idem, _ = store.keys(game_id)
        args = [version, "", "", records[-1]["hash"], loaded.head, 0, *[json.dumps(r) for r in records]]
        games.append(game_id)
        pending.append(_Pending([log, meta, idem], args))
    return games, pending


def run_batch(commit: GroupCommit, batch: list[_Pending]) -> None:
    commit._queue[:] = batch
    commit._leading = True
    commit._lead()


def test_a_script_error_is_that_append_s_alone_and_lost_scripts_are_loaded_again(redis_client: Any) -> None:
    store = EventStore(redis_client)
    runtime = GameRuntime(RaceGame(), store, snapshot_every=0)
    assert store.appends is not None
    games, batch = make_batch(store, runtime, 3)
    redis_client.delete(store.keys(games[1])[0])
    redis_client.set(store.keys(games[1])[0], "not a stream")          # its XADD fails: WRONGTYPE
    redis_client.script_flush()                                        # and Redis forgot the script
    run_batch(store.appends, batch)
    assert isinstance(batch[1].error, redis.ResponseError) and "WRONGTYPE" in str(batch[1].error)
    for game_id, done in ((games[0], batch[0]), (games[2], batch[2])):
        assert done.error is None and done.reply[0] in (b"OK", "OK")
        assert store.version(game_id) == int(done.reply[1])
    assert not store.appends._leading and store.appends._queue == []


def test_a_batch_cut_off_fails_every_append_in_it_and_the_next_one_goes_through(redis_client: Any) -> None:
    """The connection drops under a batch: every caller gets the error (``EventStore.append``
    then asks the log whether its events landed), the connection is dropped so no late reply
    meets a later batch, and the same appends sent again land once each."""
    proc, url, _ = redis_server.start_server()
    try:
        client = redis.Redis.from_url(url)
        store = EventStore(client)
        runtime = GameRuntime(RaceGame(), store, snapshot_every=0)
        assert store.appends is not None
        games, batch = make_batch(store, runtime, 3)
        versions = [store.version(g) for g in games]
        appender = store._appends_client()
        client.client_kill_filter(_id=appender.client_id())             # cut the appends' connection
        run_batch(store.appends, batch)
        assert all(isinstance(p.error, redis.ConnectionError) for p in batch)
        assert appender.connection is not None and appender.connection._sock is None   # dropped
        assert [store.version(g) for g in games] == versions            # nothing ran
        again = [_Pending(p.keys, p.args) for p in batch]
        run_batch(store.appends, again)
        assert [p.error for p in again] == [None] * 3
        assert [store.version(g) for g in games] == [v + 1 for v in versions]
        for game_id, v in zip(games, versions):                          # once each, chained on
            assert [r["seq"] for r in store.read(game_id)] == list(range(1, v + 2))
    finally:
        proc.kill()
        proc.wait(5)
