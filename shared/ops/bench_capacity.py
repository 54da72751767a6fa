"""Spectators and capacity: the parts of ``make bench`` that count CPU rather than requests.

* ``spectators``: a thousand SSE spectators on one bot game that moves as fast as its random bots
  allow (then on the next game, when it ends), while 16 clients play moves in other games and a
  probe asks ``/healthz``: move and probe p99, the web process's CPU per event delivered, the load
  generator's own CPU, and whether every spectator received every event exactly once and in
  order (violations are counted, never asserted).
* ``capacity``: CPU per move on the web process, on Redis and on the bot worker (per bot level),
  what one web core, one Redis shard and one worker core sustain, the scale-out bench's CPU per
  move with one and two instances and on a Redis Cluster, and a sizing table derived from them.

On a small machine the load generator shares the cores with what it measures, so throughput says
little; CPU accounting (``/proc`` for our processes, ``INFO`` for Redis) says what each part costs.
"""
from __future__ import annotations

import http.client
import json
import math
import os
import re
import selectors
import signal
import socket
import statistics
import subprocess
import threading
import time
from dataclasses import dataclass, field
from typing import Any, cast

import redis
from rq import Queue

from shared.game import registry
from shared.ops.bench import (BIN, ROOT, CrowdHost, Server, bench_scaleout, cpu_seconds, emit, host_crowd,
                              percentile, post_many, post_until_settled, redis_cpu_seconds, scripted_games)
from shared.log.eventstore import EventStore
from shared.play.bots import queue_name, thinking_queue_name

GAME = "catan"
SOURCE_ADDRESSES = 250      # spectators come from 127.0.0.2 .. 127.0.0.251 (all of 127/8 is loopback)


# -- CPU accounting --------------------------------------------------------------------------------

def redis_command_seconds(clients: list[redis.Redis[bytes]]) -> float:
    """Time the Redis servers spent executing commands so far (``INFO commandstats``, usec totals)."""
    total = 0
    for client in clients:
        for stats in client.info("commandstats").values():
            total += int(stats["usec"])
    return total / 1e6


def tree_cpu_seconds(pid: int) -> float:
    """CPU of a process and its children (an ``rq worker`` and whatever it forked)."""
    children = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout.split()
    return cpu_seconds(pid) + sum(cpu_seconds(int(child)) for child in children)


def start_worker(url: str, env: dict[str, str]) -> subprocess.Popen[bytes]:
    """One RQ ``SimpleWorker`` on both of the game's bot queues (a bot turn per job, in this process):
    the search bots' turns go to the thinking queue (shared.play.bots.BotQueue)."""
    return subprocess.Popen([str(BIN / "rq"), "worker", "--url", url, "--serializer", "json",
                             "--worker-class", "rq.worker.SimpleWorker", "--quiet", queue_name(GAME),
                             thinking_queue_name(GAME)],
                            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def stop_worker(worker: subprocess.Popen[bytes]) -> None:
    worker.send_signal(signal.SIGTERM)         # finishes the turn it is playing
    try:
        worker.wait(30)
    except subprocess.TimeoutExpired:
        worker.kill()
        worker.wait(5)


def create_game(port: int, players: list[dict[str, Any]], **options: Any) -> dict[str, Any]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("POST", "/games", body=json.dumps({"players": players, **options}),
                 headers={"Content-Type": "application/json"})
    resp = conn.getresponse()
    body = resp.read()
    if resp.status != 201:
        raise RuntimeError(f"POST /games: {resp.status} {body[:300]!r}")
    return cast(dict[str, Any], json.loads(body))


def wait_until(condition: Any, seconds: float, step: float = 0.05) -> bool:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(step)
    return True


@dataclass
class Played:
    """What :func:`play_retrying` saw: each move's latency (its retries included), and the rest."""
    seconds: float = 0.0
    latencies: list[float] = field(default_factory=list)
    retries: dict[str, int] = field(default_factory=dict)     # why a move was sent again
    failures: dict[str, int] = field(default_factory=dict)    # why a client gave up its script


def play_retrying(port: int, jobs: list[list[tuple[str, dict[str, str], bytes]]], played: Played,
                  attempts: int = 8, timeout: float = 60.0, deadline: float = math.inf) -> None:
    """Like ``post_many`` (a thread and a keep-alive connection per job list), but as the project's
    clients behave (shared/client/client.py): each move carries an Idempotency-Key and is sent again after
    a timeout, a lost connection or a 5xx.  A move refused for good ends its client's list (the
    moves after it were scripted for a game it did not reach) and is counted.  No move starts
    after ``deadline`` (``time.monotonic()``): a saturated server must not hold the bench for ever."""
    lock = threading.Lock()

    def count(into: dict[str, int], why: str) -> None:
        with lock:
            into[why] = into.get(why, 0) + 1

    def run(requests_: list[tuple[str, dict[str, str], bytes]]) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
        mine = []
        for path, headers, body in requests_:
            if time.monotonic() > deadline:
                break
            key = {"Idempotency-Key": f"bench-{os.urandom(8).hex()}"}
            start = time.perf_counter()
            why = post_until_settled(conn, path, body, {**headers, **key}, attempts, pause=0.2,
                                     on_retry=lambda why: count(played.retries, why))
            if why:
                count(played.failures, why)
                break
            mine.append(time.perf_counter() - start)
        with lock:
            played.latencies.extend(mine)

    threads = [threading.Thread(target=run, args=(job,), daemon=True) for job in jobs]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    played.seconds += time.perf_counter() - start


class Prober:
    """``GET /healthz`` every 20 ms on one keep-alive connection, in a thread, until :meth:`stop`."""

    def __init__(self, port: int) -> None:
        self.latencies: list[float] = []
        self._stop = threading.Event()
        self._port = port
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", self._port, timeout=30)
        while not self._stop.is_set():
            start = time.perf_counter()
            conn.request("GET", "/healthz")
            conn.getresponse().read()
            self.latencies.append(time.perf_counter() - start)
            time.sleep(0.02)

    def stop(self) -> list[float]:
        self._stop.set()
        self._thread.join(30)
        return self.latencies


# -- spectators --------------------------------------------------------------------------------------

@dataclass
class Spectator:
    """One spectator: an SSE stream read incrementally (HTTP head, chunked framing, SSE messages),
    following the featured table from game to game; its counts go on across connections."""
    address: str                               # where it connects from
    game: int = 0                              # which of the crowd's games it is watching
    last: int = 0                              # the last seq received in that game
    raw: bytearray = field(default_factory=bytearray)
    body: bytearray = field(default_factory=bytearray)
    status: int | None = None
    chunked: bool = False
    closed: bool = False
    ended: bool = False                        # the server said ``event: end`` for this game
    received: dict[int, int] = field(default_factory=dict)   # game -> events received
    duplicates: int = 0                        # a seq at or below one already received
    gaps: int = 0                              # a seq beyond the next one (events skipped)
    last_comment: str = ""

    def reset(self) -> None:
        """A new connection: its HTTP framing starts over."""
        self.raw, self.body, self.status, self.chunked, self.closed = bytearray(), bytearray(), None, False, False
        self.last_comment = ""

    def feed(self, data: bytes) -> int:
        """Take bytes off the socket; returns how many events they completed."""
        self.raw += data
        if self.status is None:
            head, sep, rest = bytes(self.raw).partition(b"\r\n\r\n")
            if not sep:
                return 0
            lines = head.split(b"\r\n")
            self.status = int(lines[0].split()[1])
            self.chunked = any(line.lower() == b"transfer-encoding: chunked" for line in lines[1:])
            self.raw = bytearray(rest)
            if self.status != 200:
                self.closed = True              # 204: the game is over and read; else a refusal
                self.ended = self.status == 204
                found = re.search(rb'"reason": ?"([^"]+)"', rest)
                self.last_comment = f"{self.status} {found.group(1).decode() if found else ''}".strip()
                return 0
        if self.chunked:
            self._dechunk()
        else:
            self.body += self.raw
            del self.raw[:]
        return self._messages()

    def _dechunk(self) -> None:
        while True:
            line_end = self.raw.find(b"\r\n")
            if line_end < 0:
                return
            size = int(bytes(self.raw[:line_end]).split(b";")[0], 16)
            if size == 0:
                self.closed = True
                del self.raw[:]
                return
            if len(self.raw) < line_end + 2 + size + 2:
                return
            self.body += self.raw[line_end + 2:line_end + 2 + size]
            del self.raw[:line_end + 2 + size + 2]

    def _messages(self) -> int:
        events = 0
        while True:
            end = self.body.find(b"\n\n")
            if end < 0:
                return events
            message = bytes(self.body[:end])
            del self.body[:end + 2]
            for line in message.split(b"\n"):
                if line.startswith(b"id: "):
                    seq = int(line[4:])
                    if seq <= self.last:
                        self.duplicates += 1
                        continue
                    if seq > self.last + 1:
                        self.gaps += 1
                    self.last = seq
                    self.received[self.game] = self.received.get(self.game, 0) + 1
                    events += 1
                elif line == b"event: end":
                    self.ended = True
                elif line.startswith(b": "):
                    self.last_comment = line[2:].decode(errors="replace")


class SpectatorCrowd:
    """``count`` spectators of a featured table: SSE streams on one game, then on the next one once
    it ends, read by one thread through a selector (no thread per stream), each from one of many
    loopback addresses as spectators come from many hosts, in a process of its own
    (:class:`CrowdHost`).  A stream that closes before ``event:
    end`` is opened again with ``Last-Event-ID``, as a browser's ``EventSource`` does; a refusal
    (a 5xx, a 429) is tried again after a second, as the project's clients do."""

    def __init__(self, port: int, game_id: str, after: int, count: int) -> None:
        self._selector = selectors.DefaultSelector()
        self._stop = threading.Event()
        self._port = port
        self.games: list[tuple[str, int]] = [(game_id, after)]    # the table's games and where each began
        self.spectators = [Spectator(address=f"127.0.0.{2 + i % SOURCE_ADDRESSES}", last=after)
                           for i in range(count)]
        self._idle: list[tuple[float, Spectator]] = []             # (when to connect, who)
        self.delivered = 0                      # events received by all spectators together
        self.reconnects = 0
        self.closed_early: dict[str, int] = {}  # why streams closed before the end (their last comment)
        self.refusals: dict[str, int] = {}      # "status reason" -> how many times a stream was refused
        self.reader_cpu_seconds = 0.0
        for spectator in self.spectators:
            self._connect(spectator)
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def next_game(self, game_id: str, after: int) -> None:
        """The table's next game: spectators move on to it as they finish the one before."""
        self.games.append((game_id, after))

    def _connect(self, spectator: Spectator) -> None:
        game_id, start = self.games[spectator.game]
        resume = f"Last-Event-ID: {spectator.last}\r\n" if spectator.last > start else ""
        request = (f"GET /games/{game_id}/events?after={start} HTTP/1.1\r\nHost: bench\r\n"
                   f"Accept: text/event-stream\r\n{resume}\r\n").encode()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind((spectator.address, 0))
        sock.connect(("127.0.0.1", self._port))
        sock.sendall(request)
        sock.setblocking(False)
        spectator.reset()
        self._selector.register(sock, selectors.EVENT_READ, spectator)

    def _read(self) -> None:
        while not self._stop.is_set():
            for key, _ in self._selector.select(timeout=0.05):
                spectator = cast(Spectator, key.data)
                sock = cast(socket.socket, key.fileobj)
                try:
                    chunk = sock.recv(262144)
                except (BlockingIOError, InterruptedError):
                    continue
                except OSError:
                    chunk = b""
                self.delivered += spectator.feed(chunk) if chunk else 0
                if chunk and not spectator.closed:
                    continue
                self._selector.unregister(sock)
                sock.close()
                self._closed(spectator)
            now = time.monotonic()
            due = [entry for entry in self._idle if entry[0] <= now]
            for entry in due:
                spectator = entry[1]
                if spectator.ended:             # waiting for the table's next game
                    if spectator.game + 1 >= len(self.games):
                        continue
                    spectator.game += 1
                    spectator.last, spectator.ended = self.games[spectator.game][1], False
                self._idle.remove(entry)
                self._connect(spectator)
        self.reader_cpu_seconds = time.thread_time()

    def _closed(self, spectator: Spectator) -> None:
        if spectator.ended:
            self._idle.append((0.0, spectator))
        elif spectator.status not in (None, 200):
            self.refusals[spectator.last_comment] = self.refusals.get(spectator.last_comment, 0) + 1
            self._idle.append((time.monotonic() + 1.0, spectator))
        else:
            reason = spectator.last_comment or "connection closed"
            self.closed_early[reason] = self.closed_early.get(reason, 0) + 1
            self.reconnects += 1
            self._idle.append((0.0, spectator))

    def streaming(self) -> int:
        return sum(1 for s in self.spectators if s.status == 200)

    def delivered_so_far(self) -> int:
        return self.delivered

    def cpu_seconds(self) -> float:
        """CPU the crowd's process has used so far (its reading and its proxies' answers)."""
        return time.process_time()

    def check(self, expected: dict[int, int], games: int, final: int) -> dict[str, int]:
        """Whether every spectator got every event of every table game once and in order."""
        wrong = [s for s in self.spectators
                 if s.duplicates or s.gaps or any(s.received.get(k, 0) != n for k, n in expected.items())]
        return {
            "spectators_behind": sum(1 for s in self.spectators if s.game < games - 1 or s.last < final),
            "spectators_with_violations": len(wrong),
            "events_missing": sum(max(0, n - s.received.get(k, 0))
                                  for s in self.spectators for k, n in expected.items()),
            "duplicates": sum(s.duplicates for s in self.spectators),
            "gaps": sum(s.gaps for s in self.spectators),
        }

    def report(self) -> dict[str, Any]:
        """Refusals, reconnections and early closes so far, and the reading thread's CPU."""
        return {"refusals": self.refusals, "reconnects": self.reconnects, "closed_early_because": self.closed_early,
                "reader_cpu_seconds": self.reader_cpu_seconds}

    def settled(self, version: int) -> bool:
        """Every spectator is on the last game and has read it up to ``version``."""
        last_game = len(self.games) - 1
        return all(s.game == last_game and s.last >= version for s in self.spectators)

    def close(self) -> None:
        self._stop.set()
        self._thread.join(10)
        for key in list(self._selector.get_map().values()):
            cast(socket.socket, key.fileobj).close()


CrowdHost.register("SpectatorCrowd", SpectatorCrowd)


class Table:
    """The featured table: a game of four random bots, and the next one as soon as it ends (a Catan
    game of random bots lasts some seconds at full speed), each shown to the crowd."""

    def __init__(self, port: int, store: EventStore) -> None:
        self._port, self._store = port, store
        self._stop = threading.Event()
        created = self._create()
        self.games: list[tuple[str, int]] = [created]
        self.crowd: Any = None          # a SpectatorCrowd's proxy
        self.creation_failures: list[str] = []
        self._thread: threading.Thread | None = None

    def _create(self) -> tuple[str, int]:
        game = create_game(self._port, [{"name": f"bot{i}", "bot": "random"} for i in range(4)])
        return game["id"], game["version"]

    def follow(self, crowd: Any) -> None:
        self.crowd = crowd
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        assert self.crowd is not None
        while not self._stop.wait(0.05):
            meta = self._store.meta(self.games[-1][0])
            if meta is None or meta["status"] != "finished":
                continue
            try:
                created = self._create()
            except (OSError, RuntimeError) as exc:     # a server too busy to answer in time: again
                self.creation_failures.append(str(exc)[:120])
                continue
            self.games.append(created)
            self.crowd.next_game(*created)

    def events(self) -> int:
        """Events logged at the table so far, over all its games."""
        return sum(self._store.version(game_id) - start for game_id, start in self.games)

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(10)


def _ms(seconds: list[float], q: float) -> float | None:
    """The ``q`` quantile of latencies in milliseconds (None for none)."""
    return round(percentile(seconds, q) * 1000, 1) if seconds else None


def _play_rounds(port: int, bare_port: int, scripts: list[Any], rounds: int, moves_per_round: int,
                 stop_at: float) -> tuple[Played, dict[str, list[float]], dict[str, int]]:
    """The clients' rounds of moves, each followed by a round on the bare endpoint (as in ``bench_http``),
    until ``rounds`` or ``stop_at``: what was played, each round's rates, and the bare requests that failed."""
    bare_body = json.dumps({"type": "roll"}).encode()
    bare_round = [[("/moves", {"Content-Type": "application/json"}, bare_body)] * moves_per_round
                  for _ in scripts]
    rates: dict[str, list[float]] = {"bare": [], "moves": []}
    played = Played()
    bare_failures: dict[str, int] = {}
    for r in range(rounds):
        if time.monotonic() > stop_at:
            break
        chunk = [script[r * moves_per_round:(r + 1) * moves_per_round] for script in scripts]
        this_round = Played()
        play_retrying(port, chunk, this_round, deadline=stop_at)
        rates["moves"].append(len(this_round.latencies) / this_round.seconds)
        played.latencies += this_round.latencies
        for mine, theirs in ((played.retries, this_round.retries), (played.failures, this_round.failures)):
            for why, n in theirs.items():
                mine[why] = mine.get(why, 0) + n
        seconds, lat = post_many(bare_port, bare_round, bare_failures)
        rates["bare"].append(len(lat) / seconds)
    return played, rates, bare_failures


def bench_spectators(url: str, spectators: int = 1000, clients: int = 16, rounds: int = 6,
                     moves_per_round: int = 40, watch_only_seconds: float = 5.0,
                     max_play_seconds: float = 120.0, catch_up_seconds: float = 120.0) -> dict[str, Any]:
    """``spectators`` SSE streams on a featured table (:class:`Table`: a game of four random bots
    played by one RQ worker as fast as it goes, then the next), then 16 clients moving in other
    games, round after round with the bare endpoint (as in ``bench_http``), and a /healthz probe
    throughout.

    The web process's CPU per delivered event is measured twice: while only the bot game moves
    (``watch_only``: the fan-out's own cost) and over the whole run (the clients' moves included,
    an upper bound).  The rounds stop after ``max_play_seconds`` even if unfinished.  Once the rounds
    are over the worker stops, the crowd reads to the end of the last game, and each spectator is
    checked: every event of every game, once each and in order.
    """
    env = {**os.environ, "REDIS_URL": url, "RQ_REDIS_URL": url, "ENQUEUE_BOTS": "1", "ALLOW_CLIENT_SEED": "1",
           "CREATE_RATE_LIMIT": ""}
    plugin = registry.plugin(GAME)
    store = EventStore(redis.Redis.from_url(url))
    redis_clients = [redis.Redis.from_url(url)]
    servers = {"bare": Server("shared.ops.bench_bare:app", env), "moves": Server(f"services.{GAME}.wsgi:app", env)}
    port = servers["moves"].port
    crowd: Any = None               # a SpectatorCrowd's proxy
    host: CrowdHost | None = None
    worker: subprocess.Popen[bytes] | None = None
    prober: Prober | None = None
    table: Table | None = None
    try:
        _, scripts = scripted_games(port, plugin, clients, rounds * moves_per_round, seed_base=7000)
        # No worker yet: the first game's first bot turn waits in the queue while the crowd connects.
        table = Table(port, store)
        host, crowd = host_crowd("SpectatorCrowd", port, *table.games[0], spectators)
        if not wait_until(lambda: crowd is not None and crowd.streaming() == spectators, 60):
            raise RuntimeError(f"only {crowd.streaming()} of {spectators} streams opened")
        opened = crowd.streaming()
        table.follow(crowd)
        prober = Prober(port)

        def sample() -> dict[str, float]:
            assert crowd is not None and worker is not None
            return {"web": servers["moves"].cpu_seconds(), "redis": redis_cpu_seconds(redis_clients),
                    "worker": tree_cpu_seconds(worker.pid), "client": time.process_time() + crowd.cpu_seconds(),
                    "delivered": crowd.delivered_so_far(), "events": table.events() if table else 0,
                    "at": time.monotonic()}

        worker = start_worker(url, env)
        if not wait_until(lambda: table is not None and table.events() > 0, 60):
            raise RuntimeError("the bot game did not move")
        # Phase one: only the bot game moves (the worker is warm: it has played a turn).
        first = sample()
        time.sleep(watch_only_seconds)
        second = sample()
        # Phase two: 16 clients play their games, taking turns with the bare endpoint.
        played, rates, bare_failures = _play_rounds(port, servers["bare"].port, scripts, rounds, moves_per_round,
                                                    stop_at=time.monotonic() + max_play_seconds)
        third = sample()
        healthz = prober.stop()
        prober = None
        table.stop()
        stop_worker(worker)
        expected = {k: store.version(game_id) - start for k, (game_id, start) in enumerate(table.games)}
        final = table.games[-1][1] + expected[len(table.games) - 1]
        caught_up = wait_until(lambda: crowd is not None and crowd.settled(final), catch_up_seconds, step=0.2)
        fourth = {"web": servers["moves"].cpu_seconds(), "client": time.process_time() + crowd.cpu_seconds(),
                  "delivered": crowd.delivered_so_far(), "at": time.monotonic()}
        crowd.close()
        crowd_report = crowd.report()

        def per_event(a: dict[str, float], b: dict[str, float], key: str) -> float | None:
            events = b["delivered"] - a["delivered"]
            return round((b[key] - a[key]) / events * 1000, 4) if events else None

        watch_seconds = second["at"] - first["at"]
        figure = {
            "bench": "spectators", "spectators": spectators, "streams_opened": opened,
            "clients": clients, "rounds": len(rates["moves"]), "table_games": len(table.games),
            "table_creation_failures": len(table.creation_failures),
            "table_events": sum(expected.values()),
            "table_events_per_second_watch_only": round((second["events"] - first["events"]) / watch_seconds, 1),
            "delivered_events_per_second_watch_only": round((second["delivered"] - first["delivered"]) / watch_seconds),
            "server_cpu_ms_per_delivered_event_watch_only": per_event(first, second, "web"),
            "server_cpu_ms_per_delivered_event_whole_run": per_event(first, fourth, "web"),
            "client_cpu_ms_per_delivered_event_whole_run": per_event(first, fourth, "client"),
            "crowd_reader_cpu_seconds": round(crowd_report["reader_cpu_seconds"], 2),
            "client_cpu_seconds_whole_run": round(fourth["client"] - first["client"], 2),
            "server_cpu_seconds_whole_run": round(fourth["web"] - first["web"], 2),
            "worker_cpu_ms_per_table_event": round((third["worker"] - first["worker"]) * 1000
                                                   / max(1, third["events"] - first["events"]), 3),
            "redis_cpu_ms_per_delivered_event": per_event(first, third, "redis"),
            "moves": len(played.latencies), "moves_retried": played.retries, "moves_failed": played.failures,
            "moves_p50_ms": _ms(played.latencies, 0.5), "moves_p99_ms": _ms(played.latencies, 0.99),
            "moves_per_second": round(statistics.median(rates["moves"])),
            "bare_requests_per_second": round(statistics.median(rates["bare"])),
            "bare_requests_failed": bare_failures,
            "vs_bare": round(statistics.median([m / b for m, b in zip(rates["moves"], rates["bare"])]), 2),
            "healthz_p99_ms": round(percentile(healthz, 0.99) * 1000, 1), "healthz_samples": len(healthz),
            "all_caught_up": caught_up, "catch_up_seconds": round(fourth["at"] - third["at"], 1),
            **crowd.check(expected, len(table.games), final),
            "refusals": crowd_report["refusals"],
            "reconnects": crowd_report["reconnects"], "closed_early_because": crowd_report["closed_early_because"],
            "targets": {"moves_p99_ms": 100, "healthz_p99_ms": 100, "server_cpu_ms_per_delivered_event": 0.03},
        }
        emit(figure)
        return figure
    finally:
        if prober is not None:
            prober.stop()
        if table is not None:
            table.stop()
        if worker is not None and worker.poll() is None:
            stop_worker(worker)
        if crowd is not None:
            crowd.close()
        if host is not None:
            host.shutdown()
        for target in servers.values():
            target.stop()



# -- capacity ----------------------------------------------------------------------------------------

BOT_LEVELS: tuple[tuple[str, int | None], ...] = (("random", None), ("greedy", None), ("expert", 200))
WEB_CONNECTIONS = 4000       # connections one instance holds (deploy/gunicorn.conf.py's default)
UTILISATION = 0.6            # the share of a core a sizing counts on (headroom for bursts and failover)


def bench_moves_cpu(url: str, clients: int = 16, rounds: int = 5, moves_per_round: int = 40) -> dict[str, Any]:
    """CPU per move on the web process and on Redis (``INFO cpu``, and ``INFO commandstats``'
    time in commands), 16 clients playing scripted games, round after round with the bare endpoint."""
    env = {**os.environ, "REDIS_URL": url, "RQ_REDIS_URL": url, "ENQUEUE_BOTS": "0", "ALLOW_CLIENT_SEED": "1",
           "CREATE_RATE_LIMIT": ""}
    plugin = registry.plugin(GAME)
    store_redis = [redis.Redis.from_url(url)]
    servers = {"bare": Server("shared.ops.bench_bare:app", env), "moves": Server(f"services.{GAME}.wsgi:app", env)}
    try:
        _, scripts = scripted_games(servers["moves"].port, plugin, clients, rounds * moves_per_round,
                                     seed_base=11000)
        bare_body = json.dumps({"type": "roll"}).encode()
        bare_round = [[("/moves", {"Content-Type": "application/json"}, bare_body)] * moves_per_round
                      for _ in range(clients)]
        costs: dict[str, list[float]] = {"web": [], "redis": [], "redis_commands": [], "load_generator": [],
                                         "bare_web": []}
        rates: dict[str, list[float]] = {"moves": [], "bare": []}
        failures: dict[str, dict[str, int]] = {"moves": {}, "bare": {}}
        for r in range(rounds):
            chunk = [script[r * moves_per_round:(r + 1) * moves_per_round] for script in scripts]
            before = (servers["moves"].cpu_seconds(), redis_cpu_seconds(store_redis),
                      redis_command_seconds(store_redis), time.process_time())
            seconds, lat = post_many(servers["moves"].port, chunk, failures["moves"])
            after = (servers["moves"].cpu_seconds(), redis_cpu_seconds(store_redis),
                     redis_command_seconds(store_redis), time.process_time())
            rates["moves"].append(len(lat) / seconds)
            for key, b, a in zip(("web", "redis", "redis_commands", "load_generator"), before, after):
                costs[key].append((a - b) / len(lat) * 1000)
            bare_before = servers["bare"].cpu_seconds()
            seconds, lat = post_many(servers["bare"].port, bare_round, failures["bare"])
            rates["bare"].append(len(lat) / seconds)
            costs["bare_web"].append((servers["bare"].cpu_seconds() - bare_before) / len(lat) * 1000)
        figure = {"bench": "capacity-moves-cpu", "clients": clients, "rounds": rounds,
                  "moves_per_second": round(statistics.median(rates["moves"])),
                  "bare_requests_per_second": round(statistics.median(rates["bare"])),
                  "vs_bare": round(statistics.median([m / b for m, b in zip(rates["moves"], rates["bare"])]), 2),
                  "cpu_ms_per_move": {k: round(statistics.median(v), 3) for k, v in costs.items()},
                  "moves_failed": failures["moves"], "bare_requests_failed": failures["bare"]}
        emit(figure)
        return figure
    finally:
        for target in servers.values():
            target.stop()


def bench_bot_cpu(url: str, bot: str, budget_ms: int | None, seconds: float, games: int = 4) -> dict[str, Any]:
    """CPU per bot move on one RQ worker (a ``SimpleWorker``) playing ``games`` games of four ``bot``
    bots, and on Redis (the event store and the queue: one server here)."""
    env = {**os.environ, "REDIS_URL": url, "RQ_REDIS_URL": url, "ENQUEUE_BOTS": "1", "CREATE_RATE_LIMIT": ""}
    client = redis.Redis.from_url(url)
    store = EventStore(client)
    server = Server(f"services.{GAME}.wsgi:app", env)
    worker: subprocess.Popen[bytes] | None = None
    # Turns left queued by an earlier part (a game whose worker stopped) would be played here too.
    for queue in (queue_name(GAME), thinking_queue_name(GAME)):
        Queue(queue, connection=client).empty()
    try:
        ids = [create_game(server.port, [{"name": f"b{i}", "bot": bot} for i in range(4)],
                           **({"bot_budget_ms": budget_ms} if budget_ms else {}))["id"] for _ in range(games)]

        def sample() -> dict[str, float]:
            assert worker is not None
            # Each bot move is kept under its idempotency field: the fields count the moves.
            moves = sum(cast(int, client.hlen(store.keys(game_id)[2])) for game_id in ids)
            return {"worker": tree_cpu_seconds(worker.pid), "redis": redis_cpu_seconds([client]),
                    "moves": moves, "events": sum(store.version(game_id) for game_id in ids),
                    "at": time.monotonic()}

        worker = start_worker(url, env)
        if not wait_until(lambda: sample()["moves"] >= games, 120):   # warm: the game is imported
            raise RuntimeError(f"the {bot} bots did not move")
        first = sample()
        time.sleep(seconds)
        second = sample()
        moves = second["moves"] - first["moves"]
        figure: dict[str, Any] = {
            "bench": "capacity-bot-cpu", "bot": bot, "games": games, "bot_moves": moves,
            "events_per_move": round((second["events"] - first["events"]) / max(1, moves), 2),
            "bot_moves_per_second": round(moves / (second["at"] - first["at"]), 1),
            "worker_cpu_ms_per_bot_move": round((second["worker"] - first["worker"]) / max(1, moves) * 1000, 3),
            "redis_cpu_ms_per_bot_move": round((second["redis"] - first["redis"]) / max(1, moves) * 1000, 3)}
        if budget_ms:
            figure["budget_ms"] = budget_ms
        emit(figure)
        return figure
    finally:
        if worker is not None:
            stop_worker(worker)
        server.stop()


def _per_second(ms: float | None) -> int | None:
    """How many of a thing one core does a second, from its CPU milliseconds (None: not measured)."""
    return round(1000 / ms) if ms else None


def _scaleout_figures(one: dict[str, Any] | None, two: dict[str, Any] | None,
                      cluster: dict[str, Any] | None) -> dict[str, Any]:
    """The scale-out bench's CPU per move with one and two instances, and the Redis Cluster's, where measured."""
    found: dict[str, Any] = {}
    if one and two:
        found["scaleout_server_cpu_ms_per_move"] = {"one": one["cpu_ms_per_move"]["servers"],
                                                    "two": two["cpu_ms_per_move"]["servers"]}
        found["two_vs_one_cpu_per_move"] = round(two["cpu_ms_per_move"]["servers"]
                                                 / one["cpu_ms_per_move"]["servers"], 2)
        found["target_two_vs_one_cpu_per_move_at_most"] = 1.1
    if cluster:
        found["redis_cluster_cpu_ms_per_move_all_masters"] = cluster["cpu_ms_per_move"]["redis"]
        found["redis_cluster_masters"] = cluster.get("redis_masters", 3)
    return found


def capacity_model(moves: dict[str, Any], bots: list[dict[str, Any]], scaleout: list[dict[str, Any]],
                   spectators: dict[str, Any] | None, move_interval_seconds: float = 10.0,
                   seats: int = 4, bot_seats: int = 1) -> list[dict[str, Any]]:
    """What one core of each part sustains, and a sizing for 1k, 10k and 100k concurrent games.

    The assumptions are printed with the figures: a move every ``move_interval_seconds`` per game,
    ``seats`` seats of which ``bot_seats`` are greedy bots (playing that share of the moves), each
    human seat with one SSE stream open (every event goes to each), and every core counted at
    ``UTILISATION``.  A move's Redis cost on a sharded store is the cluster's (its masters' CPU
    together per move); one shard suffices while one server's CPU does.  The queue's Redis (RQ,
    standalone) carries what a bot move costs Redis beyond a human move's."""
    by_name = {f["bench"]: f for f in scaleout}
    web_ms = moves["cpu_ms_per_move"]["web"]
    redis_ms = moves["cpu_ms_per_move"]["redis"]
    bot_ms = {f["bot"]: f["worker_cpu_ms_per_bot_move"] for f in bots}
    cluster = by_name.get("scaleout-one-instance-redis-cluster-3-masters")
    cluster_ms = cluster["cpu_ms_per_move"]["redis"] if cluster else None
    event_ms = spectators.get("server_cpu_ms_per_delivered_event_watch_only") if spectators else None
    events_per_move = next((f["events_per_move"] for f in bots if f["bot"] == "greedy"), 1.0)
    figures: list[dict[str, Any]] = []
    one, two = (by_name.get(f"scaleout-{n}-redis") for n in ("one-instance", "two-instances"))
    sustain = {
        "bench": "capacity-per-core",
        "web_core_moves_per_second": _per_second(web_ms),
        "redis_shard_moves_per_second": _per_second(redis_ms),
        "redis_cluster_master_moves_per_second": _per_second(cluster_ms),
        "worker_core_bot_moves_per_second": {bot: round(1000 / ms, 1) for bot, ms in bot_ms.items() if ms},
        "web_core_delivered_events_per_second": _per_second(event_ms),
        "redis_cpu_ms_per_bot_move": {f["bot"]: f["redis_cpu_ms_per_bot_move"] for f in bots},
        **_scaleout_figures(one, two, cluster),
    }
    figures.append(sustain)
    streams_per_game = seats - bot_seats
    # What a bot move costs Redis beyond its append: the job's way through the queue (RQ).
    greedy = next((f for f in bots if f["bot"] == "greedy"), None)
    queue_ms = max(0.0, greedy["redis_cpu_ms_per_bot_move"] - redis_ms) if greedy else 0.0
    # A move's web cost: taking it, then sending its events to every open stream of the game.
    web_move_ms = web_ms + (streams_per_game * events_per_move * event_ms if event_ms else 0.0)
    rows = []
    for games in (1_000, 10_000, 100_000):
        rate = games / move_interval_seconds
        bot_rate = rate * bot_seats / seats
        web_cores = (rate - bot_rate) * web_move_ms / 1000 + bot_rate * (web_move_ms - web_ms) / 1000
        streams = games * streams_per_game
        redis_cores = rate * redis_ms / 1000
        shards = 1 if redis_cores <= UTILISATION or not cluster_ms else \
            max(3, math.ceil(rate * cluster_ms / 1000 / UTILISATION))
        rows.append({"games": games, "moves_per_second": round(rate), "sse_streams": streams,
                     "web_cores": round(web_cores, 2),
                     "instances": max(2, math.ceil(web_cores / UTILISATION), math.ceil(streams / WEB_CONNECTIONS)),
                     "worker_cores": round(bot_rate * bot_ms.get("greedy", 0.0) / 1000, 2),
                     "workers": max(2, math.ceil(bot_rate * bot_ms.get("greedy", 0.0) / 1000 / UTILISATION)),
                     "redis_cores": round(redis_cores, 2), "redis_shards": shards,
                     "queue_redis_cores": round(bot_rate * queue_ms / 1000, 2)})
    figures.append({"bench": "capacity-sizing",
                    "assumptions": {"move_every_seconds_per_game": move_interval_seconds, "seats": seats,
                                    "greedy_bot_seats": bot_seats, "sse_streams_per_game": streams_per_game,
                                    "events_per_move": events_per_move, "core_utilisation": UTILISATION,
                                    "connections_per_instance": WEB_CONNECTIONS,
                                    "fan_out_counted": event_ms is not None},
                    "rows": rows})
    for figure in figures:
        emit(figure)
    return figures


def bench_capacity(url: str, scaleout: list[dict[str, Any]] | None = None, spectators: dict[str, Any] | None = None,
                   bot_seconds: float = 8.0, clients: int = 16, rounds: int = 5, moves_per_round: int = 40,
                   levels: tuple[tuple[str, int | None], ...] = BOT_LEVELS,
                   run_scaleout: bool = True) -> list[dict[str, Any]]:
    """Every CPU figure of the capacity model, then the model (``scaleout``: that bench's figures if
    they were measured in this run already)."""
    moves = bench_moves_cpu(url, clients, rounds, moves_per_round)
    bots = [bench_bot_cpu(url, bot, budget, bot_seconds * (2 if budget else 1)) for bot, budget in levels]
    if not scaleout and run_scaleout:
        scaleout = bench_scaleout(url) + bench_scaleout(url, cluster=True)
    return capacity_model(moves, bots, scaleout or [], spectators)


def run(url: str, parts: list[str], spectators: int = 1000, scaleout: list[dict[str, Any]] | None = None) -> None:
    """The parts of ``python -m shared.ops.bench`` this module holds (the model counts the spectators'
    fan-out cost when they ran too)."""
    watched = bench_spectators(url, spectators=spectators) if "spectators" in parts else None
    if "capacity" in parts:
        bench_capacity(url, scaleout, watched)
