"""Reading a history: the log as one viewer may see it, and the audit of a whole log.

Audit trusts nothing but the rules: it re-runs ``setup`` and every ``decide`` with the seeds
recorded in the log, checks that they give exactly the recorded events, and checks the hash
chain (each hash covers the event's content and the previous hash).  A game whose setup commits
to its secret seed (shared.log.proofs) and whose log reveals it at the end has every recorded seed
checked against the derivation from the revealed one, so the server could not choose the dice.
A game the platform ends without a result (``platform.game_abandoned``) reveals its seed in the
same append, and its log is public from then on as a finished game's is.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from collections.abc import Iterator
from typing import Any

from shared.game.engine import Event, Game, IllegalMove
from shared.log import proofs
from shared.log.eventstore import GENESIS_HASH, canonical, event_hash
from shared.log.platform_events import GAME_ABANDONED, SEED_REVEALED, is_platform_event

# What an audit could say of a log's seeds.
SEEDS_VERIFIED = "verified"        # committed at setup, revealed at the end, every seed its derivation
SEEDS_COMMITTED = "committed"      # committed at setup, not revealed yet: the game runs
SEEDS_UNCOMMITTED = "uncommitted"  # a game recorded without a commitment: seeds as the log says

# The statuses of a game whose log is public in full: it is over, and its seed is revealed (a game
# abandoned before the platform revealed seeds at abandonment has nothing left to hide either).
PUBLIC_STATUSES = ("finished", "abandoned")


def log_is_public(status: str | None) -> bool:
    """Whether a game of this status serves every record whole (``served_record``'s ``finished``)."""
    return status in PUBLIC_STATUSES


def served_record(game: Game, record: dict[str, Any], viewer: int | None,
                  finished: bool) -> dict[str, Any]:
    """A stored record as ``viewer`` may see it.

    While the game runs: the engine redacts the event's data; seeds and salts (which would let
    anyone recompute hidden outcomes, or brute-force them from the hash) are withheld; another
    seat's move is reduced to who made it.  Once finished, everything is public.
    """
    if finished:
        return record
    if is_platform_event(record):
        # Public (seats, start, resignations): never redacted; only the salt waits for the end.
        return {k: v for k, v in record.items() if k != "salt"}
    redacted = game.redact({"type": record["type"], "data": record["data"]}, viewer)
    out: dict[str, Any] = {"seq": record["seq"], "type": redacted["type"], "data": redacted["data"],
                           "at": record["at"], "hash": record["hash"]}
    cause = record.get("cause")
    if cause is not None:
        if cause["kind"] == "setup":
            out["cause"] = {"kind": "setup", "players": cause["players"], "options": cause["options"],
                            "seeded_by_client": bool(cause.get("seeded_by_client"))}
            for setting in ("clock", "bot_budget_ms", "seed_commitment"):
                if setting in cause:
                    out["cause"][setting] = cause[setting]
        elif cause.get("seat") == viewer or game.move_is_public(cause["move"]):
            out["cause"] = {"kind": "move", "seat": cause["seat"], "move": cause["move"]}
        else:
            out["cause"] = {"kind": "move", "seat": cause["seat"]}
    return out


@dataclass
class AuditReport:
    ok: bool
    version: int
    head_hash: str
    bad_seq: int | None = None
    problem: str | None = None
    seeds: str = SEEDS_UNCOMMITTED
    seeded_by_client: bool = False
    events: int = 0             # game events re-derived through the rules (platform records not counted)

    def as_dict(self) -> dict[str, Any]:
        body: dict[str, Any] = {"ok": self.ok, "version": self.version, "head_hash": self.head_hash,
                                "seeds": self.seeds, "seeded_by_client": self.seeded_by_client}
        if not self.ok:
            body["first_bad_event"] = self.bad_seq
            body["problem"] = self.problem
        return body


def _opened_seed(records: list[dict[str, Any]]) -> tuple[str | None, int | None, tuple[int, str] | None]:
    """The setup's seed commitment, the secret seed a reveal opens it to (None when none does),
    and the first reveal that does not open it: ``(seq, why)``."""
    setup = records[0].get("cause") if records else None
    commitment = setup.get("seed_commitment") if isinstance(setup, dict) and setup.get("kind") == "setup" else None
    reveal = next((r for r in records if r.get("type") == SEED_REVEALED), None)
    if reveal is None:
        return commitment, None, None
    if commitment is None:
        return None, None, (reveal["seq"], "a seed revealed, but the setup committed to none")
    data = reveal.get("data")
    seed, salt = (data.get("seed"), data.get("salt")) if isinstance(data, dict) else (None, None)
    if not isinstance(seed, int) or isinstance(seed, bool) or not isinstance(salt, str) \
            or proofs.seed_commitment(seed, salt) != commitment:
        return commitment, None, (reveal["seq"], "the revealed seed and salt do not open the setup's commitment")
    return commitment, seed, None


class _Refused(Exception):
    """Where an audit stops: the record and why."""

    def __init__(self, seq: int, why: str) -> None:
        super().__init__(why)
        self.seq, self.why = seq, why


def _moves(records: list[dict[str, Any]]) -> Iterator[list[dict[str, Any]]]:
    """The log's records a move at a time: each batch starts with the record carrying its cause."""
    i = 0
    while i < len(records):
        if records[i].get("cause") is None:
            raise _Refused(records[i]["seq"], "event does not start a move and follows no move")
        j = i + 1
        while j < len(records) and "cause" not in records[j]:
            j += 1
        yield records[i:j]
        i = j


class _Audit:
    """The log checked so far: its chain, the state the rules folded, whether the seed was revealed."""

    def __init__(self, game: Game, secret: int | None, bad_reveal: tuple[int, str] | None) -> None:
        self.game, self.secret, self.bad_reveal = game, secret, bad_reveal
        self.head, self.last, self.events = GENESIS_HASH, 0, 0
        self.state: Any = None
        self.revealed = False
        self.ended_at: int | None = None          # the first record of the move that ended the game
        self.abandoned = False                    # the platform ended the game without a result

    def chain(self, batch: list[dict[str, Any]]) -> None:
        for record in batch:
            if record["seq"] != self.last + 1:
                raise _Refused(record["seq"], f"sequence gap: expected {self.last + 1}")
            if record["hash"] != event_hash(self.head, record):
                raise _Refused(record["seq"], "hash does not match the content and the previous hash")
            self.head, self.last = record["hash"], record["seq"]

    def platform(self, batch: list[dict[str, Any]]) -> None:
        # Seats and the like: chained (checked above) but no rule decides them, so nothing
        # of the game may ride along.
        if not all(is_platform_event(r) for r in batch):
            raise _Refused(batch[0]["seq"], "a game event recorded as the platform's")
        for record in batch:
            if record["type"] == GAME_ABANDONED:
                self.abandoned = True
            if record["type"] != SEED_REVEALED:
                continue
            if self.bad_reveal is not None and self.bad_reveal[0] == record["seq"]:
                raise _Refused(*self.bad_reveal)
            if self.revealed:
                raise _Refused(record["seq"], "the seed revealed a second time")
            if not self.abandoned and (self.state is None or self.game.result(self.state) is None):
                raise _Refused(record["seq"], "the seed revealed before the game ended")
            self.revealed = True

    def move(self, batch: list[dict[str, Any]]) -> None:
        first = batch[0]
        if any(is_platform_event(r) for r in batch):
            raise _Refused(first["seq"], "a platform event recorded as a move's")
        try:
            expected = self._decided(first)
        except IllegalMove as exc:
            raise _Refused(first["seq"], f"the rules reject the recorded move: {exc.reason}: {exc.detail}") from exc
        recorded = [{"type": r["type"], "data": r["data"]} for r in batch]
        if canonical(expected) != canonical(recorded):
            raise _Refused(first["seq"], "the recorded events are not what the rules decide for this move")
        for e in recorded:
            self.state = self.game.evolve(self.state, e)
        self.events += len(recorded)
        if self.ended_at is None and self.game.result(self.state) is not None:
            self.ended_at = first["seq"]

    def _decided(self, first: dict[str, Any]) -> list[Event]:
        """What the rules decide for the move (or setup) that ``first`` starts."""
        game, state, secret, cause, seq = self.game, self.state, self.secret, first["cause"], first["seq"]
        if cause["kind"] == "setup":
            if state is not None:
                raise _Refused(seq, "a second setup in one log")
            if secret is not None and cause.get("seed") != proofs.setup_seed(secret):
                raise _Refused(seq, "the setup's seed is not the one derived from the committed seed")
            return game.setup(cause["players"], cause["options"], random.Random(cause["seed"]))
        if state is None:
            raise _Refused(seq, "a move before the setup")
        if game.result(state) is not None:
            raise _Refused(seq, "a move after the game ended")
        if self.abandoned:
            raise _Refused(seq, "a move after the game was abandoned")
        if cause["seat"] not in game.to_act(state):
            raise _Refused(seq, f"seat {cause['seat']} moved out of turn")
        if secret is not None and cause.get("seed") != proofs.move_seed(secret, seq - 1, cause["seat"]):
            raise _Refused(seq, "the move's seed is not the one derived from the committed seed")
        return game.decide(state, cause["seat"], cause["move"], random.Random(cause["seed"]))


def audit_log(game: Game, records: list[dict[str, Any]]) -> AuditReport:
    commitment, secret, bad_reveal = _opened_seed(records)
    setup_cause = records[0].get("cause") if records else None
    by_client = bool(setup_cause.get("seeded_by_client")) if isinstance(setup_cause, dict) else False
    seeds = SEEDS_UNCOMMITTED if commitment is None else SEEDS_VERIFIED if secret is not None else SEEDS_COMMITTED
    audit = _Audit(game, secret, bad_reveal)
    try:
        for batch in _moves(records):
            audit.chain(batch)
            if batch[0]["cause"]["kind"] == "platform":
                audit.platform(batch)
            else:
                audit.move(batch)
        if bad_reveal is not None:
            raise _Refused(*bad_reveal)
        if commitment is not None and audit.ended_at is not None and not audit.revealed:
            # A server that hid the seed could have chosen any dice: an ended game must open it.
            raise _Refused(audit.ended_at, "the game ended but its seed commitment was never opened")
    except _Refused as refused:
        return AuditReport(False, audit.last, audit.head, refused.seq, refused.why, seeds, by_client, audit.events)
    return AuditReport(True, audit.last, audit.head, seeds=seeds, seeded_by_client=by_client, events=audit.events)
