"""In-process self-play benchmark (no Redis): one JSON line per run.

    python -m services.elastium.selfplay --games 20 --players 3 --bots random,greedy
    python -m services.elastium.selfplay --versus greedy --scenario volcano
    python -m services.elastium.selfplay --versus greedy --all-scenarios
"""
from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any

from services.elastium.bots import STRATEGIES
from services.elastium.rules.board import SCENARIOS
from services.elastium.rules.game import Elastium
from shared.engine import Strategy

GAME = Elastium()
MOVE_CAP = 3000      # a game still running after this many moves is reported unfinished


def play_game(strategies: list[Strategy], scenario: str, seed: int) -> tuple[dict[str, Any] | None, int]:
    """Play one game; return its result (None if unfinished) and the number of moves."""
    rng = random.Random(seed)
    state = GAME.replay(GAME.setup(len(strategies), {"scenario": scenario}, random.Random(rng.getrandbits(63))))
    moves = 0
    while GAME.result(state) is None and moves < MOVE_CAP:
        seat = GAME.to_act(state)[0]
        move = strategies[seat](GAME, state, seat, random.Random(rng.getrandbits(63)))
        for e in GAME.decide(state, seat, move, random.Random(rng.getrandbits(63))):
            state = GAME.evolve(state, e)
        moves += 1
    return GAME.result(state), moves


def selfplay(games: int, players: int, bots: list[str], scenario: str, seed: int) -> dict[str, Any]:
    wins = {name: 0 for name in bots}
    unfinished = 0
    total_moves = 0
    start = time.perf_counter()
    for g in range(games):
        names = [bots[(g + seat) % len(bots)] for seat in range(players)]
        result, moves = play_game([STRATEGIES[n] for n in names], scenario, seed + g)
        total_moves += moves
        if result is None:
            unfinished += 1
            continue
        for seat in result["winners"]:
            wins[names[seat]] += 1
    elapsed = time.perf_counter() - start
    return {"bench": "elastium-selfplay", "scenario": scenario, "games": games, "players": players,
            "games_per_second": round(games / elapsed, 2), "moves_per_game": round(total_moves / games, 1),
            "wins_by_strategy": wins, "unfinished": unfinished}


def versus(strong: str, games: int, players: int, scenario: str, seed: int) -> dict[str, Any]:
    """One ``strong`` bot against random bots, its seat rotating; shared wins count as wins."""
    wins = unfinished = 0
    start = time.perf_counter()
    for g in range(games):
        seat = g % players
        strategies = [STRATEGIES[strong] if s == seat else STRATEGIES["random"] for s in range(players)]
        result, _ = play_game(strategies, scenario, seed + g)
        if result is None:
            unfinished += 1
        elif seat in result["winners"]:
            wins += 1
    return {"bench": f"elastium-{strong}-vs-random", "scenario": scenario, "players": players,
            "games": games, "win_rate": round(wins / games, 3), "unfinished": unfinished,
            "seconds": round(time.perf_counter() - start, 2)}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--players", type=int, default=2, choices=[2, 3, 4])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--bots", default="random", help="comma-separated strategies, seated in turn")
    parser.add_argument("--scenario", default="jungle-temples", choices=SCENARIOS)
    parser.add_argument("--all-scenarios", action="store_true", help="one line per scenario")
    parser.add_argument("--versus", metavar="STRATEGY", help="that bot against random bots: its win rate")
    args = parser.parse_args(argv)
    bots = args.bots.split(",")
    for name in [*bots, *([args.versus] if args.versus else [])]:
        if name not in STRATEGIES:
            parser.error(f"unknown strategy {name!r}; known: {', '.join(STRATEGIES)}")
    for scenario in (SCENARIOS if args.all_scenarios else [args.scenario]):
        if args.versus:
            line = versus(args.versus, args.games, args.players, scenario, args.seed)
        else:
            line = selfplay(args.games, args.players, bots, scenario, args.seed)
        print(json.dumps(line), flush=True)


if __name__ == "__main__":
    main()
