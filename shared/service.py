"""``create_app(plugin)``: one game's HTTP service, the contract every game shares.

Routes (documented in ``api-spec/<game>.yaml``):

==========================================  ===============================================
``GET  /healthz`` / ``GET /readyz``         process alive / Redis answers (503 otherwise)
``POST /games``                             create a game; human seats get a token once
``GET  /games/{id}``                        the state as the caller (Bearer) or a spectator sees it
``GET  /games/{id}/legal-moves``            every move the caller's seat may make now
``POST /games/{id}/moves``                  play a move (``If-Match``, ``Idempotency-Key``)
``GET  /games/{id}/events``                 the log as the caller may see it (long-poll ``wait``)
``GET  /games/{id}/replay?version=N``       the spectator's state right after event N
``GET  /games/{id}/audit``                  replay the log through the rules and check the chain
==========================================  ===============================================

Every error is ``application/problem+json`` (see :mod:`shared.problems`).
"""
from __future__ import annotations

import logging
from typing import Any, Callable

import redis
from flask import Flask, Response, request, send_from_directory
from flask_smorest import Blueprint
from swagger_ui_bundle import swagger_ui_path
from werkzeug.exceptions import HTTPException

from shared import limits, metrics
from shared.auth import bearer_token, seat_for_token, stored_token_hashes, valid_for_another_game
from shared.bots import BotQueue
from shared.config import Settings
from shared.engine import IllegalMove
from shared.feed import Feed, resume_point, wants_stream
from shared.news import LogNews
from shared.eventstore import EventStore
from shared.middleware import RequestContext, current_request_id
from shared.http import (IDEMPOTENCY_KEY_PATTERN, IF_MATCH_PATTERN, ProblemApi, json_response, load_with,
                         parse_if_match, problem_response, read_json_body)
from shared.openapi import (BEARER, OPTIONAL_BEARER, ContractPlugin, create_game_schema, move_component_schemas,
                            problems)
from shared.plugin import GamePlugin
from shared.redis_clients import connect_event_store, connect_news, connect_queue
from shared.problems import Problem
from shared.replay import audit_log, served_record
from shared.runtime import GameRuntime, LoadedGame
from shared.schemas import (AuditSchema, EventsPageSchema, EventsQuerySchema, GameCreatedSchema,
                            GameViewSchema, HealthSchema, LegalMovesSchema, MoveAcceptedSchema,
                            ReplayQuerySchema, ReplaySchema)

log = logging.getLogger("service")
SWAGGER_UI_STATIC = "/docs/static/"


# -- the app ----------------------------------------------------------------------------------

def create_app(plugin: GamePlugin, settings: Settings | None = None,
               store: EventStore | None = None, notify_bots: Callable[..., None] | None = None) -> Flask:
    settings = settings or Settings.from_env()
    game = plugin.game
    app = Flask(f"services.{game.name}")
    app.config.update(
        API_TITLE=f"{game.title} rules server",
        API_VERSION="1.0",
        OPENAPI_VERSION="3.0.3",
        OPENAPI_URL_PREFIX="/",
        OPENAPI_JSON_PATH="openapi.json",
        OPENAPI_SWAGGER_UI_PATH="/docs",
        OPENAPI_SWAGGER_UI_URL=SWAGGER_UI_STATIC,        # served below: /docs works offline
        MAX_CONTENT_LENGTH=settings.max_body_bytes,
        API_SPEC_OPTIONS={
            "info": {"description": plugin.description or f"Play {game.title} over HTTP."},
            "components": {"securitySchemes": {"bearerAuth": {"type": "http", "scheme": "bearer"}}},
        },
    )
    store = store or connect_event_store(settings)
    queue_redis = connect_queue(settings)      # no I/O yet: redis-py connects on first use
    before_bot_turn = None
    if notify_bots is None and settings.enqueue_bots:
        bot_queue = BotQueue(queue_redis, game.name)
        notify_bots, before_bot_turn = bot_queue.enqueue_turns, bot_queue.mark_pending
    runtime = GameRuntime(game, store, settings.snapshot_every, notify_bots=notify_bots,
                          idle_ttl=settings.idle_game_ttl, finished_ttl=settings.finished_game_ttl,
                          before_bot_turn=before_bot_turn)
    app.extensions["runtime"] = runtime
    news = LogNews(connect_news(settings), game.name,
                   read_log=lambda game_id, after, limit: store.read(game_id, after=after, limit=limit))
    feed = Feed(game, store, news, heartbeat_seconds=settings.sse_heartbeat_seconds,
                max_stream_seconds=settings.sse_max_seconds, max_wait_seconds=settings.max_wait_seconds,
                game_meta=runtime.meta)
    app.extensions["news"] = news

    api = ProblemApi(app)
    contract_plugin = ContractPlugin()
    contract_plugin.init_spec(api.spec)
    api.spec.plugins.append(contract_plugin)
    api.problem_base = settings.problem_base
    app.extensions["openapi"] = api
    move_schemas = move_component_schemas(plugin)
    for move_schema in move_schemas.values():
        api.spec.components.schema(move_schema.Meta.title, schema=move_schema)
    move_refs = {t: f"#/components/schemas/{s.Meta.title}" for t, s in move_schemas.items()}
    create_schema = create_game_schema(plugin)
    # One loader per move type, built once: a marshmallow schema keeps no state between loads,
    # and building one costs more than the load itself.
    move_loaders = {move_type: schema_cls() for move_type, schema_cls in plugin.move_schemas.items()}

    def problem_handler(problem: Problem) -> Response:
        return problem_response(problem, settings.problem_base)

    def illegal_handler(exc: IllegalMove) -> Response:
        if exc.reason in ("not-your-turn", "game-over"):
            return problem_handler(Problem(exc.reason, exc.detail, **exc.extra))
        return problem_handler(Problem("illegal-move", exc.detail, status=exc.status,
                                       reason=exc.reason, **exc.extra))

    def crash_handler(exc: Exception) -> Response:
        if isinstance(exc, HTTPException):
            return api.handle_http_exception(exc)
        log.exception("unhandled error in request %s", current_request_id() or "-")
        return problem_handler(Problem("internal-error", "Something went wrong on our side; "
                                       "the request id in 'instance' helps us find it."))

    def redis_down_handler(exc: redis.RedisError) -> Response:
        if isinstance(exc, redis.DataError):
            # Raised by redis-py before anything is sent: our bug, not an outage to retry.
            return crash_handler(exc)
        log.warning("event store unavailable in request %s: %s", current_request_id() or "-", exc)
        return problem_handler(Problem("not-ready", "The event store is unavailable; retry shortly "
                                       "(a move with an Idempotency-Key is safe to retry)."))

    app.register_error_handler(redis.RedisError, redis_down_handler)
    app.register_error_handler(Problem, problem_handler)
    app.register_error_handler(IllegalMove, illegal_handler)
    app.register_error_handler(Exception, crash_handler)

    metrics.install(app, game.name, queue_redis)

    @app.get(SWAGGER_UI_STATIC + "<path:filename>")
    def swagger_ui_files(filename: str) -> Response:
        """Swagger UI's scripts and styles for /docs, from the swagger-ui-bundle package."""
        return send_from_directory(swagger_ui_path, filename)
    app.wsgi_app = RequestContext(app.wsgi_app, game.name)  # type: ignore[method-assign]
    guard = limits.install(app, settings, store, game.name)   # rate limit, cap (POST /games)

    # -- helpers bound to this app --------------------------------------------------------------
    def authenticate(game_id: str, meta: dict[str, str], required: bool) -> int | None:
        header = request.headers.get("Authorization")
        token = bearer_token(header)
        if token is None:
            if required or header:
                raise Problem("unauthenticated", "Send a seat's token: Authorization: Bearer <token>.")
            return None
        seat = seat_for_token(token, stored_token_hashes(meta["tokens"]))
        if seat is None:
            # 403 only when proven (one more read, on this failure path only); else 401.
            if valid_for_another_game(token, game_id, lambda other: (store.meta(other) or {}).get("tokens")):
                raise Problem("not-your-seat", "This token belongs to a seat of another game.")
            raise Problem("unauthenticated", "The token is not valid for this game.")
        return seat

    def view_of(loaded: LoadedGame, seat: int | None) -> dict[str, Any]:
        result = game.result(loaded.state)
        return {
            "id": loaded.game_id, "game": game.name, "version": loaded.version,
            "status": "finished" if result is not None else "active",
            "seeded_by_client": loaded.meta.get("seeded_by_client") == "1",
            "to_act": game.to_act(loaded.state), "result": result, "you": seat,
            "players": loaded.players, "state": game.view(loaded.state, seat),
        }

    # -- routes ---------------------------------------------------------------------------------
    ops = Blueprint("operations", __name__, description="Liveness and readiness probes.")

    @ops.route("/healthz")
    @ops.response(200, HealthSchema)
    def healthz() -> dict[str, str]:
        """The process is alive."""
        return {"status": "ok"}

    @ops.route("/readyz")
    @ops.response(200, HealthSchema)
    @ops.doc(responses=problems())
    def readyz() -> dict[str, str]:
        """Redis answers (503 otherwise)."""
        try:
            store.redis.ping()
        except redis.RedisError as exc:
            raise Problem("not-ready", f"The event store does not answer: {type(exc).__name__}.") from None
        return {"status": "ready"}

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

    api.spec.components.schema(create_schema.__name__[:-6], schema=create_schema)

    @games.route("/games/<game_id>")
    @games.doc(security=OPTIONAL_BEARER, responses=problems(401, 403, 404))
    @games.response(200, GameViewSchema, headers={"ETag": {"schema": {"type": "string"},
                                                             "description": "The version, quoted."}})
    def get_game(game_id: str) -> Response:
        """The game as the caller may see it: a seat's view with its token, a spectator's without."""
        loaded = runtime.load(game_id)
        seat = authenticate(game_id, loaded.meta, required=False)
        return json_response(view_of(loaded, seat), headers={"ETag": f'"{loaded.version}"'})

    @games.route("/games/<game_id>/legal-moves")
    @games.doc(security=BEARER, responses=problems(401, 403, 404))
    @games.response(200, LegalMovesSchema)
    def legal_moves(game_id: str) -> Response:
        """Every move the caller's seat may make now (free-form moves are described by the schema)."""
        loaded = runtime.load(game_id)
        seat = authenticate(game_id, loaded.meta, required=True)
        acting = game.result(loaded.state) is None and seat in game.to_act(loaded.state)
        moves = game.legal_moves(loaded.state, seat) if acting else []
        return json_response({"version": loaded.version, "seat": seat, "moves": moves})

    @games.route("/games/<game_id>/moves", methods=["POST"])
    @games.doc(
        security=BEARER,
        requestBody={"required": True, "content": {"application/json": {"schema": {
            "oneOf": [{"$ref": ref} for ref in move_refs.values()],
            "discriminator": {"propertyName": "type", "mapping": move_refs}}}}},
        parameters=[
            {"in": "header", "name": "If-Match", "required": False,
             "schema": {"type": "string", "pattern": IF_MATCH_PATTERN.pattern},
             "description": 'The version the move was decided on, e.g. "12": 409 stale-version if the game moved.'},
            {"in": "header", "name": "Idempotency-Key", "required": False,
             "schema": {"type": "string", "pattern": IDEMPOTENCY_KEY_PATTERN.pattern},
             "description": "Retrying with the same key and move returns the first answer; keys live as long as the game."},
        ],
        responses=problems(400, 401, 403, 404, 409, 413, 415, 422))
    @games.response(201, MoveAcceptedSchema)
    def post_move(game_id: str) -> Response:
        """Play a move. A rejected move changes nothing and says which rule it breaks."""
        # This process's copy of the game is enough to authenticate (tokens never change) and to
        # decide: the append's version check catches a copy that is behind (runtime.submit).
        meta, loaded = runtime.move_meta(game_id)
        seat = authenticate(game_id, meta, required=True)
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
                                     loaded=loaded or runtime.peek(game_id))
        except IllegalMove as exc:
            metrics.record_move(game.name, "rejected", exc.reason)
            raise
        except Problem as exc:
            metrics.record_move(game.name, "rejected", exc.reason)
            raise
        metrics.record_move(game.name, "accepted")
        events = [served_record(game, r, seat, outcome.finished) for r in outcome.records]
        return json_response({"version": outcome.version, "events": events}, status=201)

    @games.route("/games/<game_id>/events")
    @games.doc(security=OPTIONAL_BEARER, responses={
        **problems(401, 403, 404, 422),
        200: {"description": "A page of the log (JSON), or with `Accept: text/event-stream` a stream of "
                             "Server-Sent Events: one message per event (`id:` its seq, `data:` the event "
                             "as in a page), resuming after `Last-Event-ID`; `event: end` once the game is "
                             "over and every event was sent.",
              "content": {"text/event-stream": {"schema": {"type": "string"}}}},
        204: {"description": "Stream asked of a finished game whose every event the client has: nothing "
                             "will come (this stops a browser's EventSource)."}},
        parameters=[{"in": "header", "name": "Last-Event-ID", "required": False, "schema": {
            "type": "string", "pattern": "^[0-9]{1,15}$"},
            "description": "Resume after this event, in place of `after` (EventSource sends it when it reconnects)."}])
    @games.arguments(EventsQuerySchema, location="query", as_kwargs=True)
    @games.response(200, EventsPageSchema)
    def events(game_id: str, after: int, limit: int, wait: float) -> Response:
        """The log as the caller may see it (the full log once the game is over): a JSON page,
        held with ``wait`` until there is news, or a live stream of Server-Sent Events."""
        meta = runtime.meta(game_id)
        seat = authenticate(game_id, meta, required=False)
        start = resume_point(after)        # Last-Event-ID, checked whatever the client accepts
        if wants_stream():
            return feed.stream(game_id, meta, seat, start)
        return json_response(feed.page(game_id, meta, seat, start, limit, wait))

    @games.route("/games/<game_id>/replay")
    @games.doc(responses=problems(404, 422))
    @games.arguments(ReplayQuerySchema, location="query", as_kwargs=True)
    @games.response(200, ReplaySchema)
    def replay(game_id: str, version: int) -> dict[str, Any]:
        """Time travel: the spectator's view right after event ``version``."""
        meta = runtime.meta(game_id)
        current = int(meta["version"])
        if version > current:
            raise Problem("validation-error", f"The game has {current} events; ask for 1 to {current}.",
                          errors=[{"detail": f"Must be at most {current}.", "pointer": "/query/version"}])
        state = runtime.state_at(game_id, version)
        result = game.result(state)
        return {"version": version, "status": "finished" if result is not None else "active",
                "to_act": game.to_act(state), "result": result, "state": game.view(state, None)}

    @games.route("/games/<game_id>/audit")
    @games.doc(responses=problems(404))
    @games.response(200, AuditSchema)
    def audit(game_id: str) -> dict[str, Any]:
        """Replay the whole log through the rules from scratch and check the hash chain."""
        meta = runtime.meta(game_id)
        body = audit_log(game, store.read(game_id)).as_dict()
        if not body["ok"] and meta.get("status") != "finished":
            # The rules' explanation of a refused move may describe a hand or a hidden move
            # ("choose one of the tiles you drew: ..."): only the finished game's log is public.
            body["problem"] = "the log does not replay through the rules; the details are shown once the game is over"
        return body

    api.register_blueprint(ops)
    api.register_blueprint(games)
    return app
