"""Every title played to the end over HTTP by human seats choosing random legal moves.

Through the real app and Redis: no 5xx, every listed move is accepted as listed, each seat's
view and log stay consistent with the game's version, and the finished game audits.
"""
from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from shared.game import registry
from shared.play.config import Settings
from shared.http.service import create_app

@pytest.mark.parametrize("game", registry.available())
def test_humans_play_a_whole_game_over_http(game: str, redis_url: str, redis_client: Any) -> None:
    plugin = registry.plugin(game)
    settings = dataclasses.replace(Settings.from_env(), redis_url=redis_url, rq_redis_url=redis_url,
                                   enqueue_bots=False, snapshot_every=40)
    client = create_app(plugin, settings).test_client()
    players = plugin.game.min_players
    created = client.post("/games", json={"seed": 5, "players": [{"name": f"p{i}"} for i in range(players)]})
    assert created.status_code == 201
    gid = created.get_json()["id"]
    auth = [{"Authorization": f"Bearer {p['token']}"} for p in created.get_json()["players"]]
    rng = random.Random(7)
    view: dict[str, Any] = {}
    for _ in range(plugin.game.max_moves):
        view = client.get(f"/games/{gid}").get_json()
        if view["status"] == "finished":
            break
        seat = rng.choice(view["to_act"])
        legal = client.get(f"/games/{gid}/legal-moves", headers=auth[seat]).get_json()
        assert legal["moves"] and legal["version"] == view["version"]
        move = rng.choice(legal["moves"])
        resp = client.post(f"/games/{gid}/moves", json=move, headers={**auth[seat], "If-Match": f'"{legal["version"]}"'})
        assert resp.status_code == 201, (move, resp.get_json())
        assert resp.get_json()["version"] > legal["version"]
    else:
        pytest.fail(f"{game}: random play did not finish within {plugin.game.max_moves} moves")
    assert view["result"]["winners"]
    log = client.get(f"/games/{gid}/events?limit=1000").get_json()
    assert log["status"] == "finished"
    for seat in range(players):
        mine = client.get(f"/games/{gid}", headers=auth[seat]).get_json()
        assert mine["you"] == seat and mine["version"] == view["version"]
    audit = client.get(f"/games/{gid}/audit").get_json()
    assert audit["ok"] and audit["version"] == view["version"], audit
