"""Every registered game plays itself to the end with bots only: real gunicorn, RQ worker, Redis."""
from __future__ import annotations

from typing import Any

import pytest
import requests

from shared.game import registry
from tests.e2e.conftest import bots_game_to_the_end

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
    gid, view = bots_game_to_the_end(base, bots, seed=21)
    assert view["result"]["winners"]
    audit = requests.get(f"{base}/games/{gid}/audit", timeout=60).json()
    assert audit["ok"] and audit["version"] == view["version"], audit
