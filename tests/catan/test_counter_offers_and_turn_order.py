"""Catan's trading rules of engine version 3: counter-offers, and trading before building.

Counter-offers, the almanac ("Commerce/Echange"): "c'est le tour de Hans. Il veut construire une
route mais cela coûte une brique et il n'a que deux bois de charpente et 3 minerais. Hans dit :
"j'offre 1 minerai pour 1 brique". Werner répond: "Si tu me donnes 3 minerais, je te donnerai 1
brique." Gabi renchérit avec: "je te donnerai 1 Brique pour 1 bois de charpente et un minerai."
Hans accepte l'offre de Gabi et l'échange est conclu." and "Comme c'est le tour de Hans, Werner
ne peut rien échanger avec Gabi."

Turn order, the almanac ("Construction"): "après qu'il ait terminé tous ses échanges, ce joueur
peut maintenant construire"; development cards: "N'importe quand durant le tour du joueur, il ou
elle peut jouer une carte de développement".
"""
from __future__ import annotations

import random

import pytest

from services.catan.bots import STRATEGIES
from shared.game.engine import InvalidOptions
from services.catan.rules.state import settlement_spots
from tests.catan.helpers import GAME, edge, fold, give, holding, illegal, play, set_up, to_main

HANS, WERNER, GABI, BENNI = 0, 1, 2, 3
RESOURCE_ORDER = ("brick", "lumber", "wool", "grain", "ore")


def _almanac_table() -> dict:
    state = to_main(set_up())
    give(state, HANS, lumber=2, ore=3)        # "il n'a que deux bois de charpente et 3 minerais"
    give(state, WERNER, brick=1)
    give(state, GABI, brick=1)
    give(state, BENNI, grain=1)
    return state


def test_the_almanac_example_hans_accepts_gabis_counter_offer() -> None:
    state = _almanac_table()
    play(state, HANS, {"type": "offer_trade", "give": {"ore": 1}, "get": {"brick": 1}})
    werner = {"type": "counter_trade", "give": {"brick": 1}, "get": {"ore": 3}}
    gabi = {"type": "counter_trade", "give": {"brick": 1}, "get": {"lumber": 1, "ore": 1}}
    assert play(state, WERNER, werner) == [
        {"type": "trade_countered", "data": {"seat": WERNER, "give": {"brick": 1}, "get": {"ore": 3}}}]
    play(state, GABI, gabi)
    play(state, BENNI, {"type": "answer_trade", "accept": False})
    # Counter-offers are spoken at the table: every viewer sees them.
    for viewer in (None, HANS, WERNER, BENNI):
        assert GAME.view(state, viewer)["offer"]["counters"] == [
            None, {"give": {"brick": 1}, "get": {"ore": 3}},
            {"give": {"brick": 1}, "get": {"lumber": 1, "ore": 1}}, None]
    # Only Hans, on turn, may now conclude, with either seat that countered.
    assert GAME.to_act(state) == [HANS]
    assert GAME.legal_moves(state, HANS) == [{"type": "cancel_trade"}, {"type": "confirm_trade", "seat": WERNER},
                                             {"type": "confirm_trade", "seat": GABI}]
    assert illegal(state, WERNER, {"type": "confirm_trade", "seat": GABI}) == "not-your-turn"
    assert illegal(state, HANS, {"type": "confirm_trade", "seat": BENNI}) == "not-accepted"
    assert play(state, HANS, {"type": "confirm_trade", "seat": GABI}) == [
        {"type": "trade_confirmed", "data": {"seat": HANS, "partner": GABI}}]
    # Hans gave 1 lumber and 1 ore for Gabi's brick: 1 brick, 1 lumber, 2 ore; a road is his.
    assert state["hands"][HANS] == [1, 1, 0, 0, 2]
    assert state["hands"][GABI] == [0, 1, 0, 0, 1]
    assert state["hands"][WERNER] == [1, 0, 0, 0, 0]          # Werner's counter came to nothing
    assert state["phase"] == "main" and state["offer"] is None
    play(state, HANS, {"type": "build_road", "edge": edge(12, 8)})


def test_werner_cannot_trade_with_gabi() -> None:
    state = _almanac_table()
    play(state, HANS, {"type": "offer_trade", "give": {"ore": 1}, "get": {"brick": 1}})
    play(state, WERNER, {"type": "counter_trade", "give": {"brick": 1}, "get": {"ore": 3}})
    # No move lets Werner trade with anyone but Hans: he cannot offer, nor take up a counter.
    assert illegal(state, WERNER, {"type": "offer_trade", "give": {"brick": 1}, "get": {"grain": 1}}) \
        == "not-your-turn"
    assert illegal(state, GABI, {"type": "confirm_trade", "seat": WERNER}) == "not-your-turn"
    assert illegal(state, WERNER, {"type": "counter_trade", "give": {"brick": 1}, "get": {"ore": 1}}) \
        == "not-your-turn"                                     # one answer per offer


def test_a_counter_offer_must_be_paid_from_the_seats_own_hand_and_be_a_trade() -> None:
    state = _almanac_table()
    play(state, HANS, {"type": "offer_trade", "give": {"ore": 1}, "get": {"brick": 1}})
    # Benni holds a grain, no brick: he knows his hand, so a counter he cannot pay is refused.
    assert illegal(state, BENNI, {"type": "counter_trade", "give": {"brick": 1}, "get": {"ore": 1}}) \
        == "not-enough-resources"
    assert illegal(state, BENNI, {"type": "counter_trade", "give": {"grain": 1}, "get": {}}) == "invalid-trade"
    assert illegal(state, BENNI, {"type": "counter_trade", "give": {"grain": 1}, "get": {"grain": 1}}) \
        == "invalid-trade"
    # Hans's hand is hidden from Benni: a counter asking more than Hans holds (4 ore of his 3) is
    # accepted as a proposal, but Hans cannot take it up.
    play(state, BENNI, {"type": "counter_trade", "give": {"grain": 1}, "get": {"ore": 4}})
    play(state, WERNER, {"type": "answer_trade", "accept": False})
    play(state, GABI, {"type": "answer_trade", "accept": False})
    assert state["phase"] == "trade"                            # a counter keeps the offer open
    assert illegal(state, HANS, {"type": "counter_trade", "give": {"ore": 1}, "get": {"brick": 1}}) == "own-offer"
    assert GAME.legal_moves(state, HANS) == [{"type": "cancel_trade"}]
    assert illegal(state, HANS, {"type": "confirm_trade", "seat": BENNI}) == "not-enough-resources"
    play(state, HANS, {"type": "cancel_trade"})
    assert state["hands"][HANS] == [0, 2, 0, 0, 3] and state["phase"] == "main"
    assert illegal(state, BENNI, {"type": "counter_trade", "give": {"grain": 1}, "get": {"ore": 1}}) \
        == "not-your-turn"


def test_the_greedy_bot_counters_with_a_surplus_card_for_one_it_lacks() -> None:
    greedy = STRATEGIES["greedy"]
    state = to_main(set_up())
    give(state, 0, ore=1)
    give(state, 1, wool=2, grain=2, ore=2)   # seat 1 saves for a city: one ore short, wool to spare
    play(state, 0, {"type": "offer_trade", "give": {"ore": 1}, "get": {"brick": 1}})
    # Seat 1 has no brick to accept with; the offer shows seat 0 holds ore: wool for ore instead.
    assert greedy(GAME, state, 1, random.Random(0)) == {
        "type": "counter_trade", "give": {"wool": 1}, "get": {"ore": 1}}
    # Seat 2 would take the ore too, but has no card to spare: it says no.
    assert greedy(GAME, state, 2, random.Random(0)) == {"type": "answer_trade", "accept": False}


def test_the_greedy_offerer_takes_the_counter_that_helps_for_the_fewest_cards() -> None:
    greedy = STRATEGIES["greedy"]

    def table(benni_accepts: bool) -> dict:
        state = to_main(set_up())
        # Seat 0 saves for a city (2 grain 3 ore): one ore short, two wool to spare.
        give(state, 0, grain=2, ore=2, wool=2)
        give(state, 1, ore=1)
        give(state, 2, ore=1)
        give(state, 3, ore=1)
        play(state, 0, {"type": "offer_trade", "give": {"wool": 1}, "get": {"ore": 1}})
        play(state, 1, {"type": "counter_trade", "give": {"ore": 1}, "get": {"wool": 2}})    # 2 for 1
        play(state, 2, {"type": "counter_trade", "give": {"ore": 1}, "get": {"grain": 1}})   # takes a city card
        if benni_accepts:
            play(state, 3, {"type": "answer_trade", "accept": True})                       # 1 for 1
        else:
            play(state, 3, {"type": "answer_trade", "accept": False})
        return state

    assert greedy(GAME, table(True), 0, random.Random(0)) == {"type": "confirm_trade", "seat": 3}
    state = table(False)
    assert greedy(GAME, state, 0, random.Random(0)) == {"type": "confirm_trade", "seat": 1}
    play(state, 0, {"type": "confirm_trade", "seat": 1})
    assert state["hands"][0] == [0, 0, 0, 2, 3]
    assert greedy(GAME, state, 0, random.Random(0))["type"] == "build_city"


# -- trading comes before building ----------------------------------------------------------------
def test_building_ends_the_turns_trading_by_default() -> None:
    state = to_main(set_up())
    give(state, 0, brick=1, lumber=1, ore=4)
    assert GAME.view(state, 0)["trading_open"]
    play(state, 0, {"type": "build_road", "edge": edge(12, 8)})
    assert not GAME.view(state, None)["trading_open"]
    assert illegal(state, 0, {"type": "bank_trade", "give": "ore", "get": "grain"}) == "trading-over"
    assert illegal(state, 0, {"type": "offer_trade", "give": {"ore": 1}, "get": {"grain": 1}}) == "trading-over"
    assert not [m for m in GAME.legal_moves(state, 0) if "trade" in m["type"]]
    play(state, 0, {"type": "end_turn"})
    # The next turn trades again.
    to_main(state, 1)
    give(state, 1, wool=4)
    play(state, 1, {"type": "bank_trade", "give": "wool", "get": "ore"})


def test_the_view_says_trading_is_closed_before_the_roll_as_the_rules_refuse_it() -> None:
    """``trading_open`` says whether a trade would be taken now: not before the roll (trades
    are refused then), nor during a 7's robber; yes once rolled, while an offer is open too."""
    state = set_up()
    give(state, 0, ore=4)
    assert state["phase"] == "roll" and not GAME.view(state, 0)["trading_open"]
    assert illegal(state, 0, {"type": "bank_trade", "give": "ore", "get": "grain"}) != ""
    to_main(state, 0, total=7)
    assert state["phase"] != "main" and not GAME.view(state, None)["trading_open"]
    state = to_main(set_up())
    give(state, 0, ore=4)
    assert GAME.view(state, 0)["trading_open"]
    play(state, 0, {"type": "offer_trade", "give": {"ore": 1}, "get": {"grain": 1}})
    assert state["phase"] == "trade" and GAME.view(state, 2)["trading_open"]


def test_trade_then_build_is_the_order() -> None:
    state = to_main(set_up())
    give(state, 0, lumber=1, ore=4)
    play(state, 0, {"type": "bank_trade", "give": "ore", "get": "brick"})     # first the trade...
    play(state, 0, {"type": "build_road", "edge": edge(12, 8)})               # ...then the road
    assert state["hands"][0] == [0] * 5


def test_buying_a_development_card_is_building_playing_one_is_not() -> None:
    state = to_main(set_up())
    give(state, 0, wool=1, grain=1, ore=5)
    play(state, 0, {"type": "buy_dev_card"})
    assert illegal(state, 0, {"type": "bank_trade", "give": "ore", "get": "grain"}) == "trading-over"
    # A card played at any time, even its free roads, leaves trading open.
    state = holding("road_building")
    to_main(state)
    give(state, 0, ore=4)
    play(state, 0, {"type": "play_road_building"})
    play(state, 0, {"type": "build_road", "edge": edge(12, 8)})
    play(state, 0, {"type": "build_road", "edge": edge(8, 4)})
    assert state["phase"] == "main" and GAME.view(state, 0)["trading_open"]
    play(state, 0, {"type": "bank_trade", "give": "ore", "get": "grain"})


def test_the_option_combined_trade_build_allows_mixing() -> None:
    state = to_main(set_up(combined_trade_build=True))
    give(state, 0, brick=1, lumber=1, ore=4)
    play(state, 0, {"type": "build_road", "edge": edge(12, 8)})
    play(state, 0, {"type": "bank_trade", "give": "ore", "get": "grain"})
    assert state["hands"][0] == [0, 0, 0, 1, 0]
    assert GAME.default_options()["combined_trade_build"] is False
    for bad in (1, "yes", None):
        with pytest.raises(InvalidOptions):
            GAME.setup(4, {"combined_trade_build": bad}, random.Random(0))


def test_the_greedy_bot_trades_before_it_builds() -> None:
    greedy = STRATEGIES["greedy"]
    state = to_main(set_up())
    fold(state, "road_built", seat=0, edge=edge(17, 23), free=True)      # node 23: a settlement spot
    assert settlement_spots(state, 0) == [23]
    # A city is affordable; a settlement lacks a brick, and four wool are spare beyond both.  The
    # city would end the trading: the bank trade comes first, keeping the city's cards.
    give(state, 0, lumber=1, wool=5, grain=3, ore=3)
    first = greedy(GAME, state, 0, random.Random(0))
    assert first == {"type": "bank_trade", "give": "wool", "get": "brick"}
    play(state, 0, first)
    assert greedy(GAME, state, 0, random.Random(0))["type"] == "build_city"
    play(state, 0, greedy(GAME, state, 0, random.Random(0)))
    assert greedy(GAME, state, 0, random.Random(0)) == {"type": "build_settlement", "node": 23}


def test_the_text_client_reads_counter_offers() -> None:
    from shared.text.render import Context, describe_move, render_state
    state = _almanac_table()
    play(state, HANS, {"type": "offer_trade", "give": {"ore": 1}, "get": {"brick": 1}})
    play(state, GABI, {"type": "counter_trade", "give": {"brick": 1}, "get": {"lumber": 1, "ore": 1}})
    view = GAME.view(state, HANS)
    players = [{"seat": s, "name": n, "bot": None} for s, n in enumerate(("hans", "werner", "gabi", "benni"))]
    text = render_state("catan", view, Context(players=players))
    assert text.splitlines()[-1] == ("Trade offer from seat 0 (hans): gives 1 ore for 1 brick; "
                                     "seat 2 (gabi) counters: gives 1 brick for 1 lumber, 1 ore")
    assert describe_move({"type": "confirm_trade", "seat": 2}, "catan", view) == \
        "accept seat 2's counter-offer (you give 1 lumber, 1 ore, get 1 brick)"
    assert describe_move({"type": "counter_trade", "give": {"brick": 1}, "get": {"ore": 3}}, "catan") == \
        "counter-offer: you give 1 brick, get 3 ore"
