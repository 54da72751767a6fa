"""GET /games/{id}/board.svg: the game's own drawing of the spectator's view, served as SVG."""
from __future__ import annotations

import dataclasses
import json
from typing import Any

from shared.play.config import Settings
from shared.http.service import create_app
from tests.shared.conftest import auth, new_game
from tests.shared.toygame import PLUGIN

seen: list[dict[str, Any]] = []


def draw(view: dict[str, Any], players: list[dict[str, Any]]) -> str:
    seen.append(view)
    return (f'<svg xmlns="http://www.w3.org/2000/svg"><text>{json.dumps(view["scores"])} '
            f'{",".join(p["name"] for p in players)}</text></svg>')


def test_the_board_is_the_spectators_picture_at_any_version(settings: Settings) -> None:
    app = create_app(dataclasses.replace(PLUGIN, board_svg=draw), settings)
    client = app.test_client()
    game = new_game(client)
    gid, token = game["id"], game["players"][0]["token"]
    view = client.get(f"/games/{gid}").get_json()
    seat = view["to_act"][0]
    moved = client.post(f"/games/{gid}/moves", json={"type": "roll"}, headers=auth(game["players"][seat]["token"]))
    assert moved.status_code == 201
    now = client.get(f"/games/{gid}/board.svg", headers=auth(token))
    assert now.status_code == 200 and now.mimetype == "image/svg+xml"
    assert now.headers["ETag"] == f'"{moved.get_json()["version"]}"'
    assert client.get(f"/games/{gid}/board.svg").headers["Cache-Control"] == "no-cache"
    # Always the spectator's view, even when a seat's token comes along: no hand in a picture.
    assert seen[-1]["your_card"] is None
    assert "human0,human1" in now.get_data(as_text=True)
    # The picture of a past version, and its caching.
    before = client.get(f"/games/{gid}/board.svg", query_string={"version": view["version"]})
    assert before.headers["ETag"] == f'"{view["version"]}"'
    assert "immutable" in before.headers["Cache-Control"]
    assert json.dumps(view["state"]["scores"]) in before.get_data(as_text=True)
    assert client.get(f"/games/{gid}/board.svg", headers={"If-None-Match": now.headers["ETag"]}).status_code == 304
    # Past the end, or not a game: problems, not pictures.
    late = client.get(f"/games/{gid}/board.svg", query_string={"version": 999})
    assert late.status_code == 422 and late.mimetype == "application/problem+json"
    assert client.get("/games/nosuchgame/board.svg").status_code == 404


def test_a_game_without_a_picture_has_no_board_route(client: Any) -> None:
    game = new_game(client)
    assert client.get(f"/games/{game['id']}/board.svg").status_code == 404
