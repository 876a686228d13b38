"""Estimates with confidence intervals: the one place bidlab does statistics.

Every number a report shows is an :class:`Estimate` (a mean with its standard
error and a normal-approximation interval) or a :class:`Proportion` (a Wilson
score interval, which behaves at rates near 0 and 1 where the normal
approximation does not). All arithmetic is float64; variances use the two-pass
formula (``numpy.var``), which keeps full precision when the mean is large
compared with the spread.

>>> str(mean_ci([1, 2, 3, 4]))
'2.500 ± 1.265 (n=4)'
>>> p = wilson(81, 263)
>>> round(p.lo, 4), round(p.hi, 4)
(0.2553, 0.3662)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

Z95 = 1.959963984540054  # two-sided 95% normal quantile


@dataclass(frozen=True)
class Estimate:
    """A mean with its standard error ``se`` and confidence interval ``[lo, hi]`` from ``n``."""

    mean: float
    se: float
    lo: float
    hi: float
    n: int

    @property
    def half_width(self) -> float:
        """Half the interval width: the "±" of ``str(estimate)``."""
        return (self.hi - self.lo) / 2

    def format(self, digits: int = 3) -> str:
        return f"{self.mean:.{digits}f} ± {self.half_width:.{digits}f} (n={self.n})"

    def __str__(self) -> str:
        return self.format()


@dataclass(frozen=True)
class Proportion(Estimate):
    """``k`` successes in ``n`` trials: ``mean`` is k/n, ``[lo, hi]`` the Wilson interval."""

    k: int = 0

    @property
    def p(self) -> float:
        return self.mean

    def format(self, digits: int = 2) -> str:
        return (
            f"{100 * self.mean:.{digits}f}% [{100 * self.lo:.{digits}f}%, "
            f"{100 * self.hi:.{digits}f}%] ({self.k}/{self.n})"
        )


def _as_float_array(x) -> np.ndarray:
    a = np.asarray(x, dtype=np.float64).ravel()
    if not np.isfinite(a).all():
        raise ValueError("samples must be finite numbers (no NaN or infinity)")
    return a


def mean_ci(x, z: float = Z95) -> Estimate:
    """Sample mean of ``x`` with its standard error and interval ``mean ± z·se``.

    The standard error uses the sample standard deviation (ddof=1); with one
    sample it is unknown and reported as NaN.

    >>> e = mean_ci([2.0, 4.0, 6.0])
    >>> e.mean, round(e.se, 6), e.n
    (4.0, 1.154701, 3)
    """
    a = _as_float_array(x)
    n = a.size
    if n == 0:
        raise ValueError("mean_ci needs at least one sample, got none")
    mean = float(np.mean(a))
    se = float(np.std(a, ddof=1) / math.sqrt(n)) if n > 1 else math.nan
    return Estimate(mean, se, mean - z * se, mean + z * se, n)


def wilson(k: int, n: int, z: float = Z95) -> Proportion:
    """Wilson score interval for ``k`` successes in ``n`` trials.

    Unlike ``p ± z·se`` it stays inside [0, 1] and is not degenerate at k=0 or
    k=n. ``se`` is the plug-in ``sqrt(p(1-p)/n)``.

    >>> wilson(0, 10).lo, round(wilson(0, 10).hi, 4)
    (0.0, 0.2775)
    """
    k, n = int(k), int(n)
    if n <= 0:
        raise ValueError(f"wilson needs n >= 1 trials, got n={n}")
    if not 0 <= k <= n:
        raise ValueError(f"wilson needs 0 <= k <= n, got k={k}, n={n}")
    p = k / n
    z2 = z * z
    denom = 1.0 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    # at k=0 and k=n the bound is exactly 0 or 1; rounding must not push it past p
    lo = 0.0 if k == 0 else max(0.0, centre - half)
    hi = 1.0 if k == n else min(1.0, centre + half)
    return Proportion(p, math.sqrt(p * (1 - p) / n), lo, hi, n, k)


def paired_diff(a, b, z: float = Z95) -> Estimate:
    """Mean of ``a - b`` over paired samples (same deals, two settings) with its interval.

    Pairing removes the deal-to-deal variance both samples share, so the
    interval is much narrower than that of two independent means.

    >>> str(paired_diff([3, 5, 7], [1, 4, 5]))
    '1.667 ± 0.653 (n=3)'
    """
    x = _as_float_array(a)
    y = _as_float_array(b)
    if x.size != y.size:
        raise ValueError(f"paired samples must have equal length, got {x.size} and {y.size}")
    return mean_ci(x - y, z)


def p_best(values, draws: int = 20_000, seed: int = 0) -> np.ndarray:
    """P(each alternative has the highest true mean), as in backgammon rollout tables.

    ``values`` is an (n, K) array of per-trial outcomes of K alternatives played
    on the same n trials, so their means are correlated; the sample means are
    treated as jointly normal with the sample covariance / n, and each of
    ``draws`` draws from that law names a winner. Alternatives with the same
    outcome on every trial (two bids that every deal makes) cannot be told
    apart, so they share their P(best) equally.

    >>> p_best([[1.0, 3.0, 3.0]]).tolist()
    [0.0, 0.5, 0.5]
    """
    v = np.asarray(values, dtype=np.float64)
    if v.ndim != 2 or v.shape[1] == 0 or v.shape[0] == 0:
        raise ValueError("values must be an (n, K) array with n >= 1 and K >= 1")
    # identical columns would draw identical means, and argmax would hand every tie
    # to the first of them; compare the distinct columns and share out afterwards
    keep, which = _distinct_columns(v)
    distinct = v[:, keep]
    n, k = distinct.shape
    means = distinct.mean(axis=0)
    if n < 2 or k == 1:
        won = np.zeros(k)
        won[int(np.argmax(means))] = 1.0
    else:
        cov = np.atleast_2d(np.cov(distinct, rowvar=False)) / n
        rng = np.random.default_rng(seed)
        sample = rng.multivariate_normal(means, cov, size=draws, method="eigh")
        won = np.bincount(np.argmax(sample, axis=1), minlength=k) / draws
    return won[which] / np.bincount(which, minlength=k)[which]


def _distinct_columns(v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Indices of the first of each group of identical columns, and each column's group.

    Only columns with equal sums are compared in full, so this stays O(n·K) in
    practice (``np.unique(axis=1)`` is far slower on long columns).
    """
    sums = v.sum(axis=0)
    keep: list[int] = []
    which = np.empty(v.shape[1], dtype=np.int64)
    for j in range(v.shape[1]):
        for g, i in enumerate(keep):
            if sums[i] == sums[j] and np.array_equal(v[:, i], v[:, j]):
                which[j] = g
                break
        else:
            which[j] = len(keep)
            keep.append(j)
    return np.array(keep), which


def batch_means(x, n_batches: int = 20, z: float = Z95) -> Estimate:
    """Mean of a possibly autocorrelated sequence with the batch-means standard error.

    The sequence is cut into ``n_batches`` consecutive batches of equal length
    (the remainder is dropped) and the spread of the batch means gives the
    error; for independent trials it agrees with :func:`mean_ci`.
    """
    a = _as_float_array(x)
    size = len(a) // n_batches
    if n_batches < 2 or size < 1:
        raise ValueError(f"need at least {n_batches} values for {n_batches} batches")
    means = a[: size * n_batches].reshape(n_batches, size).mean(axis=1)
    mean = float(means.mean())
    se = float(means.std(ddof=1) / math.sqrt(n_batches))
    return Estimate(mean, se, mean - z * se, mean + z * se, size * n_batches)
