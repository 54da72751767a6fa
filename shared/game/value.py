"""A game's value function: named features of a position and the weights fitted to them.

A game declares a :class:`FeatureSet` (``GamePlugin.value_features``); its bots score positions with the
:class:`ValueModel` read from the feature set's ``value_model.json``.  The weights are fitted offline by
``python -m shared.ai.valuefit`` (self-play), which the services do not need.
"""
from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from shared.game.engine import State


@dataclass(frozen=True)
class FeatureSet:
    """Named features of a position: ``compute(state)`` gives a row of them per seat (all seats at
    once, so that what they share, such as the leader's points, is computed once per position)."""

    names: tuple[str, ...]
    compute: Callable[[State], Sequence[Sequence[float]]]
    path: Path                                   # where its fitted weights live
    # Option sets the fit's games cycle through (an expansion's economy needs its own weights);
    # empty: the plugin's ``bench_variants``, or the default options.
    variants: tuple[dict[str, Any], ...] = ()


class ValueModel:
    """A fitted value function: ``model(state)`` is each seat's log-odds score.

    Its weights are read from the feature set's file on first use, so that a game's bots can be
    imported (by ``python -m shared.ai.valuefit`` among others) while the file is being fit again."""

    def __init__(self, features: FeatureSet, weights: Sequence[float] | None = None) -> None:
        self.features = features
        self._weights = tuple(weights) if weights is not None else None

    @property
    def weights(self) -> tuple[float, ...]:
        if self._weights is None:
            data = json.loads(self.features.path.read_text())
            names = tuple(data["weights"])
            if names != self.features.names:
                raise ValueError(f"{self.features.path} holds weights for {names}, not for "
                                 f"{self.features.names}: fit again (python -m shared.ai.valuefit)")
            self._weights = tuple(float(data["weights"][n]) for n in names)
        return self._weights

    def __call__(self, state: State) -> list[float]:
        weights = self.weights
        return [sum(w * x for w, x in zip(weights, row)) for row in self.features.compute(state)]


def load(features: FeatureSet) -> ValueModel:
    """The value function fitted for ``features`` (its ``value_model.json``, read on first use)."""
    return ValueModel(features)
