"""Seat tokens: random bearer tokens handed out once; only their SHA-256 is stored.

Lookup hashes the presented token and compares it with every seat's stored hash in constant
time, so neither the timing nor the store reveals a token.
"""
from __future__ import annotations

import functools
import hashlib
import hmac
import json
import secrets


def new_token() -> str:
    return secrets.token_urlsafe(24)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@functools.lru_cache(maxsize=4096)
def stored_token_hashes(meta_field: str) -> tuple[str | None, ...]:
    """The meta's ``tokens`` field (a JSON list of hashes, None for bots), parsed once per game."""
    return tuple(json.loads(meta_field))


def seat_for_token(token: str, seat_hashes: list[str | None] | tuple[str | None, ...]) -> int | None:
    """The seat whose stored hash matches ``token``, checking every seat (constant time)."""
    presented = hash_token(token).encode()
    found: int | None = None
    for seat, stored in enumerate(seat_hashes):
        # Bot seats have no token: compare against a dummy so every seat costs the same.
        candidate = (stored or "0" * 64).encode()
        if hmac.compare_digest(presented, candidate) and stored is not None:
            found = seat
    return found


def bearer_token(header: str | None) -> str | None:
    """``Authorization: Bearer <token>`` -> token; None when absent or another scheme."""
    if not header:
        return None
    scheme, _, value = header.partition(" ")
    if scheme.lower() != "bearer" or not value.strip():
        return None
    return value.strip()
