"""Seats: take an open seat, leave it before the start, cancel a waiting game, resign to a bot,
and ask for a rematch (shared.play.seats holds the rules of it; this is the HTTP side)."""
from __future__ import annotations

from typing import Any

from flask import Response, request
from flask_smorest import Blueprint

from shared.http import limits
from shared.play.auth import bearer_token
from shared.http.plumbing import json_response, load_with, read_json_body
from shared.http.openapi import BEARER, OPTIONAL_BEARER, problems
from shared.play.problems import Problem
from shared.http.routes.context import Service
from shared.http.schemas import RematchSchema, ResignedSchema, SeatTakenSchema, TakeSeatSchema, VersionSchema


def blueprint(service: Service) -> Blueprint:
    runtime, seats = service.runtime, service.seats
    bp = Blueprint("seats", __name__, description="Open seats, resignations and rematches.")

    def seat_holder(game_id: str) -> int:
        """The seat the caller's token holds (401/403 otherwise)."""
        seat = service.authenticate(game_id, runtime.meta(game_id), required=True)
        assert seat is not None
        return seat

    @bp.route("/games/<game_id>/seats/<int:seat>", methods=["POST"])
    @bp.doc(security=OPTIONAL_BEARER, requestBody={"required": False, "content": {"application/json": {
        "schema": {"$ref": "#/components/schemas/TakeSeat"}}}}, responses=problems(400, 403, 404, 409, 415, 422))
    @bp.response(201, SeatTakenSchema)
    def take_seat(game_id: str, seat: int) -> Response:
        """Take an open seat: its token is in this answer, and only here.  First come wins (409
        `seat-taken`); the game starts when the last open seat is taken.  A seat kept for its
        player of the previous game (a rematch) takes that game's token as Bearer."""
        body = load_with(TakeSeatSchema(), read_json_body()) if request.content_length else {}
        taken = seats.take(game_id, seat, body.get("name"), bearer_token(request.headers.get("Authorization")))
        return json_response(taken, status=201)

    @bp.route("/games/<game_id>/seats/<int:seat>", methods=["DELETE"])
    @bp.doc(security=BEARER, responses=problems(401, 403, 404, 409))
    @bp.response(200, VersionSchema)
    def leave_seat(game_id: str, seat: int) -> dict[str, Any]:
        """Give up your seat before the game starts (it is open again)."""
        if seat_holder(game_id) != seat:
            raise Problem("not-your-seat", f"Your token holds another seat than {seat}.")
        return {"version": seats.leave(game_id, seat), "status": "waiting"}

    @bp.route("/games/<game_id>/cancel", methods=["POST"])
    @bp.doc(security=BEARER, responses=problems(401, 403, 404, 409))
    @bp.response(200, VersionSchema)
    def cancel_game(game_id: str) -> dict[str, Any]:
        """The host (the `host_token` answered at creation) cancels a game still waiting for players."""
        version = seats.cancel(game_id, bearer_token(request.headers.get("Authorization")))
        return {"version": version, "status": "cancelled"}

    @bp.route("/games/<game_id>/resign", methods=["POST"])
    @bp.doc(security=BEARER, responses=problems(401, 403, 404, 409))
    @bp.response(200, ResignedSchema)
    def resign(game_id: str) -> dict[str, Any]:
        """Resign your seat: the game's rule-of-thumb bot plays it to the end; your token then only reads."""
        return seats.resign(game_id, seat_holder(game_id))

    @bp.route("/games/<game_id>/rematch", methods=["POST"])
    @bp.doc(security=BEARER, responses={**problems(401, 403, 404, 409), **limits.CREATE_RESPONSES})
    @bp.alt_response(200, schema=RematchSchema, description="The rematch asked for before (the same game).")
    @bp.response(201, RematchSchema, headers={"Location": {"schema": {"type": "string"},
                                                           "description": "The new game's URL."}})
    def rematch(game_id: str) -> Response:
        """The next game of a finished one: same options and seats.  Bots stay bots; each human
        seat waits for its player, who takes it with their token of this game.  Asking again
        answers the same game (200)."""
        meta = runtime.meta(game_id)
        seat = service.authenticate(game_id, meta, required=True)
        assert seat is not None
        if meta.get("status") == "finished" and not meta.get("rematch"):
            service.guard.check_creation()          # a new game: the same caps as POST /games
        token = bearer_token(request.headers.get("Authorization")) or ""
        body, created = seats.rematch(game_id, seat, token)
        if created:
            service.guard.created(body["id"])
        return json_response(body, status=201 if created else 200, headers={"Location": f"/games/{body['id']}"})

    return bp
