"""History: the spectator's state after any event, and the audit of the whole log."""
from __future__ import annotations

from typing import Any

from flask import Response
from flask_smorest import Blueprint

from shared import platform_events as pe
from shared.eventstore import EventStore
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


SCAN_PAGE = 100     # records read per round trip while looking for a waiting game's start


def seats_status_at(store: EventStore, game_id: str, meta: dict[str, str], version: int) -> str | None:
    """``waiting`` or ``cancelled`` when that was the game's status right after event ``version``
    (as the view says it of the game now); None when the game was running by then.

    Only a game created with open seats (it has a host token; a rematch too) ever waited: it
    waited until ``platform.game_started``, or ended with ``platform.game_cancelled``.  Both come
    before any move, so the scan reads only the waiting part of the log."""
    status = meta.get("status")
    if status == "waiting":
        return "waiting"
    if not meta.get("host"):
        return None
    seen = 0
    while seen < version:
        records = store.read(game_id, after=seen, limit=min(SCAN_PAGE, version - seen))
        if not records:
            break
        for record in records:
            if record["type"] == pe.GAME_STARTED:
                return None
            if record["type"] == pe.GAME_CANCELLED:
                return "cancelled"
        seen = records[-1]["seq"]
    return "waiting"


def blueprint(service: Service) -> Blueprint:
    runtime, store = service.runtime, service.store
    history = Blueprint("history", __name__, description="Replay and audit a game's history.")

    @history.route("/games/<game_id>/replay")
    @history.doc(responses=problems(404, 422))
    @history.arguments(ReplayQuerySchema, location="query", as_kwargs=True)
    @history.response(200, service.reads.replay)
    def replay(game_id: str, version: int) -> Response:
        """Time travel: the spectator's view right after event ``version``."""
        meta = runtime.meta(game_id)
        check_version(meta, version)
        rules = runtime.rules_for(meta)                 # the rules the game keeps
        state = runtime.state_at(game_id, version, rules)
        result = rules.result(state)
        waited = seats_status_at(store, game_id, meta, version)
        # Built directly, as the view is: a dump through the typed schema would drop what the
        # schema misses instead of showing it (the contract test compares answers with the spec).
        return json_response({
            "version": version, "status": waited or ("finished" if result is not None else "active"),
            "to_act": [] if waited else rules.to_act(state), "result": result, "state": rules.view(state, None)})

    @history.route("/games/<game_id>/audit")
    @history.doc(responses=problems(404))
    @history.response(200, AuditSchema)
    def audit(game_id: str) -> dict[str, Any]:
        """Replay the whole log through the rules from scratch and check the hash chain, with the
        rules engine version the game was played under (503 `engine-unavailable` where this
        instance does not serve it: never with another version's rules)."""
        meta = runtime.meta(game_id)
        rules = runtime.rules_for(meta)
        body = audit_log(rules, store.read(game_id)).as_dict()
        if not body["ok"] and meta.get("status") != "finished":
            # The rules' explanation of a refused move may describe a hand or a hidden move
            # ("choose one of the tiles you drew: ..."): only the finished game's log is public.
            body["problem"] = "the log does not replay through the rules; the details are shown once the game is over"
        played = meta.get("engine_version", rules.engine_version)
        return {**body, "played_engine_version": played, "audit_engine_version": rules.engine_version}

    return history
