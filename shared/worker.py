"""A bot worker that rides out Redis faults: ``python -m shared.worker <game> [--url URL]``.

It runs RQ's ``SimpleWorker`` on the queue ``bots-<game>`` with the JSON serializer and a
scheduler (the same as ``rq worker --serializer json --with-scheduler --worker-class
rq.worker.SimpleWorker bots-<game>``), but a Redis restart or blip does not end it:

* RQ's own work loop quits on any error outside its dequeue (its heartbeat and ``set_state``
  raise ``ConnectionError`` while Redis is away).  Here a worker that stopped without being
  asked to is logged and replaced by a fresh one, after a backoff (1 s doubling up to 30 s,
  reset once a worker has run for a minute).  A job it was running when Redis went away is
  left 'started'; the sweeper plays that turn again (``shared.bots.sweep``).
* RQ's scheduler process (it moves retries whose delay is over back to the queue) dies on the
  first error; :class:`ResilientScheduler` logs, backs off and carries on instead.  It stops
  when its worker is gone (a ``kill -9`` of the worker would otherwise leave it running).

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
from typing import Any

import redis
from rq import Queue, SimpleWorker
from rq.scheduler import RQScheduler
from rq.serializers import JSONSerializer

from shared.bots import queue_name
from shared.config import Settings

log = logging.getLogger("worker")

REDIS_FAULTS = (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError)
MAX_BACKOFF_SECONDS = 30.0
HEALTHY_AFTER_SECONDS = 60.0     # a worker that ran this long resets the backoff


class ResilientScheduler(RQScheduler):
    """RQ's scheduler loop, except that a Redis fault is logged and waited out, not fatal."""

    def work(self) -> None:
        self._install_signal_handlers()
        backoff = 1.0
        born = False
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
                if self.should_reacquire_locks:
                    self.acquire_locks()
                self.heartbeat()
                self.enqueue_scheduled_jobs()
                backoff = 1.0
            except REDIS_FAULTS as exc:
                self.log.warning("scheduler: Redis unavailable (%s); retrying in %.0f s", exc, backoff)
                self._nap(backoff)
                backoff = min(backoff * 2, MAX_BACKOFF_SECONDS)
                continue
            self._nap(self.interval)
        try:
            self.stop()
        except REDIS_FAULTS:
            pass        # its locks and record expire on their own


    def _nap(self, seconds: float) -> None:
        """Sleep, but wake for a stop request (the worker waits for this process when it stops)."""
        deadline = time.monotonic() + seconds
        while not self._stop_requested and time.monotonic() < deadline:
            time.sleep(min(0.2, seconds))


class ResilientWorker(SimpleWorker):
    """``SimpleWorker`` with :class:`ResilientScheduler`, remembering whether a stop was asked for."""

    stop_asked = False

    def request_stop(self, signum: Any, frame: Any) -> None:
        self.stop_asked = True
        super().request_stop(signum, frame)

    def _start_scheduler(self, burst: bool = False, logging_level: str | None = "INFO",
                         date_format: str = "%H:%M:%S", log_format: str = "%(asctime)s %(message)s") -> None:
        # As RQ's own, with the scheduler class swapped (RQ has no hook for it).
        self.scheduler = ResilientScheduler(
            self.queues, connection=self.connection,
            logging_level=logging_level if logging_level is not None else self.log.level,
            date_format=date_format, log_format=log_format, serializer=self.serializer)
        self.scheduler.acquire_locks()
        if self.scheduler.acquired_locks:
            self.scheduler.start()

    def teardown(self) -> None:
        try:
            super().teardown()
        except REDIS_FAULTS as exc:
            # Registering its death needs Redis: the record expires on its own instead.
            log.warning("worker %s: could not register its death (%s)", self.name, exc)


def run(game: str, url: str, logging_level: str = "INFO") -> int:
    """Run workers one after another until a signal asks to stop; returns the exit code."""
    stop = threading.Event()
    backoff = 1.0
    while True:
        started = time.monotonic()
        why = "its work loop ended"
        worker: ResilientWorker | None = None
        try:
            connection = redis.Redis.from_url(url)
            queue = Queue(queue_name(game), connection=connection, serializer=JSONSerializer)
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
    parser = argparse.ArgumentParser(prog="python -m shared.worker", description=__doc__.splitlines()[0])
    parser.add_argument("game", help="the game whose bot turns to play (its queue is bots-<game>)")
    parser.add_argument("--url", default=None, help="the queue's Redis (default: RQ_REDIS_URL)")
    parser.add_argument("--quiet", action="store_true", help="log warnings and errors only")
    args = parser.parse_args(argv)
    level = "WARNING" if args.quiet else "INFO"
    logging.basicConfig(level=level, format="%(asctime)s worker %(message)s")
    return run(args.game, args.url or Settings.from_env().rq_redis_url, level)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
