"""No view depends on what the viewer may not know.

Along random games of every edition, another seat's secrets (hand contents, home town, hidden
and pending counter kinds) and the face-down piles (deck, bag, Elfenland's discard pile) are
changed while keeping their sizes; every other viewer's view, and the spectator's, must not
change.  Redacted private events must likewise not depend on the secret they carry.
"""
from __future__ import annotations

# Positions: random games.  _perturb alone writes into a state, a copy of one, on purpose: it
# redraws the secrets a viewer must not see, and the view must not change.

import copy
import json
import random

import pytest

from services.elfenland.rules.board import HOME_TOWN_CARDS
from services.elfenland.rules.components import TRANSPORTS
from services.elfenland.rules.state import rules_of

from tests.elfenland.positions import GAME, new_game


def _other_multiset(items: dict[str, int], kinds: tuple[str, ...], rng: random.Random) -> dict[str, int]:
    changed: dict[str, int] = {}
    for _ in range(sum(items.values())):
        kind = rng.choice(kinds)
        changed[kind] = changed.get(kind, 0) + 1
    return changed


def _perturb(state: dict, seat: int, rng: random.Random) -> dict:
    twin = copy.deepcopy(state)
    me = twin["seats"][seat]
    me["hand"] = _other_multiset(me["hand"], ("unicorn", "raft", "wizard"), rng)
    if me["home"]:
        me["home"] = rng.choice([t for t in HOME_TOWN_CARDS if t != me["home"]])
    for counter in me["counters"]:
        if counter["hidden"]:
            counter["kind"] = rng.choice([k for k in ("gold", "exchange", *TRANSPORTS) if k != counter["kind"]])
    # The order they are held in is no business of the others either: where a masked counter sat
    # among the visible ones told whether its kind sorted before or after theirs.
    rng.shuffle(me["counters"])
    me["pending"] = [rng.choice(("gold", "sea_monster")) for _ in me["pending"]]
    twin["deck"] = _other_multiset(twin["deck"], ("dragon", "elfcycle"), rng)
    twin["bag"] = _other_multiset(twin["bag"], ("dragon", "double"), rng)
    if not rules_of(twin).gold_economy:
        twin["discard"] = _other_multiset(twin["discard"], ("giant_pig", "troll_wagon"), rng)
    return twin


def _canon(value: object) -> str:
    return json.dumps(value, sort_keys=True)


@pytest.mark.parametrize("players,options,seed", [
    (3, {"edition": "elfenland"}, 11),
    (3, {"edition": "elfengold", "wizards": True}, 12),
    (2, {"edition": "elfenroads"}, 13),
])
def test_views_do_not_depend_on_hidden_information(players: int, options: dict, seed: int) -> None:
    state, rng = new_game(players, seed=seed, **options), random.Random(seed)
    step = 0
    while GAME.result(state) is None:
        if step % 9 == 0:
            for owner in range(players):
                twin = _perturb(state, owner, rng)
                for viewer in [None, *(s for s in range(players) if s != owner)]:
                    assert _canon(GAME.view(state, viewer)) == _canon(GAME.view(twin, viewer)), (owner, viewer, state["phase"])
        acting = GAME.to_act(state)
        seat = acting[rng.randrange(len(acting))]
        events = GAME.decide(state, seat, rng.choice(GAME.legal_moves(state, seat)), random.Random(step))
        for e in events:
            for viewer in [None, *range(players)]:
                seen = GAME.redact(e, viewer)
                if e["data"].get("seat") not in (None, viewer) and e["type"] in (
                        "cards_dealt", "card_drawn", "secret_counter_drawn", "counters_drawn",
                        "home_town_dealt", "cards_kept"):
                    for field in ("cards", "card", "counter", "counters", "town", "kept", "discarded"):
                        if field in seen["data"]:
                            value = seen["data"][field]
                            assert value is None or value == [None] * len(value), (e, viewer)
                if e["type"] == "counters_kept" and e["data"]["seat"] != viewer:
                    hidden = [c for c in seen["data"]["kept"] + seen["data"]["discarded"] if c["hidden"]]
                    assert all(c["kind"] is None for c in hidden)
                    # The same choice in another order, or other hidden kinds, reads the same.
                    for field in ("kept", "discarded"):
                        twin = [dict(c, kind="gold" if c["hidden"] else c["kind"]) for c in e["data"][field]]
                        rng.shuffle(twin)
                        other = GAME.redact({**e, "data": {**e["data"], field: twin}}, viewer)
                        assert other["data"][field] == seen["data"][field], (e, viewer)
            state = GAME.evolve(state, e)
        step += 1
    # Once over, the result shows the home towns (the platform then serves events unredacted).
    assert GAME.result(state)["home_towns"] == [s["home"] for s in state["seats"]]
