"""Who is waiting for which game's log, and waking them when it grows: one subscriber per process.

Every append publishes ``<game id> <new version> <status>`` on the game's own channel
(``append.lua``).  A process that serves the feed keeps ONE pub/sub connection to Redis, in one
background thread (a greenlet under gevent), subscribed to the games somebody here waits on and
to no other: the moves of games nobody here watches cost this process nothing, however many
instances serve the title.  When a game that somebody here waits on moves, it
reads the new events once and hands them to every waiter of that game: a move watched by five
clients costs one read, not five.  So a thousand clients long-polling or streaming the feed cost
a thousand parked greenlets and no Redis connection each; a waiting client costs nothing until
its game moves.

Pub/sub delivers at most once: a message sent while the subscriber is reconnecting (a Redis
restart) is lost.  So every (re)subscription is followed by one read of the game's version and
new events, by the subscriber, handed to every waiter of the game: a lost message costs one
read per game, never a missed event.

Waiting costs no Redis connection, and joining the wait costs no read either: while a game is
subscribed the subscriber knows its latest version and keeps its last ``TAIL`` events (the
confirmation's read, then one read per delivery, of the new events only), and a new waiter
starts from those (:attr:`Waiter.known`).  A burst of a thousand clients joining the feed of a
few games therefore does not queue a thousand reads for the process's bounded pool of
connections (shared.play.redis_clients); only a waiter further behind than the events kept, or whose
game's subscriber could not read (Redis failed meanwhile), reads for itself.

A game that moves fast has its news delivered at most every ``flush_seconds``: the first
announcement goes out at once, those that follow within that time go out together, with one
read.  A thousand spectators of a game that logs hundreds of events a second are woken a few
times a second each, not hundreds, and each wake-up carries every event since the last.
"""
from __future__ import annotations

import logging
import os
import threading
import time
import uuid
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any
from collections.abc import Callable

import redis

log = logging.getLogger("news")

RECONNECT_BACKOFF_SECONDS = (0.1, 0.5, 1.0, 2.0)
TAIL = 256                  # the last events of each watched game the subscriber keeps for its waiters
WAKE_SLICE = 64             # waiters woken in a row before the subscriber lets others run
FLUSH_SECONDS = 0.1         # a game's news goes out at most this often (what comes meanwhile, together)

_instances: weakref.WeakSet[LogNews] = weakref.WeakSet()
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


def channel(game_name: str, game_id: str) -> str:
    """The pub/sub channel a game's appends are announced on (see ``append.lua``)."""
    return f"news:{game_name}:{game_id}"


ReadLog = Callable[[str, int, int], list[dict[str, Any]]]    # (game id, after, limit) -> records
ReadStatus = Callable[[str], "tuple[int, str] | None"]       # game id -> (version, status), None if gone


@dataclass(frozen=True)
class News:
    """What the subscriber learnt of a game: its version and status, and its last events (in
    order, one after the other, up to ``version``; none when it could not read them)."""

    version: int
    status: str
    records: tuple[dict[str, Any], ...] = ()

    def after(self, seq: int) -> list[dict[str, Any]] | None:
        """The events after ``seq`` when these hold every one of them up to ``version``, else None."""
        if seq >= self.version:
            return []
        if not self.records or self.records[-1]["seq"] != self.version:
            return None
        first = self.records[0]["seq"]
        if seq + 1 < first:
            return None
        return list(self.records[seq + 1 - first:])


class Waiter:
    """One request's wait for news of one game; woken by the subscriber thread.

    ``known`` and ``pending`` say, as the waiter registered, what the subscriber knew of the game:
    its latest version and status (``known``: the waiter need not read them), or that its
    subscription is being made (``pending``: its confirmation will wake this waiter with them).
    Neither: the waiter reads the game's version itself before it waits."""

    __slots__ = ("game_id", "after", "known", "pending", "_event", "_news")

    def __init__(self, game_id: str, after: int) -> None:
        self.game_id = game_id
        self.after = after            # the last event this client has: the subscriber reads past it
        self.known: News | None = None
        self.pending = False
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
    """The process's subscriber to the channels of the games someone here waits on, started on
    first use (after any fork).

    The subscriber thread owns its pub/sub connection: every SUBSCRIBE and UNSUBSCRIBE is sent
    from it, never from a waiter's greenlet (a redis-py PubSub is not safe to drive from two).
    A waiter whose game is not subscribed yet asks for it and nudges the thread through the
    process's own wake channel; until Redis confirms the subscription the waiter relies on
    its own read of the log, and the confirmation wakes it to read once more, so an append in
    between is never missed.  A game nobody here waits on any more stays subscribed for
    ``idle_seconds`` (a long-poll that answers usually comes straight back), then is dropped.
    """

    def __init__(self, client: redis.Redis[bytes], game_name: str, read_log: ReadLog | None = None,
                 page: int = 200, publisher: redis.Redis[bytes] | None = None,
                 idle_seconds: float = 30.0, read_status: ReadStatus | None = None,
                 flush_seconds: float = FLUSH_SECONDS) -> None:
        self._client = client
        self._publisher = publisher or client       # sends the wake-ups (a client with timeouts)
        self._read_log = read_log
        self._read_status = read_status             # without it, a confirmation wakes waiters to read
        self._page = page
        self._game_name = game_name
        self._idle_seconds = idle_seconds
        self._flush_seconds = flush_seconds
        self._lock = threading.Lock()
        self._waiters: dict[str, set[Waiter]] = {}
        # Shared with the subscriber thread, under the lock:
        self._confirmed: set[str] = set()           # games whose subscription Redis confirmed
        self._requested: set[str] = set()           # games a waiter asked for, not yet sent
        self._sent: set[str] = set()                # SUBSCRIBE sent, not yet confirmed
        self._unwatched_since: dict[str, float] = {}  # subscribed games nobody waits on, since when
        self._known: dict[str, News] = {}           # confirmed games' latest news, as delivered
        # Used by the subscriber thread only:
        self._announced: dict[str, tuple[int, str]] = {}   # news not delivered yet: version, status
        self._due: dict[str, float] = {}            # when each game's announced news goes out
        self._delivered_at: dict[str, float] = {}   # when each game's news last went out
        self._wake_channel = ""
        self._pid = 0
        self.announcements_read = 0                 # games' announcements received (tests, diagnostics)
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
            self._unwatched_since.pop(game_id, None)
            waiter.known = self._known.get(game_id)
            waiter.pending = game_id not in self._confirmed and self._read_status is not None
            # One nudge carries every request made before the thread next looks at them.
            nudge = False
            if game_id not in self._confirmed and game_id not in self._sent:
                nudge = not self._requested
                self._requested.add(game_id)
        if nudge:
            self._nudge()
        try:
            yield waiter
        finally:
            with self._lock:
                watchers = self._waiters.get(game_id)
                if watchers is not None:
                    watchers.discard(waiter)
                    if not watchers:
                        del self._waiters[game_id]
                        self._unwatched_since[game_id] = time.monotonic()

    def latest(self, game_id: str) -> News | None:
        """The game's latest news as delivered here, while it is subscribed; None if unknown."""
        with self._lock:
            return self._known.get(game_id)

    def _nudge(self) -> None:
        """Tell the subscriber thread there are games to subscribe (it may be parked in a read)."""
        try:
            self._publisher.publish(self._wake_channel, b"")
        except redis.RedisError as exc:
            # The subscriber also looks at its requests once a second; the waiter reads the log itself.
            log.warning("could not wake the feed subscriber: %s", exc)

    # -- the subscriber thread --------------------------------------------------------------------
    def _ensure_started(self) -> None:
        if self._pid == os.getpid():
            return
        with self._lock:
            if self._pid == os.getpid():
                return
            self._pid = os.getpid()
            self._wake_channel = f"news-wake:{uuid.uuid4().hex}"     # this process's own
            self._confirmed.clear()
            self._known.clear()
            threading.Thread(target=self._run, name="log-news", daemon=True).start()

    def _run(self) -> None:
        failures = 0
        while True:
            pubsub = self._client.pubsub()
            try:
                with self._lock:
                    # A new connection: every game anyone waits on is subscribed again, and each
                    # waiter is woken by its game's confirmation (messages may have been lost).
                    self._confirmed.clear()
                    self._known.clear()
                    self._sent.clear()
                    self._requested = set(self._waiters)
                self._announced.clear()
                self._due.clear()
                pubsub.subscribe(self._wake_channel)
                failures = 0
                last_tidy = time.monotonic()
                while True:
                    self._send_requests(pubsub)
                    # A one-second poll, not listen(): the client's health checks (a PING when
                    # the line has been quiet) run in get_message, and find a dead connection.
                    message = pubsub.get_message(timeout=self._until_due())
                    if message is not None:
                        self._handle(message)
                    self._deliver_due()
                    if time.monotonic() - last_tidy >= min(1.0, self._idle_seconds):
                        last_tidy = time.monotonic()
                        self._drop_unwatched(pubsub)
            except (redis.RedisError, OSError) as exc:
                delay = RECONNECT_BACKOFF_SECONDS[min(failures, len(RECONNECT_BACKOFF_SECONDS) - 1)]
                failures += 1
                if failures == 1:
                    log.warning("feed subscription of %s lost (%s); reconnecting", self._game_name, exc)
                time.sleep(delay)
            except Exception:  # the thread must outlive any surprise; waiters time out meanwhile
                log.exception("feed subscriber failed; restarting it")
                time.sleep(1.0)
            finally:
                try:
                    pubsub.close()
                except Exception:  # noqa: BLE001 - closing a broken connection may fail too
                    pass

    def _send_requests(self, pubsub: Any) -> None:
        with self._lock:
            wanted, self._requested = self._requested, set()
            self._sent |= wanted
        if wanted:
            pubsub.subscribe(*(channel(self._game_name, game_id) for game_id in wanted))

    def _drop_unwatched(self, pubsub: Any) -> None:
        """Unsubscribe the games nobody here has waited on for ``idle_seconds``.  Taken out of
        ``_confirmed`` first, under the lock: a waiter that comes for one now asks anew."""
        now = time.monotonic()
        with self._lock:
            idle = [g for g, since in self._unwatched_since.items() if now - since >= self._idle_seconds]
            for game_id in idle:
                del self._unwatched_since[game_id]
                self._confirmed.discard(game_id)
                self._known.pop(game_id, None)
                self._sent.discard(game_id)
        for game_id in idle:
            self._announced.pop(game_id, None)
            self._due.pop(game_id, None)
            self._delivered_at.pop(game_id, None)
        if idle:
            pubsub.unsubscribe(*(channel(self._game_name, game_id) for game_id in idle))

    def _handle(self, message: dict[str, Any]) -> None:
        kind = message.get("type")
        if kind == "message":
            if message.get("channel") != self._wake_channel.encode():
                self.announcements_read += 1
                self._announce(message["data"])
        elif kind == "subscribe":
            name = message["channel"].decode()
            if name == self._wake_channel:
                return
            game_id = name[len(channel(self._game_name, "")):]
            # Appends before this point were announced to nobody here: read the game once, for
            # every waiter (none reads it meanwhile: they wait for this, ``Waiter.pending``).
            news = self._read_news(game_id)
            with self._lock:
                if game_id in self._sent:        # not dropped meanwhile
                    self._sent.discard(game_id)
                    self._confirmed.add(game_id)
                    if news is not None:
                        self._known[game_id] = news
                watchers = list(self._waiters.get(game_id, ()))
            if news is not None and self._announced.get(game_id, (news.version + 1,))[0] <= news.version:
                del self._announced[game_id]     # announcements the read above has covered
                self._due.pop(game_id, None)
            for waiter in watchers:
                waiter.wake(news)                # without news (the read failed): read yourselves

    def _read_news(self, game_id: str) -> News | None:
        """The game's version and status, and its last events; None if that failed."""
        if self._read_status is None:
            return None
        try:
            found = self._read_status(game_id)
            if found is None:
                return None
            return self._with_records(game_id, None, News(*found))
        except redis.RedisError as exc:
            log.warning("reading the news of %s failed: %s", game_id, exc)
            return None

    def _with_records(self, game_id: str, kept: News | None, news: News) -> News:
        """``news`` with the game's last events, at most ``TAIL``: those ``kept`` from its previous
        news and the ones after them, read once (the last ``TAIL`` if none are kept: waiters who
        join later, spectators arriving at the game's start, catch up from them)."""
        if self._read_log is None:
            return news
        records = kept.records if kept is not None else ()
        if records and not 0 <= news.version - records[-1]["seq"] <= TAIL:
            records = ()                         # too far behind to go on from: start again
        start = records[-1]["seq"] if records else max(news.version - TAIL, 0)
        if start < news.version:
            records += tuple(self._read_log(game_id, start, news.version - start))
        return News(news.version, news.status, records[-TAIL:])

    def _announce(self, data: Any) -> None:
        """Note a game's announcement; its news goes out at once, or with the next ones if the
        game's news went out less than ``flush_seconds`` ago."""
        text = data.decode() if isinstance(data, bytes) else str(data)
        game_id, _, rest = text.partition(" ")
        version_text, _, status = rest.partition(" ")
        version = int(version_text)
        with self._lock:
            known = self._known.get(game_id)
        if known is not None and version <= known.version:
            return                               # the confirmation's read had it already
        if self._announced.get(game_id, (version - 1,))[0] >= version:
            return
        self._announced[game_id] = (version, status or "active")
        if game_id not in self._due:
            self._due[game_id] = self._delivered_at.get(game_id, -self._flush_seconds) + self._flush_seconds

    def _until_due(self) -> float:
        """How long the subscriber may wait for a message: until the next news is due, at most 1 s."""
        if not self._due:
            return 1.0
        return min(1.0, max(0.0, min(self._due.values()) - time.monotonic()))

    def _deliver_due(self) -> None:
        now = time.monotonic()
        for game_id in [g for g, due in self._due.items() if due <= now]:
            del self._due[game_id]
            self._delivered_at[game_id] = now
            self._deliver(game_id, News(*self._announced.pop(game_id)))

    def _deliver(self, game_id: str, news: News) -> None:
        """One read of the game's new events for every waiter of this game; each is handed the
        game's last events (one that needs older ones reads them itself).  Read even when nobody
        waits right now: a long-poll that answered is usually back soon, and finds them kept."""
        with self._lock:
            kept = self._known.get(game_id)
        try:
            news = self._with_records(game_id, kept, news)
        except redis.RedisError as exc:
            log.warning("reading the news of %s failed: %s", game_id, exc)
        with self._lock:
            # Known from here on, and every waiter registered before is woken: a waiter that
            # registered during the read is woken too, and one that comes next starts from this.
            if game_id in self._confirmed:
                self._known[game_id] = news
            watchers = list(self._waiters.get(game_id, ()))
        for count, waiter in enumerate(watchers, 1):
            waiter.wake(news)
            if count % WAKE_SLICE == 0:
                # Under gevent each woken waiter runs before whatever becomes ready after it: a
                # thousand spectators woken at once would hold up every request waiting on Redis
                # for the whole round.  A pause between slices lets those run in between.
                time.sleep(0)

    def _wake_all(self) -> None:
        with self._lock:
            watchers = [w for ws in self._waiters.values() for w in ws]
        for waiter in watchers:
            waiter.wake()
