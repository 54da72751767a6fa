"""A client plays one Catan seat against bots to the end: real gunicorn, real RQ worker, real Redis."""
from __future__ import annotations

import random
import time
from typing import Any

import pytest
import requests

pytestmark = pytest.mark.e2e

# What a simple client prefers, most wanted first; anything else is picked at random.
PRIORITY = ["play_knight", "build_city", "build_settlement", "buy_dev_card", "play_year_of_plenty",
            "play_monopoly", "play_road_building", "build_road", "bank_trade", "roll", "end_turn"]


def choose(moves: list[dict[str, Any]], rng: random.Random, trades_this_turn: int) -> dict[str, Any]:
    by_type: dict[str, list[dict[str, Any]]] = {}
    for m in moves:
        by_type.setdefault(m["type"], []).append(m)
    for kind in PRIORITY:
        if kind == "bank_trade" and trades_this_turn >= 1:
            continue
        if kind == "build_road" and "end_turn" in by_type and rng.random() < 0.7:
            continue
        if kind in by_type:
            return rng.choice(by_type[kind])
    return rng.choice(moves)


def test_client_plays_a_seat_against_bots_to_the_end(make_stack: Any) -> None:
    stack = make_stack("catan")
    base = stack.start_web()
    stack.start_worker()
    created = requests.post(f"{base}/games", json={"seed": 11, "players": [
        {"name": "me"}, {"name": "greedy", "bot": "greedy"}, {"name": "rando", "bot": "random"}]}, timeout=5)
    assert created.status_code == 201, created.text
    game = created.json()
    gid, token = game["id"], game["players"][0]["token"]
    headers = {"Authorization": f"Bearer {token}"}
    rng = random.Random(1)
    trades, moves_made, woken = 0, 0, 0
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        view = requests.get(f"{base}/games/{gid}", headers=headers, timeout=5).json()
        if view["status"] == "finished":
            break
        if 0 not in view["to_act"]:
            # Wait for the bots without a polling loop: the events endpoint holds the request.
            page = requests.get(f"{base}/games/{gid}/events", params={"after": view["version"], "wait": 5},
                                headers=headers, timeout=10)
            assert page.status_code == 200, page.text
            woken += bool(page.json()["events"])        # the long-poll answered with the bots' moves
            continue
        legal = requests.get(f"{base}/games/{gid}/legal-moves", headers=headers, timeout=5).json()
        assert legal["moves"], "a seat that is to act always has a legal move"
        move = choose(legal["moves"], rng, trades)
        trades = 0 if move["type"] == "end_turn" else trades + (move["type"] == "bank_trade")
        resp = requests.post(f"{base}/games/{gid}/moves", json=move,
                             headers={**headers, "If-Match": f'"{legal["version"]}"'}, timeout=5)
        assert resp.status_code in (201, 409), resp.text   # 409: a bot acted in between
        moves_made += resp.status_code == 201
    else:
        pytest.fail(f"the game did not finish in time ({moves_made} moves by the client)")
    assert view["result"]["winners"]
    events = requests.get(f"{base}/games/{gid}/events", params={"limit": 1000}, timeout=5).json()
    assert events["status"] == "finished" and all("salt" in e for e in events["events"])
    audit = requests.get(f"{base}/games/{gid}/audit", timeout=30).json()
    assert audit["ok"], audit
    assert audit["version"] == view["version"]
    assert moves_made > 10 and woken > 0
    movers = {e["cause"]["seat"] for e in events["events"] if e.get("cause", {}).get("kind") == "move"}
    assert movers == {0, 1, 2}, movers                  # the client and both bots played
