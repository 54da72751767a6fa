"""The live feed of one game's log: long-poll pages and a Server-Sent Events stream.

Both read the log as the caller may see it (``served_record``: redacted for the token's seat
while the game runs, whole once it is over) and wait through :class:`shared.log.news.LogNews`, so a
waiting client parks a greenlet (gevent workers, see deploy/gunicorn.conf.py) and holds no
request thread and no Redis connection.

The stream (``GET /games/{id}/events`` with ``Accept: text/event-stream``):

- each log event is one SSE message: ``id:`` its ``seq``, ``data:`` the served record as JSON;
- a client that reconnects sends ``Last-Event-ID`` (browsers do it by themselves) and resumes
  after it; ``?after=N`` does the same for a first connection;
- a comment line every ``SSE_HEARTBEAT_SECONDS`` keeps proxies from closing a quiet stream;
- once the game is over (``finished``, ``abandoned``, or ``cancelled`` before it started: nothing
  more will be logged) and the client has every event, an ``event: end`` message says so and the
  stream closes; reconnecting then answers 204, which stops a browser's ``EventSource``.  A
  long-poll on such a game answers at once.  (A cancelled game's log stays redacted as it was:
  only a finished or abandoned game's log, whose seed is revealed, is public in full.)
- a stream is closed after ``SSE_MAX_SECONDS`` with a ``retry:`` hint, so clients move to
  another instance now and then (rolling restarts, balancing) and resume where they were;
- when the process is stopping (SIGTERM: ``shared.log.news.begin_draining``) every stream ends at once
  with a short ``retry:`` hint, and every long-poll answers what it has, so a graceful stop
  takes no longer than the requests in flight.

Fan-out by audience: a game's new records are read once per process (``LogNews``), and each
record is redacted and serialized once per audience, the game's seats, its spectators, and
everyone once the game is over (:class:`ServedRecords`); every reader of that audience, streamed
or long-polling, is sent the same bytes.  A thousand spectators cost one serialization per
event, and bytes to write.

A stream that follows its game reads nothing from Redis itself: its news brings the game's last
events.  Only a stream further behind than those (a reconnection, a slow reader) reads the log,
and the streams that need the same page share one read (:class:`SharedReads`).  A stream that
meets an exhausted pool (a burst this process's connections could not serve in time) tries
again, with a comment line meanwhile, instead of ending: ending it would bring its client
straight back for the same reads.
"""
from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Generator, Iterator
from typing import Any, Generic, TypeVar, cast
from collections.abc import Callable

import redis
from flask import Response, request

from shared.log import jsonout
from shared.http import metrics
from shared.game.engine import Game
from shared.log.eventstore import EventStore
from shared.log.news import LogNews, News, Waiter, draining
from shared.play.problems import Problem
from shared.play.redis_clients import PoolExhausted
from shared.log.replay import log_is_public, served_record

log = logging.getLogger("feed")

EVENT_STREAM = "text/event-stream"
ENDED = ("finished", "cancelled", "abandoned")   # statuses after which the log never grows
PAGE = 200                 # events read from the log per round trip while streaming
SEND_TIMEOUT_SECONDS = 30  # a client that reads nothing for this long is dropped
RETRY_SECONDS = (0.05, 0.1, 0.2, 0.5, 1.0)   # a stream's pauses between tries on an exhausted pool
CONFIRMATION_SECONDS = 1.0  # how long a new stream waits for its subscription's news before reading
RECENT_META_SECONDS = 1.0   # how long a game's meta serves the streams and long-polls that come back
RECENT_META_KEPT = 4096     # games whose recent meta is kept (all forgotten at once past this)
# The last message of a stream whose process is stopping: reconnect now (the balancer sends the
# reconnection to another instance, and Last-Event-ID resumes after the last event delivered).
DRAINING_HINT = b"retry: 100\n: this instance is stopping; reconnect now (Last-Event-ID resumes)\n\n"


def wants_stream() -> bool:
    """The client asked for SSE (``Accept: text/event-stream``) rather than a JSON page."""
    # Named exactly: a bare "*/*" (curl, requests) gets the JSON page it always got.
    return any(value == EVENT_STREAM and quality > 0 for value, quality in request.accept_mimetypes)


def resume_point(after: int) -> int:
    """Where a stream starts: ``Last-Event-ID`` (a reconnecting client) over ``?after``."""
    raw = request.headers.get("Last-Event-ID")
    if raw is None:
        return after
    if not (raw.strip().isascii() and raw.strip().isdigit() and len(raw.strip()) <= 15):
        raise Problem("malformed-request", "Last-Event-ID takes the seq of the last event received, e.g. 12.")
    return int(raw)


class Feed:
    def __init__(self, game: Game, store: EventStore, news: LogNews, *, heartbeat_seconds: float,
                 max_stream_seconds: float, max_wait_seconds: float,
                 game_meta: Callable[[str], dict[str, str]],
                 rules_for: Callable[[dict[str, str]], Game] | None = None) -> None:
        self.game = game
        # The rules a game keeps (GameRuntime.rules_for): its events are redacted by them.
        self._rules_for = rules_for or (lambda meta: game)
        self.store = store
        self.news = news
        self.heartbeat_seconds = heartbeat_seconds
        self.max_stream_seconds = max_stream_seconds
        self.max_wait_seconds = max_wait_seconds
        self._meta = game_meta          # the game's meta, or the game-not-found problem
        self._meta_reads: SharedReads[str, dict[str, str]] = SharedReads()
        self._recent_meta: dict[str, tuple[float, dict[str, str]]] = {}   # game -> (read when, meta)
        self._log_reads: SharedReads[tuple[str, int, int], list[dict[str, Any]]] = SharedReads()
        self.served = ServedRecords(game)

    def meta(self, game_id: str, recent: bool = False) -> dict[str, str]:
        """The game's meta for a feed request: requests for one game that arrive together share
        one read (a burst of clients joining a game's feed would queue a read each for the
        process's few pooled connections).  Shared reads are no staler than the feed allows:
        a waiter then learns the game's latest version from the subscriber, and a token that
        does not match this meta is checked against a fresh one (``Service.authenticate``).

        ``recent`` (a stream, a waiting long-poll): the meta read here in the last
        ``RECENT_META_SECONDS`` will do, with the version and status the subscriber has learnt
        since, so clients of a watched game that come back (a long-poll that answered, the
        spectators of a table's next game) cost no read each, even while the game moves.  The
        rest of the meta changes without news only where it is checked again: a seat's token
        (``Service.authenticate`` reads afresh on a mismatch)."""
        if recent:
            kept = self._recent_meta.get(game_id)
            latest = self.news.latest(game_id)
            if kept is not None and time.monotonic() - kept[0] < RECENT_META_SECONDS and latest is not None:
                read_at, meta = kept
                if latest.version > int(meta["version"]):
                    meta = {**meta, "version": str(latest.version), "status": latest.status}
                    self._recent_meta[game_id] = (read_at, meta)
                return meta
        read_at = time.monotonic()
        meta = self._meta_reads.get(game_id, lambda: self._meta(game_id))
        if len(self._recent_meta) >= RECENT_META_KEPT:
            self._recent_meta.clear()
        self._recent_meta[game_id] = (read_at, meta)
        return meta

    def _status(self, game_id: str) -> News:
        return News(*_status(self.meta(game_id)))

    def _read(self, game_id: str, after: int, limit: int) -> list[dict[str, Any]]:
        """Events after ``after``: readers who need the same ones at the same time share one read."""
        return self._log_reads.get((game_id, after, limit),
                                   lambda: self.store.read(game_id, after=after, limit=limit))

    def _joined(self, game_id: str, waiter: Waiter, seen: News, patience: float = 0.0) -> News:
        """The game's news once ``waiter`` is registered (an append between the request's read of
        the meta and now woke nobody), read only when the subscriber does not know it and will
        not bring it.  When it will (the subscription's confirmation, or an announcement being
        delivered), a waiter with ``patience`` waits that long for it: it brings the game's last
        events, which the waiter would otherwise read for itself."""
        if waiter.known is not None and waiter.known.version >= seen.version:
            return waiter.known
        if waiter.known is None and not waiter.pending:
            return self._status(game_id)
        _, news = waiter.wait(patience)
        return news if news is not None and news.version >= seen.version else seen

    # -- long-poll --------------------------------------------------------------------------------
    def page(self, game_id: str, meta: dict[str, str], seat: int | None, after: int, limit: int,
             wait: float) -> bytes:
        """One page of the log after ``after`` (JSON); with ``wait``, held until there is one (or
        time's up).  Written around each event's served bytes, shared with the page's audience."""
        news = News(*_status(meta))
        if wait > 0 and news.status not in ENDED:
            deadline = time.monotonic() + min(wait, self.max_wait_seconds)
            with self.news.watch(game_id, after) as waiter:
                # Even with events to answer at once: the subscriber has them, or brings them
                # within a moment (a fast game's news goes out a few times a second), which costs
                # less than a read of the log for each waiting client that comes back.
                news = self._joined(game_id, waiter, news, min(wait, CONFIRMATION_SECONDS))
                while news.version <= after and news.status not in ENDED:
                    left = deadline - time.monotonic()
                    if left <= 0 or draining():
                        break
                    woken, fresh = waiter.wait(left)
                    if fresh is not None:
                        news = fresh
                    elif woken:                  # the subscriber came back: it may have missed news
                        news = self._status(game_id)
        records = news.after(after)
        if records is None:
            records = self._read(game_id, after, limit)
        version, status = news.version, news.status
        finished, rules = log_is_public(status), self._rules_for(meta)
        events = b",".join(self.served.bytes(game_id, r, seat, finished, rules) for r in records[:limit])
        # The same object as {"version", "status", "events"} written whole, with the events' bytes as they are.
        return jsonout.dumps({"version": version, "status": status})[:-1] + b',"events":[' + events + b"]}"

    # -- Server-Sent Events -----------------------------------------------------------------------
    def stream(self, game_id: str, meta: dict[str, str], seat: int | None, after: int) -> Response:
        if meta.get("status") in ENDED and after >= int(meta["version"]):
            # Nothing more will ever come: 204 tells an EventSource to stop reconnecting.
            return Response(status=204)
        _limit_sends(request.environ)
        response = Response(self._messages(game_id, seat, after, News(*_status(meta)), self._rules_for(meta)),
                            mimetype=EVENT_STREAM)
        response.headers["Cache-Control"] = "no-cache"
        response.headers["X-Accel-Buffering"] = "no"        # nginx: pass each message on at once
        return response

    def _messages(self, game_id: str, seat: int | None, after: int, seen: News,
                  rules: Game) -> Iterator[bytes]:
        yield b"retry: 2000\n: stream of the game's log; one message per event\n\n"
        try:
            yield from self._follow(game_id, seat, after, seen, rules)
        except (redis.RedisError, Problem) as exc:
            # The stream has begun (status 200 is sent): say it ends here; the client reconnects
            # with Last-Event-ID and then meets a proper answer (503 while Redis is away, 404).
            log.warning("feed of %s ended early: %s", game_id, exc)
            yield b"retry: 2000\n: the stream stopped; reconnect to resume\n\n"

    def _follow(self, game_id: str, seat: int | None, last: int, seen: News,
                rules: Game) -> Iterator[bytes]:
        ends_at = time.monotonic() + self.max_stream_seconds
        with self.news.watch(game_id, last) as waiter:
            news = yield from _patiently(lambda: self._joined(game_id, waiter, seen, CONFIRMATION_SECONDS))
            while True:
                if news.version > last:
                    records = news.after(last)
                    if records is None:          # further behind than the news holds
                        after = last
                        records = yield from _patiently(lambda: self._read(game_id, after, PAGE))  # noqa: B023 - run now
                    if not records:              # the log is shorter than its meta said
                        news = yield from _patiently(lambda: self._status(game_id))
                        continue
                    # Every event the client lacks in one write: a busy process sends fewer, larger ones.
                    yield self.served.messages(game_id, records, seat, log_is_public(news.status), rules)
                    last = waiter.after = records[-1]["seq"]
                    continue
                if news.status in ENDED:
                    yield b"event: end\ndata: " + jsonout.dumps({"version": news.version, "status": news.status}) \
                        + b"\n\n"
                    return
                if draining():
                    yield DRAINING_HINT
                    return
                left = ends_at - time.monotonic()
                if left <= 0:
                    yield b"retry: 500\n: reconnect to go on (Last-Event-ID resumes)\n\n"
                    return
                woken, fresh = waiter.wait(min(self.heartbeat_seconds, left))
                if fresh is not None:
                    news = fresh
                elif woken:                      # the subscriber came back: it may have missed news
                    news = yield from _patiently(lambda: self._status(game_id))
                else:
                    yield b": keep-alive\n\n"


SERVED_KEPT = 4096      # served records this process keeps (every audience of the recent events)
MESSAGES_KEPT = 256     # streams' writes this process keeps (a delivery's, for each audience and start)


class ServedRecords:
    """Each record as one audience may see it, serialized once per process: the records of the
    games being watched, by (game, seq, audience), least recently used out first.

    The audience of a running game is the reader's seat, or the spectators (``None``); once the
    game is finished every reader sees the whole record (``served_record``), one audience.  A
    record never changes once logged (the hash chain), so its bytes may be kept."""

    def __init__(self, game: Game, size: int = SERVED_KEPT) -> None:
        self.game = game
        self.size = size
        self._lock = threading.Lock()
        self._served: OrderedDict[tuple[str, int, int | str | None], bytes] = OrderedDict()
        self._messages: OrderedDict[tuple[str, int, int, int | str | None], bytes] = OrderedDict()
        self._counted = metrics.FEED_SERIALIZATIONS.labels(game.name)

    def messages(self, game_id: str, records: list[dict[str, Any]], seat: int | None, finished: bool,
                 rules: Game) -> bytes:
        """The SSE messages of ``records`` (in order, one after the other) for ``seat``'s audience,
        made once: the streams a delivery wakes that were at the same point write the same bytes."""
        key = (game_id, records[0]["seq"], records[-1]["seq"], "all" if finished else seat)
        with self._lock:
            found = self._messages.get(key)
        if found is not None:
            return found
        made = b"".join(_message(r["seq"], self.bytes(game_id, r, seat, finished, rules)) for r in records)
        with self._lock:
            self._messages[key] = made
            if len(self._messages) > MESSAGES_KEPT:
                self._messages.popitem(last=False)
        return made

    def bytes(self, game_id: str, record: dict[str, Any], seat: int | None, finished: bool, rules: Game) -> bytes:
        """``record`` as ``seat`` may see it, redacted by ``rules`` (the engine version the game keeps)."""
        key = (game_id, record["seq"], "all" if finished else seat)
        with self._lock:
            found = self._served.get(key)
            if found is not None:
                self._served.move_to_end(key)
                return found
            # Made under the lock: two readers of one audience arriving together must not both
            # serialize (a greenlet never yields in here; threads wait a fraction of a millisecond).
            served = jsonout.dumps(served_record(rules, record, seat, finished))
            self._counted.inc()
            self._served[key] = served
            if len(self._served) > self.size:
                self._served.popitem(last=False)
            return served


K = TypeVar("K")
T = TypeVar("T")


class SharedReads(Generic[K, T]):
    """Concurrent reads of one key share the read in flight (a single flight per key)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._flights: dict[K, _Flight[T]] = {}

    def get(self, key: K, read: Callable[[], T]) -> T:
        with self._lock:
            flight = self._flights.get(key)
            leader = flight is None
            if flight is None:
                flight = self._flights[key] = _Flight()
        if not leader:
            flight.done.wait()
            if flight.error is not None:
                raise flight.error
            return cast(T, flight.value)
        try:
            flight.value = read()
            return flight.value
        except BaseException as exc:
            flight.error = exc
            raise
        finally:
            with self._lock:
                del self._flights[key]
            flight.done.set()


class _Flight(Generic[T]):
    __slots__ = ("done", "value", "error")

    def __init__(self) -> None:
        self.done = threading.Event()
        self.value: T | None = None
        self.error: BaseException | None = None


def _status(meta: dict[str, str]) -> tuple[int, str]:
    return int(meta["version"]), meta["status"]


def _patiently(read: Callable[[], T]) -> Generator[bytes, None, T]:
    """``read()`` for a stream, tried again while this process's pool of Redis connections stays
    busy (a burst passes), with a comment line between tries (which also finds a client gone).
    Any other failure (Redis itself) ends the stream."""
    tries = 0
    while True:
        try:
            return read()
        except PoolExhausted:
            if draining():
                raise
            yield b": busy; trying again\n\n"
            time.sleep(RETRY_SECONDS[min(tries, len(RETRY_SECONDS) - 1)])
            tries += 1


def _message(seq: int, served: bytes) -> bytes:
    return b"id: %d\ndata: " % seq + served + b"\n\n"


def _limit_sends(environ: dict[str, Any]) -> None:
    """Bound how long a write to this client may block: a client that stops reading must not
    hold its connection (and greenlet) for ever once its socket buffer is full."""
    sock = environ.get("gunicorn.socket")
    if sock is not None:
        try:
            sock.settimeout(SEND_TIMEOUT_SECONDS)
        except OSError:
            pass


OPENINGS_AT_ONCE = 4    # streams being opened at one time; the rest wait their turn, costing nothing
# An opening waits at most this long for an idle moment: a loop kept busy (moves, deliveries) still
# opens ``OPENINGS_AT_ONCE`` streams in each such pause (40 a second at the least), and gives the rest
# of its time to what is already under way.
IDLE_WAIT_SECONDS = 0.1


class StreamOpenings:
    """WSGI layer: new Server-Sent Events streams are opened a few at a time, and only when the
    process has nothing more urgent to do.

    A table's spectators all reconnect within milliseconds when its game ends (``event: end``,
    then the next game's stream).  Opening a stream costs a fraction of a millisecond of this
    process's one core (routing, the query's parsing, the meta, the response's head), and under
    gevent a thousand openings ready at once run back to back: a move or a probe that arrives
    meanwhile waits behind all of them.  Here an opening first waits for a turn (at most
    ``at_once`` at a time) and then for an idle moment of the event loop (``gevent.idle``: no
    socket or timer ready; at most ``IDLE_WAIT_SECONDS``, so a loop that is never idle still
    opens streams at a steady pace), so moves, probes and the streams' deliveries go first and
    the openings fill the gaps.  The turn is held until the stream's head and first line are sent.
    Without gevent (a threaded worker) it only bounds how many open at once."""

    def __init__(self, app: Any, at_once: int = OPENINGS_AT_ONCE) -> None:
        self.app = app
        self._turns = threading.BoundedSemaphore(at_once)

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        if environ.get("REQUEST_METHOD") != "GET" or EVENT_STREAM not in environ.get("HTTP_ACCEPT", "") \
                or not environ.get("PATH_INFO", "").endswith("/events"):
            return self.app(environ, start_response)
        self._turns.acquire()
        try:
            _when_idle()
            answer = self.app(environ, start_response)
        except BaseException:
            self._turns.release()
            raise
        return _TurnHeld(answer, self._turns.release)


class _TurnHeld:
    """The answer's iterable, holding the opening's turn until its first chunk has been written
    (the server asks for the second one after writing the first), or it is closed."""

    def __init__(self, answer: Any, release: Callable[[], None]) -> None:
        self._answer = answer
        self._iterator = iter(answer)
        self._release: Callable[[], None] | None = release
        self._chunks = 0

    def __iter__(self) -> _TurnHeld:
        return self

    def __next__(self) -> bytes:
        if self._chunks == 1:
            self._give_back()
        self._chunks += 1
        try:
            return cast(bytes, next(self._iterator))
        except BaseException:
            self._give_back()
            raise

    def close(self) -> None:
        self._give_back()
        close = getattr(self._answer, "close", None)
        if close is not None:
            close()

    def _give_back(self) -> None:
        release, self._release = self._release, None
        if release is not None:
            release()


def _when_idle() -> None:
    """Wait for an idle moment of the gevent loop (at most ``IDLE_WAIT_SECONDS``) when this
    process runs under gevent."""
    try:
        from gevent import Timeout, idle, monkey
    except ImportError:
        return
    if monkey.is_module_patched("socket"):
        with Timeout(IDLE_WAIT_SECONDS, False):
            idle()
