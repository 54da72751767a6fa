"""Two instances of one service behind a real haproxy, on one Redis, each with its own process
cache: clients play whole games through the balancer while one instance is killed (SIGKILL) and
the other stopped gracefully (SIGTERM), each restarted.  No acknowledged move is lost, every refusal is one the client contract
retries, SSE followers resume with Last-Event-ID and miss nothing, and every game audits."""
from __future__ import annotations

import os
import random
import signal
import threading
import time
from typing import Any

import pytest
import requests

from shared.ops.balancer import Balancer
from shared.client.client import RETRY_STATUSES, GameClient
from tests.e2e.conftest import Stack, wait_until
from tests.e2e.test_feed import sse_messages

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

HUMAN_GAMES = 5          # every seat scripted over HTTP
BOT_GAMES = 2            # a scripted seat against a bot (an RQ worker plays it)
TARGET = 40              # the race's goal: about fifty moves a game


class RecordingSession(requests.Session):
    """Notes every refusal the balancer or a service answered (the client retries it or raises)."""

    def __init__(self, refusals: list[tuple[int, str]]) -> None:
        super().__init__()
        self.refusals = refusals

    def request(self, method: str, url: str, *args: Any, **kwargs: Any) -> requests.Response:  # type: ignore[override]
        response = super().request(method, url, *args, **kwargs)
        if response.status_code >= 400:
            try:
                reason = str(response.json().get("reason"))
            except ValueError:
                reason = "(not a problem document)"
            self.refusals.append((response.status_code, reason))
        return response


def play(lobby: GameClient, game: dict[str, Any], acknowledged: list[tuple[str, dict[str, Any]]],
         seed: int, stop: threading.Event) -> None:
    """Play every scripted seat of one game to its end (or until told to stop), through the client contract."""
    rng = random.Random(seed)
    gid = game["id"]
    seats = {p["seat"]: lobby.with_token(p["token"]) for p in game["players"] if p.get("token")}
    while not stop.is_set():
        view = lobby.game(gid)
        if view["status"] == "finished":
            return
        mine = [s for s in view["to_act"] if s in seats]
        if not mine:
            lobby.events(gid, after=view["version"], wait=5)          # a bot's turn: long-poll
            continue
        legal = seats[mine[0]].legal_moves(gid)
        if legal["moves"]:
            acknowledged.append((gid, seats[mine[0]].post_move(gid, rng.choice(legal["moves"]))))


def follow(base: str, gid: str, seen: list[int], stop: threading.Event, broken: list[str]) -> None:
    """An SSE follower that reconnects (with Last-Event-ID) whenever its stream ends or breaks."""
    headers = {"Accept": "text/event-stream"}
    while not stop.is_set():
        if seen:
            headers["Last-Event-ID"] = str(seen[-1])
        try:
            with requests.get(f"{base}/games/{gid}/events", headers=headers, stream=True, timeout=(2, 10)) as resp:
                if resp.status_code == 204:                     # finished, and we have it all
                    return
                if resp.status_code != 200:
                    time.sleep(0.2)
                    continue
                for message in sse_messages(resp):
                    if message.get("event") == "end":
                        return
                    if "id" in message:
                        seen.append(int(message["id"]))
        except requests.RequestException:
            broken.append(gid)                                 # the instance died under us
            time.sleep(0.1)


def test_two_instances_behind_haproxy_survive_a_crash_and_a_rolling_restart(make_stack: Any) -> None:
    stack: Stack = make_stack("race")
    stack.env.update({"SSE_HEARTBEAT_SECONDS": "2", "SWEEP_INTERVAL_SECONDS": "0.5"})
    ports = []
    for name in ("a", "b"):
        ports.append(int(stack.start_web(name).rsplit(":", 1)[1]))
    stack.start_worker()
    # As in a deployment: a crash between an append that leaves a bot to act and the enqueue of its
    # turn leaves that turn to the sweeper (bots:<game>:pending), not to the next request.
    stack.start_sweeper()
    balancer = Balancer(ports, balance="roundrobin")      # every cache is behind half the time
    threads: list[threading.Thread] = []
    try:
        refusals: list[tuple[int, str]] = []
        lobby = GameClient(balancer.url, timeout=10, retries=8, backoff=0.1, max_backoff=1.0,
                           session=RecordingSession(refusals))
        human = [{"name": "a"}, {"name": "b"}]
        games = [lobby.create_game(human, {"target": TARGET}) for _ in range(HUMAN_GAMES)]
        games += [lobby.create_game([{"name": "me"}, {"name": "bot", "bot": "roller"}], {"target": TARGET})
                  for _ in range(BOT_GAMES)]
        acknowledged: list[tuple[str, dict[str, Any]]] = []
        failures: list[BaseException] = []
        seen: dict[str, list[int]] = {g["id"]: [] for g in games}
        stop = threading.Event()          # set when the test ends, whatever its outcome
        broken: list[str] = []

        def guarded(target: Any, *args: Any) -> None:
            try:
                target(*args)
            except BaseException as exc:  # noqa: BLE001 - reported by the test
                failures.append(exc)

        threads += [threading.Thread(target=guarded, args=(follow, balancer.url, g["id"], seen[g["id"]],
                                                          stop, broken), daemon=True) for g in games]
        threads += [threading.Thread(target=guarded, args=(play, lobby, g, acknowledged, i, stop), daemon=True)
                    for i, g in enumerate(games)]
        for thread in threads:
            thread.start()
        players = threads[len(games):]
        # Strike each instance in turn while the games are under way: a crash (kill -9 of master and
        # worker, no goodbye), then a rolling restart (SIGTERM: in-flight requests finish, streams
        # end with a reconnect hint), each followed by a restart on the same port.
        for name, port, after, graceful in (("a", ports[0], 40, False), ("b", ports[1], 120, True)):
            wait_until(lambda: len(acknowledged) >= after or not any(t.is_alive() for t in players),
                       f"{after} moves", timeout=60)
            if graceful:
                stack.processes[name].send_signal(signal.SIGTERM)
                assert stack.processes[name].wait(20) == 0
            else:
                os.killpg(stack.processes[name].pid, signal.SIGKILL)
                stack.processes[name].wait(5)
            time.sleep(0.5)
            stack.start_web(name, port=port)
        for thread in players:
            thread.join(90)
        assert not failures, failures
        assert len(acknowledged) > 120, "the kills came after the games had ended"
        unfinished = {g["id"]: (view["status"], view["version"], view["to_act"])
                      for g in games for view in [lobby.game(g["id"])] if view["status"] != "finished"}
        assert not unfinished, f"games not finished (status, version, to act): {unfinished}"
        for thread in threads:
            thread.join(30)
        assert not failures, failures

        # No acknowledged move is lost: each answer's events are in the log, at their seq.
        logs = {g["id"]: lobby.events(g["id"], limit=1000)["events"] for g in games}
        in_log = {(gid, e["seq"]): e["type"] for gid, events in logs.items() for e in events}
        for gid, answer in acknowledged:
            assert answer["events"] and all(in_log.get((gid, e["seq"])) == e["type"] for e in answer["events"])
        for gid, events in logs.items():
            assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
            assert seen[gid] == [e["seq"] for e in events], f"the feed of {gid} missed or repeated events"
            assert lobby.audit(gid)["ok"]
        assert broken, "no stream was open on a killed instance"
        # Every refusal was one the contract retries: a failed or busy server (5xx), or a repeat
        # of a move whose first attempt is still being decided.
        for status, reason in refusals:
            assert status in RETRY_STATUSES or (status, reason) == (409, "request-in-progress"), refusals
    finally:
        stop.set()
        for thread in threads:
            thread.join(15)
        balancer.stop()
