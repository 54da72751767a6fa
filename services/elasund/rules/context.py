"""The working context of one ``decide`` call.

``decide`` must not touch the caller's state, yet later rules depend on earlier effects (a hut
displaced by a build, cubes returned before new ones are placed).  So ``decide`` works on a
private copy: every event it emits is folded into that copy at once, and the rules read the
copy.  The caller only receives the list of events.
"""
from __future__ import annotations

import pickle
import random
from typing import Any

from shared.engine import event

from services.elasund.rules import board
from services.elasund.rules.events import evolve
from services.elasund.rules.state import State


def clone(state: State) -> State:
    # pickle round-trips plain dict/list trees much faster than copy.deepcopy.
    return pickle.loads(pickle.dumps(state, pickle.HIGHEST_PROTOCOL))


# The order in which a draw lists the hidden cards before picking among them, by engine version.
# Never the order of a dict in the state: a state folded from the log and one loaded from a
# snapshot (canonical JSON, sorted keys) list their colours differently.  Engine 2 listed the
# colours in the order the fold gives its dicts, which is the components' order (red, blue,
# green): drawing in that fixed order decides exactly what engine 2 recorded.  Engine 3 and later
# draw in sorted order, the order of the canonical form itself.
RULES_ORDER: tuple[str, ...] = tuple(board.INFLUENCE_COLOURS)
SORTED_ORDER: tuple[str, ...] = tuple(sorted(board.INFLUENCE_COLOURS))


class Ctx:
    def __init__(self, state: State, rng: random.Random, draw_order: tuple[str, ...] = SORTED_ORDER) -> None:
        self.state = clone(state)
        self.rng = rng
        self.draw_order = draw_order
        self.events: list[dict[str, Any]] = []
        self.turn_over = False    # set by phase-4 moves: the next seat's turn starts

    def emit(self, type_: str, **data: Any) -> None:
        new_event = event(type_, **data)
        self.events.append(new_event)
        evolve(self.state, new_event)
