"""Building positions for engine tests by folding crafted events into a fresh game."""
from __future__ import annotations

import random
from typing import Any

from services.elasund.rules.game import GAME
from services.elasund.rules.state import State
from shared.game.engine import IllegalMove, event


def fresh(players: int = 4, options: dict[str, Any] | None = None, seed: int = 0) -> State:
    """A game right after set-up."""
    return GAME.replay(GAME.setup(players, {**GAME.default_options(), **(options or {})}, random.Random(seed)))


def fold(state: State, *events: dict[str, Any]) -> State:
    for e in events:
        state = GAME.evolve(state, e)
    return state


def give(state: State, seat: int, gold: int = 0, influence: list[str] | None = None) -> State:
    return fold(state, event("cards_drawn", seat=seat, gold=gold, influence=influence or [], reason="test"))


def empty_hand(state: State, seat: int) -> State:
    hand = state["hands"][seat]
    return fold(state, event("cards_discarded", seat=seat, gold=hand["gold"], influence=dict(hand["influence"]),
                             reason="test"))


def permit(state: State, seat: int, value: int, col: int, row: int) -> State:
    return fold(state, event("permit_placed", seat=seat, value=value, col=col, row=row))


def building(state: State, seat: int, kind: str, col: int, row: int, cubes: list[int] | None = None,
             trade_points: int = 0) -> State:
    return fold(state, event("building_built", id=state["next_building_id"], kind=kind, seat=seat, col=col,
                             row=row, cubes=cubes or [], trade_points=trade_points))


def at_phase(state: State, phase: str, current: int | None = None, ship: int | None = None,
             pending: dict[str, Any] | None = None) -> State:
    if current is not None:
        state = fold(state, event("turn_started", seat=current, turn=state["turn"]))
    if ship is not None:
        state = fold(state, event("ship_moved", row=ship, pirates=False))
    return fold(state, event("phase_entered", phase=phase, pending=pending or {}))


def play(state: State, seat: int, move: dict[str, Any], seed: int = 0) -> tuple[State, list[dict[str, Any]]]:
    events = GAME.decide(state, seat, move, random.Random(seed))
    return fold(state, *events), events


def refusal(state: State, seat: int, move: dict[str, Any]) -> str:
    try:
        GAME.decide(state, seat, move, random.Random(0))
    except IllegalMove as error:
        return error.reason
    raise AssertionError(f"{move} was accepted")


def roll_seed(state: State, total: int) -> int:
    """A decide seed whose dice make ``total``."""
    for seed in range(2000):
        events = GAME.decide(state, state["current"], {"type": "roll"}, random.Random(seed))
        if events[0]["data"]["total"] == total:
            return seed
    raise AssertionError(f"no seed rolls {total}")


def types(events: list[dict[str, Any]]) -> list[str]:
    return [e["type"] for e in events]


def of_type(events: list[dict[str, Any]], type_: str) -> list[dict[str, Any]]:
    return [e["data"] for e in events if e["type"] == type_]
