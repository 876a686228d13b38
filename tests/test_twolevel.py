"""Two-level (control-variate) estimates: exact where they must be, unbiased, and their 95%
interval covering the truth 95% of the time; the budget split against a brute-force search.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from analyzer.stats import mean_ci
from analyzer.twolevel import ESTIMATOR, TwoLevelError, best_split, two_level


def _pair(rng, n: int, rho_noise: float = 1.0):
    """Integer outcomes of a cheap player (h) and a searching one (s = h + a correction of
    mean 0.5 that varies with h) on the same n deals: E[s] = E[h] + 0.5 = 7.5."""
    h = rng.integers(0, 15, size=n)
    d = (rng.random(n) < 0.5).astype(np.int64) + (h > 10) * rng.integers(-1, 2, size=n)
    noise = np.round(rng.normal(0, rho_noise, size=n)).astype(np.int64)
    return h, h + d + noise


def test_every_deal_paired_is_the_plain_mean_and_interval():
    h, s = _pair(np.random.default_rng(1), 500)
    t, plain = two_level(h, s), mean_ci(s)
    assert math.isclose(t.mean, plain.mean, rel_tol=1e-12)
    assert math.isclose(t.se, plain.se, rel_tol=1e-9)


def test_the_parts_are_the_base_mean_and_the_paired_correction():
    h, s = _pair(np.random.default_rng(2), 2000)
    t = two_level(h, s[:300])
    assert t.base.mean == pytest.approx(h.mean()) and t.base.n == 2000
    assert t.correction.mean == pytest.approx((s[:300] - h[:300]).mean())
    assert t.correction.n == 300
    assert t.mean == pytest.approx(t.base.mean + t.correction.mean)
    doc = t.to_dict()
    assert doc["estimator"] == ESTIMATOR and doc["n_base"] == 2000 and doc["n_paired"] == 300
    assert doc["lo"] < doc["mean"] < doc["hi"]


def test_the_interval_covers_the_truth_ninety_five_times_in_a_hundred():
    """400 repetitions of N = 2,000 and n = 100: the share of intervals that hold the true
    mean (7.5) is 0.95 within three binomial standard errors (0.033)."""
    rng = np.random.default_rng(2026)
    reps, hits, means = 400, 0, []
    for _ in range(reps):
        h, s = _pair(rng, 2000)
        t = two_level(h, s[:100])
        hits += t.lo <= 7.5 <= t.hi
        means.append(t.mean)
    tolerance = 3 * math.sqrt(0.95 * 0.05 / reps)
    assert abs(hits / reps - 0.95) <= tolerance, hits / reps
    spread = np.std(means, ddof=1) / math.sqrt(reps)  # unbiased: the mean of the means
    assert abs(np.mean(means) - 7.5) <= 4 * spread


def test_the_split_is_the_cheapest_for_the_budget():
    """The N and n chosen against every split of the same budget on a grid: none has a
    smaller variance beyond rounding."""
    var_h, var_d, cov_hd, cost_h, cost_s, seconds = 18.0, 1.5, -0.4, 1e-5, 0.1, 60.0
    split = best_split(var_h, var_d, cov_hd, cost_h, cost_s, seconds)
    assert split.n_base * cost_h + split.n_paired * cost_s <= seconds * (1 + 1e-9)
    best = min((var_h + 2 * cov_hd) / ((seconds - n * cost_s) / cost_h) + var_d / n
               for n in range(2, int(seconds / cost_s)))
    assert split.se ** 2 <= best * 1.01
    plain = math.sqrt((var_h + var_d + 2 * cov_hd) / 600)  # the searcher alone: 600 deals
    assert split.plain_se == pytest.approx(plain)
    assert split.gain == pytest.approx(plain / split.se) and split.gain > 3


def test_a_cheap_player_that_only_adds_noise_gets_no_deals_of_its_own():
    """Uncorrelated players (Cov(h, d) = -Var(h)): the base deals would widen the interval, so
    every deal is paired (N = n) and the estimate is the searching player's plain mean."""
    split = best_split(100.0, 300.0, -100.0, 1e-4, 1e-2, 10.0)
    assert split.n_base == split.n_paired == int(10.0 / (1e-4 + 1e-2))
    assert split.se == pytest.approx(math.sqrt(200.0 / split.n_paired))
    assert split.gain == pytest.approx(math.sqrt(split.n_paired / 1000), rel=1e-3)


def test_bad_samples_are_refused_in_one_line():
    with pytest.raises(TwoLevelError, match="2 <= n <= N"):
        two_level([1, 2, 3], [1, 2, 3, 4])
    with pytest.raises(TwoLevelError, match="2 <= n <= N"):
        two_level([1, 2, 3], [1])
    with pytest.raises(TwoLevelError, match="finite"):
        two_level([1, 2, np.nan], [1, 2])
    with pytest.raises(TwoLevelError, match="positive"):
        best_split(1, 1, 0, 0, 1, 1)
