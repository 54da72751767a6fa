"""Every registered game plays itself to the end with bots only: real gunicorn, RQ worker, Redis."""
from __future__ import annotations

import time
from typing import Any

import pytest
import requests

from shared.game import registry

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize("game", registry.available())
def test_bots_only_game_finishes_and_audits(game: str, make_stack: Any) -> None:
    plugin = registry.plugin(game)
    stack = make_stack(game)
    base = stack.start_web()
    stack.start_worker()
    stack.start_thinker()          # a search bot's turns go to a queue of their own
    strong = sorted(s for s in plugin.strategies if s != "random")
    bots = [strong[0] if strong and i % 2 == 0 else "random" for i in range(plugin.game.min_players)]
    created = requests.post(f"{base}/games", json={"seed": 21, "players": [
        {"name": f"bot{i}", "bot": bot} for i, bot in enumerate(bots)]}, timeout=10)
    assert created.status_code == 201, created.text
    gid = created.json()["id"]
    deadline = time.monotonic() + 180
    view: dict[str, Any] = {}
    while time.monotonic() < deadline:
        view = requests.get(f"{base}/games/{gid}", timeout=10).json()
        if view["status"] == "finished":
            break
        requests.get(f"{base}/games/{gid}/events", params={"after": view["version"], "wait": 5}, timeout=15)
    assert view.get("status") == "finished", f"{game} did not finish: version {view.get('version')}"
    assert view["result"]["winners"]
    audit = requests.get(f"{base}/games/{gid}/audit", timeout=60).json()
    assert audit["ok"] and audit["version"] == view["version"], audit
