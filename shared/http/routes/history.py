"""History: the spectator's state after any event, and the audit of the whole log."""
from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from typing import Any
from collections.abc import Callable

from flask import Response
from flask_smorest import Blueprint

from shared.http import limits
from shared.log import platform_events as pe
from shared.game.engine import Game
from shared.log.eventstore import EventStore
from shared.http.plumbing import json_response
from shared.http.openapi import problems
from shared.play.problems import Problem
from shared.log.replay import audit_log, log_is_public
from shared.http.routes.context import Service
from shared.http.schemas import AuditSchema, ReplayQuerySchema
from shared.log.signing import head_payload


def check_version(meta: dict[str, str], version: int) -> None:
    """A version the game has reached (422 past its last event)."""
    current = int(meta["version"])
    if version > current:
        raise Problem("validation-error", f"The game has {current} events; ask for 1 to {current}.",
                      errors=[{"detail": f"Must be at most {current}.", "pointer": "/query/version"}])


SCAN_PAGE = 100     # records read per round trip while looking for a waiting game's start
AUDITS_KEPT = 256   # audits this process remembers


class AuditCache:
    """The audits this process made, by game and stored log (least recently used out first).

    An audit replays the whole log, and its answer depends only on the log and on the game being
    over (which only an event changes): so it is made once per log and process, however many
    clients ask.  The key is a digest of the log as stored, not the meta's head hash: the head
    names the log only while the log is honest, and the audit is there to find a log rewritten
    under an unchanged meta.  Reading the stored entries costs a fraction of replaying them."""

    def __init__(self, size: int = AUDITS_KEPT) -> None:
        self.size = size
        self._lock = threading.Lock()
        self._audits: OrderedDict[tuple[str, str], dict[str, Any]] = OrderedDict()
        self.made = 0               # audits computed, not found here (tests, diagnostics)

    def get(self, game_id: str, log: str, head: str | None, audit: Callable[[], dict[str, Any]]) -> dict[str, Any]:
        """The audit of the stored log whose digest is ``log``, made by ``audit`` unless kept."""
        with self._lock:
            found = self._audits.get((game_id, log))
            if found is not None:
                self._audits.move_to_end((game_id, log))
                return found
        body = audit()
        self.made += 1
        if head is None or body["head_hash"] != head:
            return body         # the game moved while it was audited: this answer mixes two versions
        with self._lock:
            self._audits[(game_id, log)] = body
            while len(self._audits) > self.size:
                self._audits.popitem(last=False)
        return body


def seats_status_at(store: EventStore, game_id: str, meta: dict[str, str], version: int) -> str | None:
    """``waiting`` or ``cancelled`` when that was the game's status right after event ``version``
    (as the view says it of the game now); None when the game was running by then.

    Only a game created with open seats (it has a host token; a rematch too) ever waited: it
    waited until ``platform.game_started``, or ended with ``platform.game_cancelled``.  Both come
    before any move, so the scan reads only the waiting part of the log."""
    status = meta.get("status")
    if status == "waiting":
        return "waiting"
    if status == "abandoned" and version >= int(meta["version"]) - 1:
        # Its last events: platform.game_abandoned, then the seed's reveal (none on games
        # abandoned before abandonment revealed seeds).
        tail = store.read(game_id, after=max(int(meta["version"]) - 2, 0))
        ended = next((r["seq"] for r in tail if r["type"] == pe.GAME_ABANDONED), None)
        if ended is not None and version >= ended:
            return "abandoned"
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
    audits = AuditCache()
    history.audits = audits       # tests count what was computed

    @history.route("/games/<game_id>/replay")
    @history.doc(responses={**problems(404, 422), **limits.READ_RESPONSES})
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
    @history.doc(responses={**problems(404), **limits.AUDIT_RESPONSES})
    @history.response(200, AuditSchema)
    def audit(game_id: str) -> dict[str, Any]:
        """Replay the whole log through the rules from scratch and check the hash chain (and, once
        the game is over, every seed against the seed committed at its setup), with the rules
        engine version the game was played under (503 `engine-unavailable` where this instance
        does not serve it: never with another version's rules); with the service's signature over
        the head it audited.

        Made once per stored log and server process; at most `AUDIT_RATE_LIMIT` per client
        address (429 `rate-limited` with `Retry-After` past it)."""
        meta = runtime.meta(game_id)
        rules = runtime.rules_for(meta)
        stored = store.redis.xrange(store.keys(game_id)[0])
        digest = hashlib.sha256(b"\n".join(fields[b"e"] for _, fields in stored)).hexdigest()
        return audits.get(game_id, digest, meta.get("head"), lambda: audit_game(game_id, meta, rules))

    def audit_game(game_id: str, meta: dict[str, str], rules: Game) -> dict[str, Any]:
        body = audit_log(rules, store.read(game_id)).as_dict()
        if not body["ok"] and not log_is_public(meta.get("status")):
            # The rules' explanation of a refused move may describe a hand or a hidden move
            # ("choose one of the tiles you drew: ..."): only the finished game's log is public.
            body["problem"] = "the log does not replay through the rules; the details are shown once the game is over"
        played = meta.get("engine_version", rules.engine_version)
        # The head this service holds, signed whatever the audit found (the signature binds the
        # service to the log, not the log to the rules): a finished game's, or a running one's.
        signature = None if service.signer is None else service.signer.sign(head_payload(
            rules.name, game_id, played, body["version"], body["head_hash"], log_is_public(meta.get("status"))))
        return {**body, "played_engine_version": played, "audit_engine_version": rules.engine_version,
                "signature": signature}

    return history
