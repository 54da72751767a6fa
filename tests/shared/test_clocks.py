"""Turn clocks (shared.play.clocks) on the toy game: a real Redis, a real RQ queue and its scheduler,
run by an in-process burst worker."""
from __future__ import annotations

import dataclasses
import json
import random
import time
from typing import Any

import pytest
import redis
from flask.testing import FlaskClient
from rq.registry import ScheduledJobRegistry
from rq.serializers import JSONSerializer

from services.catan.api import PLUGIN as CATAN
from services.elfenland.api import PLUGIN as ELFENLAND
from shared.play import bots, clocks, jobs, turn_clock
from shared.log import platform_events as pe
from shared.game import registry
from shared.play.config import Settings
from shared.game.plugin import GamePlugin
from shared.play.runtime import derive_seed
from shared.http.service import create_app
from shared.play.worker import ResilientWorker
from shared.play.sweeper import sweep
from tests.shared.conftest import auth, burst
from tests.shared.toygame import PLUGIN, RaceGame
from tests.wait import wait_until


@pytest.fixture()
def client(redis_url: str, redis_client: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    yield from clocked_client(PLUGIN, redis_url, monkeypatch)


def clocked_client(plugin: GamePlugin, redis_url: str, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setenv("REDIS_URL", redis_url)
    monkeypatch.setenv("RQ_REDIS_URL", redis_url)
    monkeypatch.setenv("GAME_SERVICES_EXTRA", "race=tests.shared.toygame")
    monkeypatch.setenv("ALLOW_CLIENT_SEED", "1")
    jobs.worker_runtime.cache_clear()
    app = create_app(plugin, dataclasses.replace(Settings.from_env(), enqueue_bots=True))
    with app.test_client() as c:
        c.application = app
        yield c


def run_worker(redis_url: str, game: str = "race") -> None:
    """One burst of the deployment's worker: its scheduler moves the due deadlines to the queue,
    then the jobs run."""
    conn = redis.Redis.from_url(redis_url)
    queue = bots.BotQueue(conn, game).queue
    burst(ResilientWorker([queue], connection=conn, serializer=JSONSerializer), with_scheduler=True)


def create(client: FlaskClient, humans: int, seed: int, **clock: Any) -> dict[str, Any]:
    players = [{"name": f"human{i}"} for i in range(humans)]
    resp = client.post("/games", json={"players": players, "seed": seed, "turn_seconds": 1, **clock})
    assert resp.status_code == 201, resp.get_json()
    return resp.get_json()


def wait_past(view: dict[str, Any]) -> None:
    """Sleep until every deadline in the view has passed."""
    latest = max(turn_clock.iso_to_ms(d) for d in view["deadlines"].values())
    time.sleep(max(0.0, latest / 1000 - time.time()) + 0.05)


def run_until_expired(client: FlaskClient, redis_url: str, gid: str, count: int,
                      game: str = "race") -> list[dict[str, Any]]:
    """Run the worker until ``count`` expiries are in the game's log, and return the log: the event,
    not a time, tells the jobs ran (a due job may reach the queue after one burst looked)."""
    def expired() -> list[dict[str, Any]] | None:
        run_worker(redis_url, game)
        events = log_of(client, gid)
        return events if len(expiries(events)) >= count else None
    return wait_until(expired, f"{count} expiries in {game} {gid}", timeout=60)


def log_of(client: FlaskClient, gid: str) -> list[dict[str, Any]]:
    return client.get(f"/games/{gid}/events?limit=1000").get_json()["events"]      # the whole log


def expiries(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == turn_clock.EXPIRED]


def seed_with_a_six(players: int) -> int:
    """A seed whose first roll is a 6: every other seat is then to acknowledge it at once."""
    game = RaceGame()
    for seed in range(1000):
        state = game.replay(game.setup(players, {"target": 10}, random.Random(derive_seed(seed, 0))))
        seat = game.to_act(state)[0]
        events = game.decide(state, seat, {"type": "roll"}, random.Random(derive_seed(seed, players + 1, seat)))
        if events[0]["data"]["die"] == 6:
            return seed
    raise AssertionError("no seed rolls a 6 first")


def expire_each(client: FlaskClient, redis_url: str, game: str, view: dict[str, Any], seats: list[int],
                bot: str) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """Let every deadline of ``view`` pass and the worker run: each of ``seats`` (and no other)
    ran out of time once, ``bot`` played for it; (its expiry, the record right after) per seat.
    The log still audits."""
    wait_past(view)
    events = run_until_expired(client, redis_url, view["id"], len(seats), game)
    expired = expiries(events)
    assert sorted(e["data"]["seat"] for e in expired) == sorted(seats)
    assert {e["data"]["bot"] for e in expired} == {bot}
    assert client.get(f"/games/{view['id']}/audit").get_json()["ok"]
    return [(record, events[events.index(record) + 1]) for record in expired]


def test_each_game_falls_back_on_its_rule_of_thumb_bot_not_its_expert(monkeypatch: pytest.MonkeyPatch) -> None:
    # The expert would hold a worker for its whole budget a move; a clock's move comes at once.
    monkeypatch.setenv("GAME_SERVICES_EXTRA", "race=tests.shared.toygame")
    rule_of_thumb = {"catan": "greedy", "elasund": "heuristic", "elfenland": "planner", "elastium": "greedy",
                     "race": "roller"}
    assert {name: turn_clock.default_fallback(registry.plugin(name)) for name in rule_of_thumb} == rule_of_thumb
    assert all(registry.plugin(name).bot_level(bot) == "medium" for name, bot in rule_of_thumb.items())


def test_turn_seconds_and_fallback_bot_are_validated(client: FlaskClient) -> None:
    players = [{"name": "a"}, {"name": "b"}]
    for bad in (0, 604_801, "5", 5.5, True):
        resp = client.post("/games", json={"players": players, "turn_seconds": bad})
        assert resp.status_code == 422 and resp.get_json()["errors"][0]["pointer"] == "/turn_seconds", bad
    resp = client.post("/games", json={"players": players, "turn_seconds": 60, "fallback_bot": "nobody"})
    assert resp.status_code == 422 and resp.get_json()["errors"][0]["pointer"] == "/fallback_bot"
    week = client.post("/games", json={"players": players, "turn_seconds": 604_800}).get_json()
    view = client.get(f"/games/{week['id']}").get_json()
    assert view["turn_seconds"] == 604_800 and list(view["deadlines"]) == [str(view["to_act"][0])]
    setup = log_of(client, week["id"])[0]["cause"]
    assert setup["clock"] == {"turn_seconds": 604_800, "fallback_bot": "roller"}   # the game's rule of thumb
    plain = client.post("/games", json={"players": players}).get_json()
    assert client.get(f"/games/{plain['id']}").get_json()["deadlines"] == {}


def test_the_fallback_bot_plays_for_a_seat_whose_time_ran_out(client: FlaskClient, redis_url: str) -> None:
    game = create(client, humans=2, seed=3, fallback_bot="random")
    gid = game["id"]
    view = client.get(f"/games/{gid}").get_json()
    seat = view["to_act"][0]
    token = game["players"][seat]["token"]
    legal = client.get(f"/games/{gid}/legal-moves", headers=auth(token)).get_json()
    assert list(view["deadlines"]) == [str(seat)] and legal["deadlines"] == view["deadlines"]
    wait_past(view)
    events = run_until_expired(client, redis_url, gid, 1)
    [expired] = expiries(events)
    assert expired["data"] == {"seat": seat, "deadline": view["deadlines"][str(seat)], "bot": "random"}
    assert expired["cause"] == {"kind": "platform", "seat": seat}
    move = events[events.index(expired) + 1]
    assert move["cause"]["kind"] == "move" and move["cause"]["seat"] == seat
    after = client.get(f"/games/{gid}").get_json()
    assert seat not in after["to_act"] and list(after["deadlines"]) == [str(s) for s in after["to_act"]]
    assert client.get(f"/games/{gid}/audit").get_json()["ok"]
    # Time travel folds past the platform's record (the engine never sees it).
    at_expiry = client.get(f"/games/{gid}/replay?version={expired['seq']}").get_json()
    assert at_expiry["to_act"] == view["to_act"]


@pytest.mark.parametrize("bot", ["roller", "refused"])
def test_a_player_cannot_take_its_clocks_idempotency_key(client: FlaskClient, bot: str) -> None:
    # The attack: seat 0 moves under the keys the clock's fallback bot might use, then walks away.
    game = create(client, humans=2, seed=3)
    gid, tokens = game["id"], [p["token"] for p in game["players"]]
    assert client.get(f"/games/{gid}").get_json()["to_act"] == [0]
    expiry = game["version"] + 2                # hold, hold: seat 0's clock runs out then
    for turn, key in enumerate([f"bot-{expiry}-fallback", f"clock-{expiry}"]):
        headers = {**auth(tokens[turn]), "Idempotency-Key": key}
        assert client.post(f"/games/{gid}/moves", json={"type": "hold"}, headers=headers).status_code == 201
    for key in (pe.move_key("clock", expiry), pe.move_key("clock", expiry, fallback=True), f"clock/{expiry}"):
        refused = client.post(f"/games/{gid}/moves", json={"type": "hold"},
                              headers={**auth(tokens[0]), "Idempotency-Key": key})
        assert (refused.status_code, refused.get_json()["reason"]) == (400, "malformed-request")
    runtime = client.application.extensions["runtime"]
    deadline, set_at = turn_clock.parse(runtime.meta(gid))["seats"]["0"]
    assert set_at == expiry
    time.sleep(max(0.0, deadline / 1000 - time.time()) + 0.05)
    strategies = {**PLUGIN.strategies, "refused": lambda *_: {"type": "ack"}}   # a choice the rules refuse
    outcome = clocks.expire_with(runtime, strategies, bot, gid, 0, deadline, set_at)
    assert outcome["played"] is True and outcome["version"] > expiry
    assert client.get(f"/games/{gid}").get_json()["to_act"] == [1]
    assert client.get(f"/games/{gid}/audit").get_json()["ok"]


def test_an_expiry_that_runs_early_fires_the_clock_without_the_sweeper(client: FlaskClient, redis_url: str) -> None:
    game = create(client, humans=2, seed=3, turn_seconds=2)
    gid = game["id"]
    view = client.get(f"/games/{gid}").get_json()
    seat = view["to_act"][0]
    deadline, set_at = turn_clock.parse(client.application.extensions["runtime"].meta(gid))["seats"][str(seat)]
    conn = redis.Redis.from_url(redis_url)
    queue = bots.BotQueue(conn, "race").queue
    scheduled = ScheduledJobRegistry(queue=queue)
    # Its job is scored to the millisecond, not rounded down to the second.
    [jid] = scheduled.get_job_ids()
    assert conn.zscore(scheduled.key, jid) == deadline / 1000
    # What a scheduler that reads whole seconds does: the job runs before its deadline.
    scheduled.remove(jid, delete_job=True)
    queue.enqueue("shared.play.jobs.expire_clock", "race", gid, seat, deadline, set_at, job_id=jid)
    assert turn_clock.now_ms() < deadline
    run_worker(redis_url)
    assert expiries(log_of(client, gid)) == []
    # It scheduled its successor at the deadline: the clock fires then, no sweeper involved.
    assert [j for j in scheduled.get_job_ids() if j.startswith(jid)] == [jid + "-again1"]
    wait_past(view)
    run_worker(redis_url)
    [expired] = expiries(log_of(client, gid))
    assert expired["data"]["seat"] == seat


def test_a_seat_that_moves_in_time_gets_no_expiry(client: FlaskClient, redis_url: str) -> None:
    game = create(client, humans=2, seed=3)
    gid = game["id"]
    view = client.get(f"/games/{gid}").get_json()
    seat = view["to_act"][0]
    clock = turn_clock.parse(client.application.extensions["runtime"].meta(gid))
    deadline, set_at = clock["seats"][str(seat)]
    scheduled = ScheduledJobRegistry(queue=bots.BotQueue(redis.Redis.from_url(redis_url), "race").queue)
    assert scheduled.get_job_ids() == [clocks.job_id("race", gid, seat, deadline, set_at)]
    resp = client.post(f"/games/{gid}/moves", json={"type": "hold"}, headers=auth(game["players"][seat]["token"]))
    assert resp.status_code == 201
    # Its job is dropped (a week's clock would keep it for a week); the next seat's is scheduled.
    [other] = client.get(f"/games/{gid}").get_json()["to_act"]
    other_deadline, other_set_at = turn_clock.parse(client.application.extensions["runtime"].meta(gid))["seats"][str(other)]
    assert scheduled.get_job_ids() == [clocks.job_id("race", gid, other, other_deadline, other_set_at)]
    wait_past(view)
    runtime = client.application.extensions["runtime"]
    assert clocks.expire_with(runtime, PLUGIN.strategies, "roller", gid, seat, deadline, set_at)["why"] == "moved"
    assert [e["data"]["seat"] for e in expiries(log_of(client, gid))] == []


def test_seats_acting_at_once_each_have_their_own_clock(client: FlaskClient, redis_url: str) -> None:
    game = create(client, humans=4, seed=seed_with_a_six(4))
    gid = game["id"]
    roller = client.get(f"/games/{gid}").get_json()["to_act"][0]
    resp = client.post(f"/games/{gid}/moves", json={"type": "roll"}, headers=auth(game["players"][roller]["token"]))
    assert resp.status_code == 201
    view = client.get(f"/games/{gid}").get_json()
    first, *others = pending = view["to_act"]
    assert len(pending) == 3 and sorted(view["deadlines"]) == sorted(map(str, pending))
    # One seat acknowledges in time: the others keep their own deadlines, unchanged.
    client.post(f"/games/{gid}/moves", json={"type": "ack"}, headers=auth(game["players"][first]["token"]))
    after_ack = client.get(f"/games/{gid}").get_json()["deadlines"]
    assert after_ack == {str(s): view["deadlines"][str(s)] for s in others}
    wait_past(view)
    events = run_until_expired(client, redis_url, gid, len(others))
    assert sorted(e["data"]["seat"] for e in expiries(events)) == sorted(others)
    for expired in expiries(events):
        ack = events[events.index(expired) + 1]
        assert ack["type"] == "acknowledged" and ack["cause"]["seat"] == expired["data"]["seat"]
    assert client.get(f"/games/{gid}/audit").get_json()["ok"]


def test_an_expiry_run_twice_acts_once_and_never_for_a_bot(client: FlaskClient, redis_client: Any) -> None:
    game = create(client, humans=2, seed=3)
    gid = game["id"]
    runtime = client.application.extensions["runtime"]
    seat = client.get(f"/games/{gid}").get_json()["to_act"][0]
    deadline, set_at = turn_clock.parse(runtime.meta(gid))["seats"][str(seat)]
    time.sleep(max(0.0, deadline / 1000 - time.time()) + 0.05)
    first = clocks.expire_with(runtime, PLUGIN.strategies, "roller", gid, seat, deadline, set_at)
    again = clocks.expire_with(runtime, PLUGIN.strategies, "roller", gid, seat, deadline, set_at)
    assert first["played"] and first["bot"] == "roller"
    assert again == {"played": False, "why": "moved", "version": first["version"]}
    assert len(expiries(log_of(client, gid))) == 1
    # A seat a bot took over (a resignation) is the bot queue's: its clock does nothing.
    other = client.get(f"/games/{gid}").get_json()["to_act"][0]
    deadline, set_at = turn_clock.parse(runtime.meta(gid))["seats"][str(other)]
    players = client.get(f"/games/{gid}").get_json()["players"]
    players[other]["bot"] = "random"
    redis_client.hset("{g:" + gid + "}:meta", "players", json.dumps(players))
    time.sleep(max(0.0, deadline / 1000 - time.time()) + 0.05)
    assert clocks.expire_with(runtime, PLUGIN.strategies, "roller", gid, other, deadline, set_at)["why"] == "not-to-act"


def test_the_sweeper_catches_a_deadline_whose_job_was_lost(client: FlaskClient, redis_url: str,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bots, "STUCK_AFTER_SECONDS", 0.5)
    game = create(client, humans=2, seed=3)
    gid = game["id"]
    conn = redis.Redis.from_url(redis_url)
    bot_queue = bots.BotQueue(conn, "race")
    scheduled = ScheduledJobRegistry(queue=bot_queue.queue)
    assert len(scheduled.get_job_ids()) == 1
    for jid in scheduled.get_job_ids():          # lost: a crash between the append and enqueue_at
        scheduled.remove(jid, delete_job=True)
    view = client.get(f"/games/{gid}").get_json()
    wait_past(view)
    runtime = client.application.extensions["runtime"]
    # Once no worker ran for STUCK_AFTER_SECONDS past the deadline, the sweep queues its expiry.
    wait_until(lambda: sweep(runtime, bot_queue) == 1, "the sweep to find the lost deadline")
    assert sweep(runtime, bot_queue) == 0   # queued now: not twice
    [expired] = expiries(run_until_expired(client, redis_url, gid, 1))
    assert expired["data"]["seat"] == view["to_act"][0]
    # The other seat is to act now, with a deadline of its own: the game stays in the sweeper's index.
    assert conn.zscore(clocks.clocks_key("race"), gid) is not None


@pytest.fixture()
def catan_client(redis_url: str, redis_client: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    yield from clocked_client(CATAN, redis_url, monkeypatch)


def test_catan_discards_after_a_seven_each_expire_on_their_own(catan_client: FlaskClient, redis_url: str) -> None:
    client = catan_client
    runtime = client.application.extensions["runtime"]
    # Seed 24 with these moves reaches a 7 that two seats must answer by discarding, at once.
    gid, _, _ = runtime.create([{"name": name} for name in "abc"], {}, seed=24, turn_seconds=1)
    loaded = runtime.load(gid)
    while len(CATAN.game.to_act(loaded.state)) < 2:
        seat = CATAN.game.to_act(loaded.state)[0]
        runtime.submit(gid, seat, random.Random(loaded.version).choice(CATAN.game.legal_moves(loaded.state, seat)))
        loaded = runtime.load(gid)
    view = client.get(f"/games/{gid}").get_json()
    discarding = view["to_act"]
    assert len(discarding) == 2 and sorted(view["deadlines"]) == sorted(map(str, discarding))
    for record, move in expire_each(client, redis_url, "catan", view, discarding, "greedy"):  # Catan's rule of thumb
        assert move["cause"]["seat"] == record["data"]["seat"] and move["cause"]["move"]["type"] == "discard"


def test_the_sweeper_starts_a_clock_an_append_left_behind(client: FlaskClient, redis_url: str,
                                                           redis_client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """An append that was no move (a waiting game that started) leaves the clock behind the log:
    the view shows no deadline, and the next sweep starts the clock, a full turn for each seat."""
    game = create(client, humans=2, seed=3)
    gid = game["id"]
    redis_client.hdel("{g:" + gid + "}:meta", turn_clock.FIELD)
    assert client.get(f"/games/{gid}").get_json()["deadlines"] == {}
    monkeypatch.setattr(bots, "STUCK_AFTER_SECONDS", -5)      # the game's first deadline counts as passed
    runtime = client.application.extensions["runtime"]
    sweep(runtime, bots.BotQueue(redis.Redis.from_url(redis_url), "race"))
    view = client.get(f"/games/{gid}").get_json()
    assert list(view["deadlines"]) == [str(view["to_act"][0])]
    wait_past(view)
    assert [e["data"]["seat"] for e in expiries(run_until_expired(client, redis_url, gid, 1))] == view["to_act"]


# -- clocks and seats (open seats, resignations, rematches) ---------------------------------------

def test_the_last_seat_taken_starts_the_acting_seats_clock_at_once(client: FlaskClient, redis_url: str) -> None:
    created = client.post("/games", json={"players": [{"name": "host"}, {"open": True}], "seed": 3,
                                          "turn_seconds": 1}).get_json()
    gid = created["id"]
    waiting = client.get(f"/games/{gid}").get_json()
    assert (waiting["status"], waiting["turn_seconds"], waiting["deadlines"]) == ("waiting", 1, {})
    joined = client.post(f"/games/{gid}/seats/1", json={"name": "Bea"}).get_json()
    view = client.get(f"/games/{gid}").get_json()
    # The append that started the game set the clock: no sweep needed, the deadline is there now.
    assert view["version"] == joined["version"] and list(view["deadlines"]) == [str(view["to_act"][0])]
    deadline, set_at = turn_clock.parse(client.application.extensions["runtime"].meta(gid))["seats"][str(view["to_act"][0])]
    scheduled = ScheduledJobRegistry(queue=bots.BotQueue(redis.Redis.from_url(redis_url), "race").queue)
    assert scheduled.get_job_ids() == [clocks.job_id("race", gid, view["to_act"][0], deadline, set_at)]
    wait_past(view)
    assert [e["data"]["seat"] for e in expiries(run_until_expired(client, redis_url, gid, 1))] == view["to_act"]


def test_a_resigned_seat_loses_its_deadline_and_its_bot_plays(client: FlaskClient, redis_url: str) -> None:
    game = create(client, humans=2, seed=3)
    gid = game["id"]
    view = client.get(f"/games/{gid}").get_json()
    seat = view["to_act"][0]
    resigned = client.post(f"/games/{gid}/resign", headers=auth(game["players"][seat]["token"])).get_json()
    after = client.get(f"/games/{gid}").get_json()
    assert after["version"] == resigned["version"] and after["deadlines"] == {}       # in the same append
    run_worker(redis_url)                                                  # its bot's turn, not an expiry
    events = log_of(client, gid)
    assert expiries(events) == []
    assert [e["cause"]["seat"] for e in events if e["seq"] > resigned["version"] and "cause" in e][:1] == [seat]


def test_a_rematch_keeps_the_clock_and_the_fallback_bot(client: FlaskClient, redis_url: str) -> None:
    from tests.shared.test_seats import play_to_the_end
    game = create(client, humans=2, seed=3, fallback_bot="random")
    gid, tokens = game["id"], [p["token"] for p in game["players"]]
    play_to_the_end(client, gid, tokens)
    new = client.post(f"/games/{gid}/rematch", headers=auth(tokens[0])).get_json()["id"]
    assert log_of(client, new)[0]["cause"]["clock"] == {"turn_seconds": 1, "fallback_bot": "random"}
    for seat, token in enumerate(tokens):
        assert client.post(f"/games/{new}/seats/{seat}", json={}, headers=auth(token)).status_code == 201
    view = client.get(f"/games/{new}").get_json()
    assert view["turn_seconds"] == 1 and list(view["deadlines"]) == [str(view["to_act"][0])]
    wait_past(view)
    assert [e["data"]["bot"] for e in expiries(run_until_expired(client, redis_url, new, 1))] == ["random"]


# -- caching: a tag that covers the deadlines ---------------------------------------------------------

def test_a_clock_started_without_a_new_version_changes_the_tag(client: FlaskClient, redis_url: str,
                                                                redis_client: Any) -> None:
    """The sweeper's ``restart`` writes deadlines at the same version: a client revalidating the
    answer it holds must get them, not a 304."""
    game = create(client, humans=2, seed=3)
    gid = game["id"]
    runtime = client.application.extensions["runtime"]
    seat = client.get(f"/games/{gid}").get_json()["to_act"][0]
    token = game["players"][seat]["token"]
    redis_client.hdel("{g:" + gid + "}:meta", turn_clock.FIELD)               # an append left the clock behind
    held = {path: client.get(path, headers=auth(token)) for path in (f"/games/{gid}", f"/games/{gid}/legal-moves")}
    for path, answer in held.items():
        version = answer.get_json()["version"]
        assert answer.get_json()["deadlines"] == {} and answer.headers["ETag"] == f'"{version}"', path
        assert client.get(path, headers={**auth(token), "If-None-Match": answer.headers["ETag"]}).status_code == 304
    assert clocks.restart(runtime, gid, clocks.ClockJobs(bots.BotQueue(redis.Redis.from_url(redis_url), "race")))
    for path, answer in held.items():
        fresh = client.get(path, headers={**auth(token), "If-None-Match": answer.headers["ETag"]})
        assert fresh.status_code == 200 and list(fresh.get_json()["deadlines"]) == [str(seat)], path
        assert fresh.get_json()["version"] == answer.get_json()["version"]
        tag = fresh.headers["ETag"]
        assert tag.startswith(f'"{fresh.get_json()["version"]}.') and tag != answer.headers["ETag"]
        assert client.get(path, headers={**auth(token), "If-None-Match": tag}).status_code == 304
        assert client.get(path, headers={**auth(token), "If-None-Match": "W/" + tag}).status_code == 304
    # The view's tag pins a move to its version, as a bare version does.
    tag = client.get(f"/games/{gid}").headers["ETag"]
    moved = client.post(f"/games/{gid}/moves", json={"type": "hold"}, headers={**auth(token), "If-Match": tag})
    assert moved.status_code == 201
    stale = client.post(f"/games/{gid}/moves", json={"type": "hold"}, headers={**auth(token), "If-Match": tag})
    assert (stale.status_code, stale.get_json()["reason"]) == (409, "stale-version")
    bad = client.post(f"/games/{gid}/moves", json={"type": "hold"}, headers={**auth(token), "If-Match": '"3.xyz"'})
    assert (bad.status_code, bad.get_json()["reason"]) == (400, "malformed-request")


@pytest.fixture()
def elfenland_client(redis_url: str, redis_client: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    yield from clocked_client(ELFENLAND, redis_url, monkeypatch)


def test_elfenland_seats_keeping_counters_at_once_each_expire_on_their_own(elfenland_client: FlaskClient,
                                                                          redis_url: str) -> None:
    """Elfenland's simultaneous phase: when placement ends, every seat holding more than one
    transport counter chooses the one it keeps, all at once.  Seats that pass rather than place
    keep their counters, so passing through the first placement reaches it with every seat."""
    client, game = elfenland_client, ELFENLAND.game
    runtime = client.application.extensions["runtime"]
    gid, _, seats = runtime.create([{"name": name} for name in "abc"], {}, seed=0, turn_seconds=1)
    loaded = runtime.load(gid)
    for _ in range(100):
        if loaded.state["phase"] == "keep" or game.result(loaded.state) is not None:
            break
        seat = game.to_act(loaded.state)[0]
        moves = game.legal_moves(loaded.state, seat)
        passing = [m for m in moves if m["type"] == "pass"] if loaded.state["phase"] == "placement" else []
        runtime.submit(gid, seat, (passing or moves)[0])
        loaded = runtime.load(gid)
    view = client.get(f"/games/{gid}").get_json()
    keeping = view["to_act"]
    assert view["state"]["phase"] == "keep" and len(keeping) == 3
    assert sorted(view["deadlines"]) == sorted(map(str, keeping))
    # One seat keeps in time: the others' deadlines stay as they were (each seat its own clock).
    first, *others = keeping
    token = seats[first]["token"]
    move = client.get(f"/games/{gid}/legal-moves", headers=auth(token)).get_json()["moves"][0]
    assert client.post(f"/games/{gid}/moves", json=move, headers=auth(token)).status_code == 201
    after = client.get(f"/games/{gid}").get_json()
    assert sorted(after["to_act"]) == sorted(others)
    assert after["deadlines"] == {str(s): view["deadlines"][str(s)] for s in others}
    # Elfenland's rule-of-thumb bot keeps for each; the move itself is hidden from spectators.
    for record, kept in expire_each(client, redis_url, "elfenland", after, others, "planner"):
        assert kept["cause"]["seat"] == kept["data"]["seat"] == record["data"]["seat"]
        assert kept["type"] == "counters_kept"
    assert client.get(f"/games/{gid}").get_json()["state"]["phase"] != "keep"
