"""The service workers' garbage-collector settings (shared.http.gc_tuning), read off real gunicorn workers."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import requests

from shared.http.gc_tuning import DEFAULT_THRESHOLDS, thresholds_from
from shared.ops.redis_server import free_port
from tests.wait import wait_until

ROOT = Path(__file__).resolve().parents[2]


def worker_gc(extra_env: dict[str, str]) -> dict[str, object]:
    """Start gunicorn with the production settings and ask its worker."""
    port = free_port()
    proc = subprocess.Popen(
        [str(Path(sys.executable).parent / "gunicorn"), "-c", str(ROOT / "deploy/gunicorn.conf.py"),
         "--bind", f"127.0.0.1:{port}", "tests.shared.gc_probe_wsgi:app"],
        cwd=ROOT, env={**os.environ, "ACCESS_LOG": "", **extra_env},
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        # Refused until gunicorn listens, unanswered until its worker has booted: both are "not yet".
        return dict(wait_until(lambda: requests.get(f"http://127.0.0.1:{port}/", timeout=5).json(),
                               "the gunicorn worker to answer", timeout=60))
    finally:
        proc.terminate()
        proc.wait(15)


@pytest.mark.e2e
def test_a_worker_freezes_what_it_loaded_and_collects_less_often() -> None:
    settings = worker_gc({})
    assert settings["thresholds"] == [int(x) for x in DEFAULT_THRESHOLDS.split(",")]
    assert isinstance(settings["frozen"], int) and settings["frozen"] > 1000   # gunicorn, the app, the stdlib


@pytest.mark.e2e
def test_the_thresholds_are_an_operators_setting() -> None:
    assert worker_gc({"GC_THRESHOLDS": "2000,5,5"})["thresholds"] == [2000, 5, 5]
    assert worker_gc({"GC_THRESHOLDS": ""})["thresholds"] == [700, 10, 10]      # CPython's own


def test_a_malformed_setting_is_refused_with_the_expected_form() -> None:
    assert thresholds_from("10000,10,10") == (10000, 10, 10)
    assert thresholds_from(" ") is None
    for bad in ("10000", "1,2,3,4", "-1,10,10", "a,b,c"):
        with pytest.raises(ValueError):
            thresholds_from(bad)
