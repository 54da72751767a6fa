"""Bot turns in RQ workers.

After every accepted move whose next actors include bots, the runtime calls
:meth:`BotQueue.enqueue_turns`: one job per bot seat, with a job id made of game, id, version
and seat, so enqueuing twice is harmless.  The job (:func:`shared.play.jobs.play_bot_turn`) is idempotent by
construction: it reloads the game, does nothing if the version moved or the seat is not to
act, and appends with the expected version and an idempotency key.  The sweeper re-enqueues
turns whose job vanished, failed or died with its worker (see :class:`shared.play.sweeper.Sweeper`).
"""
from __future__ import annotations

import logging
import os
import random
import time
from collections.abc import Callable, Iterable
from typing import Any

import redis
from rq import Queue, Retry
from rq.exceptions import DuplicateJobError, NoSuchJobError
from rq.job import Job, JobStatus
from rq.serializers import JSONSerializer

from shared.log import platform_events as pe
from shared.game.engine import Event, IllegalMove, Strategy, play_fair, random_strategy, thinks
from shared.play.problems import Problem
from shared.play import meta as gm
from shared.play.runtime import AppendNews, GameRuntime, LoadedGame, derive_seed
from shared.play.search import bot_budget_ms
from shared.game.strict import strict

log = logging.getLogger("bots")

JOB_TIMEOUT_SECONDS = 30
# A started job whose heartbeat is older than this is taken for dead (its worker was killed).
PLAY_BOT_TURN_JOB = "shared.play.jobs.play_bot_turn"   # the RQ job (by name: queued jobs outlive a deploy)
STUCK_AFTER_SECONDS = float(os.environ.get("BOT_STUCK_SECONDS", "60"))


def queue_name(game_name: str) -> str:
    return f"bots-{game_name}"


def pending_key(game_name: str) -> str:
    return f"bots:{game_name}:pending"


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

    # -- as the runtime's AppendListener --------------------------------------------------------
    def before_append(self, news: AppendNews) -> None:
        """A bot will be to act: note the game in the sweeper's index before the append, so that
        a process killed between the append and the enqueue leaves a trace it follows."""
        if news.bots:
            self.mark_pending(news.game_id)

    def appended(self, news: AppendNews) -> None:
        if news.bots:
            self.enqueue_turns(news.game_id, news.version, list(news.bots))

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
                PLAY_BOT_TURN_JOB, self.game_name, game_id, version, seat,
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
        players = gm.players_of(meta)
        return players[seat].get("bot") if 0 <= seat < len(players) else None
    return bot_of


def bot_queue_for(connection: redis.Redis[bytes], plugin: Any, runtime: GameRuntime | None = None) -> BotQueue:
    """The bot queue of ``plugin``'s game, routing its search bots' turns to the thinking queue."""
    bot_queue = BotQueue(connection, plugin.game.name, thinking_bots(plugin.strategies))
    if runtime is not None:
        bot_queue.bot_of = seat_bots(runtime)
    return bot_queue


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
    fallback bot, whose ``platform_events`` go into the same append, see shared.play.clocks)."""
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


TAKEN_GRACE_SECONDS = 2.0   # how long a job may sit taken-but-not-started before its worker counts as dead


def job_state(bot_queue: BotQueue, jid: str) -> str:
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
