"""The whole HTTP contract through :class:`shared.client.client.GameClient`, against real gunicorn + RQ."""
from __future__ import annotations

import time
from typing import Any

import pytest
import requests
from requests.adapters import HTTPAdapter

from shared.play import turn_clock
from shared.game import registry
from shared.client.client import GameClient, ProblemError

pytestmark = pytest.mark.e2e

BOTS = [{"name": "greedy", "bot": "greedy"}, {"name": "rando", "bot": "random"}]


class LoseFirstAnswers(HTTPAdapter):
    """Sends the request for real, then pretends the connection dropped before the answer."""

    def __init__(self, failures: int) -> None:
        super().__init__()
        self.failures = failures
        self.sent = 0

    def send(self, request: Any, **kwargs: Any) -> requests.Response:  # type: ignore[override]
        response = super().send(request, **kwargs)
        self.sent += 1
        if self.failures > 0:
            self.failures -= 1
            raise requests.ConnectionError("connection reset (simulated)")
        return response


class FailFirstWith503(HTTPAdapter):
    """Answers 503 without sending the first ``failures`` requests."""

    def __init__(self, failures: int) -> None:
        super().__init__()
        self.failures = failures

    def send(self, request: Any, **kwargs: Any) -> requests.Response:  # type: ignore[override]
        if self.failures > 0:
            self.failures -= 1
            fake = requests.Response()
            fake.status_code, fake.url, fake.request = 503, request.url, request
            fake._content = b'{"status":503,"reason":"not-ready","detail":"simulated","title":"x","type":"x"}'
            fake.headers["Content-Type"] = "application/problem+json"
            return fake
        return super().send(request, **kwargs)


def session_with(adapter: HTTPAdapter) -> requests.Session:
    session = requests.Session()
    session.mount("http://", adapter)
    return session


def wait_for_turn(client: GameClient, gid: str, seat: int = 0) -> dict[str, Any]:
    """Long-poll until ``seat`` is to act (the bots play before it when it is not first)."""
    for _ in range(50):
        view = client.game(gid)
        if seat in view["to_act"] or view["status"] == "finished":
            return view
        client.events(gid, after=view["version"], wait=5)
    raise AssertionError("the seat never got its turn")


def test_full_contract_for_a_human_seat(catan: str) -> None:
    lobby = GameClient(catan, backoff=0.01)
    created = lobby.create_game([{"name": "me"}, *BOTS], seed=5)
    gid, seat0 = created["id"], created["players"][0]
    assert seat0["seat"] == 0 and seat0["token"] and created["players"][1]["token"] is None
    me = lobby.with_token(seat0["token"])

    view = wait_for_turn(me, gid)
    assert view["game"] == "catan" and view["you"] == 0 and view["status"] == "active"
    assert view["to_act"] == [0] and view["version"] >= created["version"]
    assert lobby.game(gid)["you"] is None                      # a spectator

    legal = me.legal_moves(gid)
    assert legal["seat"] == 0 and legal["version"] == view["version"] and legal["moves"]
    with pytest.raises(ProblemError) as caught:
        lobby.legal_moves(gid)
    assert caught.value.status == 401 and caught.value.reason == "unauthenticated"

    # An illegal move: a ProblemError with the rule's own reason; the game does not change.
    with pytest.raises(ProblemError) as caught:
        me.post_move(gid, {"type": "build_city", "node": 0})
    assert caught.value.status == 422 and caught.value.reason != "illegal-move"
    assert caught.value.body["type"].endswith("illegal-move") and caught.value.detail
    with pytest.raises(ProblemError) as caught:
        me.post_move(gid, {"type": "no_such_move"})
    assert caught.value.reason == "unknown-move-type"
    with pytest.raises(ProblemError) as caught:
        me.post_move(gid, legal["moves"][0], expected_version=legal["version"] - 1)
    assert caught.value.status == 409 and caught.value.reason == "stale-version"
    assert caught.value.current_version == legal["version"]
    with pytest.raises(ProblemError) as caught:
        lobby.game("nope")
    assert caught.value.status == 404 and caught.value.reason == "game-not-found"
    assert me.game(gid)["version"] == legal["version"]

    # The answer to the first POST is lost: the client retries with the same key, the server
    # answers from the log, and the move is played once.
    lossy = LoseFirstAnswers(failures=2)
    flaky_me = GameClient(catan, seat0["token"], backoff=0.01, session=session_with(lossy))
    move = legal["moves"][0]
    accepted = flaky_me.post_move(gid, move, expected_version=legal["version"], idempotency_key="k-1")
    assert lossy.sent == 3
    assert accepted["version"] == legal["version"] + len(accepted["events"])
    assert accepted["events"][0]["cause"] == {"kind": "move", "seat": 0, "move": move}
    # Asking again with that key (even with the old If-Match) gives the very same answer.
    again = me.post_move(gid, move, expected_version=legal["version"], idempotency_key="k-1")
    assert again == accepted
    log = me.events(gid, after=legal["version"])
    assert [e["seq"] for e in log["events"]][:len(accepted["events"])] == [e["seq"] for e in accepted["events"]]
    moved = [e for e in me.events(gid)["events"] if e.get("cause", {}).get("move") == move]
    assert len(moved) == 1
    with pytest.raises(ProblemError) as caught:
        me.post_move(gid, {"type": "end_turn"}, idempotency_key="k-1")
    assert caught.value.reason == "idempotency-key-reused"

    # A 5xx is retried too (and a key is generated when none is given).
    flaky = GameClient(catan, seat0["token"], backoff=0.01, session=session_with(FailFirstWith503(2)))
    legal = flaky.legal_moves(gid)
    second = flaky.post_move(gid, legal["moves"][0], expected_version=legal["version"])
    assert second["version"] > accepted["version"]
    no_retries = GameClient(catan, backoff=0.01, retries=0, session=session_with(FailFirstWith503(1)))
    with pytest.raises(ProblemError) as caught:
        no_retries.game(gid)
    assert caught.value.status == 503

    # Not our turn: two human seats, the one not to act tries to move.
    pair = lobby.create_game([{"name": "x"}, {"name": "y"}, {"name": "z"}], seed=1)
    first = lobby.game(pair["id"])["to_act"][0]
    idle = lobby.with_token(pair["players"][(first + 1) % 3]["token"])
    with pytest.raises(ProblemError) as caught:
        idle.post_move(pair["id"], {"type": "build_settlement", "node": 0})
    assert caught.value.status == 409 and caught.value.reason == "not-your-turn"
    assert caught.value.body["to_act"] == [first]

    # An events page; replay and audit of a running game.
    page = me.events(gid, after=0, limit=3)
    assert [e["seq"] for e in page["events"]] == [1, 2, 3] and page["status"] == "active"
    assert me.replay(gid, 1)["version"] == 1
    audit = lobby.audit(gid)
    assert audit["ok"] and audit["version"] >= second["version"]


def test_follow_a_bots_only_game_to_the_end_then_replay_and_audit(catan: str) -> None:
    client = GameClient(catan)
    created = client.create_game([{"name": "a", "bot": "greedy"}, *BOTS], seed=3)
    gid = created["id"]
    seen = list(client.follow(gid, wait=5))
    assert [e["seq"] for e in seen] == list(range(1, len(seen) + 1))
    final = client.game(gid)
    assert final["status"] == "finished" and final["result"]["winners"]
    assert seen[-1]["seq"] == final["version"]
    # Following a finished game from its end returns at once; from the middle, the rest.
    assert list(client.follow(gid, after=final["version"], wait=5)) == []
    assert [e["seq"] for e in client.follow(gid, after=final["version"] - 2)] == [final["version"] - 1, final["version"]]

    # A game cancelled while it waited for players ends its follow too (the server answers at once).
    waiting = client.create_game([{"name": "a"}, {"open": True}, BOTS[1]])
    host = client.with_token(waiting["host_token"])
    host.cancel(waiting["id"])
    events = list(client.follow(waiting["id"], wait=5))
    assert events[-1]["type"] == "platform.game_cancelled" and events[-1]["seq"] == waiting["version"] + 1

    last = client.replay(gid, final["version"])
    assert last["status"] == "finished" and last["result"] == final["result"]
    first = client.replay(gid, 1)
    assert first["version"] == 1 and first["status"] == "active"
    with pytest.raises(ProblemError) as caught:
        client.replay(gid, final["version"] + 1)
    assert caught.value.status == 422 and caught.value.reason == "validation-error"
    assert caught.value.errors == [("/query/version", f"Must be at most {final['version']}.")]
    assert str(caught.value).endswith(f"; /query/version: Must be at most {final['version']}.")

    audit = client.audit(gid)
    engine = registry.plugin("catan").game.engine_version
    signature = audit.pop("signature")        # present where the service has a key (SIGNING_KEY_FILE)
    assert signature is None or signature["signed"]["head"] == seen[-1]["hash"]
    assert audit == {"ok": True, "version": final["version"], "head_hash": seen[-1]["hash"],
                     "played_engine_version": engine, "audit_engine_version": engine,
                     "seeds": "verified", "seeded_by_client": True}


def test_unreachable_service_raises_after_retries() -> None:
    from shared.ops.redis_server import free_port
    client = GameClient(f"http://127.0.0.1:{free_port()}", timeout=1, retries=2, backoff=0.01)
    assert not client.healthy()
    with pytest.raises(requests.ConnectionError):
        client.game("x")


def test_a_turn_clock_is_set_through_the_client(catan: str) -> None:
    lobby = GameClient(catan)
    created = lobby.create_game([{"name": n} for n in "abc"], seed=5, turn_seconds=90, fallback_bot="random")
    view = lobby.with_token(created["players"][0]["token"]).game(created["id"])
    assert view["turn_seconds"] == 90
    [first] = view["to_act"]                                # one seat places first; only it has a clock
    [(seat, deadline)] = view["deadlines"].items()
    assert seat == str(first)
    assert 80 <= (turn_clock.iso_to_ms(deadline) / 1000 - time.time()) <= 91


def test_an_answer_cut_short_is_retried_like_a_lost_connection() -> None:
    """An instance killed mid-reply leaves a body shorter than its Content-Length: the client asks
    again (as after a dropped connection) and returns the whole answer of the second try."""
    import socket
    import threading

    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    whole = b'{"id": "g1", "version": 3}'
    answers = [b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n" + whole[:9],
               b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n" % len(whole)
               + whole]
    served: list[bytes] = []

    def serve() -> None:
        for answer in answers:
            conn, _ = listener.accept()
            served.append(conn.recv(65536))
            conn.sendall(answer)
            conn.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    client = GameClient(f"http://127.0.0.1:{port}", retries=2, backoff=0.01)
    assert client.game("g1") == {"id": "g1", "version": 3}
    thread.join(5)
    listener.close()
    assert len(served) == 2 and all(request.startswith(b"GET /games/g1 ") for request in served)
