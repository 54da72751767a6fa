"""Platform events: records in a game's own log that the platform writes, not the rules.

Seats joined and left, the game started or cancelled, a seat resigned, a rematch linked (the
clocks add theirs).  Their ``type`` begins with ``platform.``; they are public (never redacted),
chained into the log's hashes like every record, and the game's ``evolve``, ``redact``, ``view``
and the audit's re-decide never see them: whoever folds or serves a log skips or passes them.
"""
from __future__ import annotations

from typing import Any

PREFIX = "platform."

SEAT_JOINED = PREFIX + "seat_joined"      # {seat, name}
SEAT_LEFT = PREFIX + "seat_left"          # {seat}
GAME_STARTED = PREFIX + "game_started"    # {}
GAME_CANCELLED = PREFIX + "game_cancelled"  # {seat}: who cancelled
SEAT_RESIGNED = PREFIX + "seat_resigned"  # {seat, bot}: the bot that plays the seat from now on
REMATCH = PREFIX + "rematch"              # {game_id}: the next game
SEED_REVEALED = PREFIX + "seed_revealed"  # {seed, salt}: opens the setup's seed commitment (shared.log.proofs)
# {status: "abandoned", result: null, last_move_at, idle_seconds}: the sweeper ended a game nobody
# moved in for ABANDON_AFTER_SECONDS (shared.play.seats.abandon_if_idle).
GAME_ABANDONED = PREFIX + "game_abandoned"


# The Idempotency-Keys of the moves the platform plays for a seat (a bot's, a resigned seat's, a
# clock's fallback bot's).  Keys are per seat, and a seat's player could otherwise send the very
# key the platform will use, making every attempt of the platform's move 422 and freezing the game:
# these begin with KEY_PREFIX, and clients' keys (shared.http.plumbing.IDEMPOTENCY_KEY_PATTERN) cannot hold
# a '/'.
KEY_PREFIX = "platform/"


def move_key(kind: str, version: int, fallback: bool = False) -> str:
    """The key of the platform's move of ``kind`` (``bot``, ``clock``) at ``version``; ``fallback``:
    the random legal move played when the bot's own choice was refused."""
    return f"{KEY_PREFIX}{kind}/{version}" + ("/fallback" if fallback else "")


def is_platform_event(record_or_type: dict[str, Any] | str) -> bool:
    """Whether a record (or an event type) is the platform's, not the game's."""
    kind = record_or_type if isinstance(record_or_type, str) else record_or_type.get("type", "")
    return isinstance(kind, str) and kind.startswith(PREFIX)
