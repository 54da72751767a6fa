"""Re-enqueue lost bot turns, forever: ``python -m shared.play.sweeper [game ...]``.

It also ends the games nobody moved in for ``ABANDON_AFTER_SECONDS`` (``platform.game_abandoned``,
see shared.play.seats), a few per pass through its slow lane.  One sweeper per deployment is enough
(it is idempotent, so two do no harm).  A pass costs the same however many idle games there are
(see :class:`Sweeper`), and a Redis fault only fails that pass: the next one tries
again.  SIGTERM stops it after the pass under way (as PID 1 in a container a process without a
handler would ignore it until the kill).
"""
from __future__ import annotations

import logging
import os
import signal
import sys
import threading
import time

import redis

from shared.game import registry
from shared.play import bots, seats
from shared.play import meta as gm
from shared.play.bots import BotQueue, bot_queue_for, job_id, job_state, pending_key
from shared.play.clocks import sweep_due
from shared.play.config import Settings
from shared.play.redis_clients import connect_event_store, connect_queue
from shared.play.runtime import GameRuntime

log = logging.getLogger("sweeper")


# -- the sweeper ---------------------------------------------------------------------------------
#
# Where it looks, so that a pass costs the same with ten idle games or ten thousand:
#   * ``bots:<game>:pending`` (a sorted set on the queue's Redis): game id -> when a bot turn was
#     last due there.  The runtime writes it before the append that leaves a bot to act
#     (``BotQueue.before_append``, told by the runtime), so a crash between the append and the jobs leaves an
#     entry, never a silent loss.  A pass reads only entries older than
#     BOT_STUCK_SECONDS: a game whose bot is still to act gets its job checked (and re-enqueued
#     if dead); a game where no bot is to act any more leaves the index.
#   * a slow lane, SCAN_PER_PASS games of the active set per pass (a cursor that wraps around):
#     it finds bot turns the index never heard of (a queue Redis that lost its data, a queue
#     Redis that was down when the turn was indexed), drops finished games from the active set,
#     and ends games nobody moved in for ``abandon_after`` seconds (shared.play.seats.abandon_if_idle).
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
        due = conn.zrangebyscore(key, "-inf", now - bots.STUCK_AFTER_SECONDS, start=0, num=SWEEP_BATCH,
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
        as abandoned if nobody moved in it for ``abandon_after`` seconds (shared.play.seats)."""
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
        players = gm.players_of(meta)
        version = int(meta["version"])
        enqueued, bot_to_act, watch = 0, False, False
        for seat in gm.to_act_of(meta):
            if not players[seat].get("bot"):
                continue
            bot_to_act = True
            state = job_state(self.bot_queue, job_id(game_name, game_id, version, seat))
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
    sweeper = Sweeper(runtime, bot_queue, abandon_after=abandon_after)
    enqueued = sweeper.sweep_index() + sweep_due(runtime, bot_queue)
    while True:
        enqueued += sweeper.scan_active()
        if sweeper.cursor == 0:
            return enqueued


def main(argv: list[str]) -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s sweeper %(message)s")
    settings = Settings.from_env()
    interval = float(os.environ.get("SWEEP_INTERVAL_SECONDS", "10"))
    store = connect_event_store(settings)
    rq_conn = connect_queue(settings)
    sweepers = []
    for name in argv or registry.available():
        plugin = registry.plugin(name)
        runtime = GameRuntime(plugin.newest_rules(), store, settings.snapshot_every, engines=plugin.rules)
        sweepers.append(Sweeper(runtime, bot_queue_for(rq_conn, plugin, runtime),
                                abandon_after=settings.abandon_after_seconds))
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    while not stop.is_set():
        for sweeper in sweepers:
            try:
                if n := sweeper.sweep():
                    log.info("re-enqueued %d bot turn(s) of %s", n, sweeper.runtime.game.name)
            except redis.RedisError as exc:
                log.warning("sweep of %s failed: %s", sweeper.runtime.game.name, exc)
        stop.wait(interval)


if __name__ == "__main__":
    main(sys.argv[1:])
