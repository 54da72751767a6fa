"""Test fixtures: a real Redis (never a fake), a clean database per test module."""
from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
import redis

from shared import redis_server

TEST_DB = 9


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """TEST_REDIS_URL as given; else REDIS_URL or 127.0.0.1:6379 (database 9); else a private embedded server."""
    if os.environ.get("TEST_REDIS_URL"):
        yield os.environ["TEST_REDIS_URL"]
        return
    base = os.environ.get("REDIS_URL")
    proc = None
    if not base:
        if redis_server.answers(redis_server.DEFAULT_URL):
            base = redis_server.DEFAULT_URL
        else:
            proc, base, _ = redis_server.start_server()
    url = base.rsplit("/", 1)[0] + f"/{TEST_DB}"
    yield url
    if proc is not None:
        proc.terminate()
        proc.wait(5)


@pytest.fixture()
def redis_client(redis_url: str) -> Iterator["redis.Redis[bytes]"]:
    client = redis.Redis.from_url(redis_url)
    client.flushdb()
    yield client
    client.close()
