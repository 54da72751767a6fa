"""Reading a history: the log as one viewer may see it, and the audit of a whole log.

Audit trusts nothing but the rules: it re-runs ``setup`` and every ``decide`` with the seeds
recorded in the log, checks that they give exactly the recorded events, and checks the hash
chain (each hash covers the event's content and the previous hash).
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from shared.engine import Game, IllegalMove
from shared.eventstore import GENESIS_HASH, canonical, event_hash
from shared.platform_events import is_platform_event


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
            for setting in ("clock", "bot_budget_ms"):
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

    def as_dict(self) -> dict[str, Any]:
        body: dict[str, Any] = {"ok": self.ok, "version": self.version, "head_hash": self.head_hash}
        if not self.ok:
            body["first_bad_event"] = self.bad_seq
            body["problem"] = self.problem
        return body


def audit_log(game: Game, records: list[dict[str, Any]]) -> AuditReport:
    head = GENESIS_HASH
    state: Any = None
    i = 0
    last = 0

    def bad(seq: int, why: str) -> AuditReport:
        return AuditReport(False, last, head, seq, why)

    while i < len(records):
        first = records[i]
        cause = first.get("cause")
        if cause is None:
            return bad(first["seq"], "event does not start a move and follows no move")
        batch = [first]
        j = i + 1
        while j < len(records) and "cause" not in records[j]:
            batch.append(records[j])
            j += 1
        for record in batch:
            if record["seq"] != last + 1:
                return bad(record["seq"], f"sequence gap: expected {last + 1}")
            if record["hash"] != event_hash(head, record):
                return bad(record["seq"], "hash does not match the content and the previous hash")
            head, last = record["hash"], record["seq"]
        if cause["kind"] == "platform":
            # Seats and the like: chained (checked above) but no rule decides them, so nothing
            # of the game may ride along.
            if not all(is_platform_event(r) for r in batch):
                return bad(first["seq"], "a game event recorded as the platform's")
            i = j
            continue
        if any(is_platform_event(r) for r in batch):
            return bad(first["seq"], "a platform event recorded as a move's")
        try:
            if cause["kind"] == "setup":
                if state is not None:
                    return bad(first["seq"], "a second setup in one log")
                expected = game.setup(cause["players"], cause["options"], random.Random(cause["seed"]))
            else:
                if state is None:
                    return bad(first["seq"], "a move before the setup")
                if game.result(state) is not None:
                    return bad(first["seq"], "a move after the game ended")
                if cause["seat"] not in game.to_act(state):
                    return bad(first["seq"], f"seat {cause['seat']} moved out of turn")
                expected = game.decide(state, cause["seat"], cause["move"], random.Random(cause["seed"]))
        except IllegalMove as exc:
            return bad(first["seq"], f"the rules reject the recorded move: {exc.reason}: {exc.detail}")
        recorded = [{"type": r["type"], "data": r["data"]} for r in batch]
        if canonical(expected) != canonical(recorded):
            return bad(first["seq"], "the recorded events are not what the rules decide for this move")
        for e in recorded:
            state = game.evolve(state, e)
        i = j
    return AuditReport(True, last, head)
