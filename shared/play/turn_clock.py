"""The turn clock as data: the meta field a game's clock lives in, and how one append changes it.

Pure: no Redis and no queue.  The runtime writes the clock that :func:`after_append` computes in the same
atomic append as the events; :mod:`shared.play.clocks` schedules and runs the expiries (see its docstring
for the rules a clock follows).
"""
from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, UTC
from typing import TYPE_CHECKING, Any

from shared.game.engine import Game
from shared.game.plugin import GamePlugin

if TYPE_CHECKING:
    from shared.play.runtime import LoadedGame

FIELD = "clock"                      # the meta field holding the clock (JSON)
EXPIRED = "platform.clock_expired"
MAX_TURN_SECONDS = 7 * 24 * 3600
RUNNING = ("active", "running")      # the statuses whose clocks run (never "waiting")
ENDED = ("finished", "cancelled", "abandoned")   # no clock runs again


def default_fallback(plugin: GamePlugin) -> str:
    """The bot that plays for a seat whose time ran out (or that resigned): the plugin's choice, else
    its rule-of-thumb bot, the last listed strategy other than ``random`` that answers at once.  Not
    the search bot (``expert``): a seat whose player is gone need not hold a worker for a budget a
    move, and a clock's move should come right at the deadline."""
    return plugin.fallback_bot or plugin.rule_of_thumb_bot()


def iso(ms: int) -> str:
    """A deadline as clients see it: ISO 8601 in UTC with milliseconds, e.g. 2026-11-25T14:30:00.250Z."""
    return datetime.fromtimestamp(ms / 1000, UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


def iso_to_ms(text: str) -> int:
    """The inverse of :func:`iso` (clients and tests read deadlines back)."""
    return int(datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC).timestamp() * 1000)


def now_ms() -> int:
    return int(time.time() * 1000)


# -- the clock in the meta ------------------------------------------------------------------------

def turn_seconds(meta: dict[str, str]) -> int | None:
    raw = meta.get("turn_seconds")
    return int(raw) if raw else None


def settings(meta: dict[str, str]) -> dict[str, Any]:
    """A game's clock settings as ``GameRuntime.create`` takes them (a rematch keeps them)."""
    return {"turn_seconds": turn_seconds(meta), "fallback_bot": meta.get("fallback_bot") or None}


def parse(meta: dict[str, str]) -> dict[str, Any] | None:
    raw = meta.get(FIELD)
    return json.loads(raw) if raw else None


def deadlines(meta: dict[str, str]) -> dict[str, str]:
    """The view's ``deadlines``: seat (as a string) -> ISO 8601 deadline, for running games."""
    clock = parse(meta)
    if clock is None or meta.get("status") not in RUNNING or str(clock["v"]) != meta.get("version"):
        return {}                    # none, or behind the log until the clock starts again (restart)
    return {seat: iso(entry[0]) for seat, entry in sorted(clock["seats"].items(), key=lambda kv: int(kv[0]))}


@dataclass
class ClockChange:
    """The clock after an append: its meta field, and the deadlines set by this very append."""
    clock: dict[str, Any]
    new: list[tuple[int, int, int]] = field(default_factory=list)    # (seat, deadline_ms, set_at)
    gone: list[tuple[int, int, int]] = field(default_factory=list)   # deadlines this append ended
    waiting: bool = False            # a game waiting for players: the sweeper starts its clock later
    fallback: str | None = None      # the game's fallback bot ('' or None: the default), for its jobs' queue

    @property
    def fields(self) -> dict[str, str]:
        return {FIELD: json.dumps(self.clock, separators=(",", ":"))}

    @property
    def earliest(self) -> int | None:
        """When the sweeper should look at the game (None: never)."""
        return min((entry[0] for entry in self.clock["seats"].values()), default=now_ms() if self.waiting else None)


def advance(before: dict[str, Any] | None, before_version: int, version: int, to_act: list[int],
            humans: set[int], mover: int | None = None, expired: bool = False,
            turn: int = 0, now: int | None = None) -> ClockChange:
    """The clock right after event ``version`` (see the module's rules).  ``before`` is the clock
    after ``before_version``; a clock of another version (or none) counts as unknown, and every
    seat to act then starts a full turn (a deadline too late, never one too early)."""
    now = now_ms() if now is None else now
    known = before["seats"] if before is not None and before.get("v") == before_version else {}
    seats: dict[str, list[int]] = {}
    new = []
    for seat in to_act:
        if seat not in humans:
            continue
        kept = known.get(str(seat))
        if kept is not None and seat != mover:
            seats[str(seat)] = kept
            continue
        deadline = now if (expired and seat == mover) else now + turn * 1000
        seats[str(seat)] = [deadline, version]
        new.append((seat, deadline, version))
    gone = [(int(seat), entry[0], entry[1]) for seat, entry in known.items() if seats.get(seat) != entry]
    return ClockChange({"v": version, "seats": seats}, new, gone)


def after_append(loaded: LoadedGame, state: Any, version: int, mover: int | None, expired: bool,
                 rules: Game, stored_meta: Callable[[], dict[str, str] | None]) -> ClockChange | None:
    """The clock to write with an append that takes ``loaded`` to ``state`` at ``version``;
    None for a game without a clock, or one not running.  ``rules``: the engine the game keeps;
    ``stored_meta`` reads the game's meta from the store (needed only when ``loaded``'s is behind)."""
    meta = loaded.meta
    turn = turn_seconds(meta)
    if turn is None:
        return None
    if meta.get("status") == "waiting":
        # No clock runs yet; the game is noted for the sweeper, which starts its clock once it
        # runs (``restart``), should whatever starts it not do so itself.
        return ClockChange({"v": version, "seats": {}}, waiting=True)
    before = parse(meta)
    if loaded.version and (before is None or before.get("v") != loaded.version):
        # This process's copy of the meta is older than its state (a copy that caught up): the
        # clock of that version is in Redis, unless the game moved on (then the append fails).
        before = parse(stored_meta() or {})
    acting = [] if meta.get("status") in ENDED else acting_seats(rules, state)  # ended: every deadline goes
    change = advance(before, loaded.version, version, acting, human_seats(loaded), mover, expired, turn)
    change.fallback = meta.get("fallback_bot") or None
    return change


def acting_seats(game: Game, state: Any) -> list[int]:
    return [] if game.result(state) is not None else game.to_act(state)


def human_seats(loaded: LoadedGame) -> set[int]:
    """The seats a clock may run for: a bot's (a resigned seat's too) never waits for anyone."""
    return {seat for seat, player in enumerate(loaded.players) if not player.get("bot")}


