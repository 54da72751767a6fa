"""The engine keeps the platform's protocol for every player count and option combination."""
from __future__ import annotations

import itertools

import pytest

from services.elasund.rules.game import GAME
from shared.testing import play_random_game

OPTION_SETS = [
    {},
    {"walls_blue_first": False, "trade_track_capacity": False},
    {"shortage_payout": "after_discard", "hut_on_own_permit": True},
]


@pytest.mark.parametrize("players, options", list(itertools.product([2, 3, 4], OPTION_SETS)))
def test_random_games_keep_the_protocol(players: int, options: dict) -> None:
    played = play_random_game(GAME, players, options, seed=players * 7 + len(options), max_moves=1500,
                              check_every=7)
    assert played.events[0]["type"] == "game_started"
    assert len(played.moves) > 50
