"""METRICS_PORT under gunicorn: /metrics on a port of its own, beside the public one, and not on it."""
from __future__ import annotations

from typing import Any

import pytest
import requests

from shared.ops.redis_server import free_port
from tests.e2e.conftest import wait_until

pytestmark = pytest.mark.e2e


def test_gunicorn_serves_the_metrics_on_their_own_port_only(make_stack: Any) -> None:
    stack = make_stack("race")
    metrics_port = free_port()
    stack.env["METRICS_PORT"] = str(metrics_port)
    base = stack.start_web()
    created = requests.post(f"{base}/games", json={"players": [{"name": "a"}, {"name": "b"}]}, timeout=5)
    assert created.status_code == 201
    public = requests.get(f"{base}/metrics", timeout=5, headers={"Host": f"127.0.0.1:{metrics_port}"})
    assert public.status_code == 404 and "games_created_total" not in public.text
    internal = f"http://127.0.0.1:{metrics_port}/metrics"
    wait_until(lambda: requests.get(internal, timeout=1).ok, "the metrics port")
    assert 'games_created_total{game="race"} 1.0' in requests.get(internal, timeout=5).text
