"""The planner bot: legal, protocol-safe, and better than random."""
from __future__ import annotations

# Positions: a set-up, counters, cards and later rounds folded as the engine records them
# (positions.py); a town already seen was travelled to in round 1 by the engine's own moves.

import random

from services.elfenland.bots import STRATEGIES, planner_strategy, route
from services.elfenland.selfplay import run_selfplay, run_versus
from shared.game.testing import play_random_game

from tests.elfenland.positions import (
    GAME, clear_counters, give_counter, in_round, new_game, place, road_between, set_hand, start_phase, walk)


def test_planner_plays_whole_games_within_the_protocol() -> None:
    for edition, players in (("elfenland", 3), ("elfengold", 4), ("elfenroads", 2)):
        strategies = {seat: planner_strategy for seat in range(players)}
        played = play_random_game(GAME, players, {"edition": edition, **({"wizards": True} if edition == "elfengold" else {})},
                                  seed=3, strategies=strategies, check_every=25)
        assert played.finished


def test_route_heads_for_the_nearest_unvisited_towns() -> None:
    state = new_game(2)
    steps = route(GAME.view(state, 0), 0)
    assert steps and steps[0][1] == "Elvenhold"
    assert steps[0][0].other_end("Elvenhold") in {"Beata", "Lapphalya", "Erg'Eren", "Rivinia", "Strykhaven", "Virst"}


def test_planner_travels_to_a_new_town_when_it_can() -> None:
    state = start_phase(new_game(2), "movement", first=0)
    road = road_between("Elvenhold", "Lapphalya")
    place(state, 1, "giant_pig", road.id)
    set_hand(state, 0, ["giant_pig", "troll_wagon"])
    move = planner_strategy(GAME, state, 0, random.Random(0))
    assert move == {"type": "travel", "road": road.id, "cards": ["giant_pig"]}


def test_selfplay_reports_and_planner_beats_random() -> None:
    report = run_selfplay(2, 3, seed=1, bots=["random", "planner"], options={"edition": "elfenland"})
    assert report["bench"] == "elfenland-selfplay" and report["games"] == 2
    versus = run_versus("planner", 6, 3, seed=2, options={"edition": "elfenland"})
    assert versus["win_rate"] > 0.5 and set(STRATEGIES) == {"random", "planner", "expert"}


def test_planner_places_a_counter_it_can_pay_on_its_route() -> None:
    state = start_phase(new_game(2), "placement", first=0)
    clear_counters(state, 0)
    give_counter(state, 0, "giant_pig")
    set_hand(state, 0, ["giant_pig"] * 3)
    move = planner_strategy(GAME, state, 0, random.Random(0))
    assert move["type"] == "place_counter" and move["counter"] == "giant_pig"
    assert move["road"] in {road.id for road, _ in route(GAME.view(state, 0), 0)}


def _back_from_lapphalya(state: dict) -> dict:
    """Round 1's movement: seat 0's elf goes to Lapphalya and back to Elvenhold."""
    state = walk(start_phase(state, "movement", first=0), 0, ["Lapphalya", "Elvenhold"])
    assert state["seats"][0]["visited"] == ["Lapphalya"] and state["seats"][0]["town"] == "Elvenhold"
    return state


def test_planner_ends_the_last_round_near_home() -> None:
    state = new_game(2, seed=2)
    assert state["seats"][0]["home"] == "Beata"              # seed 2's home town for seat 0
    state = start_phase(in_round(_back_from_lapphalya(state), 4), "movement")
    lapphalya = road_between("Elvenhold", "Lapphalya")
    place(state, 1, "giant_pig", lapphalya.id)
    set_hand(state, 0, ["giant_pig"])
    # Lapphalya is already visited and one road further from Beata: staying home-near is better.
    assert planner_strategy(GAME, state, 0, random.Random(0))["type"] == "finish_travel"


def test_the_experts_candidates_are_the_planners_runners_up() -> None:
    """rank_moves puts a counter the seat can pay on its own route before placements elsewhere,
    and a journey to a new town before one to a visited town, so the search's few candidates are
    worth comparing."""
    from services.elfenland.bots import expert_strategy, rank_moves

    state = start_phase(new_game(2), "placement", first=0)
    clear_counters(state, 0)
    give_counter(state, 0, "giant_pig")
    set_hand(state, 0, ["giant_pig"] * 3)
    legal = GAME.legal_moves(state, 0)
    ranked = rank_moves(GAME, state, 0, legal)
    my_roads = {road.id for road, _ in route(GAME.view(state, 0), 0)}
    assert sorted(map(str, ranked)) == sorted(map(str, legal))                # the same moves, reordered
    assert ranked[0]["type"] == "place_counter" and ranked[0]["road"] in my_roads
    off_route = [m for m in ranked if m["type"] == "place_counter" and m["road"] not in my_roads]
    assert off_route and ranked.index(off_route[0]) > ranked.index(ranked[0])
    candidates = expert_strategy.candidates(GAME, state, 0, random.Random(0))     # the planner's move first,
    rest = [m for m in legal if m != candidates[0]]                                # then the best four others
    assert len(candidates) == 5 and candidates[1:] == rank_moves(GAME, state, 0, rest)[:4]

    state = start_phase(in_round(_back_from_lapphalya(new_game(2)), 2), "movement")
    lapphalya, beata = road_between("Elvenhold", "Lapphalya"), road_between("Elvenhold", "Beata")
    place(state, 1, "giant_pig", lapphalya.id)
    place(state, 1, "giant_pig", beata.id)
    set_hand(state, 0, ["giant_pig"] * 2)
    ranked = rank_moves(GAME, state, 0, GAME.legal_moves(state, 0))
    assert ranked[0] == {"type": "travel", "road": beata.id, "cards": ["giant_pig"]}
