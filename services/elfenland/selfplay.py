"""In-process self-play benchmark (no Redis): prints one JSON line per run.

    python -m services.elfenland.selfplay --games 20 --players 4 [--seed 1] [--bots random,planner]
    python -m services.elfenland.selfplay --versus planner --games 30 --players 4
    python -m services.elfenland.selfplay --edition elfengold --wizards --games 10

The loop is :mod:`shared.ai.selfplay`'s.  Games end by themselves (4 or 6 rounds).
"""
from __future__ import annotations

import argparse
from functools import partial
from typing import Any

from services.elfenland.api import PLUGIN
from shared.ai import selfplay

run_selfplay = partial(selfplay.run_selfplay, PLUGIN)
run_versus = partial(selfplay.run_versus, PLUGIN)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--edition", default="elfenland", choices=["elfenland", "elfengold", "elfenroads"])
    parser.add_argument("--lake-rules", default="author", choices=["author", "german"])
    parser.add_argument("--caravan-cards", type=int, default=3, choices=[3, 5])
    parser.add_argument("--no-home-towns", action="store_true")
    parser.add_argument("--wizards", action="store_true")
    parser.add_argument("--random-gold-values", action="store_true")


def options(args: argparse.Namespace) -> list[dict[str, Any]]:
    return [{"edition": args.edition, "lake_rules": args.lake_rules, "caravan_cards": args.caravan_cards,
             "home_towns": not args.no_home_towns, "wizards": args.wizards,
             "random_gold_values": args.random_gold_values}]


def main(argv: list[str] | None = None) -> None:
    selfplay.main(PLUGIN, argv, description=__doc__, games=20, players=4,
                  add_arguments=add_arguments, variants=options)


if __name__ == "__main__":
    main()
