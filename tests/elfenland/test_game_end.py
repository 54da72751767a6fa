"""The end of the game and the winner, for Elfenland and for Elfengold."""
from __future__ import annotations

# The towns each seat has visited are set by hand: twenty towns take a whole game of journeys, and
# the scoring rules read only the list. Rounds are reached by ``round_started`` (positions.in_round).

import random

from services.elfenland.rules import ENGINES
from services.elfenland.rules.board import DISTANCES, MARKER_TOWNS

from tests.elfenland.positions import GAME, clear_counters, in_round, new_game, play, set_hand, start_phase


def _last_movement(state: dict, round_: int) -> dict:
    start_phase(in_round(state, round_), "movement")
    for seat in range(state["players"]):
        set_hand(state, seat, [])
        clear_counters(state, seat)
    return state


def _finish_round(state: dict) -> dict:
    for seat in range(state["players"]):
        state, _ = play(state, seat, {"type": "finish_travel", **({"take": "cards"} if state["edition"] != "elfenland" else {})})
    return state


def test_after_round_four_towns_minus_distance_home_wins() -> None:
    state = _last_movement(new_game(2), 4)
    state["seats"][0].update(visited=MARKER_TOWNS[:10], town="Al'Baran", home="Beata")
    state["seats"][1].update(visited=MARKER_TOWNS[:9], town="Beata", home="Beata")
    state = _finish_round(state)
    result = GAME.result(state)
    distance = DISTANCES["Al'Baran"]["Beata"]
    assert result["scores"] == [10 - distance, 9] and result["winners"] == [1]
    assert result["home_towns"] == ["Beata", "Beata"] and GAME.to_act(state) == []


def test_without_home_towns_the_towns_alone_count_and_cards_break_ties() -> None:
    state = _last_movement(new_game(2, home_towns=False), 4)
    state["seats"][0]["visited"] = MARKER_TOWNS[:7]
    state["seats"][1]["visited"] = MARKER_TOWNS[3:10]
    set_hand(state, 1, ["dragon"])
    state = _finish_round(state)
    assert GAME.result(state)["winners"] == [1]          # 7 towns each, seat 1 holds more cards


def test_all_twenty_towns_after_round_three_wins_at_once() -> None:
    state = _last_movement(new_game(3), 3)
    state["seats"][2]["visited"] = list(MARKER_TOWNS)
    state["seats"][2]["home"] = "Kihromah"                    # far from home: no matter
    state = _finish_round(state)
    result = GAME.result(state)
    assert result["winners"] == [2] and result["ended_early"] and state["round"] == 3


def test_several_full_tours_after_round_three_most_cards_wins() -> None:
    state = _last_movement(new_game(3), 3)
    for seat in (0, 1):
        state["seats"][seat]["visited"] = list(MARKER_TOWNS)
    state["seats"][2]["visited"] = MARKER_TOWNS[:19]
    set_hand(state, 0, ["raft"] * 2)
    set_hand(state, 1, ["raft"] * 3)
    set_hand(state, 2, ["raft"] * 4)                 # more cards, but not all 20 towns
    result = GAME.result(_finish_round(state))
    assert result["winners"] == [1] and result["ended_early"] and result["tiebreak_values"] == [2, 3, 4]


def test_a_full_tour_before_round_three_does_not_end_elfenland() -> None:
    # "Si des la fin du troisieme tour, un joueur a visite les 20 cites": not before round 3.
    state = _last_movement(new_game(2), 2)
    state["seats"][0]["visited"] = list(MARKER_TOWNS)
    state = _finish_round(state)
    assert GAME.result(state) is None and state["round"] == 3


def test_elfenland_goes_on_after_round_three_without_a_full_tour() -> None:
    state = _last_movement(new_game(2), 3)
    state = _finish_round(state)
    assert GAME.result(state) is None and state["round"] == 4


def test_elfengold_after_round_six_most_towns_then_the_richest() -> None:
    state = _last_movement(new_game(2, edition="elfengold", home_towns=False), 6)
    state["seats"][0].update(visited=MARKER_TOWNS[:5], coins=3)
    state["seats"][1].update(visited=MARKER_TOWNS[5:10], coins=9)
    state = _finish_round(state)
    result = GAME.result(state)
    assert result["winners"] == [1] and result["tiebreak"] == "coins"


def test_elfengold_twenty_towns_end_the_game_after_that_round_richest_wins() -> None:
    state = _last_movement(new_game(3, edition="elfengold"), 2)
    state["seats"][0].update(visited=list(MARKER_TOWNS), coins=4)
    state["seats"][1].update(visited=list(MARKER_TOWNS), coins=8)
    state["seats"][2].update(visited=MARKER_TOWNS[:3], coins=50)
    state = _finish_round(state)
    assert GAME.result(state)["winners"] == [1]


def test_the_map_and_the_rules_example_distance() -> None:
    from collections import Counter

    from services.elfenland.rules.board import ROADS, TOWNS
    assert len(TOWNS) == 21 and len(MARKER_TOWNS) == 20 and len(ROADS) == 48
    assert Counter(r.terrain for r in ROADS) == {"plain": 8, "forest": 12, "mountain": 8, "desert": 7,
                                                  "river": 7, "lake": 6}
    rivers = {(r.other_end(r.flows_to), r.flows_to) for r in ROADS if r.terrain == "river"}
    assert rivers == {("Wylhien", "Usselen"), ("Virst", "Jxara"), ("Jxara", "Mah'Davikia"),
                      ("Mah'Davikia", "Grangor"), ("Beata", "Elvenhold"), ("Elvenhold", "Rivinia"),
                      ("Rivinia", "Tichih")}
    # "Pierre ... termine le jeu a Rivinia. Son village natal est Tichih, qui n'est qu'a une route"
    assert DISTANCES["Rivinia"]["Tichih"] == 1 and DISTANCES["Elvenhold"]["Elvenhold"] == 0
    assert DISTANCES["Elvenhold"]["Kihromah"] == 3       # Lapphalya, Dag'Amura, Kihromah


def test_no_counter_choice_when_the_elfengold_game_ends() -> None:
    from tests.elfenland.positions import give_counter
    state = _last_movement(new_game(2, edition="elfengold"), 6)
    for kind in ("dragon", "unicorn", "gold"):
        give_counter(state, 0, kind)
    state = _finish_round(state)
    assert GAME.result(state) is not None and state["phase"] == "over"


def test_elfengold_and_elfenroads_go_on_until_round_six() -> None:
    for edition in ("elfengold", "elfenroads"):
        state = _last_movement(new_game(2, edition=edition), 5)
        state = _finish_round(state)
        assert GAME.result(state) is None and state["round"] == 6 and state["rounds"] == 6


# "Un joueur ne peut pas conserver plus de quatre cartes Voyage d'un tour sur l'autre" and "En cas
# d'egalite, le vainqueur est celui qui a le plus grand nombre de cartes Voyage en main": the limit
# is about the next round; after the game's last movement nobody cuts, the tie counts real hands.
def test_no_cut_after_the_last_movement_so_the_tie_counts_the_cards_held() -> None:
    state = _last_movement(new_game(2, home_towns=False), 4)
    state["seats"][0]["visited"] = MARKER_TOWNS[:7]
    state["seats"][1]["visited"] = MARKER_TOWNS[3:10]
    set_hand(state, 0, ["raft"] * 6)
    set_hand(state, 1, ["dragon"] * 5)
    state = _finish_round(state)                     # no keep_cards asked of anybody
    result = GAME.result(state)
    assert result["tiebreak_values"] == [6, 5] and result["winners"] == [0]
    assert state["seats"][0]["hand"] == {"raft": 6}


def test_no_cut_when_the_game_ends_early_after_round_three() -> None:
    state = _last_movement(new_game(3), 3)
    for seat in (0, 1):
        state["seats"][seat]["visited"] = list(MARKER_TOWNS)
    set_hand(state, 0, ["raft"] * 7)
    set_hand(state, 1, ["raft"] * 6)
    set_hand(state, 2, ["raft"] * 9)                 # not all 20 towns: no winner, and no cut
    result = GAME.result(_finish_round(state))
    assert result["ended_early"] and result["tiebreak_values"] == [7, 6, 9] and result["winners"] == [0]


def test_the_cut_still_applies_when_another_round_follows() -> None:
    state = _last_movement(new_game(2), 3)           # round 3, nobody has seen every town
    set_hand(state, 0, ["raft"] * 6)
    state, _ = play(state, 0, {"type": "finish_travel"})
    assert GAME.to_act(state) == [0] and state["discarding"]


def _twenty_far_from_home_against_nineteen_at_home(engine: str) -> dict:
    """The end of round 4 with home towns: seat 0 has seen all 20 towns and stands far from home,
    seat 1 has seen 19 and stands at home; each folded and decided by ``engine``."""
    game = ENGINES[engine]
    state = _last_movement(new_game(2), 4)
    state["seats"][0].update(visited=list(MARKER_TOWNS), town="Al'Baran", home="Kihromah")
    state["seats"][1].update(visited=MARKER_TOWNS[:19], town="Beata", home="Beata")
    for seat in range(2):
        for e in game.decide(state, seat, {"type": "finish_travel"}, random.Random(0)):
            state = game.evolve(state, e)
    result = game.result(state)
    assert result is not None and result["scores"] == [20 - DISTANCES["Al'Baran"]["Kihromah"], 19]
    return result


def test_all_twenty_towns_at_the_end_of_round_four_win_from_engine_5() -> None:
    """"Si dès la fin du troisième tour, un joueur a visité les 20 cités, il est gagnant": from
    the end of round 3 on, so at the end of round 4 too, whatever the distance home."""
    assert _twenty_far_from_home_against_nineteen_at_home("5")["winners"] == [0]


def test_engine_4_scores_twenty_towns_at_the_end_of_round_four_as_usual() -> None:
    """Games recorded under engine 4 keep its reading: towns minus the distance home."""
    assert _twenty_far_from_home_against_nineteen_at_home("4")["winners"] == [1]
