"""Moves: the hot path (see docs/architecture.md, "The path of one move")."""
from __future__ import annotations

from flask import Response, request
from flask_smorest import Blueprint

from shared.http import metrics
from shared.game.engine import IllegalMove
from shared.http.plumbing import (IDEMPOTENCY_KEY_PATTERN, IF_MATCH_PATTERN, json_response, load_with, parse_if_match,
                                  read_json_body)
from shared.http.openapi import BEARER, REPLAYED_HEADER, problems
from shared.play.problems import Problem
from shared.log.replay import served_record
from shared.http.routes.context import Service


def blueprint(service: Service) -> Blueprint:
    game, runtime, plugin, move_loaders = service.game, service.runtime, service.plugin, service.move_loaders
    moves = Blueprint("moves", __name__, description=f"Play {game.title} moves.")

    @moves.route("/games/<game_id>/moves", methods=["POST"])
    @moves.doc(
        security=BEARER,
        requestBody={"required": True, "content": {"application/json": {"schema": {"$ref": service.reads.move_ref}}}},
        parameters=[
            {"in": "header", "name": "If-Match", "required": False,
             "schema": {"type": "string", "pattern": IF_MATCH_PATTERN.pattern},
             "description": 'The version the move was decided on, e.g. "12": 409 stale-version if the game moved.'},
            {"in": "header", "name": "Idempotency-Key", "required": False,
             "schema": {"type": "string", "pattern": IDEMPOTENCY_KEY_PATTERN.pattern},
             "description": ("Retrying with the same key and move returns the first answer, marked "
                             "`Idempotent-Replayed: true`; the same key with another move is 422 "
                             "idempotency-key-reused. Keys are per seat and live as long as the game.")},
        ],
        responses=problems(400, 401, 403, 404, 409, 413, 415, 422))
    @moves.response(201, service.reads.move_accepted, headers=REPLAYED_HEADER)
    def post_move(game_id: str) -> Response:
        """Play a move. A rejected move changes nothing and says which rule it breaks."""
        # This process's copy of the game is enough to authenticate (tokens never change) and to
        # decide: the append's version check catches a copy that is behind (runtime.submit).
        meta, loaded = runtime.move_meta(game_id)
        seat = service.authenticate(game_id, meta, required=True)
        body = read_json_body()
        if not isinstance(body, dict) or not isinstance(body.get("type"), str):
            raise Problem("validation-error", 'A move is a JSON object with a "type".',
                          errors=[{"detail": "Missing or not a string.", "pointer": "/type"}])
        move_schema = move_loaders.get(body["type"])
        if move_schema is None:
            raise Problem("unknown-move-type", f"{game.title} has no move {body['type'][:60]!r}; "
                          f"known moves: {', '.join(sorted(plugin.move_schemas))}.")
        fields_only = {k: v for k, v in body.items() if k != "type"}
        move = {"type": body["type"], **load_with(move_schema, fields_only)}
        expected = parse_if_match(request.headers.get("If-Match"))
        key = request.headers.get("Idempotency-Key")
        if key is not None and not IDEMPOTENCY_KEY_PATTERN.fullmatch(key.strip('"')):
            raise Problem("malformed-request", "Idempotency-Key takes 1-128 letters, digits or . _ : -")
        try:
            # Taken only now that the request is valid: the move owns this copy until submit
            # hands it back to the cache.
            outcome = runtime.submit(game_id, seat, move, expected, key.strip('"') if key else None,
                                     loaded=loaded or runtime.peek(game_id), holder=True)
        except IllegalMove as exc:
            metrics.record_move(game.name, "rejected", exc.reason)
            raise
        except Problem as exc:
            metrics.record_move(game.name, "rejected", exc.reason)
            raise
        metrics.record_move(game.name, "accepted")
        events = [served_record(runtime.rules_for(meta), r, seat, outcome.finished) for r in outcome.records]
        # A retry gets the first answer again, and is told so: nothing was played twice.
        return json_response({"version": outcome.version, "events": events}, status=201,
                             headers={"Idempotent-Replayed": "true"} if outcome.duplicate else None)

    return moves
