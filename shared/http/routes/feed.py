"""The feed: the log as the caller may see it, as a page, a long-poll or an SSE stream (shared.http.feed)."""
from __future__ import annotations

from flask import Response, request
from flask_smorest import Blueprint

from shared.http import limits
from shared.http.feed import resume_point, wants_stream
from shared.http.plumbing import json_bytes_response
from shared.http.openapi import OPTIONAL_BEARER, problems
from shared.http.routes.context import Service
from shared.http.schemas import EventsQuerySchema


LAST_EVENT_ID = {"in": "header", "name": "Last-Event-ID", "required": False, "schema": {
    "type": "string", "pattern": "^[0-9]{1,15}$"},
    "description": "Resume after this event, in place of `after` (EventSource sends it when it reconnects)."}


def blueprint(service: Service) -> Blueprint:
    feed = service.feed
    bp = Blueprint("feed", __name__, description="The log as you may see it, live.")

    # Last-Event-ID is given with the route: in doc(parameters=...) it would replace the query
    # parameters (after, limit, wait) in the spec, where flask-smorest merges lists by replacing.
    @bp.route("/games/<game_id>/events", parameters=[LAST_EVENT_ID])
    @bp.doc(security=OPTIONAL_BEARER, responses={
        **problems(401, 403, 404, 422), **limits.FEED_RESPONSES,
        200: {"description": "A page of the log (JSON), or with `Accept: text/event-stream` a stream of "
                             "Server-Sent Events: one message per event (`id:` its seq, `data:` the event "
                             "as in a page), resuming after `Last-Event-ID`; `event: end` once the game is "
                             "over (finished, or cancelled before it started) and every event was sent.",
              "content": {"text/event-stream": {"schema": {"type": "string"}}}},
        204: {"description": "Stream asked of a finished (or cancelled) game whose every event the client has: nothing "
                             "will come (this stops a browser's EventSource)."}})
    @bp.arguments(EventsQuerySchema, location="query", as_kwargs=True)
    @bp.response(200, service.reads.events_page)
    def events(game_id: str, after: int, limit: int, wait: float) -> Response:
        """The log as the caller may see it (the full log once the game is over): a JSON page,
        held with ``wait`` until there is news, or a live stream of Server-Sent Events.

        Streams and waiting long-polls are capped per client address: 429 `rate-limited` with
        `Retry-After` past the cap."""
        stream = wants_stream()
        # Counted first, before any read: a client over its cap costs this process nothing more.
        give_back = service.guard.feed_slots.take(request.remote_addr or "unknown") if stream or wait > 0 else None
        try:
            meta = feed.meta(game_id, recent=stream or wait > 0)
            seat = service.authenticate(game_id, meta, required=False)
            start = resume_point(after)        # Last-Event-ID, checked whatever the client accepts
            if stream:
                response = feed.stream(game_id, meta, seat, start)
                if give_back is not None and response.is_streamed:
                    response.call_on_close(give_back)      # held until the stream ends
                    give_back = None
                return response
            return json_bytes_response(feed.page(game_id, meta, seat, start, limit, wait))
        finally:
            if give_back is not None:
                give_back()

    return bp
