"""Value functions fit to self-play (shared.ai.valuefit) and each game's checked-in model."""
from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest

from shared.game import registry
from shared.ai import valuefit
from shared.game.value import FeatureSet, ValueModel, load
from shared.ai.valuefit import Sample

GAMES_WITH_MODELS = [name for name in registry.available() if registry.plugin(name).value_features is not None]


def synthetic(weights: list[float], count: int, seed: int) -> list[Sample]:
    """Positions whose winner is drawn from a conditional logit with known weights."""
    rng = random.Random(seed)
    samples = []
    for _ in range(count):
        rows = tuple(tuple(rng.gauss(0, 1) * (1 + i) for i in range(len(weights))) for _ in range(3))
        scores = [math.exp(sum(w * x for w, x in zip(weights, row))) for row in rows]
        pick = rng.random() * sum(scores)
        winner = next(s for s in range(3) if (pick := pick - scores[s]) <= 0)
        samples.append(Sample(rows, tuple(1.0 if s == winner else 0.0 for s in range(3))))
    return samples


def test_the_fit_finds_the_weights_that_made_the_winners() -> None:
    truth = [1.0, -0.4, 0.0]
    fitted = valuefit.fit(synthetic(truth, 4000, seed=3), ridge=0.01)
    assert all(abs(f - t) < 0.1 for f, t in zip(fitted, truth)), fitted
    held_out = synthetic(truth, 1000, seed=4)
    assert valuefit.log_loss(held_out, fitted) < valuefit.log_loss(held_out, [0.0, 0.0, 0.0]) - 0.1
    assert valuefit.accuracy(held_out, fitted) > 0.5


def test_a_shared_win_counts_as_shares() -> None:
    tie = Sample(((1.0,), (1.0,), (0.0,)), (0.5, 0.5, 0.0))
    # Two equal seats that share every win: the weight goes up, never to one of them alone.
    assert valuefit.fit([tie] * 50, ridge=0.01)[0] > 1.0


def test_solve() -> None:
    assert valuefit._solve([[2.0, 1.0], [1.0, 3.0]], [3.0, 5.0]) == pytest.approx([0.8, 1.4])


def test_a_model_for_other_features_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "value_model.json"
    path.write_text(json.dumps({"weights": {"points": 1.0}}))
    with pytest.raises(ValueError, match="fit again"):
        _ = load(FeatureSet(("points", "cards"), lambda state: [[0.0, 0.0]], path)).weights   # read when used


@pytest.mark.parametrize("name", GAMES_WITH_MODELS)
@pytest.mark.slow
def test_the_checked_in_model_predicts_unseen_games(name: str) -> None:
    """Games the fit never saw (another seed): the model knows more than a uniform guess."""
    plugin = registry.plugin(name)
    features = plugin.value_features
    assert features is not None
    model = load(features)
    assert len(model.weights) == len(features.names) and all(math.isfinite(w) for w in model.weights)
    samples = valuefit.collect(plugin.game, plugin.strategies[plugin.rule_of_thumb_bot()], features,
                               games=40, players=3, seed=424242,
                               variants=features.variants or plugin.bench_variants)
    assert len(samples) > 20
    assert valuefit.log_loss(samples, model.weights) < math.log(3) - 0.02


@pytest.mark.parametrize("name", GAMES_WITH_MODELS)
def test_the_experts_value_function_is_the_fitted_model(name: str) -> None:
    plugin = registry.plugin(name)
    evaluate = plugin.strategies["expert"].evaluate
    assert isinstance(evaluate, ValueModel) and evaluate.features is plugin.value_features


def test_collecting_is_a_function_of_the_seed() -> None:
    plugin = registry.plugin("catan")
    policy = plugin.strategies[plugin.rule_of_thumb_bot()]
    assert plugin.value_features is not None
    once = valuefit.collect(plugin.game, policy, plugin.value_features, games=2, players=3, seed=5)
    again = valuefit.collect(plugin.game, policy, plugin.value_features, games=2, players=3, seed=5)
    assert once == again and once
