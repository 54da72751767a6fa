"""Views and redacted events never show a seat another seat's cards."""
from __future__ import annotations

import json

from services.catan.rules.board import RESOURCES
from shared.game.testing import assert_views_hide, play_random_game
from tests.catan.helpers import GAME, buy_card, give, set_up, to_main


def test_a_seat_sees_its_own_hand_and_only_counts_of_the_others() -> None:
    state = to_main(set_up())
    give(state, 1, ore=3, wool=1)
    buy_card(state, 1, "monopoly")
    mine, theirs, spectator = GAME.view(state, 1), GAME.view(state, 2), GAME.view(state, None)
    assert mine["seats"][1]["resources"] == {"wool": 1, "ore": 3}
    assert mine["seats"][1]["dev_cards"] == {"monopoly": 1}
    for view in (theirs, spectator):
        seat1 = view["seats"][1]
        assert seat1["resources"] is None and seat1["resource_count"] == 4
        assert seat1["dev_cards"] is None and seat1["dev_cards_new"] is None
        assert seat1["dev_card_count"] == 1 and seat1["points"] is None
    assert all(s["resources"] is None for s in spectator["seats"])
    assert_views_hide(GAME, state, 2, [{"wool": 1, "ore": 3}, {"monopoly": 1}])


def test_views_show_the_deck_size_but_never_its_composition() -> None:
    state = to_main(set_up())
    for viewer in (None, 0, 1):
        view = GAME.view(state, viewer)
        assert view["dev_deck_size"] == 25
        assert "dev_deck" not in view and "[14,5,2,2,2]" not in json.dumps(view, separators=(",", ":"))


def test_over_a_random_game_nobody_sees_anothers_cards() -> None:
    played = play_random_game(GAME, 4, {}, seed=11, check_every=50)
    state = GAME.replay(played.events[:1])
    for index, e in enumerate(played.events[1:]):
        GAME.evolve(state, e)
        data = e["data"]
        for viewer in (None, 0, 1, 2, 3):
            seen = GAME.redact(e, viewer)
            if e["type"] == "dev_card_bought" and viewer != data["seat"]:
                assert seen["data"]["card"] is None
            if e["type"] == "card_stolen" and viewer not in (data["seat"], data["victim"]):
                assert seen["data"]["resource"] is None
        if index % 97 == 0 and state["phase"] != "over":
            for viewer in (None, 0, 1, 2, 3):
                view = GAME.view(state, viewer)
                for seat, shown in enumerate(view["seats"]):
                    if seat != viewer:
                        assert shown["resources"] is None and shown["dev_cards"] is None
                    else:
                        assert shown["resources"] == {RESOURCES[i]: n for i, n in
                                                      enumerate(state["hands"][seat]) if n}


def test_copy_is_an_equal_independent_state() -> None:
    state = to_main(set_up())
    give(state, 0, ore=2)
    twin = GAME.copy(state)
    assert twin == state
    give(twin, 0, ore=1)
    twin["node_owner"][0] = 3
    assert state["hands"][0][4] == 2 and state["node_owner"][0] == -1
    assert GAME.load(json.loads(json.dumps(GAME.dump(state)))) == state


def test_the_view_carries_the_board_topology_for_clients() -> None:
    board = GAME.view(set_up(), None)["board"]
    assert len(board["hex_nodes"]) == 19 and board["hex_nodes"][0] == [0, 4, 8, 12, 7, 3]
    assert len(board["edge_nodes"]) == 72 and board["edge_nodes"][0] == [0, 3]
