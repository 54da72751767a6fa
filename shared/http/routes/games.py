"""Games: create one, list them, see one as a seat or a spectator, list a seat's legal moves."""
from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any
from collections.abc import Callable

from flask import Response
from flask_smorest import Blueprint

from shared.play import turn_clock
from shared.play import meta as gm
from shared.http import limits, metrics
from shared.http.plumbing import entity_tag, json_response, load_with, not_modified, read_json_body
from shared.http.openapi import BEARER, CACHE_HEADERS, IF_NONE_MATCH, NOT_MODIFIED, OPTIONAL_BEARER, problems
from shared.play.problems import Problem
from shared.http.routes.context import Service
from shared.http.schemas import GameCreatedSchema, GamesQuerySchema, LegalMovesQuerySchema

LISTS_KEPT = 16     # long legal move lists this process remembers (a client pages through one)


def blueprint(service: Service) -> Blueprint:
    game, runtime, settings, guard = service.game, service.runtime, service.settings, service.guard
    create_schema = service.create_schema
    games = Blueprint("games", __name__, description=f"Create and play {game.title} games.")
    lists = MoveLists()

    @games.route("/games", methods=["POST"])
    @games.doc(requestBody={"required": True, "content": {"application/json": {
        "schema": {"$ref": f"#/components/schemas/{create_schema.__name__[:-6]}"}}}},
        responses={**problems(400, 413, 415, 422), **limits.CREATE_RESPONSES})
    @games.response(201, GameCreatedSchema, headers={"Location": {"schema": {"type": "string"},
                                                                    "description": "The game's URL."}})
    @guard.rate_limited
    def create_game() -> tuple[dict[str, Any], int, dict[str, str]]:
        """Create a game. Each human seat's token is in this answer, and only here.

        Too many creations from one address: 429 `rate-limited`; too many of its games unfinished: 429
        `too-many-games`; too many running games: 503 `capacity`. All come with `Retry-After` (seconds)."""
        body = load_with(create_schema(), read_json_body())
        if body["seed"] is not None and not settings.allow_client_seed:
            raise Problem("seed-not-allowed", "This service draws every game's seed itself (whoever "
                          "chooses it can predict the game): leave out \"seed\".",
                          errors=[{"detail": "Not allowed here.", "pointer": "/seed"}])
        guard.check_creation()
        clock_default = turn_clock.default_fallback(service.plugin) if body["turn_seconds"] else None
        fallback = body["fallback_bot"] or clock_default
        created = service.seats.create(body["players"], body["options"], body["seed"], body["listed"],
                                       turn_seconds=body["turn_seconds"], fallback_bot=fallback,
                                       bot_budget_ms=body["bot_budget_ms"])
        guard.created(created["id"])
        metrics.GAMES_CREATED.labels(game.name).inc()
        return created, 201, {"Location": f"/games/{created['id']}"}

    @games.route("/games")
    @games.doc(responses={**problems(422), **limits.READ_RESPONSES})
    @games.arguments(GamesQuerySchema(), location="query", as_kwargs=True)
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
               responses={**problems(401, 403, 404), **NOT_MODIFIED, **limits.READ_RESPONSES})
    @games.response(200, service.reads.game_view, headers=CACHE_HEADERS)
    def get_game(game_id: str) -> Response:
        """The game as the caller may see it: a seat's view with its token, a spectator's without."""
        loaded = runtime.load(game_id)
        seat = service.authenticate(game_id, loaded.meta, required=False)
        return cached_json(loaded.version, turn_clock.deadlines(loaded.meta), lambda: service.view_of(loaded, seat))

    # If-None-Match goes with the route: in doc(parameters=...) it would replace the query
    # parameters (limit, cursor) in the spec (flask-smorest merges lists by replacing them).
    @games.route("/games/<game_id>/legal-moves", parameters=[IF_NONE_MATCH])
    @games.doc(security=BEARER,
               responses={**problems(401, 403, 404, 409, 422), **NOT_MODIFIED, **limits.READ_RESPONSES})
    @games.arguments(LegalMovesQuerySchema(), location="query", as_kwargs=True)
    @games.response(200, service.reads.legal_moves, headers=CACHE_HEADERS)
    def legal_moves(game_id: str, limit: int, cursor: str | None = None) -> Response:
        """Every move the caller's seat may make now (free-form moves are described by the schema),
        a page at a time: `total` counts them all, `next` is the cursor of the next page (null on
        the last). Almost every position fits in the first page."""
        loaded = runtime.load(game_id)
        seat = service.authenticate(game_id, loaded.meta, required=True)
        assert seat is not None                   # required=True: a seat or a 401/403
        # Nobody acts in a game waiting for players, nor a resigned seat's holder (its bot plays).
        playing = loaded.meta.get("status") not in ("waiting", "cancelled") \
            and not loaded.players[seat].get("resigned")
        rules = runtime.rules_for(loaded.meta)          # the rules the game keeps
        acting = playing and rules.result(loaded.state) is None and seat in rules.to_act(loaded.state)
        deadlines = turn_clock.deadlines(loaded.meta)
        start = 0
        if cursor is not None:
            at, _, offset = cursor.partition(".")
            if int(at) != loaded.version:
                raise Problem("stale-version", f"This cursor lists the moves of version {at}; the game is at "
                              f"{loaded.version}: list them again from the first page.",
                              current_version=loaded.version)
            start = int(offset)

        def page() -> dict[str, Any]:
            moves = lists.get((game_id, loaded.version, seat), lambda: rules.legal_moves(loaded.state, seat),
                              longer_than=limit) if acting else []
            end = start + limit
            return {"version": loaded.version, "seat": seat, "moves": moves[start:end], "total": len(moves),
                    "next": f"{loaded.version}.{end}" if end < len(moves) else None, "deadlines": deadlines}
        return cached_json(loaded.version, deadlines, page)

    return games


class MoveLists:
    """The legal move lists this process made lately, by (game, version, seat): a client paging
    through a long one costs one listing, not one per page."""

    def __init__(self, size: int = LISTS_KEPT) -> None:
        self.size = size
        self._lock = threading.Lock()
        self._lists: OrderedDict[tuple[str, int, int], list[Any]] = OrderedDict()

    def get(self, key: tuple[str, int, int], make: Callable[[], list[Any]], longer_than: int) -> list[Any]:
        """The list at ``key``, made now unless kept; kept only if longer than a page."""
        with self._lock:
            found = self._lists.get(key)
            if found is not None:
                self._lists.move_to_end(key)
                return found
        made = make()
        if len(made) <= longer_than:
            return made
        with self._lock:
            self._lists[key] = made
            while len(self._lists) > self.size:
                self._lists.popitem(last=False)
        return made


def _listed(meta: dict[str, str]) -> dict[str, Any]:
    """One game of the list: only public fields of its meta (never the token hashes)."""
    return {"id": meta["id"], "status": meta["status"], "version": int(meta["version"]),
            "options": gm.options_of(meta), "players": gm.players_of(meta),
            "to_act": gm.to_act_of(meta), "created_at": gm.created_at(meta),
            "moved_at": int(meta["moved_at"]) if meta.get("moved_at") else None,
            "rematch_of": meta.get("rematch_of"), "seeded_by_client": gm.seeded_by_client(meta),
            "turn_seconds": turn_clock.turn_seconds(meta)}


def cached_json(version: int, deadlines: dict[str, str], body: Callable[[], Any]) -> Response:
    """A per-viewer read of the game at ``version`` showing ``deadlines``: 304 when the client
    holds it (the body is then never built: listing an Elastium seat's legal moves is the costly
    part), else the JSON.  The tag covers the deadlines too (``entity_tag``)."""
    etag = entity_tag(version, deadlines)
    response = not_modified(etag) or json_response(body(), headers={"ETag": etag})
    response.vary.add("Authorization")
    return response
