"""Turn clocks: a game created with ``turn_seconds`` gives every human seat that is to act a deadline.

What a clock is, and where it lives
-----------------------------------
The meta field ``clock`` holds ``{"v": version, "seats": {"<seat>": [deadline_ms, set_at]}}``:
the deadline (milliseconds since the epoch) of every human seat to act right after event ``v``,
and the version at which that deadline was set.  It is written by the same atomic append as the
events (``GameRuntime.submit`` puts it among the meta fields), so it is always the clock of the
version it names.  The rule, per seat, after every append:

* a seat that enters the to-act set gets ``now + turn_seconds``;
* a seat that moved and is still to act gets a fresh ``now + turn_seconds`` (each move resets
  its own clock), and a seat the clock just played for gets ``now`` (see below);
* a seat that stays to act while others move (Catan's discards, Elfenland's simultaneous
  phases) keeps its deadline: every seat has its own clock;
* a seat that is no longer to act, or is a bot, has none.

When a deadline passes, :func:`shared.play.jobs.expire_clock` (an RQ job on the bot queue, scheduled with
``enqueue_at`` by whoever appended) plays ONE move for the seat with the game's fallback bot and
records ``platform.clock_expired`` (seat, deadline, bot) in the same append, just before the
bot's move.  If the seat is still to act after that move its deadline is ``now``: the next
expiry follows at once, so a seat that walked away has its whole turn played for it, each
move after its own ``platform.clock_expired``; a seat that comes back and moves gets its full
``turn_seconds`` again.

Exactly once, and never after the seat moved: the job carries the deadline and the version it
was set at, and acts only if the game's clock still holds exactly that pair for the seat; it
appends with the expected version of the state it checked, so a move that got in first turns
the expiry into a no-op (the seat's pair changed), and a job run twice acts once.

On time: RQ scores scheduled jobs in whole seconds, rounded down, so a job due at ``ss.312`` would
run at ``ss.000``, find its deadline ahead, and do nothing.  A job is scheduled at the next whole
second, then scored to the millisecond, which the workers' scheduler reads as such
(:class:`shared.play.worker.ToTheMillisecond`); a job that runs early all the same (a scheduler that
reads whole seconds, clocks of two machines that disagree) schedules its successor at the deadline.

Surviving restarts: the deadline jobs are RQ scheduled jobs (kept in Redis), and the queue's
Redis also holds ``clocks:<game>``, a sorted set of game ids scored by their earliest deadline
(written before the append, like the bot index).  Each sweeper pass (:func:`sweep_due`) looks at
the games whose earliest deadline passed more than BOT_STUCK_SECONDS ago and re-enqueues an
expiry whose job is gone, failed, or was never scheduled.

Only running games have clocks: a game still ``waiting`` for players has none, but is noted in
``clocks:<game>`` so that the sweeper starts its clock once it runs (:func:`restart`: every human
seat to act gets a full turn).  The same repair covers any append that was no move and did not
write the clock (the clock then names an older version: views show no deadline, expiries do
nothing, until the next move or sweep writes a current one).
"""
from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from rq.exceptions import DuplicateJobError

from shared.game.engine import Event, Strategy
from shared.play import bots
from shared.play import meta as gm
from shared.play.bots import JOB_TIMEOUT_SECONDS, BotQueue, job_state, play_bot_turn_with
from shared.play.runtime import AppendNews, GameRuntime, LoadedGame
from shared.play.turn_clock import (ENDED, EXPIRED, FIELD, RUNNING, ClockChange, acting_seats, advance,
                                    human_seats, iso, now_ms, parse, turn_seconds)

log = logging.getLogger("clocks")

SWEEP_BATCH = 500
EXPIRE_CLOCK_JOB = "shared.play.jobs.expire_clock"   # the RQ job (by name: queued jobs outlive a deploy)
EARLY_RUNS = 5                       # successors an expiry that ran early schedules at most

# KEYS[1] a game's meta; ARGV[1] its version, ARGV[2] the clock: written only at that version.
_SET_CLOCK_AT_VERSION = """
if redis.call('HGET', KEYS[1], 'version') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'clock', ARGV[2])
return 1
"""

# KEYS[1] the queue's scheduled-job registry, KEYS[2] a job's hash; ARGV[1] the job's id.
_DROP_IF_SCHEDULED = """
if redis.call('ZREM', KEYS[1], ARGV[1]) == 1 then redis.call('DEL', KEYS[2]) return 1 end
return 0
"""

# Set a game's score to ARGV[3] (or drop it when ARGV[3] is empty) only if nobody changed it since
# the sweeper read ARGV[2]: a move in between wrote a score of its own.
_RESCORE_IF_UNCHANGED = """
if redis.call('ZSCORE', KEYS[1], ARGV[1]) ~= ARGV[2] then return 0 end
if ARGV[3] == '' then return redis.call('ZREM', KEYS[1], ARGV[1]) end
return redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
"""


def clocks_key(game_name: str) -> str:
    return f"clocks:{game_name}"


def job_id(game_name: str, game_id: str, seat: int, deadline: int, set_at: int) -> str:
    # Deadline and version both: a clock restarted at the same version (see ``restart``) is a new job.
    return f"clock-{game_name}-{game_id}-{seat}-{set_at}-{deadline}"


# -- deadlines kept by RQ's scheduler ------------------------------------------------------------

class ClockJobs:
    """Schedules expiry jobs on a game's bot queue (its workers run RQ's scheduler)."""

    def __init__(self, bot_queue: BotQueue) -> None:
        self.bot_queue = bot_queue
        self.game_name = bot_queue.game_name

    # -- as the runtime's AppendListener --------------------------------------------------------
    def before_append(self, news: AppendNews) -> None:
        if news.clock is not None:
            self.mark(news.game_id, news.clock)

    def appended(self, news: AppendNews) -> None:
        if news.clock is not None:
            self.schedule(news.game_id, news.clock)

    def mark(self, game_id: str, change: ClockChange) -> None:
        """Note the earliest deadline in ``clocks:<game>`` (before the append: a crash before the
        jobs leaves a trace for the sweeper).  LT: an earlier score already there stays."""
        earliest = change.earliest
        if earliest is not None:
            self.bot_queue.connection.zadd(clocks_key(self.game_name), {game_id: earliest / 1000}, lt=True)

    def schedule(self, game_id: str, change: ClockChange) -> None:
        """Schedule the new deadlines' jobs, and drop the scheduled jobs of the deadlines the append
        ended (they would do nothing, but a 7-day clock would keep each in Redis for a week)."""
        for seat, deadline, set_at in change.new:
            self.schedule_one(game_id, seat, deadline, set_at, bot=change.fallback)
        if change.gone:
            from rq.job import Job
            registry = self.bot_queue.queue_for(change.fallback).scheduled_job_registry.key
            with self.bot_queue.connection.pipeline(transaction=False) as pipe:
                for seat, deadline, set_at in change.gone:
                    jid = job_id(self.game_name, game_id, seat, deadline, set_at)
                    # Only a job still waiting for its time: one that runs (or ran) is left alone.
                    pipe.eval(_DROP_IF_SCHEDULED, 2, registry, Job.key_for(jid), jid)
                pipe.execute()

    def schedule_one(self, game_id: str, seat: int, deadline: int, set_at: int, again: int = 0,
                     bot: str | None = None) -> bool:
        """One expiry job at the deadline (at once when it has passed); False if it exists already.
        ``again``: the how-manieth successor of a job that ran early (see :func:`shared.play.jobs.expire_clock`);
        ``bot``: the game's fallback bot (a search bot's moves go to the thinking queue)."""
        queue = self.bot_queue.queue_for(bot)
        jid = job_id(self.game_name, game_id, seat, deadline, set_at) + (f"-again{again}" if again else "")
        args = (EXPIRE_CLOCK_JOB, self.game_name, game_id, seat, deadline, set_at, again)
        options: dict[str, Any] = {"job_id": jid, "unique": True, "job_timeout": JOB_TIMEOUT_SECONDS,
                                   "result_ttl": 600, "failure_ttl": 3600}
        try:
            if deadline <= now_ms():
                queue.enqueue(*args, **options)
                return True
            # RQ scores a scheduled job in whole seconds (rounded down: up to a second early).
            # Scheduled at the next whole second, never early, then scored to the millisecond,
            # which the workers' scheduler reads as such (shared.play.worker.ToTheMillisecond).
            queue.enqueue_at(datetime.fromtimestamp(math.ceil(deadline / 1000), UTC), *args, **options)
            self.bot_queue.connection.zadd(queue.scheduled_job_registry.key, {jid: deadline / 1000}, xx=True)
            return True
        except DuplicateJobError:
            return False


def restart(runtime: GameRuntime, game_id: str, jobs: ClockJobs | None) -> ClockChange | None:
    """Start the clock of a running game whose clock is missing or behind its log: an append that
    was no move (the start of a game that was waiting for players) left it so.  Every human seat to
    act gets a full turn.  None when the clock is current, or the game has none or is not running."""
    loaded = runtime.load(game_id)
    meta = loaded.meta
    turn = turn_seconds(meta)
    clock = parse(meta)
    if turn is None or meta.get("status") not in RUNNING or (clock is not None and clock["v"] == loaded.version):
        return None
    change = advance(None, loaded.version, loaded.version, acting_seats(runtime.rules_for(meta), loaded.state),
                     human_seats(loaded), turn=turn)
    change.fallback = meta.get("fallback_bot") or None
    if jobs is not None:
        jobs.mark(game_id, change)
    _, meta_key, _, _ = runtime.store.keys(game_id)
    if not runtime.store.redis.eval(_SET_CLOCK_AT_VERSION, 1, meta_key, loaded.version, change.fields[FIELD]):
        return None                  # the game moved meanwhile: that append wrote a clock
    if jobs is not None:
        jobs.schedule(game_id, change)
    return change


# -- the expiry job -------------------------------------------------------------------------------

def expire_with(runtime: GameRuntime, strategies: dict[str, Strategy], default_bot: str, game_id: str,
                seat: int, deadline: int, set_at: int, attempts: int = 5) -> dict[str, Any]:
    for _ in range(attempts):
        loaded = runtime.load(game_id)
        why = _why_not(runtime, loaded, seat, deadline, set_at)
        if why is not None:
            return {"played": False, "why": why, "version": loaded.version}
        bot = loaded.meta.get("fallback_bot") or default_bot
        if bot not in strategies:
            bot = default_bot
        expired: Event = {"type": EXPIRED, "data": {"seat": seat, "deadline": iso(deadline), "bot": bot}}
        outcome = play_bot_turn_with(runtime, strategies, game_id, loaded.version, seat,
                                     strategy_name=bot, platform_events=[expired], loaded=loaded)
        if outcome["played"]:
            log.info("%s %s: seat %d ran out of time; %s played for it", runtime.game.name, game_id, seat, bot)
            return {**outcome, "bot": bot}
        # Another seat moved between the check and the append: check again on the new state.
    return {"played": False, "why": "busy", "version": runtime.store.version(game_id)}


def _why_not(runtime: GameRuntime, loaded: LoadedGame, seat: int, deadline: int, set_at: int) -> str | None:
    """Why this expiry must not act now (None: it must)."""
    game = runtime.rules_for(loaded.meta)
    if loaded.meta.get("status") not in RUNNING or game.result(loaded.state) is not None:
        return "not-running"
    clock = parse(loaded.meta)
    if clock is None or clock.get("v") != loaded.version or clock["seats"].get(str(seat)) != [deadline, set_at]:
        return "moved"               # the seat moved (or left the to-act set) since this deadline was set
    if seat not in game.to_act(loaded.state) or loaded.players[seat].get("bot"):
        return "not-to-act"
    if now_ms() < deadline:
        return "early"               # its job schedules a successor (shared.play.jobs.expire_clock)
    return None


# -- the sweeper's part ----------------------------------------------------------------------------

def sweep_due(runtime: GameRuntime, bot_queue: BotQueue,
              rescore: Callable[..., Any] | None = None) -> int:
    """Re-enqueue the expiries of deadlines passed more than BOT_STUCK_SECONDS ago whose job is
    gone; returns how many.  Keeps each game's score at its earliest deadline."""
    conn = bot_queue.connection
    name = runtime.game.name
    key = clocks_key(name)
    rescore = rescore or conn.register_script(_RESCORE_IF_UNCHANGED)
    jobs = ClockJobs(bot_queue)
    now = time.time()
    due = conn.zrangebyscore(key, "-inf", now - bots.STUCK_AFTER_SECONDS, start=0, num=SWEEP_BATCH,
                             withscores=True, score_cast_func=lambda raw: raw)
    enqueued = 0
    for member, score in due:
        game_id = member.decode()
        meta = runtime.store.meta(game_id)
        if meta is None or meta.get("game") != name or meta.get("status") in ENDED or not turn_seconds(meta):
            rescore(keys=[key], args=[game_id, score, ""])          # gone, over, or no clock
            continue
        clock = parse(meta)
        if meta.get("status") not in RUNNING or clock is None or meta.get("version") != str(clock["v"]):
            # Still waiting for players (look again later), or started by an append that was no
            # move: its clock starts now.
            if restart(runtime, game_id, jobs) is None:
                rescore(keys=[key], args=[game_id, score, str(now)])
            continue
        players = gm.players_of(meta)
        passed = [(int(seat), entry) for seat, entry in clock["seats"].items()
                  if entry[0] / 1000 <= now and not players[int(seat)].get("bot")]
        for seat, (deadline, set_at) in passed:
            if job_state(bot_queue, job_id(name, game_id, seat, deadline, set_at)) != "dead":
                continue
            if jobs.schedule_one(game_id, seat, deadline, set_at, bot=meta.get("fallback_bot") or None):
                log.info("re-enqueued the expiry of %s seat %d (deadline %s)", game_id, seat, iso(deadline))
                enqueued += 1
        earliest = min((entry[0] for entry in clock["seats"].values()), default=None)
        if passed:
            rescore(keys=[key], args=[game_id, score, str(now)])     # look again in BOT_STUCK_SECONDS
        else:
            rescore(keys=[key], args=[game_id, score, "" if earliest is None else str(earliest / 1000)])
    return enqueued
