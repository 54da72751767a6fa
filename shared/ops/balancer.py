"""A real load balancer (Debian's haproxy) in front of several instances of one game service.

Used by the scale-out tests (tests/e2e/test_scale_out.py) and ``make bench --only scaleout``;
its configuration is also the example deploy/README.md gives for running a service behind
haproxy.  ``balance`` is ``uri`` (consistent hashing on ``/games/<id>``: each game's requests
meet the instance whose process cache holds it; the one to deploy) or ``roundrobin`` (every
request to the next instance: each cache is behind half the time, the harsher test).
"""
from __future__ import annotations

import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

from shared.ops.redis_server import free_port

BALANCE = {
    "uri": "balance uri depth 2\n    hash-type consistent",      # /games/<id>: one game, one instance
    "roundrobin": "balance roundrobin",
}


def haproxy_config(port: int, backends: list[int], balance: str = "uri") -> str:
    """Health checks on /readyz (an instance that is stopping answers 503 there), a failed
    connection retried on another instance, timeouts above the feed's heartbeat (SSE streams
    pass through unbuffered)."""
    servers = "\n".join(f"    server web{i} 127.0.0.1:{p} check inter 500ms fall 2 rise 1"
                        for i, p in enumerate(backends))
    return f"""global
    maxconn 8192

defaults
    mode http
    timeout connect 2s
    timeout client 60s
    timeout server 60s
    timeout http-keep-alive 5s
    retries 3
    option redispatch 1
    # Kept-alive connections to the instances; one closed under a request (gunicorn ends idle ones
    # after its keepalive, a killed instance) sends it again elsewhere.  Moves are safe to resend:
    # clients give them an Idempotency-Key, and the service answers a repeat with the first answer.
    retry-on conn-failure empty-response
    http-reuse safe

frontend game
    bind 127.0.0.1:{port}
    default_backend web

backend web
    {BALANCE[balance]}
    option httpchk GET /readyz
{servers}
"""


class Balancer:
    """haproxy in the foreground (``-db``), on a free port, until :meth:`stop`."""

    def __init__(self, backends: list[int], balance: str = "uri") -> None:
        binary = shutil.which("haproxy") or "/usr/sbin/haproxy"
        self.port = free_port()
        self._dir = tempfile.TemporaryDirectory(prefix="haproxy-")
        config = Path(self._dir.name) / "haproxy.cfg"
        config.write_text(haproxy_config(self.port, backends, balance))
        self.proc = subprocess.Popen([binary, "-db", "-f", str(config)],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                break
            except OSError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("haproxy did not start") from None
                time.sleep(0.05)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(5)
        self._dir.cleanup()
