"""In-process self-play (no Redis): the loop a bot rollout runs, for benchmarks and bot strength.

Each ``services/<game>/selfplay.py`` is a thin command over :func:`main`, adding its own options
(a board, an edition, a scenario).  Every run prints one JSON line (``make bench`` collects them).
"""
from __future__ import annotations

import argparse
import json
import random
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from shared.game.engine import Strategy, play_fair, random_strategy
from shared.game.plugin import GamePlugin


@dataclass(frozen=True)
class GameOutcome:
    winners: list[int]     # empty when the game hit the move cap
    moves: int
    think: list[float] = field(default_factory=list)   # seconds of each search bot decision with a choice
    shares: list[float] = field(default_factory=list)  # each seat's share of the win (Game.returns); empty: unfinished

    @property
    def finished(self) -> bool:
        return bool(self.winners)


def play_one(plugin: GamePlugin, strategies: Sequence[Strategy], seed: int,
             options: dict[str, Any] | None = None, max_moves: int | None = None,
             budget_ms: int | None = None) -> GameOutcome:
    """One game: setup, then strategy + ``decide`` + ``evolve`` (in place) until the end or the cap
    (``max_moves``, the game's own ``Game.max_moves`` by default).
    Search bots think ``budget_ms`` a move (their default without it); their times are kept."""
    game = plugin.game
    max_moves = game.max_moves if max_moves is None else max_moves
    rng = random.Random(seed)
    state = game.replay(game.setup(len(strategies), {**game.default_options(), **(options or {})}, rng))
    moves = 0
    think: list[float] = []
    while (result := game.result(state)) is None and moves < max_moves:
        acting = game.to_act(state)
        seat = acting[0] if len(acting) == 1 else acting[rng.randrange(len(acting))]
        strategy = strategies[seat]
        # A bot sees what its seat may see, as on the server (the random bot needs no concealing).
        if strategy is random_strategy:
            move = strategy(game, state, seat, rng)
        else:
            move = play_fair(game, strategy, state, seat, rng, rng, budget_ms)
            report = getattr(strategy, "last_report", None)     # a search bot's (shared.play.search)
            if report is not None and report.candidates > 1:
                think.append(report.seconds)
        for e in game.decide(state, seat, move, rng):
            state = game.evolve(state, e)
        moves += 1
    return GameOutcome(list(result["winners"]) if result else [], moves, think, game.returns(state) or [])


def run_selfplay(plugin: GamePlugin, games: int, players: int, seed: int, bots: Sequence[str],
                 options: dict[str, Any] | None = None, max_moves: int | None = None) -> dict[str, Any]:
    """``games`` games with ``bots`` seated in turn; speed and wins by strategy."""
    seats = [bots[i % len(bots)] for i in range(players)]
    strategies = [plugin.strategies[name] for name in seats]
    wins: Counter[str] = Counter()
    unfinished = total_moves = 0
    start, cpu_start = time.perf_counter(), time.process_time()
    for i in range(games):
        outcome = play_one(plugin, strategies, seed * 1_000_003 + i, options, max_moves)
        total_moves += outcome.moves
        unfinished += not outcome.finished
        wins.update(seats[w] for w in outcome.winners)
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu_start
    return {"bench": f"{plugin.game.name}-selfplay", "games": games, "players": players, "bots": seats,
            "options": options or {},
            "games_per_second": round(games / elapsed, 2),
            # CPU time of this process: steadier than the wall clock on a busy machine.
            "games_per_cpu_second": round(games / max(cpu, 1e-9), 2),
            "moves_per_game": round(total_moves / max(games, 1), 1),
            "decisions_per_second": round(total_moves / elapsed),
            "wins_by_strategy": dict(wins), "unfinished": unfinished, "seconds": round(elapsed, 3)}


def run_versus(plugin: GamePlugin, strong: str, games: int, players: int, seed: int,
               options: dict[str, Any] | None = None, max_moves: int | None = None) -> dict[str, Any]:
    """One ``strong`` bot against random bots, its seat rotating; a shared win counts as a win."""
    wins = unfinished = 0
    start = time.perf_counter()
    for i in range(games):
        strong_seat = i % players
        strategies = [plugin.strategies[strong if seat == strong_seat else "random"] for seat in range(players)]
        outcome = play_one(plugin, strategies, seed * 1_000_003 + i, options, max_moves)
        unfinished += not outcome.finished
        wins += strong_seat in outcome.winners
    elapsed = time.perf_counter() - start
    return {"bench": f"{plugin.game.name}-{strong}-vs-random", "games": games, "players": players,
            "options": options or {}, "win_rate": round(wins / max(games, 1), 3), "wins": wins,
            "unfinished": unfinished, "games_per_second": round(games / elapsed, 2)}


def main(plugin: GamePlugin, argv: list[str] | None, *, description: str, games: int = 10,
         players: int = 4, max_moves: int | None = None,
         add_arguments: Callable[[argparse.ArgumentParser], None] | None = None,
         variants: Callable[[argparse.Namespace], list[dict[str, Any]]] | None = None,
         after: Callable[[argparse.Namespace, dict[str, Any]], None] | None = None) -> None:
    """The command: ``--games --players --seed --bots --versus --max-moves`` plus the game's own flags.

    ``variants(args)`` gives the option sets to run (one JSON line each); ``after`` may print more
    lines from the last result (a comparison with another engine).
    """
    game = plugin.game
    parser = argparse.ArgumentParser(description=description,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=games)
    parser.add_argument("--players", type=int, default=players,
                        choices=range(game.min_players, game.max_players + 1))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bots", default="random", help="comma-separated strategies, seated in turn")
    parser.add_argument("--versus", metavar="STRATEGY", help="one STRATEGY bot against random bots")
    parser.add_argument("--max-moves", type=int, default=game.max_moves if max_moves is None else max_moves,
                        help="a longer game counts as unfinished")
    if add_arguments:
        add_arguments(parser)
    args = parser.parse_args(argv)
    names = [args.versus] if args.versus else args.bots.split(",")
    unknown = [n for n in names if n not in plugin.strategies]
    if unknown:
        parser.error(f"unknown strategies {unknown}; known: {sorted(plugin.strategies)}")
    result: dict[str, Any] = {}
    for options in (variants(args) if variants else [{}]):
        if args.versus:
            result = run_versus(plugin, args.versus, args.games, args.players, args.seed, options, args.max_moves)
        else:
            result = run_selfplay(plugin, args.games, args.players, args.seed, names, options, args.max_moves)
        print(json.dumps(result), flush=True)
    if after:
        after(args, result)
