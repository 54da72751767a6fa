"""Property: random games of every title never show a seat what it may not see.

A seat's private information is whatever its own view shows that another seat's view of the
same state does not (its hand, its secret counter, ...).  At sampled moments of random games:

* no other seat's view and no spectator's view contains any of it;
* the spectator sees no more of any event than any seat does (whatever ``redact`` hides from
  some seat is hidden from spectators too);
* seats see events exactly as they are only where no seat needs protecting from them.
"""
from __future__ import annotations

import json
import random
from typing import Any

import pytest

from shared.game import registry
from shared.game.engine import random_strategy

SAMPLES_PER_GAME = 12


def canon(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def leaves(value: Any, path: tuple[Any, ...] = ()) -> dict[tuple[Any, ...], Any]:
    """Every path -> sub-value (dicts and lists included, so whole hands are compared too)."""
    out = {path: value}
    if isinstance(value, dict):
        for k, v in value.items():
            out.update(leaves(v, path + (k,)))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out.update(leaves(v, path + (i,)))
    return out


def substantial(value: Any) -> bool:
    """Worth searching for: a structure with real content.  A lone 0 matches anything, and an
    all-zero hand says only "empty", which the public counts say too."""
    if not isinstance(value, (dict, list)) or len(canon(value)) < 12:
        return False
    return any(v not in (0, False, None, "", [], {}) for v in leaves(value).values()
               if not isinstance(v, (dict, list)) or not v)


def private_paths(views: dict[Any, dict[str, Any]], owner: int) -> dict[tuple[Any, ...], Any]:
    """What ``owner``'s view shows that no other viewer's view shows at the same place."""
    flat = {seat: {path: canon(v) for path, v in leaves(view).items()} for seat, view in views.items()}
    return {path: value for path, value in leaves(views[owner]).items()
            if all(flat[v].get(path) != flat[owner][path] for v in views if v != owner)}


def without(view: Any, paths: set[tuple[Any, ...]], here: tuple[Any, ...] = ()) -> Any:
    """``view`` with the subtrees at ``paths`` blanked: a viewer's own secrets may match another's."""
    if here in paths:
        return "<own>"
    if isinstance(view, dict):
        return {k: without(v, paths, here + (k,)) for k, v in view.items()}
    if isinstance(view, list):
        return [without(v, paths, here + (i,)) for i, v in enumerate(view)]
    return view


def check_state(game: Any, state: Any, players: int) -> None:
    views = {seat: game.view(state, seat) for seat in [None, *range(players)]}
    private = {seat: private_paths(views, seat) for seat in range(players)}
    texts = {seat: canon(without(view, set(private.get(seat, {})))) for seat, view in views.items()}
    for owner in range(players):
        for secret in private[owner].values():
            if not substantial(secret):
                continue
            needle = canon(secret)
            for viewer, text in texts.items():
                if viewer != owner:
                    assert needle not in text, f"{game.name}: seat {owner}'s {needle[:80]} shown to {viewer}"


def check_event(game: Any, event: dict[str, Any], players: int) -> None:
    original = leaves(event["data"])
    spectator = leaves(game.redact(event, None)["data"])
    for seat in range(players):
        seen = leaves(game.redact(event, seat)["data"])
        for path, value in original.items():
            hidden_from_seat = canon(seen.get(path, "<absent>")) != canon(value)
            if hidden_from_seat and path in spectator:
                assert canon(spectator[path]) != canon(value), \
                    f"{game.name}: {event['type']} at {path} is hidden from seat {seat} but shown to spectators"


@pytest.mark.parametrize("name", registry.available())
@pytest.mark.slow
def test_random_games_never_leak(name: str) -> None:
    plugin = registry.plugin(name)
    game = plugin.game
    for players in sorted({game.min_players, game.max_players}):
        rng = random.Random(players)
        events = game.setup(players, game.default_options(), random.Random(rng.getrandbits(32)))
        state = game.replay(events)
        for e in events:
            check_event(game, e, players)
        check_state(game, state, players)
        checks = 0
        for step in range(3000):
            if game.result(state) is not None or checks >= SAMPLES_PER_GAME:
                break
            seat = rng.choice(game.to_act(state))
            move = random_strategy(game, state, seat, rng)
            new = game.decide(state, seat, move, random.Random(rng.getrandbits(32)))
            for e in new:
                state = game.evolve(state, e)
                check_event(game, e, players)
            if step % 25 == 0:
                check_state(game, state, players)
                checks += 1


class _LeakyGame:
    """Seats hold hands; the spectator view wrongly lists every hand."""

    name = "leaky"
    hands = [{"gold": 3, "wood": 1}, {"gold": 0, "wood": 5}]

    def view(self, state: Any, seat: int | None) -> dict[str, Any]:
        return {"mine": self.hands[seat] if seat is not None else None,
                "counts": [sum(h.values()) for h in self.hands],
                "debug": self.hands if seat is None else None}

    def redact(self, event: dict[str, Any], seat: int | None) -> dict[str, Any]:
        hidden = {**event["data"], "card": None}
        return {"type": event["type"], "data": event["data"] if seat == 0 else hidden}


def test_the_property_catches_a_leak() -> None:
    with pytest.raises(AssertionError, match="shown to None"):
        check_state(_LeakyGame(), None, 2)
    # A drawn card hidden from seat 1 but left visible to spectators.
    leaky = _LeakyGame()
    leaky.redact = lambda e, seat: e if seat in (0, None) else {"type": e["type"], "data": {**e["data"], "card": None}}
    with pytest.raises(AssertionError, match="shown to spectators"):
        check_event(leaky, {"type": "drawn", "data": {"seat": 0, "card": "knight"}}, 2)
