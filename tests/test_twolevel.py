"""Two-level (control-variate) estimates: exact where they must be, unbiased, and their 95%
interval covering the truth 95% of the time; the budget split against a brute-force search.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from analyzer.stats import mean_ci
from analyzer.twolevel import (
    ESTIMATOR,
    MIN_FITTED,
    TwoLevelError,
    TwoLevelMoments,
    best_split,
    two_level,
)


def _pair(rng, n: int, rho_noise: float = 1.0, slope: float = 1.0):
    """Integer outcomes of a cheap player (h) and a searching one (s = round(slope h) + a
    correction of mean 0.5 that varies with h) on the same n deals: E[s] = 7.5 with slope
    1 (:func:`_truth`)."""
    h = rng.integers(0, 15, size=n)
    d = (rng.random(n) < 0.5).astype(np.int64) + (h > 10) * rng.integers(-1, 2, size=n)
    noise = np.round(rng.normal(0, rho_noise, size=n)).astype(np.int64)
    return h, np.round(slope * h).astype(np.int64) + d + noise


def _truth(slope: float) -> float:
    """E[s] of :func:`_pair`: h is uniform on 0 .. 14, the correction's mean 0.5 and the
    rounded normal noise's 0."""
    return float(np.round(slope * np.arange(15)).mean() + 0.5)


def _difference_variance(h, s) -> float:
    """The variance of the difference estimator (slope 1), from the textbook formula:
    Var(h) / N + Var(d) / n + 2 Cov(h, d) / N, d = s - h on the first n deals."""
    d = s - h[:len(s)]
    return (h.var(ddof=1) / len(h) + d.var(ddof=1) / len(s)
            + 2 * np.cov(h[:len(s)], d, ddof=1)[0, 1] / len(h))


def test_every_deal_paired_is_the_plain_mean_and_interval():
    h, s = _pair(np.random.default_rng(1), 500)
    t, plain = two_level(h, s), mean_ci(s)
    assert math.isclose(t.mean, plain.mean, rel_tol=1e-12)
    assert math.isclose(t.se, plain.se, rel_tol=1e-9)


def test_the_estimate_is_the_regression_estimator_of_two_phase_sampling():
    """Against the textbook formulas written out here: beta = Cov(s, h) / Var(h) on the
    paired deals, mean_n(s) - beta (mean_n(h) - mean_N(h)), and its variance
    Var(s - beta h) / n + beta^2 Var(h) / N, the first term's sum of squares over n - 3
    (a fitted slope, and its own error) for the share of deals not paired."""
    h, s = _pair(np.random.default_rng(2), 2000, slope=0.6)
    t = two_level(h, s[:300])
    hn, sn = h[:300], s[:300]
    beta = np.cov(sn, hn, ddof=1)[0, 1] / hn.var(ddof=1)
    assert t.beta == pytest.approx(beta) and 0.5 < beta < 0.7
    assert t.mean == pytest.approx(sn.mean() - beta * (hn.mean() - h.mean()))
    r = sn - beta * hn
    plain, fitted = r.var(ddof=1), ((r - r.mean()) ** 2).sum() / (300 - 3)
    var_r = plain + (1 - 300 / 2000) * (fitted - plain)
    variance = var_r / 300 + beta ** 2 * h.var(ddof=1) / 2000
    assert t.se == pytest.approx(math.sqrt(variance), rel=1e-9)


def test_the_parts_are_the_base_mean_and_the_correction():
    h, s = _pair(np.random.default_rng(2), 2000)
    t = two_level(h, s[:300])
    assert t.base.mean == pytest.approx(h.mean()) and t.base.n == 2000
    assert t.correction.n == 300
    assert t.mean == pytest.approx(t.base.mean + t.correction.mean)
    # the correction is the paired mean difference, moved by (1 - beta) times the cheap
    # mean's stray over the paired deals
    stray = h[:300].mean() - h.mean()
    assert t.correction.mean == pytest.approx((s[:300] - h[:300]).mean()
                                              + (1 - t.beta) * stray)
    assert t.correction.lo < t.correction.mean < t.correction.hi
    doc = t.to_dict()
    assert doc["estimator"] == ESTIMATOR and doc["n_base"] == 2000 and doc["n_paired"] == 300
    assert doc["lo"] < doc["mean"] < doc["hi"] and doc["beta"] == t.beta


def test_with_few_paired_deals_the_slope_is_one_the_difference_estimator():
    h, s = _pair(np.random.default_rng(3), 500, slope=0.5)
    t = two_level(h, s[:MIN_FITTED - 1])
    assert t.beta == 1.0
    assert t.correction.mean == pytest.approx((s[:MIN_FITTED - 1] - h[:MIN_FITTED - 1]).mean())
    assert t.se == pytest.approx(math.sqrt(_difference_variance(h, s[:MIN_FITTED - 1])))
    assert two_level(h, s[:MIN_FITTED]).beta != 1.0


def test_the_fitted_slope_narrows_the_interval_where_the_players_scale_apart():
    """The searching player's results move half as much as the cheap one's: the difference
    (slope 1) leaves half of the cheap player's spread in the correction; the fitted slope
    removes it."""
    h, s = _pair(np.random.default_rng(4), 20_000, slope=0.5)
    t = two_level(h, s[:500])
    assert t.se < 0.75 * math.sqrt(_difference_variance(h, s[:500]))


@pytest.mark.parametrize("slope, paired", [(1.0, 100), (0.5, 100), (1.0, MIN_FITTED),
                                           (0.5, MIN_FITTED)])
def test_the_interval_covers_the_truth_ninety_five_times_in_a_hundred(slope, paired):
    """400 repetitions of N = 2,000 and n paired deals: the share of intervals that hold the
    true mean is 0.95 within three binomial standard errors (0.033), with the slope fitted
    on as few paired deals as it ever is."""
    rng = np.random.default_rng(2026)
    reps, hits, means, truth = 400, 0, [], _truth(slope)
    for _ in range(reps):
        h, s = _pair(rng, 2000, slope=slope)
        t = two_level(h, s[:paired])
        hits += t.lo <= truth <= t.hi
        means.append(t.mean)
    tolerance = 3 * math.sqrt(0.95 * 0.05 / reps)
    assert abs(hits / reps - 0.95) <= tolerance, hits / reps
    spread = np.std(means, ddof=1) / math.sqrt(reps)  # unbiased: the mean of the means
    assert abs(np.mean(means) - truth) <= 4 * spread


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


def test_k_alternatives_each_fit_their_own_slope_and_their_differences_follow():
    """Two alternatives from sums (TwoLevelMoments) against the one-column estimate of each,
    and their difference as the difference of the two estimates, with the variance of that
    difference from their joint covariance."""
    rng = np.random.default_rng(5)
    (h0, s0), (h1, s1) = _pair(rng, 3000, slope=0.5), _pair(rng, 3000, slope=1.0)
    h1 = h1 + h0  # the alternatives share the deals, so their results are correlated
    s1 = s1 + s0
    m = TwoLevelMoments.of(np.vstack([h0, h1]), np.vstack([s0[:400], s1[:400]]))
    one = [two_level(h0, s0[:400]), two_level(h1, s1[:400])]
    assert np.allclose(m.betas(), [t.beta for t in one])
    for i, t in enumerate(one):
        assert m.estimate(i).mean == pytest.approx(t.mean)
        assert m.estimate(i).se == pytest.approx(t.se)
        assert m.correction(i).mean == pytest.approx(t.correction.mean)
        assert m.correction(i).se == pytest.approx(t.correction.se)
    cov = m.mean_covariance()
    d = m.diff(1, 0)
    assert d.mean == pytest.approx(one[1].mean - one[0].mean)
    assert d.se == pytest.approx(math.sqrt(cov[0, 0] + cov[1, 1] - 2 * cov[0, 1]))
    assert m.diff_correction(1, 0).mean == pytest.approx(
        one[1].correction.mean - one[0].correction.mean)
    # what a budget is split for: the parts of B - A's variance a deal, which give its
    # interval (with every deal paired, where fitting adds nothing) and add up to the
    # searching player's own variance of B - A
    full = TwoLevelMoments.of(np.vstack([h0, h1])[:, :400], np.vstack([s0[:400], s1[:400]]))
    var_h, var_d, cov_hd = full.variances([-1, 1])
    assert (var_h + 2 * cov_hd) / 400 + var_d / 400 == pytest.approx(full.diff(1, 0).se ** 2)
    assert var_h + var_d + 2 * cov_hd == pytest.approx((s1[:400] - s0[:400]).var(ddof=1))


def test_the_difference_of_two_alternatives_covers_the_true_difference():
    """The difference's interval is checked above against the covariance of the same
    object; here against the truth. With s1 = s1' + s0 on the same deals, E[s1 - s0] is
    E[s1'] (:func:`_truth`), and over 400 repetitions of N = 3,000 and n = 400 the interval
    of diff(1, 0) holds it 95% of the time within three binomial standard errors: a wrong
    cross-covariance of the two estimates (n < N) would widen or narrow it."""
    rng = np.random.default_rng(77)
    reps, hits, truth = 400, 0, _truth(1.0)
    for _ in range(reps):
        (h0, s0), (h1, s1) = _pair(rng, 3000, slope=0.5), _pair(rng, 3000, slope=1.0)
        h1, s1 = h1 + h0, s1 + s0
        d = TwoLevelMoments.of(np.vstack([h0, h1]), np.vstack([s0[:400], s1[:400]])).diff(1, 0)
        hits += d.lo <= truth <= d.hi
    assert abs(hits / reps - 0.95) <= 3 * math.sqrt(0.95 * 0.05 / reps), hits / reps


def test_a_budgeted_run_reports_the_paired_deals_it_played_not_those_it_planned():
    """The split may want fewer paired deals than the pilot already played (here 2: the
    searching player never strays from the cheap one, Var(r) = 0); the run reports the n
    it played, deals 0 .. n-1, and the N cheap deals it played, 0 .. N-1."""
    import time

    from analyzer.rollout import run_two_level

    played = {"base": [], "paired": []}

    def grower(name, seconds_a_deal):
        def grow(first, n):
            played[name].append((first, n))
            time.sleep(n * seconds_a_deal)
        return grow

    n, big, stopped_by = run_two_level(grower("base", 1e-6), grower("paired", 1e-5),
                                       lambda: (1.0, 0.0, 0.0), None, None, budget=0.05,
                                       batch=50)
    assert stopped_by == "budget"
    assert best_split(1.0, 0.0, 0.0, 1e-6, 1e-5, 0.05).n_paired == 2  # what it planned
    for name, count in (("paired", n), ("base", big)):
        sizes = [k for _, k in played[name]]  # each part starts where the last ended
        assert [first for first, _ in played[name]] == [sum(sizes[:i]) for i in
                                                       range(len(sizes))]
        assert sum(sizes) == count, (name, played[name], count)
    assert 50 <= n <= big


def test_advice_counts_a_two_level_gain_s_searched_deals_not_its_cheap_ones():
    """A bid that gains about 3 points on every deal, under both players: on 2,000 cheap
    deals and 20 searched ones the estimate is beyond the noise at a glance, but its
    correction's spread is read off 20 deals, too few for a normal interval
    (advice.MIN_TRIALS); from 30 searched deals on the rule advises the bid."""
    from analyzer.advice import MIN_TRIALS, decide

    rng = np.random.default_rng(9)
    passing = rng.integers(-5, 6, size=2000)
    bidding = passing + 3 + rng.integers(-1, 2, size=2000)
    cheap = np.vstack([passing, bidding])
    for searched, advice in ((MIN_TRIALS - 10, "pass"), (MIN_TRIALS, "bid 6")):
        m = TwoLevelMoments.of(cheap, cheap[:, :searched] + 1)
        assert m.diff(1, 0).lo > 0  # beyond zero on its interval alone
        d = decide(m, ["pass", "bid 6"])
        assert d.action == advice
        if advice == "pass":
            assert f"{searched} deals are too few" in d.sentence()
