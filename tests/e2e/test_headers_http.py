"""The browser-facing headers as gunicorn sends them: what tests/shared/test_headers.py checks in
process, once over a real socket (where a request's path and Host header are the client's own)."""
from __future__ import annotations

import http.client
from typing import Any
from urllib.parse import urlsplit

import pytest

pytestmark = pytest.mark.e2e


def test_gunicorn_answers_with_relative_redirects_and_no_sniffing_nor_framing(make_stack: Any) -> None:
    stack = make_stack("race")
    base = urlsplit(stack.start_web())

    def get(path: str, host: str | None = None) -> http.client.HTTPResponse:
        conn = http.client.HTTPConnection(base.hostname, base.port, timeout=10)
        conn.request("GET", path, headers={"Host": host} if host else {})
        resp = conn.getresponse()
        resp.read()
        conn.close()
        return resp

    redirect = get("/games//abc", host="evil.example")
    assert (redirect.status, redirect.getheader("Location")) == (308, "/games/abc")
    for path in ["/games", "/games/nope", "/"]:
        resp = get(path)
        assert resp.getheader("X-Content-Type-Options") == "nosniff", path
        assert resp.getheader("X-Frame-Options") == "DENY", path
    assert "frame-ancestors 'none'" in get("/").getheader("Content-Security-Policy", "")
    assert get("/web/lobby.html").status == 404
