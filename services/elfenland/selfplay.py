"""In-process self-play benchmark (no Redis): prints one JSON line per run.

    python -m services.elfenland.selfplay --games 20 --players 4 [--seed 1] [--bots random,planner]
    python -m services.elfenland.selfplay --versus planner --games 30 --players 4
    python -m services.elfenland.selfplay --edition elfengold --wizards --games 10

The loop is what a bot rollout does: ``legal_moves`` + strategy + ``decide`` + ``evolve`` (in
place), with no protocol checks.  Games end by themselves (4 or 6 rounds), so none is unfinished.
"""
from __future__ import annotations

import argparse
import json
import random
import time
from collections import Counter
from typing import Any

from shared.engine import Strategy

from services.elfenland.bots import STRATEGIES
from services.elfenland.rules import ElfenlandGame

GAME = ElfenlandGame()


def play_one(strategies: list[Strategy], seed: int, options: dict[str, Any]) -> tuple[list[int], int]:
    """Play one game; return (winning seats, number of moves)."""
    rng = random.Random(seed)
    state: Any = GAME.replay(GAME.setup(len(strategies), {**GAME.default_options(), **options}, rng))
    moves = 0
    while GAME.result(state) is None:
        acting = GAME.to_act(state)
        seat = acting[rng.randrange(len(acting))]
        move = strategies[seat](GAME, state, seat, rng)
        for e in GAME.decide(state, seat, move, rng):
            state = GAME.evolve(state, e)
        moves += 1
    return GAME.result(state)["winners"], moves


def run_selfplay(games: int, players: int, seed: int, bots: list[str], options: dict[str, Any]) -> dict[str, Any]:
    seats = [bots[i % len(bots)] for i in range(players)]
    strategies = [STRATEGIES[name] for name in seats]
    wins: Counter[str] = Counter()
    total_moves = 0
    start = time.perf_counter()
    for game in range(games):
        winners, moves = play_one(strategies, seed * 1_000_003 + game, options)
        total_moves += moves
        for seat in winners:               # shared wins count for each winner
            wins[seats[seat]] += 1
    elapsed = time.perf_counter() - start
    return {"bench": "elfenland-selfplay", "games": games, "players": players, "bots": seats,
            "options": options, "games_per_second": round(games / elapsed, 2),
            "moves_per_game": round(total_moves / games, 1),
            "decisions_per_second": round(total_moves / elapsed),
            "wins_by_strategy": dict(wins), "seconds": round(elapsed, 3)}


def run_versus(strong: str, games: int, players: int, seed: int, options: dict[str, Any]) -> dict[str, Any]:
    """One ``strong`` bot against random bots, its seat rotating from game to game."""
    wins = 0
    start = time.perf_counter()
    for game in range(games):
        strong_seat = game % players
        strategies = [STRATEGIES[strong] if seat == strong_seat else STRATEGIES["random"]
                      for seat in range(players)]
        winners, _ = play_one(strategies, seed * 1_000_003 + game, options)
        wins += strong_seat in winners
    elapsed = time.perf_counter() - start
    return {"bench": f"elfenland-{strong}-vs-random", "games": games, "players": players,
            "options": options, "win_rate": round(wins / games, 3), "wins": wins,
            "games_per_second": round(games / elapsed, 2)}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", type=int, default=4, choices=range(2, 7))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bots", default="random", help="comma-separated strategies, by seat")
    parser.add_argument("--versus", metavar="STRATEGY", help="one STRATEGY bot against random bots")
    parser.add_argument("--edition", default="elfenland", choices=["elfenland", "elfengold", "elfenroads"])
    parser.add_argument("--lake-rules", default="author", choices=["author", "german"])
    parser.add_argument("--caravan-cards", type=int, default=3, choices=[3, 5])
    parser.add_argument("--no-home-towns", action="store_true")
    parser.add_argument("--wizards", action="store_true")
    parser.add_argument("--random-gold-values", action="store_true")
    args = parser.parse_args(argv)
    options = {"edition": args.edition, "lake_rules": args.lake_rules, "caravan_cards": args.caravan_cards,
               "home_towns": not args.no_home_towns, "wizards": args.wizards,
               "random_gold_values": args.random_gold_values}
    if args.versus:
        report = run_versus(args.versus, args.games, args.players, args.seed, options)
    else:
        report = run_selfplay(args.games, args.players, args.seed, args.bots.split(","), options)
    print(json.dumps(report))


if __name__ == "__main__":
    main()
