"""Games: create one, list them, see one as a seat or a spectator, list a seat's legal moves."""
from __future__ import annotations

import json
from typing import Any, Callable

from flask import Response
from flask_smorest import Blueprint

from shared import clocks, limits, metrics
from shared.http import entity_tag, json_response, load_with, not_modified, read_json_body
from shared.openapi import BEARER, CACHE_HEADERS, IF_NONE_MATCH, NOT_MODIFIED, OPTIONAL_BEARER, problems
from shared.problems import Problem
from shared.routes.context import Service
from shared.schemas import GameCreatedSchema, GamesQuerySchema


def blueprint(service: Service) -> Blueprint:
    game, runtime, settings, guard = service.game, service.runtime, service.settings, service.guard
    create_schema = service.create_schema
    games = Blueprint("games", __name__, description=f"Create and play {game.title} games.")

    @games.route("/games", methods=["POST"])
    @games.doc(requestBody={"required": True, "content": {"application/json": {
        "schema": {"$ref": f"#/components/schemas/{create_schema.__name__[:-6]}"}}}},
        responses={**problems(400, 413, 415, 422), **limits.CREATE_RESPONSES})
    @games.response(201, GameCreatedSchema, headers={"Location": {"schema": {"type": "string"},
                                                                    "description": "The game's URL."}})
    @guard.rate_limited
    def create_game() -> tuple[dict[str, Any], int, dict[str, str]]:
        """Create a game. Each human seat's token is in this answer, and only here.

        Too many creations from one address: 429 `rate-limited`; too many running games: 503 `capacity`.
        Both come with `Retry-After` (seconds)."""
        body = load_with(create_schema(), read_json_body())
        if body["seed"] is not None and not settings.allow_client_seed:
            raise Problem("seed-not-allowed", "This service draws every game's seed itself (whoever "
                          "chooses it can predict the game): leave out \"seed\".",
                          errors=[{"detail": "Not allowed here.", "pointer": "/seed"}])
        guard.capacity.check()
        fallback = body["fallback_bot"] or (clocks.default_fallback(service.plugin) if body["turn_seconds"] else None)
        created = service.seats.create(body["players"], body["options"], body["seed"], body["listed"],
                                       turn_seconds=body["turn_seconds"], fallback_bot=fallback,
                                       bot_budget_ms=body["bot_budget_ms"])
        metrics.GAMES_CREATED.labels(game.name).inc()
        return created, 201, {"Location": f"/games/{created['id']}"}

    @games.route("/games")
    @games.doc(responses=problems(422))
    @games.arguments(GamesQuerySchema, location="query", as_kwargs=True)
    @games.response(200, service.reads.games_page)
    def list_games(limit: int, status: str | None = None, cursor: str | None = None) -> Response:
        """The listed games, newest first, a page at a time (`next` is the cursor of the next page).
        Games created with `"listed": false` are left out; cancelled and expired games drop out."""
        before = None
        if cursor:
            created, _, last_id = cursor.partition(".")
            before = (int(created), last_id)
        found, after = service.store.listed_games(game.name, "active" if status == "running" else status,
                                                  limit, before)
        return json_response({"games": [_listed(meta) for meta in found],
                              "next": f"{after[0]}.{after[1]}" if after else None})

    @games.route("/games/<game_id>")
    @games.doc(security=OPTIONAL_BEARER, parameters=[IF_NONE_MATCH],
               responses={**problems(401, 403, 404), **NOT_MODIFIED})
    @games.response(200, service.reads.game_view, headers=CACHE_HEADERS)
    def get_game(game_id: str) -> Response:
        """The game as the caller may see it: a seat's view with its token, a spectator's without."""
        loaded = runtime.load(game_id)
        seat = service.authenticate(game_id, loaded.meta, required=False)
        return cached_json(loaded.version, clocks.deadlines(loaded.meta), lambda: service.view_of(loaded, seat))

    @games.route("/games/<game_id>/legal-moves")
    @games.doc(security=BEARER, parameters=[IF_NONE_MATCH],
               responses={**problems(401, 403, 404), **NOT_MODIFIED})
    @games.response(200, service.reads.legal_moves, headers=CACHE_HEADERS)
    def legal_moves(game_id: str) -> Response:
        """Every move the caller's seat may make now (free-form moves are described by the schema)."""
        loaded = runtime.load(game_id)
        seat = service.authenticate(game_id, loaded.meta, required=True)
        assert seat is not None                   # required=True: a seat or a 401/403
        # Nobody acts in a game waiting for players, nor a resigned seat's holder (its bot plays).
        playing = loaded.meta.get("status") not in ("waiting", "cancelled") \
            and not loaded.players[seat].get("resigned")
        rules = runtime.rules_for(loaded.meta)          # the rules the game keeps
        acting = playing and rules.result(loaded.state) is None and seat in rules.to_act(loaded.state)
        deadlines = clocks.deadlines(loaded.meta)
        return cached_json(loaded.version, deadlines, lambda: {
            "version": loaded.version, "seat": seat,
            "moves": rules.legal_moves(loaded.state, seat) if acting else [],
            "deadlines": deadlines})

    return games


def _listed(meta: dict[str, str]) -> dict[str, Any]:
    """One game of the list: only public fields of its meta (never the token hashes)."""
    return {"id": meta["id"], "status": meta["status"], "version": int(meta["version"]),
            "options": json.loads(meta.get("options") or "{}"), "players": json.loads(meta["players"]),
            "to_act": json.loads(meta.get("to_act") or "[]"), "created_at": int(meta["created_at"]),
            "moved_at": int(meta["moved_at"]) if meta.get("moved_at") else None,
            "rematch_of": meta.get("rematch_of")}


def cached_json(version: int, deadlines: dict[str, str], body: Callable[[], Any]) -> Response:
    """A per-viewer read of the game at ``version`` showing ``deadlines``: 304 when the client
    holds it (the body is then never built: listing an Elastium seat's legal moves is the costly
    part), else the JSON.  The tag covers the deadlines too (``entity_tag``)."""
    etag = entity_tag(version, deadlines)
    response = not_modified(etag) or json_response(body(), headers={"ETag": etag})
    response.vary.add("Authorization")
    return response
