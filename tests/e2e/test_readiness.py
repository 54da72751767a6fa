"""Readiness under real gunicorn: a Redis that hangs is reported within the probe's timeout."""
from __future__ import annotations

import signal
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import requests

from shared.ops import redis_server
from tests.e2e.conftest import Stack, wait_until

pytestmark = pytest.mark.e2e


def test_readyz_answers_503_in_time_while_redis_is_stopped(tmp_path: Path, stack_env: dict[str, str]) -> None:
    """A SIGSTOPped Redis accepts connections and never answers: the probe's ping gives up after
    READYZ_TIMEOUT_SECONDS, without retries, and readiness comes back once Redis resumes."""
    proc, url, _ = redis_server.start_server(data_dir=str(tmp_path))
    stack = Stack("race", {**stack_env, "REDIS_URL": url, "RQ_REDIS_URL": url, "READYZ_TIMEOUT_SECONDS": "1",
                                   "REDIS_POOL_SIZE": "4"})
    try:
        base = stack.start_web()
        assert requests.get(f"{base}/readyz", timeout=5).status_code == 200
        proc.send_signal(signal.SIGSTOP)
        # Requests stuck on the hung Redis hold every connection of the shared pool meanwhile.
        stuck = ThreadPoolExecutor(12)
        try:
            for _ in range(12):
                stuck.submit(requests.get, f"{base}/games/g{_}", timeout=60)
            time.sleep(0.5)
            for _ in range(2):          # a fresh connection, then the one the first probe left
                started = time.monotonic()
                # The client waits far longer than the probe's own timeout: a hang would show here.
                answer = requests.get(f"{base}/readyz", timeout=30)
                took = time.monotonic() - started
                assert answer.status_code == 503, answer.text
                assert answer.json()["reason"] == "not-ready"
                assert took < 4, f"/readyz took {took:.1f}s with a 1 s readiness timeout"
            assert requests.get(f"{base}/healthz", timeout=5).status_code == 200
        finally:
            proc.send_signal(signal.SIGCONT)
            stuck.shutdown()
        wait_until(lambda: requests.get(f"{base}/readyz", timeout=5).status_code == 200, "readiness after SIGCONT")
    finally:
        stack.stop()
        proc.send_signal(signal.SIGCONT)
        proc.terminate()
        proc.wait(5)
