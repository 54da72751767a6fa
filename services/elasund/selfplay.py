"""In-process self-play benchmark (no Redis): prints one JSON line per run.

    python -m services.elasund.selfplay --games 20 --players 4 [--seed 1] [--bots random,heuristic]
    python -m services.elasund.selfplay --versus heuristic --games 40 --players 4

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

from services.elasund.bots import STRATEGIES
from services.elasund.rules.events import evolve
from services.elasund.rules.game import GAME
from services.elasund.rules.moves import decide
from services.elasund.rules.state import to_act
from shared.engine import Strategy


def play_one(strategies: list[Strategy], seed: int, options: dict[str, Any] | None = None,
             max_turns: int = 400) -> tuple[int | None, int]:
    """Play one game; return (winning seat or None if unfinished, number of moves)."""
    rng = random.Random(seed)
    state: Any = None
    for e in GAME.setup(len(strategies), {**GAME.default_options(), **(options or {})}, rng):
        state = evolve(state, e)
    moves = 0
    while state["winner"] is None and state["turn"] <= max_turns:
        acting = to_act(state)
        seat = acting[0] if len(acting) == 1 else acting[rng.randrange(len(acting))]
        move = strategies[seat](GAME, state, seat, rng)
        for e in decide(state, seat, move, rng):
            evolve(state, e)
        moves += 1
    return state["winner"], moves


def run_selfplay(games: int, players: int, seed: int, bots: list[str],
                 options: dict[str, Any] | None = None, max_turns: int = 400) -> dict[str, Any]:
    seats = [bots[i % len(bots)] for i in range(players)]
    strategies = [STRATEGIES[name] for name in seats]
    wins: Counter[str] = Counter()
    unfinished = total_moves = 0
    start = time.perf_counter()
    for game in range(games):
        winner, moves = play_one(strategies, seed * 1_000_003 + game, options, max_turns)
        total_moves += moves
        if winner is None:
            unfinished += 1
        else:
            wins[seats[winner]] += 1
    elapsed = time.perf_counter() - start
    return {"bench": "elasund-selfplay", "games": games, "players": players, "bots": seats,
            "games_per_second": round(games / elapsed, 2),
            "moves_per_game": round(total_moves / games, 1),
            "decisions_per_second": round(total_moves / elapsed),
            "wins_by_strategy": dict(wins), "unfinished": unfinished, "seconds": round(elapsed, 3)}


def run_versus(strong: str, games: int, players: int, seed: int,
               options: dict[str, Any] | None = None, max_turns: int = 400) -> dict[str, Any]:
    """One ``strong`` bot against random bots, its seat rotating from game to game."""
    wins = unfinished = 0
    start = time.perf_counter()
    for game in range(games):
        strong_seat = game % players
        strategies = [STRATEGIES[strong] if seat == strong_seat else STRATEGIES["random"]
                      for seat in range(players)]
        winner, _ = play_one(strategies, seed * 1_000_003 + game, options, max_turns)
        if winner is None:
            unfinished += 1
        elif winner == strong_seat:
            wins += 1
    elapsed = time.perf_counter() - start
    return {"bench": f"elasund-{strong}-vs-random", "games": games, "players": players,
            "win_rate": round(wins / games, 3), "wins": wins, "unfinished": unfinished,
            "seconds": round(elapsed, 3)}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bots", default="random")
    parser.add_argument("--versus", default=None, help="seat one such bot against random bots")
    parser.add_argument("--max-turns", type=int, default=400)
    args = parser.parse_args(argv)
    if args.versus:
        result = run_versus(args.versus, args.games, args.players, args.seed, max_turns=args.max_turns)
    else:
        result = run_selfplay(args.games, args.players, args.seed, args.bots.split(","), max_turns=args.max_turns)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
