"""``shared.ai.stats.wilson_interval`` against values worked out by hand from the formula."""
from __future__ import annotations

import math

import pytest

from shared.ai.stats import wilson_interval


def test_wilson_interval_known_values() -> None:
    lo, hi = wilson_interval(5, 10)
    assert lo == pytest.approx(0.2366, abs=1e-4) and hi == pytest.approx(0.7634, abs=1e-4)
    lo, hi = wilson_interval(0, 10)
    assert lo == 0.0 and hi == pytest.approx(0.2775, abs=1e-4)
    lo, hi = wilson_interval(10, 10)
    assert lo == pytest.approx(0.7225, abs=1e-4) and hi == 1.0
    lo, hi = wilson_interval(81, 263)        # the classic textbook example
    assert lo == pytest.approx(0.2553, abs=1e-4) and hi == pytest.approx(0.3662, abs=1e-4)


def test_wilson_interval_edges() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)
    lo, hi = wilson_interval(3, 20, z=2.576)           # a wider interval for 99%
    lo95, hi95 = wilson_interval(3, 20)
    assert lo < lo95 < 3 / 20 < hi95 < hi
    with pytest.raises(ValueError):
        wilson_interval(11, 10)


def test_elo_gap_reads_a_fair_share_as_equal_strength() -> None:
    from shared.ai.stats import elo_gap
    assert elo_gap(1 / 3, 2) == pytest.approx(0.0, abs=1e-9)        # 3 players, fair share
    assert elo_gap(0.5, 1) == pytest.approx(0.0, abs=1e-9)          # 2 players: the usual Elo
    assert elo_gap(0.76, 1) == pytest.approx(200, abs=1.5)          # 2 players, 200 Elo ~ 76%
    assert elo_gap(0.5, 2) == pytest.approx(400 * math.log10(2))     # twice the strength of each
    assert elo_gap(0.2, 2) < 0 < elo_gap(0.6, 2)
    assert elo_gap(0.0, 2) < -500 and elo_gap(1.0, 2) > 500          # clamped, finite
