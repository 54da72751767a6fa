"""Protocol checks every rules engine must pass; used by each game's tests.

``play_random_game`` drives an engine through ``setup``/``decide``/``evolve`` with the given
strategies and checks, at every step, the promises the platform relies on:

* whenever a seat is in ``to_act`` its ``legal_moves`` is non-empty, and the move chosen from it
  is accepted by ``decide``;
* ``decide`` leaves the state untouched;
* events and states are JSON-compatible (they are stored in Redis as JSON);
* replaying the collected events from nothing gives the same state as playing them;
* re-deciding each move with the same seed gives the same events (what audit relies on).
"""
from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from collections.abc import Callable
from typing import Any

from shared.game.engine import Event, Game, IllegalMove, Move, Strategy, random_strategy
from shared.game.typed_view import assert_fits


@dataclass
class PlayedGame:
    state: Any
    events: list[Event]
    moves: list[tuple[int, Move, int]] = field(default_factory=list)   # (seat, move, seed)
    setup_seed: int = 0
    finished: bool = False


def _canon(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def play_random_game(
    game: Game,
    players: int,
    options: dict[str, Any] | None = None,
    seed: int = 0,
    max_moves: int | None = None,
    strategies: dict[int, Strategy] | None = None,
    check_every: int = 1,
) -> PlayedGame:
    """Play until the game ends or ``max_moves`` (the game's own ``Game.max_moves`` by default);
    assert the protocol along the way.

    ``check_every`` thins the expensive checks (state copy comparison) for long games.
    """
    rng = random.Random(seed)
    setup_seed = rng.getrandbits(63)
    state, events = _checked_setup(game, players, {**game.default_options(), **(options or {})}, setup_seed)
    played = PlayedGame(state=state, events=list(events), setup_seed=setup_seed)
    strategies = strategies or {}
    probe_rng = random.Random(seed ^ 0x5EED)     # its own stream: the game plays as without probes
    for step in range(game.max_moves if max_moves is None else max_moves):
        if game.result(state) is not None:
            assert game.to_act(state) == [], "a finished game has nobody to act"
            played.finished = True
            break
        acting = game.to_act(state)
        assert acting, "an unfinished game must have someone to act"
        seat = acting[rng.randrange(len(acting))]
        assert game.legal_moves(state, seat), f"seat {seat} is to act but has no legal move"
        move = strategies.get(seat, random_strategy)(game, state, seat, random.Random(rng.getrandbits(63)))
        move_seed = rng.getrandbits(63)
        check = step % check_every == 0
        new_events = _checked_decide(game, state, seat, move, move_seed, played.moves, probe_rng) if check \
            else game.decide(state, seat, move, random.Random(move_seed))
        assert new_events, f"an accepted move must produce events: {move}"
        for e in new_events:
            if check:
                assert json.loads(json.dumps(e)) == e, f"event not JSON-compatible: {e}"
            state = game.evolve(state, e)
        played.events.extend(new_events)
        played.moves.append((seat, move, move_seed))
    played.state = state
    _assert_end_state(game, played, players)
    return played


def _checked_setup(game: Game, players: int, options: dict[str, Any], setup_seed: int) -> tuple[Any, list[Event]]:
    """The state after setup and its events: deterministic for the seed, JSON-compatible."""
    events = game.setup(players, options, random.Random(setup_seed))
    assert events, "setup must return at least one event"
    assert _canon(events) == _canon(game.setup(players, options, random.Random(setup_seed))), \
        "setup is not deterministic for a given seed"
    state = None
    for e in events:
        assert json.loads(json.dumps(e)) == e, f"event not JSON-compatible: {e}"
        state = game.evolve(state, e)
    return state, events


def _checked_decide(game: Game, state: Any, seat: int, move: Move, move_seed: int,
                    history: list[tuple[int, Any, int]], probe_rng: random.Random) -> list[Event]:
    """``decide``, checked: it leaves the state as it was and decides the same again for the seed,
    and a refused probe leaves the state too."""
    before = _canon(game.dump(state))
    new_events = game.decide(state, seat, move, random.Random(move_seed))
    assert _canon(game.dump(state)) == before, f"decide modified the state for {move}"
    again = game.decide(state, seat, move, random.Random(move_seed))
    assert _canon(again) == _canon(new_events), "decide is not deterministic for a seed"
    _assert_refusal_leaves_state(game, state, seat, history, probe_rng, before)
    return new_events


def _assert_end_state(game: Game, played: PlayedGame, players: int) -> None:
    """Replaying the events gives the state played; its dump, load and views are JSON."""
    state = played.state
    replayed = game.replay([json.loads(json.dumps(e)) for e in played.events])
    assert _canon(game.dump(replayed)) == _canon(game.dump(state)), "replay differs from play"
    dumped = game.dump(state)
    assert json.loads(json.dumps(dumped)) == dumped, "state dump is not JSON-compatible"
    assert _canon(game.dump(game.load(json.loads(json.dumps(dumped))))) == _canon(dumped)
    for seat in [None, *range(players)]:
        view = game.view(state, seat)
        assert json.loads(json.dumps(view)) == view, "view not JSON-compatible"


def _assert_refusal_leaves_state(game: Game, state: Any, seat: int, history: list[tuple[int, Any, int]],
                                 rng: random.Random, before: str) -> None:
    """``decide`` leaves the state as it was, refused or not: the platform hands a refused
    move's state back to its cache for the next move (shared.play.runtime.StateCache).

    The probe is a move this seat made earlier in the game, mostly illegal by now.
    """
    earlier = [move for s, move, _ in history[-40:] if s == seat]
    if not earlier:
        return
    try:
        game.decide(state, seat, rng.choice(earlier), random.Random(rng.getrandbits(63)))
    except IllegalMove:
        pass
    assert _canon(game.dump(state)) == before, "decide modified the state while refusing a move"


def assert_views_hide(game: Game, state: Any, seat: int | None, secrets: list[Any]) -> None:
    """Assert none of ``secrets`` (exact JSON sub-values) appears in ``seat``'s view."""
    text = _canon(game.view(state, seat))
    for secret in secrets:
        assert _canon(secret) not in text, f"{secret!r} leaked to seat {seat}"


def assert_every_state_answers(game: Game, events: list[Event], players: int) -> int:
    """Fold ``events`` one at a time and ask every intermediate state what ``/replay``, the views
    and the bots ask: ``result``, ``to_act``, every seat's and the spectator's ``view`` and every
    seat's ``legal_moves`` (empty is fine between the events of one move).  None may raise, and
    every answer is JSON.  Returns how many states were checked.
    """
    state = None
    for number, e in enumerate(events, start=1):
        state = game.evolve(state, json.loads(json.dumps(e)))
        where = f"after event {number} ({e['type']})"
        try:
            answers: list[Any] = [game.result(state), game.to_act(state)]
            answers += [game.view(state, seat) for seat in [None, *range(players)]]
            answers += [game.legal_moves(state, seat) for seat in range(players)]
        except Exception as exc:  # say which state broke, whatever broke
            raise AssertionError(f"{game.name}: {where}: {exc!r}") from exc
        assert json.loads(json.dumps(answers)) == answers, f"{game.name}: {where}: an answer is not JSON"
    return len(events)


# -- rule tests: given events, when a seat moves, then these events ---------------------------------

class Given:
    """A position reached by events only (``given(game, events)``), never by editing a state, so
    a rule test cannot start from a position the game can never reach.

    ``setup`` starts from the game's own set-up for a seed; ``fold`` adds events built as the
    engine emits them (a die roll, a card dealt); ``after`` plays moves on to the position under
    test, and ``when`` decides the move under test on it.
    """

    def __init__(self, game: Game, events: list[Event]) -> None:
        self.game = game
        self.events: list[Event] = []
        self.state: Any = None
        self.fold(*events)

    def setup(self, players: int, options: dict[str, Any] | None = None, seed: int = 0) -> Given:
        """The game's own set-up for ``players``, ``options`` (over the defaults) and ``seed``."""
        assert not self.events, "set-up comes first"
        return self.fold(*self.game.setup(players, {**self.game.default_options(), **(options or {})},
                                          random.Random(seed)))

    def fold(self, *events: Event) -> Given:
        """The position after ``events`` too (each JSON round-tripped, as the log stores it)."""
        for e in events:
            e = json.loads(json.dumps(e))
            self.events.append(e)
            self.state = self.game.evolve(self.state, e)
        return self

    def legal(self, seat: int, kind: str | None = None, **fields: Any) -> list[Move]:
        """``seat``'s legal moves here, of type ``kind`` and with ``fields`` if given."""
        return [m for m in self.game.legal_moves(self.state, seat)
                if (kind is None or m.get("type") == kind) and all(m.get(k) == v for k, v in fields.items())]

    def after(self, seat: int, move: Move | str, seed: int = 0, **fields: Any) -> Given:
        """The position after ``seat`` made ``move`` (which must be legal), decided with ``seed``.

        ``move`` may be a move type alone: the first legal move of that type (with ``fields``)."""
        if isinstance(move, str):
            moves = self.legal(seat, move, **fields)
            assert moves, f"seat {seat} has no legal {move} {fields or ''}"
            move = moves[0]
        else:
            assert not fields, "fields choose among legal moves by type"
        return self.fold(*self.game.decide(self.state, seat, move, random.Random(seed)))

    def play_until(self, reached: Callable[[Any], bool], seed: int = 0, strategy: Strategy = random_strategy,
                   max_moves: int | None = None) -> Given:
        """The first position, playing on with ``strategy`` (seats and moves drawn from ``seed``),
        at which ``reached(state)`` holds: a position only a long game reaches, reached by play.

        Fails if the game ends or runs ``max_moves`` (the game's own cap) first: try another seed."""
        rng = random.Random(seed)
        for _step in range(self.game.max_moves if max_moves is None else max_moves):
            if reached(self.state):
                return self
            acting = self.game.to_act(self.state)
            assert acting and self.game.result(self.state) is None, "the game ended first: try another seed"
            seat = acting[rng.randrange(len(acting))]
            move = strategy(self.game, self.state, seat, random.Random(rng.getrandbits(63)))
            self.fold(*self.game.decide(self.state, seat, move, random.Random(rng.getrandbits(63))))
        assert reached(self.state), "not reached within the game's move cap: try another seed"
        return self

    def when(self, seat: int, move: Move, seed: int = 0) -> When:
        before = _canon(self.game.dump(self.state))
        try:
            events = self.game.decide(self.state, seat, move, random.Random(seed))
        except IllegalMove as exc:
            assert _canon(self.game.dump(self.state)) == before, "decide modified the state while refusing"
            return When(self, None, exc)
        assert _canon(self.game.dump(self.state)) == before, f"decide modified the state for {move}"
        return When(self, events, None)


def _matches(got: Event, want: Event) -> bool:
    return got == want if "data" in want else got["type"] == want["type"]


@dataclass
class When:
    given: Given
    events: list[Event] | None
    refusal: IllegalMove | None

    def then(self, *expected: Event) -> Any:
        """Assert the move was accepted with exactly ``expected`` (a type alone, ``{"type": t}``,
        matches any data); the state after them."""
        events = self._accepted()
        got = [e if "data" in want else {"type": e["type"]} for e, want in zip(events, expected)]
        assert len(events) == len(expected) and got == list(expected), events
        return self._state_after(events)

    def then_including(self, *expected: Event) -> Any:
        """Assert the move was accepted with ``expected`` among its events, in this order (others
        may come between); the state after them all."""
        events = self._accepted()
        rest = iter(events)
        for want in expected:
            assert any(_matches(e, want) for e in rest), f"{want} not found in order in {events}"
        return self._state_after(events)

    def then_excluding(self, *types: str) -> Any:
        """Assert the move was accepted with no event of these types; the state after it."""
        events = self._accepted()
        assert not [e for e in events if e["type"] in types], events
        return self._state_after(events)

    def then_refused(self, reason: str) -> IllegalMove:
        """Assert the move was refused for ``reason``; the refusal."""
        assert self.refusal is not None, f"accepted: {self.events}"
        assert self.refusal.reason == reason, (self.refusal.reason, self.refusal.detail)
        return self.refusal

    def _accepted(self) -> list[Event]:
        assert self.refusal is None, f"refused: {self.refusal.reason}: {self.refusal.detail}"
        assert self.events is not None
        return self.events

    def _state_after(self, events: list[Event]) -> Any:
        # a copy: evolve may fold in place, and the given position serves further ``when``s
        state = self.given.game.copy(self.given.state)
        for e in events:
            state = self.given.game.evolve(state, e)
        return state


def assert_views_fit(game: Game, state: Any, players: int, typed_view: type) -> None:
    """Every seat's view of ``state`` and the spectators' fit ``typed_view`` (a TypedDict) exactly."""
    for seat in [None, *range(players)]:
        assert_fits(game.view(state, seat), typed_view, f"view of seat {seat}")


def given(game: Game, events: list[Event] | None = None) -> Given:
    """``given(game, events).when(seat, move).then(*events)``, or ``given(game).setup(players,
    options, seed).after(seat, "move_type")...``: see :class:`Given`."""
    return Given(game, events or [])
