"""``create_app(plugin)``: one game's HTTP service, the contract every game shares.

Routes (documented in ``api-spec/<game>.yaml``), one blueprint module each in :mod:`shared.http.routes`:

==========================================  ===============================================
``GET  /healthz`` / ``GET /readyz``         process alive / Redis answers (503 otherwise)
``POST /games``                             create a game; human seats get a token once
``GET  /games/{id}``                        the state as the caller (Bearer) or a spectator sees it
``GET  /games/{id}/legal-moves``            every move the caller's seat may make now
``POST /games/{id}/moves``                  play a move (``If-Match``, ``Idempotency-Key``)
``GET  /games/{id}/events``                 the log as the caller may see it (long-poll ``wait``, SSE)
``GET  /games/{id}/replay?version=N``       the spectator's state right after event N
``GET  /games/{id}/audit``                  replay the log through the rules and check the chain
``GET  /games/{id}/board.svg``              the board as the spectators see it (``?version=N``)
``GET  /games``                             the listed games, newest first (``status``, ``cursor``)
``POST /games/{id}/seats/{seat}``           take an open seat (``DELETE``: leave it before the start)
``POST /games/{id}/cancel``                 the host cancels a game waiting for players
``POST /games/{id}/resign``                 a bot plays the caller's seat from now on
``POST /games/{id}/rematch``                the next game of a finished one (same seats)
``GET  /.well-known/game-log-keys.json``    the public keys that sign log heads (shared.log.signing)
==========================================  ===============================================

Every error is ``application/problem+json`` (see :mod:`shared.play.problems`).  This module builds
the app: settings, connections, the runtime, error handlers, middleware, and the blueprints.
"""
from __future__ import annotations

import base64
import hashlib
import logging
import re
from collections.abc import Callable
from typing import Any

import redis
from flask import Flask, Response, jsonify, send_from_directory
from flask_cors import CORS
from swagger_ui_bundle import swagger_ui_path
from werkzeug.exceptions import HTTPException

from shared.http import examples, limits, metrics
from shared.play.bots import bot_queue_for, seat_bots
from shared.play.clocks import ClockJobs
from shared.play.turn_clock import default_fallback
from shared.play.config import Settings
from shared.game.engine import IllegalMove
from shared.log.eventstore import EventStore
from shared.http.feed import Feed, StreamOpenings
from shared.http.plumbing import ProblemApi, problem_response
from shared.http.middleware import RequestContext, current_request_id
from shared.log.news import LogNews
from shared.http.openapi import (OPENAPI_VERSION, ContractPlugin, create_game_schema, marshmallow_plugin, openapi_30,
                                 register_contract)
from shared.game.plugin import GamePlugin
from shared.play.problems import Problem
from shared.http.schemas import TakeSeatSchema
from shared.play.redis_clients import PoolExhausted, connect_event_store, connect_news, connect_queue
from shared.http.routes import feed as feed_routes
from shared.http.routes import games, history, moves, ops, pages, pictures, proofs, seats
from shared.http.routes.context import Service
from shared.play.runtime import AppendListener, GameRuntime, NotifyBots
from shared.play.seats import Seats
from shared.log.signing import Signer

log = logging.getLogger("service")
CORS_REQUEST_HEADERS = ["Authorization", "Content-Type", "Idempotency-Key", "If-Match", "Last-Event-ID", "Accept",
                        "X-Request-ID"]
CORS_EXPOSED_HEADERS = ["ETag", "Location", "Retry-After", "X-Request-ID"]
SWAGGER_UI_STATIC = "/docs/static/"
DOCS_SPEC_PATH = "/docs/openapi-3.0.json"      # the document as Swagger UI 4 reads it (OpenAPI 3.0)
# What /docs loads of the swagger-ui-bundle package; the package's demo pages (index.html loads
# a spec from another site, oauth2-redirect.html) and source maps are not served.
SWAGGER_UI_FILES = frozenset({"swagger-ui.css", "swagger-ui-bundle.js", "swagger-ui-standalone-preset.js"})
DOCS_ENDPOINT = "api-docs.openapi_swagger_ui"   # flask-smorest's view of OPENAPI_SWAGGER_UI_PATH
_INLINE_SCRIPT = re.compile(r"<script>(.*?)</script>", re.S)


def docs_policy(html: str) -> str:
    """The Content-Security-Policy of the /docs page: its files and the API from this service only,
    and its one inline script (flask-smorest's template starts Swagger UI) by its hash.  Swagger UI
    sets styles through the DOM (allowed without 'unsafe-inline'), draws its icons as data: URIs,
    and its "Try it out" calls this service."""
    hashes = " ".join(f"'sha256-{base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()}'"
                      for script in _INLINE_SCRIPT.findall(html))
    return (f"default-src 'none'; script-src 'self' {hashes}; style-src 'self'; img-src 'self' data:; "
            "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")


def _guard_docs(app: Flask) -> None:
    """/docs answers under :func:`docs_policy`, made once from the page as rendered."""
    render: Callable[[], Any] = app.view_functions[DOCS_ENDPOINT]
    made: dict[str, str] = {}

    def docs() -> Response:
        response = app.make_response(render())
        html = response.get_data(as_text=True)
        if html not in made:
            made.clear()
            made[html] = docs_policy(html)
        response.headers["Content-Security-Policy"] = made[html]
        response.headers["Referrer-Policy"] = "no-referrer"
        return response

    app.view_functions[DOCS_ENDPOINT] = docs


def _version_and_status(meta: dict[str, str] | None) -> tuple[int, str] | None:
    return None if meta is None else (int(meta["version"]), meta.get("status", "active"))


# -- the app ----------------------------------------------------------------------------------

def create_app(plugin: GamePlugin, settings: Settings | None = None,
               store: EventStore | None = None, notify_bots: Callable[..., None] | None = None) -> Flask:
    settings = settings or Settings.from_env()
    game = plugin.game
    app = Flask(f"services.{game.name}")
    init_config(app, plugin, settings)
    store = store or connect_event_store(settings)
    if store.appends is not None:
        store.appends.on_batch = lambda size: metrics.record_append_batch(game.name, size)
    queue_redis = connect_queue(settings)      # no I/O yet: redis-py connects on first use
    runtime = init_runtime(app, plugin, settings, store, queue_redis, notify_bots)
    feed = build_feed(plugin, settings, store, runtime)
    api = init_api(app, plugin, settings)
    reads = register_contract(plugin, api.spec)
    init_error_handlers(app, api, settings.problem_base)
    metrics.install(app, game.name, queue_redis, token=settings.metrics_token, port=settings.metrics_port)
    init_docs(app, api)
    init_cors(app, settings)
    app.wsgi_app = RequestContext(StreamOpenings(app.wsgi_app), game.name)  # type: ignore[method-assign]
    guard = limits.install(app, settings, store, game.name)   # rate limit, cap (POST /games)
    create_schema = create_game_schema(plugin)
    service = Service(plugin=plugin, settings=settings, store=store, runtime=runtime, feed=feed, guard=guard,
                      reads=reads, create_schema=create_schema, move_refs=reads.move_refs,
                      move_loaders={move_type: schema_cls() for move_type, schema_cls in plugin.move_schemas.items()},
                      seats=Seats(runtime, default_fallback(plugin)),
                      signer=Signer.from_files(settings.signing_key_file, settings.verify_keys_file))
    init_routes(app, api, service)
    return app


def init_config(app: Flask, plugin: GamePlugin, settings: Settings) -> None:
    """flask-smorest's settings: the API document's title and paths, Swagger UI, the body limit."""
    game = plugin.game
    app.config.update(
        API_TITLE=f"{game.title} rules server",
        API_VERSION="1.0",
        OPENAPI_VERSION=OPENAPI_VERSION,
        OPENAPI_URL_PREFIX="/",
        OPENAPI_JSON_PATH="openapi.json",
        OPENAPI_SWAGGER_UI_PATH="/docs",
        OPENAPI_SWAGGER_UI_URL=SWAGGER_UI_STATIC,        # served below: /docs works offline
        OPENAPI_SWAGGER_UI_CONFIG={"url": DOCS_SPEC_PATH},
        MAX_CONTENT_LENGTH=settings.max_body_bytes,
        API_SPEC_OPTIONS={
            "info": {"description": plugin.description or f"Play {game.title} over HTTP."},
            "components": {"securitySchemes": {"bearerAuth": {"type": "http", "scheme": "bearer"}}},
        },
    )


def init_runtime(app: Flask, plugin: GamePlugin, settings: Settings, store: EventStore, queue_redis: redis.Redis,
                 notify_bots: Callable[..., None] | None) -> GameRuntime:
    """The game's runtime (``app.extensions["runtime"]``), wired to the bot queue and its clocks
    unless the caller tells bots itself (``notify_bots``) or bots are not enqueued."""
    listeners: list[AppendListener] = []
    bot_queue = None
    if notify_bots is not None:
        listeners.append(NotifyBots(notify_bots))
    elif settings.enqueue_bots:
        bot_queue = bot_queue_for(queue_redis, plugin)
        listeners += [bot_queue, ClockJobs(bot_queue)]   # bot turns, and turn clocks' deadlines on the same queues
    # New games get the newest engine this instance serves; each game keeps its own (rules_for).
    runtime = GameRuntime(plugin.newest_rules(), store, settings.snapshot_every, listeners=listeners,
                          idle_ttl=settings.idle_game_ttl, finished_ttl=settings.finished_game_ttl,
                          engines=plugin.rules)
    if bot_queue is not None:
        bot_queue.bot_of = seat_bots(runtime)          # which queue a seat's bot turn goes to
    app.extensions["runtime"] = runtime
    return runtime


def build_feed(plugin: GamePlugin, settings: Settings, store: EventStore, runtime: GameRuntime) -> Feed:
    """Long polls and event streams, fed by the news of appends (shared.log.news)."""
    game = plugin.game
    news = LogNews(connect_news(settings), game.name, publisher=store.redis,
                   read_log=lambda game_id, after, limit: store.read(game_id, after=after, limit=limit),
                   read_status=lambda game_id: _version_and_status(store.meta(game_id)))
    return Feed(game, store, news, heartbeat_seconds=settings.sse_heartbeat_seconds,
                max_stream_seconds=settings.sse_max_seconds, max_wait_seconds=settings.max_wait_seconds,
                game_meta=runtime.meta, rules_for=runtime.rules_for)


def init_api(app: Flask, plugin: GamePlugin, settings: Settings) -> ProblemApi:
    """The flask-smorest API (``app.extensions["openapi"]``) with the contract's examples."""
    api = ProblemApi(app, spec_kwargs={"marshmallow_plugin": marshmallow_plugin(plugin)})
    contract_plugin = ContractPlugin(examples.operation_examples(plugin),
                                     examples.problem_examples(plugin, settings.problem_base))
    contract_plugin.init_spec(api.spec)
    api.spec.plugins.append(contract_plugin)
    api.problem_base = settings.problem_base
    app.extensions["openapi"] = api
    return api


def init_error_handlers(app: Flask, api: ProblemApi, problem_base: str) -> None:
    """Every error answers ``application/problem+json`` (shared.play.problems)."""

    def problem_handler(problem: Problem) -> Response:
        return problem_response(problem, problem_base)

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
        if isinstance(exc, PoolExhausted):
            return problem_handler(Problem("not-ready", "This instance is too busy: no connection to the event "
                                           "store came free in time. Retry shortly (a move with an "
                                           "Idempotency-Key is safe to retry)."))
        return problem_handler(Problem("not-ready", "The event store is unavailable; retry shortly "
                                       "(a move with an Idempotency-Key is safe to retry)."))

    app.register_error_handler(redis.RedisError, redis_down_handler)
    app.register_error_handler(Problem, problem_handler)
    app.register_error_handler(IllegalMove, illegal_handler)
    app.register_error_handler(Exception, crash_handler)


def init_docs(app: Flask, api: ProblemApi) -> None:
    """/docs: Swagger UI served from the package (it works offline) over the 3.0 document."""

    @app.get(SWAGGER_UI_STATIC + "<path:filename>")
    def swagger_ui_files(filename: str) -> Response:
        """Swagger UI's scripts and styles for /docs, from the swagger-ui-bundle package."""
        if filename not in SWAGGER_UI_FILES:
            raise Problem("not-found", "Nothing here.")
        return send_from_directory(swagger_ui_path, filename)
    _guard_docs(app)

    @app.get(DOCS_SPEC_PATH)
    def docs_spec() -> Response:
        """The OpenAPI document in 3.0's words, which the Swagger UI of /docs renders."""
        if "docs_spec" not in app.extensions:
            app.extensions["docs_spec"] = openapi_30(api.spec.to_dict())
        return jsonify(app.extensions["docs_spec"])


def init_cors(app: Flask, settings: Settings) -> None:
    if settings.cors_origins:
        # Browsers on these origins may call the API (preflights included); none by default.
        CORS(app, origins=list(settings.cors_origins), allow_headers=CORS_REQUEST_HEADERS,
             expose_headers=CORS_EXPOSED_HEADERS, methods=["GET", "POST", "DELETE", "OPTIONS"], max_age=600)


def init_routes(app: Flask, api: ProblemApi, service: Service) -> None:
    """The blueprints of shared.http.routes, and the schemas the document names beside them."""
    create_schema = service.create_schema
    api.spec.components.schema(create_schema.__name__[:-6], schema=create_schema)
    for schema in (TakeSeatSchema,):
        api.spec.components.schema(schema.__name__[:-6], schema=schema)
    for routes in (ops, games, moves, feed_routes, history, seats, proofs):
        api.register_blueprint(routes.blueprint(service))
    if service.plugin.board_svg is not None:
        api.register_blueprint(pictures.blueprint(service))
    app.register_blueprint(pages.blueprint(service))     # plain Flask: not in the API document
