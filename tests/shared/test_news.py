"""The feed's subscriber (shared.log.news) against a real Redis: it hears only the games someone
here waits on, never misses an append that lands while a subscription is being made, drops
games nobody waits on, and comes back after its connection is cut."""
from __future__ import annotations

import time
from typing import Any
from collections.abc import Callable

import pytest
import redis

from shared.log.eventstore import EventStore
from shared.log.news import LogNews, News, channel
from shared.play.runtime import GameRuntime
from tests.shared.toygame import RaceGame


def one_move(runtime: GameRuntime, game_id: str) -> int:
    """Play whatever the toy game asks for next; the log's new version."""
    loaded = runtime.load(game_id)
    seat = runtime.game.to_act(loaded.state)[0]
    move = {"type": "hold"} if loaded.state["pending"] == [] else {"type": "acknowledge"}
    return runtime.submit(game_id, seat, move).version


def until(condition: Callable[[], bool], seconds: float = 5.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return condition()


def subscribers(client: redis.Redis[bytes], game: Any, game_id: str) -> int:
    return int(client.pubsub_numsub(channel(game.name, game_id))[0][1])


def setup(redis_client: Any, idle_seconds: float = 30.0) -> tuple[GameRuntime, LogNews, list[str]]:
    store = EventStore(redis_client)
    runtime = GameRuntime(RaceGame(), store, snapshot_every=0)
    games = [runtime.create([{"name": "x"}, {"name": "y"}], {"target": 1000}, seed=i)[0] for i in range(3)]
    news = LogNews(redis.Redis(connection_pool=redis_client.connection_pool), runtime.game.name,
                   read_log=lambda g, after, limit: store.read(g, after=after, limit=limit),
                   idle_seconds=idle_seconds)
    return runtime, news, games


def test_only_the_watched_games_announcements_reach_the_process(redis_client: Any) -> None:
    runtime, news, (watched, busy, _) = setup(redis_client)
    with news.watch(watched, runtime.store.version(watched)) as waiter:
        assert until(lambda: subscribers(redis_client, runtime.game, watched) == 1)
        for _ in range(40):
            one_move(runtime, busy)                 # a game nobody here waits on
        version = one_move(runtime, watched)
        woken, brought = waiter.wait(5)
        while woken and brought is None:            # the subscription's confirmation came first
            woken, brought = waiter.wait(5)
    assert brought is not None and brought.version == version
    assert [r["seq"] for r in brought.after(version - 1) or []] == [version]   # read once for all
    assert news.announcements_read == 1             # the 40 moves of the other game never came here
    assert subscribers(redis_client, runtime.game, busy) == 0


@pytest.mark.slow           # twenty rounds, each waiting for the subscription to be dropped
def test_an_append_while_the_subscription_is_made_is_not_missed(redis_client: Any) -> None:
    """The waiter reads the log before Redis has confirmed its game's subscription; a move in
    that gap is announced to nobody here, so the confirmation wakes the waiter to read again."""
    runtime, news, games = setup(redis_client, idle_seconds=0.05)
    for round_ in range(20):
        game_id = games[round_ % 3]
        after = runtime.store.version(game_id)
        with news.watch(game_id, after) as waiter:
            one_move(runtime, game_id)              # at once: most likely before the confirmation
            woken, _ = waiter.wait(5)
            assert woken                            # by the confirmation or by the announcement
            assert runtime.store.version(game_id) > after
        until(lambda: subscribers(redis_client, runtime.game, game_id) == 0, 2)  # dropped again


def test_a_game_nobody_waits_on_is_dropped_after_idle_seconds(redis_client: Any) -> None:
    runtime, news, (game_id, _, _) = setup(redis_client, idle_seconds=1.0)
    with news.watch(game_id, 0):
        assert until(lambda: subscribers(redis_client, runtime.game, game_id) == 1)
    assert subscribers(redis_client, runtime.game, game_id) == 1        # a long-poll often comes back
    assert until(lambda: subscribers(redis_client, runtime.game, game_id) == 0, 3)
    with news.watch(game_id, runtime.store.version(game_id)) as waiter:  # and is subscribed anew
        assert until(lambda: subscribers(redis_client, runtime.game, game_id) == 1)
        version = one_move(runtime, game_id)
        woken, brought = waiter.wait(5)
        while woken and brought is None:
            woken, brought = waiter.wait(5)
        assert brought is not None and brought.version == version


def test_a_cut_subscription_is_made_again_and_its_waiters_woken(redis_client: Any) -> None:
    runtime, news, (game_id, _, _) = setup(redis_client)
    with news.watch(game_id, runtime.store.version(game_id)) as waiter:
        assert until(lambda: subscribers(redis_client, runtime.game, game_id) == 1)
        waiter.wait(0)                              # forget the confirmation's wake-up
        redis_client.client_kill_filter(_type="pubsub")
        woken, brought = waiter.wait(5)
        assert woken and brought is None            # read the log yourself: news may have been lost
        assert until(lambda: subscribers(redis_client, runtime.game, game_id) == 1)
        version = one_move(runtime, game_id)
        woken, brought = waiter.wait(5)
        while woken and brought is None:
            woken, brought = waiter.wait(5)
        assert brought is not None and brought.version == version


def test_waiters_joining_a_subscribed_game_start_from_what_the_subscriber_knows(redis_client: Any) -> None:
    """The confirmation's one read (of the version and the missing events) is handed to every
    waiter; once subscribed, a new waiter is told the game's latest version without a read."""
    runtime, news, (game_id, _, _) = setup(redis_client)
    reads: list[str] = []

    def read_status(g: str) -> tuple[int, str]:
        reads.append(g)
        return runtime.store.version(g), "active"

    news._read_status = read_status
    before = runtime.store.version(game_id)
    first = news.watch(game_id, before)
    waiter = first.__enter__()
    assert waiter.pending and waiter.known is None       # the confirmation will bring the news
    version = one_move(runtime, game_id)                 # most likely before the confirmation
    woken, brought = waiter.wait(5)
    while woken and (brought is None or brought.version < version):
        woken, brought = waiter.wait(5)
    assert brought is not None and brought.version == version
    assert [r["seq"] for r in brought.after(before) or []] == list(range(before + 1, version + 1))
    joined = [news.watch(game_id, version) for _ in range(50)]
    waiters = [w.__enter__() for w in joined]
    assert all(w.known is not None and w.known.version == version and not w.pending for w in waiters)
    later = one_move(runtime, game_id)

    def known_to_a_newcomer() -> int:
        with news.watch(game_id, later) as newcomer:
            return newcomer.known.version if newcomer.known is not None else -1
    assert until(lambda: known_to_a_newcomer() == later)
    assert reads == [game_id]                            # one read, at the confirmation
    for w in joined + [first]:
        w.__exit__(None, None, None)


def test_a_fast_games_news_goes_out_together_with_one_read(redis_client: Any) -> None:
    """Announcements that follow one another within ``flush_seconds`` are delivered together: one
    read of the new events, one wake-up, carrying every event since the last delivery."""
    runtime, news, (game_id, _, _) = setup(redis_client)
    reads: list[tuple[int, int]] = []

    def read_log(g: str, after: int, limit: int) -> list[dict[str, Any]]:
        reads.append((after, limit))
        return runtime.store.read(g, after=after, limit=limit)

    news._read_log = read_log
    news._flush_seconds = 0.5
    before = runtime.store.version(game_id)
    with news.watch(game_id, before) as waiter:
        assert until(lambda: subscribers(redis_client, runtime.game, game_id) == 1)
        while waiter.wait(0.2)[0]:                   # the confirmation (and its read), whenever it came
            pass
        reads.clear()
        versions = [one_move(runtime, game_id) for _ in range(4)]
        deliveries: list[News] = []
        while not deliveries or deliveries[-1].version < versions[-1]:
            woken, brought = waiter.wait(5)
            assert woken
            if brought is not None:
                deliveries.append(brought)
    assert len(deliveries) <= 2                      # the first at once, perhaps; the rest together
    assert [r["seq"] for r in deliveries[-1].after(before) or []] == list(range(before + 1, versions[-1] + 1))
    assert len(reads) == len(deliveries)             # one read a delivery, of the new events only
    assert reads[-1][1] <= versions[-1] - before
