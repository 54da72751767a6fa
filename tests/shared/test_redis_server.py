"""Finding a Redis for ``make run``: a ``REDIS_URL`` that answers nothing is started on loopback,
or refused with a reason, never passed on silently."""
from __future__ import annotations

import socket
from pathlib import Path

import pytest
import redis

from shared.ops import redis_server


def test_a_loopback_url_that_answers_nothing_gets_the_embedded_server_on_its_port(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    port = redis_server.free_port()
    url = f"redis://:s%40cret@127.0.0.1:{port}/2"
    assert not redis_server.answers(url)
    answered, proc = redis_server.ensure(url)
    try:
        assert answered == url and proc is not None
        assert redis.Redis.from_url(url).ping()
        with pytest.raises(redis.AuthenticationError):       # the URL's password is the server's
            redis.Redis(port=port).get("x")
        assert (tmp_path / ".run" / "redis").is_dir()
        # Asked again while it runs, it is simply used.
        assert redis_server.ensure(url) == (url, None)
    finally:
        assert proc is not None
        proc.terminate()
        proc.wait(5)


def test_a_port_held_by_something_else_is_refused_saying_so() -> None:
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        with pytest.raises(redis_server.RedisUnavailable, match=f"port {port} is taken"):
            redis_server.ensure(f"redis://127.0.0.1:{port}/0")


@pytest.mark.parametrize("url", ["redis://192.0.2.1:6379/0", "rediss://127.0.0.1:{port}/0",
                                 "redis://someone:pw@127.0.0.1:{port}/0", "127.0.0.1:{port}",
                                 "redis://127.0.0.1:port/0"])
def test_a_url_that_cannot_be_started_here_is_refused_without_its_password(url: str) -> None:
    url = url.format(port=redis_server.free_port())
    with pytest.raises(redis_server.RedisUnavailable, match="answers nothing") as refused:
        redis_server.ensure(url)
    assert "pw@" not in str(refused.value)


def test_a_cluster_url_that_answers_nothing_is_not_replaced_by_one_server() -> None:
    url = f"redis://127.0.0.1:{redis_server.free_port()}/0"
    with pytest.raises(redis_server.RedisUnavailable, match="REDIS_CLUSTER"):
        redis_server.ensure(url, cluster=True)
    assert not redis_server.answers(url)


def test_passwords_are_hidden_from_what_is_printed() -> None:
    assert redis_server.redacted("redis://:pw@127.0.0.1:6390/0") == "redis://:***@127.0.0.1:6390/0"
    assert redis_server.redacted("redis://u:pw@h:1/0") == "redis://u:***@h:1/0"
    assert redis_server.redacted("redis://127.0.0.1:6379/0") == "redis://127.0.0.1:6379/0"
