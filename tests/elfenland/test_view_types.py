"""Every view of played games fits ``ElfenlandView``, the type the renderers trust.

Random games of every option set that changes the view (each edition, wizards, random town
values, no home towns), under every kept engine version, checked for every seat and the
spectator at the start, along the way and at the end (where every secret is turned up).
"""
from __future__ import annotations

import json
import random
from typing import Any, get_args

import pytest

from services.elfenland.render import PHASE_WORDS
from services.elfenland.rules import ElfenlandGame
from services.elfenland.rules import view_types
from services.elfenland.rules.components import COUNTER_KINDS, EDITIONS, GOLD_CARD, HAND_CARDS, TRANSPORTS
from services.elfenland.rules.scoring import ENDINGS
from services.elfenland.rules.state import PHASES
from shared.game.engine import Game, Move, random_strategy
from shared.game.testing import assert_views_fit, play_random_game
from tests.shared.variants import VARIANTS

CASES = [(version, n, options) for version in sorted(ENDINGS) for n, options in VARIANTS["elfenland"]]
SPREAD = 12               # positions checked per game, spread over its events


def test_the_closed_sets_of_the_type_are_the_rules_own() -> None:
    assert get_args(view_types.Edition) == EDITIONS
    assert get_args(view_types.Phase) == PHASES
    assert get_args(view_types.Transport) == TRANSPORTS
    assert get_args(view_types.CounterKind) == COUNTER_KINDS
    assert get_args(view_types.HandCard) == HAND_CARDS
    assert get_args(view_types.DeckCard) == (*HAND_CARDS, GOLD_CARD)
    # The renderers word each phase from this table, with no fallback.
    assert set(PHASE_WORDS) == set(get_args(view_types.Phase))


def hoarding(game: Game, state: Any, seat: int, rng: random.Random) -> Move:
    """Passes whenever it may: counters pile up, so the phase where each seat keeps some comes."""
    passes = [m for m in game.legal_moves(state, seat) if m["type"] == "pass"]
    return passes[0] if passes else random_strategy(game, state, seat, rng)


def assert_views_of_the_game_fit(game: ElfenlandGame, players: int, events: list[Any]) -> set[str]:
    """Checks the start, the end, ``SPREAD`` positions between, and the first and last position of
    each phase the first time it comes; the phases seen."""
    checked = {len(events)} | {len(events) * i // SPREAD for i in range(SPREAD)}
    state, phase, phases = None, None, set()
    for number, event in enumerate(events):
        before = state
        state = game.evolve(state, event)
        if state["phase"] != phase:
            if phase is not None and phase not in phases:
                assert_views_fit(game, before, players, view_types.ElfenlandView)       # the phase's last
            phases.add(phase)
            if state["phase"] not in phases:
                checked.add(number)                                                     # the phase's first
            phase = state["phase"]
        if number in checked:
            assert_views_fit(game, state, players, view_types.ElfenlandView)
    return {p for p in phases if p is not None}


@pytest.mark.parametrize("version,players,options", CASES,
                         ids=[f"v{v}-{n}p-{'-'.join(f'{k}={o[k]}' for k in o) or 'default'}" for v, n, o in CASES])
def test_every_view_of_a_random_game_fits_the_type(version: str, players: int, options: dict[str, Any]) -> None:
    game = ElfenlandGame(version)
    played = play_random_game(game, players, options, seed=len(json.dumps(options)) + players, check_every=1000)
    assert played.finished
    assert_views_of_the_game_fit(game, players, played.events)


@pytest.mark.parametrize("edition", ["elfenland", "elfengold"])
def test_the_views_of_the_phase_where_seats_keep_counters_fit_the_type(edition: str) -> None:
    game = ElfenlandGame()
    played = play_random_game(game, 3, {"edition": edition}, seed=3, check_every=1000,
                              strategies={seat: hoarding for seat in range(3)})
    assert played.finished
    assert "keep" in assert_views_of_the_game_fit(game, 3, played.events)
