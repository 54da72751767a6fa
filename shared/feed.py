"""The live feed of one game's log: long-poll pages and a Server-Sent Events stream.

Both read the log as the caller may see it (``served_record``: redacted for the token's seat
while the game runs, whole once it is over) and wait through :class:`shared.news.LogNews`, so a
waiting client parks a greenlet (gevent workers, see deploy/gunicorn.conf.py) and holds no
request thread and no Redis connection.

The stream (``GET /games/{id}/events`` with ``Accept: text/event-stream``):

- each log event is one SSE message: ``id:`` its ``seq``, ``data:`` the served record as JSON;
- a client that reconnects sends ``Last-Event-ID`` (browsers do it by themselves) and resumes
  after it; ``?after=N`` does the same for a first connection;
- a comment line every ``SSE_HEARTBEAT_SECONDS`` keeps proxies from closing a quiet stream;
- once the game is over (``finished``, or ``cancelled`` before it started: nothing more will be
  logged either way) and the client has every event, an ``event: end`` message says so and the
  stream closes; reconnecting then answers 204, which stops a browser's ``EventSource``.  A
  long-poll on such a game answers at once.  (A cancelled game's log stays redacted as it was:
  only a finished game's log is public in full.)
- a stream is closed after ``SSE_MAX_SECONDS`` with a ``retry:`` hint, so clients move to
  another instance now and then (rolling restarts, balancing) and resume where they were;
- when the process is stopping (SIGTERM: ``shared.news.begin_draining``) every stream ends at once
  with a short ``retry:`` hint, and every long-poll answers what it has, so a graceful stop
  takes no longer than the requests in flight.

Fan-out by audience: a game's new records are read once per process (``LogNews``), and each
record is redacted and serialized once per audience, the game's seats, its spectators, and
everyone once the game is over (:class:`ServedRecords`); every reader of that audience, streamed
or long-polling, is sent the same bytes.  A thousand spectators cost one serialization per
event, and bytes to write.
"""
from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Iterator
from typing import Any, Callable

import redis
from flask import Response, request

from shared import jsonout, metrics
from shared.engine import Game
from shared.eventstore import EventStore
from shared.news import LogNews, Waiter, draining
from shared.problems import Problem
from shared.replay import served_record

log = logging.getLogger("feed")

EVENT_STREAM = "text/event-stream"
ENDED = ("finished", "cancelled", "abandoned")   # statuses after which the log never grows
PAGE = 200                 # events read from the log per round trip while streaming
SEND_TIMEOUT_SECONDS = 30  # a client that reads nothing for this long is dropped
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
        self._reads = SharedReads()
        self.served = ServedRecords(game)

    def meta(self, game_id: str) -> dict[str, str]:
        """The game's meta for a feed request: requests for one game that arrive together share
        one read (a burst of clients joining a game's feed would queue a read each for the
        process's few pooled connections).  Shared reads are no staler than the feed allows:
        a waiter then learns the game's latest version from the subscriber, and a token that
        does not match this meta is checked against a fresh one (``Service.authenticate``)."""
        return self._reads.get(game_id, self._meta)

    def _joined(self, game_id: str, waiter: Waiter, version: int, status: str) -> tuple[int, str]:
        """The game's version and status once ``waiter`` is registered (an append between the
        request's read of the meta and now woke nobody), read only when the subscriber does not
        know them and will not bring them."""
        if waiter.known is not None:
            if waiter.known.version >= version:
                return waiter.known.version, waiter.known.status
            return version, status          # its announcement is on its way, and wakes the waiter
        if waiter.pending:
            return version, status          # the subscription's confirmation brings them
        return _status(self._meta(game_id))

    # -- long-poll --------------------------------------------------------------------------------
    def page(self, game_id: str, meta: dict[str, str], seat: int | None, after: int, limit: int,
             wait: float) -> bytes:
        """One page of the log after ``after`` (JSON); with ``wait``, held until there is one (or
        time's up).  Written around each event's served bytes, shared with the page's audience."""
        version, status = int(meta["version"]), meta["status"]
        records: list[dict[str, Any]] | None = None
        if wait > 0 and version <= after and status not in ENDED:
            deadline = time.monotonic() + min(wait, self.max_wait_seconds)
            with self.news.watch(game_id, after) as waiter:
                version, status = self._joined(game_id, waiter, version, status)
                while version <= after and status not in ENDED:
                    left = deadline - time.monotonic()
                    if left <= 0 or draining():
                        break
                    woken, news = waiter.wait(left)
                    if news is not None:
                        version, status, records = news.version, news.status, news.after(after)
                    elif woken:                  # the subscriber came back: it may have missed news
                        version, status = _status(self._meta(game_id))
        if records is None:
            records = self.store.read(game_id, after=after, limit=limit) if version > after else []
        finished, rules = status == "finished", self._rules_for(meta)
        events = b",".join(self.served.bytes(game_id, r, seat, finished, rules) for r in records[:limit])
        # The same object as {"version", "status", "events"} written whole, with the events' bytes as they are.
        return jsonout.dumps({"version": version, "status": status})[:-1] + b',"events":[' + events + b"]}"

    # -- Server-Sent Events -----------------------------------------------------------------------
    def stream(self, game_id: str, meta: dict[str, str], seat: int | None, after: int) -> Response:
        if meta.get("status") in ENDED and after >= int(meta["version"]):
            # Nothing more will ever come: 204 tells an EventSource to stop reconnecting.
            return Response(status=204)
        _limit_sends(request.environ)
        response = Response(self._messages(game_id, seat, after, _status(meta), self._rules_for(meta)),
                            mimetype=EVENT_STREAM)
        response.headers["Cache-Control"] = "no-cache"
        response.headers["X-Accel-Buffering"] = "no"        # nginx: pass each message on at once
        return response

    def _messages(self, game_id: str, seat: int | None, after: int, seen: tuple[int, str],
                  rules: Game) -> Iterator[bytes]:
        yield b"retry: 2000\n: stream of the game's log; one message per event\n\n"
        try:
            yield from self._follow(game_id, seat, after, seen, rules)
        except (redis.RedisError, Problem) as exc:
            # The stream has begun (status 200 is sent): say it ends here; the client reconnects
            # with Last-Event-ID and then meets a proper answer (503 while Redis is away, 404).
            log.warning("feed of %s ended early: %s", game_id, exc)
            yield b"retry: 2000\n: the stream stopped; reconnect to resume\n\n"

    def _follow(self, game_id: str, seat: int | None, last: int, seen: tuple[int, str],
                rules: Game) -> Iterator[bytes]:
        ends_at = time.monotonic() + self.max_stream_seconds
        with self.news.watch(game_id, last) as waiter:
            version, status = self._joined(game_id, waiter, *seen)
            delivered: list[dict[str, Any]] | None = None     # events the subscriber read for us
            while True:
                if version > last:
                    records = delivered if delivered is not None else \
                        self.store.read(game_id, after=last, limit=PAGE)
                    delivered = None
                    finished = status == "finished"
                    for record in records:
                        yield _message(record["seq"], self.served.bytes(game_id, record, seat, finished, rules))
                        last = waiter.after = record["seq"]
                    if not records:                    # the log is shorter than its meta said
                        version, status = _status(self._meta(game_id))
                    continue
                if status in ENDED:
                    yield b"event: end\ndata: " + jsonout.dumps({"version": version, "status": status}) + b"\n\n"
                    return
                if draining():
                    yield DRAINING_HINT
                    return
                left = ends_at - time.monotonic()
                if left <= 0:
                    yield b"retry: 500\n: reconnect to go on (Last-Event-ID resumes)\n\n"
                    return
                woken, news = waiter.wait(min(self.heartbeat_seconds, left))
                if news is not None:
                    version, status, delivered = news.version, news.status, news.after(last)
                elif woken:
                    version, status = _status(self._meta(game_id))
                else:
                    yield b": keep-alive\n\n"


SERVED_KEPT = 4096      # served records this process keeps (every audience of the recent events)


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
        self._counted = metrics.FEED_SERIALIZATIONS.labels(game.name)

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


class SharedReads:
    """Concurrent reads of one key share the read in flight (a single flight per key)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._flights: dict[str, _Flight] = {}

    def get(self, key: str, read: Callable[[str], dict[str, str]]) -> dict[str, str]:
        with self._lock:
            flight = self._flights.get(key)
            leader = flight is None
            if flight is None:
                flight = self._flights[key] = _Flight()
        if not leader:
            flight.done.wait()
            if flight.error is not None:
                raise flight.error
            assert flight.value is not None
            return flight.value
        try:
            flight.value = read(key)
            return flight.value
        except BaseException as exc:
            flight.error = exc
            raise
        finally:
            with self._lock:
                del self._flights[key]
            flight.done.set()


class _Flight:
    __slots__ = ("done", "value", "error")

    def __init__(self) -> None:
        self.done = threading.Event()
        self.value: dict[str, str] | None = None
        self.error: BaseException | None = None


def _status(meta: dict[str, str]) -> tuple[int, str]:
    return int(meta["version"]), meta["status"]


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
