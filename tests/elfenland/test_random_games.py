"""Protocol invariants over random games, for every edition, player count and option."""
from __future__ import annotations

import pytest

from services.elfenland.rules import ElfenlandGame
from shared.game.testing import play_random_game

GAME = ElfenlandGame()

CASES = [
    (2, {"edition": "elfenland"}),
    (3, {"edition": "elfenland", "lake_rules": "german", "caravan_cards": 5}),
    (4, {"edition": "elfenland", "home_towns": False}),
    (5, {"edition": "elfenland"}),
    (6, {"edition": "elfenland", "lake_rules": "german"}),
    (2, {"edition": "elfengold", "wizards": True}),
    (3, {"edition": "elfengold", "random_gold_values": True, "caravan_cards": 5}),
    (4, {"edition": "elfengold", "lake_rules": "german", "home_towns": False}),
    (5, {"edition": "elfengold", "wizards": True, "random_gold_values": True}),
    (6, {"edition": "elfengold"}),
    (2, {"edition": "elfenroads"}),
    (4, {"edition": "elfenroads", "lake_rules": "german", "random_gold_values": True}),
    (6, {"edition": "elfenroads", "home_towns": False}),
]


@pytest.mark.parametrize("players,options", CASES)
def test_random_game_keeps_the_protocol(players: int, options: dict) -> None:
    played = play_random_game(GAME, players, options, seed=players * 7 + len(options), check_every=3)
    assert played.finished
    result = GAME.result(played.state)
    assert result["winners"] and len(result["scores"]) == players
