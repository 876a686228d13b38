"""analyzer.stats against hand-computed means and published Wilson intervals."""

import dataclasses
import math

import numpy as np
import pytest

from analyzer.stats import Z95, Estimate, Proportion, mean_ci, paired_diff, wilson


def test_mean_ci_hand_computed():
    # x = 1, 2, 3, 4: mean 2.5, sample variance 5/3, se = sqrt(5/3 / 4)
    e = mean_ci([1, 2, 3, 4])
    se = math.sqrt(5 / 3 / 4)
    assert e.mean == 2.5
    assert e.se == pytest.approx(se, rel=1e-12)
    t3 = 3.182446305284263  # Student's t on 3 degrees of freedom at 97.5% (tables)
    assert (e.lo, e.hi) == pytest.approx((2.5 - t3 * se, 2.5 + t3 * se), rel=1e-12)
    assert e.n == 4
    assert e.half_width == pytest.approx(t3 * se, rel=1e-12)


def test_mean_ci_custom_z_and_integer_input():
    e = mean_ci(np.array([2, 4, 6], dtype=np.int8), z=1.0)
    assert e.mean == 4.0
    assert e.se == pytest.approx(2 / math.sqrt(3), rel=1e-12)  # sd 2, n 3
    # t on 2 degrees of freedom at z = 1's level L: P(|T| <= t) = t / sqrt(2 + t^2) = L
    level = math.erf(1 / math.sqrt(2))
    t2 = math.sqrt(2 * level ** 2 / (1 - level ** 2))
    half = t2 * 2 / math.sqrt(3)
    assert (e.lo, e.hi) == pytest.approx((4 - half, 4 + half), rel=1e-12)


def test_mean_ci_constant_and_single_sample():
    e = mean_ci([7, 7, 7])
    assert (e.mean, e.se, e.lo, e.hi) == (7.0, 0.0, 7.0, 7.0)
    one = mean_ci([3.5])
    assert one.mean == 3.5 and one.n == 1 and math.isnan(one.se)


def test_mean_ci_is_stable_with_a_large_offset():
    rng = np.random.default_rng(0)
    x = rng.integers(0, 15, size=100_000).astype(np.float64)
    plain, shifted = mean_ci(x), mean_ci(x + 1e9)
    assert shifted.mean - 1e9 == pytest.approx(plain.mean, abs=1e-6)
    assert shifted.se == pytest.approx(plain.se, rel=1e-6)


@pytest.mark.parametrize("bad", [[], np.array([])])
def test_mean_ci_empty_raises(bad):
    with pytest.raises(ValueError, match="at least one"):
        mean_ci(bad)


def test_mean_ci_rejects_nan():
    with pytest.raises(ValueError, match="finite"):
        mean_ci([1.0, float("nan")])


def test_estimate_str_and_frozen():
    e = Estimate(mean=7.412, se=0.0107, lo=7.391, hi=7.433, n=1_000_000)
    assert str(e) == "7.412 ± 0.021 (n=1000000)"
    with pytest.raises(dataclasses.FrozenInstanceError):
        e.mean = 1.0


# Newcombe (1998), Statistics in Medicine 17:857, worked examples, Wilson score method, z = 1.96
@pytest.mark.parametrize(
    "k, n, lo, hi",
    [(81, 263, 0.2553, 0.3662), (15, 148, 0.0624, 0.1605), (0, 20, 0.0, 0.1611),
     (1, 29, 0.0061, 0.1718)],
)
def test_wilson_textbook_values(k, n, lo, hi):
    p = wilson(k, n, z=1.96)
    assert p.p == pytest.approx(k / n)
    assert (p.lo, p.hi) == pytest.approx((lo, hi), abs=5e-5)
    assert (p.k, p.n) == (k, n)


def test_wilson_edges_k0_and_kn():
    z2 = Z95**2
    zero = wilson(0, 10)
    assert zero.lo == 0.0 and zero.hi == pytest.approx(z2 / (10 + z2))
    full = wilson(10, 10)
    assert full.hi == 1.0 and full.lo == pytest.approx(10 / (10 + z2))
    assert full.p == 1.0 and full.se == 0.0


def test_wilson_interval_contains_p_and_stays_in_unit_range():
    for n in (1, 2, 7, 100):
        for k in range(n + 1):
            p = wilson(k, n)
            assert 0.0 <= p.lo <= p.p <= p.hi <= 1.0


@pytest.mark.parametrize("k, n", [(0, 0), (1, 0), (-1, 5), (6, 5)])
def test_wilson_bad_counts_raise(k, n):
    with pytest.raises(ValueError):
        wilson(k, n)


def test_proportion_str():
    p = wilson(81, 263, z=1.96)
    assert isinstance(p, Proportion)
    assert str(p) == "30.80% [25.53%, 36.62%] (81/263)"


def test_paired_diff_hand_computed():
    d = paired_diff([3, 5, 7], [1, 4, 5])  # differences 2, 1, 2
    se = math.sqrt(1 / 3 / 3)  # sample variance 1/3, n 3
    assert d.mean == pytest.approx(5 / 3)
    assert d.se == pytest.approx(se)
    assert d.n == 3
    assert str(d) == f"1.667 ± {4.302652729911275 * se:.3f} (n=3)"  # t on 2 d.f.


def test_paired_diff_removes_shared_variance():
    rng = np.random.default_rng(1)
    shared = rng.normal(0, 10, size=5000)
    a, b = shared + 1.0 + rng.normal(0, 0.1, 5000), shared + rng.normal(0, 0.1, 5000)
    d = paired_diff(a, b)
    assert d.lo < 1.0 < d.hi
    assert d.se < mean_ci(a).se / 10


def test_paired_diff_length_mismatch():
    with pytest.raises(ValueError, match="equal length"):
        paired_diff([1, 2], [1, 2, 3])
