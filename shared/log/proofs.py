"""Provably fair randomness: every seed of a game comes from one secret, committed to at creation.

A game has one secret seed (63 random bits, or the creator's number where ``ALLOW_CLIENT_SEED``
lets them choose it).  Every random outcome of the game is drawn from a seed derived from it:

* the setup's seed is ``derive_seed(secret, 0)``;
* a move's seed is ``derive_seed(secret, v, seat)``, where ``v`` is the seq of the record just
  before the move's first event (the version the move was appended onto, counting platform
  records appended with it) and ``seat`` the seat that moved;

``derive_seed(secret, *parts)`` is the first 8 bytes of SHA-256 over the UTF-8 text
``"<secret>:<part>:<part>..."`` (decimal integers), read big-endian and shifted right by one bit
(a non-negative 63-bit int), which seeds Python's ``random.Random`` as the rules engine draws.

At creation the setup record's cause carries ``seed_commitment``: SHA-256 (hex) over the text
``"<secret>:<salt>"``, where ``salt`` is 32 random hex digits kept secret with the seed.  Every
seat sees it from the start.  When the game finishes, a ``platform.seed_revealed`` record
``{seed, salt}`` is appended in the same append as the events that end it.  Anyone holding the
finished log can then check that the revealed seed is the committed one, that every recorded
seed is its derivation (so the server could not pick the dice), and that every event follows
from the rules with those seeds (:func:`shared.log.replay.audit_log`).
"""
from __future__ import annotations

import hashlib
import secrets
from typing import Any

from shared.log.platform_events import SEED_REVEALED


def derive_seed(game_seed: int, *parts: Any) -> int:
    """A seed derived from the game's secret seed: reproducible for seeded games, unguessable otherwise."""
    text = ":".join(str(p) for p in (game_seed, *parts))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


def setup_seed(game_seed: int) -> int:
    return derive_seed(game_seed, 0)


def move_seed(game_seed: int, before_seq: int, seat: int) -> int:
    """The seed of a move whose first event follows record ``before_seq``."""
    return derive_seed(game_seed, before_seq, seat)


def new_salt() -> str:
    return secrets.token_hex(16)


def seed_commitment(game_seed: int, salt: str) -> str:
    """What the game publishes at creation: SHA-256 over ``"<seed>:<salt>"``, hex."""
    return hashlib.sha256(f"{game_seed}:{salt}".encode()).hexdigest()


def reveal_event(game_seed: int, salt: str) -> dict[str, Any]:
    """The platform event that opens the commitment once the game is over."""
    return {"type": SEED_REVEALED, "data": {"seed": game_seed, "salt": salt}}
