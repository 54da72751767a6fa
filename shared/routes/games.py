"""Games: create one, see it as a seat or a spectator, list a seat's legal moves."""
from __future__ import annotations

from typing import Any

from flask import Response
from flask_smorest import Blueprint

from shared import limits, metrics
from shared.http import json_response, load_with, read_json_body
from shared.openapi import BEARER, OPTIONAL_BEARER, problems
from shared.problems import Problem
from shared.routes.context import Service
from shared.schemas import GameCreatedSchema


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
        game_id, version, seats = runtime.create(body["players"], body["options"], body["seed"])
        metrics.GAMES_CREATED.labels(game.name).inc()
        return ({"id": game_id, "version": version, "players": seats}, 201,
                {"Location": f"/games/{game_id}"})

    @games.route("/games/<game_id>")
    @games.doc(security=OPTIONAL_BEARER, responses=problems(401, 403, 404))
    @games.response(200, service.reads.game_view, headers={"ETag": {"schema": {"type": "string"},
                                                             "description": "The version, quoted."}})
    def get_game(game_id: str) -> Response:
        """The game as the caller may see it: a seat's view with its token, a spectator's without."""
        loaded = runtime.load(game_id)
        seat = service.authenticate(game_id, loaded.meta, required=False)
        return json_response(service.view_of(loaded, seat), headers={"ETag": f'"{loaded.version}"'})

    @games.route("/games/<game_id>/legal-moves")
    @games.doc(security=BEARER, responses=problems(401, 403, 404))
    @games.response(200, service.reads.legal_moves)
    def legal_moves(game_id: str) -> Response:
        """Every move the caller's seat may make now (free-form moves are described by the schema)."""
        loaded = runtime.load(game_id)
        seat = service.authenticate(game_id, loaded.meta, required=True)
        acting = game.result(loaded.state) is None and seat in game.to_act(loaded.state)
        moves = game.legal_moves(loaded.state, seat) if acting else []
        return json_response({"version": loaded.version, "seat": seat, "moves": moves})

    return games
