"""The Elasund engine behind the platform's Game protocol."""
from __future__ import annotations

import random
from typing import Any

from shared.game.engine import Game

from services.elasund.rules import conceal, legal, moves, options, views
from services.elasund.rules.context import clone
from services.elasund.rules.versions import ENGINE_RULES, fold
from services.elasund.rules.state import State, cubes_on_board, to_act
from services.elasund.rules.view_types import ElasundView


class ElasundGame(Game):
    name = "elasund"
    title = "Elasund: The First City"
    min_players = 2
    max_players = 4
    # 2: the trade-track disk stops at 11 (engine 1 counted on past it, so a later loss moved it
    # back from a hidden total).
    # 3: influence cards are drawn (and pirates' loot taken) from the colours in sorted order;
    # engines 1 and 2 drew in the components' order.  Both are fixed orders, never a dict's.
    # One engine serves all three (versions.ENGINE_RULES: what each decides and folds).
    engine_version = "3"
    max_moves = 4000
    simultaneous_moves = True      # every seat over the limit discards at once

    def __init__(self, version: str = "3") -> None:
        if version not in ENGINE_RULES:
            raise ValueError(f"Elasund has no engine version {version!r}")
        self.engine_version = version
        self.engine = ENGINE_RULES[version]

    def default_options(self) -> dict[str, Any]:
        return options.default_options()

    def setup(self, players: int, options: dict[str, Any], rng: random.Random) -> list[dict[str, Any]]:
        return moves.setup(players, options, rng, self.engine)

    def decide(self, state: State, seat: int, move: dict[str, Any], rng: random.Random) -> list[dict[str, Any]]:
        return moves.decide(state, seat, move, rng, self.engine)

    def evolve(self, state: State | None, event: dict[str, Any]) -> State:
        return fold(state, event, self.engine)

    def to_act(self, state: State) -> list[int]:
        return to_act(state)

    def legal_moves(self, state: State, seat: int) -> list[dict[str, Any]]:
        return legal.legal_moves(state, seat)

    def result(self, state: State) -> dict[str, Any] | None:
        if state["winner"] is None:
            return None
        return {"winners": [state["winner"]],
                "scores": [cubes_on_board(state, seat) for seat in range(state["players"])],
                "trade_points": list(state["trade"]), "turns": state["turn"]}

    # The view's declared shape (rules/view_types.py).
    def view(self, state: State, seat: int | None) -> ElasundView:
        return views.view(state, seat)

    def copy(self, state: State) -> State:
        return clone(state)

    def conceal(self, state: State, seat: int, rng: random.Random) -> State:
        return conceal.conceal(clone(state), seat, rng)

    def redact(self, event: dict[str, Any], seat: int | None) -> dict[str, Any]:
        return views.redact(event, seat)


ENGINES: dict[str, ElasundGame] = {version: ElasundGame(version) for version in ENGINE_RULES}
GAME = ENGINES["3"]
