"""A 7: simultaneous discards of half of big hands, then the robber moves and steals."""
from __future__ import annotations

from services.catan.rules.legal import discard_choices
from tests.catan.helpers import GAME, give, illegal, play, roll, set_up


def test_a_seven_produces_nothing_and_players_over_seven_cards_discard_half_together() -> None:
    state = set_up()
    give(state, 1, brick=4, wool=5)        # 9 cards: discards 4
    give(state, 2, ore=8)                  # 8 cards: discards 4
    give(state, 3, grain=7)                # 7 cards: keeps them all
    events = roll(state, 0, 7)
    assert [e["type"] for e in events] == ["dice_rolled"]
    assert state["phase"] == "discard" and state["discards"] == [0, 4, 4, 0]
    assert GAME.to_act(state) == [1, 2]
    assert illegal(state, 0, {"type": "move_robber", "hex": 0, "victim": None}) == "not-your-turn"
    assert illegal(state, 1, {"type": "discard", "resources": {"brick": 3}}) == "invalid-discard"
    assert illegal(state, 1, {"type": "discard", "resources": {"brick": 5}}) == "invalid-discard"
    assert illegal(state, 1, {"type": "discard", "resources": {"gold": 4}}) == "invalid-resource"
    play(state, 2, {"type": "discard", "resources": {"ore": 4}})
    assert GAME.to_act(state) == [1]
    assert illegal(state, 2, {"type": "discard", "resources": {"ore": 4}}) == "not-your-turn"
    events = play(state, 1, {"type": "discard", "resources": {"brick": 3, "wool": 1}})
    assert events == [{"type": "cards_discarded", "data": {"seat": 1, "resources": {"brick": 3, "wool": 1}}}]
    assert state["hands"][1] == [1, 0, 4, 0, 0] and state["hands"][2] == [0, 0, 0, 0, 4]
    assert state["phase"] == "robber" and GAME.to_act(state) == [0]


def test_legal_discards_are_every_choice_of_half_the_hand() -> None:
    choices = discard_choices((2, 0, 3, 0, 4), 4)
    assert len(choices) == len(set(choices))
    # x + y + z = 4 with x <= 2, y <= 3, z <= 4: 15 - 3 (x>2) - 1 (y>3) = 11 (z<=4 always holds).
    assert len(choices) == 11
    state = set_up()
    give(state, 1, brick=2, wool=3, ore=4)
    roll(state, 0, 7)
    moves = GAME.legal_moves(state, 1)
    assert len(moves) == 11 and {"type": "discard", "resources": {"wool": 3, "ore": 1}} in moves


def test_the_robber_must_move_to_another_hex_and_may_rob_a_neighbour_with_cards() -> None:
    state = set_up()
    give(state, 1, brick=1)
    roll(state, 0, 7)
    assert state["phase"] == "robber"
    assert illegal(state, 0, {"type": "end_turn"}) == "robber-must-move"
    assert illegal(state, 0, {"type": "move_robber", "hex": 9, "victim": None}) == "robber-same-hex"
    # Hex 6 (Hills 10): seat 1 (node 14, 1 card) and seat 3 (node 20, no cards).
    assert illegal(state, 0, {"type": "move_robber", "hex": 6, "victim": 3}) == "invalid-victim"
    assert illegal(state, 0, {"type": "move_robber", "hex": 6, "victim": 0}) == "invalid-victim"
    robber_moves = [m for m in GAME.legal_moves(state, 0) if m["hex"] == 6]
    assert robber_moves == [{"type": "move_robber", "hex": 6, "victim": None},
                            {"type": "move_robber", "hex": 6, "victim": 1}]
    # Each of the 18 other hexes without a victim, and seat 1 (settlements 14 and 36) robbed on
    # any of the six hexes around them: 2, 5, 6, 10, 14, 15.
    assert len(GAME.legal_moves(state, 0)) == 18 + 6
    events = play(state, 0, {"type": "move_robber", "hex": 6, "victim": 1})
    assert events[1] == {"type": "card_stolen", "data": {"seat": 0, "victim": 1, "resource": "brick"}}
    assert state["hands"][0][0] == 1 and state["hands"][1][0] == 0
    assert state["robber"] == 6 and state["phase"] == "main"


def test_no_steal_when_nobody_there_has_cards() -> None:
    state = set_up()
    roll(state, 0, 7)
    events = play(state, 0, {"type": "move_robber", "hex": 6, "victim": None})
    assert [e["type"] for e in events] == ["robber_moved"]


def test_the_stolen_card_is_seen_by_thief_and_victim_only() -> None:
    state = set_up()
    give(state, 1, ore=1)
    roll(state, 0, 7)
    stolen = play(state, 0, {"type": "move_robber", "hex": 6, "victim": 1})[1]
    assert GAME.redact(stolen, 0)["data"]["resource"] == "ore"
    assert GAME.redact(stolen, 1)["data"]["resource"] == "ore"
    for viewer in (2, 3, None):
        assert GAME.redact(stolen, viewer)["data"] == {"seat": 0, "victim": 1, "resource": None}
    assert stolen["data"]["resource"] == "ore"        # redact returns a copy


def test_the_roller_discards_too_and_then_moves_the_robber() -> None:
    state = set_up()
    give(state, 0, grain=5, ore=6)          # 11 cards: discards 5
    roll(state, 0, 7)
    assert state["phase"] == "discard" and GAME.to_act(state) == [0]
    assert illegal(state, 0, {"type": "move_robber", "hex": 4, "victim": None}) == "discard-pending"
    play(state, 0, {"type": "discard", "resources": {"ore": 5}})
    assert state["hands"][0] == [0, 0, 0, 5, 1] and state["bank"][4] == 19 - 1
    assert state["phase"] == "robber" and GAME.to_act(state) == [0]


def test_a_knight_moves_the_robber_away_from_the_desert_and_steals_like_a_seven() -> None:
    from tests.catan.helpers import holding
    state = holding("knight")
    give(state, 3, wool=2)
    play(state, 0, {"type": "play_knight"})
    # Hex 6 (Hills 10): seat 1 (node 14, no cards) and seat 3 (node 20, two wool).
    assert [m for m in GAME.legal_moves(state, 0) if m["hex"] == 6] == [
        {"type": "move_robber", "hex": 6, "victim": None}, {"type": "move_robber", "hex": 6, "victim": 3}]
    events = play(state, 0, {"type": "move_robber", "hex": 6, "victim": 3}, seed=5)
    assert events == [{"type": "robber_moved", "data": {"seat": 0, "hex": 6, "victim": 3}},
                      {"type": "card_stolen", "data": {"seat": 0, "victim": 3, "resource": "wool"}}]
    assert state["hands"][3] == [0, 0, 1, 0, 0] and state["phase"] == "roll"


def test_the_steal_is_optional_after_a_seven_and_after_a_knight() -> None:
    """After a 7: "Ce joueur peut également utiliser le voleur pour prendre (et garder) une carte";
    after a knight: "Puis le joueur peut dérober (et garder) une carte".  "Peut": the robber may
    move next to a player holding cards and take nothing."""
    from tests.catan.helpers import holding
    state = set_up()
    give(state, 1, brick=1)                       # seat 1 (node 14, on hex 6) could be robbed
    roll(state, 0, 7)
    events = play(state, 0, {"type": "move_robber", "hex": 6, "victim": None})
    assert events == [{"type": "robber_moved", "data": {"seat": 0, "hex": 6, "victim": None}}]
    assert state["hands"][0] == [0] * 5 and state["hands"][1] == [1, 0, 0, 0, 0]
    assert state["robber"] == 6 and state["phase"] == "main"
    state = holding("knight")
    give(state, 3, wool=2)                        # seat 3 (node 20, on hex 6) could be robbed
    play(state, 0, {"type": "play_knight"})
    events = play(state, 0, {"type": "move_robber", "hex": 6, "victim": None})
    assert [e["type"] for e in events] == ["robber_moved"]
    assert state["hands"][3] == [0, 0, 2, 0, 0] and state["knights"][0] == 1 and state["phase"] == "roll"
