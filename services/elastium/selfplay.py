"""In-process self-play benchmark (no Redis): one JSON line per run.

    python -m services.elastium.selfplay --games 20 --players 3 --bots random,greedy
    python -m services.elastium.selfplay --versus greedy --scenario volcano
    python -m services.elastium.selfplay --versus greedy --all-scenarios

The loop is :mod:`shared.ai.selfplay`'s; a game still running after ``--max-moves`` is unfinished.
"""
from __future__ import annotations

import argparse
from typing import Any

from services.elastium.api import PLUGIN
from services.elastium.rules.board import SCENARIOS
from shared.ai import selfplay



def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--scenario", default="jungle-temples", choices=SCENARIOS)
    parser.add_argument("--all-scenarios", action="store_true", help="one line per scenario")


def scenarios(args: argparse.Namespace) -> list[dict[str, Any]]:
    return PLUGIN.bench_variants if args.all_scenarios else [{"scenario": args.scenario}]


def main(argv: list[str] | None = None) -> None:
    selfplay.main(PLUGIN, argv, description=__doc__, games=10, players=2,
                  add_arguments=add_arguments, variants=scenarios)


if __name__ == "__main__":
    main()
