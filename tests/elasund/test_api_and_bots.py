"""Schemas accept every legal move (and reject unknown fields); bots play legal games."""
from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest
from marshmallow import ValidationError

from services.elasund.api import MOVE_SCHEMAS, PLUGIN, OptionsSchema
from services.elasund.bots import STRATEGIES
from services.elasund.rules.game import GAME
from services.elasund.rules.moves import MOVE_TYPES
from services.elasund.selfplay import run_selfplay, run_versus
from shared.game.testing import play_random_game


def test_every_move_type_has_a_schema_and_the_plugin_is_complete() -> None:
    assert sorted(MOVE_SCHEMAS) == MOVE_TYPES
    assert PLUGIN.port == 8002 and "random" in PLUGIN.strategies and "heuristic" in PLUGIN.strategies
    assert OptionsSchema().load({}) == GAME.default_options()
    with pytest.raises(ValidationError):
        OptionsSchema().load({"shortage_payout": "never"})
    with pytest.raises(ValidationError):
        MOVE_SCHEMAS["build"]().load({"building": "house", "col": 1, "row": 3, "colour": "red"})
    with pytest.raises(ValidationError):
        MOVE_SCHEMAS["build"]().load({"building": "house", "col": 1, "row": 7})


def test_every_legal_move_passes_its_schema() -> None:
    rng = random.Random(3)
    for players in (2, 4):
        state = GAME.replay(GAME.setup(players, GAME.default_options(), random.Random(players)))
        for step in range(400):
            if GAME.result(state):
                break
            seat = GAME.to_act(state)[0]
            moves = GAME.legal_moves(state, seat)
            for move in rng.sample(moves, min(len(moves), 20)):
                fields = {k: v for k, v in move.items() if k != "type"}
                MOVE_SCHEMAS[move["type"]]().load(fields)
            move = rng.choice(moves)
            for e in GAME.decide(state, seat, move, random.Random(step)):
                state = GAME.evolve(state, e)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_heuristic_bot_plays_legal_games(players: int) -> None:
    strategies = {seat: STRATEGIES["heuristic"] for seat in range(players)}
    played = play_random_game(GAME, players, seed=players, strategies=strategies, check_every=10)
    assert played.finished


def test_selfplay_reports_and_the_heuristic_beats_random() -> None:
    report = run_selfplay(2, 3, seed=1, bots=["random", "heuristic"])
    assert report["bench"] == "elasund-selfplay" and report["games"] == 2
    assert sum(report["wins_by_strategy"].values()) + report["unfinished"] == 2
    versus = run_versus("heuristic", 8, 4, seed=2)
    assert versus["bench"] == "elasund-heuristic-vs-random" and versus["win_rate"] >= 0.5


def test_selfplay_command_prints_one_json_line() -> None:
    out = subprocess.run([sys.executable, "-m", "services.elasund.selfplay", "--games", "1", "--players", "2"],
                         capture_output=True, text=True, check=True).stdout.strip().splitlines()
    assert len(out) == 1 and json.loads(out[0])["players"] == 2
