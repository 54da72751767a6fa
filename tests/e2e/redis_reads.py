"""Counting what the services ask Redis, from Redis's MONITOR: the feed tests bound how many reads
a crowd of clients costs."""
from __future__ import annotations

import threading
from collections.abc import Iterable

import redis

GAME_READS = ("HGETALL", "HGET", "HMGET", "XRANGE")   # a game's meta and its log
LOG_READS = ("XRANGE",)                              # its log only


class Reads:
    """Counts the commands among ``verbs`` that read the keys of ``game_ids`` (their ``{g:<id>}``
    hash tag), while the ``with`` block runs."""

    def __init__(self, url: str, game_ids: Iterable[str], verbs: Iterable[str] = GAME_READS) -> None:
        self.url = url
        self.tags = tuple(f"{{g:{gid}}}" for gid in game_ids)
        self.verbs = frozenset(v.upper() for v in verbs)
        self.count = 0
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)

    def __enter__(self) -> Reads:
        self._thread.start()
        assert self._ready.wait(5), "MONITOR did not start"
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        redis.Redis.from_url(self.url).ping()        # a command, so the monitor returns and sees the stop
        self._thread.join(10)

    def _watch(self) -> None:
        with redis.Redis.from_url(self.url).monitor() as monitor:
            self._ready.set()
            while not self._stop.is_set():
                verb, _, rest = monitor.next_command()["command"].partition(" ")
                if verb.upper() in self.verbs and rest.startswith(self.tags):
                    self.count += 1
