"""Student's t multiplier (analyzer.student): table values, the join of its two methods,
and the coverage it gives a mean of few trials where 1.96 did not."""

from __future__ import annotations

import math

import numpy as np
import pytest

from analyzer.stats import Z95, mean_ci
from analyzer.student import SERIES_MAX, t_multiplier


@pytest.mark.parametrize("df, t", [(1, 12.706204736), (2, 4.302652730), (3, 3.182446305),
                                   (5, 2.570581836), (10, 2.228138852), (30, 2.042272456),
                                   (120, 1.979930405), (1000, 1.962339081)])
def test_the_95_percent_quantile_is_the_tables(df, t):
    assert t_multiplier(Z95, df) == pytest.approx(t, abs=1e-8)


def test_a_bonferroni_level_keeps_its_level_and_the_two_methods_join():
    z = 3.3222779195  # 2.5% shared among 56 bids, one-sided
    level = math.erf(z / math.sqrt(2))
    t2 = t_multiplier(z, 2)
    assert t2 / math.sqrt(2 + t2 * t2) == pytest.approx(level, abs=1e-12)  # df 2 exactly
    for q in (Z95, z):
        below, above = t_multiplier(q, SERIES_MAX), t_multiplier(q, SERIES_MAX + 1)
        assert 0 < below - above < 1e-5 and t_multiplier(q, 10**12) == pytest.approx(q)
    assert math.isnan(t_multiplier(Z95, 0))


def test_a_mean_of_five_trials_covers_95_percent():
    """With 1.96 a mean of five normal trials covered 88%; Student's t, 95%."""
    runs = 4000
    x = np.random.default_rng(3).normal(size=(runs, 5))
    covered = np.mean([(lambda e: e.lo <= 0 <= e.hi)(mean_ci(row)) for row in x])
    se = math.sqrt(0.95 * 0.05 / runs)
    assert abs(covered - 0.95) < 4 * se, covered
    normal = np.mean(np.abs(x.mean(axis=1)) <= Z95 * x.std(axis=1, ddof=1) / math.sqrt(5))
    assert normal < 0.95 - 8 * se, normal  # what 1.96 gave: the test can tell
