"""In-process self-play benchmark (no Redis): prints one JSON line per run.

    python -m services.elasund.selfplay --games 20 --players 4 [--seed 1] [--bots random,heuristic]
    python -m services.elasund.selfplay --versus heuristic --games 40 --players 4

The loop is :mod:`shared.ai.selfplay`'s; games longer than ``--max-moves`` are reported unfinished.
"""
from __future__ import annotations

from functools import partial

from services.elasund.api import PLUGIN
from shared.ai import selfplay


run_selfplay = partial(selfplay.run_selfplay, PLUGIN)
run_versus = partial(selfplay.run_versus, PLUGIN)


def main(argv: list[str] | None = None) -> None:
    selfplay.main(PLUGIN, argv, description=__doc__, games=10, players=4)


if __name__ == "__main__":
    main()
