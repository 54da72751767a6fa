"""The bot ladder (``make bench``): how strong each game's bots are, in-process, no Redis.

For each game, three series of 3-player games, the measured bot's seat rotating:

* ``<rule-of-thumb> vs 2 random``: where ``random`` stands (Elo's lower anchor);
* ``expert vs 2 <rule-of-thumb>``: the claim (goal: the 95% interval's lower bound above 1/3,
  and at least 60% for Catan);
* ``expert vs 2 expert``: the mirror match, the control: the rotating expert must sit near 1/3
  (a seat or an rng bias would show here).

Each series prints one JSON line: games, wins (a shared win counts as its share), the win rate
with its Wilson 95% interval, the Elo gap it implies (shared.ai.stats.elo_gap), and the expert's time
per searched decision (p50/p99).  A last line per game gives every bot's Elo with the
rule-of-thumb bot at 1500.  Games run in worker processes, one per core.

    python -m shared.ai.ladder --games 120 --mirror-games 24 --budget-ms 200 [--only catan]
"""
from __future__ import annotations

import argparse
import json
import multiprocessing
import multiprocessing.pool
import os
import signal
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from shared.game import registry
from shared.ai.selfplay import play_one
from shared.ai.stats import elo_gap, wilson_interval

PLAYERS = 3
ANCHOR_ELO = 1500          # the rule-of-thumb bot's rating


@dataclass(frozen=True)
class Table:
    game: str
    seats: tuple[str, ...]         # a bot name per seat
    focus: int                     # the seat whose results the series counts
    seed: int
    budget_ms: int
    options: dict[str, Any]


def play_table(table: Table) -> dict[str, Any]:
    """One game (shared.ai.selfplay's loop); the focus seat's share of the win and the search times
    of every expert seat."""
    plugin = registry.plugin(table.game)
    outcome = play_one(plugin, [plugin.strategies[name] for name in table.seats], table.seed, table.options,
                       budget_ms=table.budget_ms)
    share = outcome.shares[table.focus] if outcome.shares else 0.0
    return {"share": share, "finished": outcome.finished, "moves": outcome.moves, "think": outcome.think}


def run_series(game_name: str, focus_bot: str, field_bot: str, games: int, seed: int, budget_ms: int,
               pool: Any) -> dict[str, Any]:
    """``games`` games of ``focus_bot`` against two ``field_bot``s, its seat rotating."""
    variants = registry.plugin(game_name).bench_variants or [{}]      # Elastium: its scenarios in turn
    tables = [Table(game_name, tuple(focus_bot if s == i % PLAYERS else field_bot for s in range(PLAYERS)),
                    i % PLAYERS, seed * 1_000_003 + i, budget_ms, variants[i % len(variants)])
              for i in range(games)]
    started = time.perf_counter()
    outcomes = list(pool.imap(play_table, tables))
    wins = sum(o["share"] for o in outcomes)
    low, high = wilson_interval(wins, games)
    think = sorted(t for o in outcomes for t in o["think"])
    figure: dict[str, Any] = {
        "bench": f"{game_name}-ladder", "bot": focus_bot, "against": f"2x {field_bot}", "players": PLAYERS,
        "games": games, "wins": round(wins, 2), "win_rate": round(wins / max(games, 1), 3),
        "interval_95": [round(low, 3), round(high, 3)], "fair_share": round(1 / PLAYERS, 3),
        "elo_gap": round(elo_gap(wins / max(games, 1), PLAYERS - 1)),
        "unfinished": sum(not o["finished"] for o in outcomes),
        "moves_per_game": round(sum(o["moves"] for o in outcomes) / max(games, 1), 1),
        "seconds": round(time.perf_counter() - started, 1),
    }
    if think:
        figure.update(budget_ms=budget_ms, searched_decisions=len(think),
                      think_p50_ms=round(think[len(think) // 2] * 1000, 1),
                      think_p99_ms=round(think[min(len(think) - 1, int(0.99 * len(think)))] * 1000, 1))
    return figure


def ladder(game_name: str, games: int, mirror_games: int, seed: int, budget_ms: int,
           mirror_budget_ms: int, pool: Any) -> Iterator[dict[str, Any]]:
    """The game's series, each as soon as it is played (the whole ladder takes over an hour), then its Elo line."""
    plugin = registry.plugin(game_name)
    simple = plugin.rule_of_thumb_bot()
    base = run_series(game_name, simple, "random", games, seed, budget_ms, pool)
    yield base
    expert = run_series(game_name, "expert", simple, games, seed + 1, budget_ms, pool)
    yield expert
    if mirror_games:
        yield run_series(game_name, "expert", "expert", mirror_games, seed + 2, mirror_budget_ms, pool)
    goal = plugin.expert_goal_win_rate
    yield {
        "bench": f"{game_name}-elo", "anchor": f"{simple} = {ANCHOR_ELO}",
        "elo": {"random": ANCHOR_ELO - base["elo_gap"], simple: ANCHOR_ELO,
                "expert": ANCHOR_ELO + expert["elo_gap"]},
        "expert_lower_bound_above_fair_share": expert["interval_95"][0] > 1 / PLAYERS,
        **({"expert_goal_win_rate": goal, "expert_goal_met": expert["win_rate"] >= goal} if goal is not None else {}),
    }


def _default_signals() -> None:
    """A forked worker inherits its parent's signal handlers: an RQ worker run in the same process
    (as the tests do) leaves its own, which turn the SIGTERM of ``Pool.terminate()`` into a warm
    shutdown that never ends.  The pool's workers stop at once on either signal."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def worker_pool(processes: int) -> multiprocessing.pool.Pool:
    """The pool the ladder plays its tables on, its workers ending when it is terminated."""
    return multiprocessing.get_context("fork").Pool(processes, initializer=_default_signals)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=120, help="games per series (default 120)")
    parser.add_argument("--mirror-games", type=int, default=24, help="games of the mirror match (0: none)")
    parser.add_argument("--budget-ms", type=int, default=200, help="the expert's time per move")
    parser.add_argument("--mirror-budget-ms", type=int, default=None,
                        help="the experts' time per move in the mirror match (default: --budget-ms)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", action="append", choices=registry.available())
    parser.add_argument("--processes", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args(argv)
    with worker_pool(args.processes) as pool:
        for game_name in args.only or registry.available():
            for figure in ladder(game_name, args.games, args.mirror_games, args.seed, args.budget_ms,
                                 args.mirror_budget_ms or args.budget_ms, pool):
                print(json.dumps(figure), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
