"""The move path with several processes' copies of one game (two runtimes, one Redis).

A process decides on its own copy when it has one (``peek``); the append's version and head
check is what keeps that honest.  These tests make the copies go stale on purpose.
"""
from __future__ import annotations

import os
from typing import Any

import pytest

from shared.game.engine import IllegalMove
from shared.log.eventstore import EventStore
from shared.play.problems import Problem
from shared.log.platform_events import is_platform_event
from shared.log.replay import audit_log
from shared.play.runtime import GameRuntime, StateCache
from tests.shared.conftest import recreate_with_another_history
from tests.shared.toygame import RaceGame


@pytest.fixture()
def two_processes(redis_client: Any) -> tuple[GameRuntime, GameRuntime]:
    store = EventStore(redis_client)
    return (GameRuntime(RaceGame(), store, cache=StateCache()),
            GameRuntime(RaceGame(), store, cache=StateCache()))


def seat_to_act(runtime: GameRuntime, game_id: str) -> int:
    loaded = runtime.load(game_id)
    return runtime.game.to_act(loaded.state)[0]


def test_a_copy_that_is_behind_catches_up_from_the_refused_append(two_processes: Any) -> None:
    a, b = two_processes
    game_id, _, _ = a.create([{"name": "x"}, {"name": "y"}], {}, seed=1)
    b.load(game_id)                                   # b's copy: version 3
    first = seat_to_act(a, game_id)
    a.submit(game_id, first, {"type": "hold"})        # the log moves on without b
    second = seat_to_act(a, game_id)
    stale = b.peek(game_id)
    assert not stale.fresh and stale.version < a.store.version(game_id)
    # On b's copy it is still `first`'s turn; the log says `second`: b must judge on the log.
    outcome = b.submit(game_id, second, {"type": "hold"}, loaded=stale)
    assert outcome.version == a.store.version(game_id)
    assert audit_log(a.game, a.store.read(game_id)).ok


def test_a_move_legal_only_on_a_stale_copy_is_refused_after_catching_up(two_processes: Any) -> None:
    a, b = two_processes
    game_id, _, _ = a.create([{"name": "x"}, {"name": "y"}], {}, seed=1)
    first = seat_to_act(a, game_id)
    b.load(game_id)
    a.submit(game_id, first, {"type": "hold"})
    with pytest.raises(Problem) as refused:           # b's copy still thinks it is `first`'s turn
        b.submit(game_id, first, {"type": "hold"}, loaded=b.peek(game_id))
    assert refused.value.reason == "not-your-turn"
    assert a.store.version(game_id) == a.load(game_id).version


def test_a_pinned_version_is_judged_on_the_log_not_on_a_stale_copy(two_processes: Any) -> None:
    a, b = two_processes
    game_id, _, _ = a.create([{"name": "x"}, {"name": "y"}], {}, seed=2)
    b.load(game_id)
    a.submit(game_id, seat_to_act(a, game_id), {"type": "hold"})
    current = a.load(game_id)
    seat = a.game.to_act(current.state)[0]
    outcome = b.submit(game_id, seat, {"type": "hold"}, expected_version=current.version, loaded=b.peek(game_id))
    assert outcome.version > current.version
    with pytest.raises(Problem) as stale:
        b.submit(game_id, a.game.to_act(a.load(game_id).state)[0], {"type": "hold"},
                 expected_version=current.version, loaded=b.peek(game_id))
    assert stale.value.reason == "stale-version" and stale.value.extensions["current_version"] == outcome.version


def test_a_log_rewritten_to_the_same_length_is_caught_by_the_head_check(two_processes: Any) -> None:
    a, b = two_processes
    game_id, version, _ = a.create([{"name": "x"}, {"name": "y"}], {}, seed=3)
    b.load(game_id)                                   # b's copy of the original log
    # The game is lost and recreated under the same id with other cards (a restore gone wrong):
    other = recreate_with_another_history(a.store, game_id, seed=99)
    assert a.store.version(game_id) == version      # same length, different history
    seat = seat_to_act(other, game_id)
    b.submit(game_id, seat, {"type": "hold"}, loaded=b.peek(game_id))
    assert audit_log(a.game, a.store.read(game_id)).ok, "b appended onto a history it never saw"


def test_time_travel_from_checkpoints_equals_replaying_from_scratch(two_processes: Any) -> None:
    import random

    import shared.play.runtime as runtime_module
    a, b = two_processes
    game_id, _, _ = a.create([{"name": "x"}, {"name": "y"}, {"name": "z"}], {"target": 60}, seed=4)
    rng = random.Random(4)
    while a.store.version(game_id) < 130:
        loaded = a.load(game_id)
        if a.game.result(loaded.state) is not None:
            break
        seat = a.game.to_act(loaded.state)[0]
        a.submit(game_id, seat, rng.choice(a.game.legal_moves(loaded.state, seat)))
    last = a.store.version(game_id)
    records = a.store.read(game_id)
    for version in sorted({1, 49, 50, 51, 99, 100, last, last - 1}):
        expected = a.game.replay([{"type": r["type"], "data": r["data"]} for r in records[:version]])
        assert b.state_at(game_id, version) == expected       # b builds checkpoints as it goes
    assert b.checkpoints.get(f"{game_id}@50") is not None
    assert runtime_module.REPLAY_CHECKPOINT == 50


# -- the per-process cache: a move hands its state to the next move ------------------------------

def test_the_cache_hands_a_moves_state_to_the_next_move_and_copies_for_readers() -> None:
    cache = StateCache()
    state = {"scores": [1, 2]}
    cache.give("g", 5, "h5", state, {"m": "1"})
    read = cache.get("g")
    assert read is not None and read[2] == state and read[2] is not state      # readers copy
    taken = cache.take("g")
    assert taken is not None and taken[2] is state                             # the next move owns it
    taken[2]["scores"][0] = 99                                                 # and evolves it...
    again = cache.get("g")
    assert again is not None and again[2] == {"scores": [1, 2]}                # ...readers keep version 5
    assert cache.take("g")[2] == {"scores": [1, 2]}                            # a second mover gets a copy
    cache.give("g", 4, "h4", {"old": True}, {})
    assert cache.get("g")[0] == 5                                              # an older copy never wins


def test_a_state_being_moved_on_is_not_served_to_anyone_else() -> None:
    cache = StateCache()
    cache.give("g", 5, "h5", {"n": 1}, {})
    assert cache.take("g") is not None
    # No copy was made before the move took it: a reader or a second mover loads from Redis.
    assert cache.get("g") is None and cache.take("g") is None and cache.peek_meta("g") is None


def test_a_refused_move_leaves_the_cache_warm_and_right(two_processes: Any) -> None:
    a, _ = two_processes
    game_id, _, _ = a.create([{"name": "x"}, {"name": "y"}], {}, seed=1)
    seat = seat_to_act(a, game_id)
    with pytest.raises(Problem):
        a.submit(game_id, 1 - seat, {"type": "hold"}, loaded=a.peek(game_id))    # not this seat's turn
    kept = a.cache.take(game_id)
    assert kept is not None and kept[2] == a.load(game_id).state
    a.cache.give(game_id, kept[0], kept[1], kept[2], kept[3])
    outcome = a.submit(game_id, seat, {"type": "hold"}, loaded=a.peek(game_id))
    assert outcome.version == a.store.version(game_id) and audit_log(a.game, a.store.read(game_id)).ok
    assert a.cache.take(game_id)[2] == a.load(game_id).state


def test_salts_are_never_shared_with_a_forked_process() -> None:
    # Salts hide hidden cards from whoever sees only hashes; they are drawn from the OS in
    # batches, so a forked worker must not reuse the batch its parent had not used up.
    from shared.play.runtime import _salts
    _salts.take(1)                                   # the parent now holds an unused batch
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:                                     # the child: report its next salts and leave
        os.write(write_end, ",".join(_salts.take(4)).encode())
        os._exit(0)
    os.close(write_end)
    child = os.read(read_end, 4096).decode().split(",")
    os.waitpid(pid, 0)
    parent = _salts.take(4)
    assert len(set(child) | set(parent)) == 8 and all(len(s) == 16 for s in child + parent)


def test_threads_moving_and_reading_one_game_never_see_a_state_the_log_does_not_have(redis_client: Any) -> None:
    # One process, one game: movers take the cached state and hand it back while readers copy
    # it. Whatever interleaving happens, every view is one the log can replay to.
    import threading

    runtime = GameRuntime(RaceGame(), EventStore(redis_client), snapshot_every=7, cache=StateCache())
    game_id, _, _ = runtime.create([{"name": "x"}, {"name": "y"}, {"name": "z"}], {"target": 60}, seed=5)
    seen: list[tuple[int, Any]] = []
    failures: list[BaseException] = []
    landed: list[int] = []                       # the versions the accepted moves answered

    def mover() -> None:
        for _ in range(25):
            try:
                state = runtime.load(game_id).state
                if runtime.game.result(state) is not None:
                    return
                seat = runtime.game.to_act(state)[0]
                move = {"type": "ack"} if state["pending"] else {"type": "roll"}
                landed.append(runtime.submit(game_id, seat, move, loaded=runtime.peek(game_id)).version)
            except (Problem, IllegalMove):
                pass                             # another thread moved first: the move no longer fits
            except BaseException as exc:  # noqa: BLE001 - reported below
                failures.append(exc)

    def reader() -> None:
        for _ in range(40):
            loaded = runtime.load(game_id)
            seen.append((loaded.version, loaded.state))

    threads = [threading.Thread(target=mover) for _ in range(4)] + [threading.Thread(target=reader) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not failures, failures
    log = runtime.store.read(game_id)
    assert [r["seq"] for r in log] == list(range(1, len(log) + 1)) and audit_log(runtime.game, log).ok
    # Moves landed, each once in the log, and each accepted move's answer is its place there.
    moves_in_log = [r["seq"] for r in log if r.get("cause", {}).get("kind") == "move"]
    assert landed and len(moves_in_log) == len(landed) == len(set(landed))
    assert all(version + 1 in moves_in_log or version == len(log) for version in landed)
    # The engine folds the game's own events; the platform's (a finished game's seed reveal) are not its.
    def folded(records: list[dict[str, Any]]) -> Any:
        return runtime.game.replay([{"type": r["type"], "data": r["data"]} for r in records
                                    if not is_platform_event(r)])

    assert runtime.load(game_id).state == folded(log)
    for version, state in seen:
        assert state == folded(log[:version])
