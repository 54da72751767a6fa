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

When a deadline passes, :func:`expire_clock` (an RQ job on the bot queue, scheduled with
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
(:class:`shared.worker.ToTheMillisecond`); a job that runs early all the same (a scheduler that
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

import json
import logging
import math
import time
from dataclasses import dataclass, field
from datetime import datetime, UTC
from typing import TYPE_CHECKING, Any
from collections.abc import Callable

from rq.exceptions import DuplicateJobError

from shared.engine import Event, Strategy
from shared.plugin import GamePlugin

if TYPE_CHECKING:
    from shared.bots import BotQueue
    from shared.engine import Game
    from shared.runtime import GameRuntime, LoadedGame

log = logging.getLogger("clocks")

FIELD = "clock"                      # the meta field holding the clock (JSON)
EXPIRED = "platform.clock_expired"
MAX_TURN_SECONDS = 7 * 24 * 3600
RUNNING = ("active", "running")      # the statuses whose clocks run (never "waiting")
ENDED = ("finished", "cancelled", "abandoned")   # no clock runs again
SWEEP_BATCH = 500
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


def default_fallback(plugin: GamePlugin) -> str:
    """The bot that plays for a seat whose time ran out (or that resigned): the plugin's choice, else
    its rule-of-thumb bot, the last listed strategy other than ``random`` that answers at once.  Not
    the search bot (``expert``): a seat whose player is gone need not hold a worker for a budget a
    move, and a clock's move should come right at the deadline."""
    return plugin.fallback_bot or plugin.rule_of_thumb_bot()


def iso(ms: int) -> str:
    """A deadline as clients see it: ISO 8601 in UTC with milliseconds, e.g. 2026-11-25T14:30:00.250Z."""
    return datetime.fromtimestamp(ms / 1000, UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


def iso_to_ms(text: str) -> int:
    """The inverse of :func:`iso` (clients and tests read deadlines back)."""
    return int(datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC).timestamp() * 1000)


def now_ms() -> int:
    return int(time.time() * 1000)


# -- the clock in the meta ------------------------------------------------------------------------

def turn_seconds(meta: dict[str, str]) -> int | None:
    raw = meta.get("turn_seconds")
    return int(raw) if raw else None


def settings(meta: dict[str, str]) -> dict[str, Any]:
    """A game's clock settings as ``GameRuntime.create`` takes them (a rematch keeps them)."""
    return {"turn_seconds": turn_seconds(meta), "fallback_bot": meta.get("fallback_bot") or None}


def parse(meta: dict[str, str]) -> dict[str, Any] | None:
    raw = meta.get(FIELD)
    return json.loads(raw) if raw else None


def deadlines(meta: dict[str, str]) -> dict[str, str]:
    """The view's ``deadlines``: seat (as a string) -> ISO 8601 deadline, for running games."""
    clock = parse(meta)
    if clock is None or meta.get("status") not in RUNNING or str(clock["v"]) != meta.get("version"):
        return {}                    # none, or behind the log until the clock starts again (restart)
    return {seat: iso(entry[0]) for seat, entry in sorted(clock["seats"].items(), key=lambda kv: int(kv[0]))}


@dataclass
class ClockChange:
    """The clock after an append: its meta field, and the deadlines set by this very append."""
    clock: dict[str, Any]
    new: list[tuple[int, int, int]] = field(default_factory=list)    # (seat, deadline_ms, set_at)
    gone: list[tuple[int, int, int]] = field(default_factory=list)   # deadlines this append ended
    waiting: bool = False            # a game waiting for players: the sweeper starts its clock later
    fallback: str | None = None      # the game's fallback bot ('' or None: the default), for its jobs' queue

    @property
    def fields(self) -> dict[str, str]:
        return {FIELD: json.dumps(self.clock, separators=(",", ":"))}

    @property
    def earliest(self) -> int | None:
        """When the sweeper should look at the game (None: never)."""
        return min((entry[0] for entry in self.clock["seats"].values()), default=now_ms() if self.waiting else None)


def advance(before: dict[str, Any] | None, before_version: int, version: int, to_act: list[int],
            humans: set[int], mover: int | None = None, expired: bool = False,
            turn: int = 0, now: int | None = None) -> ClockChange:
    """The clock right after event ``version`` (see the module's rules).  ``before`` is the clock
    after ``before_version``; a clock of another version (or none) counts as unknown, and every
    seat to act then starts a full turn (a deadline too late, never one too early)."""
    now = now_ms() if now is None else now
    known = before["seats"] if before is not None and before.get("v") == before_version else {}
    seats: dict[str, list[int]] = {}
    new = []
    for seat in to_act:
        if seat not in humans:
            continue
        kept = known.get(str(seat))
        if kept is not None and seat != mover:
            seats[str(seat)] = kept
            continue
        deadline = now if (expired and seat == mover) else now + turn * 1000
        seats[str(seat)] = [deadline, version]
        new.append((seat, deadline, version))
    gone = [(int(seat), entry[0], entry[1]) for seat, entry in known.items() if seats.get(seat) != entry]
    return ClockChange({"v": version, "seats": seats}, new, gone)


def after_append(runtime: GameRuntime, loaded: LoadedGame, state: Any, version: int,
                 mover: int | None, expired: bool) -> ClockChange | None:
    """The clock to write with an append that takes ``loaded`` to ``state`` at ``version``;
    None for a game without a clock, or one not running."""
    meta = loaded.meta
    turn = turn_seconds(meta)
    if turn is None:
        return None
    if meta.get("status") == "waiting":
        # No clock runs yet; the game is noted for the sweeper, which starts its clock once it
        # runs (``restart``), should whatever starts it not do so itself.
        return ClockChange({"v": version, "seats": {}}, waiting=True)
    before = parse(meta)
    if loaded.version and (before is None or before.get("v") != loaded.version):
        # This process's copy of the meta is older than its state (a copy that caught up): the
        # clock of that version is in Redis, unless the game moved on (then the append fails).
        before = parse(runtime.store.meta(loaded.game_id) or {})
    # Ended: every deadline goes.
    acting = [] if meta.get("status") in ENDED else _acting(runtime.rules_for(loaded.meta), state)
    change = advance(before, loaded.version, version, acting, _humans(loaded), mover, expired, turn)
    change.fallback = meta.get("fallback_bot") or None
    return change


def _acting(game: Game, state: Any) -> list[int]:
    return [] if game.result(state) is not None else game.to_act(state)


def _humans(loaded: LoadedGame) -> set[int]:
    """The seats a clock may run for: a bot's (a resigned seat's too) never waits for anyone."""
    return {seat for seat, player in enumerate(loaded.players) if not player.get("bot")}


# -- deadlines kept by RQ's scheduler ------------------------------------------------------------

class ClockJobs:
    """Schedules expiry jobs on a game's bot queue (its workers run RQ's scheduler)."""

    def __init__(self, bot_queue: BotQueue) -> None:
        self.bot_queue = bot_queue
        self.game_name = bot_queue.game_name

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
        ``again``: the how-manieth successor of a job that ran early (see :func:`expire_clock`);
        ``bot``: the game's fallback bot (a search bot's moves go to the thinking queue)."""
        from shared.bots import JOB_TIMEOUT_SECONDS
        queue = self.bot_queue.queue_for(bot)
        jid = job_id(self.game_name, game_id, seat, deadline, set_at) + (f"-again{again}" if again else "")
        args = ("shared.clocks.expire_clock", self.game_name, game_id, seat, deadline, set_at, again)
        options: dict[str, Any] = {"job_id": jid, "unique": True, "job_timeout": JOB_TIMEOUT_SECONDS,
                                   "result_ttl": 600, "failure_ttl": 3600}
        try:
            if deadline <= now_ms():
                queue.enqueue(*args, **options)
                return True
            # RQ scores a scheduled job in whole seconds (rounded down: up to a second early).
            # Scheduled at the next whole second, never early, then scored to the millisecond,
            # which the workers' scheduler reads as such (shared.worker.ToTheMillisecond).
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
    change = advance(None, loaded.version, loaded.version, _acting(runtime.rules_for(meta), loaded.state),
                     _humans(loaded), turn=turn)
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

def expire_clock(game_name: str, game_id: str, seat: int, deadline: int, set_at: int,
                 again: int = 0) -> dict[str, Any]:
    """The RQ job: the seat's deadline passed; play for it, unless it moved meanwhile.  A job that
    runs before the deadline (a scheduler that reads whole seconds, clocks of two machines that
    disagree) schedules its successor at the deadline rather than leave it to the sweeper."""
    from shared import bots, registry     # late: the runtime imports this module, and bots the runtime
    plugin = registry.plugin(game_name)
    runtime = bots._runtime(game_name)
    outcome = expire_with(runtime, plugin.strategies, default_fallback(plugin), game_id, seat, deadline, set_at)
    if outcome.get("why") == "early" and again < EARLY_RUNS and runtime.clock_jobs is not None:
        outcome["rescheduled"] = runtime.clock_jobs.schedule_one(
            game_id, seat, deadline, set_at, again + 1, bot=runtime.meta(game_id).get("fallback_bot") or None)
    return outcome


def expire_with(runtime: GameRuntime, strategies: dict[str, Strategy], default_bot: str, game_id: str,
                seat: int, deadline: int, set_at: int, attempts: int = 5) -> dict[str, Any]:
    from shared import bots
    for _ in range(attempts):
        loaded = runtime.load(game_id)
        why = _why_not(runtime, loaded, seat, deadline, set_at)
        if why is not None:
            return {"played": False, "why": why, "version": loaded.version}
        bot = loaded.meta.get("fallback_bot") or default_bot
        if bot not in strategies:
            bot = default_bot
        expired: Event = {"type": EXPIRED, "data": {"seat": seat, "deadline": iso(deadline), "bot": bot}}
        outcome = bots.play_bot_turn_with(runtime, strategies, game_id, loaded.version, seat,
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
        return "early"               # its job schedules a successor (expire_clock)
    return None


# -- the sweeper's part ----------------------------------------------------------------------------

def sweep_due(runtime: GameRuntime, bot_queue: BotQueue,
              rescore: Callable[..., Any] | None = None) -> int:
    """Re-enqueue the expiries of deadlines passed more than BOT_STUCK_SECONDS ago whose job is
    gone; returns how many.  Keeps each game's score at its earliest deadline."""
    from shared import bots
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
        players = json.loads(meta["players"])
        passed = [(int(seat), entry) for seat, entry in clock["seats"].items()
                  if entry[0] / 1000 <= now and not players[int(seat)].get("bot")]
        for seat, (deadline, set_at) in passed:
            if bots._job_state(bot_queue, job_id(name, game_id, seat, deadline, set_at)) != "dead":
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
