"""The plugin's schemas describe every legal move; self-play runs and prints JSON."""
from __future__ import annotations

import json
import random

import pytest
from marshmallow import ValidationError

from services.catan import selfplay
from services.catan.api import MOVE_SCHEMAS, PLUGIN, OptionsSchema
from services.catan.bots import STRATEGIES
from services.catan.rules.moves import DECIDERS
from shared.game.testing import play_random_game
from tests.catan.helpers import GAME


def test_options_default_to_the_beginner_board_and_reject_unknowns() -> None:
    assert OptionsSchema().load({}) == {"board": "beginner", "bank_shortage": "nobody",
                                        "combined_trade_build": False}
    assert OptionsSchema().load({"board": "variable"})["board"] == "variable"
    with pytest.raises(ValidationError):
        OptionsSchema().load({"board": "random"})
    with pytest.raises(ValidationError):
        OptionsSchema().load({"seafarers": True})


def test_every_move_type_has_a_schema_and_unknown_fields_are_rejected() -> None:
    assert set(MOVE_SCHEMAS) == set(DECIDERS)
    assert PLUGIN.port == 8001 and set(PLUGIN.strategies) == {"random", "greedy", "expert"}
    with pytest.raises(ValidationError):
        MOVE_SCHEMAS["build_road"]().load({"edge": 3, "free": True})
    with pytest.raises(ValidationError):
        MOVE_SCHEMAS["offer_trade"]().load({"give": {"gold": 1}, "get": {"ore": 1}})
    assert MOVE_SCHEMAS["move_robber"]().load({"hex": 3}) == {"hex": 3, "victim": None}


def test_every_legal_move_of_a_game_fits_its_schema() -> None:
    played = play_random_game(GAME, 3, {"board": "variable"}, seed=5, check_every=100)
    kinds = set()
    state = GAME.replay(played.events[:1])
    for seat, move, seed in played.moves[:400]:
        for legal in GAME.legal_moves(state, seat) if seat in GAME.to_act(state) else []:
            fields = {k: v for k, v in legal.items() if k != "type"}
            assert MOVE_SCHEMAS[legal["type"]]().load(fields) == fields
            kinds.add(legal["type"])
        for e in GAME.decide(state, seat, move, random.Random(seed)):
            GAME.evolve(state, e)
    assert {"build_settlement", "build_road", "roll", "end_turn", "move_robber"} <= kinds


def test_greedy_beats_random_bots() -> None:
    result = selfplay.run_versus("greedy", games=8, players=4, seed=3)
    assert result["bench"] == "catan-greedy-vs-random" and result["win_rate"] >= 0.75


def test_the_greedy_bot_keeps_the_protocol() -> None:
    strategies = {seat: STRATEGIES["greedy"] for seat in range(4)}
    played = play_random_game(GAME, 4, {"board": "variable"}, seed=2, strategies=strategies, check_every=5)
    assert played.finished


def test_selfplay_prints_one_json_line(capsys: pytest.CaptureFixture[str]) -> None:
    selfplay.main(["--games", "3", "--players", "3", "--bots", "random,greedy", "--compare-catanatron"])
    lines = capsys.readouterr().out.strip().splitlines()
    ours = json.loads(lines[0])
    assert ours["bench"] == "catan-selfplay" and ours["games"] == 3 and ours["players"] == 3
    assert sum(ours["wins_by_strategy"].values()) + ours["unfinished"] == 3
    assert json.loads(lines[1])["bench"] == "catanatron-selfplay"


def test_greedy_accepts_only_offers_that_help_its_next_build() -> None:
    from tests.catan.helpers import give, play, set_up, to_main
    greedy = STRATEGIES["greedy"]
    state = to_main(set_up())
    give(state, 0, ore=1, brick=1)
    give(state, 1, wool=2)                 # seat 1 saves for a city: wool is surplus, ore is missing
    play(state, 0, {"type": "offer_trade", "give": {"ore": 1}, "get": {"wool": 1}})
    assert greedy(GAME, state, 1, random.Random(0)) == {"type": "answer_trade", "accept": True}
    for seat in (1, 2, 3):
        play(state, seat, {"type": "answer_trade", "accept": False})
    play(state, 0, {"type": "offer_trade", "give": {"brick": 1}, "get": {"wool": 1}})
    assert greedy(GAME, state, 1, random.Random(0)) == {"type": "answer_trade", "accept": False}
    assert greedy(GAME, state, 2, random.Random(0)) == {"type": "answer_trade", "accept": False}


def test_greedy_offers_one_surplus_card_for_a_missing_one_once_per_turn() -> None:
    from tests.catan.helpers import give, play, set_up, to_main
    greedy = STRATEGIES["greedy"]
    state = to_main(set_up())
    # Seat 0 saves for a city (2 grain 3 ore): one ore short, two wool to spare, no bank trade.
    give(state, 0, grain=2, ore=2, wool=2)
    give(state, 2, ore=1)
    move = greedy(GAME, state, 0, random.Random(0))
    assert move == {"type": "offer_trade", "give": {"wool": 1}, "get": {"ore": 1}}
    play(state, 0, move)
    assert GAME.view(state, 1)["offers_this_turn"] == 1
    for seat, accept in ((1, False), (2, True), (3, False)):
        play(state, seat, {"type": "answer_trade", "accept": accept})
    assert greedy(GAME, state, 0, random.Random(0)) == {"type": "confirm_trade", "seat": 2}
    play(state, 0, {"type": "confirm_trade", "seat": 2})
    assert greedy(GAME, state, 0, random.Random(0))["type"] == "build_city"
    # Everybody refuses: no second offer this turn (it falls back to a development card).
    state = to_main(set_up())
    give(state, 0, grain=2, ore=2, wool=2)
    play(state, 0, move)
    for seat in (1, 2, 3):
        play(state, seat, {"type": "answer_trade", "accept": False})
    assert state["phase"] == "main" and state["offers"] == 1
    assert greedy(GAME, state, 0, random.Random(0)) == {"type": "buy_dev_card"}
    play(state, 0, {"type": "end_turn"})
    assert state["offers"] == 0 and GAME.view(state, None)["offers_this_turn"] == 0


def test_greedy_offerer_never_trades_with_a_player_close_to_winning() -> None:
    from tests.catan.helpers import fold, give, play, set_up, to_main
    greedy = STRATEGIES["greedy"]
    state = to_main(set_up())
    for node in (3, 48):
        fold(state, "settlement_built", seat=2, node=node, free=True)
    give(state, 2, grain=8, ore=13)
    for node in (3, 48, 28, 47):
        fold(state, "city_built", seat=2, node=node)          # seat 2 shows 8 points
    assert GAME.view(state, 0)["seats"][2]["public_points"] == 8
    give(state, 0, grain=2, ore=2, wool=2)
    play(state, 0, {"type": "offer_trade", "give": {"wool": 1}, "get": {"ore": 1}})
    for seat, accept in ((1, False), (2, True), (3, False)):
        play(state, seat, {"type": "answer_trade", "accept": accept})
    assert greedy(GAME, state, 0, random.Random(0)) == {"type": "cancel_trade"}


def test_greedy_offers_at_most_once_a_turn_through_whole_games() -> None:
    strategies = {0: STRATEGIES["greedy"], 2: STRATEGIES["greedy"]}       # random bots at 1 and 3
    offers = confirmed = 0
    for seed in range(3):
        played = play_random_game(GAME, 4, {"board": "variable"}, seed=seed, strategies=strategies,
                                  check_every=50)
        assert played.finished
        this_turn = 0
        for e in played.events:
            if e["type"] == "turn_ended":
                this_turn = 0
            elif e["type"] == "trade_offered":
                this_turn += 1
                offers += 1
                assert this_turn == 1
            confirmed += e["type"] == "trade_confirmed"
    assert offers and confirmed
