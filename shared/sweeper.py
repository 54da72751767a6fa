"""Re-enqueue lost bot turns, forever: ``python -m shared.sweeper [game ...]``.

It also ends the games nobody moved in for ``ABANDON_AFTER_SECONDS`` (``platform.game_abandoned``,
see shared.seats), a few per pass through its slow lane.  One sweeper per deployment is enough
(it is idempotent, so two do no harm).  A pass costs the same however many idle games there are
(see :class:`shared.bots.Sweeper`), and a Redis fault only fails that pass: the next one tries
again.  SIGTERM stops it after the pass under way (as PID 1 in a container a process without a
handler would ignore it until the kill).
"""
from __future__ import annotations

import logging
import os
import signal
import sys
import threading

import redis

from shared import registry
from shared.bots import Sweeper, bot_queue_for
from shared.config import Settings
from shared.runtime import GameRuntime
from shared.redis_clients import connect_event_store, connect_queue

log = logging.getLogger("sweeper")


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
