"""Portable logs and their offline verifier: ``boardgames verify FILE [--keys URL|FILE]``.

``GET /games/{id}/log`` gives a game's log as JSON Lines.  The first line is a header::

    {"format": "boardgames-log/1", "game", "game_id", "engine_version", "options", "players",
     "seeded_by_client", "seed_commitment", "status", "complete", "viewer", "version", "head",
     "signature"}

then one record a line, oldest first, as ``/events`` serves them to the same caller: the whole
log once the game is finished or abandoned (``complete``: true), the caller's redacted view before
that.

The verifier needs no server.  For a complete log it checks, in order, and stops at the first
bad record: that the records are numbered 1, 2, 3...; that the header names the last record's
version and hash as the head (a log cut short has another); the signature over that head, with
the keys given (a key set URL or file, or PEM public keys); then, record by record, the hash
chain from the genesis hash to the head (a record edited or moved breaks it), the seed
commitment, its reveal and every seed's derivation, and every event, re-derived by the rules
engine of the version the header names from this installation's packages.  A running game's
redacted view cannot be checked (its hashes cover what is withheld from it): only its numbering,
head and signature are, and the verifier says so.

Exit status: 0 verified; 1 a bad record (named); 2 the file or the keys cannot be read, or this
installation lacks the rules engine the log names; 3 nothing bad, but the log is a running
game's redacted view, or a game abandoned before abandonment revealed the seed, which cannot be
verified in full.
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from shared.log import jsonout, signing
from shared.game import registry
from shared.game.engine import EngineUnavailable, Game
from shared.log.eventstore import GENESIS_HASH
from shared.log.platform_events import GAME_ABANDONED, SEED_REVEALED
from shared.log.replay import audit_log, served_record

FORMAT = "boardgames-log/1"
JSONL = "application/jsonl"

VERIFIED, BAD, CANNOT, INCOMPLETE = 0, 1, 2, 3


class CannotVerify(Exception):
    """The verifier lacks what it needs (a readable file, the keys, the rules engine): exit 2."""


def rules_engine(game: str, engine_version: str) -> Game:
    """The rules engine that recorded ``engine_version`` of ``game``, from the installed packages
    (each game keeps every released version: ``GamePlugin.rules``).  A log of a version this
    installation does not have is refused, never judged by other rules."""
    try:
        plugin = registry.plugin(game)
    except KeyError:
        raise CannotVerify(f"this installation has no game {game!r}") from None
    try:
        return plugin.rules(engine_version)
    except EngineUnavailable as exc:
        raise CannotVerify(f"the log was recorded under {game} rules engine {engine_version!r}; this installation "
                           f"has engines {', '.join(map(repr, exc.served))} only") from None


def log_header(game: Game, game_id: str, meta: dict[str, str], records: list[dict[str, Any]],
               viewer: int | None, finished: bool, signer: signing.Signer | None) -> dict[str, Any]:
    """The first line of a downloaded log (``records`` unredacted: the head is the last one's hash)."""
    version = records[-1]["seq"] if records else 0
    head = records[-1]["hash"] if records else GENESIS_HASH
    engine_version = meta.get("engine_version", game.engine_version)
    setup = (records[0].get("cause") or {}) if records else {}
    signature = None if signer is None else signer.sign(
        signing.head_payload(game.name, game_id, engine_version, version, head, finished))
    return {"format": FORMAT, "game": game.name, "game_id": game_id, "engine_version": engine_version,
            "options": json.loads(meta.get("options", "{}")), "players": json.loads(meta.get("players", "[]")),
            "seeded_by_client": meta.get("seeded_by_client") == "1",
            "seed_commitment": setup.get("seed_commitment"), "status": meta.get("status"),
            "complete": finished, "viewer": viewer, "version": version, "head": head, "signature": signature}


def log_file(game: Game, game_id: str, meta: dict[str, str], records: list[dict[str, Any]],
             viewer: int | None, finished: bool, signer: signing.Signer | None) -> bytes:
    """The JSON Lines file: the header, then each record as ``viewer`` may see it."""
    header = log_header(game, game_id, meta, records, viewer, finished, signer)
    lines = [jsonout.dumps(header)] + [jsonout.dumps(served_record(game, r, viewer, finished)) for r in records]
    return b"\n".join(lines) + b"\n"


@dataclass
class Outcome:
    status: int
    lines: list[str] = field(default_factory=list)
    bad_record: int | None = None
    events_checked: int = 0
    seconds: float = 0.0


class _Bad(Exception):
    def __init__(self, seq: int | None, why: str) -> None:
        super().__init__(why)
        self.seq, self.why = seq, why


def read_log(path: str | Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The header and the records of a JSON Lines log file."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise CannotVerify(f"cannot read {path}: {exc}") from None
    rows = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except ValueError:
            raise _Bad(None, f"line {number} is not JSON") from None
        if not isinstance(row, dict):
            raise _Bad(None, f"line {number} is not a JSON object")
        rows.append(row)
    if not rows or rows[0].get("format") != FORMAT:
        raise CannotVerify(f"{path} does not start with a {FORMAT} header (GET /games/ID/log makes one)")
    return rows[0], rows[1:]


def load_keys(source: str, timeout: float = 10.0) -> dict[str, Any]:
    """kid -> public key from a key set URL (``/.well-known/game-log-keys.json``), a key set file,
    or a PEM file (or directory) of public keys."""
    try:
        if source.startswith(("http://", "https://")):
            import requests
            answer = requests.get(source, timeout=timeout)
            answer.raise_for_status()
            return signing.keys_from_keyset(answer.json())
        path = Path(source)
        if path.is_file() and path.read_text().lstrip().startswith("{"):
            return signing.keys_from_keyset(json.loads(path.read_text()))
        keys = signing.load_public_keys(path)
        return {signing.key_id(key): key for key in keys}
    except CannotVerify:
        raise
    except Exception as exc:  # noqa: BLE001 - a URL that does not answer, a file that is not a key: say which
        raise CannotVerify(f"cannot read the keys from {source}: {type(exc).__name__}: {exc}") from None


def verify_log(header: dict[str, Any], records: list[dict[str, Any]], keys: dict[str, Any] | None) -> Outcome:
    started = time.perf_counter()
    out = Outcome(VERIFIED)
    say = out.lines.append
    name, game_id = header.get("game"), header.get("game_id")
    complete = bool(header.get("complete"))
    viewer = "a spectator" if header.get("viewer") is None else f"seat {header.get('viewer')}"
    status = "abandoned" if any(r.get("type") == GAME_ABANDONED for r in records) else "finished"
    say(f"{name} game {game_id}: {len(records)} records, rules engine {header.get('engine_version')}, "
        + (f"{status}: the whole log" if complete else f"{header.get('status')}: the view of {viewer}"))
    try:
        for expected, record in enumerate(records, 1):
            if record.get("seq") != expected:
                raise _Bad(expected, f"record {expected} is missing or out of place (found seq {record.get('seq')!r})")
        last: dict[str, Any] = records[-1] if records else {"seq": 0, "hash": GENESIS_HASH}
        named = header.get("version")
        if named != last["seq"] or header.get("head") != last.get("hash"):
            # The first record the header and the records disagree on: a missing one, or the last.
            first_bad = min(named, last["seq"]) + 1 if isinstance(named, int) and named != last["seq"] else last["seq"]
            raise _Bad(first_bad, f"the header names version {named} with head {header.get('head')}, the records "
                                  f"end at {last['seq']} with head {last.get('hash')}: the log was cut or changed")
        _check_signature(header, last, keys, say)
        if not complete:
            say("--    hash chain, seeds and rules: not checkable on a running game's redacted view (its hashes "
                "cover what is withheld from this viewer); download the log again once the game is over")
            out.status = INCOMPLETE
        else:
            out.events_checked, seeds_checked = _check_rules(header, records, say)
            if not seeds_checked:
                out.status = INCOMPLETE
    except _Bad as bad:
        out.status, out.bad_record = BAD, bad.seq
        say(f"FAILED at record {bad.seq}: {bad.why}" if bad.seq is not None else f"FAILED: {bad.why}")
    except CannotVerify as exc:
        out.status = CANNOT
        say(f"cannot verify: {exc}")
    out.seconds = time.perf_counter() - started
    if out.status == VERIFIED:
        say(f"VERIFIED: {name} game {game_id}, {len(records)} records")
    elif out.status == INCOMPLETE and not complete:
        say(f"INCOMPLETE: nothing wrong found in what a running game's view lets one check ({len(records)} records)")
    elif out.status == INCOMPLETE:
        say(f"INCOMPLETE: nothing wrong found, but the seeds of this abandoned game cannot be checked "
            f"({len(records)} records)")
    return out


def _check_signature(header: dict[str, Any], last: dict[str, Any], keys: dict[str, Any] | None, say: Any) -> None:
    signature = header.get("signature")
    if keys is None:
        say("--    signature: not checked (give --keys URL|FILE: the service's /.well-known/game-log-keys.json)")
        return
    if signature is None:
        raise _Bad(last["seq"], "the log carries no signature over its head")
    # Built from the records, never from the signature's own copy of what it signed.
    payload = signing.head_payload(str(header.get("game")), str(header.get("game_id")),
                                   str(header.get("engine_version")), last["seq"], str(last.get("hash")),
                                   bool(header.get("complete")))
    try:
        kid = signing.verify(payload, signature, keys)
    except signing.SignatureRefused as exc:
        raise _Bad(last["seq"], f"signature refused: {exc}") from None
    say(f"ok    signature: Ed25519 by key {kid} over version {last['seq']}, head {last.get('hash')}")


def _check_rules(header: dict[str, Any], records: list[dict[str, Any]], say: Any) -> tuple[int, bool]:
    """The events re-derived, and whether the seeds could be checked (False: a game abandoned
    before the platform revealed seeds at abandonment, whose commitment stays closed)."""
    game = rules_engine(str(header.get("game")), str(header.get("engine_version")))
    setup = (records[0].get("cause") or {}) if records else {}
    if header.get("seed_commitment") != setup.get("seed_commitment"):
        raise _Bad(1, "the header's seed commitment is not the one the setup recorded")
    # The audit checks the chain as it goes: each record's hash over the previous one and its content.
    report = audit_log(game, records)
    if not report.ok:
        raise _Bad(report.bad_seq, report.problem or "the audit failed")
    say(f"ok    hash chain: records 1-{report.version} chain from the genesis hash to head {report.head_hash}")
    seeded = [r for r in records if (r.get("cause") or {}).get("kind") in ("setup", "move")]
    reveal = next((r["seq"] for r in records if r.get("type") == SEED_REVEALED), None)
    if report.seeds == "verified":
        say(f"ok    seeds: committed at record 1, revealed at record {reveal}; the {len(seeded)} recorded seeds "
            "(setup and every move) are all derived from it")
    elif report.seeds == "committed":
        abandoned = next((r["seq"] for r in records if r.get("type") == GAME_ABANDONED), None)
        if abandoned is None:
            raise _Bad(records[-1]["seq"], "the log is said finished, but its game never ended")
        say(f"--    seeds: committed at record 1, never revealed (the game was abandoned at record {abandoned} "
            "without revealing its seed): the recorded seeds cannot be checked")
    else:
        say("--    seeds: the game was recorded before seed commitments; the recorded seeds are taken as they are")
    if report.seeded_by_client:
        say("note  the game's creator chose its seed (seeded_by_client): they could predict every roll and card")
    say(f"ok    rules: {report.events} events re-derived by {game.name} rules engine {game.engine_version} "
        f"({len(seeded) - 1} moves and the setup)")
    return report.events, report.seeds != "committed"


def main(path: str, keys_source: str | None, out: IO[str]) -> int:
    """``boardgames verify``: print what was checked; the exit status (see the module)."""
    try:
        keys = load_keys(keys_source) if keys_source else None
        header, records = read_log(path)
        outcome = verify_log(header, records, keys)
    except CannotVerify as exc:
        out.write(f"cannot verify: {exc}\n")
        return CANNOT
    except _Bad as bad:
        out.write(f"FAILED: {bad.why}\n")
        return BAD
    for line in outcome.lines:
        out.write(line + "\n")
    return outcome.status
