"""Probes: the process is alive; Redis answers."""
from __future__ import annotations

import redis
from flask_smorest import Blueprint

from shared.news import draining
from shared.openapi import problems
from shared.problems import Problem
from shared.routes.context import Service
from shared.schemas import HealthSchema, LivenessSchema


def blueprint(service: Service) -> Blueprint:
    ops = Blueprint("operations", __name__, description="Liveness and readiness probes.")

    @ops.route("/healthz")
    @ops.response(200, LivenessSchema)
    def healthz() -> dict[str, object]:
        """The process is alive, and the rules engine versions it serves."""
        return {"status": "ok", "engine_versions": list(service.plugin.engine_versions)}

    @ops.route("/readyz")
    @ops.response(200, HealthSchema)
    @ops.doc(responses=problems())
    def readyz() -> dict[str, str]:
        """Redis answers (503 otherwise)."""
        if draining():
            raise Problem("not-ready", "This instance is stopping; another one will answer.")  # SIGTERM
        try:
            service.store.redis.ping()
        except redis.RedisError as exc:
            raise Problem("not-ready", f"The event store does not answer: {type(exc).__name__}.") from None
        return {"status": "ready"}

    return ops
