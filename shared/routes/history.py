"""History: the spectator's state after any event, and the audit of the whole log."""
from __future__ import annotations

from typing import Any

from flask import Response
from flask_smorest import Blueprint

from shared.http import json_response
from shared.openapi import problems
from shared.problems import Problem
from shared.replay import audit_log
from shared.routes.context import Service
from shared.schemas import AuditSchema, ReplayQuerySchema


def check_version(meta: dict[str, str], version: int) -> None:
    """A version the game has reached (422 past its last event)."""
    current = int(meta["version"])
    if version > current:
        raise Problem("validation-error", f"The game has {current} events; ask for 1 to {current}.",
                      errors=[{"detail": f"Must be at most {current}.", "pointer": "/query/version"}])


def blueprint(service: Service) -> Blueprint:
    game, runtime, store = service.game, service.runtime, service.store
    history = Blueprint("history", __name__, description="Replay and audit a game's history.")

    @history.route("/games/<game_id>/replay")
    @history.doc(responses=problems(404, 422))
    @history.arguments(ReplayQuerySchema, location="query", as_kwargs=True)
    @history.response(200, service.reads.replay)
    def replay(game_id: str, version: int) -> Response:
        """Time travel: the spectator's view right after event ``version``."""
        check_version(runtime.meta(game_id), version)
        state = runtime.state_at(game_id, version)
        result = game.result(state)
        # Built directly, as the view is: a dump through the typed schema would drop what the
        # schema misses instead of showing it (the contract test compares answers with the spec).
        return json_response({"version": version, "status": "finished" if result is not None else "active",
                "to_act": game.to_act(state), "result": result, "state": game.view(state, None)})

    @history.route("/games/<game_id>/audit")
    @history.doc(responses=problems(404))
    @history.response(200, AuditSchema)
    def audit(game_id: str) -> dict[str, Any]:
        """Replay the whole log through the rules from scratch and check the hash chain."""
        meta = runtime.meta(game_id)
        body = audit_log(game, store.read(game_id)).as_dict()
        if not body["ok"] and meta.get("status") != "finished":
            # The rules' explanation of a refused move may describe a hand or a hidden move
            # ("choose one of the tiles you drew: ..."): only the finished game's log is public.
            body["problem"] = "the log does not replay through the rules; the details are shown once the game is over"
        return body

    return history
