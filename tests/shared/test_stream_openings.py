"""New SSE streams are opened a few at a time (shared.feed.StreamOpenings): a crowd reconnecting
at once cannot hold up the moves and probes behind it, and every other request passes untouched."""
from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

from shared.http.feed import StreamOpenings


def _environ(accept: str = "text/event-stream", path: str = "/games/g1/events") -> dict[str, Any]:
    return {"REQUEST_METHOD": "GET", "PATH_INFO": path, "HTTP_ACCEPT": accept}


class Counting:
    """A WSGI app that counts the requests inside it: from its call until the server asks for the
    answer's second chunk (what an opening holds its turn for)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.active = 0
        self.most = 0

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Iterator[bytes]:
        with self.lock:
            self.active += 1
            self.most = max(self.most, self.active)
        start_response("200 OK", [])
        return self.chunks()

    def chunks(self) -> Iterator[bytes]:
        yield b"retry: 2000\n\n"
        yield b"id: 1\ndata: {}\n\n"

    def leave(self) -> None:
        with self.lock:
            self.active -= 1


def _serve(wrapped: StreamOpenings, app: Counting, environ: dict[str, Any], chunks: list[bytes]) -> None:
    answer = wrapped(environ, lambda *a: None)
    iterator = iter(answer)
    chunks.append(next(iterator))
    time.sleep(0.02)                 # the head and first line being written: the turn is still held
    app.leave()
    chunks.extend(iterator)
    answer.close()


def test_openings_take_turns_and_each_stream_is_served_whole() -> None:
    app = Counting()
    wrapped = StreamOpenings(app, at_once=3)
    chunks: list[bytes] = []
    threads = [threading.Thread(target=_serve, args=(wrapped, app, _environ(), chunks)) for _ in range(15)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert app.most <= 3
    assert len(chunks) == 30


def test_other_requests_do_not_wait_for_a_turn() -> None:
    app = Counting()
    wrapped = StreamOpenings(app, at_once=1)
    held = wrapped(_environ(), lambda *a: None)      # the only turn, held (its first chunk not yet sent)
    served: list[bytes] = []
    others = [_environ("application/json"), _environ("text/event-stream", "/games/g1"),
              {**_environ(), "REQUEST_METHOD": "POST"}]
    threads = [threading.Thread(target=lambda e=e: served.extend(wrapped(e, lambda *a: None))) for e in others]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert len(served) == 6
    held.close()


def test_the_turn_is_given_back_when_the_answer_is_closed_early_or_fails() -> None:
    app = Counting()
    wrapped = StreamOpenings(app, at_once=1)
    wrapped(_environ(), lambda *a: None).close()      # a client gone before anything was sent

    def failing(environ: dict[str, Any], start_response: Any) -> Iterator[bytes]:
        raise RuntimeError("route failed")

    broken = StreamOpenings(failing, at_once=1)
    for _ in range(2):
        try:
            broken(_environ(), lambda *a: None)
        except RuntimeError:
            pass
    def open_one(target: StreamOpenings) -> None:
        try:
            target(_environ(), lambda *a: None).close()
        except RuntimeError:
            pass

    for target in (wrapped, broken):
        thread = threading.Thread(target=open_one, args=(target,))
        thread.start()
        thread.join(10)
        assert not thread.is_alive(), "the turn was never given back"
