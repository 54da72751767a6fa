"""``ElfenlandGame.copy`` (every world of the bots' search is one) is a true deep copy of the
state, equal to a JSON round trip, types included, in every edition."""
from __future__ import annotations

import json
import random
from typing import Any

from shared.game.engine import random_strategy
from tests.elfenland.positions import GAME


def same_shape(a: Any, b: Any) -> bool:
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same_shape(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same_shape(x, y) for x, y in zip(a, b))
    return bool(a == b)


def test_copy_is_a_json_round_trip_and_shares_nothing() -> None:
    for n, options in enumerate(({}, {"edition": "elfengold", "wizards": True}, {"edition": "elfenroads"})):
        rng = random.Random(n)
        state = GAME.replay(GAME.setup(3, {**GAME.default_options(), **options}, rng))
        for step in range(300):
            if GAME.result(state) is not None:
                break
            if step % 10 == 0:
                copied = GAME.copy(state)
                assert same_shape(copied, json.loads(json.dumps(state)))
                copied["seats"][0]["hand"]["__probe__"] = 1          # a change to the copy...
                copied["seats"][0]["visited"].append("__probe__")
                assert "__probe__" not in state["seats"][0]["hand"]   # ...never reaches the state
                assert "__probe__" not in state["seats"][0]["visited"]
            seat = GAME.to_act(state)[0]
            for e in GAME.decide(state, seat, random_strategy(GAME, state, seat, rng), rng):
                state = GAME.evolve(state, e)
