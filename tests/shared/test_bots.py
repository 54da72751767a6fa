"""Bot turns through a real RQ queue on a real Redis, run by an in-process SimpleWorker."""
from __future__ import annotations

import dataclasses
import signal
from typing import Any

import pytest
import redis
from rq import SimpleWorker
from rq.job import Job, JobStatus
from rq.serializers import JSONSerializer

from shared.play import bots, jobs
from shared.play.config import Settings
from shared.http.service import create_app
from shared.play.sweeper import SCAN_PER_PASS, Sweeper, sweep
from shared.play.worker import ResilientWorker
from tests.shared.conftest import burst, new_game
from tests.shared.toygame import PLUGIN


@pytest.fixture()
def bot_app(redis_url: str, redis_client: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setenv("REDIS_URL", redis_url)
    monkeypatch.setenv("RQ_REDIS_URL", redis_url)
    monkeypatch.setenv("GAME_SERVICES_EXTRA", "race=tests.shared.toygame")
    jobs.worker_runtime.cache_clear()
    settings = dataclasses.replace(Settings.from_env(), enqueue_bots=True)
    return create_app(PLUGIN, settings)


def run_worker(redis_url: str) -> None:
    conn = redis.Redis.from_url(redis_url)
    queue = bots.BotQueue(conn, "race").queue
    burst(SimpleWorker([queue], connection=conn, serializer=JSONSerializer))


def test_a_worker_run_in_the_tests_leaves_the_signal_handlers_as_it_found_them(bot_app: Any, redis_url: str) -> None:
    before = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGALRM)}
    alarm_before, _ = signal.getitimer(signal.ITIMER_REAL)
    with bot_app.test_client() as client:
        new_game(client, humans=0, bots=2, seed=None)
        run_worker(redis_url)
    assert {sig: signal.getsignal(sig) for sig in before} == before
    # pytest-timeout's alarm (the per-test timeout), if set, still is: RQ's job timeouts cancel it.
    assert (signal.getitimer(signal.ITIMER_REAL)[0] > 0) == (alarm_before > 0)


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
        outcome = jobs.play_bot_turn("race", gid, version_after_human, 1)
        assert outcome == {"played": False, "why": "moved-on", "version": after["version"]}
        assert client.get(f"/games/{gid}").get_json()["version"] == after["version"]


def test_a_job_queued_by_an_older_release_still_runs(bot_app: Any, redis_url: str) -> None:
    """A deploy that moves the job functions must not strand the jobs already queued: a bot turn
    enqueued under the name an older release used is played by today's worker."""
    conn = redis.Redis.from_url(redis_url)
    with bot_app.test_client() as client:
        game = new_game(client, humans=0, bots=2, seed=5)
        gid = game["id"]
        queue = bots.BotQueue(conn, "race").queue
        queue.empty()                                   # the turn this release enqueued: gone
        version = client.get(f"/games/{gid}").get_json()["version"]
        seat = client.get(f"/games/{gid}").get_json()["to_act"][0]
        queue.enqueue("shared.bots.play_bot_turn", "race", gid, version, seat, job_id="legacy-turn")
        burst(ResilientWorker([queue], connection=conn, serializer=JSONSerializer))
        assert client.get(f"/games/{gid}").get_json()["version"] > version
        job = Job.fetch("legacy-turn", connection=conn, serializer=JSONSerializer)
        assert job.get_status() == JobStatus.FINISHED and job.return_value()["played"] is True


def test_sweeper_reenqueues_a_lost_turn(bot_app: Any, redis_url: str) -> None:
    with bot_app.test_client() as client:
        game = new_game(client, humans=0, bots=2, seed=5)
        conn = redis.Redis.from_url(redis_url)
        bot_queue = bots.BotQueue(conn, "race")
        bot_queue.queue.empty()                 # the enqueue was lost (crash between append and enqueue)
        for job_id in bot_queue.queue.job_ids:
            conn.delete(f"rq:job:{job_id}")
        runtime = bot_app.extensions["runtime"]
        assert sweep(runtime, bot_queue) >= 1
        assert sweep(runtime, bot_queue) == 0   # the job is queued now: not twice
        run_worker(redis_url)
        assert client.get(f"/games/{game['id']}").get_json()["status"] == "finished"


def lose_every_job(conn: Any, bot_queue: bots.BotQueue) -> None:
    """What a crash between the append and the enqueue leaves: no job, whatever the index says."""
    for jid in bot_queue.queue.job_ids:
        conn.delete(f"rq:job:{jid}")
    bot_queue.queue.empty()


def test_a_sweep_pass_costs_the_same_with_thousands_of_idle_games(bot_app: Any, redis_url: str) -> None:
    conn = redis.Redis.from_url(redis_url)
    runtime = bot_app.extensions["runtime"]
    idle = [f"idle{i}" for i in range(3000)]        # human games waiting for their players
    with conn.pipeline(transaction=False) as pipe:
        for gid in idle:
            pipe.hset("{g:" + gid + "}:meta", mapping={
                "game": "race", "status": "active", "version": "3", "to_act": "[0]",
                "players": '[{"name": "a", "bot": null}, {"name": "b", "bot": null}]'})
        pipe.sadd(runtime.store.index_key("race"), *idle)
        pipe.execute()
    with bot_app.test_client() as client:
        game = new_game(client, humans=0, bots=2, seed=5)
    bot_queue = bots.BotQueue(conn, "race")
    lose_every_job(conn, bot_queue)
    # The turn was enqueued a while ago (older than BOT_STUCK_SECONDS): the index names it.
    conn.zadd(bots.pending_key("race"), {game["id"]: 1.0})
    sweeper = Sweeper(runtime, bot_queue)

    def calls() -> int:
        return sum(stat["calls"] for stat in conn.info("commandstats").values())

    before = calls()
    assert sweeper.sweep() == 1, "the lost turn was not re-enqueued"
    spent = calls() - before - 1                     # the INFO above
    # The slow lane's share (a meta read per scanned game) plus a handful for the lost turn,
    # not one per idle game.
    assert spent < 2 * SCAN_PER_PASS + 40, spent
    run_worker(redis_url)
    assert bot_app.extensions["runtime"].meta(game["id"])["status"] == "finished"


def test_the_index_forgets_a_game_with_no_bot_to_act_unless_a_turn_came_meanwhile(
        bot_app: Any, redis_url: str) -> None:
    conn = redis.Redis.from_url(redis_url)
    runtime = bot_app.extensions["runtime"]
    with bot_app.test_client() as client:
        human = new_game(client, humans=2, bots=0, seed=1)["id"]
    key = bots.pending_key("race")
    conn.zadd(key, {human: 1.0, "gone": 1.0})
    sweeper = Sweeper(runtime, bots.BotQueue(conn, "race"))
    # A turn enqueued between the sweeper's read and its delete keeps the entry.
    assert sweeper._remove_if_unchanged(keys=[key], args=[human, b"2"]) == 0
    sweeper.sweep_index()
    assert conn.zcard(key) == 0


@pytest.mark.parametrize("status", ["finished", "failed", "stopped", "canceled", "started", "scheduled",
                                    "deferred", "queued-nowhere", "taken-then-worker-died"])
def test_every_state_a_dead_job_can_be_left_in_is_recognised(
        status: str, redis_url: str, redis_client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from rq.job import JobStatus
    conn = redis.Redis.from_url(redis_url)
    bot_queue = bots.BotQueue(conn, "race")
    queue = bot_queue.queue
    bot_queue.enqueue_turn("g1", 5, 1)
    jid = bots.job_id("race", "g1", 5, 1)
    job = queue.fetch_job(jid)
    assert bots.job_state(bot_queue, jid) == "alive"            # waiting in the queue
    monkeypatch.setattr(bots, "STUCK_AFTER_SECONDS", 0.5)
    if status == "taken-then-worker-died":
        conn.lmove(queue.key, queue.intermediate_queue_key, "LEFT", "RIGHT")   # as RQ 3's dequeue does
        assert bots.job_state(bot_queue, jid) == "watch"        # a live worker starts it in a moment
        monkeypatch.setattr(bots, "TAKEN_GRACE_SECONDS", 0.0)
    else:
        conn.lrem(queue.key, 0, jid)
        if status != "queued-nowhere":
            job.set_status(JobStatus(status))
        if status == "started":
            job.heartbeat(job.enqueued_at, 60)
        if status == "scheduled":
            conn.zadd(queue.scheduled_job_registry.key, {jid: job.enqueued_at.timestamp()})
    import time
    time.sleep(0.6)
    assert bots.job_state(bot_queue, jid) == "dead"
    assert not conn.exists(f"rq:job:{jid}")
    assert conn.lpos(queue.intermediate_queue_key, jid) is None
    assert bot_queue.enqueue_turn("g1", 5, 1)                    # room for the turn's new job


def test_a_turn_lost_between_the_append_and_the_enqueue_is_in_the_index(
        redis_url: str, redis_client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A process killed after the append but before its bot job: the turn was indexed before the
    append, so the index pass (not the slow lane) plays it again."""
    from shared.play.runtime import GameRuntime
    conn = redis.Redis.from_url(redis_url)
    bot_queue = bots.BotQueue(conn, "race")
    from shared.log.eventstore import EventStore
    store = EventStore(redis.Redis.from_url(redis_url))

    class KilledBeforeTheEnqueue(bots.BotQueue):
        def appended(self, news: Any) -> None:
            if news.bots:
                raise SystemExit("killed")  # what the queue sees: no job, ever

    runtime = GameRuntime(PLUGIN.game, store, listeners=[KilledBeforeTheEnqueue(conn, "race")])
    game_id, _, _ = runtime.create([{"name": "a"}, {"name": "b", "bot": "roller"}], {}, seed=4)
    loaded = runtime.load(game_id)
    if PLUGIN.game.to_act(loaded.state) == [0]:
        with pytest.raises(SystemExit):
            runtime.submit(game_id, 0, {"type": "hold"})
    assert PLUGIN.game.to_act(runtime.load(game_id).state) == [1]
    assert conn.zscore(bots.pending_key("race"), game_id) is not None, "the turn was not indexed first"
    assert conn.llen(bot_queue.queue.key) == 0
    monkeypatch.setattr(bots, "STUCK_AFTER_SECONDS", 0.0)
    assert Sweeper(runtime, bot_queue).sweep_index() == 1      # the index alone, no slow lane
    assert conn.llen(bot_queue.queue.key) == 1
