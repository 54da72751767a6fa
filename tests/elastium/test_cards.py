"""Cards: opening hands by seat, the market of 5, taking 2 cards, reshuffling the discards."""
from __future__ import annotations

import pytest

from services.elastium.rules.state import hand_size
from shared.game.engine import IllegalMove
from shared.game.engine import event
from tests.elastium.helpers import GAME, TAKE, drive, events_of, first_band, new_game, play, start, turn_start


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
    pos = start(seed=0)                  # a market of rouge, vert, rouge, bleu, jaune: no gris
    assert "gris" not in pos.state["market"]
    pos.when(0, {"type": "take_cards", "market": ["gris"]}).then_refused("card-not-in-market")
    pos.when(0, {"type": "take_cards", "market": ["rouge", "rouge"]}).then_including({"type": "market_card_taken"})
    pos.when(0, {"type": "take_cards", "market": ["bleu", "bleu"]}).then_refused("card-not-in-market")


def test_take_card_moves_list_distinct_colour_choices() -> None:
    pos = start(seed=24)
    assert sorted(pos.state["market"]) == ["bleu", "gris", "gris", "vert", "vert"]
    takes = [m["market"] for m in pos.legal(0, "take_cards")]
    assert takes == [[], ["bleu"], ["gris"], ["vert"], ["bleu", "gris"], ["bleu", "vert"],
                     ["gris", "gris"], ["gris", "vert"], ["vert", "vert"]]


def test_an_empty_deck_is_rebuilt_from_the_shuffled_discards() -> None:
    # Cards are taken until the deck is empty, then bands are paid for into the discards.
    pos = drive(start(), lambda s: not s["deck"] and s["discard"] and s["actions_left"] > 0,
                lambda state, seat: None if state["deck"] else first_band(state, seat))
    seat, discarded = pos.state["turn_seat"], sorted(pos.state["discard"])
    events = pos.when(seat, TAKE, seed=7).events or []
    shuffles = events_of(events, "discards_reshuffled")
    assert len(shuffles) == 1 and sorted(shuffles[0]["deck"]) == discarded
    assert len(events_of(events, "card_drawn")) == 2
    state = pos.when(seat, TAKE, seed=7).then_including({"type": "discards_reshuffled"})
    assert state["discard"] == [] and len(state["deck"]) == len(discarded) - 2
    redacted = GAME.redact(next(e for e in events if e["type"] == "discards_reshuffled"), 0)
    assert "deck" not in redacted["data"] and redacted["data"]["count"] == len(discarded)


def test_no_card_left_anywhere_takes_what_there_is() -> None:
    pos = drive(start(), lambda s: not s["deck"] and turn_start(0)(s))      # nothing was discarded
    assert pos.state["discard"] == []
    state = pos.when(0, TAKE).then(event("action_started", seat=0, action="take_cards"))
    assert state["actions_left"] == 1


def test_no_hand_limit() -> None:
    pos = start()
    for _ in range(3):
        pos.after(0, TAKE).after(0, TAKE).after(1, TAKE).after(1, TAKE)
    assert hand_size(pos.state["hands"][0]) == 4 + 12


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
    # Each seat takes cards until fewer than 3 are left in its own deck, then pays for bands.
    pos = drive(start("cursed-triangle"),
                lambda s: 0 < len(s["own_decks"][0]) < 3 and len(s["own_discards"][0]) >= 3
                and s["turn_seat"] == 0 and s["actions_left"] > 0,
                lambda state, seat: first_band(state, seat) if len(state["own_decks"][seat]) < 3 else None)
    others = [list(deck) for deck in pos.state["own_decks"][1:]], [list(d) for d in pos.state["own_discards"][1:]]
    state = pos.when(0, TAKE, seed=3).then_including({"type": "card_drawn"}, {"type": "discards_reshuffled"},
                                                     {"type": "card_drawn"})
    events = pos.when(0, TAKE, seed=3).events or []
    shuffles = events_of(events, "discards_reshuffled")
    assert len(shuffles) == 1 and shuffles[0]["seat"] == 0
    assert len(events_of(events, "card_drawn")) == 3 and state["own_discards"][0] == []
    assert ([list(deck) for deck in state["own_decks"][1:]], [list(d) for d in state["own_discards"][1:]]) == others
