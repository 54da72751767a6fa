from shared.testing import play_random_game
from tests.shared.toygame import RaceGame


def test_toy_game_keeps_the_protocol() -> None:
    for seed in range(20):
        played = play_random_game(RaceGame(), 3, seed=seed)
        assert played.finished
