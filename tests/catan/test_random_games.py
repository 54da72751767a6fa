"""Protocol invariants over whole random games, for every player count and board option."""
from __future__ import annotations

import pytest

from services.catan.rules import CatanGame
from shared.testing import play_random_game

GAME = CatanGame()


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("board", ["beginner", "variable"])
@pytest.mark.parametrize("shortage", ["nobody", "single-gets-rest"])
def test_random_game_keeps_the_protocol(players: int, board: str, shortage: str) -> None:
    played = play_random_game(GAME, players, {"board": board, "bank_shortage": shortage},
                              seed=players * 7 + len(board) + len(shortage), max_moves=20000,
                              check_every=3)
    assert played.finished
    result = GAME.result(played.state)
    assert result is not None
    winner = result["winners"][0]
    assert result["scores"][winner] >= 10
