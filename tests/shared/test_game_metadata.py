"""What each game declares of itself (``Game.max_moves``, ``has_chance``, ``simultaneous_moves``)
and its ``returns``, checked against random play of the game itself."""
from __future__ import annotations

import random

import pytest

from shared.game import registry
from shared.game.engine import random_strategy
from shared.game.testing import play_random_game


@pytest.mark.parametrize("name", registry.available())
def test_declared_metadata_matches_random_play(name: str) -> None:
    game = registry.plugin(name).game
    players = game.min_players
    options = game.default_options()
    setups = {str(game.setup(players, options, random.Random(seed))) for seed in range(4)}
    # Setups that differ by seed alone: the game has chance (its shuffles are in the events).
    assert game.has_chance == (len(setups) > 1)
    rng = random.Random(3)
    state = game.replay(game.setup(players, options, rng))
    several_acting = False
    assert game.returns(state) is None
    for _ in range(game.max_moves):
        if game.result(state) is not None:
            break
        acting = game.to_act(state)
        several_acting |= len(acting) > 1
        seat = rng.choice(acting)
        for e in game.decide(state, seat, random_strategy(game, state, seat, rng), rng):
            state = game.evolve(state, e)
    result = game.result(state)
    assert result is not None, f"a random game ran past max_moves={game.max_moves}"
    shares = game.returns(state)
    assert shares is not None and len(shares) == players and sum(shares) == pytest.approx(1.0)
    assert {seat for seat, share in enumerate(shares) if share} == set(result["winners"])
    if several_acting:
        assert game.simultaneous_moves


def test_a_game_played_with_the_default_cap_finishes() -> None:
    played = play_random_game(registry.plugin("elastium").game, 2, seed=5, check_every=100)
    assert played.finished
