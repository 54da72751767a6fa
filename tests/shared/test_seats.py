"""Open seats, the game list, resign, rematch and CORS, on the toy game against a real Redis."""
from __future__ import annotations

import dataclasses
from typing import Any

import pytest
import redis
from flask.testing import FlaskClient

from shared.play import bots
from shared.log import platform_events as pe
from shared.play.config import Settings
from shared.http.service import create_app
from shared.play.bots import play_bot_turn_with
from shared.play.turn_clock import default_fallback
from shared.play.sweeper import Sweeper
from tests.shared.conftest import auth
from tests.shared.toygame import PLUGIN


def create(client: FlaskClient, players: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    resp = client.post("/games", json={"players": players, "seed": 3, **extra})
    assert resp.status_code == 201, resp.get_json()
    return resp.get_json()


def take(client: FlaskClient, gid: str, seat: int, name: str | None = "Ann", token: str | None = None) -> Any:
    return client.post(f"/games/{gid}/seats/{seat}", json={"name": name} if name else {},
                       headers=auth(token) if token else {})


def play_to_the_end(client: FlaskClient, gid: str, tokens: list[str]) -> None:
    for _ in range(500):
        view = client.get(f"/games/{gid}").get_json()
        if view["status"] == "finished":
            return
        for seat in view["to_act"]:
            move = {"type": "ack"} if view["state"]["pending"] else {"type": "roll"}
            assert client.post(f"/games/{gid}/moves", json=move, headers=auth(tokens[seat])).status_code == 201
    raise AssertionError("the game did not end")


def test_an_open_seat_waits_for_a_player_then_the_game_starts(client: FlaskClient) -> None:
    created = create(client, [{"name": "host"}, {"open": True}])
    gid, host_seat = created["id"], created["players"][0]["token"]
    assert created["players"][1] == {"seat": 1, "name": None, "bot": None, "token": None, "open": True}
    view = client.get(f"/games/{gid}").get_json()
    assert (view["status"], view["to_act"]) == ("waiting", [])
    refused = client.post(f"/games/{gid}/moves", json={"type": "roll"}, headers=auth(host_seat))
    assert (refused.status_code, refused.get_json()["reason"]) == (409, "game-waiting")
    assert client.get(f"/games/{gid}/legal-moves", headers=auth(host_seat)).get_json()["moves"] == []
    assert take(client, gid, 1, name="").status_code == 422
    assert take(client, gid, 2).get_json()["reason"] == "seat-not-found"

    joined = take(client, gid, 1, "Bea")
    assert joined.status_code == 201 and joined.get_json()["started"] is True
    again = take(client, gid, 1, "Cy")
    assert (again.status_code, again.get_json()["reason"]) == (409, "seat-taken")
    view = client.get(f"/games/{gid}", headers=auth(joined.get_json()["token"])).get_json()
    assert (view["status"], view["you"], view["to_act"]) == ("active", 1, [0])
    assert view["players"][1] == {"seat": 1, "name": "Bea", "bot": None}
    assert client.post(f"/games/{gid}/moves", json={"type": "hold"}, headers=auth(host_seat)).status_code == 201

    events = client.get(f"/games/{gid}/events").get_json()["events"]
    assert [e["type"] for e in events if e["type"].startswith("platform.")] == \
        ["platform.seat_joined", "platform.game_started"]
    assert client.get(f"/games/{gid}/audit").get_json()["ok"] is True
    assert client.get(f"/games/{gid}/replay?version={view['version']}").status_code == 200


def test_a_seat_is_left_before_the_start_and_the_host_cancels(client: FlaskClient) -> None:
    created = create(client, [{"open": True}, {"open": True}])
    gid, host = created["id"], created["host_token"]
    ann = take(client, gid, 0).get_json()["token"]
    assert client.delete(f"/games/{gid}/seats/1", headers=auth(ann)).get_json()["reason"] == "not-your-seat"
    assert client.delete(f"/games/{gid}/seats/0", headers=auth(ann)).status_code == 200
    assert client.get(f"/games/{gid}").get_json()["players"][0]["open"] is True
    assert client.get(f"/games/{gid}", headers=auth(ann)).status_code == 401    # the token went with the seat

    assert client.post(f"/games/{gid}/cancel", headers=auth(ann)).get_json()["reason"] == "not-host"
    assert client.post(f"/games/{gid}/cancel", headers=auth(host)).get_json()["status"] == "cancelled"
    assert client.get(f"/games/{gid}").get_json()["status"] == "cancelled"
    assert take(client, gid, 0).get_json()["reason"] == "game-cancelled"
    assert gid not in [g["id"] for g in client.get("/games").get_json()["games"]]
    types = [e["type"] for e in client.get(f"/games/{gid}/events").get_json()["events"]]
    assert types[-3:] == ["platform.seat_joined", "platform.seat_left", "platform.game_cancelled"]
    assert client.get(f"/games/{gid}/audit").get_json()["ok"] is True


def test_the_list_pages_newest_first_and_filters_by_status(client: FlaskClient) -> None:
    waiting = create(client, [{"name": "a"}, {"open": True}])["id"]
    running = create(client, [{"name": "a"}, {"name": "b"}])["id"]
    create(client, [{"name": "a"}, {"open": True}], listed=False)
    page = client.get("/games?limit=1").get_json()
    assert [g["id"] for g in page["games"]] == [running] and page["next"]
    listed = page["games"][0]
    assert (listed["status"], listed["to_act"], listed["options"], listed["moved_at"]) == ("active", [0], {"target": 10}, None)
    assert "tokens" not in listed and "host" not in listed
    second = client.get(f"/games?limit=1&cursor={page['next']}").get_json()
    assert [g["id"] for g in second["games"]] == [waiting] and second["next"] is None
    assert [g["id"] for g in client.get("/games?status=waiting").get_json()["games"]] == [waiting]
    assert [g["id"] for g in client.get("/games?status=running").get_json()["games"]] == [running]
    assert client.get("/games?status=lost").status_code == 422


def test_a_resigned_seat_is_played_by_the_rule_of_thumb_bot_and_its_token_only_reads(client: FlaskClient) -> None:
    created = create(client, [{"name": "a"}, {"name": "b"}])
    gid, token = created["id"], created["players"][0]["token"]
    resigned = client.post(f"/games/{gid}/resign", headers=auth(token))
    bot = default_fallback(PLUGIN)
    assert resigned.get_json() == {"version": resigned.get_json()["version"], "seat": 0, "bot": bot}
    view = client.get(f"/games/{gid}", headers=auth(token)).get_json()
    assert view["you"] == 0 and view["players"][0]["resigned"] is True and view["players"][0]["bot"] == bot
    refused = client.post(f"/games/{gid}/moves", json={"type": "roll"}, headers=auth(token))
    assert (refused.status_code, refused.get_json()["reason"]) == (403, "seat-resigned")
    assert client.get(f"/games/{gid}/legal-moves", headers=auth(token)).get_json()["moves"] == []
    assert client.post(f"/games/{gid}/resign", headers=auth(token)).status_code == 403
    assert client.get(f"/games/{gid}/audit").get_json()["ok"] is True


def test_a_rematch_keeps_the_seats_for_their_players(settings: Settings) -> None:
    # Bot turns are played inline here (no worker), so the game ends; the e2e tests use RQ.
    def play_bots(game_id: str, version: int, seats: list[int]) -> None:
        for seat in seats:
            play_bot_turn_with(app.extensions["runtime"], PLUGIN.strategies, game_id, version, seat)

    app = create_app(PLUGIN, settings, notify_bots=play_bots)
    client = app.test_client()
    created = create(client, [{"name": "a"}, {"name": "b"}, {"name": "c", "bot": "random"}])
    gid = created["id"]
    tokens = [p["token"] for p in created["players"]]
    assert client.post(f"/games/{gid}/rematch", headers=auth(tokens[0])).get_json()["reason"] == "game-not-finished"
    play_to_the_end(client, gid, tokens)
    first = client.post(f"/games/{gid}/rematch", headers=auth(tokens[1]))
    assert first.status_code == 201
    new = first.get_json()["id"]
    again = client.post(f"/games/{gid}/rematch", headers=auth(tokens[0]))
    assert (again.status_code, again.get_json()["id"]) == (200, new)
    view = client.get(f"/games/{new}").get_json()
    assert (view["status"], view["rematch_of"]) == ("waiting", gid)
    assert client.get(f"/games/{gid}").get_json()["rematch"] == new
    assert [p.get("reserved") for p in view["players"]] == [True, True, None]
    assert view["players"][2]["bot"] == "random"
    assert take(client, new, 0, "thief").get_json()["reason"] == "seat-reserved"
    assert take(client, new, 0, None, token=tokens[1]).get_json()["reason"] == "seat-reserved"
    mine = take(client, new, 0, None, token=tokens[0])
    assert mine.status_code == 201 and mine.get_json()["name"] == "a"
    assert take(client, new, 1, "b2", token=tokens[1]).get_json()["started"] is True
    assert client.get(f"/games/{gid}/audit").get_json()["ok"] is True


def test_a_resigned_seat_is_played_by_its_bot(settings: Settings) -> None:
    played: list[tuple[str, int, list[int]]] = []
    app = create_app(PLUGIN, settings, notify_bots=lambda *turn: played.append(turn))
    client = app.test_client()
    created = create(client, [{"name": "a"}, {"name": "b"}])
    gid, token = created["id"], created["players"][0]["token"]
    version = client.post(f"/games/{gid}/resign", headers=auth(token)).get_json()["version"]
    assert played == [(gid, version, [0])]           # seat 0 was to act: its bot is told at once
    assert play_bot_turn_with(app.extensions["runtime"], PLUGIN.strategies, gid, version, 0)["played"] is True


def test_cors_answers_a_preflight_for_listed_origins_only(settings: Settings) -> None:
    origin = "https://play.example"
    preflight = {"Origin": origin, "Access-Control-Request-Method": "POST",
                 "Access-Control-Request-Headers": "Authorization, Content-Type, Idempotency-Key, If-Match"}
    with create_app(PLUGIN, dataclasses.replace(settings, cors_origins=(origin,))).test_client() as client:
        resp = client.options("/games/x/moves", headers=preflight)
        assert resp.status_code == 200
        assert resp.headers["Access-Control-Allow-Origin"] == origin
        allowed = resp.headers["Access-Control-Allow-Headers"].lower()
        assert all(h in allowed for h in ("authorization", "content-type", "idempotency-key", "if-match"))
        assert "POST" in resp.headers["Access-Control-Allow-Methods"]
        other = client.options("/games/x/moves", headers={**preflight, "Origin": "https://evil.example"})
        assert "Access-Control-Allow-Origin" not in other.headers
    with create_app(PLUGIN, settings).test_client() as client:
        assert "Access-Control-Allow-Origin" not in client.options("/games/x/moves", headers=preflight).headers


def test_expired_games_leave_the_list(client: FlaskClient, app: Any) -> None:
    store = app.extensions["runtime"].store
    gone, kept, later = (create(client, [{"name": "a"}, {"open": True}])["id"] for _ in range(3))
    for game_id in (gone, later):
        for key in store.keys(game_id):          # what the idle TTL does to a game nobody joined
            store.redis.delete(key)
    assert store.prune_index("race") == 2        # waiting games count toward the cap: indexed as unfinished
    assert store.redis.zscore(store.list_key("race", "waiting"), gone) is None
    assert store.redis.zscore(store.list_key("race", "all"), later) is None
    assert [g["id"] for g in client.get("/games").get_json()["games"]] == [kept]


def test_the_sweeper_prunes_expired_list_entries_a_bounded_step_a_pass(client: FlaskClient, app: Any,
                                                                        redis_url: str) -> None:
    """Nobody reads the list and nobody hits the cap: the sweeper's passes still clear it of games
    that expired, a bounded step a pass, and leave the live ones."""
    runtime = app.extensions["runtime"]
    store = runtime.store
    waiting = create(client, [{"name": "a"}, {"open": True}])["id"]
    running = create(client, [{"name": "a"}, {"name": "b"}])["id"]
    # 300 games that expired (their keys gone, as the idle TTL leaves them), filed in two lists:
    # past 128 entries a sorted set is a skip list, which ZSCAN walks a few entries at a time.
    expired = {f"gone{i:03d}": i for i in range(300)}
    for status in ("waiting", "all"):
        store.redis.zadd(store.list_key("race", status), expired)
    sweeper = Sweeper(runtime, bots.BotQueue(redis.Redis.from_url(redis_url), "race"))
    first = sweeper.prune_list()                 # a step of the "waiting" list, not all of it
    assert 0 < first < 300 and sweeper.list_place == (store.LIST_KEYS.index("waiting"), sweeper.list_place[1])
    assert sweeper.list_place[1] != 0            # the cursor: the next pass goes on from there
    for _ in range(100):
        if store.redis.zcard(store.list_key("race", "all")) == 2:
            break
        sweeper.sweep()                          # each whole pass takes one step
    for status, live in (("waiting", {waiting}), ("active", {running}), ("all", {waiting, running})):
        assert {m.decode() for m in store.redis.zrange(store.list_key("race", status), 0, -1)} == live, status


def test_replay_says_waiting_and_cancelled_as_the_view_did(client: FlaskClient) -> None:
    created = create(client, [{"name": "host"}, {"open": True}])
    gid = created["id"]
    setup = created["version"]

    def replay(game_id: str, version: int) -> tuple[str, list[int]]:
        answer = client.get(f"/games/{game_id}/replay?version={version}").get_json()
        return answer["status"], answer["to_act"]

    assert replay(gid, setup) == ("waiting", [])
    started = take(client, gid, 1, "Bea").get_json()["version"]      # seat_joined, then game_started
    assert replay(gid, setup) == replay(gid, started - 1) == ("waiting", [])
    assert replay(gid, started) == ("active", [0]) == \
        tuple(client.get(f"/games/{gid}").get_json()[k] for k in ("status", "to_act"))

    doomed = create(client, [{"open": True}, {"open": True}])
    cancelled = client.post(f"/games/{doomed['id']}/cancel", headers=auth(doomed["host_token"])).get_json()
    assert replay(doomed["id"], cancelled["version"] - 1) == ("waiting", [])
    assert replay(doomed["id"], cancelled["version"]) == ("cancelled", [])
    plain = create(client, [{"name": "a"}, {"name": "b"}])            # never waited
    assert replay(plain["id"], plain["version"]) == ("active", [0])


def refuse_to_play(game: Any, state: Any, seat: int, rng: Any) -> dict[str, Any]:
    """A bot whose choice the rules refuse: its turn is played by the random fallback move."""
    return {"type": "ack"}


@pytest.mark.parametrize("strategy", ["roller", "refused"])
def test_a_player_cannot_take_its_takeover_bots_idempotency_key(settings: Settings, strategy: str) -> None:
    # The attack: seat 0 moves under the keys its bot will use after it resigns, then resigns.
    app = create_app(PLUGIN, settings)
    client = app.test_client()
    created = create(client, [{"name": "a"}, {"name": "b"}])
    gid, tokens = created["id"], [p["token"] for p in created["players"]]
    version = created["version"]
    takeover = version + 5                  # hold, hold, hold, hold, resign: the bot plays then
    for turn, key in enumerate([f"bot-{takeover}", None, f"bot-{takeover}-fallback", None]):
        headers = {**auth(tokens[turn % 2]), **({"Idempotency-Key": key} if key else {})}
        assert client.post(f"/games/{gid}/moves", json={"type": "hold"}, headers=headers).status_code == 201
    # The platform's own keys are out of a client's reach.
    for key in (pe.move_key("bot", takeover), pe.move_key("bot", takeover, fallback=True),
                pe.move_key("clock", takeover)):
        refused = client.post(f"/games/{gid}/moves", json={"type": "hold"},
                              headers={**auth(tokens[0]), "Idempotency-Key": key})
        assert (refused.status_code, refused.get_json()["reason"]) == (400, "malformed-request")
    assert client.post(f"/games/{gid}/resign", headers=auth(tokens[0])).get_json()["version"] == takeover
    strategies = {**PLUGIN.strategies, "refused": refuse_to_play}
    runtime = app.extensions["runtime"]
    outcome = play_bot_turn_with(runtime, strategies, gid, takeover, 0, strategy_name=strategy)
    assert outcome["played"] is True and outcome["version"] > takeover
    assert client.get(f"/games/{gid}").get_json()["to_act"] == [1]
    assert client.get(f"/games/{gid}/audit").get_json()["ok"] is True
