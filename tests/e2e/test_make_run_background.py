"""``make run`` started as a shell's background job (``make run &``): SIGINT still stops it and
everything it started.  And a ``REDIS_URL`` that answers nothing: the embedded server takes its
port on loopback, or the runner says why it cannot and stops before starting anything."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
import requests

from shared.ops import redis_server
from shared.game import registry
from tests.e2e.conftest import wait_until

pytestmark = pytest.mark.e2e


def ignore_sigint() -> None:
    """What a shell without job control does to a background job before it runs it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def group_members(pgid: int) -> list[str]:
    return subprocess.run(["pgrep", "-g", str(pgid)], capture_output=True, text=True).stdout.split()


def start_runner(env: dict[str, str], errors: Path) -> subprocess.Popen[str]:
    # Run from the test's directory: an embedded Redis keeps its files under ./.run/redis.
    return subprocess.Popen([sys.executable, "-m", "shared.ops.runner"], cwd=errors.parent, env=env,
                            stdout=subprocess.PIPE, stderr=errors.open("w"), text=True,
                            start_new_session=True, preexec_fn=ignore_sigint)


def stop_group(runner: subprocess.Popen[str]) -> None:
    """Whatever the test found, leave no process of the runner's group behind."""
    try:
        os.killpg(runner.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    runner.wait(10)


@pytest.fixture()
def runner_env(stack_env: dict[str, str]) -> dict[str, str]:
    ports = {name: redis_server.free_port() for name in registry.available()}
    env = {**stack_env, **{f"{name.upper()}_PORT": str(port) for name, port in ports.items()}, "BOT_WORKERS": "1"}
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)
    return env


def test_sigint_stops_a_runner_started_in_the_background(runner_env: dict[str, str], tmp_path: Path) -> None:
    # A loopback REDIS_URL that nothing serves (as when 6379 is taken and a person picks another port).
    redis_url = f"redis://127.0.0.1:{redis_server.free_port()}/0"
    runner_env.update(REDIS_URL=redis_url, RQ_REDIS_URL=redis_url)
    runner_env.pop("ALLOW_CLIENT_SEED")            # as a person's shell: the suite turns it on for itself
    runner = start_runner(runner_env, tmp_path / "stderr")
    try:
        for name in registry.available():
            port = runner_env[f"{name.upper()}_PORT"]
            wait_until(lambda: requests.get(f"http://127.0.0.1:{port}/readyz", timeout=1).ok, f"{name} on {port}",
                       timeout=90)
        assert len(group_members(runner.pid)) > len(registry.available())
        # Client seeds are refused unless ALLOW_CLIENT_SEED=1: whoever picks one foresees the game.
        catan = f"http://127.0.0.1:{runner_env['CATAN_PORT']}"
        seeded = requests.post(f"{catan}/games", timeout=5, json={
            "players": [{"name": "a"}, {"name": "b", "bot": "random"}, {"name": "c", "bot": "random"}], "seed": 7})
        assert (seeded.status_code, seeded.json()["type"].rsplit("/", 1)[-1]) == (422, "seed-not-allowed")
        runner.send_signal(signal.SIGINT)
        out, _ = runner.communicate(timeout=60)
        assert runner.returncode == 0, (tmp_path / "stderr").read_text()
        assert "Ctrl-C stops everything." in out
        assert f"Redis: {redis_url} (embedded, started by make run)" in out
        assert group_members(runner.pid) == [], "processes left behind"
        assert not redis_server.answers(redis_url)
    finally:
        stop_group(runner)


def test_a_redis_url_that_answers_nothing_elsewhere_stops_the_runner_saying_why(
        runner_env: dict[str, str], tmp_path: Path) -> None:
    runner_env.update(REDIS_URL="redis://192.0.2.1:6379/0", RQ_REDIS_URL="")
    runner = start_runner(runner_env, tmp_path / "stderr")
    try:
        out, _ = runner.communicate(timeout=60)
    finally:
        stop_group(runner)
    assert runner.returncode == 1
    errors = (tmp_path / "stderr").read_text()
    assert "make run: REDIS_URL=redis://192.0.2.1:6379/0 answers nothing" in errors
    assert "http://" not in out                # no service was started, none announced
