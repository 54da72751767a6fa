"""The engine keeps the platform's protocol for every player count and option combination."""
from __future__ import annotations

import itertools

import pytest

from services.elasund.rules.board import CUBES_PER_PLAYER
from services.elasund.rules.game import GAME
from shared.game.testing import play_random_game

OPTION_SETS = [
    {},
    {"walls_blue_first": False, "trade_track_capacity": False},
    {"shortage_payout": "after_discard", "hut_on_own_permit": True},
]


@pytest.mark.parametrize("players, which", list(itertools.product([2, 3, 4], range(len(OPTION_SETS)))))
def test_random_games_keep_the_protocol_to_the_end(players: int, which: int) -> None:
    # A seed of its own per option set: two sets sharing one would play the same game twice.
    played = play_random_game(GAME, players, OPTION_SETS[which], seed=players * 7 + which,
                              check_every=7)
    assert played.events[0]["type"] == "game_started"
    assert len(played.moves) > 50
    # Played to its end: one seat won, with all its cubes on the board.
    assert played.finished, f"unfinished after {len(played.moves)} moves"
    result = GAME.result(played.state)
    assert result is not None and len(result["winners"]) == 1
    assert result["scores"][result["winners"][0]] >= CUBES_PER_PLAYER, result
