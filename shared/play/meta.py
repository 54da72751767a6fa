"""A game's meta: the Redis hash beside its log (players, tokens, seed, status, clock, lifetime).

Redis keeps it as a hash of strings: flags as ``"1"``/``"0"``, lists and objects as JSON, numbers
as decimal text.  :class:`GameMeta` is that hash typed, and this module is the one place that
turns the one into the other: :meth:`GameMeta.from_hash` reads every hash a released version
wrote (fields added later are optional and keep the meaning their absence had), and
:meth:`GameMeta.to_hash` writes a new game's.  The fields a move changes are written as
:func:`status_fields`.  Fields this module does not name (rematch links, the host's token hash,
reservations, the clock's deadlines) ride along in ``extra`` as they are stored.
"""
from __future__ import annotations

import functools
import json
from dataclasses import dataclass, field
from typing import Any

from shared.log.eventstore import canonical

# The fields :class:`GameMeta` names; every other field is kept in ``extra`` as stored.
_NAMED = ("game", "engine_version", "players", "tokens", "seed", "seed_salt", "seeded_by_client",
          "created_at", "listed", "options", "bot_budget_ms", "status", "to_act", "result",
          "persist_at_version", "finished_ttl", "turn_seconds", "fallback_bot", "version", "head",
          "moved_at")


def _flag(value: bool) -> str:
    return "1" if value else "0"


def _optional_int(raw: str | None) -> int | None:
    return int(raw) if raw else None


@dataclass
class GameMeta:
    game: str
    engine_version: str
    players: list[dict[str, Any]]        # the public seats: {seat, name, bot[, open, reserved, resigned]}
    tokens: list[str | None]             # each seat's token hash (None: a bot's or an open seat)
    seed: int
    created_at: int                      # ms since the epoch
    options: dict[str, Any]
    status: str                          # waiting, active, finished, cancelled, abandoned
    to_act: list[int]
    result: dict[str, Any] | None
    seed_salt: str | None = None         # None: a game from before seed commitments
    seeded_by_client: bool = False
    listed: bool | None = None           # None: not recorded (each reader keeps its own default)
    bot_budget_ms: int | None = None
    persist_at_version: int | None = None   # the first move appended onto this version persists the game
    finished_ttl: int | None = None      # seconds the game's keys live once it is over
    turn_seconds: int | None = None      # the turn clock; None: none
    fallback_bot: str | None = None      # who plays a seat whose clock ran out (None: the game's default)
    version: int = 0                     # written by the append, never by the platform's fields
    head: str = ""
    moved_at: int | None = None
    extra: dict[str, str] = field(default_factory=dict)

    @classmethod
    def from_hash(cls, raw: dict[str, str]) -> GameMeta:
        """The meta as Redis holds it, of a game created by any released version."""
        return cls(
            game=raw["game"],
            engine_version=raw.get("engine_version", "1"),
            players=json.loads(raw["players"]),
            tokens=tokens_of(raw),
            seed=int(raw["seed"]),
            created_at=created_at(raw),
            options=options_of(raw),
            status=raw.get("status", "active"),
            to_act=to_act_of(raw),
            result=json.loads(raw["result"]) if raw.get("result") else None,
            seed_salt=raw.get("seed_salt"),
            seeded_by_client=seeded_by_client(raw),
            listed=None if "listed" not in raw else raw["listed"] == "1",
            bot_budget_ms=_optional_int(raw.get("bot_budget_ms")),
            persist_at_version=_optional_int(raw.get("persist_at_version")),
            finished_ttl=_optional_int(raw.get("finished_ttl")),
            turn_seconds=_optional_int(raw.get("turn_seconds")),
            fallback_bot=raw.get("fallback_bot") or None,
            version=int(raw.get("version") or 0),
            head=raw.get("head", ""),
            moved_at=_optional_int(raw.get("moved_at")),
            extra={k: v for k, v in raw.items() if k not in _NAMED},
        )

    def to_hash(self) -> dict[str, str]:
        """The hash of a new game (``version`` and ``head`` are the append's to write)."""
        raw = {
            "game": self.game,
            "engine_version": self.engine_version,
            "players": json.dumps(self.players),
            "tokens": json.dumps(self.tokens),
            "seed": str(self.seed),
        }
        if self.seed_salt is not None:
            raw["seed_salt"] = self.seed_salt
        raw.update(seeded_by_client=_flag(self.seeded_by_client), created_at=str(self.created_at))
        if self.listed is not None:
            raw["listed"] = _flag(self.listed)
        raw["options"] = canonical(self.options)
        if self.bot_budget_ms is not None:
            raw["bot_budget_ms"] = str(self.bot_budget_ms)
        raw.update(status_fields(self.status, self.to_act, self.result))
        if self.persist_at_version is not None:
            raw["persist_at_version"] = str(self.persist_at_version)
        if self.finished_ttl is not None:
            raw["finished_ttl"] = str(self.finished_ttl)
        raw.update(clock_settings(self.turn_seconds, self.fallback_bot))
        if self.moved_at is not None:
            raw["moved_at"] = str(self.moved_at)
        raw.update(self.extra)
        return raw


def status_fields(status: str, to_act: list[int], result: dict[str, Any] | None) -> dict[str, str]:
    """The fields a move (or a seat change) rewrites: where the game stands."""
    return {"status": status, "to_act": json.dumps(to_act), "result": json.dumps(result)}


def clock_settings(turn_seconds: int | None, fallback_bot: str | None) -> dict[str, str]:
    """A game's clock settings as stored: ``fallback_bot`` is ``""`` for the default when the game
    has a clock, and the field is absent without one unless a bot was named."""
    if turn_seconds is None:
        return {"fallback_bot": fallback_bot} if fallback_bot else {}
    return {"turn_seconds": str(turn_seconds), "fallback_bot": fallback_bot or ""}


# -- one field at a time ---------------------------------------------------------------------------

def players_of(meta: dict[str, str]) -> list[dict[str, Any]]:
    """The public seats: ``{seat, name, bot[, open, reserved, resigned]}`` each."""
    return json.loads(meta.get("players") or "[]")


@functools.lru_cache(maxsize=4096)
def bot_seats(players_field: str) -> frozenset[int]:
    """The seats a bot plays, from the meta's ``players`` field (parsed once per game, not per move)."""
    return frozenset(seat for seat, player in enumerate(json.loads(players_field)) if player.get("bot"))


@functools.lru_cache(maxsize=4096)
def resigned_seats(players_field: str) -> frozenset[int]:
    """The seats whose player resigned (a bot plays them; their token only reads)."""
    return frozenset(seat for seat, player in enumerate(json.loads(players_field)) if player.get("resigned"))


def tokens_field(meta: dict[str, str]) -> str:
    """The ``tokens`` field as stored (``shared.play.auth.stored_token_hashes`` parses it once per game)."""
    return meta.get("tokens") or "[]"


def tokens_of(meta: dict[str, str]) -> list[str | None]:
    """Each seat's token hash (None: a bot's or an open seat)."""
    return json.loads(tokens_field(meta))


def reserved_of(meta: dict[str, str]) -> list[str | None]:
    """A rematch's seats kept for their previous players: each seat's old token hash, or None."""
    return json.loads(meta.get("reserved") or "[]")


def options_of(meta: dict[str, str]) -> dict[str, Any]:
    return json.loads(meta.get("options") or "{}")


def to_act_of(meta: dict[str, str]) -> list[int]:
    return json.loads(meta.get("to_act") or "[]")


def is_listed(meta: dict[str, str], default: bool) -> bool:
    """Whether the game is in the public list; ``default`` for a hash that does not say (an early release's)."""
    return meta["listed"] == "1" if "listed" in meta else default


def seeded_by_client(meta: dict[str, str]) -> bool:
    return meta.get("seeded_by_client") == "1"


def created_at(meta: dict[str, str]) -> int:
    return int(meta.get("created_at") or 0)


def seat_fields(players: list[dict[str, Any]], tokens: list[str | None] | None = None) -> dict[str, str]:
    """The fields a seat change rewrites: the public seats, and their token hashes when they change."""
    fields = {"players": json.dumps(players)}
    if tokens is not None:
        fields["tokens"] = json.dumps(tokens)
    return fields


def reserved_field(reserved: list[str | None]) -> dict[str, str]:
    return {"reserved": json.dumps(reserved)}
