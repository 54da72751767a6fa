"""In-process self-play benchmark (no Redis): prints one JSON line per run.

    python -m services.catan.selfplay --games 200 --players 4 [--seed 1] [--bots random,greedy]
    python -m services.catan.selfplay --versus greedy --games 100 --players 4
    python -m services.catan.selfplay --compare-catanatron --games 200

The loop is :mod:`shared.ai.selfplay`'s.  ``--compare-catanatron`` times the same random games in
catanatron (the best-known Python engine) in the same run, when it is installed
(``pip install -e '.[bench]'``; ``make bench`` does).
"""
from __future__ import annotations

import argparse
import json
import time
from functools import partial
from typing import Any

from services.catan.api import PLUGIN
from shared.ai import selfplay


run_selfplay = partial(selfplay.run_selfplay, PLUGIN)
run_versus = partial(selfplay.run_versus, PLUGIN)


def run_catanatron(games: int, players: int) -> dict[str, Any]:
    """The same random self-play in catanatron, when it is installed."""
    try:
        from catanatron import Color, Game, RandomPlayer
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


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--board", default="beginner", choices=["beginner", "variable"])
    parser.add_argument("--compare-catanatron", action="store_true",
                        help="also time catanatron random games (if importable)")


def compare(args: argparse.Namespace, ours: dict[str, Any]) -> None:
    if not args.compare_catanatron or args.versus:
        return
    theirs = run_catanatron(args.games, args.players)
    if theirs.get("available"):
        theirs["our_speedup"] = round(ours["games_per_second"] / theirs["games_per_second"], 2)
        theirs["target_speedup"] = 2.0
    print(json.dumps(theirs), flush=True)


def main(argv: list[str] | None = None) -> None:
    selfplay.main(PLUGIN, argv, description=__doc__, games=100, players=4,
                  add_arguments=add_arguments, variants=lambda args: [{"board": args.board}], after=compare)


if __name__ == "__main__":
    main()
