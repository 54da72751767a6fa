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

from shared.game.engine import event

from services.elasund.rules.versions import Engine, fold
from services.elasund.rules.state import State


def clone(state: State) -> State:
    # pickle round-trips plain dict/list trees much faster than copy.deepcopy.
    return pickle.loads(pickle.dumps(state, pickle.HIGHEST_PROTOCOL))


class Ctx:
    def __init__(self, state: State, rng: random.Random, engine: Engine) -> None:
        self.state = clone(state)
        self.rng = rng
        self.engine = engine            # the engine version deciding (versions.Engine)
        self.draw_order = engine.draw_order
        self.events: list[dict[str, Any]] = []
        self.turn_over = False    # set by phase-4 moves: the next seat's turn starts

    def emit(self, type_: str, **data: Any) -> None:
        new_event = event(type_, **data)
        self.events.append(new_event)
        fold(self.state, new_event, self.engine)
