"""Every view of played games fits ``ElastiumView``, the type the renderers trust.

Random games of every scenario (each its own board, rules, end and final breakdown) for 2, 3 and
4 players (the sides and the board's size), checked for every seat and the spectator at the
start, along the way, where each phase first comes, where the end is triggered and at the end
(where every hand is turned up).  Elastium has one engine version.
"""
from __future__ import annotations

from typing import Any, get_args

import pytest

from services.elastium.pictures import ARTEFACT_WORDS, PEG_LETTER
from services.elastium.render import PHASE_WORDS, TERMS
from services.elastium.rules import view_types
from services.elastium.rules.board import COLOURS, SCENARIOS
from services.elastium.rules.game import Elastium
from services.elastium.rules.scoring import ARTEFACTS
from services.elastium.rules.state import ACTIONS, BONUS, EXTRA
from services.elastium.rules.state import phase as phase_of
from shared.game.testing import assert_views_fit, play_random_game

GAME = Elastium()
# Each scenario played out to its own end for one player count, and cut short (4 rounds) for the
# other two: the view's shape depends on the scenario and the number of seats, not on the length.
CASES = [(scenario, players, None if players == 2 + index % 3 else 4)
         for index, scenario in enumerate(SCENARIOS) for players in (2, 3, 4)]
SPREAD = 8                # positions checked per game, spread over its events


def test_the_closed_sets_of_the_type_are_the_rules_own() -> None:
    assert get_args(view_types.Scenario) == SCENARIOS
    assert get_args(view_types.Colour) == COLOURS
    assert get_args(view_types.Artefact) == ARTEFACTS
    assert get_args(view_types.Phase) == (ACTIONS, EXTRA, BONUS, "over")
    # The renderers look each of them up without a fallback.
    assert set(PHASE_WORDS) == set(get_args(view_types.Phase))
    assert set(PEG_LETTER) == set(COLOURS) and set(ARTEFACT_WORDS) == set(ARTEFACTS)
    assert set(get_args(view_types.EndReason)) <= set(TERMS)          # translated, as the scenarios are
    assert set(get_args(view_types.Scenario)) <= set(TERMS)


def assert_views_of_the_game_fit(players: int, events: list[Any]) -> set[str]:
    """Checks the start, the end, ``SPREAD`` positions between, the first position of each phase
    and the position where the end is triggered; the phases seen (``over`` included)."""
    checked = {len(events) - 1} | {len(events) * i // SPREAD for i in range(SPREAD)}
    state: Any = None
    phases: set[str] = set()
    for number, event in enumerate(events):
        state = GAME.evolve(state, event)
        phase = "over" if state["result"] is not None else phase_of(state)
        if number in checked or phase not in phases or event["type"] == "end_triggered":
            assert_views_fit(GAME, state, players, view_types.ElastiumView)
        phases.add(phase)
    return phases


@pytest.mark.parametrize("scenario,players,rounds", CASES,
                         ids=[f"{s}-{n}p-{r or 'full'}" for s, n, r in CASES])
def test_every_view_of_a_random_game_fits_the_type(scenario: str, players: int, rounds: int | None) -> None:
    options = {"scenario": scenario, **({"max_rounds": rounds} if rounds else {})}
    played = play_random_game(GAME, players, options, seed=players, check_every=1000)
    assert played.finished
    phases = assert_views_of_the_game_fit(players, played.events)
    assert {ACTIONS, EXTRA, "over"} <= phases
    if scenario == "labyrinth" and rounds is None:      # artefacts owe bonus cards
        assert BONUS in phases
