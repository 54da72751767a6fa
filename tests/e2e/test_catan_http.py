"""Catan's own rules through the real app and Redis: rule errors name the rule; counter-offers."""
from __future__ import annotations

import dataclasses
from typing import Any

from services.catan.api import PLUGIN
from services.catan.rules.board import RESOURCES
from shared.play.config import Settings
from shared.http.service import create_app


def _three_humans(redis_url: str, seed: int) -> tuple[Any, dict[str, Any]]:
    """The real app on the test's Redis (no bot queue) and a new three-seat game of humans."""
    settings = dataclasses.replace(Settings.from_env(), redis_url=redis_url, rq_redis_url=redis_url,
                                   enqueue_bots=False)
    client = create_app(PLUGIN, settings).test_client()
    return client, client.post("/games", json={"seed": seed, "players": [{"name": n} for n in "abc"]}).get_json()


def test_catan_rule_errors_over_http(redis_url: str, redis_client: Any) -> None:
    client, game = _three_humans(redis_url, 3)
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


def test_a_counter_offer_is_made_and_accepted_over_http(redis_url: str, redis_client: Any) -> None:
    """The almanac: "Hans dit : "j'offre 1 minerai pour 1 brique". [...] Gabi renchérit avec: "je te
    donnerai 1 Brique pour 1 bois de charpente et un minerai." Hans accepte l'offre de Gabi"."""
    client, game = _three_humans(redis_url, 5)
    gid = game["id"]
    auth = [{"Authorization": f"Bearer {p['token']}"} for p in game["players"]]

    def post(seat: int, move: dict[str, Any]) -> Any:
        return client.post(f"/games/{gid}/moves", json=move, headers=auth[seat])

    def state(seat: int) -> dict[str, Any]:
        return client.get(f"/games/{gid}", headers=auth[seat]).get_json()["state"]

    # Set-up and the first roll (with its discards and robber if a 7): the first listed moves.
    while state(0)["phase"] != "main":
        seat = state(0)["to_act"][0]
        move = client.get(f"/games/{gid}/legal-moves", headers=auth[seat]).get_json()["moves"][0]
        assert post(seat, move).status_code == 201
    hans = state(0)["current"]
    hand = {seat: state(seat)["seats"][seat]["resources"] for seat in range(3)}
    offered = next(iter(hand[hans]))                          # a card Hans holds
    gabi, given = next((s, r) for s in range(3) if s != hans for r in hand[s] if r != offered)
    werner = 3 - hans - gabi
    asked = next(r for r in RESOURCES if r != offered)
    assert post(hans, {"type": "offer_trade", "give": {offered: 1}, "get": {asked: 1}}).status_code == 201
    # A counter must be well formed (schema) and paid from the seat's own hand (rules).
    bad = post(gabi, {"type": "counter_trade", "give": {"gold": 1}, "get": {offered: 1}})
    assert bad.status_code == 422 and bad.get_json()["errors"][0]["pointer"].startswith("/give")
    lacking = next(r for r in RESOURCES if r not in hand[gabi] and r != offered)
    refused = post(gabi, {"type": "counter_trade", "give": {lacking: 1}, "get": {offered: 1}})
    assert refused.status_code == 422 and refused.get_json()["reason"] == "not-enough-resources"
    counter = {"type": "counter_trade", "give": {given: 1}, "get": {offered: 1}}
    assert post(gabi, counter).status_code == 201
    assert post(werner, {"type": "answer_trade", "accept": False}).status_code == 201
    # Everybody sees the counter; Hans may take it up.
    assert state(werner)["offer"]["counters"][gabi] == {"give": {given: 1}, "get": {offered: 1}}
    legal = client.get(f"/games/{gid}/legal-moves", headers=auth[hans]).get_json()["moves"]
    assert {"type": "confirm_trade", "seat": gabi} in legal
    assert post(hans, {"type": "confirm_trade", "seat": gabi}).status_code == 201
    after = state(hans)["seats"][hans]["resources"]
    assert after.get(offered, 0) == hand[hans][offered] - 1 and after.get(given, 0) == hand[hans].get(given, 0) + 1
    events = client.get(f"/games/{gid}/events", headers=auth[werner]).get_json()["events"]
    assert {"type": "trade_countered", "data": {"seat": gabi, "give": {given: 1}, "get": {offered: 1}}} in \
        [{"type": e["type"], "data": e["data"]} for e in events]
    assert client.get(f"/games/{gid}/audit").get_json()["ok"]
