"""The creation rate limit under gunicorn, where the client address is the socket's (or a trusted proxy's)."""
from __future__ import annotations

from typing import Any

import pytest
import requests

from tests.e2e.conftest import wait_until
from tests.e2e.test_worker_faults import start_sweeper

pytestmark = pytest.mark.e2e

TWO = {"players": [{"name": "a"}, {"name": "b"}]}


def create(url: str, forwarded_for: str | None = None) -> requests.Response:
    headers = {"X-Forwarded-For": forwarded_for} if forwarded_for else {}
    return requests.post(f"{url}/games", json=TWO, headers=headers, timeout=10)


def test_rate_limit_by_client_address_trusts_x_forwarded_for_only_behind_a_proxy(make_stack: Any) -> None:
    stack = make_stack("race")
    stack.env.update(CREATE_RATE_LIMIT="1/minute", TRUSTED_PROXY_COUNT="0")
    direct = stack.start_web("direct")
    assert create(direct, "10.0.0.1").status_code == 201
    # Without a trusted proxy the header is the client's word: a new one buys no new budget.
    refused = create(direct, "10.0.0.2")
    assert refused.status_code == 429 and refused.headers["Content-Type"] == "application/problem+json"
    assert refused.json()["reason"] == "rate-limited" and int(refused.headers["Retry-After"]) >= 1
    assert requests.get(f"{direct}/healthz", timeout=5).status_code == 200

    stack.env["TRUSTED_PROXY_COUNT"] = "1"
    proxied = stack.start_web("proxied")
    # Behind one proxy, the address it appends (the last one) is the client's.
    assert create(proxied, "10.0.0.1").status_code == 201
    assert create(proxied, "10.0.0.1").status_code == 429
    assert create(proxied, "6.6.6.6, 10.0.0.3").status_code == 201   # a forged first hop is ignored
    assert create(proxied, "7.7.7.7, 10.0.0.3").status_code == 429


def test_an_address_at_its_cap_creates_again_once_the_sweeper_ends_its_abandoned_game(make_stack: Any) -> None:
    stack = make_stack("race")
    stack.env.update(MAX_GAMES_PER_ADDRESS="1", ABANDON_AFTER_SECONDS="2", SWEEP_INTERVAL_SECONDS="0.5")
    base = stack.start_web()
    game = create(base).json()
    token = game["players"][0]["token"]
    moved = requests.post(f"{base}/games/{game['id']}/moves", json={"type": "hold"}, timeout=10,
                          headers={"Authorization": f"Bearer {token}"})
    assert moved.status_code == 201                   # a move: the game is kept for good
    refused = create(base)
    assert refused.status_code == 429 and refused.headers["Content-Type"] == "application/problem+json"
    assert refused.json()["reason"] == "too-many-games" and int(refused.headers["Retry-After"]) >= 1
    start_sweeper(stack)
    wait_until(lambda: requests.get(f"{base}/games/{game['id']}", timeout=5).json()["status"] == "abandoned",
               "the sweeper to end the game nobody moves in", timeout=30)
    # The abandonment, and the seed it opens in the same append (its dice can be checked).
    abandoned, revealed = requests.get(f"{base}/games/{game['id']}/events", timeout=5).json()["events"][-2:]
    assert abandoned["type"] == "platform.game_abandoned" and abandoned["data"]["status"] == "abandoned"
    assert revealed["type"] == "platform.seed_revealed"
    assert create(base).status_code == 201
