"""``CatanGame``: the Game protocol wired to the rule modules."""
from __future__ import annotations

import random
from typing import Any

from shared.game.engine import Event, Game, InvalidOptions, Move
from services.catan.rules import board, conceal, events, legal, moves, views
from services.catan.rules.state import (
    DEFAULT_OPTIONS, OPTION_CHOICES, OVER, RULESETS, State, to_act, victory_points,
)
from services.catan.rules.view_types import CatanView


def _start_rolls(players: int, rng: random.Random) -> tuple[int, list[list[int]]]:
    """Everybody rolls two dice; the highest starts, ties among the highest roll again."""
    rounds: list[list[int]] = []
    contenders = list(range(players))
    while True:
        rolls = [rng.randint(1, 6) + rng.randint(1, 6) if seat in contenders else 0
                 for seat in range(players)]
        rounds.append(rolls)
        best = max(rolls)
        contenders = [seat for seat in contenders if rolls[seat] == best]
        if len(contenders) == 1:
            return contenders[0], rounds


class CatanGame(Game):
    name = "catan"
    title = "The Settlers of Catan"
    min_players = 3
    max_players = 4
    # 2: "offers" (domestic offers this turn) in the state.
    # 3: trading before building (``built``), counter-offers (``offer.counters``), an optional
    # steal, the option combined_trade_build.  One engine serves both (``state.RULESETS``): a
    # game of engine 2 is decided by engine 2's rules, in engine 3's state shape.
    engine_version = "3"
    max_moves = 20000
    simultaneous_moves = True      # every seat over the limit discards at once

    def __init__(self, version: str = "3") -> None:
        if version not in RULESETS:
            raise ValueError(f"Catan has no engine version {version!r}")
        self.engine_version = version
        self.ruleset = RULESETS[version]

    @property
    def snapshot_format(self) -> str:
        # Engine 2's own code kept states without ``built`` and ``offer.counters``: its
        # snapshots are not this code's engine-2 states.
        return self.engine_version if self.engine_version == "3" else f"{self.engine_version}/state-3"

    def default_options(self) -> dict[str, Any]:
        return {key: value for key, value in DEFAULT_OPTIONS.items() if key in self.ruleset.options}

    def move_is_public(self, move: Move) -> bool:
        # Catan's secrets (hands, the stolen card, the drawn card) live in the events, which are
        # redacted; no move carries one, so everyone may read who did what as it happens.
        return True

    def setup(self, players: int, options: dict[str, Any], rng: random.Random) -> list[Event]:
        if not self.min_players <= players <= self.max_players:
            raise InvalidOptions(f"Catan is for {self.min_players} to {self.max_players} players.")
        opts = {**self.default_options(), **(options or {})}
        for key, value in opts.items():
            # The type check keeps 0/1 out of the boolean choices (0 == False in Python).
            if key not in self.ruleset.options or value not in OPTION_CHOICES[key] \
                    or type(value) is not type(OPTION_CHOICES[key][0]):
                raise InvalidOptions(f"Unsupported option {key}={value!r}.")
        layout = board.beginner_board() if opts["board"] == "beginner" else board.variable_board(rng)
        first, rolls = _start_rolls(players, rng)
        return [{"type": "game_started", "data": {
            "players": players,
            "options": opts,
            **layout,
            "harbours": board.harbour_layout(),
            "robber": layout["terrains"].index("desert"),
            "start_rolls": rolls,
            "first_player": first,
        }}]

    def decide(self, state: State, seat: int, move: Move, rng: random.Random) -> list[Event]:
        return moves.decide(state, seat, move, rng, self.ruleset)

    def evolve(self, state: State | None, event: Event) -> State:
        return events.evolve(state, event)

    def to_act(self, state: State) -> list[int]:
        return to_act(state)

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        return legal.legal_moves(state, seat, self.ruleset)

    def result(self, state: State) -> dict[str, Any] | None:
        if state["phase"] != OVER:
            return None
        return {"winners": [state["winner"]],
                "scores": [victory_points(state, seat) for seat in range(state["players"])],
                "turns": state["turn"]}

    def view(self, state: State, seat: int | None) -> CatanView:
        return views.view(state, seat, self.ruleset)

    def redact(self, event: Event, seat: int | None) -> Event:
        return views.redact(event, seat)

    def conceal(self, state: State, seat: int, rng: random.Random) -> State:
        return conceal.conceal(_copy(state), seat, rng)

    def copy(self, state: State) -> State:
        # Lists of ints and small dicts: a JSON-shaped copy is much cheaper than deepcopy.
        return _copy(state)


def _copy(value: Any) -> Any:
    if isinstance(value, list):
        return [_copy(v) for v in value]
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    return value


ENGINES: dict[str, CatanGame] = {version: CatanGame(version) for version in RULESETS}
