"""Probes: the process is alive; Redis answers."""
from __future__ import annotations

from typing import Any

import redis
from flask_smorest import Blueprint

from shared.log.news import draining
from shared.http.openapi import problems
from shared.play.problems import Problem
from shared.play.redis_clients import MeteredPool, connect_readiness
from shared.http.routes.context import Service
from shared.http.schemas import HealthSchema, LivenessSchema


def blueprint(service: Service) -> Blueprint:
    ops = Blueprint("operations", __name__, description="Liveness and readiness probes.")
    probe = connect_readiness(service.settings)      # its own connection: never queued behind requests

    @ops.route("/healthz")
    @ops.response(200, LivenessSchema)
    def healthz() -> dict[str, object]:
        """The process is alive, and the rules engine versions it serves."""
        return {"status": "ok", "engine_versions": list(service.plugin.engine_versions)}

    @ops.route("/readyz")
    @ops.response(200, HealthSchema)
    @ops.doc(responses=problems())
    def readyz() -> dict[str, Any]:
        """Redis answers within the readiness timeout (503 otherwise).

        Under gevent workers, `pool` tells how busy the process's shared Redis connections are:
        all in use with requests queued means this instance is loaded, not that Redis is down."""
        if draining():
            raise Problem("not-ready", "This instance is stopping; another one will answer.")  # SIGTERM
        try:
            probe.ping()
        except redis.RedisError as exc:
            raise Problem("not-ready", f"The event store does not answer: {type(exc).__name__}.") from None
        # A Redis Cluster client keeps a pool per node, and no single one to report.
        pool = getattr(service.store.redis, "connection_pool", None)
        if isinstance(pool, MeteredPool):
            return {"status": "ready", "pool": pool.usage()}
        return {"status": "ready"}

    return ops
