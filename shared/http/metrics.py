"""Prometheus metrics at ``/metrics``: requests, latencies, moves by outcome and reason, queue depth.

Under gunicorn with several workers set ``PROMETHEUS_MULTIPROC_DIR`` (``make run`` and
``deploy/gunicorn.conf.py`` do) so every worker's counts add up in one scrape.

They tell how the service is played and refused (rejected moves by reason), so a deployment keeps
them from the public: ``METRICS_PORT`` serves them on a port of their own only (gunicorn listens on
it beside the public one), ``METRICS_TOKEN`` asks for ``Authorization: Bearer <token>``.  Without
either (``make run``, on loopback) they are open.
"""
from __future__ import annotations

import hmac
import os
from typing import Any

from flask import Flask, Response, request
from prometheus_client import (CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Gauge, Histogram,
                               generate_latest, multiprocess)

REQUESTS = Counter("http_requests_total", "HTTP requests", ["game", "method", "route", "status"])
LATENCY = Histogram("http_request_seconds", "HTTP request latency", ["game", "method", "route"],
                    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10, 30))
MOVES = Counter("moves_total", "Moves posted", ["game", "outcome", "reason"])
PROBLEMS = Counter("problems_total", "Problem responses by reason", ["status", "reason"])
GAMES_CREATED = Counter("games_created_total", "Games created", ["game"])
APPENDS = Counter("event_appends_total", "Moves' appends sent to the event store", ["game"])
APPEND_ROUND_TRIPS = Counter("event_append_round_trips_total",
                             "Round trips to Redis that carried them (overlapping appends share one: group commit)",
                             ["game"])
FEED_SERIALIZATIONS = Counter("feed_serializations_total",
                              "Log records redacted and serialized for the feed: once per record and audience "
                              "(a seat, the spectators, the finished game's full log), however many read it",
                              ["game"])
QUEUE_DEPTH = Gauge("bot_queue_depth", "Bot turns waiting in each RQ queue: bots-<game> (the bots that answer at "
                    "once, the clocks' fallback moves) and bots-<game>-thinking (the search bots)", ["game", "queue"],
                    multiprocess_mode="max")


# Labelled children, looked up once: ``labels()`` costs microseconds on every request, and the
# label sets are few (routes are URL rules, not paths; reasons and statuses are fixed lists).
_children: dict[tuple[Any, ...], Any] = {}


def _child(metric: Any, *labels: str) -> Any:
    key = (metric, *labels)
    child = _children.get(key)
    if child is None:
        child = _children[key] = metric.labels(*labels)
    return child


def record_request(game: str, method: str, route: str, status: int, seconds: float) -> None:
    _child(REQUESTS, game, method, route, str(status)).inc()
    _child(LATENCY, game, method, route).observe(seconds)


def record_move(game: str, outcome: str, reason: str = "") -> None:
    _child(MOVES, game, outcome, reason).inc()


def record_append_batch(game: str, size: int) -> None:
    """One round trip that carried ``size`` appends (shared.log.group_commit)."""
    _child(APPEND_ROUND_TRIPS, game).inc()
    _child(APPENDS, game).inc(size)


def record_problem(problem: Any) -> None:
    _child(PROBLEMS, str(problem.status), problem.reason).inc()


def install(app: Flask, game: str, queue_redis: Any, token: str = "", port: int = 0) -> None:
    """``/metrics``; ``queue_redis`` is the service's connection to the bot queue's Redis; ``token``
    and ``port`` guard it (see the module's text)."""
    import redis as redis_lib

    from shared.play.bots import queue_name, thinking_queue_name
    from shared.play.problems import Problem

    expected = f"Bearer {token}".encode()

    @app.get("/metrics")
    def metrics_endpoint() -> Response:
        if port and request.environ.get("SERVER_PORT") != str(port):
            # The listener's port as the server reports it (gunicorn: the socket's, never the Host header).
            raise Problem("not-found", "Nothing here.")
        if token and not hmac.compare_digest(request.headers.get("Authorization", "").encode(), expected):
            raise Problem("unauthenticated", "Send the metrics token: Authorization: Bearer <METRICS_TOKEN>.")
        for queue in (queue_name(game), thinking_queue_name(game)):
            try:
                QUEUE_DEPTH.labels(game, queue).set(queue_redis.llen(f"rq:queue:{queue}"))
            except redis_lib.RedisError:
                pass
        if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
            registry = CollectorRegistry()
            multiprocess.MultiProcessCollector(registry)
            return Response(generate_latest(registry), mimetype=CONTENT_TYPE_LATEST)
        return Response(generate_latest(), mimetype=CONTENT_TYPE_LATEST)
