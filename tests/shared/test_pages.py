"""The browser pages as the server gives them: HTML that names the game and its seats' bots, files
from shared/web/, and nothing of them in the API document."""
from __future__ import annotations

import json
import re
from typing import Any

from tests.shared.toygame import PLUGIN


def page_config(html: str) -> dict[str, Any]:
    match = re.search(r'<script type="application/json" id="config">(.*?)</script>', html, re.S)
    assert match, html
    return json.loads(match.group(1))


def test_the_lobby_offers_this_game_with_its_bots_and_default_options(client: Any) -> None:
    resp = client.get("/")
    assert resp.status_code == 200 and resp.mimetype == "text/html"
    html = resp.get_data(as_text=True)
    assert "<title>Lobby · Race to 10</title>" in html and 'name="viewport"' in html
    config = page_config(html)
    assert config["strategies"] == sorted(PLUGIN.strategies) and "random" in config["strategies"]
    assert config["default_options"] == {"target": 10}
    assert (config["min_players"], config["max_players"]) == (2, 4)
    assert "default-src 'self'" in resp.headers["Content-Security-Policy"]


def test_table_and_replay_pages_and_their_scripts(client: Any) -> None:
    for path, script in (("/table/any-id", "/web/table.js"), ("/replay/any-id", "/web/replay.js")):
        html = client.get(path).get_data(as_text=True)
        assert f'<script type="module" src="{script}">' in html
        js = client.get(script)
        assert js.status_code == 200 and js.mimetype == "text/javascript"
    assert client.get("/web/style.css").mimetype == "text/css"
    assert client.get("/web/nothing.js").status_code == 404
    assert client.get("/web/../routes/pages.py").status_code == 404


def test_the_pages_are_not_in_the_api_document(client: Any) -> None:
    paths = client.get("/openapi.json").get_json()["paths"]
    assert "/" not in paths and not any(p.startswith(("/table", "/replay", "/web")) for p in paths)
