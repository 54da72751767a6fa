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
from typing import Any

from shared.log import proofs
from shared.game.engine import Game, IllegalMove
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


def audit_log(game: Game, records: list[dict[str, Any]]) -> AuditReport:
    head = GENESIS_HASH
    state: Any = None
    i = 0
    last = 0
    events = 0
    commitment, secret, bad_reveal = _opened_seed(records)
    revealed = False
    ended_at: int | None = None          # the first record of the move that ended the game
    abandoned = False                    # the platform ended the game without a result
    setup_cause = records[0].get("cause") if records else None
    by_client = bool(setup_cause.get("seeded_by_client")) if isinstance(setup_cause, dict) else False

    def bad(seq: int, why: str) -> AuditReport:
        return AuditReport(False, last, head, seq, why, seeds_status(), by_client, events)

    def seeds_status() -> str:
        if commitment is None:
            return SEEDS_UNCOMMITTED
        return SEEDS_VERIFIED if secret is not None else SEEDS_COMMITTED

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
            for record in batch:
                if record["type"] == GAME_ABANDONED:
                    abandoned = True
                if record["type"] != SEED_REVEALED:
                    continue
                if bad_reveal is not None and bad_reveal[0] == record["seq"]:
                    return bad(*bad_reveal)
                if revealed:
                    return bad(record["seq"], "the seed revealed a second time")
                if not abandoned and (state is None or game.result(state) is None):
                    return bad(record["seq"], "the seed revealed before the game ended")
                revealed = True
            i = j
            continue
        if any(is_platform_event(r) for r in batch):
            return bad(first["seq"], "a platform event recorded as a move's")
        try:
            if cause["kind"] == "setup":
                if state is not None:
                    return bad(first["seq"], "a second setup in one log")
                if secret is not None and cause.get("seed") != proofs.setup_seed(secret):
                    return bad(first["seq"], "the setup's seed is not the one derived from the committed seed")
                expected = game.setup(cause["players"], cause["options"], random.Random(cause["seed"]))
            else:
                if state is None:
                    return bad(first["seq"], "a move before the setup")
                if game.result(state) is not None:
                    return bad(first["seq"], "a move after the game ended")
                if abandoned:
                    return bad(first["seq"], "a move after the game was abandoned")
                if cause["seat"] not in game.to_act(state):
                    return bad(first["seq"], f"seat {cause['seat']} moved out of turn")
                derived = None if secret is None else proofs.move_seed(secret, first["seq"] - 1, cause["seat"])
                if secret is not None and cause.get("seed") != derived:
                    return bad(first["seq"], "the move's seed is not the one derived from the committed seed")
                expected = game.decide(state, cause["seat"], cause["move"], random.Random(cause["seed"]))
        except IllegalMove as exc:
            return bad(first["seq"], f"the rules reject the recorded move: {exc.reason}: {exc.detail}")
        recorded = [{"type": r["type"], "data": r["data"]} for r in batch]
        if canonical(expected) != canonical(recorded):
            return bad(first["seq"], "the recorded events are not what the rules decide for this move")
        for e in recorded:
            state = game.evolve(state, e)
        events += len(recorded)
        if ended_at is None and game.result(state) is not None:
            ended_at = first["seq"]
        i = j
    if bad_reveal is not None:
        return bad(*bad_reveal)
    if commitment is not None and ended_at is not None and not revealed:
        # A server that hid the seed could have chosen any dice: an ended game must open it.
        return bad(ended_at, "the game ended but its seed commitment was never opened")
    return AuditReport(True, last, head, seeds=seeds_status(), seeded_by_client=by_client, events=events)
