"""The path of one move, shared by the HTTP service and the bot worker.

``GameRuntime`` loads a game by replaying its log (cache or snapshot, then the tail), asks the
engine to decide, appends the events with the expected version and head hash, and tells the bot
queue who is next.  A move may start from this process's copy of the game (``peek``): the
append's check turns a copy that is behind into a retry, so it never costs a wrong answer.
It knows no HTTP: it raises :class:`shared.play.problems.Problem` for the service to render.
"""
from __future__ import annotations

import functools
import hashlib
import logging
import os
import pickle
import random
import re
import secrets
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Protocol, cast
from collections.abc import Callable, Sequence

import redis

from shared.game.engine import EngineUnavailable, Event, Game, IllegalMove, Move
from shared.log import proofs
from shared.log.eventstore import (GENESIS_HASH, AppendResult, EventStore, canonical, event_hash,
                                   snapshot_document)
from shared.log.platform_events import is_platform_event
from shared.play import turn_clock
from shared.play.auth import hash_token, new_token
from shared.play.meta import GameMeta, bot_seats, created_at, is_listed, players_of, resigned_seats
from shared.play.meta import status_fields as meta_status_fields
from shared.play.problems import Problem, RetryLater

log = logging.getLogger("runtime")

BotNotifier = Callable[[str, int, list[int]], None]   # (game_id, version, bot seats to act)


@dataclass(frozen=True)
class AppendNews:
    """What an accepted append leaves for others to do: the bot seats to act after it and the turn
    clock it writes.  ``version``: the version the append leads to."""
    game_id: str
    version: int
    bots: tuple[int, ...] = ()
    clock: turn_clock.ClockChange | None = None


class AppendListener(Protocol):
    """Told of appends by the runtime, which knows nothing else of them (the bot queue, the turn
    clocks' jobs).  ``before_append`` runs before the append: a listener leaves there the trace from
    which the sweeper redoes its work should this process die before ``appended``, which runs once
    the events are in the log.  Both are best effort: a failure is logged, never the move's."""

    def before_append(self, news: AppendNews) -> None: ...

    def appended(self, news: AppendNews) -> None: ...


class NotifyBots:
    """A listener that hands each append's bot turns to a callable (tests and tools that play bots
    themselves, or want none played: ``lambda *turn: None``)."""

    def __init__(self, notify: BotNotifier) -> None:
        self.notify = notify

    def before_append(self, news: AppendNews) -> None:
        return None

    def appended(self, news: AppendNews) -> None:
        if news.bots:
            self.notify(news.game_id, news.version, list(news.bots))


GAME_ID = re.compile(r"[A-Za-z0-9_\-]{1,64}")

derive_seed = proofs.derive_seed      # bots, the bench and the examples derive their seeds here too


# How soon a client may retry a game whose engine version this process does not serve: during a
# rolling deploy another instance (or this one, once replaced) serves it within moments.
ENGINE_RETRY_AFTER_SECONDS = 5


def engine_unavailable(exc: EngineUnavailable) -> RetryLater:
    """503 for a game whose rules engine version this process does not serve: it is never played,
    shown or audited by another version's rules."""
    return RetryLater("engine-unavailable",
                      f"This game is played under {exc.game} rules engine version {exc.version}, which this "
                      f"instance does not serve (it serves {', '.join(exc.served) or 'none'}); retry shortly.",
                      ENGINE_RETRY_AFTER_SECONDS, engine_version=exc.version, served_engine_versions=list(exc.served))


def game_cancelled() -> Problem:
    """What any move or seat change meets on a game its host cancelled before the start."""
    return Problem("game-cancelled", "The game was cancelled before it started.")


def game_abandoned() -> Problem:
    """What any move meets on a game the sweeper ended because nobody moved in it for too long."""
    return Problem("game-abandoned", "Nobody moved in this game for too long: it ended as abandoned.")


def new_game_id() -> str:
    return secrets.token_urlsafe(9).replace("-", "x").replace("_", "y")


class _SaltSource:
    """Each event's salt: 8 random bytes from the OS, which are drawn 4 KB at a time.

    Reading the OS's generator is a system call, which on a busy threaded worker hands the GIL
    to another thread and back.  The salts hide hidden cards from whoever sees only hashes, so
    a forked process never reuses its parent's undrawn salts.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._hex = ""
        os.register_at_fork(after_in_child=self._forget)

    def _forget(self) -> None:
        self._lock = threading.Lock()
        self._hex = ""

    def take(self, count: int) -> list[str]:
        with self._lock:
            if len(self._hex) < 16 * count:
                self._hex += secrets.token_hex(max(4096, 8 * count))
            drawn, self._hex = self._hex[:16 * count], self._hex[16 * count:]
        return [drawn[16 * i:16 * i + 16] for i in range(count)]


_salts = _SaltSource()


def _new_seats(game_id: str, players: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The seats of a new game as its creator is told them: a token for each seat a person plays
    (open seats and bots have none)."""
    seats: list[dict[str, Any]] = []
    for seat, player in enumerate(players):
        bot = player.get("bot")
        is_open = bool(player.get("open"))
        # The game id prefix lets the service tell "another game's token" (403) from garbage (401).
        token = None if bot or is_open else f"{game_id}.{new_token()}"
        seats.append({"seat": seat, "name": player.get("name"), "bot": None if is_open else bot, "token": token})
        if is_open:
            seats[-1]["open"] = True
            if player.get("reserved"):
                seats[-1]["reserved"] = True
    return seats


def _setup_cause(players: int, options: dict[str, Any], game_seed: int, seeded_by_client: bool, seed_salt: str,
                 turn_seconds: int | None, fallback_bot: str | None, bot_budget_ms: int | None) -> dict[str, Any]:
    """The cause of a game's setup events: in the hashed log, so replay and audit know how the game
    was set up and no claim in it can be quietly changed."""
    # Every seat and spectator is told (served_record, the view) when the creator chose the seed
    # and can so predict the game.
    cause: dict[str, Any] = {"kind": "setup", "players": players, "options": options,
                             "seed": proofs.setup_seed(game_seed), "seeded_by_client": seeded_by_client,
                             # Every seat sees it from the start; the seed and salt are revealed at the end.
                             "seed_commitment": proofs.seed_commitment(game_seed, seed_salt)}
    if turn_seconds is not None or fallback_bot:
        cause["clock"] = {"turn_seconds": turn_seconds, "fallback_bot": fallback_bot or ""}
    if bot_budget_ms is not None:
        cause["bot_budget_ms"] = bot_budget_ms
    return cause


def _only_engine(game: Game, version: str) -> Game:
    """The engines of a runtime that serves one version: ``game``'s."""
    if version != game.engine_version:
        raise EngineUnavailable(game.name, version, (game.engine_version,))
    return game


@dataclass
class LoadedGame:
    game_id: str
    version: int
    state: Any                 # a private copy: the holder may evolve it
    meta: dict[str, str]
    head: str
    fresh: bool = True         # read from Redis just now (False: this process's copy, maybe behind)

    @property
    def players(self) -> list[dict[str, Any]]:
        return players_of(self.meta)

    @property
    def bot_seats(self) -> frozenset[int]:
        return bot_seats(self.meta["players"])

    @property
    def seed(self) -> int:
        return int(self.meta["seed"])


@dataclass
class MoveOutcome:
    version: int
    records: list[dict[str, Any]]     # the stored records this move appended (unredacted)
    finished: bool = False            # the game is over after this move (its log is public)
    duplicate: bool = False           # an idempotent retry answered from the log


@dataclass
class _MoveDraft:
    """A move decided on a loaded game: what its append writes, and the game after it."""
    rules: Game
    records: list[dict[str, Any]]     # the platform's records, the move's, and a seed reveal at the end
    state: Any
    finished: bool
    bots: list[int]                   # the bot seats to act after it
    meta_fields: dict[str, str]
    clock: turn_clock.ClockChange | None


class _Entry:
    __slots__ = ("version", "head", "meta", "blob", "live")

    def __init__(self, version: int, head: str, meta: dict[str, str], blob: bytes | None, live: Any) -> None:
        self.version, self.head, self.meta = version, head, meta
        self.blob = blob        # the state pickled: every reader unpickles its own copy
        self.live = live        # or the state object itself, handed over by the move that made it


class StateCache:
    """A small per-process LRU of ``game_id -> (version, head, state, meta)``.

    Reads never trust it alone: ``load`` asks Redis for the current version and folds what the
    cache lacks.  Moves may start from it (``take``): the append's version check catches a copy
    that is behind.

    Every caller gets a state nobody else holds.  Readers (``get``) unpickle a copy.  Moves go
    one after another on a game, so the state a move made is handed to the cache as it is
    (``give``) and the next move takes that very object (``take``): a warm move pickles
    nothing.  The first reader in between pickles it once (under the lock, so no move is
    evolving it meanwhile); a move arriving while another has the state takes that copy, or
    finds nothing and loads from Redis.
    """

    def __init__(self, size: int = 512) -> None:
        self.size = size
        self._entries: OrderedDict[str, _Entry] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, game_id: str) -> tuple[int, str, Any, dict[str, str]] | None:
        """A copy of the state, for the caller to read or evolve."""
        with self._lock:
            entry = self._entries.get(game_id)
            if entry is None:
                return None
            self._entries.move_to_end(game_id)
            if entry.blob is None:
                entry.blob = pickle.dumps(entry.live, protocol=pickle.HIGHEST_PROTOCOL)
        return entry.version, entry.head, pickle.loads(entry.blob), entry.meta

    def take(self, game_id: str) -> tuple[int, str, Any, dict[str, str]] | None:
        """The state itself when the cache holds it (a move then owns it), else a copy."""
        with self._lock:
            entry = self._entries.get(game_id)
            if entry is None:
                return None
            self._entries.move_to_end(game_id)
            live, entry.live = entry.live, None
            if entry.blob is None:
                del self._entries[game_id]          # nothing left to copy from: the mover has it
        state = live if live is not None else pickle.loads(cast(bytes, entry.blob))   # one of the two is set
        return entry.version, entry.head, state, entry.meta

    def peek_meta(self, game_id: str) -> dict[str, str] | None:
        """The meta of the kept copy (tokens, players: they change only by platform events, which
        a move's append on a copy that is behind refuses), without the state."""
        with self._lock:
            entry = self._entries.get(game_id)
            return entry.meta if entry is not None else None

    def put(self, game_id: str, version: int, head: str, state: Any, meta: dict[str, str],
            replace: bool = False) -> None:
        """Keep a copy of ``state`` unless a newer one is kept (``replace``: keep it anyway)."""
        self._keep(game_id, _Entry(version, head, meta, pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL),
                                   None), replace)

    def give(self, game_id: str, version: int, head: str, state: Any, meta: dict[str, str]) -> None:
        """Keep ``state`` itself: the caller must neither read nor change it afterwards."""
        self._keep(game_id, _Entry(version, head, meta, None, state), replace=False)

    def _keep(self, game_id: str, entry: _Entry, replace: bool) -> None:
        with self._lock:
            current = self._entries.get(game_id)
            if current is not None and current.version > entry.version and not replace:
                return
            self._entries[game_id] = entry
            self._entries.move_to_end(game_id)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()


REPLAY_CHECKPOINT = 50


class GameRuntime:
    def __init__(self, game: Game, store: EventStore, snapshot_every: int = 50,
                 listeners: Sequence[AppendListener] = (), cache: StateCache | None = None,
                 idle_ttl: int = 0, finished_ttl: int = 0,
                 engines: Callable[[str], Game] | None = None) -> None:
        # The engine new games are created with; a game keeps its own (``rules_for``), which
        # ``engines`` gives by version (GamePlugin.rules).  Without it: ``game``'s version only.
        self.game = game
        self._engines = engines if engines is not None else functools.partial(_only_engine, game)
        # The served versions are the process's (its environment at start): once a version's
        # rules are found they stay, and a move does not ask the environment again.
        self._rules_by_version: dict[str, Game] = {}
        # Told of every append, before and after it (the bot queue, the turn clocks' jobs).
        self.listeners: list[AppendListener] = list(listeners)
        # Lifetimes of the games this runtime creates (seconds, 0 = forever).  They are written
        # into each game's meta, so whichever process makes the first or the last move (a web
        # process, a bot worker) applies them without being configured.
        self.idle_ttl = idle_ttl
        self.finished_ttl = finished_ttl
        self.store = store
        self.snapshot_every = snapshot_every
        self.cache = cache if cache is not None else StateCache()
        self.checkpoints = StateCache(size=256)     # (game, version) -> state, for time travel

    # -- the rules of a game ---------------------------------------------------------------------
    def rules_for(self, meta: dict[str, str]) -> Game:
        """The rules a game keeps for its whole life: those of the engine version it was created
        with (its meta's ``engine_version``), as ``engines`` maps versions (GamePlugin.rules).
        503 ``engine-unavailable`` when this process does not serve that version; never another
        version's rules instead."""
        version = meta.get("engine_version", self.game.engine_version)
        rules = self._rules_by_version.get(version)
        if rules is None:
            try:
                rules = self._rules_by_version[version] = self._engines(version)
            except EngineUnavailable as exc:
                raise engine_unavailable(exc) from exc
        return rules

    # -- creating a game ------------------------------------------------------------------------
    def create(self, players: list[dict[str, Any]], options: dict[str, Any],
               seed: int | None = None, *, listed: bool = True, extra_meta: dict[str, str] | None = None,
               game_id: str | None = None, turn_seconds: int | None = None,
               fallback_bot: str | None = None,
               bot_budget_ms: int | None = None) -> tuple[str, int, list[dict[str, Any]]]:
        """Set the game up and append its first events.  A seat ``{"open": true}`` is left for
        whoever takes it (shared.play.seats): the game is then ``waiting``, and starts when the last
        one is taken.  ``extra_meta`` (rematch links, reservations) goes into the meta as is.
        ``turn_seconds``: a turn clock (shared.play.clocks), played out by ``fallback_bot``.
        ``bot_budget_ms``: how long a search bot (``expert``) may think per move (shared.play.search)."""
        self._check_player_count(len(players))
        game_seed = seed if seed is not None else secrets.randbits(63)
        options = {**self.game.default_options(), **options}
        events = self._setup_events(len(players), options, game_seed)
        game_id = game_id or new_game_id()
        seats = _new_seats(game_id, players)
        seed_salt = proofs.new_salt()
        cause = _setup_cause(len(players), options, game_seed, seed is not None, seed_salt,
                             turn_seconds, fallback_bot, bot_budget_ms)
        records = self._records(events, 0, GENESIS_HASH, cause)
        state = self.game.replay(events)
        meta = self._new_meta(seats, options, game_seed, seed is not None, seed_salt, listed, bot_budget_ms,
                              turn_seconds, fallback_bot, state, records[-1]["seq"], extra_meta or {})
        version = self._append_new_game(game_id, records, state, meta)
        return game_id, version, seats

    def _check_player_count(self, count: int) -> None:
        game = self.game
        if not game.min_players <= count <= game.max_players:
            raise Problem("invalid-options",
                          f"{game.title} takes {game.min_players} to {game.max_players} players, "
                          f"not {count}.", reason="player-count")

    def _setup_events(self, players: int, options: dict[str, Any], game_seed: int) -> list[Event]:
        try:
            return self.game.setup(players, options, random.Random(proofs.setup_seed(game_seed)))
        except IllegalMove as exc:
            raise Problem("invalid-options", exc.detail, reason=exc.reason) from exc

    def _new_meta(self, seats: list[dict[str, Any]], options: dict[str, Any], game_seed: int,
                  seeded_by_client: bool, seed_salt: str, listed: bool, bot_budget_ms: int | None,
                  turn_seconds: int | None, fallback_bot: str | None, state: Any, last_seq: int,
                  extra: dict[str, str]) -> GameMeta:
        game = self.game
        result = game.result(state)
        waiting = any(p.get("open") for p in seats)
        return GameMeta(
            game=game.name, engine_version=game.engine_version,
            players=[{k: v for k, v in p.items() if k != "token"} for p in seats],
            tokens=[hash_token(p["token"]) if p["token"] else None for p in seats],
            seed=game_seed, seed_salt=seed_salt, seeded_by_client=seeded_by_client,
            created_at=int(time.time() * 1000), listed=listed, options=options, bot_budget_ms=bot_budget_ms,
            # Nobody acts before every seat is taken.
            status="waiting" if waiting else "finished" if result is not None else "active",
            to_act=[] if waiting else game.to_act(state), result=result,
            # The move appended onto this version is the first one: it makes the game permanent.
            persist_at_version=last_seq if result is None and self.idle_ttl > 0 else None,
            finished_ttl=self.finished_ttl if self.finished_ttl > 0 else None,
            turn_seconds=turn_seconds, fallback_bot=fallback_bot, extra=extra)

    def _append_new_game(self, game_id: str, records: list[dict[str, Any]], state: Any, info: GameMeta) -> int:
        """Append the setup records with the new game's meta, then tell the indexes, the cache,
        the bot queue and the clock; the version appended."""
        game = self.game
        meta = info.to_hash()
        # A waiting game is in the index of unfinished games too: it counts toward the cap.
        active = info.result is None
        # Indexed before the append: an index entry without a game costs the sweeper one look
        # (it drops it), while a game missing from the index would never have a lost bot turn
        # re-enqueued.  Indexed again after it, as a sweep in between drops the entry.
        if active:
            self.store.index_active(game.name, game_id, True)
        bots = [] if info.status == "waiting" else self._bots_to_notify(game, state, bot_seats(meta["players"]))
        clock = self._clock_after(LoadedGame(game_id, 0, None, meta, GENESIS_HASH), state, records[-1]["seq"],
                                  None, False)
        if clock is not None:
            meta.update(clock.fields)
        self._tell_before(AppendNews(game_id, records[-1]["seq"], tuple(bots), clock))
        result = self.store.append(game_id, 0, records, meta=meta)
        if result.status != "OK":   # a random 12-character id collided: practically impossible
            raise Problem("internal-error", "Could not create the game; try again.")
        if active:
            self.best_effort(self.store.index_active, game.name, game_id, True)
        if active and self.idle_ttl > 0:
            # Only if nobody moved yet (a bot may already have): the append itself stays untouched.
            self.best_effort(self.store.expire_if_unmoved, game_id, result.version, self.idle_ttl)
        elif not active and self.finished_ttl > 0:
            self.best_effort(self.store.set_lifetime, game_id, self.finished_ttl)
        self.relist(game_id, meta, meta["status"])
        self.cache.give(game_id, result.version, records[-1]["hash"], state, meta)
        self._tell_after(AppendNews(game_id, result.version, tuple(bots), clock))
        return result.version

    # -- loading --------------------------------------------------------------------------------
    def load(self, game_id: str) -> LoadedGame:
        """The game's current state: the cache or a snapshot, then the log's tail folded in.

        With a warm cache this is one round trip (meta and tail pipelined); without one, two
        (meta and snapshot pipelined, then the events after the snapshot).
        """
        self._check_id(game_id)
        cached = self.cache.get(game_id)
        if cached is None:
            meta, snapshot = self.store.meta_and_snapshot(game_id)
            tail: list[dict[str, Any]] = []
        else:
            meta, tail = self.store.meta_and_tail(game_id, cached[0])
        meta = self._own_meta(game_id, meta)
        rules = self.rules_for(meta)
        target = int(meta["version"])
        fits = cached is not None and self._cache_fits(cached[0], cached[1], target, meta.get("head"), tail)
        if fits and cached is not None:
            version, head, state, _ = cached
        else:
            if cached is not None:
                snapshot = self.store.load_snapshot(game_id)
            version, head, state = self._from_snapshot(rules, snapshot, target)
            tail = self.store.read(game_id, after=version) if version < target else []
            if version and not self._cache_fits(version, head, target, meta.get("head"), tail):
                # A snapshot of a history this log does not have (written late, e.g. by a process
                # that appended on a primary lost in a failover): folding the log onto it would
                # serve, and append onto, a state that never existed.  Replay from the start.
                version, head, state = 0, GENESIS_HASH, None
                tail = self.store.read(game_id)
        version, head, state = self._fold(rules, tail, version, head, state)
        if tail or not fits:
            # ``state`` stays ours: the cache keeps a pickled copy, never the object.  A copy that
            # did not fit is replaced even when it is ahead: it is of a history the log lost (at
            # worst a concurrent move's newer copy is replaced, and a copy behind costs a retry).
            self.cache.put(game_id, version, head, state, meta, replace=not fits)
        return LoadedGame(game_id, version, state, meta, head)

    def meta(self, game_id: str) -> dict[str, str]:
        """The game's meta hash (version, status, players...), or game-not-found."""
        self._check_id(game_id)
        return self._own_meta(game_id, self.store.meta(game_id))

    @staticmethod
    def _check_id(game_id: str) -> None:
        # Checked before any key is built: an id with braces would break the {g:<id>} hash tag.
        if not GAME_ID.fullmatch(game_id):
            raise Problem("game-not-found", "Game ids are 1-64 letters, digits, '-' or '_'.", game_id=game_id[:64])

    def _own_meta(self, game_id: str, meta: dict[str, str] | None) -> dict[str, str]:
        """``meta`` if it is a game of this title (another title's game is not found here)."""
        if meta is None or meta.get("game") != self.game.name:
            raise self._not_found(game_id)
        return meta

    def _not_found(self, game_id: str) -> Problem:
        return Problem("game-not-found", f"There is no {self.game.name} game {game_id!r}.", game_id=game_id)

    def peek(self, game_id: str) -> LoadedGame:
        """This process's copy of the game, without a round trip when it has one (else ``load``).

        Only for moves, and only right before ``submit``, which the state then belongs to (it
        hands it back to the cache).  The append checks the version and head, so a copy that is
        behind costs a retry, never a wrong answer.  Reads use ``load``.
        """
        cached = self.cache.take(game_id)
        if cached is None:
            return self.load(game_id)
        version, head, state, meta = cached
        return LoadedGame(game_id, version, state, meta, head, fresh=False)

    def move_meta(self, game_id: str) -> tuple[dict[str, str], LoadedGame | None]:
        """The meta a move is authenticated with: this process's copy's (tokens and players change
        only by platform events: a token this copy lacks is looked up again by the service, and a
        copy that is behind is judged again in ``submit``), else the game's, loaded whole in the
        same round trip; pass that ``LoadedGame`` on to ``submit``."""
        meta = self.cache.peek_meta(game_id)
        if meta is not None:
            return meta, None
        loaded = self.load(game_id)
        return loaded.meta, loaded

    @staticmethod
    def _fold(rules: Game, records: list[dict[str, Any]] | tuple[dict[str, Any], ...], version: int, head: str,
              state: Any) -> tuple[int, str, Any]:
        for record in records:
            if not is_platform_event(record):
                state = rules.evolve(state, {"type": record["type"], "data": record["data"]})
            version, head = record["seq"], record["hash"]
        return version, head, state

    @staticmethod
    def _cache_fits(version: int, head: str, target: int, target_head: str | None,
                    tail: list[dict[str, Any]] | tuple[dict[str, Any], ...]) -> bool:
        """A copy at (version, head) is a prefix of this very log (not of a log Redis has since lost)."""
        if version > target:
            return False
        if version == target:
            return target_head == head
        return bool(tail) and tail[0]["seq"] == version + 1 and event_hash(head, tail[0]) == tail[0]["hash"]

    @staticmethod
    def _from_snapshot(rules: Game, snap: dict[str, Any] | None, target: int) -> tuple[int, str, Any]:
        """Where folding starts: the snapshot when it suits (the game's own engine and state
        shape, ``Game.snapshot_format``; not past ``target``)."""
        if snap and snap.get("engine_version") == rules.snapshot_format \
                and 0 < snap["version"] <= target and snap.get("head"):
            return snap["version"], snap["head"], rules.load(snap["state"])
        return 0, GENESIS_HASH, None

    def state_at(self, game_id: str, version: int, rules: Game | None = None) -> Any:
        """The state right after event ``version`` (time travel), folded from the log.

        Folding starts from the nearest checkpoint this process made below ``version``
        (every REPLAY_CHECKPOINT events), so stepping through a long history stays linear.  A
        checkpoint is only used when the log's next event chains onto its hash.  ``rules``: the
        game's (``rules_for``), looked up from its meta when not given.
        """
        rules = rules or self.rules_for(self.meta(game_id))
        # Strictly below ``version``: at least one event is read, so the chain check below always
        # runs (a checkpoint at exactly ``version`` would be served unchecked, and asked Redis
        # for zero events, which redis-py refuses).
        base = self._nearest_checkpoint(game_id, version - 1)
        start, head, state = base if base else (0, GENESIS_HASH, None)
        records = self.store.read(game_id, after=start, limit=version - start)
        if records and start and event_hash(head, records[0]) != records[0]["hash"]:
            start, head, state = 0, GENESIS_HASH, None          # the log is not the one we saw
            records = self.store.read(game_id, after=0, limit=version)
        for record in records:
            if not is_platform_event(record):
                state = rules.evolve(state, {"type": record["type"], "data": record["data"]})
            head = record["hash"]
            if record["seq"] % REPLAY_CHECKPOINT == 0:
                self.checkpoints.put(f"{game_id}@{record['seq']}", record["seq"], head, state, {})
        return state

    def _nearest_checkpoint(self, game_id: str, version: int) -> tuple[int, str, Any] | None:
        for at in range(version - version % REPLAY_CHECKPOINT, 0, -REPLAY_CHECKPOINT):
            found = self.checkpoints.get(f"{game_id}@{at}")
            if found is not None:
                return found[0], found[1], found[2]
        return None

    # -- moves ----------------------------------------------------------------------------------
    def submit(self, game_id: str, seat: int, move: Move, expected_version: int | None = None,
               idempotency_key: str | None = None, attempts: int = 5,
               loaded: LoadedGame | None = None, holder: bool = False,
               platform_events: list[Event] | None = None) -> MoveOutcome:
        """Decide and append ``move``; after a conflict, catch up and decide again (unless the
        caller pinned ``expected_version``: then the conflict is the caller's 409).

        ``loaded`` may be the caller's ``peek``: this process's copy, possibly behind.  Its state
        belongs to ``submit`` from then on (it ends in the cache).  Nothing is trusted from such
        a copy: a refusal decided on it is decided again on the log, and the append's version and
        head check turns a late copy into a retry.  So with a warm copy an accepted move costs one
        round trip, and an idempotency key costs nothing extra.

        ``holder``: the move comes from the seat's token (not its bot), refused once it resigned.
        ``platform_events`` (e.g. a clock that ran out, see shared.play.clocks) are appended just before
        the move's events, in the same append, with a cause of kind ``platform``.
        """
        idem_field = f"{seat}:{idempotency_key}" if idempotency_key else ""
        # What a retry must repeat to be the same request; only kept with an idempotency key.
        fingerprint = hashlib.sha256(canonical({"seat": seat, "move": move}).encode()).hexdigest() \
            if idem_field else ""
        for _ in range(attempts):
            if loaded is None:
                loaded = self.load(game_id)
            try:
                draft = self._decide(loaded, seat, move, expected_version, holder, platform_events or [])
            except (IllegalMove, Problem):
                # Refused before any event was applied: the state is as it came (``decide`` never
                # changes it, see shared.game.testing), so the cache gets it back for the next move.
                self.cache.give(game_id, loaded.version, loaded.head, loaded.state, loaded.meta)
                if not loaded.fresh:
                    loaded = None          # judged on this process's copy: judge again on the log
                    continue
                prior = self._prior_outcome(game_id, idem_field, fingerprint) if idem_field else None
                if prior is not None:
                    return prior           # the retry of a move that was accepted
                raise
            result = self.store.append(game_id, loaded.version, draft.records, meta=draft.meta_fields,
                                       idempotency_field=idem_field, fingerprint=fingerprint,
                                       expected_head=loaded.head if loaded.version else "")
            if result.status == "OK":
                return self._after_move(loaded, draft, result.version)
            if result.status == "DUPLICATE":
                return self._duplicate(game_id, result, fingerprint)
            loaded = self._after_conflict(loaded, result, expected_version)
        raise Problem("stale-version", "The game kept moving while this move was decided; retry.",
                      current_version=self.store.version(game_id))

    def _decide(self, loaded: LoadedGame, seat: int, move: Move, expected_version: int | None, holder: bool,
                platform_events: list[Event]) -> _MoveDraft:
        """What ``move`` appends onto ``loaded``, and the game after it; ``loaded``'s state is
        evolved in place only once the move is accepted by the rules."""
        if expected_version is not None and expected_version != loaded.version:
            raise self._stale(expected_version, loaded.version)
        rules = self.rules_for(loaded.meta)
        self._check_may_act(loaded, seat, holder)
        # Derived from the seq its first event follows: platform records go first.
        move_seed = proofs.move_seed(loaded.seed, loaded.version + len(platform_events), seat)
        events = rules.decide(loaded.state, seat, move, random.Random(move_seed))
        if not events:
            # An engine bug: a move must leave a trace in the log (its cause rides on its
            # first event).  Refuse before Redis is touched.
            raise RuntimeError(f"{rules.name}: decide returned no events for {move.get('type')!r}")
        records = self._records(platform_events, loaded.version, loaded.head, {"kind": "platform", "seat": seat}) \
            if platform_events else []
        records += self._records(events, loaded.version + len(records),
                                 records[-1]["hash"] if records else loaded.head,
                                 {"kind": "move", "seat": seat, "move": move, "seed": move_seed})
        state = loaded.state
        for e in events:
            state = rules.evolve(state, e)
        finished = rules.result(state) is not None
        if finished and "seed_salt" in loaded.meta:
            # The game ends with this append: its seed commitment is opened in the same one.
            reveal = proofs.reveal_event(loaded.seed, loaded.meta["seed_salt"])
            records += self._records([reveal], records[-1]["seq"], records[-1]["hash"],
                                     {"kind": "platform", "seat": None}, at=records[-1]["at"])
        bots = self._bots_to_notify(rules, state, loaded.bot_seats)
        # ``moved_at``: the game list's last-move time.
        meta_fields = {**self.status_fields(rules, state), "moved_at": str(records[0]["at"])}
        clock = self._clock_after(loaded, state, records[-1]["seq"], seat, bool(platform_events))
        if clock is not None:
            meta_fields.update(clock.fields)
        self._tell_before(AppendNews(loaded.game_id, records[-1]["seq"], tuple(bots), clock))
        return _MoveDraft(rules, records, state, finished, bots, meta_fields, clock)

    def _after_move(self, loaded: LoadedGame, draft: _MoveDraft, version: int) -> MoveOutcome:
        """The steps that follow an accepted append: the snapshot, the cache, the indexes, the
        game's lifetime, the bot queue and the clock (each best effort)."""
        game_id, head = loaded.game_id, draft.records[-1]["hash"]
        snapshot = self._snapshot_if_due(draft.rules, loaded.version, version, head, draft.state)
        clock = draft.clock
        # Handed to the cache last: from then on the next move may take it and evolve it.
        self.cache.give(game_id, version, head, draft.state,
                        loaded.meta if clock is None else {**loaded.meta, **draft.meta_fields})
        if draft.finished:
            self.best_effort(self.store.index_active, self.game.name, game_id, False)
            self.relist(game_id, loaded.meta, "finished")
        lifetime = self._lifetime_after(loaded.meta, loaded.version, draft.finished)
        if lifetime is not None:
            self.best_effort(self.store.set_lifetime, game_id, lifetime or None)
        if snapshot:
            self.best_effort(self.store.save_snapshot, game_id, snapshot)
        self._tell_after(AppendNews(game_id, version, tuple(draft.bots), clock))
        return MoveOutcome(version, draft.records, finished=draft.finished)

    def _after_conflict(self, loaded: LoadedGame, conflict: AppendResult,
                        expected_version: int | None) -> LoadedGame | None:
        """The copy to decide again on after a refused append (None: load from the log), or the
        caller's 409 when it pinned a version the game has left."""
        if conflict.version == 0:
            # No meta: the game expired (or was deleted) since this process's copy was made.
            raise self._not_found(loaded.game_id)
        if expected_version is not None:
            if conflict.version == expected_version and not loaded.fresh:
                # The log is at the pinned version but its head is not our copy's: the copy
                # is of a history the log lost (a restore).  Judge again on the log; a 409
                # would tell the client "N is not N", and every retry would meet the same copy.
                return None
            raise self._stale(expected_version, conflict.version)
        # Somebody else moved first and the client did not pin a version: catch up, decide again.
        return self._catch_up(loaded.game_id, conflict)

    def _catch_up(self, game_id: str, conflict: AppendResult) -> LoadedGame | None:
        """This process's copy plus the events the refused append sent back; None: load instead."""
        cached = self.cache.get(game_id)
        if cached is None:
            return None
        version, head, state, meta = cached
        missed = [r for r in conflict.missed if r["seq"] > version]
        if any(is_platform_event(r) for r in missed):
            return None             # seats changed (tokens, players, status): this copy's meta is old
        if not missed or missed[-1]["seq"] != conflict.version \
                or not self._cache_fits(version, head, conflict.version, None, missed):
            return None
        version, head, state = self._fold(self.rules_for(meta), missed, version, head, state)
        self.cache.put(game_id, version, head, state, meta)
        return LoadedGame(game_id, version, state, meta, head)

    def _check_may_act(self, loaded: LoadedGame, seat: int, holder: bool = False) -> None:
        # Judged on the meta of the copy at hand: a refusal on this process's copy is judged
        # again on the log (submit), and seats change only through appends, which a copy that
        # is behind cannot pass.
        status = loaded.meta.get("status")
        if status == "waiting":
            raise Problem("game-waiting", "The game waits for its open seats to be taken; no move yet.")
        if status == "cancelled":
            raise game_cancelled()
        if status == "abandoned":
            raise game_abandoned()
        if holder and seat in resigned_seats(loaded.meta["players"]):
            raise Problem("seat-resigned", f"Seat {seat} resigned: a bot plays it, and its token can only read.")
        rules = self.rules_for(loaded.meta)
        if rules.result(loaded.state) is not None:
            raise Problem("game-over", "The game is over; no more moves are accepted.")
        acting = rules.to_act(loaded.state)
        if seat not in acting:
            raise Problem("not-your-turn", f"Seat {seat} is not expected to act now.",
                          to_act=acting)

    @staticmethod
    def _stale(expected: int, current: int) -> Problem:
        return Problem("stale-version",
                       f"The move was based on version {expected} but the game is at {current}; "
                       "fetch the game again and decide anew.",
                       current_version=current, expected_version=expected)

    def _prior_outcome(self, game_id: str, idem_field: str, fingerprint: str) -> MoveOutcome | None:
        prior = self.store.idempotent_result(game_id, idem_field)
        return None if prior is None else self._duplicate(game_id, prior, fingerprint)

    def _duplicate(self, game_id: str, result: AppendResult, fingerprint: str) -> MoveOutcome:
        if result.fingerprint != fingerprint:
            raise Problem("idempotency-key-reused",
                          "This Idempotency-Key was already used for a different move.")
        records = self.store.read(game_id, after=result.first_seq - 1,
                                  limit=result.version - result.first_seq + 1)
        meta = self.store.meta(game_id) or {}
        # Served as the first answer was: redacted unless this very move ended the game.
        ended_here = meta.get("status") == "finished" and meta.get("version") == str(result.version)
        return MoveOutcome(result.version, records, finished=ended_here, duplicate=True)

    # -- platform events (shared.play.seats) -----------------------------------------------------------
    def append_platform(self, loaded: LoadedGame, events: list[Event], seat: int | None,
                        meta: dict[str, str]) -> AppendResult:
        """Append platform events (``platform.*``) onto ``loaded`` (fresh from ``load``) with its
        version and head, and the meta fields they change.  A CONFLICT means somebody appended
        first: the caller loads again and judges again (so a seat is taken once)."""
        cause = {"kind": "platform", "seat": seat}
        records = self._records(events, loaded.version, loaded.head, cause)
        meta = dict(meta)
        if loaded.meta.get("persist_at_version") == str(loaded.version):
            # Nobody moved yet: the first MOVE still makes the game permanent, not a seat taken.
            meta["persist_at_version"] = str(records[-1]["seq"])
        # The clock follows what these events change (a start sets the first deadlines, a
        # resignation drops the seat's): judged on the meta as it will be after the append.
        after = LoadedGame(loaded.game_id, loaded.version, loaded.state, {**loaded.meta, **meta}, loaded.head)
        clock = self._clock_after(after, loaded.state, records[-1]["seq"], None, False)
        if clock is not None:
            meta.update(clock.fields)
            self._tell_before(AppendNews(loaded.game_id, records[-1]["seq"], clock=clock))
        result = self.store.append(loaded.game_id, loaded.version, records, meta=meta,
                                   expected_head=loaded.head)
        if result.status == "OK":
            if clock is not None:
                self._tell_after(AppendNews(loaded.game_id, result.version, clock=clock))
            # The state is unchanged (the engine never sees these events); the meta is new.
            self.cache.put(loaded.game_id, result.version, records[-1]["hash"], loaded.state,
                           {**loaded.meta, **meta, "version": str(result.version)}, replace=True)
        elif result.version == 0:
            raise self._not_found(loaded.game_id)
        return result

    def relist(self, game_id: str, meta: dict[str, str], status: str) -> None:
        """File a listed game (``"listed": true``) under ``status`` in the game list (shared.play.seats:
        waiting, active, finished, cancelled); best effort, as the list is checked when read."""
        if is_listed(meta, default=False):
            self.best_effort(self.store.list_game, self.game.name, game_id, status, created_at(meta))

    def notify_acting_bots(self, game_id: str, version: int, state: Any, players_field: str, rules: Game) -> None:
        """Tell the bot queue about bot seats to act now (after a start or a resignation)."""
        bots = self._bots_to_notify(rules, state, bot_seats(players_field))
        if bots:
            news = AppendNews(game_id, version, tuple(bots))
            self._tell_before(news)
            self._tell_after(news)

    # -- helpers --------------------------------------------------------------------------------
    def _records(self, events: list[Event], version: int, head: str,
                 cause: dict[str, Any], at: int | None = None) -> list[dict[str, Any]]:
        """``events`` as log records after ``version`` (chained from ``head``), stamped ``at`` (ms;
        now unless given: records that go into one append with others share their time)."""
        now = int(time.time() * 1000) if at is None else at
        salts = _salts.take(len(events))
        records = []
        for i, e in enumerate(events):
            record: dict[str, Any] = {"seq": version + i + 1, "type": e["type"], "data": e["data"],
                                      "at": now, "salt": salts[i]}
            if i == 0:
                record["cause"] = cause
            record["hash"] = head = event_hash(head, record)
            records.append(record)
        return records

    @staticmethod
    def status_fields(rules: Game, state: Any) -> dict[str, str]:
        result = rules.result(state)
        return meta_status_fields("finished" if result is not None else "active", rules.to_act(state), result)

    def _snapshot_if_due(self, rules: Game, before: int, after: int, head: str, state: Any) -> str | None:
        """The snapshot document to write when the move crossed a multiple of ``snapshot_every``."""
        every = self.snapshot_every
        if every > 0 and after // every > before // every:
            return snapshot_document(after, head, rules.snapshot_format, rules.dump(state))
        return None

    @staticmethod
    def _lifetime_after(meta: dict[str, str], before_version: int, finished: bool) -> int | None:
        """The TTL an accepted move gives the game's keys: seconds, 0 for none (persist), or None
        to leave them as they are (every move but the first and the last: no cost)."""
        if finished and meta.get("finished_ttl"):
            return int(meta["finished_ttl"])
        if meta.get("persist_at_version") == str(before_version):
            return 0
        return None

    def _clock_after(self, loaded: LoadedGame, state: Any, version: int, mover: int | None,
                     expired: bool) -> turn_clock.ClockChange | None:
        """The turn clock to append with (None: the game has none)."""
        return turn_clock.after_append(loaded, state, version, mover, expired, self.rules_for(loaded.meta),
                                       lambda: self.store.meta(loaded.game_id))

    def _tell_before(self, news: AppendNews) -> None:
        for listener in self.listeners:
            self.best_effort(listener.before_append, news)

    def _tell_after(self, news: AppendNews) -> None:
        for listener in self.listeners:
            self.best_effort(listener.appended, news)

    def _bots_to_notify(self, rules: Game, state: Any, bots: frozenset[int]) -> list[int]:
        """The bot seats to act now, when somebody listens."""
        if not self.listeners or not bots or rules.result(state) is not None:
            return []
        return [s for s in rules.to_act(state) if s in bots]

    @staticmethod
    def best_effort(step: Callable[..., Any], *args: Any) -> None:
        """Run a step that follows an accepted append, which it must never turn into an error.

        The events are in the log by then: answering 503 would make a client without an
        Idempotency-Key play the move again.  What such a step does is recoverable: snapshots
        are a cache, the sweeper drops finished games from the index and re-enqueues lost bot turns.
        """
        try:
            step(*args)
        except redis.RedisError as exc:
            log.warning("after an accepted append, %s failed: %s", getattr(step, "__name__", step), exc)
