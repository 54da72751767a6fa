"""``make run`` (the runner): every service up, bots playing, Ctrl-C stops everything it started."""
from __future__ import annotations

import re
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import requests

from shared.ops import redis_server
from shared.game import registry
from tests.e2e.conftest import ROOT, kill_group, log_file, wait_until

pytestmark = pytest.mark.e2e


def test_runner_serves_every_game_and_stops_cleanly(stack_env: dict[str, str], tmp_path: Path) -> None:
    ports = {name: redis_server.free_port() for name in registry.available()}
    env = {**stack_env, **{f"{name.upper()}_PORT": str(port) for name, port in ports.items()}}
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)
    errors = tmp_path / "stderr"
    with log_file(errors) as stderr:
        runner = subprocess.Popen([sys.executable, "-m", "shared.ops.runner"], cwd=ROOT, env=env,
                                  stdout=subprocess.PIPE, stderr=stderr, text=True, start_new_session=True)
    try:
        for name, port in ports.items():
            # 13 processes import at once (four services, eight workers, a sweeper): on a busy
            # 2-core machine that alone takes tens of seconds.
            wait_until(lambda: requests.get(f"http://127.0.0.1:{port}/readyz", timeout=1).ok, f"{name} on {port}",
                       timeout=90)
        base = f"http://127.0.0.1:{ports['catan']}"
        game = requests.post(f"{base}/games", json={"players": [
            {"name": "a", "bot": "random"}, {"name": "b", "bot": "random"}, {"name": "c", "bot": "random"}]},
            timeout=5).json()
        # The runner's RQ worker plays the bots: the log grows without anyone posting.
        wait_until(lambda: requests.get(f"{base}/games/{game['id']}", timeout=5).json()["version"] > 10,
                   "the bots to play")

        # A worker killed -9 is started again; the others, and the game, carry on.
        worker = subprocess.run(["pgrep", "-P", str(runner.pid), "-f", "shared.play.worker --quiet catan"],
                                capture_output=True, text=True).stdout.split()
        assert len(worker) == 2, worker          # two a game: one may think through an expert's turn
        # Kill the one running RQ's scheduler (a forked child): its orphan is adopted and reaped by the
        # runner (PID 1 in a container may reap nothing, leaving a zombie in the runner's group).
        def with_scheduler() -> str | None:
            return next((pid for pid in worker
                         if subprocess.run(["pgrep", "-P", pid], capture_output=True).stdout), None)
        wait_until(lambda: with_scheduler() is not None, "a catan worker to start its scheduler")
        killed = with_scheduler() or "0"
        scheduler = subprocess.run(["pgrep", "-P", killed], capture_output=True, text=True).stdout.split()[0]
        os.kill(int(killed), signal.SIGKILL)
        time.sleep(0.2)
        try:    # the orphan (alive or a zombie) is the runner's now, until the runner reaps it
            orphan_parent = Path(f"/proc/{scheduler}/stat").read_text().rsplit(")", 1)[1].split()[1]
            assert orphan_parent == str(runner.pid)
        except FileNotFoundError:
            pass    # already reaped
        wait_until(lambda: re.search(r"catan worker \d exited \(killed by SIGKILL\); starting it again",
                                     errors.read_text()) is not None,
                   "the runner to notice")
        assert runner.poll() is None
        at = requests.get(f"{base}/games/{game['id']}", timeout=5).json()["version"]
        wait_until(lambda: requests.get(f"{base}/games/{game['id']}", timeout=5).json()["version"] > at + 5,
                   "the restarted worker to play", timeout=30)

        # Each service's /metrics counts its own series only (one multiprocess directory each).
        other = f"http://127.0.0.1:{ports['elasund']}"
        assert requests.get(f"{other}/games/nope", timeout=5).status_code == 404
        catan_metrics = requests.get(f"{base}/metrics", timeout=5).text
        elasund_metrics = requests.get(f"{other}/metrics", timeout=5).text
        assert 'game="catan"' in catan_metrics and 'game="elasund"' not in catan_metrics
        assert 'game="elasund"' in elasund_metrics and 'game="catan"' not in elasund_metrics
        # Log heads are signed with the development key make run made (.run/signing-key.pem).
        assert requests.get(f"{base}/games/{game['id']}/audit", timeout=30).json()["signature"]["kid"] \
            == requests.get(f"{base}/.well-known/game-log-keys.json", timeout=5).json()["keys"][0]["kid"]
    finally:
        runner.send_signal(signal.SIGINT)
        try:
            out, _ = runner.communicate(timeout=30)
        finally:
            # Whatever failed, nothing the runner started outlives the test: what it left behind
            # is counted (and judged below), then killed.
            leftovers = subprocess.run(["pgrep", "-g", str(runner.pid)], capture_output=True, text=True).stdout.split()
            kill_group(runner)
    assert runner.returncode == 0
    for port in ports.values():
        assert f"http://127.0.0.1:{port}" in out
        with pytest.raises(requests.ConnectionError):
            requests.get(f"http://127.0.0.1:{port}/healthz", timeout=1)
    assert leftovers == [], f"processes left behind: {leftovers}"


def test_no_redis_on_the_machine_starts_the_embedded_one(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    monkeypatch.setattr(redis_server, "DEFAULT_URL", f"redis://127.0.0.1:{redis_server.free_port()}/0")
    monkeypatch.chdir(tmp_path)
    url, proc = redis_server.ensure(None)
    try:
        assert proc is not None and "valkey" in proc.args[0]
        assert redis_server.answers(url)
        assert os.path.isdir(tmp_path / ".run" / "redis")
    finally:
        proc.terminate()
        proc.wait(5)
    with pytest.raises(redis_server.RedisUnavailable):      # tests/shared/test_redis_server.py: the cases
        redis_server.ensure("redis://example.invalid:1/0")
