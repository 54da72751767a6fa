"""What every answer tells a browser, whatever the request claims: no Location built from the Host
header."""
from __future__ import annotations

from typing import Any

import pytest

from shared.middleware import relative
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
