"""What every answer tells a browser, whatever the request claims: no Location built from the Host
header, no type sniffing, no framing by another site, the pages only with their policy."""
from __future__ import annotations

from typing import Any

import pytest

from shared.http.middleware import relative
from tests.shared.conftest import new_game


# PATH_INFO as a server hands it over (the test client would read "//games" as a host name).
@pytest.mark.parametrize(("path", "location"), [("/games//{id}", "/games/{id}"),
                                                ("/games/{id}//events", "/games/{id}/events"), ("", "/")])
def test_a_redirect_names_a_path_here_never_the_host_the_request_named(
        client: Any, path: str, location: str) -> None:
    gid = new_game(client)["id"]
    resp = client.get("/", environ_overrides={"PATH_INFO": path.format(id=gid)},
                      headers={"Host": "evil.example"}, query_string="status=waiting")
    assert resp.status_code == 308
    assert resp.headers["Location"] == location.format(id=gid) + "?status=waiting"


def test_a_location_is_made_a_path_of_this_service() -> None:
    assert relative("http://evil.example//other.example/x?a=1") == "/other.example/x?a=1"
    assert relative("/games/abc") == "/games/abc"
    assert relative("https://h") == "/"


def test_no_answer_may_be_sniffed_nor_framed(client: Any) -> None:
    gid = new_game(client)["id"]
    answers = [client.get("/games"), client.get(f"/games/{gid}"), client.get("/games/nope"), client.get("/healthz"),
               client.post("/games", json={"players": [{"name": "a"}, {"name": "b"}]}), client.get("/"),
               client.get(f"/table/{gid}"), client.get("/web/style.css"), client.get("/openapi.json")]
    for resp in answers:
        assert resp.headers.get("X-Content-Type-Options") == "nosniff", resp.request.path
        assert resp.headers.get("X-Frame-Options") == "DENY", resp.request.path
    assert {resp.mimetype for resp in answers} >= {"application/json", "application/problem+json", "text/html"}


@pytest.mark.parametrize("path", ["/", "/table/abc", "/replay/abc"])
def test_the_pages_policy_lets_no_site_frame_them(client: Any, path: str) -> None:
    policy = client.get(path).headers["Content-Security-Policy"]
    assert "frame-ancestors 'none'" in policy and "default-src 'self'" in policy


@pytest.mark.parametrize("name", ["lobby", "table", "replay"])
def test_the_pages_templates_are_not_served_raw_without_their_policy(client: Any, name: str) -> None:
    resp = client.get(f"/web/{name}.html")
    assert resp.status_code == 404 and resp.mimetype == "application/problem+json"
    assert client.get(f"/web/{name}.js").status_code == 200
