"""Real processes: gunicorn serving a game service and an RQ worker playing its bots.

Each process writes its output to a log file of its own; a test that fails shows the last lines
of every log written while it ran."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import redis
import requests

from shared.ops.redis_server import free_port
from tests.wait import wait_until

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
TAIL_LINES = 40

# The log files of the processes started by the running test (see pytest_runtest_makereport).
LOGS: list[Path] = []


def log_file(path: Path) -> Any:
    """A process's log, opened for it to write, and shown if the test fails."""
    LOGS.append(path)
    return path.open("ab")


@dataclass
class Stack:
    """One service, its workers and the environment they share."""

    game: str
    env: dict[str, str]
    base_url: str = ""
    processes: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)
    log_dir: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="e2e-logs-")))

    @property
    def port(self) -> int:
        """The port of the first gunicorn started."""
        return int(self.base_url.rsplit(":", 1)[1])

    @property
    def wsgi(self) -> str:
        return "tests.shared.toy_wsgi:app" if self.game == "race" else f"services.{self.game}.wsgi:app"

    def start_web(self, name: str = "web", workers: int = 1, port: int | None = None) -> str:
        """gunicorn on ``port`` (a free one unless given: a restarted instance takes its old one)."""
        port = port or free_port()
        self.start(name, [str(BIN / "gunicorn"), "-c", str(ROOT / "deploy/gunicorn.conf.py"),
                          "--bind", f"127.0.0.1:{port}", "--workers", str(workers), self.wsgi])
        url = f"http://127.0.0.1:{port}"
        wait_until(lambda: requests.get(url + "/healthz", timeout=1).ok, f"gunicorn on {port}")
        self.base_url = self.base_url or url
        return url

    def start_worker(self, name: str = "worker") -> subprocess.Popen[bytes]:
        return self.start(name, [sys.executable, "-m", "shared.play.worker", "--quiet", self.game])

    def start_sweeper(self, name: str = "sweeper") -> subprocess.Popen[bytes]:
        return self.start(name, [sys.executable, "-m", "shared.play.sweeper", self.game])

    def start(self, name: str, argv: list[str]) -> subprocess.Popen[bytes]:
        """``argv`` in a process group of its own, its output in ``<log_dir>/<name>.log``."""
        with log_file(self.log_dir / f"{name}.log") as out:
            self.processes[name] = proc = subprocess.Popen(argv, cwd=ROOT, env=self.env, stdout=out,
                                                           stderr=subprocess.STDOUT, start_new_session=True)
        return proc

    def start_thinker(self, name: str = "thinker") -> subprocess.Popen[bytes]:
        """A worker on the search bots' queue (``--thinking``: their turns have workers of their own)."""
        return self.start(name, [sys.executable, "-m", "shared.play.worker", "--quiet", "--thinking", self.game])

    def stop(self) -> None:
        """Stop every process group this stack started: a worker killed on purpose leaves its
        scheduler child behind, and the group still holds it."""
        for proc in self.processes.values():
            _signal_group(proc, signal.SIGTERM)
        for proc in self.processes.values():
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                pass
            _signal_group(proc, signal.SIGKILL)


def _signal_group(proc: subprocess.Popen[bytes], sig: int) -> None:
    try:
        os.killpg(proc.pid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def kill_group(proc: subprocess.Popen[Any]) -> None:
    """Kill ``proc``'s process group (it was started with ``start_new_session``): everything it
    started there, whatever signals they ignore, and ``proc`` itself."""
    _signal_group(proc, signal.SIGKILL)
    proc.wait()


def _tails() -> str:
    parts = []
    for path in LOGS:
        lines = path.read_text(errors="replace").splitlines() if path.exists() else []
        parts.append(f"--- {path} ({len(lines)} lines, the last {TAIL_LINES}) ---\n" + "\n".join(lines[-TAIL_LINES:]))
    return "\n".join(parts)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test here starts real processes: marked ``e2e`` whether its module says so or not."""
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.e2e)


@pytest.fixture(autouse=True)
def _logs_of_this_test() -> Iterator[None]:
    LOGS.clear()
    yield


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    """A failed test's report ends with the last lines its processes wrote."""
    outcome = yield
    report = outcome.get_result()
    if report.failed and LOGS:
        report.sections.append(("process logs", _tails()))


def feed_subscribers(redis_url: str, game: str, game_id: str) -> int:
    """How many processes subscribe to a game's news: a long-poll or a stream waiting on it there."""
    from shared.log.news import channel
    client = redis.Redis.from_url(redis_url)
    try:
        return int(client.pubsub_numsub(channel(game, game_id))[0][1])
    finally:
        client.close()


@pytest.fixture()
def stack_env(redis_url: str, redis_client: Any) -> dict[str, str]:
    return {**os.environ, "REDIS_URL": redis_url, "RQ_REDIS_URL": redis_url, "ACCESS_LOG": "",
            "WEB_CONCURRENCY": "1", "BOT_STUCK_SECONDS": "3",
            # Stacks create many games from one address; the tests of the limit set their own.
            "CREATE_RATE_LIMIT": "", "GAME_SERVICES_EXTRA": "race=tests.shared.toygame"}


@pytest.fixture()
def make_stack(stack_env: dict[str, str], tmp_path: Path) -> Iterator[Any]:
    stacks: list[Stack] = []

    def make(game: str) -> Stack:
        log_dir = tmp_path / f"stack-{len(stacks)}"
        log_dir.mkdir()
        stack = Stack(game, dict(stack_env), log_dir=log_dir)
        stacks.append(stack)
        return stack

    yield make
    for stack in stacks:
        stack.stop()


@pytest.fixture()
def race_stack(make_stack: Callable[[str], Stack]) -> Callable[..., Stack]:
    """``race_stack(worker=False, **env)``: the toy game's stack with ``env`` added (each feed test
    sets the limits it is about), its gunicorn started, and a bot worker when asked."""
    def start(worker: bool = False, **env: str) -> Stack:
        stack = make_stack("race")
        stack.env.update(env)
        stack.start_web()
        if worker:
            stack.start_worker()
        return stack
    return start


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def create_race(base: str) -> dict[str, Any]:
    """A toy game between two people, seat 0 to act."""
    resp = requests.post(f"{base}/games", json={"players": [{"name": "a"}, {"name": "b"}]}, timeout=5)
    assert resp.status_code == 201, resp.text
    return dict(resp.json())


def play_one(base: str, game: dict[str, Any], move: str = "hold") -> int:
    """One move by whoever is to act (an ``ack`` when a 6 asks for one); the new version."""
    gid = game["id"]
    view = requests.get(f"{base}/games/{gid}", timeout=5).json()
    seat = view["to_act"][0]
    token = game["players"][seat]["token"]
    legal = requests.get(f"{base}/games/{gid}/legal-moves", headers=auth(token), timeout=5).json()["moves"]
    chosen = {"type": move} if {"type": move} in legal else legal[0]
    resp = requests.post(f"{base}/games/{gid}/moves", json=chosen, headers=auth(token), timeout=5)
    assert resp.status_code == 201, resp.text
    return int(resp.json()["version"])


def bots_game_to_the_end(base: str, bots: list[str], seed: int | None = None,
                         timeout: float = 180) -> tuple[str, dict[str, Any]]:
    """A game of ``bots`` only, created on the stack at ``base`` (whose worker plays them) and
    followed to its end: its id and its last view."""
    body: dict[str, Any] = {"players": [{"name": f"bot{i}", "bot": bot} for i, bot in enumerate(bots)]}
    if seed is not None:
        body["seed"] = seed
    created = requests.post(f"{base}/games", json=body, timeout=10)
    assert created.status_code == 201, created.text
    gid = created.json()["id"]
    deadline = time.monotonic() + timeout
    view: dict[str, Any] = {}
    while time.monotonic() < deadline:
        view = requests.get(f"{base}/games/{gid}", timeout=10).json()
        if view["status"] == "finished":
            return gid, view
        requests.get(f"{base}/games/{gid}/events", params={"after": view["version"], "wait": 5}, timeout=15)
    raise AssertionError(f"game {gid} did not finish in {timeout} s: version {view.get('version')}")
