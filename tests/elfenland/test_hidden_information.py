"""Views and redacted events never show a seat what the rules hide from it."""
from __future__ import annotations

# Positions: set-ups and random games, played on by the engine's own moves.

import json
import random

from services.elfenland.rules.components import HAND_CARDS
from shared.game.testing import assert_views_hide, play_random_game

from tests.elfenland.positions import GAME, new_game, play


def _hand_list(seat_state: dict) -> list[str]:
    return sorted(k for k, n in seat_state["hand"].items() for _ in range(n))


def test_views_show_own_hand_and_home_only_counts_for_others() -> None:
    state = new_game(3)
    for seat in range(3):
        view = GAME.view(state, seat)
        assert view["seats"][seat]["hand"] == state["seats"][seat]["hand"]
        assert view["seats"][seat]["home"] == state["seats"][seat]["home"]
        for other in set(range(3)) - {seat}:
            shown = view["seats"][other]
            assert shown["hand"] is None and shown["home"] is None and shown["hand_size"] == 8
            assert shown["counters"] == [{"kind": None, "hidden": True}]
    spectator = GAME.view(state, None)
    assert all(s["hand"] is None and s["home"] is None for s in spectator["seats"])
    assert "deck" not in spectator and "bag" not in spectator and "discard" not in spectator
    assert spectator["deck_size"] == 72 - 24


def test_redacted_events_hide_other_seats_cards_counters_and_home() -> None:
    events = GAME.setup(3, GAME.default_options(), random.Random(2))
    for viewer in (None, 0, 1, 2):
        for e in events:
            seen = GAME.redact(e, viewer)
            owner = e["data"].get("seat")
            if e["type"] in ("cards_dealt", "secret_counter_drawn", "home_town_dealt") and owner != viewer:
                secret = {"cards_dealt": "cards", "secret_counter_drawn": "counter", "home_town_dealt": "town"}[e["type"]]
                hidden = seen["data"][secret]
                assert hidden is None or hidden == [None] * len(e["data"][secret])
            if owner == viewer:
                assert seen == e
    assert events[0] == GAME.redact(events[0], None)        # redact copies, never mutates


def test_a_hidden_elfengold_counter_stays_hidden_in_views() -> None:
    state = new_game(2, edition="elfengold")
    shown, hidden = state["seats"][0]["pending"]
    assert GAME.view(state, 1)["seats"][0]["pending"] is None
    state, events = play(state, 0, {"type": "reveal_counter", "counter": shown})
    other_view = GAME.view(state, 1)["seats"][0]["counters"]
    assert {"kind": shown, "hidden": False} in other_view and {"kind": None, "hidden": True} in other_view


def test_random_game_views_and_events_never_leak_other_hands() -> None:
    played = play_random_game(GAME, 3, {"edition": "elfengold", "wizards": True}, seed=5, max_moves=150)
    state = played.state
    for viewer in range(3):
        view = GAME.view(state, viewer)
        for other in set(range(3)) - {viewer}:
            assert view["seats"][other]["hand"] is None
            assert view["seats"][other]["pending"] is None
            assert all(c["kind"] is None for c in view["seats"][other]["counters"] if c["hidden"])
        for e in played.events:
            seen = GAME.redact(e, viewer)
            if e["type"] in ("cards_dealt", "card_drawn", "counters_drawn") and e["data"]["seat"] != viewer:
                text = json.dumps(seen["data"])
                assert not any(f'"{kind}"' in text for kind in HAND_CARDS)


def test_everything_is_shown_once_the_game_is_over() -> None:
    # "Tous les joueurs revelent leur carte de village natal"; the platform then serves events
    # unredacted, so the views show the hands, home towns and hidden counters too.
    played = play_random_game(GAME, 3, {"edition": "elfenland"}, seed=3, check_every=50)
    state = played.state
    assert GAME.result(state) is not None
    for viewer in (None, 0, 1, 2):
        view = GAME.view(state, viewer)
        assert [s["home"] for s in view["seats"]] == [s["home"] for s in state["seats"]]
        assert [s["hand"] for s in view["seats"]] == [s["hand"] for s in state["seats"]]
        assert [s["counters"] for s in view["seats"]] == [s["counters"] for s in state["seats"]]


def test_no_seat_sees_another_seats_home_town() -> None:
    state = new_game(4)
    for viewer in (None, 0, 1, 2, 3):
        others = [s["home"] for i, s in enumerate(state["seats"]) if i != viewer]
        assert_views_hide(GAME, state, viewer, others)
