"""Development cards: buying, when they may be played, and what each one does."""
from __future__ import annotations

from tests.catan.helpers import (
    GAME, buy_card, edge, fold, give, holding, illegal, play, set_up, to_main,
)


def test_buying_pays_wool_grain_ore_and_draws_a_card_seen_only_by_its_owner() -> None:
    state = to_main(set_up())
    assert illegal(state, 0, {"type": "buy_dev_card"}) == "not-enough-resources"
    give(state, 0, wool=1, grain=1, ore=1)
    [bought] = play(state, 0, {"type": "buy_dev_card"}, seed=3)
    card = bought["data"]["card"]
    assert bought["type"] == "dev_card_bought" and card in ("knight", "victory_point", "road_building",
                                                           "year_of_plenty", "monopoly")
    assert state["hands"][0] == [0] * 5 and sum(state["dev_deck"]) == 24
    assert GAME.redact(bought, 0) == bought
    assert GAME.redact(bought, 1)["data"] == {"seat": 0, "card": None}
    assert GAME.redact(bought, None)["data"]["card"] is None
    assert GAME.view(state, 1)["seats"][0]["dev_cards"] is None
    assert GAME.view(state, 1)["seats"][0]["dev_card_count"] == 1
    assert GAME.view(state, 0)["seats"][0]["dev_cards"] == {card: 1}


def test_the_deck_holds_25_cards_and_runs_out() -> None:
    state = to_main(set_up())
    drawn = []
    for seed in range(25):
        give(state, 0, wool=1, grain=1, ore=1)
        drawn.append(play(state, 0, {"type": "buy_dev_card"}, seed=seed)[0]["data"]["card"])
    assert {card: drawn.count(card) for card in set(drawn)} == {
        "knight": 14, "victory_point": 5, "road_building": 2, "year_of_plenty": 2, "monopoly": 2}
    assert GAME.view(state, 0)["seats"][0]["points"] == 2 + 5
    give(state, 0, wool=1, grain=1, ore=1)
    assert illegal(state, 0, {"type": "buy_dev_card"}) == "no-dev-cards-left"


def test_a_card_cannot_be_played_the_turn_it_was_bought() -> None:
    state = to_main(set_up())
    buy_card(state, 0, "knight")
    assert illegal(state, 0, {"type": "play_knight"}) == "card-bought-this-turn"
    assert {"type": "play_knight"} not in GAME.legal_moves(state, 0)
    assert illegal(state, 0, {"type": "play_monopoly", "resource": "ore"}) == "no-such-card"


def test_a_knight_may_be_played_before_rolling_then_the_robber_moves_then_the_roll() -> None:
    state = holding("knight", 2)
    assert {"type": "play_knight"} in GAME.legal_moves(state, 0)
    play(state, 0, {"type": "play_knight"})
    assert state["phase"] == "robber" and state["knights"][0] == 1
    play(state, 0, {"type": "move_robber", "hex": 4, "victim": None})
    assert state["phase"] == "roll"
    assert illegal(state, 0, {"type": "play_knight"}) == "one-card-per-turn"
    to_main(state)
    assert illegal(state, 0, {"type": "play_knight"}) == "one-card-per-turn"
    assert {"type": "play_knight"} not in GAME.legal_moves(state, 0)


def test_road_building_places_two_free_connected_roads() -> None:
    state = holding("road_building")
    to_main(state)
    play(state, 0, {"type": "play_road_building"})
    assert state["phase"] == "road_building" and state["free_roads"] == 2
    assert illegal(state, 0, {"type": "end_turn"}) == "must-place-road"
    assert illegal(state, 0, {"type": "build_road", "edge": edge(0, 3)}) == "not-connected"
    play(state, 0, {"type": "build_road", "edge": edge(17, 22)})
    assert {"type": "build_road", "edge": edge(22, 16)} in GAME.legal_moves(state, 0)
    play(state, 0, {"type": "build_road", "edge": edge(22, 16)})
    assert state["phase"] == "main" and state["pieces"][0][0] == 11 and state["hands"][0] == [0] * 5


def test_road_building_ends_early_when_no_road_can_follow() -> None:
    state = holding("road_building")
    to_main(state)
    for e in (edge(0, 3), edge(1, 5), edge(2, 6), edge(9, 13), edge(10, 15), edge(11, 16),
              edge(21, 27), edge(24, 30), edge(31, 37), edge(32, 37), edge(38, 43), edge(42, 46)):
        fold(state, "road_built", seat=0, edge=e, free=True)     # crafted: one road left
    [played] = play(state, 0, {"type": "play_road_building"})
    assert played["data"]["roads"] == 1
    play(state, 0, {"type": "build_road", "edge": edge(17, 22)})
    assert state["phase"] == "main"


def test_year_of_plenty_takes_two_resources_from_the_bank() -> None:
    state = holding("year_of_plenty")
    to_main(state)
    moves = [m for m in GAME.legal_moves(state, 0) if m["type"] == "play_year_of_plenty"]
    assert len(moves) == 25                 # 5 doubles + 10 pairs, each pair in both orders
    assert {"type": "play_year_of_plenty", "resources": ["ore", "brick"]} in moves
    assert {"type": "play_year_of_plenty", "resources": ["brick", "ore"]} in moves
    give(state, 1, ore=19)
    assert illegal(state, 0, {"type": "play_year_of_plenty", "resources": ["ore", "brick"]}) == "bank-empty"
    play(state, 0, {"type": "play_year_of_plenty", "resources": ["brick", "brick"]})
    assert state["hands"][0] == [2, 0, 0, 0, 0] and state["bank"][0] == 17


def test_monopoly_takes_every_card_of_one_resource_from_the_others() -> None:
    state = holding("monopoly")
    give(state, 1, wool=2, ore=1)
    give(state, 3, wool=3)
    give(state, 0, wool=1)
    to_main(state)
    events = play(state, 0, {"type": "play_monopoly", "resource": "wool"})
    assert events[0]["data"] == {"seat": 0, "resource": "wool", "taken": [0, 2, 0, 3]}
    assert state["hands"][0][2] == 6 and state["hands"][1] == [0, 0, 0, 0, 1] and state["hands"][3] == [0] * 5


def test_victory_point_cards_stay_hidden_but_count_for_their_owner() -> None:
    state = to_main(set_up())
    buy_card(state, 0, "victory_point")
    assert GAME.view(state, 0)["seats"][0]["points"] == 3
    assert GAME.view(state, 1)["seats"][0]["points"] is None
    assert GAME.view(state, 1)["seats"][0]["public_points"] == 2
    assert not [m for m in GAME.legal_moves(state, 0) if "victory" in m["type"]]


def test_the_hand_panel_counts_a_card_bought_this_turn_once() -> None:
    """The view's ``dev_cards`` holds every card owned, those bought this turn included."""
    from services.catan.render import panels
    from shared.text.render.common import Context
    state = to_main(set_up())
    give(state, 0, wool=1, grain=1, ore=1)
    [bought] = play(state, 0, {"type": "buy_dev_card"}, seed=3)
    hand = next(p for p in panels(GAME.view(state, 0), Context(you=0)) if p.key == "hand")
    [cards] = [row for row in hand.rows if row.label == "Development cards"]
    assert [item.count for item in cards.items] == [1], cards
    assert len(cards.items) == 1 and GAME.view(state, 0)["seats"][0]["dev_cards_new"] == {bought["data"]["card"]: 1}
