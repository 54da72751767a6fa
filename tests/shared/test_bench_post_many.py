"""The bench's load generator (``shared.bench.post_many``) keeps a client's moves going past a
failure it can retry, and counts what it could not, against a real HTTP server on a socket."""
from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from shared.ops.bench import post_many


class Flaky(BaseHTTPRequestHandler):
    """Every third request on a connection is answered 503 (a busy instance); a body ``refuse`` is a
    422 for good; ``drop`` closes the connection without an answer the first time a key is seen.

    Counted per connection (a handler serves one), not across them: with one count for all, the
    clients' retries could each land on a multiple of three, and a request met 503 on all its tries."""
    protocol_version = "HTTP/1.1"
    lock = threading.Lock()
    dropped: set[str] = set()
    seen = 0                     # requests on this handler's connection

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers["Content-Length"]))
        key = self.headers.get("Idempotency-Key", "")
        self.seen += 1
        busy = self.seen % 3 == 0
        with Flaky.lock:
            drop = body == b"drop" and key not in Flaky.dropped
            if drop:
                Flaky.dropped.add(key)
        if drop:
            self.close_connection = True
            self.connection.close()
            return
        status, answer = (503, {"reason": "busy"}) if busy else \
            (422, {"reason": "illegal-move"}) if body == b"refuse" else (201, {"version": 1})
        data = json.dumps(answer).encode()
        self.send_response(status)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def port() -> Iterator[int]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), Flaky)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.server_address[1]
    server.shutdown()
    server.server_close()


def test_retried_failures_lose_no_request(port: int) -> None:
    jobs = [[("/moves", {}, b"ok")] * 10 for _ in range(3)] + \
           [[("/games/g/moves", {}, b"ok"), ("/games/g/moves", {}, b"drop"), ("/games/g/moves", {}, b"ok")]]
    failures: dict[str, int] = {}
    _, latencies = post_many(port, jobs, failures)
    assert failures == {}
    assert len(latencies) == 33              # every 503 and the dropped connection were tried again


def test_a_move_refused_for_good_ends_its_script_only_and_is_counted(port: int) -> None:
    jobs = [[("/games/a/moves", {}, b"ok"), ("/games/a/moves", {}, b"refuse"), ("/games/a/moves", {}, b"ok")],
            [("/moves", {}, b"refuse"), ("/moves", {}, b"ok")],
            [("/games/b/moves", {}, b"ok")] * 5]
    failures: dict[str, int] = {}
    _, latencies = post_many(port, jobs, failures)
    assert failures == {"422 illegal-move": 2}
    assert len(latencies) == 1 + 1 + 5       # script a stops at its refusal; the bare list goes on
