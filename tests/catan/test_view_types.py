"""Every viewer's view of random games, from the start to the end, fits ``CatanView`` exactly (the
renderers trust that type): each engine version, both player counts, every option that shows in the view."""
from __future__ import annotations

import random
from typing import Any, get_args

import pytest

from services.catan.bots import trade_offers
from services.catan.rules import ENGINES
from services.catan.rules import board, state as rules_state
from services.catan.rules.view_types import RESOURCE_NAMES, CatanView, DevCard, HarbourKind, Phase, Terrain
from shared.game.engine import Game, Move, random_strategy
from shared.game.testing import assert_views_fit, play_random_game
from shared.game.typed_view import ViewMismatch, assert_fits


def trader(game: Game, state: Any, seat: int, rng: random.Random) -> Move:
    """A random player that also offers and counters trades (``legal_moves`` lists neither), so
    that open offers with answers and counter-offers come into view."""
    offers = trade_offers(game, state, seat)
    if offers and rng.random() < 0.5:
        return rng.choice(offers)
    return random_strategy(game, state, seat, rng)


@pytest.mark.parametrize("version, options", [
    ("2", {"board": "beginner", "bank_shortage": "nobody"}),
    ("2", {"board": "variable", "bank_shortage": "single-gets-rest"}),
    ("3", {"board": "beginner", "bank_shortage": "single-gets-rest", "combined_trade_build": False}),
    ("3", {"board": "variable", "bank_shortage": "nobody", "combined_trade_build": True}),
])
@pytest.mark.parametrize("players", [3, 4])
def test_every_view_of_a_random_game_fits_the_declared_type(version: str, options: dict[str, Any],
                                                            players: int) -> None:
    game = ENGINES[version]
    played = play_random_game(game, players, options, seed=players * 10 + len(options),
                              strategies={seat: trader for seat in range(players)}, check_every=10**6)
    assert played.finished
    state, phases, checked = None, set(), 0
    for number, event in enumerate(played.events):
        state = game.evolve(state, event)
        phase = state["phase"]
        # Each phase the first time it comes, and every 60th event besides (the views differ
        # by phase: the dice, an open offer, the discards, the hands turned up at the end).
        if phase not in phases or number % 60 == 0 or number == len(played.events) - 1:
            phases.add(phase)
            assert_views_fit(game, state, players, CatanView)
            checked += 1
    assert phases >= {"setup", "roll", "robber", "main", "trade", "over"}
    assert checked > 20


def test_a_view_that_strays_from_the_type_is_caught() -> None:
    game = ENGINES["3"]
    played = play_random_game(game, 3, seed=1, max_moves=60, check_every=10**6)
    view: Any = game.view(played.state, 0)
    assert_fits(view, CatanView)
    for strayed in ({**view, "phase": "bidding"}, {**view, "bank": {**view["bank"], "gold": 1}},
                    {**view, "seats": [{**view["seats"][0], "resources": {"brick": "2"}}]}):
        with pytest.raises(ViewMismatch):
            assert_fits(strayed, CatanView)


def test_the_closed_sets_are_the_rules_own() -> None:
    assert RESOURCE_NAMES == tuple(board.RESOURCES)
    assert get_args(DevCard) == tuple(rules_state.DEV_CARDS)
    assert set(get_args(Terrain)) == set(board.TERRAIN_RESOURCE)
    assert set(get_args(HarbourKind)) == {h["kind"] for h in board.harbour_layout()}
    assert set(get_args(Phase)) == {rules_state.SETUP, rules_state.ROLL, rules_state.DISCARD, rules_state.ROBBER,
                                    rules_state.MAIN, rules_state.ROAD_BUILDING, rules_state.TRADE, rules_state.OVER}
