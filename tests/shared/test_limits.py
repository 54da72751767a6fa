"""Abuse has limits: creation rate, the cap on running games, lifetimes of idle and finished games.

All against the real Redis; TTLs of one second, so the waits stay short.
"""
from __future__ import annotations

import dataclasses
import logging
import time
from typing import Any

import pytest
from flask import Flask

from shared.play import bots
from shared.play.config import Settings
from shared.log.eventstore import EventStore
from shared.ops.redis_server import free_port
from shared.play.runtime import GameRuntime
from shared.http.service import create_app
from shared.play.sweeper import sweep
from tests.shared.conftest import auth, new_game
from tests.shared.test_service import assert_problem, play_to_the_end
from tests.shared.toygame import PLUGIN, RaceGame

TWO = [{"name": "a"}, {"name": "b"}]


def app_with(settings: Settings, **changes: Any) -> Flask:
    return create_app(PLUGIN, dataclasses.replace(settings, **changes))


def store_of(app: Flask) -> EventStore:
    return app.extensions["runtime"].store


def ttls(store: EventStore, game_id: str) -> list[int]:
    """PTTL of each of the game's keys that exists (-1: no TTL)."""
    return [t for t in (store.redis.pttl(k) for k in store.keys(game_id)) if t != -2]


def wait_past(seconds: float) -> None:
    time.sleep(seconds + 0.3)


# -- the rate limit ---------------------------------------------------------------------------

def test_creation_over_the_rate_answers_429_with_retry_after_and_other_routes_are_free(settings: Settings) -> None:
    app = app_with(settings, create_rate_limit="2/minute")
    client = app.test_client()
    first = new_game(client)
    new_game(client)
    refused = client.post("/games", json={"players": TWO})
    body = assert_problem(refused, 429, "rate-limited")
    assert "2 per 1 minute" in body["detail"]
    assert 1 <= int(refused.headers["Retry-After"]) <= 61
    assert store_of(app).count_active("race") == 2            # the refused request created nothing
    # Another address has its own budget; reads and moves of any address are not limited.
    other = client.post("/games", json={"players": TWO}, environ_base={"REMOTE_ADDR": "10.1.2.3"})
    assert other.status_code == 201
    token = first["players"][0]["token"]
    for _ in range(5):
        assert client.get(f"/games/{first['id']}").status_code == 200
        assert client.get(f"/games/{first['id']}/legal-moves", headers=auth(token)).status_code == 200
    assert client.post(f"/games/{first['id']}/moves", json={"type": "hold"}, headers=auth(token)).status_code == 201


@pytest.mark.parametrize("raw", ["", "0"])
def test_no_rate_limit_when_the_setting_is_empty(settings: Settings, monkeypatch: pytest.MonkeyPatch,
                                                 raw: str) -> None:
    monkeypatch.setenv("CREATE_RATE_LIMIT", raw)
    client = app_with(settings, create_rate_limit=Settings.from_env().create_rate_limit).test_client()
    # One game more than the default rate allows in a minute: an empty setting is no limit, not the default.
    default = int(Settings.create_rate_limit.split("/")[0])
    for _ in range(default + 1):
        new_game(client)


def test_the_limiter_fails_open_when_its_redis_is_down(settings: Settings, caplog: Any) -> None:
    dead = f"redis://127.0.0.1:{free_port()}/0"
    client = app_with(settings, create_rate_limit="1/minute", ratelimit_storage_url=dead).test_client()
    with caplog.at_level(logging.WARNING, logger="limits"):
        new_game(client)
        new_game(client)                  # over the limit, but nobody can count: created anyway
    assert any("rate limit" in r.getMessage().lower() for r in caplog.records)


# -- the cap on unfinished games --------------------------------------------------------------

def test_the_cap_answers_503_capacity_and_finished_games_make_room(settings: Settings) -> None:
    client = app_with(settings, max_active_games=2).test_client()
    first = new_game(client)
    new_game(client)
    refused = client.post("/games", json={"players": TWO})
    body = assert_problem(refused, 503, "capacity")
    assert "2 unfinished games" in body["detail"] and int(refused.headers["Retry-After"]) > 0
    play_to_the_end(client, first)        # a finished game leaves the active index
    new_game(client)


def test_expired_games_stop_counting_against_the_cap(settings: Settings) -> None:
    app = app_with(settings, max_active_games=2, idle_game_ttl=1)
    client = app.test_client()
    new_game(client)
    new_game(client)
    wait_past(1)
    assert store_of(app).count_active("race") == 2            # the index still names them...
    new_game(client)                                           # ...but at the cap it is pruned
    new_game(client)
    assert_problem(client.post("/games", json={"players": TWO}), 503, "capacity")


def test_one_address_cannot_fill_the_cap_its_own_unfinished_games_are_capped(settings: Settings) -> None:
    app = app_with(settings, max_games_per_address=2, max_active_games=10)
    client = app.test_client()
    first = new_game(client)
    waiting = client.post("/games", json={"players": [{"name": "host"}, {"open": True}]}).get_json()
    refused = client.post("/games", json={"players": TWO})
    body = assert_problem(refused, 429, "too-many-games")
    assert "2 unfinished games" in body["detail"] and int(refused.headers["Retry-After"]) > 0
    assert store_of(app).count_active("race") == 2            # the refused request created nothing
    # Another address has its own quota.
    assert client.post("/games", json={"players": TWO}, environ_base={"REMOTE_ADDR": "10.1.2.3"}).status_code == 201
    # A game that ends (finished, cancelled) frees its address's place.
    play_to_the_end(client, first)
    new_game(client)
    assert_problem(client.post("/games", json={"players": TWO}), 429, "too-many-games")
    assert client.post(f"/games/{waiting['id']}/cancel", headers=auth(waiting["host_token"])).status_code == 200
    new_game(client)


def idle_for(store: EventStore, game_id: str, seconds: float) -> None:
    """Date the game's last move (or its creation) back by ``seconds``: days pass in an instant."""
    meta = store.meta(game_id) or {}
    for field in ("moved_at", "created_at"):
        if meta.get(field):
            store.redis.hset(store.keys(game_id)[1], field, str(int(meta[field]) - int(seconds * 1000)))


def test_the_sweeper_ends_a_game_nobody_moved_in_as_abandoned(settings: Settings, redis_client: Any) -> None:
    day = 86_400
    app = app_with(settings, max_games_per_address=2)
    client, store = app.test_client(), store_of(app)
    runtime = app.extensions["runtime"]
    idle, lively = new_game(client), new_game(client)
    for game in (idle, lively):          # a move each: both are kept for good (no idle TTL)
        assert client.post(f"/games/{game['id']}/moves", json={"type": "hold"},
                           headers=auth(game["players"][0]["token"])).status_code == 201
    assert_problem(client.post("/games", json={"players": TWO}), 429, "too-many-games")
    idle_for(store, idle["id"], 3 * day)
    idle_for(store, lively["id"], day)
    before = client.get(f"/games/{idle['id']}").get_json()["version"]
    bot_queue = bots.BotQueue(redis_client, "race")
    sweep(runtime, bot_queue, abandon_after=2 * day)
    # Ended in its log, not deleted: the record says so (and the seed is revealed with it), the
    # view and the feed too.
    events = client.get(f"/games/{idle['id']}/events").get_json()
    last, reveal = events["events"][-2:]
    assert (last["seq"], last["type"]) == (before + 1, "platform.game_abandoned")
    assert (reveal["seq"], reveal["type"]) == (before + 2, "platform.seed_revealed")
    assert last["data"]["status"] == "abandoned" and last["data"]["result"] is None
    assert last["data"]["idle_seconds"] == 2 * day and last["cause"] == {"kind": "platform", "seat": None}
    view = client.get(f"/games/{idle['id']}").get_json()
    assert (view["status"], view["to_act"], view["version"]) == ("abandoned", [], before + 2)
    assert events["status"] == "abandoned"
    token = idle["players"][1]["token"]
    assert_problem(client.post(f"/games/{idle['id']}/moves", json={"type": "hold"}, headers=auth(token)),
                   409, "game-abandoned")
    assert_problem(client.post(f"/games/{idle['id']}/resign", headers=auth(token)), 409, "game-abandoned")
    assert client.get(f"/games/{idle['id']}/audit").get_json()["ok"] is True
    for version, status in ((before, "active"), (before + 1, "abandoned"), (before + 2, "abandoned")):
        assert client.get(f"/games/{idle['id']}/replay?version={version}").get_json()["status"] == status
    assert idle["id"] not in store.active_games("race") and lively["id"] in store.active_games("race")
    assert client.get(f"/games/{lively['id']}").get_json()["status"] == "active"
    # Its address may create again; a second sweep changes nothing.
    new_game(client)
    sweep(runtime, bot_queue, abandon_after=2 * day)
    assert client.get(f"/games/{idle['id']}").get_json()["version"] == before + 2
    # Without the setting (0) nothing is ever abandoned.
    idle_for(store, lively["id"], 30 * day)
    sweep(runtime, bot_queue, abandon_after=0)
    assert client.get(f"/games/{lively['id']}").get_json()["status"] == "active"


# -- lifetimes --------------------------------------------------------------------------------

def test_a_game_without_a_move_expires_and_one_with_a_move_survives(settings: Settings) -> None:
    app = app_with(settings, idle_game_ttl=1)
    client, store = app.test_client(), store_of(app)
    idle, played = new_game(client), new_game(client)
    t0 = played["players"][0]["token"]
    assert client.post(f"/games/{played['id']}/moves", json={"type": "hold"},
                       headers={**auth(t0), "Idempotency-Key": "k1"}).status_code == 201
    assert ttls(store, idle["id"]) and all(0 < t <= 1000 for t in ttls(store, idle["id"]))
    assert ttls(store, played["id"]) == [-1, -1, -1]          # log, meta, idem: made permanent
    wait_past(1)
    assert_problem(client.get(f"/games/{idle['id']}"), 404, "game-not-found")
    # This process still holds a copy of the expired game: a move on it is not found either.
    idle_token = idle["players"][0]["token"]
    assert_problem(client.post(f"/games/{idle['id']}/moves", json={"type": "hold"},
                               headers={**auth(idle_token), "If-Match": '"3"'}), 404, "game-not-found")
    assert client.get(f"/games/{played['id']}").status_code == 200
    assert store.prune_index("race") == 1
    assert store.active_games("race") == [played["id"]]


def test_a_move_before_the_creation_ttl_is_set_keeps_the_game(settings: Settings, redis_client: Any) -> None:
    """A bot (or anyone) moving between the creation's append and its EXPIRE: no TTL is set."""
    store = EventStore(redis_client)
    runtime = GameRuntime(RaceGame(), store)          # no idle TTL: creation leaves the keys alone
    game_id, version, _ = runtime.create(TWO, {}, seed=1)
    runtime.submit(game_id, 0, {"type": "hold"})
    assert store.expire_if_unmoved(game_id, version, 1) is False
    assert ttls(store, game_id) == [-1, -1]


def test_a_finished_game_is_kept_for_the_retention_then_expires(settings: Settings) -> None:
    app = app_with(settings, finished_game_ttl=1, idle_game_ttl=0, snapshot_every=2)
    client, store = app.test_client(), store_of(app)
    game = client.post("/games", json={"players": TWO, "options": {"target": 2}, "seed": 3}).get_json()
    client.post(f"/games/{game['id']}/moves", json={"type": "hold"}, headers=auth(game["players"][0]["token"]))
    assert ttls(store, game["id"]) == [-1, -1, -1]            # running: no TTL (log, meta, snapshot)
    play_to_the_end(client, game)
    left = ttls(store, game["id"])
    assert len(left) == 3 and all(0 < t <= 1000 for t in left)   # the snapshot expires with the rest
    wait_past(1)
    assert_problem(client.get(f"/games/{game['id']}"), 404, "game-not-found")
    assert ttls(store, game["id"]) == []


def test_finished_games_are_kept_forever_by_default(settings: Settings) -> None:
    app = app_with(settings, finished_game_ttl=0, idle_game_ttl=1)
    client, store = app.test_client(), store_of(app)
    game = client.post("/games", json={"players": TWO, "options": {"target": 2}, "seed": 3}).get_json()
    play_to_the_end(client, game)
    assert set(ttls(store, game["id"])) == {-1}


def test_a_snapshot_takes_the_games_ttl_and_is_not_written_once_it_expired(redis_client: Any) -> None:
    store = EventStore(redis_client)
    runtime = GameRuntime(RaceGame(), store, idle_ttl=100)
    game_id, _, _ = runtime.create(TWO, {}, seed=1)
    store.save_snapshot(game_id, '{"version": 1}')
    assert 0 < redis_client.ttl(store.keys(game_id)[3]) <= 100
    store.set_lifetime(game_id, None)
    store.save_snapshot(game_id, '{"version": 1}')
    assert redis_client.ttl(store.keys(game_id)[3]) == -1
    for key in store.keys(game_id):
        redis_client.delete(key)
    store.save_snapshot(game_id, '{"version": 1}')
    assert redis_client.exists(store.keys(game_id)[3]) == 0


def test_settings_read_from_the_environment(monkeypatch: Any) -> None:
    monkeypatch.setenv("CREATE_RATE_LIMIT", "0")
    monkeypatch.setenv("MAX_ACTIVE_GAMES", "0")
    monkeypatch.setenv("FINISHED_GAME_TTL_SECONDS", "3600")
    monkeypatch.delenv("IDLE_GAME_TTL_SECONDS", raising=False)
    s = Settings.from_env()
    assert (s.create_rate_limit, s.max_active_games, s.idle_game_ttl, s.finished_game_ttl) == ("", 0, 86_400, 3600)
    monkeypatch.setenv("MAX_GAMES_PER_ADDRESS", "5")
    monkeypatch.setenv("ABANDON_AFTER_SECONDS", "600")
    s = Settings.from_env()
    assert (s.max_games_per_address, s.abandon_after_seconds) == (5, 600)
    with pytest.raises(ValueError):
        create_app(PLUGIN, dataclasses.replace(s, create_rate_limit="thirty a minute"))
