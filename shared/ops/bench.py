"""``make bench``: every performance figure, one JSON line each.  Targets live here, never in tests.

* self-play per game (in-process engines; Catan against catanatron in the same run), strong bot vs random;
* rebuilding a long game's state from Redis, with and without a snapshot (events per second);
* a finished game's portable log: its size, and the offline verifier's events per second;
* HTTP: POST moves per second and p50/p99 at 16 concurrent clients, beside a bare Flask endpoint;
* the feed: the same with 1,000 clients waiting on the feed (SSE and long-polls), /healthz p99 meanwhile;
* bots: from a human move's acceptance to the bot's reply in the log, p50/p99 (random, greedy and
  expert at its default 200 ms budget; greedy again while 8 all-expert games think 2 s a move);
* ladder: each game's expert against two copies of its rule-of-thumb bot (and the controls), win
  rates with Wilson intervals and Elo (shared.ai.ladder); catanatron: our Catan expert in catanatron's
  own engine against its players (services/catan/catanatron_bridge.py);
* turn clocks: how late 2 s clocks on 20 games run out, with and without a worker killed
  (``--only clocks``; ``--clock-seconds`` shortens the two minutes), and how long until a
  scheduler runs again after the kill;
* scale-out: moves per second through haproxy with one and with two instances of the service,
  on one Redis and on a three-master Redis Cluster (with the CPU the load generator and the
  balancer spent: on a small machine they share the cores with the instances);
* spectators and capacity (shared.ops.bench_capacity): a thousand SSE spectators on a bot game moving
  at full speed, and CPU per move on each process, what one core of each sustains, and a sizing.
"""
from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import random
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from multiprocessing.managers import BaseManager
from pathlib import Path
from typing import Any, cast

import redis

from shared.ops import redis_server
from shared.game import registry
from shared.ops.balancer import Balancer
from shared.game.engine import random_strategy
from shared.log.eventstore import EventStore, snapshot_document
from shared.play.runtime import GameRuntime, StateCache, derive_seed
from datetime import UTC

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


def emit(figure: dict[str, Any]) -> None:
    print(json.dumps(figure), flush=True)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


# -- self-play (each game's own command) -------------------------------------------------------

SELFPLAY_ARGS: dict[str, list[list[str]]] = {
    "catan": [["--games", "100", "--players", "4", "--compare-catanatron"],
              ["--versus", "greedy", "--games", "40", "--players", "4"]],
    "elasund": [["--games", "20", "--players", "4"], ["--versus", "heuristic", "--games", "20", "--players", "4"]],
    "elfenland": [["--games", "20", "--players", "4"], ["--versus", "planner", "--games", "20", "--players", "4"]],
    "elastium": [["--games", "10", "--players", "3"],
                 ["--versus", "greedy", "--games", "8", "--players", "3", "--all-scenarios"]],
}


def bench_selfplay(game: str) -> None:
    for args in SELFPLAY_ARGS.get(game, [["--games", "20"]]):
        out = subprocess.run([sys.executable, "-m", f"services.{game}.selfplay", *args], cwd=ROOT,
                             capture_output=True, text=True, timeout=600)
        lines = [line for line in out.stdout.splitlines() if line.startswith("{")]
        if out.returncode != 0 or not lines:
            emit({"bench": f"{game}-selfplay", "error": (out.stderr or out.stdout)[-300:]})
        for line in lines:
            print(line, flush=True)


# -- rebuilding state from Redis ---------------------------------------------------------------

def play_long_game(runtime: GameRuntime, players: int, seed: int, max_moves: int = 3000) -> str:
    plugin_players = [{"name": f"p{i}", "bot": None} for i in range(players)]
    game_id, _, _ = runtime.create(plugin_players, {}, seed)
    rng = random.Random(seed)
    game = runtime.game
    for _ in range(max_moves):
        loaded = runtime.load(game_id)
        if game.result(loaded.state) is not None:
            break
        seat = game.to_act(loaded.state)[0]
        runtime.submit(game_id, seat, random_strategy(game, loaded.state, seat, rng))
    return game_id


def bench_rebuild(game_name: str, url: str) -> None:
    plugin = registry.plugin(game_name)
    store = EventStore(redis.Redis.from_url(url))
    writer = GameRuntime(plugin.game, store, snapshot_every=50)
    players = max(plugin.game.min_players, min(4, plugin.game.max_players))
    game_id = play_long_game(writer, players, seed=1234)
    version = store.version(game_id)
    snapshot = store.load_snapshot(game_id)
    for label, use_snapshot in (("without_snapshot", False), ("with_snapshot", True)):
        if use_snapshot and snapshot:
            store.save_snapshot(game_id, snapshot_document(snapshot["version"], snapshot["head"],
                                                           snapshot["engine_version"], snapshot["state"]))
        else:
            store.delete_snapshot(game_id)
        times = []
        for _ in range(5):
            reader = GameRuntime(plugin.game, store, cache=StateCache(size=0))
            start = time.perf_counter()
            reader.load(game_id)
            times.append(time.perf_counter() - start)
        best = min(times)
        folded = version - (snapshot["version"] if use_snapshot and snapshot else 0)
        emit({"bench": f"{game_name}-rebuild-{label}", "events": version, "events_folded": folded,
              "ms": round(best * 1000, 2), "events_folded_per_second": round(folded / best)})


def bench_verify(game_name: str, url: str) -> None:
    """A finished game's log as ``GET /games/{id}/log`` gives it (a game of the rule-of-thumb bots),
    its size, and how fast ``boardgames verify`` checks it offline (parse, chain, signature, seeds, rules)."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from shared.log import signing, verify
    plugin = registry.plugin(game_name)
    game = plugin.game
    store = EventStore(redis.Redis.from_url(url))
    runtime = GameRuntime(game, store)
    players = max(game.min_players, min(4, game.max_players))
    bot = plugin.strategies[plugin.rule_of_thumb_bot()]
    # Seeded: the same game, so the same file, every run.
    game_id, _, _ = runtime.create([{"name": f"p{i}"} for i in range(players)], {}, seed=7)
    rng = random.Random(7)
    for _ in range(5000):
        loaded = runtime.load(game_id)
        if game.result(loaded.state) is not None:
            break
        seat = game.to_act(loaded.state)[0]
        runtime.submit(game_id, seat, bot(game, game.conceal(loaded.state, seat, rng), seat, rng))
    signer = signing.Signer(Ed25519PrivateKey.generate())
    body = verify.log_file(game, game_id, store.meta(game_id) or {}, store.read(game_id), None, True, signer)
    keys = signing.keys_from_keyset(signer.keyset())
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "log.jsonl"
        path.write_bytes(body)
        times, outcome = [], None
        for _ in range(5):
            start = time.perf_counter()
            header, records = verify.read_log(path)
            outcome = verify.verify_log(header, records, keys)
            times.append(time.perf_counter() - start)
    assert outcome is not None and outcome.status == verify.VERIFIED, outcome
    best = min(times)
    emit({"bench": f"{game_name}-verify-offline", "players": players, "records": len(records),
          "events": outcome.events_checked, "jsonl_bytes": len(body), "ms": round(best * 1000, 1),
          "events_per_second": round(outcome.events_checked / best)})


# -- HTTP ------------------------------------------------------------------------------------------

def cpu_seconds(pid: int) -> float:
    """CPU a process has used so far (utime + stime); 0 once it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def redis_cpu_seconds(nodes: list[redis.Redis[bytes]]) -> float:
    """CPU the Redis servers have used so far (``INFO cpu``: main and background threads)."""
    return sum(float(info["used_cpu_sys"]) + float(info["used_cpu_user"]) for info in (n.info("cpu") for n in nodes))


class Server:
    def __init__(self, app: str, env: dict[str, str]) -> None:
        self.port = redis_server.free_port()
        self.proc = subprocess.Popen(
            [str(BIN / "gunicorn"), "-c", str(ROOT / "deploy/gunicorn.conf.py"), "--bind",
             f"127.0.0.1:{self.port}", app], cwd=ROOT, env={**env, "ACCESS_LOG": ""},
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 20
        while True:
            try:
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=1)
                conn.request("GET", "/healthz")
                conn.getresponse().read()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)

    def cpu_seconds(self) -> float:
        """CPU used so far by the gunicorn workers (steadier than throughput on a busy machine)."""
        children = subprocess.run(["pgrep", "-P", str(self.proc.pid)], capture_output=True, text=True).stdout.split()
        return sum(cpu_seconds(int(pid)) for pid in children)

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(15)        # open feed connections hold a graceful stop up to its timeout
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(5)


def scripted_game(plugin: Any, players: int, seed: int, moves: int) -> list[tuple[int, dict[str, Any]]]:
    """The moves a game created with ``seed`` will accept, worked out offline with the server's seeds."""
    game = plugin.game
    options = game.default_options()
    state = game.replay(game.setup(players, options, random.Random(derive_seed(seed, 0))))
    version = len(game.setup(players, options, random.Random(derive_seed(seed, 0))))
    rng = random.Random(seed)
    script: list[tuple[int, dict[str, Any]]] = []
    while len(script) < moves and game.result(state) is None:
        seat = game.to_act(state)[0]
        move = random_strategy(game, state, seat, rng)
        events = game.decide(state, seat, move, random.Random(derive_seed(seed, version, seat)))
        for e in events:
            state = game.evolve(state, e)
        version += len(events)
        script.append((seat, move))
    return script


def post_until_settled(conn: http.client.HTTPConnection, path: str, body: bytes, headers: dict[str, str],
                       attempts: int, pause: float, on_retry: Callable[[str], None] = lambda why: None) -> str:
    """POST until the answer settles: "" for a 201, else why it failed for good ("status reason", or the
    exception's name after ``attempts``).  A lost connection, a timeout, a 5xx or a request still in
    progress is tried again (a lost connection at once, on a new one; the others after ``pause``
    seconds), each told to ``on_retry``."""
    why = ""
    for _ in range(attempts):
        try:
            conn.request("POST", path, body=body, headers=headers)
            resp = conn.getresponse()
            answer = resp.read()
        except (OSError, http.client.HTTPException) as exc:
            conn.close()                 # the next try opens a new connection
            why = type(exc).__name__
            on_retry(why)
            continue
        if resp.status == 201:
            return ""
        found = re.search(rb'"reason": ?"([^"]+)"', answer)
        why = f"{resp.status} {found.group(1).decode() if found else ''}".strip()
        if resp.status < 500 and why != "409 request-in-progress":
            return why
        on_retry(why)
        time.sleep(pause)
    return why


def post_many(port: int, jobs: list[list[tuple[str, dict[str, str], bytes]]],
              failures: dict[str, int] | None = None, attempts: int = 5) -> tuple[float, list[float]]:
    """Each job list runs in its own thread over one keep-alive connection; returns (seconds, latencies).

    A request that meets a lost connection, a timeout or a 5xx is sent again (on a new connection,
    with the same Idempotency-Key, so a move is never played twice), up to ``attempts`` times; its
    latency counts from the first try.  A request refused for good is counted in ``failures`` (by
    "status reason") and ends only its own job list when that list is a scripted game (its later
    moves were worked out for a game that did not reach them); the other lists go on, and so does a
    list of independent requests (the bare endpoint's)."""
    latencies: list[float] = []
    lock = threading.Lock()
    failed = failures if failures is not None else {}

    def count(why: str) -> None:
        with lock:
            failed[why] = failed.get(why, 0) + 1

    def run(requests_: list[tuple[str, dict[str, str], bytes]]) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        mine = []
        scripted = bool(requests_) and requests_[0][0].startswith("/games/")
        for path, headers, body in requests_:
            sent = {**headers, "Idempotency-Key": f"bench-{os.urandom(8).hex()}"} if scripted else headers
            start = time.perf_counter()
            why = post_until_settled(conn, path, body, sent, attempts, pause=0.1)
            if why:
                count(why)
                if scripted:
                    break
                continue
            mine.append(time.perf_counter() - start)
        with lock:
            latencies.extend(mine)

    threads = [threading.Thread(target=run, args=(job,), daemon=True) for job in jobs]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if failed and failures is None:
        print(f"post_many: requests that failed: {failed}", file=sys.stderr)
    return time.perf_counter() - start, latencies


def bench_http(url: str, clients: int = 16, rounds: int = 9, moves_per_round: int = 50) -> None:
    """POST /moves against a bare Flask endpoint under the same gunicorn settings.

    The servers run side by side and take turns, round after round, so a burst of noise on a
    shared machine hits them alike.  ``vs_bare`` is the median of the rounds' ratios (each
    round compares runs a second apart); the rates are the medians over the rounds.  A third
    yardstick, the bare endpoint making one Redis call, shows what the round trip alone costs.
    """
    # ALLOW_CLIENT_SEED: the scripted games are worked out offline from the seeds they are created with.
    env = {**os.environ, "REDIS_URL": url, "RQ_REDIS_URL": url, "ENQUEUE_BOTS": "0", "ALLOW_CLIENT_SEED": "1"}
    plugin = registry.plugin("catan")
    servers = {"bare": Server("shared.ops.bench_bare:app", env),
               "bare_redis": Server("shared.ops.bench_bare:app_with_redis", env),
               "moves": Server("services.catan.wsgi:app", env)}
    try:
        bare_body = json.dumps({"type": "roll"}).encode()
        bare_round = [[("/moves", {"Content-Type": "application/json"}, bare_body)] * moves_per_round
                      for _ in range(clients)]
        _, scripts = scripted_games(servers["moves"].port, plugin, clients, rounds * moves_per_round,
                                     seed_base=1000)
        rates: dict[str, list[float]] = {name: [] for name in servers}
        cpu: dict[str, list[float]] = {name: [] for name in servers}
        latencies: dict[str, list[float]] = {name: [] for name in servers}
        failures: dict[str, dict[str, int]] = {name: {} for name in servers}
        for r in range(rounds):
            chunk = [script[r * moves_per_round:(r + 1) * moves_per_round] for script in scripts]
            for name, target in servers.items():
                cpu_before = target.cpu_seconds()
                seconds, lat = post_many(target.port, chunk if name == "moves" else bare_round,
                                         failures[name])
                rates[name].append(len(lat) / seconds)
                cpu[name].append((target.cpu_seconds() - cpu_before) / len(lat))
                latencies[name].extend(lat)

        def figures(name: str) -> dict[str, Any]:
            ratios = [m / b for m, b in zip(rates[name], rates["bare"])]
            return {"p50_ms": round(percentile(latencies[name], 0.5) * 1000, 2),
                    "p99_ms": round(percentile(latencies[name], 0.99) * 1000, 2),
                    "vs_bare": round(statistics.median(ratios), 2),
                    "vs_bare_by_round": [round(x, 2) for x in ratios],
                    "server_cpu_ms_per_request": round(statistics.median(cpu[name]) * 1000, 3),
                    "requests_failed": failures[name]}

        emit({"bench": "http-bare-flask", "clients": clients,
              "requests_per_second": round(statistics.median(rates["bare"])),
              **{k: v for k, v in figures("bare").items() if not k.startswith("vs_bare")}})
        emit({"bench": "http-bare-flask-one-redis-call", "clients": clients,
              "requests_per_second": round(statistics.median(rates["bare_redis"])), **figures("bare_redis")})
        emit({"bench": "http-catan-post-moves", "clients": clients, "rounds": rounds,
              "moves_per_second": round(statistics.median(rates["moves"])), "target_vs_bare": 0.5,
              **figures("moves")})
    finally:
        for target in servers.values():
            target.stop()


class CrowdHost(BaseManager):
    """A process of its own for a crowd of feed readers, driven through proxies.

    Readers are other hosts.  Read from the benchmark's own interpreter, a crowd's hot loop (hundreds
    of thousands of deliveries a second) holds the GIL that the moving clients' threads wait for, and
    their latencies would count the load generator's waits as the server's."""


def host_crowd(typeid: str, *args: Any) -> tuple[CrowdHost, Any]:
    """Start a :class:`CrowdHost` and make the crowd ``typeid`` (registered on it) there: the host
    (to shut down) and the crowd's proxy (its public methods)."""
    host = CrowdHost(ctx=multiprocessing.get_context("spawn"))
    host.start()
    return host, getattr(host, typeid)(*args)


class FeedCrowd:
    """Many clients parked on the feed, from one thread: Server-Sent Events streams and
    long-polls, spread over games, read as they come (a long-poll that answers is sent again).
    Hosted in a process of its own (:class:`CrowdHost`).
    """

    def __init__(self, port: int, watched: list[tuple[str, int]], connections: int) -> None:
        import selectors
        self._selector = selectors.DefaultSelector()
        self._stop = threading.Event()
        self.opened = 0
        for i in range(connections):
            game_id, version = watched[i % len(watched)]
            sock = socket.create_connection(("127.0.0.1", port))
            request = self._long_poll(game_id, version) if i % 2 else (
                f"GET /games/{game_id}/events?after={version} HTTP/1.1\r\nHost: bench\r\n"
                f"Accept: text/event-stream\r\n\r\n").encode()
            sock.sendall(request)
            sock.setblocking(False)
            self._selector.register(sock, selectors.EVENT_READ, (game_id if i % 2 else None, bytearray()))
            self.opened += 1
        self._thread = threading.Thread(target=self._drain, daemon=True)
        self._thread.start()

    @staticmethod
    def _long_poll(game_id: str, version: int) -> bytes:
        return f"GET /games/{game_id}/events?after={version}&wait=30 HTTP/1.1\r\nHost: bench\r\n\r\n".encode()

    def _drain(self) -> None:
        while not self._stop.is_set():
            for key, _ in self._selector.select(timeout=0.2):
                polled_game, buffer = key.data
                try:
                    chunk = cast(socket.socket, key.fileobj).recv(65536)
                except BlockingIOError:
                    continue
                if polled_game is None or not chunk:
                    continue                                  # a stream: read and forget
                buffer += chunk
                head, sep, body = bytes(buffer).partition(b"\r\n\r\n")
                length = next((int(line.split(b":")[1]) for line in head.split(b"\r\n")
                               if line.lower().startswith(b"content-length:")), None)
                if sep and length is not None and len(body) >= length:
                    del buffer[:]
                    # The answer came: wait again, after what it brought.
                    version = json.loads(body[:length])["version"]
                    cast(socket.socket, key.fileobj).sendall(self._long_poll(polled_game, version))

    def opened_count(self) -> int:
        return self.opened

    def close(self) -> None:
        self._stop.set()
        self._thread.join(5)
        for key in list(self._selector.get_map().values()):
            cast(socket.socket, key.fileobj).close()


CrowdHost.register("FeedCrowd", FeedCrowd)


def bench_feed(url: str, connections: int = 1000, clients: int = 16, rounds: int = 9, moves_per_round: int = 50,
               watch_the_moves: bool = False) -> None:
    """One service with ``connections`` clients on the feed (half SSE, half long-poll), five per
    game as a table with spectators would be, while 16 clients play moves and a probe asks
    /healthz every 20 ms.  The bare endpoint takes turns with the moves, round after round, as
    in :func:`bench_http`: ``vs_bare`` is the median of the rounds' ratios.

    By default the crowd waits on games other than the 16 being played: what waiting clients
    cost.  ``watch_the_moves`` puts five of them on each played game too, so every move is
    delivered to five clients (a long-poll answers and is sent again, a stream writes).
    """
    # A crowd of games and of feed clients (reading as fast as the moves come) from one address,
    # and seeded games to script.
    env = {**os.environ, "REDIS_URL": url, "RQ_REDIS_URL": url, "ENQUEUE_BOTS": "0", "ALLOW_CLIENT_SEED": "1",
           "CREATE_RATE_LIMIT": "", "FEED_CONNECTIONS_PER_ADDRESS": "0", "READ_RATE_LIMIT_PER_ADDRESS": ""}
    plugin = registry.plugin("catan")
    servers = {"bare": Server("shared.ops.bench_bare:app", env), "moves": Server("services.catan.wsgi:app", env)}
    port = servers["moves"].port
    crowd: Any = None               # a FeedCrowd's proxy
    host: CrowdHost | None = None
    try:
        played, scripts = scripted_games(port, plugin, clients, rounds * moves_per_round, seed_base=5000)
        idle = []
        for _ in range(connections // 5 - (clients if watch_the_moves else 0)):
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            conn.request("POST", "/games", body=json.dumps({"players": [{"name": f"p{i}"} for i in range(3)]}),
                         headers={"Content-Type": "application/json"})
            created = json.loads(conn.getresponse().read())
            idle.append((created["id"], created["version"]))
        watched = (played + idle) if watch_the_moves else idle
        host, crowd = host_crowd("FeedCrowd", port, watched, connections)
        time.sleep(3)                                    # every connection has been taken in
        probe_latencies: list[float] = []
        probing = threading.Event()

        def probe() -> None:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            while not probing.is_set():
                start = time.perf_counter()
                conn.request("GET", "/healthz")
                conn.getresponse().read()
                probe_latencies.append(time.perf_counter() - start)
                time.sleep(0.02)

        bare_round = [[("/moves", {"Content-Type": "application/json"}, json.dumps({"type": "roll"}).encode())]
                      * moves_per_round for _ in range(clients)]
        rates: dict[str, list[float]] = {"bare": [], "crowd": []}
        cpu: dict[str, list[float]] = {"bare": [], "crowd": []}
        move_latencies: list[float] = []
        failures: dict[str, dict[str, int]] = {"bare": {}, "crowd": {}}
        prober = threading.Thread(target=probe, daemon=True)
        prober.start()
        for r in range(rounds):
            chunk = [script[r * moves_per_round:(r + 1) * moves_per_round] for script in scripts]
            cpu_before = servers["moves"].cpu_seconds()
            seconds, lat = post_many(port, chunk, failures["crowd"])
            cpu["crowd"].append((servers["moves"].cpu_seconds() - cpu_before) / len(lat))
            rates["crowd"].append(len(lat) / seconds)
            move_latencies.extend(lat)
            cpu_before = servers["bare"].cpu_seconds()
            seconds, lat = post_many(servers["bare"].port, bare_round, failures["bare"])
            cpu["bare"].append((servers["bare"].cpu_seconds() - cpu_before) / len(lat))
            rates["bare"].append(len(lat) / seconds)
        probing.set()
        prober.join()
        emit({"bench": "http-feed-crowd" + ("-watching-the-moves" if watch_the_moves else ""),
              "feed_connections": crowd.opened_count(), "games_watched": len(watched),
              "healthz_p99_ms": round(percentile(probe_latencies, 0.99) * 1000, 1),
              "healthz_samples": len(probe_latencies),
              "moves_p50_ms": round(percentile(move_latencies, 0.5) * 1000, 1),
              "moves_p99_ms": round(percentile(move_latencies, 0.99) * 1000, 1),
              "moves_per_second": round(statistics.median(rates["crowd"])),
              "vs_bare": round(statistics.median([m / b for m, b in zip(rates["crowd"], rates["bare"])]), 2),
              "server_cpu_ms_per_move": round(statistics.median(cpu["crowd"]) * 1000, 3),
              "bare_server_cpu_ms_per_request": round(statistics.median(cpu["bare"]) * 1000, 3),
              "moves_failed": failures["crowd"], "bare_requests_failed": failures["bare"],
              **({} if watch_the_moves else
                 {"targets": {"healthz_p99_ms": 100, "moves_p99_ms": 100, "vs_bare": 0.55}})})
    finally:
        if crowd is not None:
            crowd.close()
        if host is not None:
            host.shutdown()
        for target in servers.values():
            target.stop()


def scripted_games(port: int, plugin: Any, count: int, moves: int,
                    seed_base: int) -> tuple[list[tuple[str, int]], list[list[tuple[str, dict[str, str], bytes]]]]:
    """``count`` seeded 4-player games created on the server, each with the moves it will accept."""
    created_games, scripts = [], []
    for c in range(count):
        seed = seed_base + c
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        conn.request("POST", "/games", body=json.dumps(
            {"seed": seed, "players": [{"name": f"p{i}"} for i in range(4)]}),
            headers={"Content-Type": "application/json"})
        created = json.loads(conn.getresponse().read())
        tokens = [p["token"] for p in created["players"]]
        created_games.append((created["id"], created["version"]))
        scripts.append([(f"/games/{created['id']}/moves",
                         {"Content-Type": "application/json", "Authorization": f"Bearer {tokens[seat]}"},
                         json.dumps(move).encode())
                        for seat, move in scripted_game(plugin, 4, seed, moves)])
    return created_games, scripts


def bench_bot_latency(url: str, samples: int = 60, bot: str = "random", budget_ms: int | None = None,
                      busy_experts: int = 0) -> None:
    """From a human move's acceptance to the first bot reply in the log (worker pick-up, the bot's
    thinking, the append), with ``bot`` in the two other seats; with ``busy_experts``, that many
    all-expert games think 2 s a move meanwhile (on their own queue and worker)."""
    env = {**os.environ, "REDIS_URL": url, "RQ_REDIS_URL": url, "CREATE_RATE_LIMIT": ""}  # a game per sample
    server = Server("services.catan.wsgi:app", env)
    # A worker for the bots that answer at once, and one for the search bots' queue.
    workers = [subprocess.Popen([sys.executable, "-m", "shared.play.worker", "--quiet", *flag, "catan"],
                                cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
               for flag in ([], ["--thinking"])]
    import requests
    latencies: list[float] = []
    try:
        base = f"http://127.0.0.1:{server.port}"
        http_ = requests.Session()
        # Warm the worker first: its first job imports the game (about 0.1 s, once per process).
        # A bots-only game played to its end, so it does not compete with the measured ones.
        warm = http_.post(f"{base}/games", json={"players": [{"name": f"b{i}", "bot": "random"}
                                                              for i in range(3)]}).json()
        deadline, page = time.monotonic() + 60, {"status": "active", "version": warm["version"]}
        while page["status"] != "finished" and time.monotonic() < deadline:
            page = http_.get(f"{base}/games/{warm['id']}/events",
                             params={"after": page["version"], "wait": 5, "limit": 1}).json()
        for _ in range(busy_experts):
            http_.post(f"{base}/games", json={"players": [{"name": f"e{i}", "bot": "expert"} for i in range(3)],
                                              "bot_budget_ms": 2000})
        while len(latencies) < samples:
            created = http_.post(f"{base}/games", json={"players": [
                {"name": "me"}, {"name": "b1", "bot": bot}, {"name": "b2", "bot": bot}],
                **({"bot_budget_ms": budget_ms} if budget_ms else {})}).json()
            gid, auth = created["id"], {"Authorization": f"Bearer {created['players'][0]['token']}"}
            for _ in range(400):
                view = http_.get(f"{base}/games/{gid}", headers=auth).json()
                if view["status"] == "finished" or len(latencies) >= samples:
                    break
                if 0 not in view["to_act"]:
                    http_.get(f"{base}/games/{gid}/events", params={"after": view["version"], "wait": 5})
                    continue
                moves = http_.get(f"{base}/games/{gid}/legal-moves", headers=auth).json()["moves"]
                move = next((m for m in moves if m["type"] in ("end_turn", "roll")), moves[0])
                accepted = http_.post(f"{base}/games/{gid}/moves", json=move, headers=auth).json()
                if 0 in http_.get(f"{base}/games/{gid}", headers=auth).json()["to_act"]:
                    continue
                page = http_.get(f"{base}/games/{gid}/events",
                                 params={"after": accepted["version"], "wait": 5}).json()
                if page["events"]:
                    latencies.append((page["events"][0]["at"] - accepted["events"][-1]["at"]) / 1000)
        figure: dict[str, Any] = {"bench": "bot-reply-latency", "bot": bot, "samples": len(latencies),
                                  "p50_ms": round(percentile(latencies, 0.5) * 1000, 1),
                                  "p99_ms": round(percentile(latencies, 0.99) * 1000, 1)}
        if budget_ms:
            figure["budget_ms"] = budget_ms        # the expert thinks this long when it has a choice
        elif busy_experts:
            figure.update(busy_expert_games=busy_experts, target_p99_ms=100)
        else:
            figure["target_p50_ms"] = 50
        emit(figure)
    finally:
        for worker in workers:
            worker.terminate()
        for worker in workers:
            try:
                worker.wait(40)     # a worker finishes the turn it is playing first
            except subprocess.TimeoutExpired:
                worker.kill()
                worker.wait(5)
        server.stop()


def bench_scaleout(url: str, cluster: bool = False, clients: int = 32, rounds: int = 3,
                   moves_per_round: int = 30) -> list[dict[str, Any]]:
    """POST /moves through haproxy (consistent hashing on the game id, as deploy/README.md
    recommends) to one instance, then to two, round after round on the same games: ``vs_one``
    is the median of the rounds' ratios.  With ``cluster`` the event store is a three-master
    Redis Cluster (the bot queue and the limiter stay on the standalone ``url``).  The CPU per
    move of the event store's Redis servers (``INFO cpu``, over every master) is counted beside
    the instances'; the figures are returned as well as printed."""
    env = {**os.environ, "REDIS_URL": url, "RQ_REDIS_URL": url, "ENQUEUE_BOTS": "0", "ALLOW_CLIENT_SEED": "1",
           "CREATE_RATE_LIMIT": ""}
    nodes: list[subprocess.Popen[bytes]] = []
    ports: list[int] = []
    scratch = tempfile.TemporaryDirectory(prefix="bench-cluster-")
    if cluster:
        nodes, ports = redis_server.start_cluster(scratch.name)
        env.update({"REDIS_URL": f"redis://127.0.0.1:{ports[0]}/0", "REDIS_CLUSTER": "1"})
    plugin = registry.plugin("catan")
    servers: list[Server] = []
    balancers: dict[str, Balancer] = {}
    figures: list[dict[str, Any]] = []
    try:
        store_nodes = [redis.Redis(port=p) for p in ports] if cluster else [redis.Redis.from_url(url)]
        servers = [Server("services.catan.wsgi:app", env) for _ in range(2)]
        balancers = {"one": Balancer([servers[0].port]), "two": Balancer([s.port for s in servers])}
        _, scripts = scripted_games(balancers["two"].port, plugin, clients, 2 * rounds * moves_per_round,
                                     seed_base=9000 + (500 if cluster else 0))
        rates: dict[str, list[float]] = {name: [] for name in balancers}
        costs: dict[str, dict[str, list[float]]] = {
            name: {"servers": [], "balancer": [], "load_generator": [], "redis": []} for name in balancers}
        for r in range(rounds):
            for i, (name, balancer) in enumerate(balancers.items()):
                part = 2 * r + i            # each round plays the games on: one chunk each way
                chunk = [script[part * moves_per_round:(part + 1) * moves_per_round] for script in scripts]
                before = (sum(s.cpu_seconds() for s in servers), cpu_seconds(balancer.proc.pid), time.process_time(),
                          redis_cpu_seconds(store_nodes))
                seconds, lat = post_many(balancer.port, chunk)
                after = (sum(s.cpu_seconds() for s in servers), cpu_seconds(balancer.proc.pid), time.process_time(),
                         redis_cpu_seconds(store_nodes))
                rates[name].append(len(lat) / seconds)
                for key, b, a in zip(("servers", "balancer", "load_generator", "redis"), before, after):
                    costs[name][key].append((a - b) / len(lat) * 1000)
        store = "redis-cluster-3-masters" if cluster else "redis"
        for name in balancers:
            ratios = [two / one for two, one in zip(rates["two"], rates["one"])]
            figures.append({
                "bench": f"scaleout-{name}-instance{'s' if name == 'two' else ''}-{store}", "clients": clients,
                "rounds": rounds, "moves_per_second": round(statistics.median(rates[name])),
                "cpu_ms_per_move": {k: round(statistics.median(v), 3) for k, v in costs[name].items()},
                "cores": os.cpu_count(), "redis_masters": len(store_nodes),
                **({"vs_one": round(statistics.median(ratios), 2), "vs_one_by_round": [round(x, 2) for x in ratios],
                    "target_vs_one": 1.6} if name == "two" else {})})
            emit(figures[-1])
        return figures
    finally:
        for balancer in balancers.values():
            balancer.stop()
        for server in servers:
            server.stop()
        for node in nodes:
            node.terminate()
            node.wait(5)
        scratch.cleanup()


def _scheduler_holder(conn: redis.Redis[bytes], queue: str, fresh_seconds: float = 3.0) -> tuple[str, int] | None:
    """(name, pid) of the scheduler holding ``queue``'s lock, if it beat in the last few seconds."""
    from datetime import datetime

    from rq.scheduler import SCHEDULER_KEY_TEMPLATE, RQScheduler
    from rq.utils import utcparse
    holder = conn.get(RQScheduler.get_locking_key(queue))
    record = conn.hgetall(SCHEDULER_KEY_TEMPLATE % holder.decode()) if holder else {}
    if holder is None or b"last_heartbeat" not in record:
        return None
    beat = utcparse(record[b"last_heartbeat"].decode()).replace(tzinfo=UTC)
    if (datetime.now(UTC) - beat).total_seconds() > fresh_seconds:
        return None
    return holder.decode(), int(record.get(b"pid", b"0"))


def _kill_the_schedulers_worker(conn: redis.Redis[bytes], procs: dict[str, subprocess.Popen[bytes]],
                                start: Callable[..., None], seconds: float) -> float | None:
    """Kill (-9, with its children) the worker whose child holds the scheduler's lock, start it again at
    once as a supervisor does, and return how long until another scheduler beats (None: not within
    ``seconds``, or no scheduler held the lock)."""
    holder = _scheduler_holder(conn, "bots-race")
    if holder is None:
        return None
    parent = Path(f"/proc/{holder[1]}/stat").read_text().rsplit(")", 1)[1].split()[1]
    victim = next(name for name, proc in procs.items() if str(proc.pid) == parent)
    os.killpg(procs[victim].pid, 9)
    killed_at = time.monotonic()
    procs[victim].wait(10)
    start(victim, "shared.play.worker", "--quiet", "race")
    while time.monotonic() - killed_at < seconds:
        now_holder = _scheduler_holder(conn, "bots-race", fresh_seconds=1.5)
        if now_holder is not None and now_holder[0] != holder[0]:
            return time.monotonic() - killed_at
        time.sleep(0.05)
    return None


def _clock_lateness(base: str, ids: list[str], end_ms: int) -> tuple[list[float], int]:
    """How late each expiry of these games ran after its deadline (seconds; from the log's
    ``platform.clock_expired`` records, and deadlines still unserved at ``end_ms`` and late already),
    and how many of the games finished."""
    import requests
    from shared.play import turn_clock
    lateness: list[float] = []
    finished = 0
    for gid in ids:
        events = requests.get(f"{base}/games/{gid}/events", params={"limit": 1000}, timeout=30).json()["events"]
        lateness += [(e["at"] - turn_clock.iso_to_ms(e["data"]["deadline"])) / 1000
                     for e in events if e["type"] == turn_clock.EXPIRED and e["at"] <= end_ms]
        view = requests.get(f"{base}/games/{gid}", timeout=10).json()
        finished += view["status"] == "finished"
        overdue = [end_ms - turn_clock.iso_to_ms(d) for d in view["deadlines"].values()]
        lateness += [ms / 1000 for ms in overdue if ms > 1000]    # not served yet, and late already
    return lateness, finished


def _seconds_at(values: list[float], q: float) -> float | None:
    """The ``q`` quantile (1.0: the largest) of ``values``, in seconds to the millisecond; None for none."""
    if not values:
        return None
    return round(max(values) if q >= 1.0 else percentile(values, q), 3)


def bench_clocks(url: str, seconds: float = 120, games: int = 20, turn_seconds: int = 2,
                 kill_worker: bool = False) -> None:
    """Turn clocks nobody answers: ``games`` two-seat games of the toy game (every move passes the
    turn, so every deadline is a full turn kept by RQ's scheduler) on two workers and a sweeper,
    for ``seconds``.  How late each expiry ran after its deadline (from the log: the
    ``platform.clock_expired`` record's time against the deadline it names; a deadline still
    unserved at the end counts with its lateness then).  With ``kill_worker`` the worker whose
    child runs the scheduler is killed (-9, with that child) a third of the way in and started
    again at once, as a supervisor does: how long until a scheduler beats again."""
    from shared.play import turn_clock
    env = {**os.environ, "REDIS_URL": url, "RQ_REDIS_URL": url, "CREATE_RATE_LIMIT": "",
           "GAME_SERVICES_EXTRA": "race=tests.shared.toygame", "MAX_ACTIVE_GAMES": "0"}
    conn = redis.Redis.from_url(url)
    conn.flushdb()
    server = Server("tests.shared.toy_wsgi:app", env)
    procs: dict[str, subprocess.Popen[bytes]] = {}

    def start(name: str, *args: str) -> None:
        procs[name] = subprocess.Popen([sys.executable, "-m", *args], cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                                       stderr=subprocess.DEVNULL, start_new_session=True)

    import requests
    recovery: float | None = None
    try:
        start("worker-1", "shared.play.worker", "--quiet", "race")
        start("worker-2", "shared.play.worker", "--quiet", "race")
        start("sweeper", "shared.play.sweeper", "race")
        deadline = time.monotonic() + 60
        while _scheduler_holder(conn, "bots-race") is None and time.monotonic() < deadline:
            time.sleep(0.1)
        base = f"http://127.0.0.1:{server.port}"
        ids = [requests.post(f"{base}/games", timeout=10, json={
            "players": [{"name": "a"}, {"name": "b"}], "turn_seconds": turn_seconds,
            "fallback_bot": "random", "options": {"target": 100}}).json()["id"] for _ in range(games)]
        started = time.monotonic()
        if kill_worker:
            time.sleep(seconds / 3)
            recovery = _kill_the_schedulers_worker(conn, procs, start, seconds)
        time.sleep(max(0.0, started + seconds - time.monotonic()))
        lateness, finished = _clock_lateness(base, ids, turn_clock.now_ms())
        figure: dict[str, Any] = {
            "bench": "turn-clocks" + ("-worker-killed" if kill_worker else ""), "games": games,
            "turn_seconds": turn_seconds, "seconds": seconds, "expiries": len(lateness),
            "within_1s": round(sum(x <= 1 for x in lateness) / max(1, len(lateness)), 4),
            "over_5s": sum(x > 5 for x in lateness),
            "p50_late_s": _seconds_at(lateness, 0.5), "p99_late_s": _seconds_at(lateness, 0.99),
            "max_late_s": _seconds_at(lateness, 1.0),
            "finished_games": finished, "target_within_1s": 0.99, "target_max_late_s": 5}
        if kill_worker:
            figure.update(scheduler_recovery_s=None if recovery is None else round(recovery, 2),
                          target_scheduler_recovery_s=10)
        emit(figure)
    finally:
        for proc in procs.values():
            try:
                os.killpg(proc.pid, 15)
            except ProcessLookupError:
                pass
        for proc in procs.values():
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, 9)
        server.stop()


PARTS = ("selfplay", "rebuild", "verify", "http", "feed", "bots", "scaleout", "ladder", "catanatron", "clocks",
         "spectators", "capacity")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=PARTS, action="append")
    parser.add_argument("--ladder-games", type=int, default=120, help="games per ladder series (default 120)")
    parser.add_argument("--mirror-games", type=int, default=24, help="games of each mirror match (default 24)")
    parser.add_argument("--catanatron-games", type=int, default=60)
    parser.add_argument("--feed-connections", type=int, default=1000)
    parser.add_argument("--clock-seconds", type=float, default=120,
                        help="how long each turn-clock scenario runs (default 120)")
    parser.add_argument("--spectators", type=int, default=1000, help="SSE spectators of the featured table")
    args = parser.parse_args(argv)
    parts = args.only or list(PARTS)
    # Every bench creates its games from this one address, by the hundred: no per-address cap.
    os.environ.setdefault("MAX_GAMES_PER_ADDRESS", "0")
    base_url, proc = redis_server.ensure(os.environ.get("REDIS_URL"))
    url = base_url.rsplit("/", 1)[0] + "/14"          # a database of its own, emptied first
    redis.Redis.from_url(url).flushdb()
    try:
        games = registry.available()
        if "selfplay" in parts:
            for game in games:
                bench_selfplay(game)
        if "rebuild" in parts:
            for game in games:
                bench_rebuild(game, url)
        if "verify" in parts:
            for game in games:
                bench_verify(game, url)
        if "http" in parts:
            bench_http(url)
        if "feed" in parts:
            bench_feed(url, connections=args.feed_connections)
            bench_feed(url, connections=args.feed_connections, watch_the_moves=True)
        if "bots" in parts:
            bench_bot_latency(url)
            bench_bot_latency(url, samples=40, bot="greedy")
            bench_bot_latency(url, samples=40, bot="expert", budget_ms=200)
            bench_bot_latency(url, samples=40, bot="greedy", busy_experts=8)
        scaleout: list[dict[str, Any]] = []
        if "scaleout" in parts:
            scaleout = bench_scaleout(url) + bench_scaleout(url, cluster=True)
        if "spectators" in parts or "capacity" in parts:
            from shared.ops import bench_capacity   # late import: it builds on this module
            bench_capacity.run(url, parts, spectators=args.spectators, scaleout=scaleout)
        if "ladder" in parts:
            from shared.ai import ladder
            ladder.main(["--games", str(args.ladder_games), "--mirror-games", str(args.mirror_games)])
        if "clocks" in parts:
            bench_clocks(url, seconds=args.clock_seconds)
            bench_clocks(url, seconds=args.clock_seconds, kill_worker=True)
        if "catanatron" in parts:             # each game's reference match (Catan's is against catanatron)
            for game in games:
                match = registry.plugin(game).reference_match
                if match is not None:
                    emit(match(args.catanatron_games))
    finally:
        redis.Redis.from_url(url).flushdb()
        if proc is not None:
            proc.terminate()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
