"""The trade track ends at 11.

Rules (elasund.en.txt): "Each Trade Point moves your disk one space on the track", on a track
whose last space is 11 (the victory point spaces are "3, 5, 7, 9, or 11 Trade Points"), and "if
you lose a building on a Trade Field, you must move your disk down the Trade Point Track".
So the disk never passes 11, and a loss moves it down from the space where it stands.
"""
from __future__ import annotations

import json
import random

from services.elasund.rules.game import ENGINES, GAME
from shared.game.engine import event
from shared.log.eventstore import canonical

from tests.elasund.helpers import at_phase, building, fold, fresh, give, of_type, permit, play


def test_the_disk_stops_at_11_and_a_loss_counts_back_from_11() -> None:
    state = at_phase(fresh(4, {}), "build", current=0, ship=2)
    # Seat 0 stands on space 10 (cubes on 3, 5, 7, 9) and owns a house on a 1-point harbour field.
    state = building(state, 0, "house", 0, 3, trade_points=1)
    state = fold(state, event("trade_moved", seat=0, total=10, removed=[], placed=[3, 5, 7, 9]))
    # A well on a 2-point gate field (4 players): 10 + 2 would be 12, the track ends at 11.
    state = give(permit(state, 0, 0, 5, 2), 0, gold=5)
    state, events = play(state, 0, {"type": "build", "building": "well", "col": 5, "row": 2})
    assert of_type(events, "trade_moved") == [{"seat": 0, "total": 11, "removed": [], "placed": [11]}]
    assert state["trade"][0] == 11
    assert [GAME.view(state, seat)["trade"][0] for seat in (None, 0, 1)] == [11, 11, 11]
    # Seat 1's tavern covers the house: one trade point lost, from 11 to 10 (not from 12 to 11),
    # so the cube beside 11 comes home.
    state = at_phase(state, "build", current=1)
    state = permit(permit(state, 1, 0, 1, 2), 1, 1, 0, 2)
    state, events = play(state, 1, {"type": "build", "building": "tavern", "col": 0, "row": 2})
    assert of_type(events, "trade_moved")[0] == {"seat": 0, "total": 10, "removed": [11], "placed": []}
    assert state["trade"][0] == 10 and state["track_cubes"]["11"] == []


def test_a_total_past_11_in_an_old_log_is_shown_at_11() -> None:
    """Engine 1 recorded totals past 11; folding such an event leaves the disk on 11."""
    state = fold(fresh(2, {}), event("trade_moved", seat=0, total=13, removed=[], placed=[3, 5, 7, 9, 11]))
    assert state["trade"][0] == 11 and GAME.view(state, None)["trade"][0] == 11


def test_cubes_coming_home_are_listed_in_the_tracks_order_whatever_the_states_dict_order() -> None:
    """A loss past two victory point spaces records the cubes that come home in the track's order
    (9, 11), also when the state came from a snapshot, whose ``track_cubes`` keys are sorted as
    text ("11" before "3"): the same move decides the same events after a restart."""
    state = at_phase(fresh(4, {}), "build", current=0, ship=2)
    state = building(state, 0, "house", 0, 3, trade_points=3)
    state = fold(state, event("trade_moved", seat=0, total=11, removed=[], placed=[3, 5, 7, 9, 11]))
    state = at_phase(state, "build", current=1)
    state = permit(permit(state, 1, 0, 1, 2), 1, 1, 0, 2)
    move = {"type": "build", "building": "tavern", "col": 0, "row": 2}
    from_snapshot = GAME.load(json.loads(canonical(GAME.dump(state))))
    _, folded = play(state, 1, move)
    _, snapshot = play(from_snapshot, 1, move)
    assert of_type(folded, "trade_moved")[0] == {"seat": 0, "total": 8, "removed": [9, 11], "placed": []}
    assert snapshot == folded


def test_engine_1_games_keep_counting_past_11() -> None:
    """Games recorded under engine 1 keep its rules: the disk's total passes 11, and a loss counts
    back from that total (so the cube beside 11 stays)."""
    engine = ENGINES["1"]

    def decide(state: dict, seat: int, move: dict) -> tuple[dict, list[dict]]:
        events = engine.decide(state, seat, move, random.Random(0))
        for e in events:
            state = engine.evolve(state, e)
        return state, events

    state = at_phase(fresh(4, {}), "build", current=0, ship=2)
    state = building(state, 0, "house", 0, 3, trade_points=1)
    state = engine.evolve(state, event("trade_moved", seat=0, total=10, removed=[], placed=[3, 5, 7, 9]))
    state = give(permit(state, 0, 0, 5, 2), 0, gold=5)
    state, events = decide(state, 0, {"type": "build", "building": "well", "col": 5, "row": 2})
    assert of_type(events, "trade_moved") == [{"seat": 0, "total": 12, "removed": [], "placed": [11]}]
    assert state["trade"][0] == 12
    state = at_phase(state, "build", current=1)
    state = permit(permit(state, 1, 0, 1, 2), 1, 1, 0, 2)
    state, events = decide(state, 1, {"type": "build", "building": "tavern", "col": 0, "row": 2})
    assert of_type(events, "trade_moved")[0] == {"seat": 0, "total": 11, "removed": [], "placed": []}
