"""Hidden information (hands, deck orders) and random games through the protocol checks."""
from __future__ import annotations

import json
import random

import pytest

from services.elastium.rules.board import SCENARIOS
from shared.game.testing import play_random_game
from tests.elastium.helpers import GAME, new_game


def _text(value: object) -> str:
    return json.dumps(value, sort_keys=True)


def test_views_show_only_ones_own_hand_and_no_deck_order() -> None:
    state = new_game(players=3)
    for seat in (None, 0, 1, 2):
        view = GAME.view(state, seat)
        assert "deck" not in view and "own_decks" not in view and "hands" not in view
        assert view["hand_counts"] == [4, 5, 6]
        assert view.get("hand") == (state["hands"][seat] if seat is not None else None)
    assert "hand" not in GAME.view(state, None)


def test_cursed_decks_are_hidden_from_everyone_including_their_owner() -> None:
    events = GAME.setup(2, {"scenario": "cursed-triangle"}, random.Random(5))
    dealt = next(e for e in events if e["type"] == "private_decks_dealt")
    for seat in (None, 0, 1):
        redacted = GAME.redact(dealt, seat)
        assert redacted["data"] == {"counts": [12, 12]}
    state = GAME.replay(events)
    assert GAME.view(state, 0)["own_deck_counts"] == [8, 7]


def test_redacted_events_never_show_another_seats_cards() -> None:
    events = GAME.setup(3, {"scenario": "jungle-temples"}, random.Random(2))
    for seat in (None, 0, 1, 2):
        for e in events:
            r = GAME.redact(e, seat)
            if e["type"] == "deck_shuffled":
                assert "deck" not in r["data"] and r["data"]["count"] == 50
            if e["type"] == "cards_dealt":
                if e["data"]["seat"] == seat:
                    assert r == e
                else:
                    assert all(card is None for card in r["data"]["cards"])
    assert GAME.redact(events[1], 0) is not events[1]


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_random_play_never_leaks_hidden_cards(scenario: str) -> None:
    played = play_random_game(GAME, 2, {"scenario": scenario}, seed=11, max_moves=120, check_every=20)
    state = GAME.replay(played.events[:len(played.events) * 2 // 3])     # a position in play
    assert state["result"] is None
    for e in played.events:
        for seat in (None, 0, 1):
            data = GAME.redact(e, seat)["data"]
            assert "deck" not in data and "decks" not in data
            if e["type"] in ("card_drawn", "cards_dealt") and e["data"]["seat"] != seat:
                assert data.get("card") is None and not any(data.get("cards") or [])
    for seat in (None, 0, 1):
        view = GAME.view(state, seat)
        assert not {"deck", "own_decks", "hands"} & set(view)
        assert view.get("hand") == (None if seat is None else state["hands"][seat])
        if state["deck"]:
            assert _text(state["deck"]) not in _text(view)


@pytest.mark.parametrize("scenario", SCENARIOS)
@pytest.mark.parametrize("players", [2, 3, pytest.param(4, marks=pytest.mark.slow)])
def test_random_games_keep_the_protocol(scenario: str, players: int) -> None:
    played = play_random_game(GAME, players, {"scenario": scenario}, seed=players * 7 + len(scenario),
                              check_every=25)
    assert played.finished
    result = GAME.result(played.state)
    assert result is not None and len(result["scores"]) == players


def test_hands_are_turned_up_only_once_the_game_is_over() -> None:
    state = new_game(players=3, max_rounds=1)
    for seat in (None, 0, 1, 2):
        assert "hands" not in GAME.view(state, seat)
    from tests.elastium.helpers import play
    for seat in (0, 0, 1, 1, 2, 2):
        assert state["energy"][seat] == 0          # taking cards earns none: no third action
        state, _ = play(state, seat, {"type": "take_cards", "market": []})
    assert state["result"] is not None
    for seat in (None, 0, 1, 2):
        view = GAME.view(state, seat)
        assert view["hands"] == state["hands"] and "deck" not in view and "own_decks" not in view


def test_a_finished_game_shows_phase_over_and_no_round_past_the_last() -> None:
    from services.elastium.rules.game import Elastium
    from shared.game.testing import play_random_game
    game = Elastium()
    played = play_random_game(game, 2, {"scenario": "labyrinth", "max_rounds": 2}, seed=5, check_every=50)
    assert played.finished
    seen = game.view(played.state, None)
    assert seen["phase"] == "over" and seen["round"] <= seen["max_rounds"]
