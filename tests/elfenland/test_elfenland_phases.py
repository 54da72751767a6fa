"""Elfenland set-up and the six phases of a round."""
from __future__ import annotations

# Positions: a set-up, then counters, cards, phases and rounds folded as the engine records them
# (positions.py), and the moves under test decided by the engine.

import random

from services.elfenland.rules.board import HOME_TOWN_CARDS
from services.elfenland.rules.multiset import size

from tests.elfenland.positions import (
    GAME, clear_counters, give_counter, in_round, new_game, place, play, rejection, road_between, set_hand,
    start_phase, types)


def test_setup_deals_eight_cards_a_secret_counter_and_home_towns() -> None:
    state = new_game(4)
    assert state["phase"] == "secret_counter" and state["round"] == 1
    for seat_state in state["seats"]:
        assert size(seat_state["hand"]) == 8
        assert [c["hidden"] for c in seat_state["counters"]] == [True]
        assert seat_state["town"] == "Elvenhold" and seat_state["obstacles"] == 1
    homes = [s["home"] for s in state["seats"]]
    assert len(set(homes)) == 4 and set(homes) <= set(HOME_TOWN_CARDS)
    assert size(state["deck"]) == 72 - 32 and size(state["bag"]) == 48 - 4


def test_secret_counter_may_be_revealed_or_kept_hidden() -> None:
    state = new_game(3)
    secret = state["seats"][0]["counters"][0]["kind"]
    state, events = play(state, 0, {"type": "secret_counter", "reveal": True})
    assert events[0]["data"] == {"seat": 0, "reveal": True, "counter": secret}
    assert state["seats"][0]["counters"] == [{"kind": secret, "hidden": False}]
    state, events = play(state, 1, {"type": "secret_counter", "reveal": False})
    assert events[0]["data"]["counter"] is None and state["seats"][1]["counters"][0]["hidden"]


def test_five_face_up_counters_and_the_draft_of_three_each() -> None:
    state = new_game(2)
    for seat in (0, 1):
        state, events = play(state, seat, {"type": "secret_counter", "reveal": False})
    assert types(events)[-2:] == ["counters_revealed", "phase_started"]
    assert len(state["face_up_counters"]) == 5 and state["phase"] == "draft_counters"
    kind = state["face_up_counters"][0]
    state, events = play(state, 0, {"type": "take_counter", "counter": kind})
    assert types(events) == ["counter_taken", "face_up_counter_added"]
    assert len(state["face_up_counters"]) == 5          # refilled from the pile
    state, events = play(state, 1, {"type": "draw_counter"})
    drawn = events[0]["data"]["counter"]
    assert {"kind": drawn, "hidden": False} in state["seats"][1]["counters"]   # placed face up
    missing = next(k for k in ("dragon", "unicorn", "giant_pig", "elfcycle", "magic_cloud", "troll_wagon")
                   if k not in state["face_up_counters"])
    assert rejection(state, 0, {"type": "take_counter", "counter": missing}) == "counter-not-face-up"
    for _ in range(4):
        seat = GAME.to_act(state)[0]
        state, _ = play(state, seat, {"type": "draw_counter"})
    assert state["phase"] == "placement"
    assert [len(s["counters"]) for s in state["seats"]] == [4, 4]


def test_transport_counters_respect_the_terrain() -> None:
    state = start_phase(new_game(2), "placement", first=0)
    give_counter(state, 0, "giant_pig")
    desert = road_between("Al'Baran", "Feodor")
    river = road_between("Beata", "Elvenhold", "river")
    plain = road_between("Beata", "Elvenhold", "plain")
    assert rejection(state, 0, {"type": "place_counter", "counter": "giant_pig", "road": desert.id}) == "terrain-forbids-transport"
    assert rejection(state, 0, {"type": "place_counter", "counter": "giant_pig", "road": river.id}) == "terrain-forbids-transport"
    state, events = play(state, 0, {"type": "place_counter", "counter": "giant_pig", "road": plain.id})
    assert state["board"][str(plain.id)]["transports"] == ["giant_pig"]


def test_one_transport_per_road_and_obstacles_only_beside_one() -> None:
    state = start_phase(new_game(2), "placement", first=0)
    road = road_between("Elvenhold", "Lapphalya")
    other = road_between("Beata", "Strykhaven")
    give_counter(state, 0, "dragon")
    assert rejection(state, 0, {"type": "place_counter", "counter": "obstacle", "road": road.id}) == "needs-transport-counter"
    place(state, 1, "dragon", road.id)
    place(state, 0, "dragon", other.id)
    assert rejection(state, 0, {"type": "place_counter", "counter": "dragon", "road": road.id}) == "road-has-transport"
    state, _ = play(state, 0, {"type": "place_counter", "counter": "obstacle", "road": road.id})
    assert state["seats"][0]["obstacles"] == 0 and state["board"][str(road.id)]["obstacle"] == "obstacle"
    assert rejection(state, 1, {"type": "place_counter", "counter": "obstacle", "road": road.id}) == "road-has-obstacle"
    assert rejection(state, 0, {"type": "place_counter", "counter": "obstacle", "road": other.id}) == "not-your-turn"
    clear_counters(state, 1)
    assert rejection(state, 1, {"type": "place_counter", "counter": "unicorn", "road": other.id}) == "counter-not-held"


def test_placement_goes_on_until_everyone_passes_in_a_row() -> None:
    state = start_phase(new_game(3), "placement", first=0)
    give_counter(state, 1, "dragon")
    state, _ = play(state, 0, {"type": "pass"})
    state, _ = play(state, 1, {"type": "place_counter", "counter": "dragon", "road": road_between("Elvenhold", "Lapphalya").id})
    state, _ = play(state, 2, {"type": "pass"})
    state, _ = play(state, 0, {"type": "pass"})          # a player who passed may act again later
    assert state["phase"] == "placement"
    state, events = play(state, 1, {"type": "pass"})
    assert state["phase"] == "movement" and types(events)[-1] == "phase_started"


def test_counter_limit_applies_when_placement_ends_before_movement() -> None:
    # "Si, a la fin du placement des jetons, un joueur a plus d'un jeton, il doit en garder un"
    state = start_phase(new_game(2), "placement", first=0)
    clear_counters(state, 1)
    secret = next(c for c in state["seats"][0]["counters"] if c["hidden"])
    give_counter(state, 0, "dragon")
    give_counter(state, 0, "unicorn")
    state, _ = play(state, 0, {"type": "pass"})
    state, events = play(state, 1, {"type": "pass"})
    assert state["phase"] == "keep" and GAME.to_act(state) == [0]
    assert types(events)[-1] == "phase_started" and events[-1]["data"] == {"phase": "keep"}
    legal = GAME.legal_moves(state, 0)
    assert legal and all(m["type"] == "keep_counters" for m in legal)      # hands are not cut here
    assert {"type": "keep_counters", "counters": ["dragon"]} in legal
    assert rejection(state, 0, {"type": "keep_counters", "counters": ["dragon", "unicorn"]}) == "wrong-count"
    assert rejection(state, 0, {"type": "keep_counters", "counters": ["elfcycle"]}) in ("counter-not-held", "wrong-count")
    assert rejection(state, 0, {"type": "keep_cards", "cards": []}) == "wrong-phase"
    assert rejection(state, 1, {"type": "keep_counters", "counters": []}) == "not-your-turn"
    bag = dict(state["bag"])
    state, events = play(state, 0, {"type": "keep_counters", "counters": [secret["kind"]]})
    assert state["seats"][0]["counters"] == [secret]                      # a hidden one stays hidden
    assert state["bag"].get("dragon", 0) == bag.get("dragon", 0) + 1      # the others back to the pile
    assert state["phase"] == "movement" and GAME.to_act(state) == [0]


def test_no_counter_choice_in_the_last_round() -> None:
    state = start_phase(in_round(new_game(2), 4), "placement")
    give_counter(state, 0, "dragon")
    state, _ = play(state, 0, {"type": "pass"})
    state, _ = play(state, 1, {"type": "pass"})
    assert state["phase"] == "movement"          # kept counters have no use after the last round


def test_cards_cut_to_four_right_after_the_players_own_move() -> None:
    # "Si un joueur a plus de quatre cartes en main a l'issue de ses deplacements, il doit se
    # defausser des cartes en excedent": before the next player moves.
    state = start_phase(new_game(2), "movement", first=0)
    set_hand(state, 0, ["dragon"] * 3 + ["raft"] * 3)
    set_hand(state, 1, ["unicorn"] * 5)
    for seat in (0, 1):
        clear_counters(state, seat)
    state, events = play(state, 0, {"type": "finish_travel"})
    assert state["phase"] == "movement" and GAME.to_act(state) == [0]
    legal = GAME.legal_moves(state, 0)
    assert legal and all(m["type"] == "keep_cards" for m in legal)
    assert {"type": "keep_cards", "cards": ["dragon", "dragon", "raft", "raft"]} in legal
    assert rejection(state, 0, {"type": "travel", "road": 0, "cards": ["dragon"]}) == "must-keep-cards"
    assert rejection(state, 0, {"type": "finish_travel"}) == "must-keep-cards"
    assert rejection(state, 0, {"type": "keep_cards", "cards": ["dragon"] * 4}) == "cards-not-in-hand"
    assert rejection(state, 0, {"type": "keep_cards", "cards": ["dragon"]}) == "wrong-count"
    assert rejection(state, 1, {"type": "keep_cards", "cards": ["unicorn"] * 4}) == "not-your-turn"
    state, events = play(state, 0, {"type": "keep_cards", "cards": ["dragon", "dragon", "raft", "raft"]})
    assert events[0]["data"] == {"seat": 0, "kept": ["dragon", "dragon", "raft", "raft"],
                                 "discarded": ["dragon", "raft"]}
    assert state["seats"][0]["hand"] == {"dragon": 2, "raft": 2} and GAME.to_act(state) == [1]
    assert rejection(state, 1, {"type": "keep_cards", "cards": ["unicorn"] * 4}) == "wrong-phase"
    state, events = play(state, 1, {"type": "finish_travel"})
    assert GAME.to_act(state) == [1]
    state, events = play(state, 1, {"type": "keep_cards", "cards": ["unicorn"] * 4})
    assert "round_ended" in types(events) and state["round"] == 2
    assert state["first"] == 1                                         # the first player moves left
    assert size(state["seats"][0]["hand"]) == 4 + 8                    # 8 new cards (author's rules)


def test_four_cards_or_fewer_need_no_discard() -> None:
    state = start_phase(new_game(2), "movement", first=0)
    set_hand(state, 0, ["dragon"] * 4)
    state, events = play(state, 0, {"type": "finish_travel"})
    assert GAME.to_act(state) == [1] and types(events) == ["travel_finished"]


def test_used_obstacles_leave_the_game_and_counters_return_to_the_pile() -> None:
    state = start_phase(new_game(2), "placement", first=0)
    road = road_between("Elvenhold", "Lapphalya")
    place(state, 1, "dragon", road.id)
    place(state, 0, "obstacle", road.id)
    start_phase(state, "movement", first=0)
    for seat in (0, 1):
        set_hand(state, seat, [])
        clear_counters(state, seat)
    dragons_in_bag = state["bag"].get("dragon", 0)
    state, _ = play(state, 0, {"type": "finish_travel"})
    events = GAME.decide(state, 1, {"type": "finish_travel"}, random.Random(0))
    for e in events[:types(events).index("round_ended") + 1]:
        state = GAME.evolve(state, e)
    assert state["board"] == {} and state["bag"]["dragon"] == dragons_in_bag + 1
    assert state["seats"][0]["obstacles"] == 0 and "obstacle" not in state["bag"]   # gone for good


def test_german_rules_top_hands_up_to_eight() -> None:
    state = start_phase(new_game(2, lake_rules="german"), "movement", first=0)
    set_hand(state, 0, ["dragon"] * 3)
    set_hand(state, 1, [])
    clear_counters(state, 0)
    clear_counters(state, 1)
    state, _ = play(state, 0, {"type": "finish_travel"})
    state, _ = play(state, 1, {"type": "finish_travel"})
    assert [size(s["hand"]) for s in state["seats"]] == [8, 8]
