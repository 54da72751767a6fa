"""Bot turns in RQ workers.

After every accepted move whose next actors include bots, the runtime calls
:meth:`BotQueue.enqueue_turns`: one job per bot seat, with a job id made of game, id, version
and seat, so enqueuing twice is harmless.  The job (:func:`play_bot_turn`) is idempotent by
construction: it reloads the game, does nothing if the version moved or the seat is not to
act, and appends with the expected version and an idempotency key.  The sweeper re-enqueues
turns whose job vanished, failed or died with its worker (see :class:`Sweeper`).
"""
from __future__ import annotations

import json
import logging
import os
import random
import time
from functools import cache
from collections.abc import Callable, Iterable
from typing import Any

import redis
from rq import Queue, Retry
from rq.exceptions import DuplicateJobError, NoSuchJobError
from rq.job import Job, JobStatus
from rq.serializers import JSONSerializer

from shared import platform_events as pe, registry, seats
from shared.config import Settings
from shared.engine import Event, IllegalMove, Strategy, play_fair, random_strategy, thinks
from shared.problems import Problem
from shared.runtime import GameRuntime, LoadedGame, derive_seed
from shared.search import bot_budget_ms
from shared.strict import strict

log = logging.getLogger("bots")

JOB_TIMEOUT_SECONDS = 30
# A started job whose heartbeat is older than this is taken for dead (its worker was killed).
STUCK_AFTER_SECONDS = float(os.environ.get("BOT_STUCK_SECONDS", "60"))


def queue_name(game_name: str) -> str:
    return f"bots-{game_name}"


def thinking_queue_name(game_name: str) -> str:
    """The queue of the search bots' turns (see :class:`BotQueue`)."""
    return f"bots-{game_name}-thinking"


def thinking_bots(strategies: dict[str, Strategy]) -> frozenset[str]:
    """The names of the bots that think for a budget a move (their turns go to the thinking queue)."""
    return frozenset(name for name, strategy in strategies.items() if thinks(strategy))


def job_id(game_name: str, game_id: str, version: int, seat: int) -> str:
    # RQ job ids allow letters, digits, '-' and '_' only.
    return f"bot-{game_name}-{game_id}-{version}-{seat}"


class BotQueue:
    """A game's bot turns, on two queues: ``bots-<game>`` for the bots that answer at once (and
    the turn clocks' fallback moves), ``bots-<game>-thinking`` for the search bots (``thinkers``),
    each with workers of its own.  A search bot holds its worker for its whole budget: on one FIFO
    queue, a few games of experts would keep every other game's bot waiting behind them."""

    def __init__(self, connection: redis.Redis[bytes], game_name: str, thinkers: Iterable[str] = ()) -> None:
        self.game_name = game_name
        self.queue = Queue(queue_name(game_name), connection=connection, serializer=JSONSerializer)
        self.thinking = Queue(thinking_queue_name(game_name), connection=connection, serializer=JSONSerializer)
        self.thinkers = frozenset(thinkers)
        # The bot that plays a seat of a game (None: not known), to choose its turn's queue.
        self.bot_of: Callable[[str, int], str | None] | None = None

    @property
    def connection(self) -> redis.Redis[bytes]:
        return self.queue.connection

    @property
    def queues(self) -> tuple[Queue, Queue]:
        return self.queue, self.thinking

    def queue_for(self, bot: str | None) -> Queue:
        return self.thinking if bot in self.thinkers else self.queue

    def queue_named(self, name: str) -> Queue:
        return self.thinking if name == self.thinking.name else self.queue

    def enqueue_turns(self, game_id: str, version: int, seats: list[int]) -> None:
        # The runtime has indexed the turn already (``mark_pending``, before the append): a crash
        # before the jobs leaves an entry the sweeper follows up.
        for seat in seats:
            self.enqueue_turn(game_id, version, seat, self.bot_of(game_id, seat) if self.bot_of else None)

    def mark_pending(self, game_id: str) -> None:
        """Note in the sweeper's index that a bot turn of this game was enqueued now."""
        self.connection.zadd(pending_key(self.game_name), {game_id: time.time()})

    def enqueue_turn(self, game_id: str, version: int, seat: int, bot: str | None = None) -> bool:
        """Enqueue one bot turn (on the thinking queue for a search ``bot``); False when that exact
        turn is already queued or done."""
        try:
            self.queue_for(bot).enqueue(
                "shared.bots.play_bot_turn", self.game_name, game_id, version, seat,
                job_id=job_id(self.game_name, game_id, version, seat), unique=True,
                job_timeout=JOB_TIMEOUT_SECONDS, result_ttl=600, failure_ttl=3600,
                retry=Retry(max=3, interval=[1, 5, 15]),
            )
            return True
        except DuplicateJobError:
            return False


def seat_bots(runtime: GameRuntime) -> Callable[[str, int], str | None]:
    """``BotQueue.bot_of`` for a runtime: the seat's bot from the game's meta, as this process
    has it right after the append that leaves the bot to act (else as Redis has it)."""
    def bot_of(game_id: str, seat: int) -> str | None:
        meta = runtime.cache.peek_meta(game_id) or runtime.store.meta(game_id) or {}
        players = json.loads(meta.get("players") or "[]")
        return players[seat].get("bot") if 0 <= seat < len(players) else None
    return bot_of


def bot_queue_for(connection: redis.Redis[bytes], plugin: Any, runtime: GameRuntime | None = None) -> BotQueue:
    """The bot queue of ``plugin``'s game, routing its search bots' turns to the thinking queue."""
    bot_queue = BotQueue(connection, plugin.game.name, thinking_bots(plugin.strategies))
    if runtime is not None:
        bot_queue.bot_of = seat_bots(runtime)
    return bot_queue


# -- the worker side ----------------------------------------------------------------------------

@cache
def _runtime(game_name: str) -> GameRuntime:
    """One runtime per game per worker process (connections are made after the fork)."""
    from shared.redis_clients import connect_event_store, connect_queue  # late import: keeps the worker light

    settings = Settings.from_env()
    plugin = registry.plugin(game_name)
    from shared.clocks import ClockJobs
    bot_queue = bot_queue_for(connect_queue(settings), plugin)
    runtime = GameRuntime(plugin.newest_rules(), connect_event_store(settings), settings.snapshot_every,
                          notify_bots=bot_queue.enqueue_turns, before_bot_turn=bot_queue.mark_pending,
                          engines=plugin.rules)
    bot_queue.bot_of = seat_bots(runtime)
    runtime.clock_jobs = ClockJobs(bot_queue)
    return runtime


def play_bot_turn(game_name: str, game_id: str, version: int, seat: int) -> dict[str, Any]:
    """The RQ job: play one turn for a bot seat, if the game is still where it was."""
    runtime = _runtime(game_name)
    return play_bot_turn_with(runtime, registry.plugin(game_name).strategies, game_id, version, seat)


def bot_rngs(game_seed: int, version: int, seat: int) -> tuple[random.Random, random.Random]:
    """The bot's own rng and the one that resamples what its seat cannot see: both from the
    game's seed, the version and the seat, so a bot turn (and its retries) plays the same move."""
    return (random.Random(derive_seed(game_seed, version, "bot", seat)),
            random.Random(derive_seed(game_seed, version, "conceal", seat)))


def play_bot_turn_with(runtime: GameRuntime, strategies: dict[str, Strategy], game_id: str,
                       version: int, seat: int, strategy_name: str | None = None,
                       platform_events: list[Event] | None = None,
                       loaded: LoadedGame | None = None) -> dict[str, Any]:
    """Play one move for ``seat`` at ``version`` with its bot (or ``strategy_name``: a clock's
    fallback bot, whose ``platform_events`` go into the same append, see shared.clocks)."""
    loaded = loaded if loaded is not None else runtime.load(game_id)
    game = runtime.rules_for(loaded.meta)       # the bot plays by the rules the game keeps
    if loaded.version != version:
        return {"played": False, "why": "moved-on", "version": loaded.version}
    if game.result(loaded.state) is not None or seat not in game.to_act(loaded.state):
        return {"played": False, "why": "not-to-act", "version": loaded.version}
    # Keyed where no client's Idempotency-Key can be: a player's own key (sent before it resigned,
    # or before its clock ran out) must never pass for the move the platform plays for that seat.
    kind = "bot" if platform_events is None else "clock"
    strategy_name = strategy_name or loaded.players[seat].get("bot") or "random"
    strategy = strategies.get(strategy_name, random_strategy)
    rng, conceal_rng = bot_rngs(loaded.seed, version, seat)
    try:
        # The bot sees only what its seat may see (``conceal`` is a fresh copy, too: the move is
        # decided on ``loaded.state`` below, which a strategy that looks ahead with ``evolve``
        # in place or crashes half-way must not have touched).
        move = play_fair(game, strategy, loaded.state, seat, rng, conceal_rng, bot_budget_ms(loaded.meta))
    except Exception:  # a strategy bug: its retries (same seed) would crash alike
        if strict():
            raise
        log.exception("bot %s crashed in %s at version %d; playing a random legal move",
                      strategy_name, game_id, version)
        move = random_strategy(game, loaded.state, seat, rng)
    try:
        outcome = runtime.submit(game_id, seat, move, expected_version=version,
                                 idempotency_key=pe.move_key(kind, version), loaded=loaded,
                                 platform_events=platform_events)
    except IllegalMove as exc:
        # A strategy bug must not stall the game: log it and play a random legal move instead.
        log.error("bot %s chose an illegal move %s in %s: %s", strategy_name, move, game_id, exc.reason)
        # ``loaded`` went to submit (which handed its state back to the cache): read the game again.
        reloaded = runtime.load(game_id)
        move = random_strategy(game, reloaded.state, seat, rng)
        outcome = runtime.submit(game_id, seat, move, expected_version=version,
                                 idempotency_key=pe.move_key(kind, version, fallback=True), loaded=reloaded,
                                 platform_events=platform_events)
    except Problem as exc:
        if exc.kind in ("stale-version", "not-your-turn", "game-over"):
            return {"played": False, "why": exc.kind, "version": loaded.version}
        raise
    return {"played": True, "version": outcome.version, "move": move}


# -- the sweeper ---------------------------------------------------------------------------------
#
# Where it looks, so that a pass costs the same with ten idle games or ten thousand:
#   * ``bots:<game>:pending`` (a sorted set on the queue's Redis): game id -> when a bot turn was
#     last due there.  The runtime writes it before the append that leaves a bot to act
#     (``GameRuntime.before_bot_turn``), so a crash between the append and the jobs leaves an
#     entry, never a silent loss.  A pass reads only entries older than
#     BOT_STUCK_SECONDS: a game whose bot is still to act gets its job checked (and re-enqueued
#     if dead); a game where no bot is to act any more leaves the index.
#   * a slow lane, SCAN_PER_PASS games of the active set per pass (a cursor that wraps around):
#     it finds bot turns the index never heard of (a queue Redis that lost its data, a queue
#     Redis that was down when the turn was indexed), drops finished games from the active set,
#     and ends games nobody moved in for ``abandon_after`` seconds (shared.seats.abandon_if_idle).
#   * the game lists (``GET /games``), LIST_PRUNE_PER_PASS entries per pass (one ZSCAN step, the
#     lists one after another): entries of games that expired leave them, so a list that nobody
#     reads does not keep them until the creation cap prunes it.

SWEEP_BATCH = 500          # index entries handled per pass at most (the rest wait for the next)
SCAN_PER_PASS = 100        # active games visited per pass by the slow lane
LIST_PRUNE_PER_PASS = 100  # game-list entries checked per pass (expired ones leave the list)

# Remove an index entry only if nobody enqueued a turn there since the sweeper read it.
_REMOVE_IF_UNCHANGED = """
if redis.call('ZSCORE', KEYS[1], ARGV[1]) == ARGV[2] then
  return redis.call('ZREM', KEYS[1], ARGV[1])
end
return 0
"""


def pending_key(game_name: str) -> str:
    return f"bots:{game_name}:pending"


class Sweeper:
    """Re-enqueues bot turns that have no live job; one per game title, kept across passes."""

    def __init__(self, runtime: GameRuntime, bot_queue: BotQueue, scan_per_pass: int = SCAN_PER_PASS,
                 abandon_after: int = 0) -> None:
        self.runtime = runtime
        self.bot_queue = bot_queue
        self.scan_per_pass = scan_per_pass
        # Seconds without a move after which the slow lane ends a game as abandoned (0: never).
        self.abandon_after = abandon_after
        self.cursor = 0                    # the slow lane's place in the active set
        self.list_place = (0, 0)           # the list pruner's place: (which list, ZSCAN cursor)
        self._remove_if_unchanged = bot_queue.connection.register_script(_REMOVE_IF_UNCHANGED)

    def sweep(self) -> int:
        """One pass; returns how many bot turns it enqueued."""
        from shared.clocks import sweep_due      # late: shared.clocks imports this module
        enqueued = self.sweep_index() + self.scan_active() + sweep_due(self.runtime, self.bot_queue)
        self.prune_list()
        return enqueued

    def prune_list(self) -> int:
        """One bounded step through the game lists (``GET /games``): entries of expired games
        leave them here, not only on read or at the cap.  The lists are walked one after
        another, a step per pass; returns how many entries were dropped."""
        store = self.runtime.store
        which, cursor = self.list_place
        cursor, dropped = store.prune_listing_step(self.runtime.game.name, store.LIST_KEYS[which], cursor,
                                                   LIST_PRUNE_PER_PASS)
        self.list_place = (which, cursor) if cursor else ((which + 1) % len(store.LIST_KEYS), 0)
        return dropped

    def sweep_index(self) -> int:
        conn = self.bot_queue.connection
        key = pending_key(self.runtime.game.name)
        now = time.time()
        due = conn.zrangebyscore(key, "-inf", now - STUCK_AFTER_SECONDS, start=0, num=SWEEP_BATCH,
                                 withscores=True, score_cast_func=lambda raw: raw)
        enqueued = 0
        for member, score in due:
            game_id = member.decode()
            added, bot_to_act, watch = self.check_game(game_id)
            enqueued += added
            if watch:
                continue                                              # look again next pass
            if bot_to_act:
                conn.zadd(key, {game_id: now}, xx=True, gt=True)      # look again in BOT_STUCK_SECONDS
            else:
                self._remove_if_unchanged(keys=[key], args=[game_id, score])
        return enqueued

    def scan_active(self) -> int:
        store = self.runtime.store
        self.cursor, ids = store.redis.sscan(store.index_key(self.runtime.game.name), self.cursor,
                                             count=self.scan_per_pass)
        return sum(self.check_game(raw.decode(), abandon=True)[0] for raw in ids)

    def check_game(self, game_id: str, abandon: bool = False) -> tuple[int, bool, bool]:
        """(turns enqueued, whether a bot is to act, whether a job needs another look next pass)
        for one game; drops a game that is over from the active set.  ``abandon``: end the game
        as abandoned if nobody moved in it for ``abandon_after`` seconds (shared.seats)."""
        runtime, game_name = self.runtime, self.runtime.game.name
        meta = runtime.store.meta(game_id)
        # No meta: a creation that failed (or has yet to append); another title: an id collision.
        if meta is None or meta.get("status") not in ("active", "waiting") or meta.get("game") != game_name:
            runtime.store.index_active(game_name, game_id, False)
            return 0, False, False
        if abandon and self.abandon_after > 0 \
                and time.time() * 1000 - seats.last_move_ms(meta) >= self.abandon_after * 1000:
            if seats.abandon_if_idle(runtime, game_id, self.abandon_after) is not None:
                log.info("%s %s: no move for %d s; ended as abandoned", game_name, game_id, self.abandon_after)
                return 0, False, False
        players = json.loads(meta["players"])
        version = int(meta["version"])
        enqueued, bot_to_act, watch = 0, False, False
        for seat in json.loads(meta["to_act"]):
            if not players[seat].get("bot"):
                continue
            bot_to_act = True
            state = _job_state(self.bot_queue, job_id(game_name, game_id, version, seat))
            if state != "dead":
                watch = watch or state == "watch"
                continue
            if self.bot_queue.enqueue_turn(game_id, version, seat, players[seat]["bot"]):
                log.info("re-enqueued the bot turn of %s at version %d, seat %d", game_id, version, seat)
                enqueued += 1
        if enqueued:
            self.bot_queue.mark_pending(game_id)
        return enqueued, bot_to_act, watch


def sweep(runtime: GameRuntime, bot_queue: BotQueue, abandon_after: int = 0) -> int:
    """A whole pass at once: every due index entry and every active game (tests, one-off repairs)."""
    from shared.clocks import sweep_due
    sweeper = Sweeper(runtime, bot_queue, abandon_after=abandon_after)
    enqueued = sweeper.sweep_index() + sweep_due(runtime, bot_queue)
    while True:
        enqueued += sweeper.scan_active()
        if sweeper.cursor == 0:
            return enqueued


TAKEN_GRACE_SECONDS = 2.0   # how long a job may sit taken-but-not-started before its worker counts as dead


def _job_state(bot_queue: BotQueue, jid: str) -> str:
    """'alive', 'watch' (taken by a worker a moment ago: look again next pass) or 'dead'.

    Covers every state RQ 2 or 3 can leave a job in: queued (in the queue, or taken by a worker
    that died before starting it: RQ 3 parks it in ``<queue>:intermediate`` still marked queued),
    started (alive while its heartbeat is), scheduled (a retry: alive until a while after it was
    due, as the scheduler may be dead), deferred, finished without effect, failed, stopped,
    canceled.  A dead job is deleted, to make room for the turn's new one.
    """
    conn = bot_queue.connection
    try:
        job = Job.fetch(jid, connection=conn, serializer=JSONSerializer)
    except NoSuchJobError:
        return "dead"
    queue = bot_queue.queue_named(job.origin)      # the fast queue or the thinking one
    status = job.get_status(refresh=False)
    now = time.time()
    if status == JobStatus.QUEUED:
        if conn.lpos(queue.key, jid) is not None:
            return "alive"                # waiting for a worker
        if conn.lpos(queue.intermediate_queue_key, jid) is not None:
            # Taken by a worker, which marks it started a moment later, unless it died first.
            # The moment can be long on a busy machine: give it TAKEN_GRACE_SECONDS from when
            # the sweeper first saw it there (RQ's own first-seen mark, if RQ saw it first).
            intermediate = queue.intermediate_queue
            if intermediate.set_first_seen(jid):
                return "watch"
            first = intermediate.get_first_seen(jid)
            if first is not None and now - first.timestamp() < TAKEN_GRACE_SECONDS:
                return "watch"
    elif status == JobStatus.STARTED:
        beat = job.last_heartbeat or job.started_at
        if beat is not None and now - beat.timestamp() < STUCK_AFTER_SECONDS:
            return "alive"
    elif status == JobStatus.SCHEDULED:
        due = conn.zscore(queue.scheduled_job_registry.key, jid)
        if due is not None and now - due < STUCK_AFTER_SECONDS:
            return "alive"
    elif status == JobStatus.DEFERRED:
        if now - job.created_at.timestamp() < STUCK_AFTER_SECONDS:
            return "alive"
    log.warning("bot job %s is %s and will not run: deleting it to enqueue the turn again", jid, status)
    with conn.pipeline() as pipe:
        job.delete(pipeline=pipe)
        pipe.lrem(queue.intermediate_queue_key, 0, jid)
        pipe.lrem(queue.key, 0, jid)
        # RQ fails a job it has seen in the intermediate list for a minute: not the new one.
        pipe.delete(queue.intermediate_queue.get_first_seen_key(jid))
        pipe.execute()
    return "dead"
