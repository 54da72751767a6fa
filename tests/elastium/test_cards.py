"""Cards: opening hands by seat, the market of 5, taking 2 cards, reshuffling the discards."""
from __future__ import annotations

import pytest

from services.elastium.rules.legal import legal_moves
from services.elastium.rules.state import hand_size
from shared.game.engine import IllegalMove
from tests.elastium.helpers import GAME, events_of, new_game, play


@pytest.mark.parametrize("players", [2, 3, 4])
def test_deal_4_5_6_7_by_seat_and_a_market_of_5(players: int) -> None:
    state = new_game(players=players)
    assert [hand_size(h) for h in state["hands"]] == [4, 5, 6, 7][:players]
    assert len(state["market"]) == 5
    assert len(state["deck"]) == 50 - 5 - sum([4, 5, 6, 7][:players])


def test_take_one_market_card_and_one_from_the_deck_then_refill() -> None:
    state = new_game()
    wanted = state["market"][0]
    top = state["deck"][-1]
    before = dict(state["hands"][0])
    state, events = play(state, 0, {"type": "take_cards", "market": [wanted]})
    assert events_of(events, "market_card_taken") == [{"seat": 0, "card": wanted}]
    assert events_of(events, "card_drawn") == [{"seat": 0, "card": top}]
    assert len(state["market"]) == 5 and len(events_of(events, "market_card_revealed")) == 1
    gained = {c: state["hands"][0][c] - before[c] for c in before}
    assert sum(gained.values()) == 2 and gained[wanted] >= 1
    assert state["actions_left"] == 1


def test_take_two_from_the_market() -> None:
    state = new_game()
    two = state["market"][:2]
    state, events = play(state, 0, {"type": "take_cards", "market": two})
    assert [e["card"] for e in events_of(events, "market_card_taken")] == two
    assert not events_of(events, "card_drawn") and len(state["market"]) == 5


def test_a_card_not_in_the_market_is_refused() -> None:
    state = new_game()
    missing = next(c for c in ("gris", "bleu", "vert", "rouge", "jaune") if c not in state["market"]) \
        if len(set(state["market"])) < 5 else None
    if missing is None:
        state["market"] = ["gris"] * 5
        missing = "bleu"
    with pytest.raises(IllegalMove) as exc:
        play(state, 0, {"type": "take_cards", "market": [missing]})
    assert exc.value.reason == "card-not-in-market"


def test_take_card_moves_list_distinct_colour_choices() -> None:
    state = new_game()
    state["market"] = ["gris", "gris", "bleu", "vert", "vert"]
    takes = [m["market"] for m in legal_moves(state, 0) if m["type"] == "take_cards"]
    assert takes == [[], ["bleu"], ["gris"], ["vert"], ["bleu", "gris"], ["bleu", "vert"],
                     ["gris", "gris"], ["gris", "vert"], ["vert", "vert"]]


def test_an_empty_deck_is_rebuilt_from_the_shuffled_discards() -> None:
    state = new_game()
    state["discard"] = state["deck"][:]
    state["deck"] = []
    state, events = play(state, 0, {"type": "take_cards", "market": []}, seed=7)
    shuffles = events_of(events, "discards_reshuffled")
    assert len(shuffles) == 1 and len(shuffles[0]["deck"]) == 36
    assert state["discard"] == [] and len(state["deck"]) == 34
    redacted = GAME.redact(next(e for e in events if e["type"] == "discards_reshuffled"), 0)
    assert "deck" not in redacted["data"] and redacted["data"]["count"] == 36


def test_no_card_left_anywhere_takes_what_there_is() -> None:
    state = new_game()
    state["deck"], state["discard"] = [], []
    state, events = play(state, 0, {"type": "take_cards", "market": []})
    assert not events_of(events, "card_drawn") and state["actions_left"] == 1


def test_no_hand_limit() -> None:
    state = new_game()
    for _ in range(6):
        state["turn_seat"], state["actions_left"] = 0, 2
        state, _ = play(state, 0, {"type": "take_cards", "market": []})
    assert hand_size(state["hands"][0]) == 4 + 12


def test_cursed_triangle_private_decks_draw_three_and_no_market() -> None:
    state = new_game("cursed-triangle", players=3)
    assert state["market"] == [] and state["deck"] == []
    assert [len(d) for d in state["own_decks"]] == [8, 7, 6]
    top3 = state["own_decks"][0][-3:]
    state, events = play(state, 0, {"type": "take_cards", "market": []})
    assert sorted(e["card"] for e in events_of(events, "card_drawn")) == sorted(top3)
    with pytest.raises(IllegalMove) as exc:
        play(state, 0, {"type": "take_cards", "market": ["gris"]})
    assert exc.value.reason == "no-market"


def test_cursed_triangle_reshuffles_only_ones_own_discards_when_needed() -> None:
    state = new_game("cursed-triangle")
    state["own_discards"][0] = state["own_decks"][0][1:]
    state["own_decks"][0] = state["own_decks"][0][:1]
    state, events = play(state, 0, {"type": "take_cards", "market": []}, seed=3)
    shuffles = events_of(events, "discards_reshuffled")
    assert len(shuffles) == 1 and shuffles[0]["seat"] == 0
    assert len(events_of(events, "card_drawn")) == 3 and state["own_discards"][0] == []
