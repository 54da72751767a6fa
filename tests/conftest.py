"""Test fixtures: a real Redis (never a fake), a clean database per test module."""
from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
import redis

from shared.ops import redis_server

# Every test is watched for threads it leaves running (they would hang the run at exit).
pytest_plugins = ["tests.suite_guard"]

# The suite replays games from chosen seeds: every Settings.from_env() and every stack it spawns
# takes them (the service's own default is off; tests of that build their settings with it off).
os.environ["ALLOW_CLIENT_SEED"] = "1"
# The suite creates games by the hundred from one address: no per-address limit, unless a test of
# the limit sets one itself.  (A limit reached half-way through would also make schemathesis's
# stateful runs depend on what ran before them: its bundles fill only on a 201.)
os.environ["CREATE_RATE_LIMIT"] = ""
os.environ["MAX_GAMES_PER_ADDRESS"] = "0"
# Strict mode (shared.game.strict): an error a bot, a search or a renderer would swallow, playing or
# drawing something plainer instead, fails the test.  Tests of those fallbacks switch it off.
os.environ["BOARDGAMES_STRICT"] = "1"


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """TEST_REDIS_URL as given (its database is emptied); else a private server on a free port.

    A private server per run means two suites on one machine (two checkouts, a developer and
    CI) never empty each other's data, and tests may restart or stop it without harm to others.
    """
    if os.environ.get("TEST_REDIS_URL"):
        yield os.environ["TEST_REDIS_URL"]
        return
    proc, url, _ = redis_server.start_server()
    yield url
    proc.terminate()
    proc.wait(5)


@pytest.fixture()
def redis_client(redis_url: str) -> Iterator[redis.Redis[bytes]]:
    client = redis.Redis.from_url(redis_url)
    client.flushdb()
    yield client
    client.close()
