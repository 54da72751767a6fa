"""In-process self-play benchmark (no Redis): prints one JSON line per run.

    python -m services.catan.selfplay --games 200 --players 4 [--seed 1] [--bots random,greedy]
    python -m services.catan.selfplay --versus greedy --games 100 --players 4
    python -m services.catan.selfplay --compare-catanatron --games 200

The loop is what a bot rollout does: ``legal_moves`` + strategy + ``decide`` + ``evolve`` (in
place), with no protocol checks.  Games longer than ``--max-turns`` stop and are reported as
unfinished.
"""
from __future__ import annotations

import argparse
import json
import random
import time
from collections import Counter
from typing import Any

from shared.engine import Strategy
from services.catan.bots import STRATEGIES
from services.catan.rules import CatanGame
from services.catan.rules.events import evolve
from services.catan.rules.moves import decide
from services.catan.rules.state import OVER, to_act

GAME = CatanGame()


def play_one(strategies: list[Strategy], seed: int, options: dict[str, Any] | None = None,
             max_turns: int = 1000) -> tuple[int | None, int]:
    """Play one game; return (winning seat or None if unfinished, number of moves)."""
    rng = random.Random(seed)
    state: Any = None
    for e in GAME.setup(len(strategies), {**GAME.default_options(), **(options or {})}, rng):
        state = evolve(state, e)
    moves = 0
    while state["phase"] != OVER and state["turn"] <= max_turns:
        acting = to_act(state)
        seat = acting[0] if len(acting) == 1 else acting[rng.randrange(len(acting))]
        move = strategies[seat](GAME, state, seat, rng)
        for e in decide(state, seat, move, rng):
            evolve(state, e)
        moves += 1
    return state["winner"], moves


def run_selfplay(games: int, players: int, seed: int, bots: list[str],
                 options: dict[str, Any] | None = None) -> dict[str, Any]:
    seats = [bots[i % len(bots)] for i in range(players)]
    strategies = [STRATEGIES[name] for name in seats]
    wins: Counter[str] = Counter()
    unfinished = total_moves = 0
    start, cpu_start = time.perf_counter(), time.process_time()
    for game in range(games):
        winner, moves = play_one(strategies, seed * 1_000_003 + game, options)
        total_moves += moves
        if winner is None:
            unfinished += 1
        else:
            wins[seats[winner]] += 1
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu_start
    return {"bench": "catan-selfplay", "games": games, "players": players, "bots": seats,
            "games_per_second": round(games / elapsed, 2),
            # CPU time of this process: steadier than the wall clock on a busy machine.
            "games_per_cpu_second": round(games / max(cpu, 1e-9), 2),
            "moves_per_game": round(total_moves / games, 1),
            "decisions_per_second": round(total_moves / elapsed),
            "wins_by_strategy": dict(wins), "unfinished": unfinished,
            "seconds": round(elapsed, 3)}


def run_versus(strong: str, games: int, players: int, seed: int,
               options: dict[str, Any] | None = None) -> dict[str, Any]:
    """One ``strong`` bot against random bots, its seat rotating from game to game."""
    wins = unfinished = 0
    start = time.perf_counter()
    for game in range(games):
        strong_seat = game % players
        strategies = [STRATEGIES[strong] if seat == strong_seat else STRATEGIES["random"]
                      for seat in range(players)]
        winner, _ = play_one(strategies, seed * 1_000_003 + game, options)
        if winner is None:
            unfinished += 1
        elif winner == strong_seat:
            wins += 1
    elapsed = time.perf_counter() - start
    return {"bench": f"catan-{strong}-vs-random", "games": games, "players": players,
            "win_rate": round(wins / games, 3), "wins": wins, "unfinished": unfinished,
            "games_per_second": round(games / elapsed, 2)}


def run_catanatron(games: int, players: int) -> dict[str, Any]:
    """The same random self-play in catanatron, when it is installed."""
    try:
        from catanatron import Color, Game, RandomPlayer  # type: ignore[import-not-found]
    except ImportError:
        return {"bench": "catanatron-selfplay", "available": False,
                "detail": "catanatron is not importable in this environment"}
    colors = list(Color)[:players]
    start = time.perf_counter()
    decisions = 0
    for _ in range(games):
        game = Game([RandomPlayer(color) for color in colors])
        game.play()
        # The attribute is ``action_records`` in recent versions, ``actions`` in older ones.
        decisions += len(getattr(game.state, "action_records", None) or getattr(game.state, "actions", []))
    elapsed = time.perf_counter() - start
    return {"bench": "catanatron-selfplay", "available": True, "games": games, "players": players,
            "games_per_second": round(games / elapsed, 2),
            "moves_per_game": round(decisions / games, 1)}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--players", type=int, default=4, choices=[3, 4])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bots", default="random", help="comma-separated strategies, by seat")
    parser.add_argument("--board", default="beginner", choices=["beginner", "variable"])
    parser.add_argument("--versus", metavar="STRATEGY", help="one STRATEGY bot against random bots")
    parser.add_argument("--compare-catanatron", action="store_true",
                        help="also time catanatron random games (if importable)")
    args = parser.parse_args(argv)
    options = {"board": args.board}
    if args.versus:
        print(json.dumps(run_versus(args.versus, args.games, args.players, args.seed, options)))
        return
    bots = args.bots.split(",")
    unknown = [b for b in bots if b not in STRATEGIES]
    if unknown:
        parser.error(f"unknown strategies {unknown}; known: {sorted(STRATEGIES)}")
    ours = run_selfplay(args.games, args.players, args.seed, bots, options)
    print(json.dumps(ours))
    if args.compare_catanatron:
        theirs = run_catanatron(args.games, args.players)
        if theirs.get("available"):
            theirs["our_speedup"] = round(ours["games_per_second"] / theirs["games_per_second"], 2)
        print(json.dumps(theirs))


if __name__ == "__main__":
    main()
