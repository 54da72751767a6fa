"""Set-up: building area and gates by player count, starters, hands, permits, cubes, stacks."""
from __future__ import annotations

import random

import pytest

from services.elasund.rules import board
from services.elasund.rules.game import GAME
from services.elasund.rules.state import cubes_left, empty_squares
from shared.game.engine import InvalidOptions

from tests.elasund.helpers import fresh


@pytest.mark.parametrize("players, squares, walls, gate_fields", [(2, 50, 12, 0), (3, 70, 16, 2), (4, 90, 20, 4)])
def test_building_area_and_gates_by_player_count(players: int, squares: int, walls: int, gate_fields: int) -> None:
    assert len(board.city_squares(players)) == squares
    spaces = board.wall_spaces(players)
    assert len(spaces) == walls
    assert sum(1 for s in spaces.values() if s["cost"] == 4) == 8          # the east (red) lane
    fields = board.trade_fields(players)
    assert sum(1 for points in fields.values() if points == 2) == gate_fields
    assert all(fields[(0, row)] == 1 for row in board.ROWS)                # harbour windmills
    # Gates: the lane spaces next to the gate touch it.
    assert any("GATE_TOP" in s["adjacent"] for s in spaces.values() if s["lane"] == "top")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_starters_hands_permits_cubes_walls_church(players: int) -> None:
    state = fresh(players)
    for seat in range(players):
        huts = sorted((b["kind"], b["col"], b["row"]) for b in state["buildings"] if b["seat"] == seat)
        colour = board.SEAT_COLOURS[seat]
        expected = board.BOARD["starter_squares"][colour]
        assert huts == sorted((kind, *expected[kind]) for kind in board.STARTERS)
        hand = state["hands"][seat]
        assert hand["gold"] == 3 and sum(hand["influence"].values()) == 1
        assert state["supply"][seat]["permits"] == [0, 1, 2, 3, 4]
        assert state["supply"][seat]["buildings"] == ["house", "workshop"]
        assert state["supply"][seat]["walls_built"] == 0                   # stack 1..9, tile 1 on top
        assert cubes_left(state, seat) == 10
    assert len(state["buildings"]) == 2 * players
    assert sorted(state["church"]["pool"]) == list(range(1, 10))
    assert state["stock"] == {"well": 4, "market": 4, "tavern": 5, "shop": 5, "large": 3}
    assert sum(state["influence_deck"].values()) == 39 - players
    assert state["ship"] is None and state["phase"] == "roll"
    # The church foundation is never an empty square.
    assert board.FOUNDATION not in empty_squares(state)


def test_start_player_is_the_recorded_highest_roll() -> None:
    for seed in range(20):
        events = GAME.setup(4, GAME.default_options(), random.Random(seed))
        started = events[0]["data"]
        last_round = started["start_rolls"][-1]
        totals = {int(seat): sum(dice) for seat, dice in last_round.items()}
        best = max(totals.values())
        assert [s for s, t in totals.items() if t == best] == [started["first_player"]]
        for earlier in started["start_rolls"][:-1]:   # earlier rounds were ties at the top
            top = max(sum(d) for d in earlier.values())
            assert sum(1 for d in earlier.values() if sum(d) == top) > 1
        assert events[-1] == {"type": "turn_started", "data": {"seat": started["first_player"], "turn": 1}}


def test_setup_rejects_bad_player_counts_and_options() -> None:
    with pytest.raises(InvalidOptions):
        GAME.setup(5, {}, random.Random(0))
    with pytest.raises(InvalidOptions):
        GAME.setup(3, {"shortage_payout": "sometimes"}, random.Random(0))
    with pytest.raises(InvalidOptions):
        GAME.setup(3, {"nonsense": 1}, random.Random(0))
