"""The RQ jobs a bot worker runs, and the runtime each worker process builds for them.

Jobs are enqueued by name (``bots.PLAY_BOT_TURN_JOB``, ``clocks.EXPIRE_CLOCK_JOB``): a queued or
scheduled job outlives the code that enqueued it (a clock's expiry may wait a week), so these names
are part of the contract between releases.  Names of earlier layouts still run
(:data:`LEGACY_JOB_NAMES`, resolved by the worker).
"""
from __future__ import annotations

import logging
from functools import cache
from typing import Any

from shared.game import registry
from shared.play.bots import bot_queue_for, play_bot_turn_with, seat_bots
from shared.play.clocks import EARLY_RUNS, ClockJobs, expire_with
from shared.play.config import Settings
from shared.play.redis_clients import connect_event_store, connect_queue
from shared.play.runtime import GameRuntime
from shared.play.turn_clock import default_fallback

log = logging.getLogger("bots")

# Where the jobs lived before shared/ had packages: jobs enqueued by an older release still run.
LEGACY_JOB_NAMES = {
    "shared.bots.play_bot_turn": "shared.play.jobs.play_bot_turn",
    "shared.clocks.expire_clock": "shared.play.jobs.expire_clock",
}


@cache
def worker_runtime(game_name: str) -> GameRuntime:
    """One runtime per game per worker process (connections are made after the fork)."""
    settings = Settings.from_env()
    plugin = registry.plugin(game_name)
    bot_queue = bot_queue_for(connect_queue(settings), plugin)
    runtime = GameRuntime(plugin.newest_rules(), connect_event_store(settings), settings.snapshot_every,
                          listeners=[bot_queue, ClockJobs(bot_queue)], engines=plugin.rules)
    bot_queue.bot_of = seat_bots(runtime)
    return runtime


def play_bot_turn(game_name: str, game_id: str, version: int, seat: int) -> dict[str, Any]:
    """The RQ job: play one turn for a bot seat, if the game is still where it was."""
    runtime = worker_runtime(game_name)
    return play_bot_turn_with(runtime, registry.plugin(game_name).strategies, game_id, version, seat)


def expire_clock(game_name: str, game_id: str, seat: int, deadline: int, set_at: int,
                 again: int = 0) -> dict[str, Any]:
    """The RQ job: the seat's deadline passed; play for it, unless it moved meanwhile.  A job that
    runs before the deadline (a scheduler that reads whole seconds, clocks of two machines that
    disagree) schedules its successor at the deadline rather than leave it to the sweeper."""
    plugin = registry.plugin(game_name)
    runtime = worker_runtime(game_name)
    outcome = expire_with(runtime, plugin.strategies, default_fallback(plugin), game_id, seat, deadline, set_at)
    clock_jobs = next((listener for listener in runtime.listeners if isinstance(listener, ClockJobs)), None)
    if outcome.get("why") == "early" and again < EARLY_RUNS and clock_jobs is not None:
        outcome["rescheduled"] = clock_jobs.schedule_one(
            game_id, seat, deadline, set_at, again + 1, bot=runtime.meta(game_id).get("fallback_bot") or None)
    return outcome
