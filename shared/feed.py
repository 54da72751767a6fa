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
"""
from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from typing import Any, Callable

import redis
from flask import Response, request

from shared import jsonout
from shared.engine import Game
from shared.eventstore import EventStore
from shared.news import LogNews, draining
from shared.problems import Problem
from shared.replay import served_record

log = logging.getLogger("feed")

EVENT_STREAM = "text/event-stream"
ENDED = ("finished", "cancelled")   # statuses after which the log never grows
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

    # -- long-poll --------------------------------------------------------------------------------
    def page(self, game_id: str, meta: dict[str, str], seat: int | None, after: int, limit: int,
             wait: float) -> dict[str, Any]:
        """One page of the log after ``after``; with ``wait``, held until there is one (or time's up)."""
        version, status = int(meta["version"]), meta["status"]
        records: list[dict[str, Any]] | None = None
        if wait > 0 and version <= after and status not in ENDED:
            deadline = time.monotonic() + min(wait, self.max_wait_seconds)
            with self.news.watch(game_id, after) as waiter:
                # Read again once registered: an append between the first read and now woke nobody.
                version, status = _status(self._meta(game_id))
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
        return {"version": version, "status": status,
                "events": [served_record(rules, r, seat, finished) for r in records[:limit]]}

    # -- Server-Sent Events -----------------------------------------------------------------------
    def stream(self, game_id: str, meta: dict[str, str], seat: int | None, after: int) -> Response:
        if meta.get("status") in ENDED and after >= int(meta["version"]):
            # Nothing more will ever come: 204 tells an EventSource to stop reconnecting.
            return Response(status=204)
        _limit_sends(request.environ)
        response = Response(self._messages(game_id, seat, after), mimetype=EVENT_STREAM)
        response.headers["Cache-Control"] = "no-cache"
        response.headers["X-Accel-Buffering"] = "no"        # nginx: pass each message on at once
        return response

    def _messages(self, game_id: str, seat: int | None, after: int) -> Iterator[bytes]:
        yield b"retry: 2000\n: stream of the game's log; one message per event\n\n"
        try:
            yield from self._follow(game_id, seat, after)
        except (redis.RedisError, Problem) as exc:
            # The stream has begun (status 200 is sent): say it ends here; the client reconnects
            # with Last-Event-ID and then meets a proper answer (503 while Redis is away, 404).
            log.warning("feed of %s ended early: %s", game_id, exc)
            yield b"retry: 2000\n: the stream stopped; reconnect to resume\n\n"

    def _follow(self, game_id: str, seat: int | None, last: int) -> Iterator[bytes]:
        ends_at = time.monotonic() + self.max_stream_seconds
        with self.news.watch(game_id, last) as waiter:
            meta = self._meta(game_id)
            version, status, rules = *_status(meta), self._rules_for(meta)
            delivered: list[dict[str, Any]] | None = None     # events the subscriber read for us
            while True:
                if version > last:
                    records = delivered if delivered is not None else \
                        self.store.read(game_id, after=last, limit=PAGE)
                    delivered = None
                    finished = status == "finished"
                    for record in records:
                        yield _message(record["seq"], served_record(rules, record, seat, finished))
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


def _status(meta: dict[str, str]) -> tuple[int, str]:
    return int(meta["version"]), meta["status"]


def _message(seq: int, record: dict[str, Any]) -> bytes:
    return b"id: %d\ndata: " % seq + jsonout.dumps(record) + b"\n\n"


def _limit_sends(environ: dict[str, Any]) -> None:
    """Bound how long a write to this client may block: a client that stops reading must not
    hold its connection (and greenlet) for ever once its socket buffer is full."""
    sock = environ.get("gunicorn.socket")
    if sock is not None:
        try:
            sock.settimeout(SEND_TIMEOUT_SECONDS)
        except OSError:
            pass
