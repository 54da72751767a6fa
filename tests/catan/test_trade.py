"""Maritime trade (4:1, 3:1, 2:1) and domestic trade between the player on turn and the others."""
from __future__ import annotations

from tests.catan.helpers import GAME, SETUP_4, give, illegal, next_turn, play, set_up, to_main

OFFER = {"type": "offer_trade", "give": {"brick": 1}, "get": {"ore": 1}}


def test_bank_trades_four_for_one_anywhere() -> None:
    state = to_main(set_up())
    give(state, 0, ore=5)
    assert illegal(state, 0, {"type": "bank_trade", "give": "ore", "get": "ore"}) == "same-resource"
    events = play(state, 0, {"type": "bank_trade", "give": "ore", "get": "brick"})
    assert events == [{"type": "bank_traded", "data": {"seat": 0, "give": "ore", "count": 4, "get": "brick"}}]
    assert state["hands"][0] == [1, 0, 0, 0, 1]
    assert illegal(state, 0, {"type": "bank_trade", "give": "ore", "get": "brick"}) == "not-enough-resources"
    assert not [m for m in GAME.legal_moves(state, 0) if m["type"] == "bank_trade"]


def test_bank_must_hold_the_card_asked_for() -> None:
    state = to_main(set_up())
    give(state, 1, wool=19)
    give(state, 0, ore=4)
    assert illegal(state, 0, {"type": "bank_trade", "give": "ore", "get": "wool"}) == "bank-empty"
    trades = [m["get"] for m in GAME.legal_moves(state, 0) if m["type"] == "bank_trade"]
    assert sorted(trades) == ["brick", "grain", "lumber"]


def test_a_generic_harbour_trades_three_for_one() -> None:
    state = to_main(set_up())             # seat 2's settlement 47 is on a 3:1 harbour
    assert state["rates"][2] == [3] * 5 and state["rates"][0] == [4] * 5
    next_turn(state)
    assert next_turn(state) == 2
    give(state, 2, wool=3)
    play(state, 2, {"type": "bank_trade", "give": "wool", "get": "ore"})
    assert state["hands"][2] == [0, 0, 0, 0, 1]


def test_a_special_harbour_trades_two_for_one_in_its_resource_only() -> None:
    placements = SETUP_4[:-1] + [(38, 43)]          # seat 0 on the 2:1 brick harbour
    state = to_main(set_up(placements=placements))
    assert state["rates"][0] == [2, 4, 4, 4, 4]
    give(state, 0, brick=4, wool=3)
    play(state, 0, {"type": "bank_trade", "give": "brick", "get": "ore"})
    play(state, 0, {"type": "bank_trade", "give": "brick", "get": "grain"})
    assert illegal(state, 0, {"type": "bank_trade", "give": "wool", "get": "ore"}) == "not-enough-resources"
    assert state["hands"][0] == [0, 0, 3, 1, 1]


def test_domestic_offer_answers_and_confirmation() -> None:
    state = to_main(set_up())
    give(state, 0, brick=2)
    give(state, 1, ore=2)
    give(state, 2, ore=1)
    assert OFFER not in GAME.legal_moves(state, 0)          # free-form: described by the schema
    events = play(state, 0, OFFER)
    assert events == [{"type": "trade_offered", "data": {"seat": 0, "give": {"brick": 1}, "get": {"ore": 1}}}]
    # The others answer first (simultaneously); the offerer waits for every answer.
    assert state["phase"] == "trade" and GAME.to_act(state) == [1, 2, 3]
    assert illegal(state, 0, {"type": "end_turn"}) == "not-your-turn"
    assert illegal(state, 0, {"type": "confirm_trade", "seat": 1}) == "not-your-turn"
    assert GAME.legal_moves(state, 0) == []
    assert illegal(state, 1, {"type": "roll"}) == "answer-the-offer"
    assert GAME.legal_moves(state, 3) == [{"type": "answer_trade", "accept": False}]
    assert illegal(state, 3, {"type": "answer_trade", "accept": True}) == "not-enough-resources"
    assert illegal(state, 3, {"type": "answer_trade", "accept": "yes"}) == "invalid-answer"
    play(state, 1, {"type": "answer_trade", "accept": True})
    play(state, 2, {"type": "answer_trade", "accept": False})
    assert GAME.to_act(state) == [3]
    assert illegal(state, 1, {"type": "answer_trade", "accept": False}) == "not-your-turn"
    play(state, 3, {"type": "answer_trade", "accept": False})
    assert GAME.to_act(state) == [0] and state["offer"]["answers"] == [False, True, False, False]
    assert illegal(state, 0, {"type": "end_turn"}) == "offer-open"
    assert illegal(state, 0, {"type": "answer_trade", "accept": True}) == "own-offer"
    assert GAME.legal_moves(state, 0) == [{"type": "cancel_trade"}, {"type": "confirm_trade", "seat": 1}]
    assert illegal(state, 0, {"type": "confirm_trade", "seat": 2}) == "not-accepted"
    events = play(state, 0, {"type": "confirm_trade", "seat": 1})
    assert events == [{"type": "trade_confirmed", "data": {"seat": 0, "partner": 1}}]
    assert state["hands"][0] == [1, 0, 0, 0, 1] and state["hands"][1] == [1, 0, 0, 0, 1]
    assert state["phase"] == "main" and state["offer"] is None


def test_an_offer_everybody_rejects_lapses_and_the_offerer_may_withdraw() -> None:
    state = to_main(set_up())
    give(state, 0, brick=1)
    play(state, 0, OFFER)
    for seat in (1, 2, 3):
        play(state, seat, {"type": "answer_trade", "accept": False})
    assert state["phase"] == "main" and state["offer"] is None
    give(state, 2, ore=1)
    play(state, 0, OFFER)
    for seat, accept in ((1, False), (2, True), (3, False)):
        play(state, seat, {"type": "answer_trade", "accept": accept})
    play(state, 0, {"type": "cancel_trade"})
    assert state["phase"] == "main" and state["hands"][0] == [1, 0, 0, 0, 0]
    assert state["hands"][2] == [0, 0, 0, 0, 1] and state["offers"] == 2
    assert illegal(state, 0, {"type": "cancel_trade"}) == "no-open-offer"
    assert illegal(state, 1, {"type": "answer_trade", "accept": True}) == "not-your-turn"


def test_only_the_player_on_turn_trades_and_never_for_nothing() -> None:
    state = to_main(set_up())
    give(state, 0, brick=1)
    give(state, 1, ore=1)
    assert illegal(state, 1, {"type": "offer_trade", "give": {"ore": 1}, "get": {"brick": 1}}) == "not-your-turn"
    assert illegal(state, 0, {"type": "offer_trade", "give": {"brick": 1}, "get": {}}) == "invalid-trade"
    assert illegal(state, 0, {"type": "offer_trade", "give": {}, "get": {"ore": 1}}) == "invalid-trade"
    assert illegal(state, 0, {"type": "offer_trade", "give": {"brick": 1}, "get": {"brick": 1}}) == "invalid-trade"
    assert illegal(state, 0, {"type": "offer_trade", "give": {"brick": 2}, "get": {"ore": 1}}) == "not-enough-resources"
    state = set_up()
    give(state, 0, brick=4)
    assert illegal(state, 0, OFFER) == "must-roll-first"
    assert illegal(state, 0, {"type": "bank_trade", "give": "brick", "get": "ore"}) == "must-roll-first"
    assert not [m for m in GAME.legal_moves(state, 0) if "trade" in m["type"]]
