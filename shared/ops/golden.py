"""Golden logs: games recorded by each released rules engine version, replayed and audited forever.

A golden file (``tests/golden/<game>/<version>/<name>.jsonl``) is JSON Lines: a header, then the
game's log records exactly as the platform stores them (seq, type, data, at, salt, cause on a
move's first event, hash chained from the genesis hash).  The header names the game, the engine
version that recorded it, the expected head hash and digests of the final state::

    {"golden": 1, "game": "catan", "engine_version": "2", "players": 3, "options": {...},
     "events": 812, "head": "…", "state_digests": {"2": "…"}, "note": "…"}

``state_digests`` maps a state format (``Game.snapshot_format``) to the SHA-256 of the final
state's canonical dump in that format: the engine that recorded the file writes its own, and
``pin`` adds the format of the code that serves the version now, once that code replays and
audits the file (a version kept by a version switch folds into a newer state shape).

``check`` replays and audits a file with the engine the registry gives for its version:
``tests/shared/test_golden.py`` runs it on every file, so a change that alters how any released
version decides or folds fails the suite.  ``record`` plays seeded random games with whatever
engine is importable (``make golden`` records the current versions; an older version is
recorded from a checkout of its commit, see the README of tests/golden).

    python -m shared.ops.golden record GAME [--out DIR] [--games N] [--moves N] [--seed N]
    python -m shared.ops.golden check FILE...
    python -m shared.ops.golden pin FILE...
"""
from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from collections.abc import Callable

from shared.game.engine import Game, Move, State
from shared.log.eventstore import GENESIS_HASH, canonical, event_hash

GOLDEN_ROOT = Path(__file__).resolve().parents[2] / "tests" / "golden"
FORMAT = 1
START_AT = 1_800_000_000_000        # the records' "at": fixed, so a file is reproducible


def state_digest(game: Game, state: State) -> str:
    return hashlib.sha256(canonical(game.dump(state)).encode("utf-8")).hexdigest()


def state_format(game: Game) -> str:
    return str(getattr(game, "snapshot_format", game.engine_version))


@dataclass
class Recorder:
    """Builds the records of one game as the platform would store them."""
    seed: int
    records: list[dict[str, Any]]
    head: str = GENESIS_HASH

    def append(self, events: list[dict[str, Any]], cause: dict[str, Any]) -> None:
        for i, e in enumerate(events):
            seq = len(self.records) + 1
            salt = hashlib.sha256(f"{self.seed}:{seq}".encode()).hexdigest()[:16]
            record: dict[str, Any] = {"seq": seq, "type": e["type"], "data": e["data"], "at": START_AT + seq,
                                      "salt": salt}
            if i == 0:
                record["cause"] = cause
            record["hash"] = self.head = event_hash(self.head, record)
            self.records.append(record)


Chooser = Callable[[Game, State, int, random.Random], Move]


def random_move(game: Game, state: State, seat: int, rng: random.Random) -> Move:
    return rng.choice(game.legal_moves(state, seat))


def play(game: Game, players: int, options: dict[str, Any], seed: int, max_moves: int,
         choose: Chooser = random_move) -> tuple[list[dict[str, Any]], State]:
    """A seeded game's records and its final state (the state folded from JSON, as replay reads it)."""
    rng = random.Random(seed)
    opts = {**game.default_options(), **options}
    setup_seed = rng.getrandbits(63)
    recorder = Recorder(seed, [])
    events = game.setup(players, opts, random.Random(setup_seed))
    recorder.append(events, {"kind": "setup", "players": players, "options": opts, "seed": setup_seed,
                             "seeded_by_client": True})
    state = game.replay(json.loads(json.dumps(events)))
    for _ in range(max_moves):
        if game.result(state) is not None:
            break
        seat = rng.choice(game.to_act(state))
        move = choose(game, state, seat, random.Random(rng.getrandbits(63)))
        move_seed = rng.getrandbits(63)
        events = game.decide(state, seat, move, random.Random(move_seed))
        recorder.append(events, {"kind": "move", "seat": seat, "move": move, "seed": move_seed})
        for e in json.loads(json.dumps(events)):
            state = game.evolve(state, e)
    return recorder.records, state


def write(path: Path, game: Game, players: int, options: dict[str, Any], records: list[dict[str, Any]],
          state: State, note: str) -> None:
    header = {"golden": FORMAT, "game": game.name, "engine_version": game.engine_version, "players": players,
              "options": records[0]["cause"]["options"], "events": len(records), "head": records[-1]["hash"],
              "finished": game.result(state) is not None,
              "state_digests": {state_format(game): state_digest(game, state)}, "note": note}
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as out:
        out.write(json.dumps(header, ensure_ascii=False) + "\n")
        for record in records:
            # As Redis holds them: the events' own key order (a fold may depend on it), no sorting.
            out.write(json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n")


def read(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    lines = path.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    if header.get("golden") != FORMAT:
        raise ValueError(f"{path}: not a golden log of format {FORMAT}")
    return header, [json.loads(line) for line in lines[1:]]


@dataclass
class Verdict:
    ok: bool
    problems: list[str]


def check(path: Path, rules: Game | None = None) -> Verdict:
    """Replay and audit ``path`` with ``rules`` (default: the registry's engine for its version)."""
    from shared.game import registry
    from shared.log.replay import audit_log
    header, records = read(path)
    rules = rules or registry.plugin(header["game"]).rules(header["engine_version"])
    problems = []
    if len(records) != header["events"]:
        problems.append(f"{len(records)} records, the header says {header['events']}")
    report = audit_log(rules, records)
    if not report.ok:
        problems.append(f"audit fails at event {report.bad_seq}: {report.problem}")
    if report.head_hash != header["head"]:
        problems.append(f"head {report.head_hash[:12]}…, expected {header['head'][:12]}…")
    state = rules.replay([{"type": r["type"], "data": r["data"]} for r in records])
    fmt = state_format(rules)
    expected = header["state_digests"].get(fmt)
    if expected is None:
        problems.append(f"no state digest pinned for state format {fmt!r} (python -m shared.ops.golden pin)")
    elif state_digest(rules, state) != expected:
        problems.append(f"the final state folds differently (format {fmt!r})")
    if (rules.result(state) is not None) != header["finished"]:
        problems.append("the game's end differs")
    return Verdict(not problems, problems)


def pin(path: Path) -> None:
    """Add the digest of the state format the registry's engine folds this version into, once it
    replays and audits the file (the head and every event as recorded)."""
    from shared.game import registry
    from shared.log.replay import audit_log
    header, records = read(path)
    rules = registry.plugin(header["game"]).rules(header["engine_version"])
    report = audit_log(rules, records)
    if not report.ok or report.head_hash != header["head"]:
        raise SystemExit(f"{path}: does not audit with engine {header['engine_version']}: {report.problem}")
    state = rules.replay([{"type": r["type"], "data": r["data"]} for r in records])
    header["state_digests"][state_format(rules)] = state_digest(rules, state)
    lines = path.read_text(encoding="utf-8").splitlines()
    lines[0] = json.dumps(header, ensure_ascii=False)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def golden_files(root: Path = GOLDEN_ROOT) -> list[Path]:
    return sorted(root.glob("*/*/*.jsonl"))


# The player counts and option sets each version's golden logs cover: every option that changes
# what the rules decide (an option a version predates is left out of its logs).
GOLDEN_VARIANTS: dict[str, list[tuple[int, dict[str, Any]]]] = {
    "catan": [(3, {}), (4, {"board": "variable", "bank_shortage": "single-gets-rest"}),
              (3, {"board": "variable", "combined_trade_build": True})],
    "elasund": [(2, {}), (3, {"shortage_payout": "after_discard", "walls_blue_first": False}),
                (4, {"trade_track_capacity": False, "hut_on_own_permit": True})],
    "elfenland": [(3, {}), (4, {"edition": "elfengold", "wizards": True, "random_gold_values": True}),
                  (3, {"edition": "elfenroads", "lake_rules": "german"}),
                  (2, {"home_towns": False, "caravan_cards": 5}), (5, {"edition": "elfengold"})],
    "elastium": [(2 + i % 3, {"scenario": scenario}) for i, scenario in enumerate(
        ["jungle-temples", "volcano", "archipelago", "engraved-plateau", "fragile-ruins", "cursed-triangle",
         "two-deities", "labyrinth"])],
}


def _variants(name: str, game: Game) -> list[tuple[int, dict[str, Any]]]:
    known = game.default_options()
    return [(players, options) for players, options in GOLDEN_VARIANTS.get(name, [(game.min_players, {})])
            if set(options) <= set(known)]


def record_current(name: str, out: Path, games: int, moves: int, seed: int) -> list[Path]:
    """Golden logs of ``name``'s current engine (the importable code): ``games`` seeded random games
    per option set, written under ``out/<game>/<version>/``."""
    from shared.game import registry
    game = registry.plugin(name).game
    written = []
    for index, (players, options) in enumerate(_variants(name, game)):
        for number in range(games):
            game_seed = seed + 1000 * index + number
            records, state = play(game, players, options, game_seed, moves)
            label = "-".join([f"{players}p", *(f"{k}={v}" for k, v in options.items())]) or "default"
            path = out / name / game.engine_version / f"random-{label}-{game_seed}.jsonl"
            write(path, game, players, options, records, state,
                  f"recorded by engine {game.engine_version}: seeded random game {game_seed}")
            written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m shared.ops.golden", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    rec = sub.add_parser("record", help="record golden logs with the importable engine of GAME")
    rec.add_argument("game", nargs="+")
    rec.add_argument("--out", type=Path, default=GOLDEN_ROOT)
    rec.add_argument("--games", type=int, default=1)
    rec.add_argument("--moves", type=int, default=400)
    rec.add_argument("--seed", type=int, default=1)
    rec.add_argument("--missing-only", action="store_true",
                     help="skip a game whose current version already has golden logs")
    for name in ("check", "pin"):
        cmd = sub.add_parser(name)
        cmd.add_argument("files", nargs="+", type=Path)
    args = parser.parse_args(argv)
    if args.command == "record":
        from shared.game import registry
        for name in args.game:
            version = registry.plugin(name).game.engine_version
            if args.missing_only and list((args.out / name / version).glob("*.jsonl")):
                print(f"{name} {version}: golden logs present")
                continue
            for path in record_current(name, args.out, args.games, args.moves, args.seed):
                print(f"wrote {path}")
        return 0
    if args.command == "pin":
        for path in args.files:
            pin(path)
            print(f"pinned {path}")
        return 0
    failed = 0
    for path in args.files:
        verdict = check(path)
        print(f"{'ok' if verdict.ok else 'FAILED'} {path}" + "".join(f"\n  {p}" for p in verdict.problems))
        failed += not verdict.ok
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
