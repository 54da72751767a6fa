"""Open seats, resignations and CORS under real gunicorn (gevent), Redis and an RQ worker."""
from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
import requests

from tests.e2e.conftest import Stack, wait_until

pytestmark = pytest.mark.e2e


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_twenty_joiners_for_two_seats_then_the_bot_plays(make_stack: Any) -> None:
    stack: Stack = make_stack("race")
    base = stack.start_web()
    stack.start_worker()
    created = requests.post(f"{base}/games", json={"players": [
        {"name": "bot", "bot": "roller"}, {"open": True}, {"open": True}]}, timeout=5).json()
    gid = created["id"]
    assert requests.get(f"{base}/games?status=waiting", timeout=5).json()["games"][0]["id"] == gid
    gate = threading.Barrier(20)

    def join(i: int) -> requests.Response:
        gate.wait(10)
        return requests.post(f"{base}/games/{gid}/seats/{1 + i % 2}", json={"name": f"p{i}"}, timeout=30)

    with ThreadPoolExecutor(20) as pool:
        answers = list(pool.map(join, range(20)))
    assert sorted(r.status_code for r in answers) == [201] * 2 + [409] * 18
    assert {r.json()["reason"] for r in answers if r.status_code == 409} == {"seat-taken"}
    seats = sorted(r.json()["seat"] for r in answers if r.status_code == 201)
    assert seats == [1, 2]
    started = max(r.json()["version"] for r in answers if r.status_code == 201)
    # The game started by itself, and the bot (seat 0, first to act) played without being asked.
    wait_until(lambda: requests.get(f"{base}/games/{gid}", timeout=5).json()["version"] > started,
               "the bot's first move")
    listed = requests.get(f"{base}/games?status=running", timeout=5).json()["games"]
    assert [g["id"] for g in listed] == [gid] and listed[0]["moved_at"] is not None
    assert requests.get(f"{base}/games/{gid}/audit", timeout=10).json()["ok"] is True


def test_a_resigned_seat_is_played_by_the_worker_and_cors_answers_a_preflight(make_stack: Any) -> None:
    stack: Stack = make_stack("race")
    stack.env["CORS_ORIGINS"] = "https://play.example, https://other.example"
    base = stack.start_web()
    stack.start_worker()
    preflight = requests.options(f"{base}/games/x/moves", timeout=5, headers={
        "Origin": "https://play.example", "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "Authorization, Content-Type, Idempotency-Key, If-Match"})
    assert preflight.headers.get("Access-Control-Allow-Origin") == "https://play.example"
    assert "idempotency-key" in preflight.headers["Access-Control-Allow-Headers"].lower()

    created = requests.post(f"{base}/games", json={"players": [{"name": "a"}, {"name": "b"}]}, timeout=5).json()
    gid, mine = created["id"], created["players"][0]["token"]
    resigned = requests.post(f"{base}/games/{gid}/resign", headers={**auth(mine), "Origin": "https://play.example"},
                             timeout=5)
    assert resigned.status_code == 200 and resigned.headers["Access-Control-Allow-Origin"] == "https://play.example"
    # Seat 0 was to act: its bot moves, and play passes to seat 1.
    wait_until(lambda: requests.get(f"{base}/games/{gid}", timeout=5).json()["to_act"] != [0], "the bot's move")
    refused = requests.post(f"{base}/games/{gid}/moves", json={"type": "hold"}, headers=auth(mine), timeout=5)
    assert (refused.status_code, refused.json()["reason"]) == (403, "seat-resigned")
    events = requests.get(f"{base}/games/{gid}/events", headers=auth(mine), timeout=5).json()["events"]
    assert any(e["type"] == "platform.seat_resigned" and e["data"] == {"seat": 0, "bot": resigned.json()["bot"]}
               for e in events)


def test_a_player_cannot_freeze_the_game_with_its_takeover_bots_key(make_stack: Any) -> None:
    # The attack: seat 0 moves under the keys its bot will use once it resigns, then resigns.
    stack: Stack = make_stack("race")
    base = stack.start_web()
    stack.start_worker()
    created = requests.post(f"{base}/games", json={"players": [{"name": "a"}, {"name": "b"}]}, timeout=5).json()
    gid, tokens = created["id"], [p["token"] for p in created["players"]]
    takeover = created["version"] + 5          # hold, hold, hold, hold, resign: the bot plays then
    for turn, key in enumerate([f"bot-{takeover}", "any", f"bot-{takeover}-fallback", "other"]):
        moved = requests.post(f"{base}/games/{gid}/moves", json={"type": "hold"}, timeout=5,
                              headers={**auth(tokens[turn % 2]), "Idempotency-Key": key})
        assert moved.status_code == 201, moved.text
    for key in (f"platform/bot/{takeover}", f"platform/bot/{takeover}/fallback"):
        refused = requests.post(f"{base}/games/{gid}/moves", json={"type": "hold"}, timeout=5,
                                headers={**auth(tokens[0]), "Idempotency-Key": key})
        assert (refused.status_code, refused.json()["reason"]) == (400, "malformed-request")
    resigned = requests.post(f"{base}/games/{gid}/resign", headers=auth(tokens[0]), timeout=5).json()
    assert resigned["version"] == takeover
    # The bot plays seat 0's turn, and the game goes on to seat 1.
    wait_until(lambda: requests.get(f"{base}/games/{gid}", timeout=5).json()["to_act"] == [1], "the bot's move")
    events = requests.get(f"{base}/games/{gid}/events", params={"after": takeover}, timeout=5).json()["events"]
    assert events[0]["cause"] == {**events[0]["cause"], "kind": "move", "seat": 0}
