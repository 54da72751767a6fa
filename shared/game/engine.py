"""The Game protocol: what the platform asks of every rules engine.

A rules engine is a *decider*, pure Python with no Flask and no Redis:

* ``setup(players, options, rng) -> events``: the opening events (board, shuffles, hands),
  every random outcome resolved and written into the events.
* ``decide(state, seat, move, rng) -> events``: validates ``move`` for ``seat`` and returns
  the events it causes, every random outcome (dice, draws, steals) inside them.  It raises
  :class:`IllegalMove` when the move breaks a rule and must not modify ``state``.
* ``evolve(state, event) -> state``: folds one event.  It never fails and never draws
  randomness.  It may update ``state`` in place and return it (the platform owns every state
  object and copies it when it must keep an older one); ``evolve(None, first_event)`` builds
  the state from the first setup event.

Replay is ``functools.reduce(evolve, events, None)``; audit re-runs ``setup``/``decide`` with the
recorded seeds and compares the events.

Events are plain dicts ``{"type": str, "data": dict}`` whose data is JSON-compatible.
States are JSON-compatible dicts (string keys; lists, str, int, float, bool, None inside), so
snapshots are ``json.dumps(state)``; an engine whose state is richer overrides ``dump``/``load``.
Moves are JSON objects ``{"type": str, ...fields}``; seats are ints ``0..players-1``.
"""
from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any
from collections.abc import Callable

Event = dict[str, Any]
Move = dict[str, Any]
State = Any
Seat = int


def event(type_: str, **data: Any) -> Event:
    """Build an event; a small helper so engines read ``event("dice_rolled", dice=[3, 4])``."""
    return {"type": type_, "data": data}


class IllegalMove(Exception):
    """A move the rules reject.

    ``reason`` is a stable kebab-case code clients can switch on (``settlement-too-close``);
    ``detail`` is a sentence for people.  ``status`` is 422 for a move the rules forbid and 409
    for a move that conflicts with whose turn it is or with the game being over.
    """

    status = 422

    def __init__(self, reason: str, detail: str, **extra: Any) -> None:
        super().__init__(detail)
        self.reason = reason
        self.detail = detail
        self.extra = extra


class NotYourTurn(IllegalMove):
    status = 409

    def __init__(self, detail: str = "It is not this seat's turn to act.", **extra: Any) -> None:
        super().__init__("not-your-turn", detail, **extra)


class GameOver(IllegalMove):
    status = 409

    def __init__(self, detail: str = "The game is over; no more moves are accepted.") -> None:
        super().__init__("game-over", detail)


class InvalidOptions(IllegalMove):
    """Raised by ``setup`` for options or a player count the game does not support."""

    def __init__(self, detail: str, **extra: Any) -> None:
        super().__init__("invalid-options", detail, **extra)


class EngineUnavailable(LookupError):
    """This installation does not serve the rules engine version a game was played under.

    A game keeps the rules it started with, so it is never decided, viewed or audited by
    another version's rules: whoever asks answers that the version is unavailable (the
    platform: 503 ``engine-unavailable``, as during a rolling deploy another instance may serve it).
    """

    def __init__(self, game: str, version: str, served: tuple[str, ...]) -> None:
        super().__init__(f"{game} rules engine version {version!r} is not served here "
                         f"(served: {', '.join(served) or 'none'})")
        self.game, self.version, self.served = game, version, served


class Game:
    """Base class for a rules engine.  Subclasses set the attributes and override the methods."""

    name: str = ""                # url-safe id: "catan"
    title: str = ""               # "The Settlers of Catan"
    min_players: int = 2
    max_players: int = 4
    # A new version whenever what the engine decides, how it folds or its state's shape changes;
    # a released version's behaviour never changes (games keep theirs, see GamePlugin.rules).
    engine_version: str = "1"
    # What the game is like, for the tools and tests that play it (bots' search, the ladder, the
    # value fit, random play); none of it changes what the engine decides or folds.
    # The most moves a game of random bots takes to end, with room to spare: one that runs
    # longer is stuck (a bug), and tools count it as unfinished.
    max_moves: int = 5000
    has_chance: bool = True           # dice, shuffles or draws decide outcomes (events carry them)
    simultaneous_moves: bool = False  # some phase has several seats to act at once

    # -- the decider ---------------------------------------------------------------------
    def default_options(self) -> dict[str, Any]:
        return {}

    def setup(self, players: int, options: dict[str, Any], rng: random.Random) -> list[Event]:
        raise NotImplementedError

    def decide(self, state: State, seat: Seat, move: Move, rng: random.Random) -> list[Event]:
        raise NotImplementedError

    def evolve(self, state: State | None, event: Event) -> State:
        raise NotImplementedError

    # -- questions about a state ------------------------------------------------------------
    def to_act(self, state: State) -> list[Seat]:
        """The seats expected to act now (several during simultaneous phases); [] once finished."""
        raise NotImplementedError

    def legal_moves(self, state: State, seat: Seat) -> list[Move]:
        """Every move ``seat`` may make now, each accepted as-is by ``decide``.

        Free-form moves with unbounded arguments (a trade offer) may be left out: the move
        schema describes them.  Never empty while ``seat in to_act(state)``.
        """
        raise NotImplementedError

    def result(self, state: State) -> dict[str, Any] | None:
        """None while the game goes on; then ``{"winners": [seat, ...], "scores": [...], ...}``."""
        raise NotImplementedError

    def returns(self, state: State) -> list[float] | None:
        """Each seat's share of the win once the game is over (winners split 1 evenly, the rest
        get 0; all 0 when nobody won), None while it goes on.  Seats are counted by the
        result's ``scores``."""
        result = self.result(state)
        if result is None:
            return None
        winners = result.get("winners") or []
        return [1.0 / len(winners) if seat in winners else 0.0 for seat in range(len(result["scores"]))]

    # -- what a viewer may see --------------------------------------------------------------
    def view(self, state: State, seat: Seat | None) -> Mapping[str, Any]:
        """The state as ``seat`` may see it (``None``: a spectator).  JSON-compatible; a game
        declares its shape as a ``TypedDict`` (see shared.game.typed_view)."""
        raise NotImplementedError

    def redact(self, event: Event, seat: Seat | None) -> Event:
        """The event as ``seat`` may see it while the game is running (a copy; never mutate).

        After the game ends the platform serves events unredacted, so this is only for live games.
        """
        return event

    def conceal(self, state: State, seat: Seat, rng: random.Random) -> State:
        """A copy of ``state`` where everything hidden from ``seat`` is resampled: what a bot gets.

        The platform never hands a bot the true state (shared.play.bots): it hands it this.  Every
        secret of the other seats and every hidden order or composition (other hands, decks,
        face-down counters, secret home towns, ...) is collected, sorted canonically, shuffled
        with ``rng`` and dealt back into the same hidden places with the same public counts, so
        the result depends only on what ``seat`` may see (its view and the public log) and on
        ``rng``: two states that differ only in the others' secrets conceal to the same state.
        ``view(conceal(s, seat, rng), seat) == view(s, seat)``, and the result is a legal state
        (``legal_moves`` and ``decide`` work on it).  The default suits a game without secrets;
        a game with any must override it.
        """
        return self.copy(state)

    def move_is_public(self, move: Move) -> bool:
        """May other seats read this move in the log while the game runs?

        The default hides every move from other seats: they see who moved and the redacted
        events.  A game whose moves carry no secret (its secrets being in the events) says so.
        """
        return False

    # -- snapshots ------------------------------------------------------------------------------
    @property
    def snapshot_format(self) -> str:
        """The tag of this engine's snapshots: only a snapshot with this very tag is loaded.

        The engine version, unless this code keeps an older version's rules in a newer state
        shape (a version switch): its tag then names both, so a snapshot that the older code
        wrote in the older shape is never loaded into it (it is rebuilt from the log instead)."""
        return self.engine_version

    def dump(self, state: State) -> Any:
        """A JSON-compatible form of the state (snapshots)."""
        return state

    def load(self, data: Any) -> State:
        return data

    def copy(self, state: State) -> State:
        """An independent copy (the platform copies before ``evolve`` when it keeps the old state)."""
        return copy.deepcopy(state)

    # -- helpers the platform uses ---------------------------------------------------------------
    def replay(self, events: list[Event], state: State | None = None) -> State:
        for e in events:
            state = self.evolve(state, e)
        return state


Strategy = Callable[[Game, State, Seat, random.Random], Move]
"""A bot: picks a move for ``seat``.  The platform hands it ``game.conceal(state, seat, rng)``
(see :func:`play_fair`), so it sees the other seats' secrets only as a random resampling."""


def thinks(strategy: Strategy) -> bool:
    """Is ``strategy`` a search bot, one that thinks for a budget a move (``takes_budget``, see
    shared.play.search) rather than answering at once?"""
    return bool(getattr(strategy, "takes_budget", False))


def play_fair(game: Game, strategy: Strategy, state: State, seat: Seat, rng: random.Random,
              conceal_rng: random.Random, budget_ms: int | None = None) -> Move:
    """The move ``strategy`` picks for ``seat`` from ``game.conceal(state, seat, conceal_rng)``:
    the only way the platform runs a bot (the worker, a clock's fallback bot, self-play), so a bot
    cannot read another seat's secrets even if it tried.  A search bot (one that :func:`thinks`)
    gets ``budget_ms``: how long it may think."""
    concealed = game.conceal(state, seat, conceal_rng)
    if budget_ms is not None and thinks(strategy):
        return strategy(game, concealed, seat, rng, budget_ms=budget_ms)  # type: ignore[call-arg]
    return strategy(game, concealed, seat, rng)


def deal_back(items: Iterable[Any], sizes: Sequence[int], rng: random.Random) -> list[list[Any]]:
    """``items`` sorted (so their incoming order tells nothing), shuffled with ``rng`` and dealt
    into piles of ``sizes`` (which must add up to the number of items): how ``conceal`` resamples."""
    pool = sorted(items)
    assert len(pool) == sum(sizes), (len(pool), list(sizes))
    rng.shuffle(pool)
    piles, start = [], 0
    for n in sizes:
        piles.append(pool[start:start + n])
        start += n
    return piles


def random_strategy(game: Game, state: State, seat: Seat, rng: random.Random) -> Move:
    """Uniform over the listed legal moves."""
    return rng.choice(game.legal_moves(state, seat))


def is_json_compatible(value: Any) -> bool:
    try:
        return json.loads(json.dumps(value)) == value
    except (TypeError, ValueError):
        return False
