"""Who is waiting for which game's log, and waking them when it grows: one subscriber per process.

Every append publishes ``<game id> <new version> <status>`` on the title's channel
(``append.lua``).  A process that serves the feed keeps ONE pub/sub connection to Redis, in one
background thread (a greenlet under gevent).  When a game that somebody here waits on moves, it
reads the new events once and hands them to every waiter of that game: a move watched by five
clients costs one read, not five.  So a thousand clients long-polling or streaming the feed cost
a thousand parked greenlets and no Redis connection each; a waiting client costs nothing until
its game moves.

Pub/sub delivers at most once: a message sent while the subscriber is reconnecting (a Redis
restart) is lost.  So every (re)subscription wakes every waiter, and each waiter reads the log
itself before it sleeps again: a lost message costs a re-read, never a missed event.  Waiters
also look at the log when their own timeout ends, whatever the subscriber says.
"""
from __future__ import annotations

import logging
import os
import threading
import time
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Callable

import redis

log = logging.getLogger("news")

RECONNECT_BACKOFF_SECONDS = (0.1, 0.5, 1.0, 2.0)

_instances: "weakref.WeakSet[LogNews]" = weakref.WeakSet()
_draining = threading.Event()


def begin_draining() -> None:
    """This process is stopping (gunicorn's SIGTERM, see deploy/gunicorn.conf.py): wake every
    waiter, so each long-poll answers what it has and each stream ends with a reconnect hint
    (the feed asks :func:`draining`), instead of being cut at the graceful timeout."""
    _draining.set()
    for news in list(_instances):
        news._wake_all()


def draining() -> bool:
    return _draining.is_set()


def channel(game_name: str) -> str:
    """The pub/sub channel a title's appends are announced on (see ``append.lua``)."""
    return f"news:{game_name}"


ReadLog = Callable[[str, int, int], list[dict[str, Any]]]    # (game id, after, limit) -> records


@dataclass(frozen=True)
class News:
    """What the subscriber learnt of a game: its version and status, and the events it read."""

    version: int
    status: str
    records: tuple[dict[str, Any], ...] = ()

    def after(self, seq: int) -> list[dict[str, Any]] | None:
        """The events after ``seq`` when these hold every one of them up to ``version``, else None."""
        wanted = [r for r in self.records if r["seq"] > seq]
        if seq >= self.version:
            return []
        if wanted and wanted[0]["seq"] == seq + 1 and wanted[-1]["seq"] == self.version:
            return wanted
        return None


class Waiter:
    """One request's wait for news of one game; woken by the subscriber thread."""

    __slots__ = ("game_id", "after", "_event", "_news")

    def __init__(self, game_id: str, after: int) -> None:
        self.game_id = game_id
        self.after = after            # the last event this client has: the subscriber reads past it
        self._event = threading.Event()
        self._news: News | None = None

    def wake(self, news: News | None = None) -> None:
        self._news = news
        self._event.set()

    def wait(self, timeout: float) -> tuple[bool, News | None]:
        """Sleep until woken or ``timeout`` seconds pass: (woken, the news it brought, if any).
        Clears the wake-up, so a waiter serves several rounds of read-then-wait."""
        woken = self._event.wait(max(0.0, timeout))
        self._event.clear()
        news, self._news = self._news, None
        return woken, news


class LogNews:
    """The process's subscriber to one title's channel, started on first use (after any fork)."""

    def __init__(self, client: "redis.Redis[bytes]", game_name: str, read_log: ReadLog | None = None,
                 page: int = 200) -> None:
        self._client = client
        self._read_log = read_log
        self._page = page
        self._channel = channel(game_name)
        self._lock = threading.Lock()
        self._waiters: dict[str, set[Waiter]] = {}
        self._pid = 0
        _instances.add(self)

    # -- the waiting side -------------------------------------------------------------------------
    @contextmanager
    def watch(self, game_id: str, after: int) -> Iterator[Waiter]:
        """Register before reading the log, then read, then ``wait``: an append that lands between
        the read and the wait has already woken the waiter, so nothing falls in the gap."""
        self._ensure_started()
        waiter = Waiter(game_id, after)
        with self._lock:
            self._waiters.setdefault(game_id, set()).add(waiter)
        try:
            yield waiter
        finally:
            with self._lock:
                watchers = self._waiters.get(game_id)
                if watchers is not None:
                    watchers.discard(waiter)
                    if not watchers:
                        del self._waiters[game_id]

    # -- the subscriber thread --------------------------------------------------------------------
    def _ensure_started(self) -> None:
        if self._pid == os.getpid():
            return
        with self._lock:
            if self._pid == os.getpid():
                return
            self._pid = os.getpid()
            threading.Thread(target=self._run, name="log-news", daemon=True).start()

    def _run(self) -> None:
        failures = 0
        while True:
            pubsub = self._client.pubsub(ignore_subscribe_messages=True)
            try:
                pubsub.subscribe(self._channel)
                self._wake_all()          # messages may have been lost while we were away
                failures = 0
                while True:
                    # A one-second poll, not listen(): the client's health checks (a PING when
                    # the line has been quiet) run in get_message, and find a dead connection.
                    message = pubsub.get_message(timeout=1.0)
                    if message and message.get("type") == "message":
                        self._deliver(message["data"])
            except (redis.RedisError, OSError) as exc:
                delay = RECONNECT_BACKOFF_SECONDS[min(failures, len(RECONNECT_BACKOFF_SECONDS) - 1)]
                failures += 1
                if failures == 1:
                    log.warning("feed subscription to %s lost (%s); reconnecting", self._channel, exc)
                time.sleep(delay)
            except Exception:  # noqa: BLE001 - the thread must outlive any surprise; waiters time out meanwhile
                log.exception("feed subscriber failed; restarting it")
                time.sleep(1.0)
            finally:
                try:
                    pubsub.close()
                except Exception:  # noqa: BLE001 - closing a broken connection may fail too
                    pass

    def _deliver(self, data: Any) -> None:
        text = data.decode() if isinstance(data, bytes) else str(data)
        game_id, _, rest = text.partition(" ")
        version_text, _, status = rest.partition(" ")
        with self._lock:
            watchers = list(self._waiters.get(game_id, ()))
        if not watchers:
            return
        news = News(int(version_text), status or "active")
        behind = min(w.after for w in watchers)
        if self._read_log is not None and behind < news.version:
            try:
                # One read for every waiter of this game; one that needs more reads for itself.
                news = News(news.version, news.status, tuple(self._read_log(game_id, behind, self._page)))
            except redis.RedisError as exc:
                log.warning("reading the news of %s failed: %s", game_id, exc)
        for waiter in watchers:
            waiter.wake(news)

    def _wake_all(self) -> None:
        with self._lock:
            watchers = [w for ws in self._waiters.values() for w in ws]
        for waiter in watchers:
            waiter.wake()
