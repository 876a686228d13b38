"""The statistics' formulas against textbook values worked by hand: a mutation review of
the statistical core (38 small bugs) found five that no test caught and two that only a
golden digest did (which says that something changed, not what). Each test here fails on
its mutant: a Wilson SE over n - 1, batch means with ddof 0, the SE of outcomes that are
not whole numbers over n, digits that stop at four, a two-level split that drops the
factor 2 of Cov(h, d), a bounded interval's SE not divided by z, and an extra digit where
the half-width does not round to zero."""
import math

import pytest

from analyzer.estimate_text import interval_text, plus_minus, visible_digits
from analyzer.moments import Histogram, Moments
from analyzer.stats import Z95, ColumnMoments, Estimate, PairedMoments, bounded, mean_ci, wilson
from analyzer.twolevel import best_split


def test_wilson_se_is_the_plug_in_binomial_se():
    # textbook plug-in SE of a proportion: sqrt(p (1 - p) / n), p = 81/263
    p = 81 / 263
    assert wilson(81, 263).se == pytest.approx(math.sqrt(p * (1 - p) / 263), rel=1e-12)
    assert wilson(3, 4).se == pytest.approx(math.sqrt(0.75 * 0.25 / 4))  # 0.216506


def test_a_bounded_interval_says_its_se_as_half_width_over_z():
    b = bounded(Estimate(0.0, 0.0, 0.0, 0.0, 100), -1, 1)
    share = Z95 ** 2 / (100 + Z95 ** 2)  # Wilson upper bound at 0 of 100: 0.03701
    assert b.hi == pytest.approx(share)
    assert b.se == pytest.approx(share / Z95)  # 0.018885: lo, hi = mean -/+ z se
    assert b.mean + Z95 * b.se == pytest.approx(b.hi)


def test_moments_of_non_integer_samples_use_ddof_1():
    x = [0.5, 1.5, 2.5]  # sample sd 1: se 1 / sqrt(3)
    assert PairedMoments.of([[v] for v in x]).estimate(0).se == pytest.approx(1 / math.sqrt(3))
    m = ColumnMoments(1)
    m.add_columns([x])
    assert m.estimate(0).se == pytest.approx(1 / math.sqrt(3))
    assert mean_ci(x).se == pytest.approx(1 / math.sqrt(3))


def test_plus_minus_adds_a_digit_only_where_the_half_width_rounds_to_zero():
    # round(0.007, 2) = 0.01 is not 0: two digits show it
    assert plus_minus(0.123, 0.007) == "0.12 ± 0.01"
    assert plus_minus(0.123, 0.004) == "0.123 ± 0.004"  # round(0.004, 2) == 0


def test_plus_minus_shows_which_side_of_zero_an_interval_ends_on():
    """A bid chart recommended "+0.06 ± 0.06" (lower bound 0.004) beside an unclear
    "+0.03 ± 0.03": both read as touching zero."""
    assert plus_minus(0.0601, 0.0562, sign=True) == "+0.060 ± 0.056"
    assert plus_minus(-0.0298, 0.0305, sign=True) == "-0.0298 ± 0.0305"  # this one holds 0
    assert plus_minus(0.06, 0.06, sign=True) == "+0.06 ± 0.06"  # touching it: as it is
    assert plus_minus(0.5, 0.2) == "0.50 ± 0.20"


def test_visible_digits_go_up_to_eight():
    # 1.9e-5 rounds to 0 at 4 digits and to 2e-5 at 5
    assert visible_digits(0.0, 0.0, 0.000019, 3) == 5
    assert interval_text(0.0, 0.0, 0.000019, 3) == "0.00000 [0.00000, 0.00002]"
    assert interval_text(40.0, math.nan, math.nan) == "40.0 [n/a]"  # one trial: no interval
    assert visible_digits(0.0, 0.0, 1e-12, 3) == 8


def test_histogram_moments_weigh_each_value_by_its_count():
    h = Histogram(2)
    h.add([7, 7, 3], [0, 0, 0])
    # the same numbers summed deal by deal: n 3, sum 17, sum of squares 49 + 49 + 9 = 107
    assert h.moments(lambda b, o: b) == Moments.of([7, 7, 3]) == Moments(3, 17, 107)


def test_the_split_s_se_is_the_two_phase_variance_of_its_own_n_and_N():
    var_h, var_d, cov_hd, cost_h, cost_s, seconds = 18.0, 1.5, -4.0, 1e-5, 0.1, 60.0
    s = best_split(var_h, var_d, cov_hd, cost_h, cost_s, seconds)
    # Var = (Var(h) + 2 Cov(h, d)) / N + Var(d) / n (difference estimator, two-phase sampling)
    assert s.se ** 2 == pytest.approx((var_h + 2 * cov_hd) / s.n_base + var_d / s.n_paired)
    best = min((var_h + 2 * cov_hd) / ((seconds - n * cost_s) / cost_h) + var_d / n
               for n in range(2, int(seconds / cost_s)))
    assert s.se ** 2 <= best * 1.01
