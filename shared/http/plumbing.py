"""HTTP plumbing shared by every route: reading bodies and headers, answering with problems.

Every error leaves the service as RFC 9457 ``application/problem+json`` (:mod:`shared.play.problems`),
including flask-smorest's own (webargs validation, 404, 405, 413, ...).
"""
from __future__ import annotations

import gzip
import hashlib
import http
import json
import re
from typing import Any

from flask import Response, current_app, request
from flask_smorest import Api
from flask_smorest.utils import prepare_response
from marshmallow import Schema, ValidationError
from werkzeug.exceptions import HTTPException

from shared.log import jsonout
from shared.http import metrics
from shared.http.middleware import current_request_id
from shared.play.problems import PROBLEM_MEDIA_TYPE, Problem, flatten_errors
from shared.http.schemas import ProblemSchema

MAX_JSON_DEPTH = 32
# No '/': the platform's own moves are keyed with one (shared.log.platform_events.move_key).
IDEMPOTENCY_KEY_PATTERN = re.compile(r"^[A-Za-z0-9._:\-]{1,128}$")
# The version, or a view's tag (the version, a dot and 8 hex digits: see ``entity_tag``).
IF_MATCH_PATTERN = re.compile(r'^(\*|(W/)?"?[0-9]{1,15}(\.[0-9a-f]{8})?"?)$')


class ProblemApi(Api):
    """flask-smorest's Api, speaking RFC 9457 for every error and documenting it so."""

    ERROR_SCHEMA = ProblemSchema
    problem_base = "https://boardgames.example/problems/"

    # flask-smorest's private hook for the default responses (the public settings cannot change
    # their media type): fenced by tests/shared/test_private_apis.py.
    def _register_responses(self) -> None:
        for status in http.HTTPStatus:
            response: dict[str, Any] = {"description": status.phrase}
            if status >= 400:
                response["schema"] = self.ERROR_SCHEMA
            prepare_response(response, self.spec, PROBLEM_MEDIA_TYPE)
            self.spec.components.response(status.name, response, lazy=True)
        response = {"description": "Default error response", "schema": self.ERROR_SCHEMA}
        prepare_response(response, self.spec, PROBLEM_MEDIA_TYPE)
        self.spec.components.response("DEFAULT_ERROR", response, lazy=True)

    def handle_http_exception(self, error: HTTPException) -> Response:
        data = getattr(error, "data", None) or {}
        code = error.code or 500
        if code == 422 and "messages" in data:
            problem = Problem("validation-error", "The request does not match the schema.",
                              errors=_webargs_errors(data["messages"]))
        else:
            kind = {400: "malformed-request", 401: "unauthenticated", 404: "not-found",
                    405: "method-not-allowed", 406: "not-acceptable", 413: "payload-too-large",
                    415: "unsupported-media-type", 428: "precondition-required"}.get(code)
            if kind is None:
                kind = "internal-error" if code >= 500 else "malformed-request"
            detail = data.get("message") or error.description or error.name
            problem = Problem(kind, str(detail), status=code)
        return problem_response(problem, self.problem_base)


def _webargs_errors(messages: dict[str, Any]) -> list[dict[str, str]]:
    """webargs nests errors under their location (``json``, ``query``); point into the request."""
    out: list[dict[str, str]] = []
    for location, errors in messages.items():
        for item in flatten_errors(errors):
            prefix = "" if location == "json" else "/" + location
            out.append({"detail": item["detail"], "pointer": prefix + item["pointer"]})
    return out


def problem_response(problem: Problem, base: str) -> Response:
    body = problem.body(base)
    request_id = current_request_id()
    if request_id:
        body.setdefault("instance", "urn:request:" + request_id)
    metrics.record_problem(problem)
    return Response(json.dumps(body), status=problem.status, mimetype=PROBLEM_MEDIA_TYPE)


def check_json_shape(value: Any) -> None:
    """Refuse bodies nested deeper than MAX_JSON_DEPTH or holding lone surrogates (not storable as UTF-8).

    One iterative walk: a recursive one would itself overflow on the bodies it is meant to refuse.
    """
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_JSON_DEPTH:
            raise Problem("malformed-request", f"The JSON body is nested deeper than {MAX_JSON_DEPTH} levels.")
        if isinstance(item, dict):
            stack.extend((k, depth + 1) for k in item)
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)
        elif isinstance(item, str) and not item.isascii():
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                raise Problem("malformed-request", "The body holds text that is not valid Unicode "
                              "(a lone surrogate).") from None


# Answers from this size on are gzipped for clients that accept it (a late Elastium listing of
# legal moves runs to megabytes); a move's answer is far smaller and goes as it is.
COMPRESS_FROM_BYTES = 8 * 1024


def json_response(body: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    """A JSON answer built directly: the hot routes skip marshmallow's dump (their schemas still
    document the shape, and schemathesis checks the answers against them)."""
    return json_bytes_response(jsonout.dumps(body), status, headers)


def json_bytes_response(data: bytes, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    """``json_response`` of a body already serialized."""
    response = Response(data, status=status, headers=headers, mimetype="application/json")
    if len(data) >= COMPRESS_FROM_BYTES:
        response.vary.add("Accept-Encoding")
        if "gzip" in request.accept_encodings:
            response.set_data(gzip.compress(data, compresslevel=5))
            response.headers["Content-Encoding"] = "gzip"
    return response


def read_body_bytes() -> bytes:
    """The whole body, or 413 payload-too-large past ``MAX_CONTENT_LENGTH``: never a truncated one.

    With a Content-Length werkzeug refuses an oversized body before reading it.  A chunked body
    (no Content-Length) has only werkzeug's stream capped at the limit, whose plain ``read()``
    stops there and hands back the first bytes as if they were all; so it is read here, from the
    server-terminated input, one byte past the limit to tell "exactly the limit" from "more".
    """
    limit = current_app.config.get("MAX_CONTENT_LENGTH")
    chunked = request.content_length is None and "wsgi.input_terminated" in request.environ
    if limit is None or not chunked:
        return request.get_data(cache=True)
    stream = request.environ["wsgi.input"]
    parts: list[bytes] = []
    size = 0
    while size <= limit:
        part = stream.read(min(64 * 1024, limit + 1 - size))
        if not part:
            return b"".join(parts)
        parts.append(part)
        size += len(part)
    raise Problem("payload-too-large", f"The body is larger than {limit} bytes.")


def read_json_body() -> Any:
    """The request's JSON body, or a 400/413/415 problem that says what is wrong with it."""
    mimetype = request.mimetype or ""
    if mimetype != "application/json" and not mimetype.endswith("+json"):
        raise Problem("unsupported-media-type",
                      f"Send the body as application/json, not {mimetype or 'no content type'}.")
    raw = read_body_bytes()
    try:
        body = json.loads(raw)
    except RecursionError:
        raise Problem("malformed-request", "The JSON body is nested too deeply.") from None
    except ValueError as exc:
        raise Problem("malformed-request", f"The body is not valid JSON: {exc}.") from None
    check_json_shape(body)
    return body


def load_with(schema: Schema, data: Any) -> Any:
    """``schema.load(data)``, or a 422 problem pointing at every field that is wrong."""
    try:
        return schema.load(data)
    except ValidationError as exc:
        raise Problem("validation-error", "The request does not match the schema.",
                      errors=flatten_errors(exc.messages)) from None


def entity_tag(version: int, deadlines: dict[str, str] | None = None) -> str:
    """The tag of a game's version: strong, as it names one exact state (``If-Match`` compares
    strongly), and answers that differ by viewer say so with ``Vary: Authorization``.

    An answer that shows turn-clock ``deadlines`` adds a short hash of them (``"12.3f9a0c1d"``):
    the sweeper may start a clock that an append left behind (``shared.play.clocks.restart``) without
    a new version, and a 304 on the bare version would then hide the new deadlines.  Without a
    deadline the tag is the bare version, as it always was."""
    if not deadlines:
        return f'"{version}"'
    digest = hashlib.blake2b(json.dumps(deadlines, sort_keys=True).encode(), digest_size=4).hexdigest()
    return f'"{version}.{digest}"'


def not_modified(etag: str) -> Response | None:
    """304 (no body) when the request's ``If-None-Match`` names ``etag``, else None.

    If-None-Match compares weakly (RFC 9110 13.1.2): ``W/"12"`` matches ``"12"``, ``*`` anything."""
    header = request.headers.get("If-None-Match")
    if header is None:
        return None
    tags = {tag.strip().removeprefix("W/") for tag in header.split(",")}
    if "*" not in tags and etag.removeprefix("W/") not in tags:
        return None
    return Response(status=304, headers={"ETag": etag})


def parse_if_match(header: str | None) -> int | None:
    """``If-Match: "12"`` (or ``W/"12"``, ``12``, ``*``, or a view's tag ``"12.3f9a0c1d"``) -> 12 / None.

    A move is pinned to the version only: the deadlines part of a view's tag says nothing about
    the state the move was decided on."""
    if header is None or header.strip() == "*":
        return None
    value = header.strip()
    if not IF_MATCH_PATTERN.fullmatch(value):
        raise Problem("malformed-request", 'If-Match takes the version as an entity tag: If-Match: "12".')
    return int(value.removeprefix("W/").strip('"').partition(".")[0])
