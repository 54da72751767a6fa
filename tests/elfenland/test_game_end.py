"""The end of the game and the winner, for Elfenland and for Elfengold."""
from __future__ import annotations

# Positions: the ends of random games (``play_until`` with a seed, the position each test needs
# checked before its move), or a set-up brought to a later round by ``round_ended`` and
# ``round_started`` (positions.in_round) where the elves see every town: twenty towns are more
# than play reaches, so each elf travels its tour by the engine's own moves (positions.walk).

import random
from collections.abc import Callable

from services.elfenland.rules import ENGINES, ElfenlandGame
from services.elfenland.rules.board import DISTANCES, MARKER_TOWNS, START_TOWN
from services.elfenland.rules.multiset import size
from shared.game.testing import Given, given

from tests.elfenland.positions import (
    GAME, clear_counters, fold, in_round, lay_counters, new_game, play, set_hand, start_phase, tour, walk)


def _last_movement(state: dict, round_: int) -> dict:
    return _movement(in_round(state, round_))


def _movement(state: dict) -> dict:
    """The movement begun, every hand and counter given up: the round ends with the journeys."""
    start_phase(state, "movement")
    for seat in range(state["players"]):
        set_hand(state, seat, [])
        clear_counters(state, seat)
    return state


def _finish_round(state: dict) -> dict:
    for seat in range(state["players"]):
        state, _ = play(state, seat, _finish(state))
    return state


def _finish(state: dict) -> dict:
    return {"type": "finish_travel", **({"take": "cards"} if state["edition"] != "elfenland" else {})}


def _last_to_finish(round_: int) -> Callable[[dict], bool]:
    """Round ``round_``'s movement with every seat but one done: its end finishes the round."""
    return lambda s: (s["phase"] == "movement" and s["round"] == round_ and s["step"] == s["players"] - 1
                      and not s["discarding"])


def _game_end(players: int, options: dict, round_: int, seed: int) -> Given:
    """A random game of ``players`` (set-up seed 1, moves from ``seed``) at the last seat's end of
    its journey in round ``round_``."""
    return given(GAME).setup(players, options, seed=1).play_until(_last_to_finish(round_), seed=seed)


def _towns(state: dict) -> list[int]:
    return [len(s["visited"]) for s in state["seats"]]


def _tours(state: dict, towns: dict[int, list[str]], ends: dict[int, str] | None = None,
           hands: dict[int, list[str]] | None = None, game: ElfenlandGame = GAME) -> dict:
    """The last movement: each seat in turn tours ``towns[seat]`` (ending at ``ends[seat]``), then
    holds ``hands[seat]`` and ends its journey, by ``game``'s own moves.  The counters of every
    tour are laid before anybody moves, as in the placement phase."""
    ways = {seat: tour(START_TOWN, towns.get(seat, []), (ends or {}).get(seat)) for seat in range(state["players"])}
    for seat, way in ways.items():
        lay_counters(state, seat, way)
    for seat in range(state["players"]):
        state = walk(state, seat, ways[seat], game=game)
        if hands and seat in hands:
            set_hand(state, seat, hands[seat])
        for e in game.decide(state, seat, _finish(state), random.Random(0)):
            state = game.evolve(state, e)
    return state


def test_after_round_four_towns_minus_distance_home_wins() -> None:
    end = _game_end(2, {}, 4, seed=1)
    seats = end.state["seats"]
    towns, distances = _towns(end.state), [DISTANCES[s["town"]][s["home"]] for s in seats]
    # Seed 1: seat 0 has seen more towns (4 to 3) but stands three roads from home, seat 1 one.
    assert towns == [4, 3] and distances == [3, 1]
    state = end.when(0, {"type": "finish_travel"}).then_including({"type": "game_ended"})
    result = GAME.result(state)
    assert result["scores"] == [t - d for t, d in zip(towns, distances)] and result["winners"] == [1]
    assert result["home_towns"] == [s["home"] for s in seats] and GAME.to_act(state) == []


def test_without_home_towns_the_towns_alone_count_and_cards_break_ties() -> None:
    end = _game_end(2, {"home_towns": False}, 4, seed=5)
    hands = [size(s["hand"]) for s in end.state["seats"]]
    # Seed 5: 4 towns each, seat 0 holds more cards (10 to 2).
    assert _towns(end.state) == [4, 4] and hands == [10, 2]
    state = end.when(0, {"type": "finish_travel"}).then_including({"type": "game_ended"})
    assert GAME.result(state)["winners"] == [0]


def test_all_twenty_towns_after_round_three_wins_at_once() -> None:
    state = _last_movement(new_game(3), 3)
    home = state["seats"][2]["home"]
    farthest = max(MARKER_TOWNS, key=lambda town: DISTANCES[town][home])
    state = _tours(state, {2: MARKER_TOWNS}, ends={2: farthest})
    assert _towns(state)[2] == 20 and DISTANCES[farthest][home] >= 3     # far from home: no matter
    result = GAME.result(state)
    assert result["winners"] == [2] and result["ended_early"] and state["round"] == 3


def test_several_full_tours_after_round_three_most_cards_wins() -> None:
    state = _last_movement(new_game(3), 3)
    state = _tours(state, {0: MARKER_TOWNS, 1: MARKER_TOWNS, 2: MARKER_TOWNS[:19]},
                   hands={0: ["raft"] * 2, 1: ["raft"] * 3, 2: ["raft"] * 4})   # seat 2: more cards, 19 towns
    assert _towns(state) == [20, 20, 19]
    result = GAME.result(state)
    assert result["winners"] == [1] and result["ended_early"] and result["tiebreak_values"] == [2, 3, 4]


def test_a_full_tour_before_round_three_does_not_end_elfenland() -> None:
    # "Si des la fin du troisieme tour, un joueur a visite les 20 cites": not before round 3.
    state = _last_movement(new_game(2), 2)
    state = _tours(state, {0: MARKER_TOWNS})
    assert _towns(state)[0] == 20
    assert GAME.result(state) is None and state["round"] == 3


def test_elfenland_goes_on_after_round_three_without_a_full_tour() -> None:
    state = _last_movement(new_game(2), 3)
    state = _finish_round(state)
    assert GAME.result(state) is None and state["round"] == 4


def test_elfengold_after_round_six_most_towns_then_the_richest() -> None:
    end = _game_end(2, {"edition": "elfengold", "home_towns": False}, 6, seed=40)
    # Seed 40: 5 towns each, seat 1 the richer (9 coins to none).
    assert _towns(end.state) == [5, 5] and [s["coins"] for s in end.state["seats"]] == [0, 9]
    state = end.when(0, {"type": "finish_travel", "take": "cards"}).then_including({"type": "game_ended"})
    result = GAME.result(state)
    assert result["winners"] == [1] and result["tiebreak"] == "coins"


def test_elfengold_twenty_towns_end_the_game_after_that_round_richest_wins() -> None:
    state = start_phase(in_round(new_game(3, edition="elfengold"), 2), "draft_cards")
    assert state["deck"]["gold"] >= 6
    # Round 2's card draft: seat 1 draws a gold card blind and takes the gold pile (one card);
    # the refills turn up four gold cards, then seat 2 draws one blind and takes the pile (five).
    for seat, found in ((1, 0), (2, 4)):
        for _ in range(found):
            fold(state, "gold_card_found")
        fold(state, "gold_card_found", seat=seat)
        fold(state, "gold_taken", seat=seat, cards=found + 1, coins=3 * (found + 1))
    state = _movement(state)
    state = _tours(state, {0: MARKER_TOWNS, 1: MARKER_TOWNS, 2: ["Beata", "Lapphalya", "Rivinia"]})
    assert _towns(state) == [20, 20, 3] and [s["coins"] for s in state["seats"]] == [12, 15, 27]
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
    end = _game_end(2, {"home_towns": False}, 4, seed=1)
    hand = dict(end.state["seats"][0]["hand"])
    # Seed 1: 3 towns each; seat 1 ended its journey holding 5 cards and kept them all, seat 0
    # holds 8.
    assert _towns(end.state) == [3, 3] and [size(s["hand"]) for s in end.state["seats"]] == [8, 5]
    state = end.when(0, {"type": "finish_travel"}).then(
        {"type": "travel_finished"}, {"type": "round_ended"}, {"type": "game_ended"})   # no cut
    result = GAME.result(state)
    assert result["tiebreak_values"] == [8, 5] and result["winners"] == [0]
    assert state["seats"][0]["hand"] == hand


def test_no_cut_when_the_game_ends_early_after_round_three() -> None:
    state = _last_movement(new_game(3), 3)
    state = _tours(state, {0: MARKER_TOWNS, 1: MARKER_TOWNS},
                   hands={0: ["dragon"] * 7, 1: ["unicorn"] * 6, 2: ["elfcycle"] * 9})   # seat 2: no tour
    assert _towns(state) == [20, 20, 0]
    result = GAME.result(state)
    assert result["ended_early"] and result["tiebreak_values"] == [7, 6, 9] and result["winners"] == [0]


def test_the_cut_still_applies_when_another_round_follows() -> None:
    state = _last_movement(new_game(2), 3)           # round 3, nobody has seen every town
    set_hand(state, 0, ["raft"] * 6)
    state, _ = play(state, 0, {"type": "finish_travel"})
    assert GAME.to_act(state) == [0] and state["discarding"]


def _twenty_far_from_home_against_nineteen_at_home(engine: str) -> dict:
    """The end of round 4 with home towns: seat 0 has seen all 20 towns and stands far from home,
    seat 1 has seen 19 and stands at home; each journey and its end decided by ``engine``."""
    game = ENGINES[engine]
    state = _last_movement(new_game(2), 4)
    homes = [s["home"] for s in state["seats"]]
    farthest = max(MARKER_TOWNS, key=lambda town: DISTANCES[town][homes[0]])
    nineteen = [town for town in MARKER_TOWNS if town != farthest]
    state = _tours(state, {0: MARKER_TOWNS, 1: nineteen}, ends={0: farthest, 1: homes[1]}, game=game)
    assert _towns(state) == [20, 19] and [s["town"] for s in state["seats"]] == [farthest, homes[1]]
    result = game.result(state)
    assert result is not None and result["scores"] == [20 - DISTANCES[farthest][homes[0]], 19]
    return result


def test_all_twenty_towns_at_the_end_of_round_four_win_from_engine_5() -> None:
    """"Si dès la fin du troisième tour, un joueur a visité les 20 cités, il est gagnant": from
    the end of round 3 on, so at the end of round 4 too, whatever the distance home."""
    assert _twenty_far_from_home_against_nineteen_at_home("5")["winners"] == [0]


def test_engine_4_scores_twenty_towns_at_the_end_of_round_four_as_usual() -> None:
    """Games recorded under engine 4 keep its reading: towns minus the distance home."""
    assert _twenty_far_from_home_against_nineteen_at_home("4")["winners"] == [1]
