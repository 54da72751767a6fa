"""A bot worker that rides out Redis faults: ``python -m shared.play.worker [--thinking] <game> [--url URL]``.

It runs RQ's ``SimpleWorker`` on the queue ``bots-<game>`` (with ``--thinking``:
``bots-<game>-thinking``, the search bots' turns, see shared.play.bots.BotQueue) with the JSON
serializer and a scheduler (the same as ``rq worker --serializer json --with-scheduler
--worker-class rq.worker.SimpleWorker bots-<game>``), but a Redis restart or blip does not end it:

* RQ's own work loop quits on any error outside its dequeue (its heartbeat and ``set_state``
  raise ``ConnectionError`` while Redis is away).  Here a worker that stopped without being
  asked to is logged and replaced by a fresh one, after a backoff (1 s doubling up to 5 s,
  reset once a worker has run for a minute).  A job it was running when Redis went away is
  left 'started'; the sweeper plays that turn again (``shared.play.sweeper.Sweeper``).
* RQ's scheduler process (it moves retries whose delay is over, and turn clocks' deadlines, to
  the queue) dies on the first error; :class:`ResilientScheduler` logs, backs off and carries on
  instead.  It stops when its worker is gone (a ``kill -9`` of the worker would otherwise leave
  it running).
* Deadlines to the millisecond: RQ scores scheduled jobs in whole seconds and looks once a
  second, so a deadline at ``ss.312`` would be taken up to a second early or late.  Turn clocks
  score their jobs to the millisecond (shared.play.clocks), and the scheduler looks every
  SCHEDULER_POLL_SECONDS with the time to the millisecond.
* A scheduler always comes back: one scheduler per queue holds a lock in Redis, which outlives a
  scheduler killed with its worker, or one that could not release it while Redis was away, by a
  minute (and RQ's worker tries again only every ten minutes).  Here a worker without a live
  scheduler tries again every SCHEDULER_CHECK_SECONDS, and a lock whose holder has not beaten
  for SCHEDULER_STALE_SECONDS is taken over.

SIGTERM / SIGINT stop it as they stop ``rq worker``: the current job finishes first (a second
signal stops at once).  The queue's Redis is ``--url``, else ``RQ_REDIS_URL``, else ``REDIS_URL``.
"""
from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
import threading
import time
from collections.abc import Iterable
from datetime import datetime, UTC
from typing import Any

import redis
from rq import Queue, SimpleWorker
from rq.job import Job
from rq.registry import ScheduledJobRegistry
from rq.scheduler import SCHEDULER_KEY_TEMPLATE, RQScheduler
from rq.serializers import JSONSerializer
from rq.utils import import_attribute, utcparse

from shared.play.bots import queue_name, thinking_queue_name
from shared.play.config import Settings
from shared.play.jobs import LEGACY_JOB_NAMES

log = logging.getLogger("worker")

REDIS_FAULTS = (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError)
MAX_BACKOFF_SECONDS = 5.0       # between a worker that stopped and the next (and RQ's own Redis retries)
HEALTHY_AFTER_SECONDS = 60.0     # a worker that ran this long resets the backoff
SCHEDULER_POLL_SECONDS = 0.1     # how often the scheduler moves due jobs to the queue
SCHEDULER_BEAT_SECONDS = 0.5     # how often it says it is alive (and refreshes its locks)
SCHEDULER_STALE_SECONDS = 2.0    # a lock whose holder has not beaten for this long is taken over
SCHEDULER_CHECK_SECONDS = 1      # how often a worker without a scheduler tries to start one
SCHEDULER_MAX_BACKOFF_SECONDS = 2.0

# KEYS[1] a queue's scheduler lock, KEYS[2] its holder's record; ARGV[1] the holder, ARGV[2] the
# heartbeat seen in its record ('' for none), ARGV[3] the new holder, ARGV[4] the lock's TTL.
# Taken only if neither changed since they were read: a holder that beat meanwhile keeps it.
_TAKE_STALE_LOCK = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if (redis.call('HGET', KEYS[2], 'last_heartbeat') or '') ~= ARGV[2] then return 0 end
redis.call('SET', KEYS[1], ARGV[3], 'EX', ARGV[4])
return 1
"""


class ToTheMillisecond(ScheduledJobRegistry):
    """RQ's registry of scheduled jobs, asked for due jobs with the time to the millisecond (RQ
    asks with whole seconds, which takes a job scored ``ss.312`` at ``ss.000``)."""

    def get_jobs_to_schedule(self, timestamp: int | None = None, chunk_size: int = 1000) -> list[str]:
        due = self.connection.zrangebyscore(self.key, 0, time.time(), start=0, num=chunk_size)
        return [raw.decode() if isinstance(raw, bytes) else raw for raw in due]


class ResilientScheduler(RQScheduler):
    """RQ's scheduler loop, except that a Redis fault is logged and waited out, not fatal; due jobs
    are taken to the millisecond, and a stale lock is taken over (see the module's notes)."""

    @property
    def should_reacquire_locks(self) -> bool:
        # RQ waits two minutes before a scheduler that lost its lock tries again.
        if self._queue_names == self.acquired_locks:
            return False
        return not self.lock_acquisition_time or \
            (datetime.now() - self.lock_acquisition_time).total_seconds() >= SCHEDULER_CHECK_SECONDS

    def acquire_locks(self, auto_start: bool = False) -> set[str]:
        for name in self._queue_names:
            self.take_if_stale(name)
        return super().acquire_locks(auto_start)

    def take_if_stale(self, queue: str) -> bool:
        """Take the queue's scheduler lock if its holder stopped beating; whether it did."""
        lock = self.get_locking_key(queue)
        raw = self.connection.get(lock)
        if raw is None:
            return False
        holder = raw.decode()
        if holder == self.name:
            return False
        record = SCHEDULER_KEY_TEMPLATE % holder
        beat = self.connection.hget(record, "last_heartbeat")
        if beat is not None:
            age = (datetime.now(UTC) - utcparse(beat.decode()).replace(tzinfo=UTC)).total_seconds()
            if age < SCHEDULER_STALE_SECONDS:
                return False
        taken = self.connection.eval(_TAKE_STALE_LOCK, 2, lock, record, holder, beat.decode() if beat else "",
                                     self.name, self.interval + 60)
        if taken:
            self.log.warning("scheduler: took over the lock of %s from %s (no heartbeat for %.0f s or more)",
                             queue, holder, SCHEDULER_STALE_SECONDS)
        return bool(taken)

    def prepare_registries(self, queue_names: Iterable[str] | None = None) -> None:
        self._scheduled_job_registries = [
            ToTheMillisecond(name, connection=self.connection, serializer=self.serializer)
            for name in (queue_names or self._acquired_locks)]

    def work(self) -> None:
        self._install_signal_handlers()
        backoff = 1.0
        born = False
        next_beat = 0.0
        parent = os.getppid()
        while not self._stop_requested:
            if os.getppid() != parent:
                # Its worker was killed (kill -9 gives it no chance to stop us): the worker that
                # replaces it starts its own scheduler, so this one steps aside.
                self.log.warning("scheduler: its worker is gone; stopping")
                break
            try:
                if not born:
                    self.register_birth()
                    born = True
                if time.monotonic() >= next_beat:
                    if self.should_reacquire_locks:
                        self.acquire_locks()
                    self.heartbeat()
                    next_beat = time.monotonic() + SCHEDULER_BEAT_SECONDS
                self.enqueue_scheduled_jobs()
                backoff = 1.0
            except REDIS_FAULTS as exc:
                self.log.warning("scheduler: Redis unavailable (%s); retrying in %.0f s", exc, backoff)
                self._nap(backoff)
                backoff = min(backoff * 2, SCHEDULER_MAX_BACKOFF_SECONDS)
                next_beat = 0.0
                continue
            self._nap(SCHEDULER_POLL_SECONDS)
        try:
            self.stop()
        except REDIS_FAULTS:
            pass        # its locks and record expire on their own (or are taken over)

    def _nap(self, seconds: float) -> None:
        """Sleep, but wake for a stop request (the worker waits for this process when it stops)."""
        deadline = time.monotonic() + seconds
        while not self._stop_requested and time.monotonic() < deadline:
            time.sleep(min(0.2, seconds))


class PortableJob(Job):
    """A job that still runs when its function moved: a job enqueued (or scheduled a week ahead) by an
    older release names the function where that release kept it (``LEGACY_JOB_NAMES``)."""

    @property
    def func(self) -> Any:
        moved = LEGACY_JOB_NAMES.get(self.func_name or "")
        return import_attribute(moved) if moved else super().func


class ResilientWorker(SimpleWorker):
    """``SimpleWorker`` with :class:`ResilientScheduler` and :class:`PortableJob`, remembering whether a
    stop was asked for."""

    job_class = PortableJob
    stop_asked = False
    max_connection_wait_time = MAX_BACKOFF_SECONDS     # RQ's own retries while Redis is away
    scheduler: ResilientScheduler | None
    _scheduler_checked = 0.0

    def request_stop(self, signum: Any, frame: Any) -> None:
        self.stop_asked = True
        super().request_stop(signum, frame)

    @property
    def dequeue_timeout(self) -> int:
        # The worker comes back from waiting for a job this often, to see to its scheduler.
        return min(super().dequeue_timeout, SCHEDULER_CHECK_SECONDS)

    def _start_scheduler(self, burst: bool = False, logging_level: str | None = "INFO",
                         date_format: str = "%H:%M:%S", log_format: str = "%(asctime)s %(message)s") -> None:
        # As RQ's own, with the scheduler class swapped (RQ has no hook for it).
        self.scheduler = scheduler = ResilientScheduler(
            self.queues, connection=self.connection,
            logging_level=logging_level if logging_level is not None else self.log.level,
            date_format=date_format, log_format=log_format, serializer=self.serializer)
        scheduler.acquire_locks()
        self._scheduler_checked = time.monotonic()
        if burst:
            self.scheduler = None    # a burst starts no scheduler process, now or later
        if not scheduler.acquired_locks:
            return
        if burst:       # one pass, in this process (tests and one-off runs)
            try:
                scheduler.register_birth()
                scheduler.enqueue_scheduled_jobs()
            finally:
                scheduler.release_locks()
                scheduler.register_death()
        else:
            scheduler.start()

    def heartbeat(self, timeout: int | None = None, pipeline: Any = None) -> None:
        super().heartbeat(timeout, pipeline)
        if pipeline is None:
            self.see_to_scheduler()

    def see_to_scheduler(self) -> None:
        """Start a scheduler if this worker has none running and the lock is free (or stale):
        RQ itself tries only at its maintenance, every ten minutes."""
        scheduler = self.scheduler
        if scheduler is None or time.monotonic() - self._scheduler_checked < SCHEDULER_CHECK_SECONDS:
            return
        if self._stop_requested:
            return          # stopping: RQ stopped the scheduler already, and must not meet a new one
        self._scheduler_checked = time.monotonic()
        process = scheduler._process
        if process is None or not process.is_alive():
            scheduler.acquire_locks(auto_start=True)

    def teardown(self) -> None:
        try:
            super().teardown()
        except REDIS_FAULTS as exc:
            # Registering its death needs Redis: the record expires on its own instead.
            log.warning("worker %s: could not register its death (%s)", self.name, exc)


def run(game: str, url: str, logging_level: str = "INFO", thinking: bool = False) -> int:
    """Run workers one after another until a signal asks to stop; returns the exit code."""
    stop = threading.Event()
    backoff = 1.0
    while True:
        started = time.monotonic()
        why = "its work loop ended"
        worker: ResilientWorker | None = None
        try:
            connection = redis.Redis.from_url(url)
            name = thinking_queue_name(game) if thinking else queue_name(game)
            queue = Queue(name, connection=connection, serializer=JSONSerializer)
            worker = ResilientWorker([queue], connection=connection, serializer=JSONSerializer)  # names itself in Redis
            worker.work(with_scheduler=True, logging_level=logging_level)
        except REDIS_FAULTS as exc:
            why = f"Redis unavailable: {exc}"
        except ValueError as exc:           # e.g. its name is taken: a fresh worker gets a new one
            why = str(exc)
        if worker is not None and worker.stop_asked:
            return 0
        # RQ's handlers belong to the worker that stopped: between workers a signal ends the loop.
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, lambda *_: stop.set())
        if time.monotonic() - started > HEALTHY_AFTER_SECONDS:
            backoff = 1.0
        log.warning("worker for %s stopped (%s); starting a new one in %.0f s", game, why, backoff)
        if stop.wait(backoff):
            return 0
        backoff = min(backoff * 2, MAX_BACKOFF_SECONDS)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m shared.play.worker", description=__doc__.splitlines()[0])
    parser.add_argument("game", help="the game whose bot turns to play (its queue is bots-<game>)")
    parser.add_argument("--url", default=None, help="the queue's Redis (default: RQ_REDIS_URL)")
    parser.add_argument("--quiet", action="store_true", help="log warnings and errors only")
    parser.add_argument("--thinking", action="store_true",
                        help="play the search bots' turns (queue bots-<game>-thinking) instead")
    args = parser.parse_args(argv)
    level = "WARNING" if args.quiet else "INFO"
    logging.basicConfig(level=level, format="%(asctime)s worker %(message)s")
    return run(args.game, args.url or Settings.from_env().rq_redis_url, level, thinking=args.thinking)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
