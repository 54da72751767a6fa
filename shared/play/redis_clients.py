"""How the services, workers and sweeper connect to Redis: the event store's and the bot queue's.

Every call is bounded by ``REDIS_TIMEOUT_SECONDS``, so a hung Redis answers 503 instead of
holding request threads forever (long-polls block in one-second slices, well under it).
"""
from __future__ import annotations

import socket
import struct
from typing import Any

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from shared.play.config import Settings
from shared.log.eventstore import EventStore


class KernelTimeoutConnection(redis.Connection):
    """A TCP connection whose timeouts the kernel enforces (SO_RCVTIMEO / SO_SNDTIMEO).

    A Python socket with a timeout polls before every send and every receive, and each of
    those system calls hands the GIL to another request thread and back: on a busy threaded
    worker, two extra context switches each.  A blocking socket with kernel timeouts fails
    the same way on a hung Redis (redis-py reports a ConnectionError instead of a
    TimeoutError; both are a 503 here) with one system call per send and per receive.
    """

    # redis-py's private hook (no public one hands over the connected socket): fenced by
    # tests/shared/test_private_apis.py.
    def _connect(self) -> socket.socket:
        sock = super()._connect()
        timeout = self.socket_timeout
        if timeout:
            seconds = int(timeout)
            limit = struct.pack("ll", seconds, int((timeout - seconds) * 1_000_000))
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVTIMEO, limit)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDTIMEO, limit)
            sock.settimeout(None)
        return sock


class PoolExhausted(redis.ConnectionError):
    """No pooled connection came free in time: this process is busy, Redis may be fine."""


class MeteredPool(redis.BlockingConnectionPool):
    """The bounded pool of a gevent worker, which says how busy it is (``/readyz``) and fails a
    request that waited too long for a connection with :class:`PoolExhausted`, not with the
    plain ConnectionError of a Redis that is down."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.waiting = 0          # requests queued for a connection now
        self.refused = 0          # requests that waited past the timeout, since the process started

    def get_connection(self, *args: Any, **kwargs: Any) -> Any:
        self.waiting += 1
        try:
            return super().get_connection(*args, **kwargs)
        except redis.ConnectionError as exc:
            if "No connection available" in str(exc):      # redis-py's words for the pool's timeout
                self.refused += 1
                raise PoolExhausted(f"all {self.max_connections} pooled connections stayed busy for "
                                    f"{self.timeout} s") from exc
            raise
        finally:
            self.waiting -= 1

    def usage(self) -> dict[str, int]:
        """Connections in use (the pool holds idle ones and room for new ones), requests queued."""
        return {"size": self.max_connections, "in_use": self.max_connections - self.pool.qsize(),
                "waiting": self.waiting, "refused": self.refused}


def _under_gevent() -> bool:
    """This process's sockets are gevent's (a gevent gunicorn worker patched them)."""
    try:
        from gevent import monkey
    except ImportError:
        return False
    return bool(monkey.is_module_patched("socket"))


def _timeouts(settings: Settings) -> dict[str, Any]:
    return {"socket_timeout": settings.redis_timeout, "socket_connect_timeout": settings.redis_timeout}


def connect_event_store(settings: Settings) -> EventStore:
    if settings.redis_cluster:
        from redis.cluster import RedisCluster
        return EventStore(RedisCluster.from_url(settings.redis_url, **_timeouts(settings)))
    options = _timeouts(settings)
    if _under_gevent():
        # Hundreds of greenlets may want Redis at once (a move wakes every client watching its
        # game): they share a bounded pool and queue for a connection (up to the timeout)
        # rather than each opening one.  Kernel timeouts would never fire on gevent's
        # non-blocking sockets; gevent's own bound each wait, at no GIL handover cost.
        pool = MeteredPool.from_url(settings.redis_url, max_connections=settings.redis_pool_size,
                                    timeout=settings.redis_timeout, **options)
        appends = redis.ConnectionPool.from_url(settings.redis_url, **options)
        return EventStore(redis.Redis(connection_pool=pool), connection_per_thread=False, appends_pool=appends)
    if settings.redis_url.startswith("redis://"):       # plain TCP (not TLS, not a Unix socket)
        options["connection_class"] = KernelTimeoutConnection
    return EventStore(redis.Redis.from_url(settings.redis_url, **options))


def connect_news(settings: Settings) -> redis.Redis[bytes]:
    """The feed's subscriber connection (:mod:`shared.log.news`): it waits for messages as long as
    it likes, so no read timeout; a PING on a quiet line finds a dead server instead.  On a
    Redis Cluster any node relays every node's PUBLISH, so the node in the URL will do."""
    return redis.Redis.from_url(settings.redis_url, socket_timeout=None,
                                socket_connect_timeout=settings.redis_timeout,
                                socket_keepalive=True, health_check_interval=15)


def connect_readiness(settings: Settings) -> redis.Redis[bytes]:
    """The readiness probe's own connection to the event store's Redis (the node in the URL on a
    Cluster).  Not the shared pool: requests stuck on a hung Redis, or a burst of feed clients,
    hold every pooled connection, and the probe would queue behind them before it even sent its
    PING.  One connection (probes come one at a time; a second waits its turn for at most the
    same timeout), no retry: the probe answers within ``READYZ_TIMEOUT_SECONDS`` either way."""
    timeout = settings.readyz_timeout
    pool = redis.BlockingConnectionPool.from_url(
        settings.redis_url, max_connections=1, timeout=timeout, socket_timeout=timeout,
        socket_connect_timeout=timeout, retry=Retry(NoBackoff(), 0))
    return redis.Redis(connection_pool=pool)


def connect_queue(settings: Settings) -> redis.Redis[bytes]:
    """The bot queue's Redis (standalone: RQ does not support Cluster), with the same timeouts."""
    return redis.Redis.from_url(settings.rq_redis_url, **_timeouts(settings))
