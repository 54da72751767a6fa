"""Protocol invariants over whole random games, for every player count and option combination."""
from __future__ import annotations

import pytest

from services.catan.bots import STRATEGIES
from services.catan.rules import CatanGame
from shared.game.testing import play_random_game

GAME = CatanGame()


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("board", ["beginner", "variable"])
@pytest.mark.parametrize("shortage", ["nobody", "single-gets-rest"])
def test_random_game_keeps_the_protocol(seed: int, players: int, board: str, shortage: str) -> None:
    played = play_random_game(GAME, players, {"board": board, "bank_shortage": shortage},
                              seed=seed * 100 + players * 7 + len(board) + len(shortage),
                              check_every=2)
    assert played.finished
    result = GAME.result(played.state)
    assert result is not None
    assert result["scores"][result["winners"][0]] >= 10


@pytest.mark.parametrize("players", [3, 4])
def test_greedy_among_random_bots_keeps_the_protocol(players: int) -> None:
    strategies = {0: STRATEGIES["greedy"], 2: STRATEGIES["greedy"]}
    played = play_random_game(GAME, players, {"board": "variable"}, seed=players, strategies=strategies)
    assert played.finished
