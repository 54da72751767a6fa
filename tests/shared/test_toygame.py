from __future__ import annotations

import random
from typing import Any

import pytest

from shared.game.engine import Event, Move
from shared.game.testing import play_random_game
from tests.shared.toygame import RaceGame


def test_toy_game_keeps_the_protocol() -> None:
    for seed in range(20):
        played = play_random_game(RaceGame(), 3, seed=seed)
        assert played.finished


def test_the_protocol_check_catches_a_decide_that_changes_the_state_while_refusing() -> None:
    class Careless(RaceGame):
        def decide(self, state: Any, seat: int, move: Move, rng: random.Random) -> list[Event]:
            if move["type"] == "ack" and not state["pending"]:
                state["scores"][seat] += 1          # the bug: a refusal that leaves a trace
            return super().decide(state, seat, move, rng)

    with pytest.raises(AssertionError, match="while refusing"):
        for seed in range(20):
            play_random_game(Careless(), 3, seed=seed)
