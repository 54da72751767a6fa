"""``legal_moves`` lists exactly the moves ``decide`` accepts (apart from free-form offers)."""
from __future__ import annotations

import json
import random
from typing import Any

import pytest

from services.catan.rules.board import EDGE_COUNT, HEX_COUNT, NODE_COUNT, RESOURCES
from shared.game.engine import IllegalMove
from shared.game.testing import play_random_game
from tests.catan.helpers import GAME, edge, fold, holding, play, to_main


def _candidates(state: dict[str, Any]) -> list[dict[str, Any]]:
    """A superset of every enumerable move (discards are checked in test_robber)."""
    moves: list[dict[str, Any]] = [{"type": t} for t in (
        "roll", "end_turn", "buy_dev_card", "play_knight", "play_road_building", "cancel_trade")]
    moves += [{"type": "build_road", "edge": e} for e in range(EDGE_COUNT)]
    moves += [{"type": t, "node": n} for t in ("build_settlement", "build_city") for n in range(NODE_COUNT)]
    moves += [{"type": "move_robber", "hex": h, "victim": v}
              for h in range(HEX_COUNT) for v in (None, *range(state["players"]))]
    moves += [{"type": "bank_trade", "give": a, "get": b} for a in RESOURCES for b in RESOURCES]
    moves += [{"type": "play_monopoly", "resource": r} for r in RESOURCES]
    # Both orders: decide takes ["ore", "brick"] as well as ["brick", "ore"].
    moves += [{"type": "play_year_of_plenty", "resources": [a, b]} for a in RESOURCES for b in RESOURCES]
    moves += [{"type": "answer_trade", "accept": a} for a in (True, False)]
    moves += [{"type": "confirm_trade", "seat": s} for s in range(state["players"])]
    return moves


def _accepted(state: dict[str, Any], seat: int, move: dict[str, Any]) -> bool:
    try:
        GAME.decide(state, seat, move, random.Random(0))
    except IllegalMove:
        return False
    return True


def _key(move: dict[str, Any]) -> str:
    return json.dumps(move, sort_keys=True)


def _assert_exact(state: dict[str, Any], seat: int) -> None:
    listed = {_key(m) for m in GAME.legal_moves(state, seat) if m["type"] != "discard"}
    accepted = {_key(m) for m in _candidates(state) if _accepted(state, seat, m)}
    assert listed == accepted, (state["phase"], listed ^ accepted)


@pytest.mark.slow
def test_listed_moves_are_exactly_the_accepted_ones_through_a_game() -> None:
    played = play_random_game(GAME, 4, {"board": "variable"}, seed=21, check_every=200)
    state = GAME.replay(played.events[:1])
    phases = set()
    for step, (seat, move, seed) in enumerate(played.moves):
        if step % 23 == 0 or state["phase"] in ("robber", "road_building", "discard"):
            for acting in GAME.to_act(state):
                _assert_exact(state, acting)
                phases.add(state["phase"])
        for e in GAME.decide(state, seat, move, random.Random(seed)):
            GAME.evolve(state, e)
    assert {"setup", "roll", "main", "robber", "discard"} <= phases


def test_listed_moves_during_an_open_offer_and_road_building() -> None:
    state = holding("road_building")
    to_main(state)
    fold(state, "starting_resources", seat=0, resources={"brick": 1})
    fold(state, "starting_resources", seat=2, resources={"ore": 1})
    play(state, 0, {"type": "offer_trade", "give": {"brick": 1}, "get": {"ore": 1}})
    play(state, 2, {"type": "answer_trade", "accept": True})
    for seat in range(4):                       # seats 1 and 3 still answer; 0 and 2 have nothing
        _assert_exact(state, seat)
    play(state, 1, {"type": "answer_trade", "accept": False})
    play(state, 3, {"type": "answer_trade", "accept": False})
    for seat in range(4):                       # now only the offerer: confirm with 2 or withdraw
        _assert_exact(state, seat)
    assert GAME.legal_moves(state, 0) == [{"type": "cancel_trade"}, {"type": "confirm_trade", "seat": 2}]
    play(state, 0, {"type": "cancel_trade"})
    play(state, 0, {"type": "play_road_building"})
    _assert_exact(state, 0)


def test_road_building_ends_when_the_second_road_has_nowhere_to_go() -> None:
    state = holding("road_building")
    to_main(state)
    # Crafted opponent roads box seat 0 in, leaving only 12-7, which leads nowhere.
    for a, b in [(12, 8), (17, 22), (17, 23), (40, 35), (40, 45), (44, 39), (44, 48), (7, 3), (7, 11)]:
        fold(state, "road_built", seat=1, edge=edge(a, b), free=True)
    play(state, 0, {"type": "play_road_building"})
    events = play(state, 0, {"type": "build_road", "edge": edge(12, 7)})
    assert [e["type"] for e in events] == ["road_built", "road_building_ended"]
    assert state["phase"] == "main" and state["free_roads"] == 0


_JUNK: list[Any] = [None, -1, 99, 1.5, True, "ore", "gold", [], ["ore"], ["ore", "ore", "ore"], [[1], 2],
                    {}, {"ore": 1}, {"ore": -1}, {"gold": 1}, {"ore": "x"}]
_FIELDS = ("node", "edge", "hex", "victim", "resources", "resource", "give", "get", "accept", "seat")


def test_malformed_moves_are_rejected_with_a_reason_and_never_touch_the_state() -> None:
    played = play_random_game(GAME, 3, {}, seed=4, check_every=500)
    state = GAME.replay(played.events[:1])
    rng = random.Random(9)
    kinds = sorted({m["type"] for _, m, _ in played.moves} | {"offer_trade", "counter_trade", "nonsense"})
    for step, (seat, move, seed) in enumerate(played.moves):
        if step % 7 == 0:
            before = json.dumps(state, sort_keys=True)
            for _ in range(30):
                junk = {"type": rng.choice(kinds)}
                for name in rng.sample(_FIELDS, rng.randrange(3)):
                    junk[name] = rng.choice(_JUNK)
                try:
                    GAME.decide(state, rng.randrange(3), junk, random.Random(0))
                except IllegalMove as error:
                    assert error.reason and error.reason == error.reason.lower()
            assert json.dumps(state, sort_keys=True) == before
        for e in GAME.decide(state, seat, move, random.Random(seed)):
            GAME.evolve(state, e)


@pytest.mark.slow
def test_listed_moves_are_exactly_the_accepted_ones_with_offers_and_discards() -> None:
    """Greedy bots make offers: the trade phase is checked too, and so are discards."""
    from services.catan.bots import STRATEGIES
    from services.catan.rules.legal import discard_choices

    strategies = {0: STRATEGIES["greedy"], 2: STRATEGIES["greedy"]}
    played = play_random_game(GAME, 4, {"board": "variable"}, seed=8, strategies=strategies,
                              check_every=200)
    state = GAME.replay(played.events[:1])
    phases = set()
    for step, (seat, move, seed) in enumerate(played.moves):
        if step % 11 == 0 or state["phase"] in ("trade", "discard", "road_building", "robber"):
            for other in range(4):
                _assert_exact(state, other)
                owed = state["discards"][other]
                if owed and other in GAME.to_act(state):
                    hand = tuple(state["hands"][other])
                    listed = [m for m in GAME.legal_moves(state, other) if m["type"] == "discard"]
                    assert len(listed) == len(discard_choices(hand, owed))
                    assert all(_accepted(state, other, m) for m in listed)
                    wrong = [{"type": "discard", "resources": dict(c)} for c in discard_choices(hand, owed - 1)]
                    assert not any(_accepted(state, other, m) for m in wrong)
            phases.add(state["phase"])
        for e in GAME.decide(state, seat, move, random.Random(seed)):
            GAME.evolve(state, e)
    assert {"setup", "roll", "main", "robber", "discard", "trade"} <= phases
