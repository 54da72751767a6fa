"""Building Catan positions for the rule tests: fold crafted events, then play real moves."""
from __future__ import annotations

import random
from typing import Any

import pytest

from services.catan.rules import CatanGame
from services.catan.rules.board import EDGE_ID, RESOURCES
from shared.game.engine import IllegalMove

GAME = CatanGame()
State = dict[str, Any]

# Set-up placements (settlement node, road's other node) in snake order 0,1,2,3,3,2,1,0.
# Seat 0: 12 (Mountains 10, Fields 12, Hills 6) then 40 (Mountains 3, Fields 4, Fields 6).
SETUP_4 = [(12, 17), (14, 19), (28, 33), (20, 26), (2, 5), (47, 51), (36, 41), (40, 44)]
SETUP_3 = [(12, 17), (14, 19), (28, 33), (47, 51), (36, 41), (40, 44)]


def edge(a: int, b: int) -> int:
    """The edge id between two adjacent nodes (tests read better with nodes)."""
    return EDGE_ID[(a, b)]


def start(players: int = 4, first: int = 0, **options: Any) -> State:
    """A fresh game (beginner board unless told) where ``first`` places first."""
    opts = {**GAME.default_options(), **options}
    started = GAME.setup(players, opts, random.Random(1))[0]
    started["data"]["first_player"] = first
    return GAME.evolve(None, started)


def play(state: State, seat: int, move: dict[str, Any], seed: int = 0) -> list[dict[str, Any]]:
    """Decide and fold one move; return its events."""
    events = GAME.decide(state, seat, move, random.Random(seed))
    for e in events:
        GAME.evolve(state, e)
    return events


def illegal(state: State, seat: int, move: dict[str, Any]) -> str:
    """The reason code ``decide`` rejects ``move`` with."""
    with pytest.raises(IllegalMove) as caught:
        GAME.decide(state, seat, move, random.Random(0))
    return caught.value.reason


def fold(state: State, type_: str, **data: Any) -> State:
    return GAME.evolve(state, {"type": type_, "data": data})


def give(state: State, seat: int, **resources: int) -> State:
    """Hand cards to a seat from the bank (a crafted ``starting_resources`` event)."""
    return fold(state, "starting_resources", seat=seat, resources=resources)


def take_all(state: State, seat: int) -> State:
    """Empty a seat's hand back into the bank."""
    hand = dict(zip(RESOURCES, state["hands"][seat]))
    return fold(state, "starting_resources", seat=seat, resources={k: -v for k, v in hand.items() if v})


def set_up(players: int = 4, placements: list[tuple[int, int]] | None = None, **options: Any) -> State:
    """A game after the set-up phase, seat 0 to roll, hands emptied (tests give what they need)."""
    state = start(players, **options)
    for node, towards in placements or (SETUP_4 if players == 4 else SETUP_3):
        seat = state["current"]
        play(state, seat, {"type": "build_settlement", "node": node})
        play(state, seat, {"type": "build_road", "edge": edge(node, towards)})
    for seat in range(players):
        take_all(state, seat)
    return state


def roll(state: State, seat: int, total: int) -> list[dict[str, Any]]:
    """Roll the dice with a seed that gives ``total``."""
    for seed in range(1000):
        events = GAME.decide(state, seat, {"type": "roll"}, random.Random(seed))
        if sum(events[0]["data"]["dice"]) == total:
            return play(state, seat, {"type": "roll"}, seed)
    raise AssertionError(f"no seed rolls {total}")


def to_main(state: State, seat: int = 0, total: int = 2) -> State:
    """Roll (a 2 by default: it produces only on Pasture 2, where nobody sits)."""
    roll(state, seat, total)
    return state


def next_turn(state: State) -> int:
    """End the turn of the player on turn; the next one rolls a 2. Returns the new seat."""
    play(state, state["current"], {"type": "end_turn"})
    to_main(state, state["current"])
    return state["current"]


def buy_card(state: State, seat: int, card: str) -> State:
    """Pay for and draw a chosen development card (a crafted ``dev_card_bought``)."""
    give(state, seat, wool=1, grain=1, ore=1)
    return fold(state, "dev_card_bought", seat=seat, card=card)


def holding(card: str, count: int = 1, players: int = 4) -> State:
    """Seat 0 back on turn (before rolling) holding ``count`` cards bought in an earlier turn."""
    state = to_main(set_up(players))
    for _ in range(count):
        buy_card(state, 0, card)
    for _ in range(players - 1):
        next_turn(state)
    play(state, state["current"], {"type": "end_turn"})
    assert state["current"] == 0 and state["phase"] == "roll"
    return state
