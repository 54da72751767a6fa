"""Nothing leaks through order or position, in any title.

Two properties along random games of every title:

* a viewer's ``view`` is the same, list order and key order included, whatever the values it may
  not see: other seats' hands, home towns and face-down counters (reassigned, and reordered as
  held), the decks and bags (reassigned; their order shuffled);
* a move that makes the same choice in another order (a list argument permuted) gives every
  other viewer the same redacted events: where a masked item sits must not tell what it is.

The game-specific tests (tests/<game>/test_hidden*, tests/elfenland/test_view_invariance.py)
check the rest of what each redacted event hides.
"""
from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from shared import registry
from shared.engine import Game, IllegalMove
from shared.replay import served_record

Scramble = Callable[[Any, "int | None", random.Random], Any]


def _split(total: int, kinds: int, rng: random.Random) -> list[int]:
    """``total`` items over ``kinds`` piles, at random."""
    counts = [0] * kinds
    for _ in range(total):
        counts[rng.randrange(kinds)] += 1
    return counts


def _multiset(total: int, kinds: tuple[str, ...], rng: random.Random) -> dict[str, int]:
    counts = _split(total, len(kinds), rng)
    order = list(range(len(kinds)))
    rng.shuffle(order)                      # key order at random too
    return {kinds[i]: counts[i] for i in order if counts[i]}


def _others(state: Any, viewer: int | None, players: int) -> list[int]:
    return [seat for seat in range(players) if seat != viewer]


def scramble_catan(state: Any, viewer: int | None, rng: random.Random) -> Any:
    for seat in _others(state, viewer, state["players"]):
        for name in ("hands", "dev_hand", "dev_new"):
            state[name][seat] = _split(sum(state[name][seat]), 5, rng)
    state["dev_deck"] = _split(sum(state["dev_deck"]), 5, rng)
    return state


def scramble_elastium(state: Any, viewer: int | None, rng: random.Random) -> Any:
    from services.elastium.rules.board import COLOURS

    for seat in _others(state, viewer, state["players"]):
        state["hands"][seat] = dict(zip(COLOURS, _split(sum(state["hands"][seat].values()), len(COLOURS), rng)))
    # Every deck's order is hidden from everyone (a Cursed Triangle deck from its owner too).
    state["deck"] = [rng.choice(COLOURS) for _ in state["deck"]]
    state["own_decks"] = [[rng.choice(COLOURS) for _ in deck] for deck in state["own_decks"]]
    return state


def scramble_elasund(state: Any, viewer: int | None, rng: random.Random) -> Any:
    from tests.elasund.test_hidden_information import _scramble_secrets

    return _scramble_secrets(state, viewer, rng)


def scramble_elfenland(state: Any, viewer: int | None, rng: random.Random) -> Any:
    from services.elfenland.rules.board import HOME_TOWN_CARDS
    from services.elfenland.rules.components import COUNTER_KINDS, HAND_CARDS
    from services.elfenland.rules.multiset import size
    from services.elfenland.rules.state import rules_of

    for seat in _others(state, viewer, state["players"]):
        me = state["seats"][seat]
        me["hand"] = _multiset(size(me["hand"]), HAND_CARDS, rng)
        if me["home"]:
            me["home"] = rng.choice(HOME_TOWN_CARDS)
        for counter in me["counters"]:
            if counter["hidden"]:
                counter["kind"] = rng.choice(COUNTER_KINDS)
        rng.shuffle(me["counters"])
        me["pending"] = [rng.choice(COUNTER_KINDS) for _ in me["pending"]]
    state["deck"] = _multiset(size(state["deck"]), HAND_CARDS, rng)
    state["bag"] = _multiset(size(state["bag"]), COUNTER_KINDS, rng)
    if not rules_of(state).gold_economy:    # Elfenland's discard pile is face down
        state["discard"] = _multiset(size(state["discard"]), HAND_CARDS, rng)
    return state


SCRAMBLE: dict[str, Scramble] = {
    "catan": scramble_catan, "elastium": scramble_elastium,
    "elasund": scramble_elasund, "elfenland": scramble_elfenland,
}

GAMES = [
    ("catan", 3, {}, 200),
    ("elasund", 3, {}, 250),
    ("elfenland", 3, {}, 400),
    ("elfenland", 3, {"edition": "elfengold"}, 400),
    ("elfenland", 2, {"edition": "elfenroads"}, 400),
    ("elastium", 3, {"scenario": "cursed-triangle"}, 150),
    ("elastium", 2, {"scenario": "two-deities"}, 150),
]


def _text(value: Any) -> str:
    return json.dumps(value)                  # not sort_keys: key order counts too


def _permuted(move: dict[str, Any], rng: random.Random) -> list[dict[str, Any]]:
    """The move with each list argument of two or more items reversed, and shuffled."""
    twins = []
    for name, value in move.items():
        if isinstance(value, list) and len(value) > 1:
            shuffled = list(value)
            rng.shuffle(shuffled)
            twins += [{**move, name: value[::-1]}, {**move, name: shuffled}]
    return [t for t in twins if t != move]


def _assert_same_redacted(game: Game, seat: int, events: list[dict[str, Any]], twin: list[dict[str, Any]],
                          players: int) -> int:
    """Every other viewer reads the same events, wherever an event hides something from it."""
    compared = 0
    for viewer in [None, *range(players)]:
        if viewer == seat or len(events) != len(twin):
            continue
        for one, other in zip(events, twin):
            records = [served_record(game, {"seq": 1, "at": 0, "hash": "", **e}, viewer, finished=False)
                       for e in (one, other)]
            if any(r["data"] != e["data"] for r, e in zip(records, (one, other))):
                assert _text(records[0]) == _text(records[1]), (viewer, one, other)
                compared += 1
    return compared


@pytest.mark.parametrize("name,players,options,moves", GAMES,
                         ids=[f"{g[0]}-{g[2].get('edition') or g[2].get('scenario') or 'base'}" for g in GAMES])
def test_nothing_leaks_through_order_or_position(name: str, players: int, options: dict[str, Any],
                                                 moves: int) -> None:
    game = registry.plugin(name).game
    rng = random.Random(5)
    state = game.replay(game.setup(players, {**game.default_options(), **options}, random.Random(5)))
    scrambled = 0
    for step in range(moves):
        if game.result(state) is not None:
            break
        if step % 4 == 0:
            for viewer in [None, *range(players)]:
                twin = SCRAMBLE[name](game.copy(state), viewer, rng)
                assert _text(game.view(twin, viewer)) == _text(game.view(state, viewer)), (step, viewer)
                scrambled += 1
        acting = game.to_act(state)
        seat = acting[rng.randrange(len(acting))]
        move = rng.choice(game.legal_moves(state, seat))
        seed = rng.getrandbits(32)
        events = game.decide(state, seat, move, random.Random(seed))
        for twin_move in _permuted(move, rng):
            try:
                twin_events = game.decide(state, seat, twin_move, random.Random(seed))
            except IllegalMove:
                continue                      # the order mattered to the rules: another move
            _assert_same_redacted(game, seat, events, twin_events, players)
        for e in events:
            state = game.evolve(state, e)
    assert scrambled > 10
