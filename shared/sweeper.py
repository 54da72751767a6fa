"""Re-enqueue lost bot turns, forever: ``python -m shared.sweeper [game ...]``.

One sweeper per deployment is enough (it is idempotent, so two do no harm).
"""
from __future__ import annotations

import logging
import sys
import time

import redis

from shared import limits, registry
from shared.bots import BotQueue, sweep
from shared.config import Settings
from shared.runtime import GameRuntime
from shared.redis_clients import connect_event_store, connect_queue

log = logging.getLogger("sweeper")


def main(argv: list[str]) -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s sweeper %(message)s")
    settings = Settings.from_env()
    interval = float(__import__("os").environ.get("SWEEP_INTERVAL_SECONDS", "10"))
    store = connect_event_store(settings)
    rq_conn = connect_queue(settings)
    pairs = []
    for name in argv or registry.available():
        plugin = registry.plugin(name)
        pairs.append((GameRuntime(plugin.game, store, settings.snapshot_every), BotQueue(rq_conn, name)))
    while True:
        for runtime, queue in pairs:
            try:
                if n := sweep(runtime, queue):
                    log.info("re-enqueued %d bot turn(s) of %s", n, runtime.game.name)
                limits.janitor(store, runtime.game.name)   # expired games leave the active index
            except redis.RedisError as exc:
                log.warning("sweep of %s failed: %s", runtime.game.name, exc)
        time.sleep(interval)


if __name__ == "__main__":
    main(sys.argv[1:])
