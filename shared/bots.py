"""Bot turns in RQ workers.

After every accepted move whose next actors include bots, the runtime calls
:meth:`BotQueue.enqueue_turns`: one job per bot seat, with a job id made of game, id, version
and seat, so enqueuing twice is harmless.  The job (:func:`play_bot_turn`) is idempotent by
construction: it reloads the game, does nothing if the version moved or the seat is not to
act, and appends with the expected version and an idempotency key.  The sweeper re-enqueues
turns whose job vanished, failed or died with its worker.
"""
from __future__ import annotations

import json
import logging
import os
import random
import time
from functools import lru_cache
from typing import Any

import redis
from rq import Queue, Retry
from rq.exceptions import DuplicateJobError, NoSuchJobError
from rq.job import Job, JobStatus
from rq.serializers import JSONSerializer

from shared import registry
from shared.config import Settings
from shared.engine import IllegalMove, Strategy, random_strategy
from shared.problems import Problem
from shared.runtime import GameRuntime, derive_seed

log = logging.getLogger("bots")

JOB_TIMEOUT_SECONDS = 30
# A started job whose heartbeat is older than this is taken for dead (its worker was killed).
STUCK_AFTER_SECONDS = float(os.environ.get("BOT_STUCK_SECONDS", "60"))


def queue_name(game_name: str) -> str:
    return f"bots-{game_name}"


def job_id(game_name: str, game_id: str, version: int, seat: int) -> str:
    # RQ job ids allow letters, digits, '-' and '_' only.
    return f"bot-{game_name}-{game_id}-{version}-{seat}"


class BotQueue:
    def __init__(self, connection: "redis.Redis[bytes]", game_name: str) -> None:
        self.game_name = game_name
        self.queue = Queue(queue_name(game_name), connection=connection, serializer=JSONSerializer)

    def enqueue_turns(self, game_id: str, version: int, seats: list[int]) -> None:
        for seat in seats:
            self.enqueue_turn(game_id, version, seat)

    def enqueue_turn(self, game_id: str, version: int, seat: int) -> bool:
        """Enqueue one bot turn; False when that exact turn is already queued or done."""
        try:
            self.queue.enqueue(
                "shared.bots.play_bot_turn", self.game_name, game_id, version, seat,
                job_id=job_id(self.game_name, game_id, version, seat), unique=True,
                job_timeout=JOB_TIMEOUT_SECONDS, result_ttl=600, failure_ttl=3600,
                retry=Retry(max=3, interval=[1, 5, 15]),
            )
            return True
        except DuplicateJobError:
            return False


# -- the worker side ----------------------------------------------------------------------------

@lru_cache(maxsize=None)
def _runtime(game_name: str) -> GameRuntime:
    """One runtime per game per worker process (connections are made after the fork)."""
    from shared.redis_clients import connect_event_store, connect_queue  # late import: keeps the worker light

    settings = Settings.from_env()
    plugin = registry.plugin(game_name)
    bot_queue = BotQueue(connect_queue(settings), game_name)
    return GameRuntime(plugin.game, connect_event_store(settings), settings.snapshot_every,
                       notify_bots=bot_queue.enqueue_turns)


def play_bot_turn(game_name: str, game_id: str, version: int, seat: int) -> dict[str, Any]:
    """The RQ job: play one turn for a bot seat, if the game is still where it was."""
    runtime = _runtime(game_name)
    return play_bot_turn_with(runtime, registry.plugin(game_name).strategies, game_id, version, seat)


def play_bot_turn_with(runtime: GameRuntime, strategies: dict[str, Strategy], game_id: str,
                       version: int, seat: int) -> dict[str, Any]:
    game = runtime.game
    loaded = runtime.load(game_id)
    if loaded.version != version:
        return {"played": False, "why": "moved-on", "version": loaded.version}
    if game.result(loaded.state) is not None or seat not in game.to_act(loaded.state):
        return {"played": False, "why": "not-to-act", "version": loaded.version}
    strategy_name = loaded.players[seat].get("bot") or "random"
    strategy = strategies.get(strategy_name, random_strategy)
    rng = random.Random(derive_seed(loaded.seed, version, "bot", seat))
    try:
        # A copy: the move is decided on ``loaded.state`` below, which a strategy that looks
        # ahead with ``evolve`` (in place) or crashes half-way must not have touched.
        move = strategy(game, game.copy(loaded.state), seat, rng)
    except Exception:  # noqa: BLE001 - a strategy bug: its retries (same seed) would crash alike
        log.exception("bot %s crashed in %s at version %d; playing a random legal move",
                      strategy_name, game_id, version)
        move = random_strategy(game, loaded.state, seat, rng)
    try:
        outcome = runtime.submit(game_id, seat, move, expected_version=version,
                                 idempotency_key=f"bot-{version}", loaded=loaded)
    except IllegalMove as exc:
        # A strategy bug must not stall the game: log it and play a random legal move instead.
        log.error("bot %s chose an illegal move %s in %s: %s", strategy_name, move, game_id, exc.reason)
        # ``loaded`` went to submit (which handed its state back to the cache): read the game again.
        reloaded = runtime.load(game_id)
        move = random_strategy(game, reloaded.state, seat, rng)
        outcome = runtime.submit(game_id, seat, move, expected_version=version,
                                 idempotency_key=f"bot-{version}-fallback", loaded=reloaded)
    except Problem as exc:
        if exc.kind in ("stale-version", "not-your-turn", "game-over"):
            return {"played": False, "why": exc.kind, "version": loaded.version}
        raise
    return {"played": True, "version": outcome.version, "move": move}


def sweep(runtime: GameRuntime, bot_queue: BotQueue) -> int:
    """Re-enqueue bot turns that have no live job; returns how many it enqueued.

    Covers a crash between append and enqueue, a job that failed all its retries, and a worker
    killed in the middle of a job (its job stays 'started' with a heartbeat that stops).
    """
    game_name = runtime.game.name
    enqueued = 0
    for game_id in runtime.store.active_games(game_name):
        meta = runtime.store.meta(game_id)
        # No meta: a creation that failed (or has yet to append); another title: an id collision.
        if meta is None or meta.get("status") != "active" or meta.get("game") != game_name:
            runtime.store.index_active(game_name, game_id, False)
            continue
        players = json.loads(meta["players"])
        version = int(meta["version"])
        for seat in json.loads(meta["to_act"]):
            if not players[seat].get("bot"):
                continue
            jid = job_id(game_name, game_id, version, seat)
            if _job_is_alive(bot_queue.queue.connection, jid, bot_queue.queue.serializer):
                continue
            if bot_queue.enqueue_turn(game_id, version, seat):
                enqueued += 1
    return enqueued


def _job_is_alive(connection: Any, jid: str, serializer: Any) -> bool:
    try:
        job = Job.fetch(jid, connection=connection, serializer=serializer)
    except NoSuchJobError:
        return False
    status = job.get_status(refresh=True)
    if status in (JobStatus.QUEUED, JobStatus.SCHEDULED, JobStatus.DEFERRED):
        return True
    if status == JobStatus.STARTED:
        beat = job.last_heartbeat or job.started_at
        if beat is not None and time.time() - beat.timestamp() < STUCK_AFTER_SECONDS:
            return True
    job.delete()   # finished without effect, failed, or died with its worker: make room to retry
    return False
