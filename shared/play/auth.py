"""Seat tokens: random bearer tokens handed out once; only their SHA-256 is stored.

Lookup hashes the presented token and compares it with every seat's stored hash in constant
time, so neither the timing nor the store reveals a token.
"""
from __future__ import annotations

import functools
import hashlib
import hmac
import json
import re
import secrets
from collections.abc import Callable

# Seat tokens are ``<game id>.<secret>`` (see GameRuntime.create); game ids match runtime.GAME_ID.
_TOKEN_SHAPE = re.compile(r"([A-Za-z0-9_\-]{1,64})\.[A-Za-z0-9_\-]{1,128}")


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


def valid_for_another_game(token: str, this_game: str,
                           tokens_of: Callable[[str], str | None]) -> bool:
    """True only when ``token`` is proven to be a seat's token of another existing game: its prefix
    names a game whose stored hashes (``tokens_of(game_id)``: the meta's ``tokens`` field, None
    for no such game) hold the token's hash.  A garbage token, or one naming a game that does not
    exist or does not hold it, is not another game's: it is merely invalid (401, not 403)."""
    shape = _TOKEN_SHAPE.fullmatch(token)
    if shape is None or shape.group(1) == this_game:
        return False
    stored = tokens_of(shape.group(1))
    return stored is not None and seat_for_token(token, stored_token_hashes(stored)) is not None


def bearer_token(header: str | None) -> str | None:
    """``Authorization: Bearer <token>`` -> token; None when absent or another scheme."""
    if not header:
        return None
    scheme, _, value = header.partition(" ")
    if scheme.lower() != "bearer" or not value.strip():
        return None
    return value.strip()
