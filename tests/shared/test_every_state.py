"""Every intermediate state answers: the state right after ANY event, for every title and option set.

``GET /games/{id}/replay?version=N`` shows states no move ever stops at (between the events of one
move: an auction closed before the next phase starts, a church tile put under the stack before
the turn goes on).  The engine must still answer ``to_act``, the views and ``legal_moves`` there.
"""
from __future__ import annotations

import dataclasses
from typing import Any

import pytest
import redis

from shared.game import registry
from shared.play.bots import play_bot_turn_with
from shared.play.config import Settings
from shared.http.service import create_app
from shared.game.testing import assert_every_state_answers, play_random_game
from tests.shared.variants import VARIANTS, case_id, cases

CASES = cases()


@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
@pytest.mark.slow
def test_every_state_of_a_random_game_answers(case: tuple[str, int, dict[str, Any]]) -> None:
    """In-process: one random game, every seat's view and legal moves at each event.  The first
    option set of each title is played to its end; the others for their first few hundred moves."""
    name, players, options = case
    game = registry.plugin(name).game
    to_finish = (players, options) == VARIANTS[name][0]
    played = play_random_game(game, players, options, seed=11, max_moves=None if to_finish else 250,
                              check_every=200)
    assert played.finished or not to_finish
    assert assert_every_state_answers(game, played.events, players) == len(played.events)


def _app(name: str, redis_url: str) -> Any:
    url = redis_url.rsplit("/", 1)[0] + "/1"   # beside the suite's database (0), emptied here
    redis.Redis.from_url(url).flushdb()
    cfg = dataclasses.replace(Settings.from_env(), redis_url=url, rq_redis_url=url, enqueue_bots=False,
                              max_wait_seconds=0, snapshot_every=7)
    return create_app(registry.plugin(name), cfg)


# Short games through the real service: the first moves of each option set (where every phase of
# a round, auctions and all, has happened), and one game of each title played to its end.
HTTP_MOVES = 60


@pytest.mark.parametrize("name", list(VARIANTS))
@pytest.mark.slow
def test_replay_answers_every_version_over_http(name: str, redis_url: str) -> None:
    plugin = registry.plugin(name)
    app = _app(name, redis_url)
    runtime = app.extensions["runtime"]
    client = app.test_client()
    checked = 0
    replayed_types: set[str] = set()
    for index, (players, options) in enumerate(VARIANTS[name]):
        seats = [{"name": f"bot{i}", "bot": "random"} for i in range(players)]
        created = client.post("/games", json={"players": seats, "options": options, "seed": 3 + index})
        assert created.status_code == 201, created.get_json()
        game_id = created.get_json()["id"]
        to_finish = index == 0 and name == "elfenland"   # its short games end quickly
        for _ in range(5000 if to_finish else HTTP_MOVES):
            loaded = runtime.load(game_id)
            acting = plugin.game.to_act(loaded.state)
            if not acting:
                break
            play_bot_turn_with(runtime, plugin.strategies, game_id, loaded.version, acting[0])
        version = runtime.load(game_id).version
        replayed_types.update(record["type"] for record in runtime.store.read(game_id))
        for n in range(1, version + 1):
            resp = client.get(f"/games/{game_id}/replay?version={n}")
            assert resp.status_code == 200, f"{name} {options} version {n}: {resp.status_code} {resp.get_data()[:300]!r}"
            assert isinstance(resp.get_json()["to_act"], list)
        checked += version
        if to_finish:
            assert resp.get_json()["status"] == "finished", "the short game was meant to end"
    assert checked > HTTP_MOVES * len(VARIANTS[name])
    if name == "elfenland":   # the state right after an auction closed answered a 500 once
        assert "auction_closed" in replayed_types
