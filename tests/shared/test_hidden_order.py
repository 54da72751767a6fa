"""Nothing leaks through order or position, in any title.

Three properties along random games of every title:

* a viewer's ``view`` is the same, list order and key order included, whatever the values it may
  not see: other seats' hands, home towns and face-down counters (reassigned, and reordered as
  held), the decks and bags (reassigned; their order shuffled);
* a move that makes the same choice in another order (a list argument permuted) gives every
  other viewer the same redacted events: where a masked item sits must not tell what it is;
* the same move decided while third seats hold other secrets gives a viewer the same events
  (same types, and the same redacted form of every event that hides something from it).

The game-specific tests (tests/<game>/test_hidden*, tests/elfenland/test_view_invariance.py)
check the rest of what each redacted event hides.
"""
from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from shared.game import registry
from shared.game.engine import Game, IllegalMove
from shared.log.replay import served_record

# (state, the seats whose secrets are redrawn, rng, redraw the face-down piles too) -> state
Scramble = Callable[[Any, list[int], random.Random, bool], Any]


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


def scramble_catan(state: Any, seats: list[int], rng: random.Random, piles: bool) -> Any:
    for seat in seats:
        for name in ("hands", "dev_hand", "dev_new"):
            state[name][seat] = _split(sum(state[name][seat]), 5, rng)
    if piles:
        state["dev_deck"] = _split(sum(state["dev_deck"]), 5, rng)
    return state


def scramble_elastium(state: Any, seats: list[int], rng: random.Random, piles: bool) -> Any:
    from services.elastium.rules.board import COLOURS

    for seat in seats:
        state["hands"][seat] = dict(zip(COLOURS, _split(sum(state["hands"][seat].values()), len(COLOURS), rng)))
    if piles:
        # Every deck's order is hidden from everyone (a Cursed Triangle deck from its owner too).
        state["deck"] = [rng.choice(COLOURS) for _ in state["deck"]]
        state["own_decks"] = [[rng.choice(COLOURS) for _ in deck] for deck in state["own_decks"]]
    return state


def scramble_elasund(state: Any, seats: list[int], rng: random.Random, piles: bool) -> Any:
    from services.elasund.rules.board import INFLUENCE_COLOURS
    from tests.elasund.test_hidden_information import _scramble_secrets

    if piles and len(seats) == state["players"] - 1:     # one viewer's view: its own scrambler
        viewer = next(s for s in range(state["players"]) if s not in seats)
        return _scramble_secrets(state, viewer, rng)
    if piles and len(seats) == state["players"]:
        return _scramble_secrets(state, None, rng)
    for seat in seats:                 # the colour split of a hand; its gold is public
        influence = state["hands"][seat]["influence"]
        influence.update(zip(INFLUENCE_COLOURS, _split(sum(influence.values()), len(INFLUENCE_COLOURS), rng)))
    return state


def scramble_elfenland(state: Any, seats: list[int], rng: random.Random, piles: bool) -> Any:
    from services.elfenland.rules.board import HOME_TOWN_CARDS
    from services.elfenland.rules.components import COUNTER_KINDS, HAND_CARDS
    from services.elfenland.rules.multiset import size
    from services.elfenland.rules.state import rules_of

    for seat in seats:
        me = state["seats"][seat]
        me["hand"] = _multiset(size(me["hand"]), HAND_CARDS, rng)
        if me["home"]:
            me["home"] = rng.choice(HOME_TOWN_CARDS)
        for counter in me["counters"]:
            if counter["hidden"]:
                counter["kind"] = rng.choice(COUNTER_KINDS)
        rng.shuffle(me["counters"])
        me["pending"] = [rng.choice(COUNTER_KINDS) for _ in me["pending"]]
    if not piles:
        return state
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


def _same_for(game: Game, viewer: int | None, events: list[dict[str, Any]], twin: list[dict[str, Any]]) -> int:
    """``viewer`` reads the same thing wherever an event hides something from it.

    Events that hide nothing from it may differ: a public outcome may tell a secret, as the
    rules mean it to (a monopoly names what each seat gave up).
    """
    compared = 0
    for one, other in zip(events, twin):
        records = [served_record(game, {"seq": 1, "at": 0, "hash": "", **e}, viewer, finished=False)
                   for e in (one, other)]
        if any(r["data"] != e["data"] for r, e in zip(records, (one, other))):
            assert _text(records[0]) == _text(records[1]), (viewer, one, other)
            compared += 1
    return compared


@pytest.mark.parametrize("name,players,options,moves", GAMES,
                         ids=[f"{g[0]}-{g[2].get('edition') or g[2].get('scenario') or 'base'}" for g in GAMES])
@pytest.mark.slow
def test_nothing_leaks_through_order_or_position(name: str, players: int, options: dict[str, Any],
                                                 moves: int) -> None:
    game = registry.plugin(name).game
    scramble = SCRAMBLE[name]
    rng = random.Random(5)
    state = game.replay(game.setup(players, {**game.default_options(), **options}, random.Random(5)))
    views = redrawn = 0
    for step in range(moves):
        if game.result(state) is not None:
            break
        viewers = [None, *range(players)]
        if step % 4 == 0:
            for viewer in viewers:
                twin = scramble(game.copy(state), [s for s in range(players) if s != viewer], rng, True)
                assert _text(game.view(twin, viewer)) == _text(game.view(state, viewer)), (step, viewer)
                views += 1
        acting = game.to_act(state)
        seat = acting[rng.randrange(len(acting))]
        move = rng.choice(game.legal_moves(state, seat))
        seed = rng.getrandbits(32)
        events = game.decide(state, seat, move, random.Random(seed))
        # The same choice made in another order.
        for twin_move in _permuted(move, rng):
            try:
                twin_events = game.decide(state, seat, twin_move, random.Random(seed))
            except IllegalMove:
                continue                      # the order mattered to the rules: another move
            if len(twin_events) == len(events):
                for viewer in viewers:
                    if viewer != seat:
                        _same_for(game, viewer, events, twin_events)
        # The same move while the other seats hold other secrets: the viewer cannot tell the
        # difference.  Third seats' secrets never make it illegal; the mover's may (then skip).
        for viewer in viewers:
            if viewer == seat:
                continue
            for keep_mover in (True, False):
                secret = [s for s in range(players) if s != viewer and (s != seat or not keep_mover)]
                if not secret:
                    continue
                twin_state = scramble(game.copy(state), secret, rng, False)
                try:
                    twin_events = game.decide(twin_state, seat, move, random.Random(seed))
                except IllegalMove:
                    assert not keep_mover, f"what seats {secret} hold made {move} illegal"
                    continue
                assert [e["type"] for e in twin_events] == [e["type"] for e in events], \
                    (f"seat {viewer} can tell what seats {secret} hold from {move}", events, twin_events)
                redrawn += _same_for(game, viewer, events, twin_events)
        for e in events:
            state = game.evolve(state, e)
    assert views > 10
