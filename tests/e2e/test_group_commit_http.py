"""Group commit under real gunicorn (gevent): concurrent clients' moves share round trips to
Redis, every move is in its log once, and /metrics says how many round trips carried them."""
from __future__ import annotations

import re
import threading
from typing import Any

import pytest
import requests

pytestmark = [pytest.mark.e2e]

GAMES = 12
MOVES_EACH = 30


def counter(metrics: str, name: str, game: str) -> float:
    found = re.search(rf'^{name}{{game="{game}"}} ([0-9.e+]+)$', metrics, re.M)
    return float(found.group(1)) if found else 0.0


def test_concurrent_moves_share_round_trips_and_each_lands_once(make_stack: Any) -> None:
    stack = make_stack("race")
    base = stack.start_web()
    games = []
    for _ in range(GAMES):
        created = requests.post(f"{base}/games", json={"players": [{"name": "a"}, {"name": "b"}]}, timeout=10)
        assert created.status_code == 201, created.text
        body = created.json()
        first = requests.get(f"{base}/games/{body['id']}", timeout=10).json()["to_act"][0]
        games.append((body["id"], body["version"], [p["token"] for p in body["players"]], first))
    before = requests.get(f"{base}/metrics", timeout=5).text
    failures: list[str] = []

    def play(game_id: str, tokens: list[str], first: int) -> None:
        session = requests.Session()          # keep-alive, as a client playing a game would
        for i in range(MOVES_EACH):
            seat = (first + i) % 2            # "hold" passes the turn to the other seat
            answer = session.post(f"{base}/games/{game_id}/moves", json={"type": "hold"},
                                  headers={"Authorization": f"Bearer {tokens[seat]}"}, timeout=30)
            if answer.status_code != 201:
                failures.append(f"{game_id} move {i}: {answer.status_code} {answer.text[:200]}")
                return

    threads = [threading.Thread(target=play, args=(g, tokens, first)) for g, _, tokens, first in games]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert failures == []
    after = requests.get(f"{base}/metrics", timeout=5).text
    appends = counter(after, "event_appends_total", "race") - counter(before, "event_appends_total", "race")
    trips = (counter(after, "event_append_round_trips_total", "race")
             - counter(before, "event_append_round_trips_total", "race"))
    assert appends == GAMES * MOVES_EACH                 # every move appended once
    assert 0 < trips < appends                           # and some shared a round trip
    for game_id, version, _, _ in games:
        log = requests.get(f"{base}/games/{game_id}/events", params={"after": 0, "limit": 1000}, timeout=10).json()
        assert [e["seq"] for e in log["events"]] == list(range(1, version + MOVES_EACH + 1))
        assert requests.get(f"{base}/games/{game_id}/audit", timeout=10).json()["ok"] is True
