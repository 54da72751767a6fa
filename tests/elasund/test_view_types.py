"""Every view the engine sends has the shape rules/view_types.py declares (the renderers trust it):
each seat's and the spectator's, between the events of random games of every option set, player
count and kept engine version, and in the pauses random play seldom reaches."""
from __future__ import annotations

import random

import pytest

from services.elasund.rules.game import ENGINES, GAME
from services.elasund.rules.view_types import ElasundView
from services.elasund.schemas import EVENT_SCHEMAS, View
from shared.game.engine import event
from shared.game.testing import assert_views_fit, given, play_random_game
from tests.shared.variants import VARIANTS

# The option sets that change what a view can hold, on the newest engine; the older engines fold
# one event differently (the trade disk past 11), so one game each.
GAMES = [("3", players, options) for players, options in VARIANTS["elasund"]] + [("1", 3, {}), ("2", 4, {})]
STRIDE = 23     # views checked every this many events (a prime: the checks fall in every phase)


@pytest.mark.parametrize(("version", "players", "options"), GAMES,
                         ids=[f"v{v}-{p}p-{'-'.join(f'{k}={o[k]}' for k in o) or 'default'}" for v, p, o in GAMES])
def test_views_of_a_random_game_fit_the_declared_type(version: str, players: int, options: dict) -> None:
    game = ENGINES[version]
    played = play_random_game(game, players, options, seed=3, check_every=10**6)
    assert played.finished
    state = None
    last = len(played.events) - 1
    for number, e in enumerate(played.events):
        state = game.evolve(state, e)
        # The views between a move's events are served too (a replay shows every version); the
        # pauses (pirates, ship choices, huts to rebuild) are checked more often, being rarer.
        if number % STRIDE == 0 or number == last or (state["pending"] and number % 3 == 0):
            assert_views_fit(game, state, players, ElasundView)


def test_an_influence_shortage_and_a_church_tile_without_a_cube_fit() -> None:
    # Every hand emptied but seat 0's, one influence card left in the bank: the roll's income
    # (2 influence) is short and everyone discards half, the income due kept in the pause.
    position = given(GAME).setup(4).fold(event("turn_started", seat=0, turn=1))
    for seat in range(4):
        hand = position.state["hands"][seat]
        position.fold(event("cards_discarded", seat=seat, gold=hand["gold"], influence=dict(hand["influence"]),
                            reason="test"))
    position.fold(event("cards_drawn", seat=0, gold=0, influence=["red", "red", "blue", "green"], reason="test"),
                  event("influence_reshuffled"),
                  event("influence_deck_formed", counts={"red": 0, "blue": 0, "green": 1}))
    for seed in range(200):
        rolled = GAME.decide(position.state, 0, {"type": "roll"}, random.Random(seed))
        if rolled[0]["data"]["total"] == 4:
            break
    position.fold(*rolled)
    assert position.state["pending"]["reason"] == "influence_shortage"
    assert_views_fit(GAME, position.state, 4, ElasundView)
    shortage_view = GAME.view(position.state, 0)
    # A church tile built by a seat with no victory cube left carries none.
    position.fold(event("church_tile_placed", seat=None, builder=1, tile=6, col=3, row=8, build_number=1))
    assert_views_fit(GAME, position.state, 4, ElasundView)
    # The contract documents both: the view's pause and the tile (a null seat), and the event itself.
    assert View().validate(shortage_view) == {}
    for seat in (None, 0):
        assert View().validate(GAME.view(position.state, seat)) == {}
    assert EVENT_SCHEMAS["church_tile_placed"]().validate(position.events[-1]["data"]) == {}
