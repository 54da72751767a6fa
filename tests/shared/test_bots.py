"""Bot turns through a real RQ queue on a real Redis, run by an in-process SimpleWorker."""
from __future__ import annotations

import dataclasses
from typing import Any

import pytest
import redis
from rq import SimpleWorker
from rq.serializers import JSONSerializer

from shared import bots
from shared.config import Settings
from shared.service import create_app
from tests.shared.conftest import new_game
from tests.shared.toygame import PLUGIN


@pytest.fixture()
def bot_app(redis_url: str, redis_client: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setenv("REDIS_URL", redis_url)
    monkeypatch.setenv("RQ_REDIS_URL", redis_url)
    monkeypatch.setenv("GAME_SERVICES_EXTRA", "race=tests.shared.toygame")
    bots._runtime.cache_clear()
    settings = dataclasses.replace(Settings.from_env(), enqueue_bots=True)
    return create_app(PLUGIN, settings)


def run_worker(redis_url: str) -> None:
    conn = redis.Redis.from_url(redis_url)
    queue = bots.BotQueue(conn, "race").queue
    SimpleWorker([queue], connection=conn, serializer=JSONSerializer).work(burst=True)


def test_bots_only_game_plays_itself_to_the_end(bot_app: Any, redis_url: str) -> None:
    with bot_app.test_client() as client:
        game = new_game(client, humans=0, bots=3, seed=None)
        run_worker(redis_url)
        view = client.get(f"/games/{game['id']}").get_json()
        assert view["status"] == "finished"
        assert client.get(f"/games/{game['id']}/audit").get_json()["ok"]


def test_bot_answers_a_human_and_stale_jobs_do_nothing(bot_app: Any, redis_url: str) -> None:
    with bot_app.test_client() as client:
        game = new_game(client, humans=1, bots=1, seed=3)
        gid = game["id"]
        token = game["players"][0]["token"]
        view = client.get(f"/games/{gid}").get_json()
        if view["to_act"] == [1]:
            run_worker(redis_url)
            view = client.get(f"/games/{gid}").get_json()
        assert view["to_act"] == [0]
        client.post(f"/games/{gid}/moves", json={"type": "hold"}, headers={"Authorization": f"Bearer {token}"})
        version_after_human = client.get(f"/games/{gid}").get_json()["version"]
        run_worker(redis_url)
        after = client.get(f"/games/{gid}").get_json()
        assert after["version"] > version_after_human
        assert after["to_act"] == [0] or after["status"] == "finished"
        # A job for an old version finds the game moved on and appends nothing.
        outcome = bots.play_bot_turn("race", gid, version_after_human, 1)
        assert outcome == {"played": False, "why": "moved-on", "version": after["version"]}
        assert client.get(f"/games/{gid}").get_json()["version"] == after["version"]


def test_sweeper_reenqueues_a_lost_turn(bot_app: Any, redis_url: str) -> None:
    with bot_app.test_client() as client:
        game = new_game(client, humans=0, bots=2, seed=5)
        conn = redis.Redis.from_url(redis_url)
        bot_queue = bots.BotQueue(conn, "race")
        bot_queue.queue.empty()                 # the enqueue was lost (crash between append and enqueue)
        for job_id in bot_queue.queue.job_ids:
            conn.delete(f"rq:job:{job_id}")
        runtime = bot_app.extensions["runtime"]
        assert bots.sweep(runtime, bot_queue) >= 1
        assert bots.sweep(runtime, bot_queue) == 0   # the job is queued now: not twice
        run_worker(redis_url)
        assert client.get(f"/games/{game['id']}").get_json()["status"] == "finished"
