"""The Elastium engine behind the platform's Game protocol."""
from __future__ import annotations

import random
from typing import Any

from shared.game.engine import Event, Game, Move
from services.elastium.rules import conceal, events, legal, moves, views
from services.elastium.rules.state import State
from services.elastium.rules.view_types import ElastiumView


class Elastium(Game):
    name = "elastium"
    title = "Elastium (Kauchuk)"
    min_players = 2
    max_players = 4
    engine_version = "1"
    max_moves = 3000

    def default_options(self) -> dict[str, Any]:
        return {"scenario": "jungle-temples", "max_rounds": moves.DEFAULT_MAX_ROUNDS}

    def setup(self, players: int, options: dict[str, Any], rng: random.Random) -> list[Event]:
        return moves.setup(players, {**self.default_options(), **options}, rng)

    def decide(self, state: State, seat: int, move: Move, rng: random.Random) -> list[Event]:
        return moves.decide(state, seat, move, rng)

    def evolve(self, state: State | None, event: Event) -> State:
        return events.evolve(state, event)

    def to_act(self, state: State) -> list[int]:
        return [] if state["result"] is not None else [state["turn_seat"]]

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        return legal.legal_moves(state, seat)

    def result(self, state: State) -> dict[str, Any] | None:
        return state["result"]

    def view(self, state: State, seat: int | None) -> ElastiumView:
        return views.view(state, seat)

    def redact(self, event: Event, seat: int | None) -> Event:
        return views.redact(event, seat)

    def conceal(self, state: State, seat: int, rng: random.Random) -> State:
        return conceal.conceal(self.copy(state), seat, rng)
