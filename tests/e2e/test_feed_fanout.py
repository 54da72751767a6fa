"""Fan-out by audience under real gunicorn: 200 readers of one game, streaming or long-polling,
as each of its four seats or as spectators, each see exactly their own redaction, and each
record is serialized once per audience, not once per reader (counted by a metric)."""
from __future__ import annotations

import json
import re
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
import redis
import requests

from shared.log.eventstore import EventStore
from shared.log.replay import served_record
from tests.e2e.conftest import auth, play_one, wait_until
from tests.e2e.test_feed import sse_messages
from tests.shared.toygame import RaceGame

pytestmark = pytest.mark.e2e

SEATS = 4
AUDIENCES: list[int | None] = [*range(SEATS), None]      # each seat, and the spectators
READERS = 200


def serializations(base: str) -> float:
    text = requests.get(f"{base}/metrics", timeout=5).text
    found = re.search(r'^feed_serializations_total\{game="race"\} (\S+)$', text, re.MULTILINE)
    return float(found.group(1)) if found else 0.0


class Reader:
    def __init__(self, base: str, gid: str, token: str | None, stream: bool) -> None:
        self.base, self.gid, self.stream = base, gid, stream
        self.headers = auth(token) if token else {}
        self.received: list[dict[str, Any]] = []
        self.done = threading.Event()

    def last(self) -> int:
        return self.received[-1]["seq"] if self.received else 0

    def run(self, target: list[int]) -> None:
        """Read until the event ``target[0]`` (set once the moves are made) has come."""
        if self.stream:
            resp = requests.get(f"{self.base}/games/{self.gid}/events", stream=True, timeout=60,
                                headers={**self.headers, "Accept": "text/event-stream"})
            for message in sse_messages(resp):
                if "data" in message and "id" in message:
                    self.received.append(json.loads(message["data"]))
                if target and self.last() >= target[0]:
                    break
            resp.close()
        else:
            while not (target and self.last() >= target[0]):
                page = requests.get(f"{self.base}/games/{self.gid}/events", headers=self.headers, timeout=60,
                                    params={"after": self.last(), "wait": 1}).json()
                self.received += page["events"]
        self.done.set()


def test_each_audience_is_served_its_own_bytes_serialized_once(race_stack: Any, redis_url: str) -> None:
    stack = race_stack(FEED_CONNECTIONS_PER_ADDRESS="0", SSE_HEARTBEAT_SECONDS="0.5", READ_RATE_LIMIT_PER_ADDRESS="")
    base = stack.base_url
    game = requests.post(f"{base}/games", timeout=5, json={
        "players": [{"name": f"p{i}"} for i in range(SEATS)], "options": {"target": 100}}).json()
    gid, tokens = game["id"], [p["token"] for p in game["players"]]
    readers = [Reader(base, gid, tokens[a] if a is not None else None, stream=i % 2 == 0)
               for i in range(READERS) for a in [AUDIENCES[i % len(AUDIENCES)]]]
    target: list[int] = []
    with ThreadPoolExecutor(READERS) as pool:
        running = [pool.submit(reader.run, target) for reader in readers]
        # Every reader has caught up with the setup: each record was served once per audience.
        caught_up = game["version"]
        wait_until(lambda: all(r.last() >= caught_up for r in readers), "the readers to catch up", timeout=60)
        before = serializations(base)
        assert before == len(AUDIENCES) * caught_up
        for _ in range(5):
            version = play_one(base, game, "hold")
        target.append(version)
        for future in running:
            future.result(timeout=90)
    after = serializations(base)
    assert after - before == len(AUDIENCES) * (version - caught_up)

    # Each reader saw exactly the log as its audience may see it, every event once, in order.
    records = EventStore(redis.Redis.from_url(redis_url)).read(gid)
    game_rules = RaceGame()
    expected = {a: [served_record(game_rules, r, a, False) for r in records] for a in AUDIENCES}
    for i, reader in enumerate(readers):
        audience = AUDIENCES[i % len(AUDIENCES)]
        assert reader.received == expected[audience][:version], f"reader {i} ({audience}, stream={reader.stream})"
    dealt = {a: [e["data"]["card"] for e in expected[a] if e["type"] == "card_dealt"] for a in AUDIENCES}
    assert dealt[None] == [None] * SEATS and all(dealt[s][s] is not None for s in range(SEATS))
