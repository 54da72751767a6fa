"""Bots never cheat: a bot's move depends only on what its seat may see.

For every title, option set and bot, over states of random games: the same state with the
secrets hidden from the acting seat moved around (tests/shared/secret_swaps.py, written apart from
the games' ``conceal``) looks the same to that seat, and the bot, run the way the worker runs it
(``shared.game.engine.play_fair`` with ``shared.play.bots.bot_rngs``), plays the same move in both.
"""
from __future__ import annotations

import functools
import json
import random
from typing import Any

import pytest
import redis

from shared.game import registry
from shared.play.bots import bot_rngs, play_bot_turn_with
from shared.game.engine import Game, State, play_fair, thinks
from shared.log.eventstore import EventStore
from shared.play.runtime import GameRuntime
from tests.shared.secret_swaps import swapped
from tests.shared.variants import case_id, cases

pytestmark = pytest.mark.slow      # each bot thinks at many states (make test-fast leaves it out)

CASES = cases()
SAMPLE_AT = (3, 15, 40, 90, 160, 260)      # moves into a random game where its state is taken


def sampled_states(game: Game, players: int, options: dict[str, Any], seed: int) -> list[tuple[State, int]]:
    """(state, acting seat) at a few points of a random game (the random bot plays it)."""
    rng = random.Random(seed)
    state = game.replay(game.setup(players, {**game.default_options(), **options}, rng))
    taken: list[tuple[State, int]] = []
    for step in range(max(SAMPLE_AT) + 1):
        if game.result(state) is not None:
            break
        seat = rng.choice(game.to_act(state))
        if step in SAMPLE_AT:
            taken.append((game.copy(state), seat))
        move = rng.choice(game.legal_moves(state, seat))
        for e in game.decide(state, seat, move, rng):
            state = game.evolve(state, e)
    return taken


def canon(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
def test_a_bot_plays_the_same_move_whatever_the_others_hide(case: tuple[str, int, dict[str, Any]]) -> None:
    name, players, options = case
    plugin = registry.plugin(name)
    game = plugin.game
    differed = 0
    for seed in (1, 2):
        for state, seat in sampled_states(game, players, options, seed):
            other = swapped(name, state, seat, random.Random(seed))
            assert canon(game.view(state, seat)) == canon(game.view(other, seat)), "not a valid pair"
            differed += canon(game.dump(state)) != canon(game.dump(other))
            # The platform's bot input is a function of the seat's view alone.
            concealed = game.conceal(state, seat, random.Random(7))
            assert canon(game.dump(concealed)) == canon(game.dump(game.conceal(other, seat, random.Random(7))))
            # ... which keeps the seat's view and the moves it has, and is a state the engine plays on.
            assert canon(game.view(concealed, seat)) == canon(game.view(state, seat))
            assert canon(game.legal_moves(concealed, seat)) == canon(game.legal_moves(state, seat))
            before = canon(game.dump(state))
            for bot, strategy in plugin.strategies.items():
                if thinks(strategy):
                    # A search bot on a wall-clock budget plays whatever it found in time: pin its
                    # effort (one round of playouts) so that the move is a function of its input.
                    strategy = functools.partial(strategy, iterations=1)
                moves = [play_fair(game, strategy, s, seat, *bot_rngs(seed, 5, seat)) for s in (state, other)]
                assert moves[0] == moves[1], f"{bot} read a secret of another seat at {seat}"
                game.decide(concealed, seat, moves[0], random.Random(3))    # legal there
                game.decide(state, seat, moves[0], random.Random(3))        # and in the real game
            assert canon(game.dump(state)) == before, "a bot touched the real state"
    assert differed, "no sampled state had a secret to move: the test proves nothing here"


def test_the_worker_hands_its_bot_the_concealed_state(redis_url: str, redis_client: Any) -> None:
    """Through the real job function on a real Redis: the strategy receives ``conceal``'s state
    (drawn with the turn's own rng), never the game's."""
    plugin = registry.plugin("catan")
    game = plugin.game
    runtime = GameRuntime(game, EventStore(redis.Redis.from_url(redis_url)))
    players = [{"name": f"bot{i}", "bot": "spy"} for i in range(3)]
    game_id, _, _ = runtime.create(players, {}, seed=4)
    received: list[State] = []

    def spy(game: Game, state: State, seat: int, rng: random.Random) -> Any:
        received.append(game.copy(state))
        return plugin.strategies["greedy"](game, state, seat, rng)

    secrets_seen = 0
    for _ in range(60):
        loaded = runtime.load(game_id)
        if game.result(loaded.state) is not None:
            break
        seat, real = game.to_act(loaded.state)[0], game.copy(loaded.state)
        outcome = play_bot_turn_with(runtime, {"spy": spy}, game_id, loaded.version, seat)
        assert outcome["played"]
        expected = game.conceal(real, seat, bot_rngs(loaded.seed, loaded.version, seat)[1])
        assert canon(received[-1]) == canon(expected)
        secrets_seen += canon(received[-1]["hands"]) != canon(real["hands"])
    assert secrets_seen, "the others' hands were never resampled"
