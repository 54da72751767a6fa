"""The service's outermost WSGI layer: request id, no-store for seat answers, relative redirects,
headers that keep browsers from sniffing types or framing the service, request metrics.

Plain WSGI rather than Flask ``before_request``/``after_request`` hooks: it runs once per request
with no context-local lookups, which matters on the move route (see ``make bench``, HTTP).
"""
from __future__ import annotations

import itertools
import os
import re
import secrets
import time
from typing import Any
from collections.abc import Callable, Iterable
from urllib.parse import urlsplit

from flask import has_request_context, request

from shared.http import metrics

REQUEST_ID_KEY = "boardgames.request_id"
_SUPPLIED_ID = re.compile(r"[A-Za-z0-9._\-]{1,64}")

WsgiApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


class _RequestIds:
    """Unique ids without drawing randomness per request: a random tag per process and a counter.

    Ids only need to be unique (they tie log lines to a request), not unguessable.  The tag is
    drawn again after a fork, so gunicorn workers forked from one parent never share ids.
    """

    def __init__(self) -> None:
        self._pid = -1
        self._tag = ""
        self._counter = itertools.count(1)

    def next(self) -> str:
        if self._pid != os.getpid():
            self._pid, self._tag = os.getpid(), secrets.token_hex(6)
        return f"{self._tag}{next(self._counter):08x}"


_ids = _RequestIds()


class RequestContext:
    """Wraps a Flask app's ``wsgi_app``; ``game`` labels the metrics."""

    def __init__(self, app: WsgiApp, game: str) -> None:
        self.app = app
        self.game = game

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        supplied = environ.get("HTTP_X_REQUEST_ID", "")
        request_id = supplied if supplied and _SUPPLIED_ID.fullmatch(supplied) else _ids.next()
        environ[REQUEST_ID_KEY] = request_id
        started = time.perf_counter()
        seat_answer = "HTTP_AUTHORIZATION" in environ

        def start(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            headers.append(("X-Request-Id", request_id))
            # A browser takes every answer as the type it is sent with (a JSON body that looks like
            # HTML stays JSON), and no other site may show this service in a frame (clickjacking a
            # move); the pages' Content-Security-Policy says the latter too (frame-ancestors).
            headers.append(("X-Content-Type-Options", "nosniff"))
            headers.append(("X-Frame-Options", "DENY"))
            if status[0] == "3":
                headers[:] = [(k, relative(v) if k.lower() == "location" else v) for k, v in headers]
            if seat_answer:
                # A seat's answers (its hand) are for that seat only: no shared cache may keep them.
                headers[:] = [h for h in headers if h[0].lower() != "cache-control"]
                headers.append(("Cache-Control", "private, no-store"))
            request = environ.get("werkzeug.request")
            rule = getattr(request, "url_rule", None)
            metrics.record_request(self.game, environ["REQUEST_METHOD"], rule.rule if rule else "unmatched",
                                   int(status[:3]), time.perf_counter() - started)
            return start_response(status, headers, exc_info)

        return self.app(environ, start)


def relative(location: str) -> str:
    """A redirect's target as a path on this service: werkzeug builds the absolute URL of its own
    redirects (``/games//x`` to ``/games/x``) from the request's Host header, which the client chose."""
    parts = urlsplit(location)
    # One leading slash: "//host/x" would be read by a browser as another host.
    path = "/" + parts.path.lstrip("/")
    return path + (f"?{parts.query}" if parts.query else "")


def current_request_id() -> str | None:
    """The id of the request being served, or None outside a request."""
    return request.environ.get(REQUEST_ID_KEY) if has_request_context() else None
