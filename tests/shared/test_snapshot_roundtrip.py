"""A state met through a snapshot decides exactly as the state folded from the log.

Snapshots are canonical JSON with sorted keys, so a state loaded from one lists every dict in
another order than the fold made.  Whatever a process meets first (a restart, a worker that
never saw the game, an evicted cache), the rules must decide the same events from the same
seed, and answer ``view``, ``legal_moves`` and ``to_act`` the same: otherwise an honest game
fails its own audit.  Checked for every title, every released engine version and every option
set that changes what a state holds, at sampled positions of random games.
"""
from __future__ import annotations

import json
import random
from typing import Any

import pytest

from shared.game import registry
from shared.game.engine import Game, IllegalMove
from shared.log.eventstore import canonical
from tests.shared.variants import VARIANTS

# Option sets beyond tests/shared/variants.py's that change what a decision reads.
EXTRA: dict[str, list[tuple[int, dict[str, Any]]]] = {
    "catan": [(3, {"board": "variable", "combined_trade_build": True})],
    "elfenland": [(4, {"edition": "elfengold", "wizards": True, "home_towns": True, "lake_rules": "german"})],
}

GAMES_PER_VARIANT = 2
MOVES_PER_GAME = 400
SAMPLE_EVERY = 7            # positions compared: every 7th, and every position where the deck is drawn
OTHER_MOVES = 3             # legal moves decided at a sampled position besides the one played


def _cases() -> list[tuple[str, str, int, dict[str, Any]]]:
    out = []
    for name in registry.available():
        plugin = registry.plugin(name)
        variants = VARIANTS[name] + EXTRA.get(name, [])
        for version in plugin.engine_versions:
            known = plugin.rules(version).default_options()       # an option a version predates is left out
            out.extend((name, version, players, options) for players, options in variants if set(options) <= set(known))
    return out


CASES = _cases()


def _case_id(case: tuple[str, str, int, dict[str, Any]]) -> str:
    name, version, players, options = case
    return "-".join([name, f"v{version}", f"{players}p", *(f"{k}={v}" for k, v in options.items())])


def _round_trip(game: Game, state: Any) -> Any:
    """What a process gets from a snapshot: the dump as canonical JSON (sorted keys), loaded."""
    return game.load(json.loads(canonical(game.dump(state))))


def _reversed_keys(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _reversed_keys(value[key]) for key in reversed(list(value))}
    if isinstance(value, list):
        return [_reversed_keys(item) for item in value]
    return value


def _reversed_round_trip(game: Game, state: Any) -> Any:
    """A harsher reordering than the snapshot's: every dict with two keys or more lists them in
    another order than the fold did (sorted keys may happen to be the fold's order)."""
    return game.load(_reversed_keys(json.loads(json.dumps(game.dump(state)))))


def _decided(game: Game, state: Any, seat: int, move: dict[str, Any], seed: int) -> str:
    try:
        return canonical(game.decide(state, seat, move, random.Random(seed)))
    except IllegalMove as exc:
        return f"refused: {exc.reason}"


def _answers(game: Game, state: Any, players: int) -> str:
    return canonical({"to_act": game.to_act(state), "result": game.result(state),
                      "views": [game.view(state, seat) for seat in [None, *range(players)]],
                      "legal": [game.legal_moves(state, seat) for seat in range(players)]})


def _compare(game: Game, state: Any, players: int, rng: random.Random, where: str) -> None:
    for how, loaded in (("a snapshot round trip", _round_trip(game, state)),
                        ("reversing every dict's order", _reversed_round_trip(game, state))):
        assert _answers(game, loaded, players) == _answers(game, state, players), f"{where}: answers differ after {how}"
        for seat in game.to_act(state):
            legal = game.legal_moves(state, seat)
            for move in rng.sample(legal, min(OTHER_MOVES, len(legal))):
                seed = rng.getrandbits(63)
                assert _decided(game, loaded, seat, move, seed) == _decided(game, state, seat, move, seed), \
                    f"{where}: seat {seat} {move} decides differently after {how}"


@pytest.mark.parametrize("case", CASES, ids=[_case_id(c) for c in CASES])
def test_snapshot_round_trip_decides_as_the_fold(case: tuple[str, str, int, dict[str, Any]]) -> None:
    name, version, players, options = case
    game = registry.plugin(name).rules(version)
    for number in range(GAMES_PER_VARIANT):
        rng = random.Random(f"{name}:{version}:{number}:{canonical(options)}")
        opts = {**game.default_options(), **options}
        events = game.setup(players, opts, random.Random(rng.getrandbits(63)))
        # Folded from JSON as the platform reads its log (insertion order kept, as Redis holds it).
        state = game.replay(json.loads(json.dumps(events)))
        for step in range(MOVES_PER_GAME):
            if game.result(state) is not None:
                break
            if step % SAMPLE_EVERY == 0:
                _compare(game, state, players, rng, f"{name} v{version} game {number} move {step}")
            seat = rng.choice(game.to_act(state))
            move = rng.choice(game.legal_moves(state, seat))
            for e in json.loads(json.dumps(game.decide(state, seat, move, random.Random(rng.getrandbits(63))))):
                state = game.evolve(state, e)
