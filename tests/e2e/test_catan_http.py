"""Catan's own rule errors through the real app and Redis: the reason names the rule."""
from __future__ import annotations

import dataclasses
from typing import Any

from services.catan.api import PLUGIN
from shared.config import Settings
from shared.service import create_app


def test_catan_rule_errors_over_http(redis_url: str, redis_client: Any) -> None:
    settings = dataclasses.replace(Settings.from_env(), redis_url=redis_url, rq_redis_url=redis_url,
                                   enqueue_bots=False)
    client = create_app(PLUGIN, settings).test_client()
    game = client.post("/games", json={"seed": 3, "players": [{"name": n} for n in "abc"]}).get_json()
    gid = game["id"]
    view = client.get(f"/games/{gid}").get_json()
    seat = view["to_act"][0]
    headers = {"Authorization": f"Bearer {game['players'][seat]['token']}"}
    other = {"Authorization": f"Bearer {game['players'][(seat + 1) % 3]['token']}"}
    moves = client.get(f"/games/{gid}/legal-moves", headers=headers).get_json()["moves"]
    first = next(m for m in moves if m["type"] == "build_settlement")
    assert client.post(f"/games/{gid}/moves", json=first, headers=other).get_json()["reason"] == "not-your-turn"
    assert client.post(f"/games/{gid}/moves", json={"type": "roll"}, headers=headers).status_code == 422
    assert client.post(f"/games/{gid}/moves", json=first, headers=headers).status_code == 201
    # Catan's moves carry no secret: the other seats read them in the log as they happen.
    seen = client.get(f"/games/{gid}/events", headers=other).get_json()["events"][-1]["cause"]
    assert seen == {"kind": "move", "seat": seat, "move": first}
    # The set-up road next, then the next player may not settle next door.
    road = client.get(f"/games/{gid}/legal-moves", headers=headers).get_json()["moves"][0]
    assert client.post(f"/games/{gid}/moves", json=road, headers=headers).status_code == 201
    nxt = client.get(f"/games/{gid}").get_json()["to_act"][0]
    nheaders = {"Authorization": f"Bearer {game['players'][nxt]['token']}"}
    board = client.get(f"/games/{gid}", headers=nheaders).get_json()["state"]["board"]
    neighbour = next(n for edge in board["edge_nodes"] for n in edge if first["node"] in edge and n != first["node"])
    resp = client.post(f"/games/{gid}/moves", json={"type": "build_settlement", "node": neighbour}, headers=nheaders)
    body = resp.get_json()
    assert resp.status_code == 422 and resp.mimetype == "application/problem+json"
    assert body["reason"] == "settlement-too-close" and body["type"].endswith("/illegal-move")
    bad = client.post(f"/games/{gid}/moves", json={"type": "build_settlement", "node": "x"}, headers=nheaders)
    assert bad.status_code == 422 and bad.get_json()["errors"][0]["pointer"] == "/node"
