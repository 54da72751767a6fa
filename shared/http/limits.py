"""Abuse has limits: how many games a client may create, how many may run, how long they live.

* **Rate limit** on ``POST /games`` per client address (the ``limits`` library, counters in Redis):
  ``CREATE_RATE_LIMIT`` (e.g. ``30/minute``; empty: none).  Over it: 429 ``rate-limited`` with
  ``Retry-After``.  The address is the socket peer; behind ``TRUSTED_PROXY_COUNT`` proxies it is
  taken from ``X-Forwarded-For`` (werkzeug's ProxyFix), never otherwise, as any client can send
  that header.  If the limiter's Redis fails, games are created anyway (logged): a limiter
  outage must not become a service outage.
* **Per address**: at most ``MAX_GAMES_PER_ADDRESS`` unfinished games created (or rematched) from
  one client address, counted in ``games:<title>:by-address:<address>`` (game ids by creation
  time).  At the cap the set is pruned of games that ended, were cancelled, abandoned or expired,
  then 429 ``too-many-games``: the global cap below cannot be filled by one address.  A game
  nobody moves in ends as abandoned (the sweeper, ``ABANDON_AFTER_SECONDS``), so an address's
  forgotten games free its quota in the end.
* **Capacity**: at most ``MAX_ACTIVE_GAMES`` unfinished games per service, counted with the
  per-title active index (SCARD).  At the cap the index is pruned of games that expired or
  finished (at most every ``PRUNE_EVERY_SECONDS`` per process), then 503 ``capacity``.  Two
  creations racing at the cap may both pass: the cap is a guard, not an exact quota.
* **Lifetimes** (applied by :class:`shared.play.runtime.GameRuntime`, which writes them in the meta):
  a game nobody moved in expires after ``IDLE_GAME_TTL_SECONDS``; its first move makes it
  permanent; the move that finishes it gives it ``FINISHED_GAME_TTL_SECONDS`` (0: kept forever).
* **Feed connections** per client address: at most ``FEED_CONNECTIONS_PER_ADDRESS`` SSE streams
  and waiting long-polls (``?wait=``) at once, per process (each holds a connection for long;
  without a cap one client could take every connection a process holds, and probes and moves
  would queue in the listen backlog behind them).  Over it: 429 ``rate-limited`` (reason
  ``too-many-streams``) with ``Retry-After``, before any Redis read.  Plain page reads are not counted.
* **Reads** (every ``GET`` under ``/games``), per client address and per bearer token:
  ``READ_RATE_LIMIT_PER_ADDRESS`` and ``READ_RATE_LIMIT_PER_TOKEN``, and ``GET /games/{id}/audit``
  per address: ``AUDIT_RATE_LIMIT``.  Counted in this process's memory (token buckets: a burst up
  to the rate's amount, refilled evenly over its period), as what they protect is this process's
  CPU, and a Redis round trip per read would cost more than the reads.  Over one: 429
  ``rate-limited`` (reason ``too-many-reads`` or ``too-many-audits``) with ``Retry-After``.
* **Pruning**: expired games leave the index when the cap is reached (``EventStore.prune_index``),
  and the sweeper's slow lane drops them too, a few at a time (see :class:`shared.play.sweeper.Sweeper`).
"""
from __future__ import annotations

import functools
import hashlib
import logging
import threading
import time
from typing import Any
from collections.abc import Callable

import redis
from flask import Flask, Response, request
from limits import parse_many
from limits.storage import storage_from_string
from limits.strategies import SlidingWindowCounterRateLimiter
from werkzeug.middleware.proxy_fix import ProxyFix

from shared.play.config import Settings
from shared.log.eventstore import EventStore
from shared.http.plumbing import problem_response
from shared.http.openapi import PROBLEM_RESPONSE
from shared.play.problems import RetryLater

log = logging.getLogger("limits")

CAPACITY_RETRY_AFTER_SECONDS = 60
# Longer than any game stays unfinished without a move (ABANDON_AFTER_SECONDS ends it before).
ADDRESS_KEY_TTL_SECONDS = 90 * 86_400
FEED_RETRY_AFTER_SECONDS = 10
PRUNE_EVERY_SECONDS = 10.0


_RETRY_AFTER = {"Retry-After": {"schema": {"type": "integer", "minimum": 1},
                                "description": "Seconds to wait before trying again."}}
# The create route's 429 and 503 (OpenAPI): Retry-After with rate-limited and capacity (not with not-ready).
CREATE_RESPONSES: dict[str, Any] = {
    "429": {**PROBLEM_RESPONSE, "description": "rate-limited: too many new games from this address; "
            "too-many-games: too many unfinished games from this address",
            "headers": _RETRY_AFTER},
    "503": {**PROBLEM_RESPONSE, "description": "capacity: too many unfinished games (with Retry-After); "
            "not-ready: the event store is unavailable", "headers": _RETRY_AFTER},
}


# Every read's 429 (OpenAPI).
READ_RESPONSES: dict[str, Any] = {
    "429": {**PROBLEM_RESPONSE, "description": "rate-limited (too-many-reads): too many reads from this address or "
            "with this token (READ_RATE_LIMIT_PER_ADDRESS, READ_RATE_LIMIT_PER_TOKEN)", "headers": _RETRY_AFTER},
}
AUDIT_RESPONSES: dict[str, Any] = {
    "429": {**PROBLEM_RESPONSE, "description": "rate-limited: too many reads (too-many-reads), or too many audits "
            "from this address (too-many-audits, AUDIT_RATE_LIMIT)", "headers": _RETRY_AFTER},
}
FEED_RESPONSES: dict[str, Any] = {
    "429": {**PROBLEM_RESPONSE,
            "description": "rate-limited (too-many-streams): this address holds as many streams and waiting "
            "long-polls as it may (FEED_CONNECTIONS_PER_ADDRESS); or too many reads (too-many-reads)",
            "headers": _RETRY_AFTER},
}


class FeedSlots:
    """The feed connections (SSE streams, long-polls that wait) each client address holds in
    this process, and the cap on them."""

    def __init__(self, per_address: int) -> None:
        self.per_address = per_address
        self._lock = threading.Lock()
        self._held: dict[str, int] = {}

    def take(self, address: str) -> Callable[[], None]:
        """Count one more feed connection of ``address`` (429 past the cap); returns the call
        that gives it back (once, however often it is called)."""
        if self.per_address <= 0:
            return lambda: None
        with self._lock:
            held = self._held.get(address, 0)
            if held >= self.per_address:
                raise RetryLater("rate-limited", f"At most {self.per_address} open streams and waiting long-polls "
                                 "per client address; close one, or retry after the time in Retry-After.",
                                 retry_after=FEED_RETRY_AFTER_SECONDS, reason="too-many-streams")
            self._held[address] = held + 1
        given_back = False

        def give_back() -> None:
            nonlocal given_back
            with self._lock:
                if given_back:
                    return
                given_back = True
                left = self._held[address] - 1
                if left:
                    self._held[address] = left
                else:
                    del self._held[address]
        return give_back

    def held(self, address: str) -> int:
        with self._lock:
            return self._held.get(address, 0)


class Buckets:
    """Token buckets per key, in this process's memory: ``rate`` (``N/period``, the ``limits``
    syntax) allows a burst of N, refilled at N per period."""

    FORGET_AFTER = 10_000        # keys kept before the full (idle) buckets are dropped

    def __init__(self, rate: str, reason: str, what: str) -> None:
        items = parse_many(rate)             # a typo stops the service at start-up
        if len(items) != 1:
            raise ValueError(f"one rate, such as 6000/minute, not {rate!r}")
        item = items[0]
        self.rate = rate
        self.capacity = float(item.amount)
        self.per_second = item.amount / item.get_expiry()
        self.reason = reason
        self.what = what
        self._lock = threading.Lock()
        self._buckets: dict[str, tuple[float, float]] = {}     # key -> (tokens, when)

    def hit(self, key: str) -> None:
        """Take one token from ``key``'s bucket; 429 when it is empty."""
        now = time.monotonic()
        with self._lock:
            tokens, when = self._buckets.get(key, (self.capacity, now))
            tokens = min(self.capacity, tokens + (now - when) * self.per_second)
            if tokens < 1:
                self._buckets[key] = (tokens, now)
                wait = (1 - tokens) / self.per_second
                raise RetryLater("rate-limited", f"At most {self.rate} {self.what}; retry after the time in "
                                 "Retry-After.", retry_after=int(wait) + 1, reason=self.reason)
            self._buckets[key] = (tokens - 1, now)
            if len(self._buckets) > self.FORGET_AFTER:
                self._forget_full(now)

    def _forget_full(self, now: float) -> None:
        self._buckets = {k: (t, w) for k, (t, w) in self._buckets.items()
                         if t + (now - w) * self.per_second < self.capacity}


class ReadRates:
    """The per-address and per-token limits of reads, and the per-address limit of audits."""

    def __init__(self, settings: Settings) -> None:
        def buckets(rate: str, reason: str, what: str) -> Buckets | None:
            return Buckets(rate, reason, what) if rate else None
        self.per_address = buckets(settings.read_rate_limit_per_address, "too-many-reads",
                                   "reads per client address")
        self.per_token = buckets(settings.read_rate_limit_per_token, "too-many-reads", "reads per token")
        self.audits = buckets(settings.audit_rate_limit, "too-many-audits", "audits per client address")

    def check(self) -> None:
        """Before every request: count the reads (``GET`` under ``/games``)."""
        if request.method != "GET" or not request.path.startswith("/games"):
            return
        address = request.remote_addr or "unknown"
        if self.per_address is not None:
            self.per_address.hit(address)
        if self.per_token is not None:
            header = request.headers.get("Authorization", "")
            if header:
                # Keyed by a digest: raw tokens are not kept in memory beyond the request.
                self.per_token.hit(hashlib.blake2b(header.encode(), digest_size=16).hexdigest())
        if self.audits is not None and request.path.endswith("/audit"):
            self.audits.hit(address)


class Capacity:
    """The cap on unfinished games of one title, checked before a creation."""

    def __init__(self, store: EventStore, game_name: str, max_active: int) -> None:
        self.store = store
        self.game_name = game_name
        self.max_active = max_active
        self._lock = threading.Lock()
        self._last_prune = float("-inf")

    def check(self) -> None:
        """Raise 503 ``capacity`` when the service holds ``max_active`` unfinished games."""
        if self.max_active <= 0 or self.store.count_active(self.game_name) < self.max_active:
            return
        # The index may still hold games that expired: prune it, but not on every refused
        # request (a prune reads every entry's status), and not in two threads at once.
        if self._lock.acquire(blocking=False):
            try:
                if time.monotonic() - self._last_prune >= PRUNE_EVERY_SECONDS:
                    self._last_prune = time.monotonic()
                    dropped = self.store.prune_index(self.game_name)
                    log.info("at the cap of %d %s games: pruned %d", self.max_active, self.game_name, dropped)
                    if dropped and self.store.count_active(self.game_name) < self.max_active:
                        return
            finally:
                self._lock.release()
        raise RetryLater("capacity", f"This service already runs {self.max_active} unfinished games, its "
                         "cap; retry later, when games have finished or expired.",
                         retry_after=CAPACITY_RETRY_AFTER_SECONDS)


class AddressCap:
    """The cap on unfinished games created from one client address (see the module's notes)."""

    def __init__(self, store: EventStore, game_name: str, max_games: int) -> None:
        self.store = store
        self.game_name = game_name
        self.max_games = max_games

    def key(self, address: str) -> str:
        return f"games:{self.game_name}:by-address:{address}"

    def check(self, address: str) -> None:
        """Raise 429 ``too-many-games`` when ``address`` holds ``max_games`` unfinished games."""
        if self.max_games <= 0:
            return
        key = self.key(address)
        if self.store.redis.zcard(key) < self.max_games:
            return
        members = [m.decode() for m in self.store.redis.zrange(key, 0, -1)]
        pipe = self.store.redis.pipeline(transaction=False)
        for game_id in members:
            pipe.hget(self.store.keys(game_id)[1], "status")
        ended = [g for g, status in zip(members, pipe.execute()) if status not in (b"active", b"waiting")]
        if ended:
            self.store.redis.zrem(key, *ended)
        if len(members) - len(ended) >= self.max_games:
            raise RetryLater("too-many-games", f"This address already has {self.max_games} unfinished games, its "
                             "cap; finish or leave some first (a game nobody moves in ends as abandoned).",
                             retry_after=CAPACITY_RETRY_AFTER_SECONDS)

    def add(self, address: str, game_id: str) -> None:
        """Count a game created from ``address`` (best effort: the game exists already)."""
        if self.max_games <= 0:
            return
        key = self.key(address)
        try:
            pipe = self.store.redis.pipeline(transaction=False)
            pipe.zadd(key, {game_id: time.time()})
            pipe.expire(key, ADDRESS_KEY_TTL_SECONDS)      # an address gone quiet leaves no key behind
            pipe.execute()
        except redis.RedisError as exc:
            log.warning("game %s not counted for its address: %s", game_id, exc)


class CreationRate:
    """The per-address limit on creations: the ``limits`` library (flask-limiter's own engine,
    by the same maintainers) with a sliding-window counter in Redis.

    Checked inside the create route only.  flask-limiter's extension would hook before, after
    and teardown of EVERY request, a cost each move would pay (docs/benchmarks.md gives it) for a
    limit that concerns one route.
    """

    def __init__(self, rate: str, storage_url: str, timeout: float, scope: str) -> None:
        self.items = parse_many(rate)        # a typo stops the service at start-up, not every request later
        self.scope = scope                   # one service's counters, apart from another's
        self._limiter = SlidingWindowCounterRateLimiter(storage_from_string(
            storage_url, socket_timeout=timeout, socket_connect_timeout=timeout))

    def hit(self, address: str) -> None:
        """Count one creation from ``address``; 429 ``rate-limited`` past the limit.  Fails open:
        a limiter whose Redis is down must not become a service outage (logged)."""
        try:
            for item in self.items:
                if not self._limiter.hit(item, "create", self.scope, address):
                    stats = self._limiter.get_window_stats(item, "create", self.scope, address)
                    raise RetryLater("rate-limited", f"At most {item} new games per client address; retry "
                                     "after the time in Retry-After.",
                                     retry_after=int(stats.reset_time - time.time()) + 1)
        except RetryLater:
            raise
        except Exception as exc:  # noqa: BLE001 - any storage failure: create anyway, and say so
            log.warning("rate limit not checked (its storage failed): %s", exc)


class Guard:
    """The limits of one service's ``POST /games``."""

    def __init__(self, rate: CreationRate | None, capacity: Capacity, per_address: AddressCap,
                 feed_slots: FeedSlots | None = None) -> None:
        self.rate = rate
        self.capacity = capacity
        self.per_address = per_address
        self.feed_slots = feed_slots or FeedSlots(0)

    @staticmethod
    def address() -> str:
        return request.remote_addr or "unknown"     # after ProxyFix: the trusted client address

    def check_creation(self) -> None:
        """Before a creation: the address's cap, then the service's (429, 503)."""
        self.per_address.check(self.address())
        self.capacity.check()

    def created(self, game_id: str) -> None:
        """After a creation: count the game for its address."""
        self.per_address.add(self.address(), game_id)

    def rate_limited(self, view: Callable[..., Any]) -> Callable[..., Any]:
        """Decorate the create route (innermost, right above its ``def``)."""
        rate = self.rate
        if rate is None:
            return view

        @functools.wraps(view)
        def limited(*args: Any, **kwargs: Any) -> Any:
            rate.hit(Guard.address())
            return view(*args, **kwargs)
        return limited


def install(app: Flask, settings: Settings, store: EventStore, game_name: str) -> Guard:
    """Trust the configured proxies and build the limits; call after the app's other WSGI
    wrappers (ProxyFix must be the outermost, so logs and limits see the same client address)."""
    if settings.trusted_proxy_count > 0:
        # Only the client address: X-Forwarded-Proto/Host/Port stay unread (answers use relative URLs).
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=settings.trusted_proxy_count,  # type: ignore[method-assign]
                                x_proto=0)
    capacity = Capacity(store, game_name, settings.max_active_games)
    per_address = AddressCap(store, game_name, settings.max_games_per_address)
    feed_slots = FeedSlots(settings.feed_connections_per_address)
    reads = ReadRates(settings)
    if reads.per_address or reads.per_token or reads.audits:
        app.before_request(reads.check)
    # 429 rate-limited and 503 capacity both carry Retry-After.
    app.register_error_handler(RetryLater, lambda exc: retry_later_response(exc, settings.problem_base))
    if not settings.create_rate_limit:
        return Guard(None, capacity, per_address, feed_slots)
    return Guard(CreationRate(settings.create_rate_limit, settings.ratelimit_storage_url or settings.rq_redis_url,
                              settings.redis_timeout, f"ratelimit:{game_name}"), capacity, per_address, feed_slots)


def retry_later_response(problem: RetryLater, base: str) -> Response:
    response = problem_response(problem, base)
    response.headers["Retry-After"] = str(problem.retry_after)
    return response

