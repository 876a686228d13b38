"""Estimates with confidence intervals, and the running sums they are formed from.

Every number a report shows is an :class:`Estimate` (a mean with its standard
error and its interval, mean ± t·se with Student's t on n − 1 degrees of freedom:
:func:`interval`) or a :class:`Proportion` (a Wilson score interval, which behaves
at rates near 0 and 1 where the normal approximation does not). A sample in memory
takes the two-pass variance (``numpy.var``: :func:`mean_ci`), which keeps full precision
when the mean is large compared with the spread; running sums (:class:`ColumnMoments`,
:class:`PairedMoments`, merged chunk by chunk) take n, Σx and Σx², exactly in integers
where the sums are whole (every score bidlab simulates) and in float64 otherwise. The
two-level estimate (:mod:`.twolevel`), bounded differences (:mod:`.differences`) and
histograms (:mod:`.moments`) build on these.

>>> str(mean_ci([1, 2, 3, 4]))
'2.500 ± 2.054 (n=4)'
>>> p = wilson(81, 263)
>>> round(p.lo, 4), round(p.hi, 4)
(0.2553, 0.3662)

May import: numpy, pandas and :mod:`.student`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .student import t_multiplier

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
        """``mean ± half-width (n=...)``; one trial has no spread, so no interval:

        >>> Estimate(13.0, math.nan, math.nan, math.nan, 1).format()
        '13.000 ± n/a (n=1)'
        """
        hw = self.half_width
        shown = f"{hw:.{digits}f}" if math.isfinite(hw) else "n/a"
        return f"{self.mean:.{digits}f} ± {shown} (n={self.n})"

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


def est_cols(prefix: str, e: Estimate | None) -> dict:
    """An estimate as table columns: ``prefix``, ``prefix_se``, ``prefix_lo``,
    ``prefix_hi`` (NaN for None: no estimate)."""
    if e is None:
        return dict.fromkeys([prefix, f"{prefix}_se", f"{prefix}_lo", f"{prefix}_hi"], math.nan)
    return {prefix: e.mean, f"{prefix}_se": e.se, f"{prefix}_lo": e.lo, f"{prefix}_hi": e.hi}


def unseen_share(n: int, z: float = Z95) -> float:
    """The largest share of trials unlike all ``n`` seen that is consistent with seeing
    none: the upper Wilson bound at 0 of n, z² / (n + z²) (3.7% at n = 100).

    >>> round(unseen_share(100), 4), round(unseen_share(1_000_000), 7)
    (0.037, 3.8e-06)
    """
    return z * z / (n + z * z)


def bounded(e: Estimate, low: float, high: float, z: float = Z95,
            seen: int | None = None) -> Estimate:
    """``e``, unless its ``n`` trials all read the same value (no spread, so a width of 0
    that says nothing of the trials not seen): then the interval that any outcome between
    ``low`` and ``high`` allows when at most :func:`unseen_share` of trials differ.
    ``seen``: the trials that share counts from, where fewer than ``n`` (a two-level
    figure's searching player plays n of the N).

    A rule change that alters 1 deal in 5,000 shows no change in 100 deals; its B − A is
    not known to be 0, only to be small:

    >>> same = Estimate(0.0, 0.0, 0.0, 0.0, 100)
    >>> b = bounded(same, -1, 1)
    >>> round(b.lo, 4), round(b.hi, 4)
    (-0.037, 0.037)
    >>> bounded(Estimate(0.5, 0.1, 0.3, 0.7, 100), -1, 1) == Estimate(0.5, 0.1, 0.3, 0.7, 100)
    True
    """
    if not (e.n >= 1 and e.se == 0 and low <= e.mean <= high):
        return e
    share = unseen_share(e.n if seen is None else seen, z)
    lo, hi = e.mean - (e.mean - low) * share, e.mean + (high - e.mean) * share
    return Estimate(e.mean, (hi - lo) / (2 * z), lo, hi, e.n)


def within(e: Estimate, low: float, high: float) -> Estimate:
    """``e`` held to ``low`` .. ``high``, the range the measure's values lie in. An estimate
    that adds a correction to a mean (a two-level one) may stray outside it, a share of
    deals above 1; the true value is inside, so cutting the interval there keeps its
    coverage.

    >>> e = within(Estimate(1.16, 0.22, 0.73, 1.59, 4000), 0.0, 1.0)
    >>> e.mean, e.lo, e.hi
    (1.0, 0.73, 1.0)

    An interval wholly outside the range (it missed the truth) is cut to the bound beyond:

    >>> e = within(Estimate(-0.15, 0.05, -0.25, -0.05, 20), 0.0, 1.0)
    >>> e.mean, e.lo, e.hi
    (0.0, 0.0, 0.0)
    """
    if math.isnan(e.mean) or (low <= e.lo and e.hi <= high):
        return e

    def cut(x: float) -> float:
        return min(max(x, low), high)

    return Estimate(cut(e.mean), e.se, cut(e.lo), cut(e.hi), e.n)


def held(e: Estimate, low: float, high: float, seen: int | None = None) -> Estimate:
    """``e`` within what a measure's range ``low`` .. ``high`` allows: :func:`bounded` where
    no trial showed a spread (``seen`` as there), then :func:`within`."""
    return within(bounded(e, low, high, seen=seen), low, high)


def _as_float_array(x) -> np.ndarray:
    return _finite(np.asarray(x, dtype=np.float64).ravel())


def _finite(a: np.ndarray) -> np.ndarray:
    """``a``, or ValueError where a NaN or an infinity would poison every sum it joins."""
    if not np.isfinite(a).all():
        raise ValueError("samples must be finite numbers (no NaN or infinity)")
    return a


def interval(mean: float, se: float, n: int, z: float = Z95) -> Estimate:
    """The mean of ``n`` trials with its standard error ``se`` and the interval of the
    normal quantile ``z``'s level: mean ± t·se, Student's t on n − 1 degrees of freedom
    (:func:`analyzer.student.t_multiplier`; 1.96 read 74-88% on 5 deals).

    >>> e = interval(10.0, 1.0, 5)
    >>> round(e.lo, 3), round(e.hi, 3), round(interval(10.0, 1.0, 10**6).hi, 3)
    (7.224, 12.776, 11.96)
    """
    half = t_multiplier(z, n - 1) * se
    return Estimate(mean, se, mean - half, mean + half, n)


def mean_ci(x, z: float = Z95) -> Estimate:
    """Sample mean of ``x`` with its standard error and interval ``mean ± t·se``.

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
    return interval(mean, se, n, z)


def wilson(k: int, n: int, z: float = Z95) -> Proportion:
    """Wilson score interval for ``k`` successes in ``n`` trials.

    Unlike ``p ± z·se`` it stays inside [0, 1] and is not degenerate at k=0 or
    k=n. ``se`` is the plug-in ``sqrt(p(1-p)/n)``. A ``k`` with a fraction counts trials
    shared among several (a game's win split by a tie): its trials vary less than whole
    ones, so the interval is, if anything, wide.

    >>> wilson(0, 10).lo, round(wilson(0, 10).hi, 4)
    (0.0, 0.2775)
    """
    k, n = (int(k) if float(k).is_integer() else float(k)), int(n)
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
    '1.667 ± 1.434 (n=3)'
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
    apart, so they share their P(best) equally. One trial has no spread to tell them
    apart by: NaN (it said 100% for whichever read higher once).

    >>> p_best([[1.0, 3.0, 3.0], [1.0, 3.0, 3.0]]).tolist()
    [0.0, 0.5, 0.5]
    >>> p_best([[1.0, 3.0]]).tolist()
    [nan, nan]
    """
    v = np.asarray(values, dtype=np.float64)
    if v.ndim != 2 or v.shape[1] == 0 or v.shape[0] == 0:
        raise ValueError("values must be an (n, K) array with n >= 1 and K >= 1")
    # identical columns would draw identical means, and argmax would hand every tie
    # to the first of them; compare the distinct columns and share out afterwards
    keep, which = _distinct_columns(v)
    distinct = v[:, keep]
    n, k = distinct.shape
    cov = np.atleast_2d(np.cov(distinct, rowvar=False)) / n if n >= 2 and k > 1 else None
    return _share_of_best(distinct.mean(axis=0), cov, which, draws, seed)


def p_best_of(moments, columns, draws: int = 20_000, seed: int = 0) -> np.ndarray:
    """:func:`p_best` of outcomes ``columns`` of ``moments`` (anything with ``same``,
    ``subset``, ``means`` and ``mean_covariance``, as :class:`PairedMoments`): outcomes equal
    on every trial share their P(best)."""
    keep: list[int] = []
    which = np.empty(len(columns), dtype=np.int64)
    for j, c in enumerate(columns):
        which[j] = next((g for g, i in enumerate(keep) if moments.same(i, c)), len(keep))
        if which[j] == len(keep):
            keep.append(c)
    distinct = moments.subset(keep)
    cov = distinct.mean_covariance() if len(keep) > 1 else None
    return _share_of_best(distinct.means(), cov, which, draws, seed)


def _share_of_best(means: np.ndarray, cov: np.ndarray | None, which: np.ndarray, draws: int,
                   seed: int) -> np.ndarray:
    """P(best) of distinct alternatives whose means are jointly normal (``cov``: the
    covariance of the means; None: not known, from under two trials), shared out to the
    alternatives (``which``: each one's distinct alternative). One alternative is best for
    sure; several without a covariance are NaN: no spread to tell them apart by."""
    k = len(means)
    if cov is None and k > 1:
        return np.full(len(which), np.nan)
    if cov is None:
        won = np.zeros(k)
        won[int(np.argmax(means))] = 1.0
    else:
        # the symmetric square root of cov, unique where eigh's vectors are not (a LAPACK
        # may flip their signs, and numpy's multivariate_normal draws through them): the
        # same seed gives the same P(best) on every machine
        w, v = np.linalg.eigh(cov)
        root = (v * np.sqrt(np.clip(w, 0.0, None))) @ v.T
        sample = means + np.random.default_rng(seed).standard_normal((draws, k)) @ root
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


class PairedMoments:
    """Running sums of K outcomes played on the same trials: the means of all K and the
    paired difference of any two, with their intervals, without keeping the trials.

    For trial rows x (K values each) it keeps n, Σx and Σxxᵀ; batches add. The sums of
    integer outcomes (every score bidlab simulates) are kept as exact integers in
    float64 (below 2**53), and the variances are formed from them in exact integer
    arithmetic, so two outcomes equal on every trial differ by exactly 0 ± 0.

    >>> m = PairedMoments.of([[3, 1], [5, 4], [7, 5]])
    >>> str(m.diff(0, 1))
    '1.667 ± 1.434 (n=3)'
    >>> m.estimate(0).mean
    5.0
    """

    def __init__(self, k: int):
        self.n = 0
        self.sums = np.zeros(k)
        self.cross = np.zeros((k, k))

    @classmethod
    def of(cls, values) -> PairedMoments:
        """The moments of an (n, K) array of outcomes (rows: trials)."""
        v = np.asarray(values, dtype=np.float64)
        m = cls(v.shape[1])
        m.add(v)
        return m

    @classmethod
    def of_columns(cls, columns, rows: int = 65_536) -> PairedMoments:
        """The moments of K equally long outcome arrays (one per alternative), summed a
        block of ``rows`` trials at a time so that no (n, K) copy is made."""
        m = cls(len(columns))
        n = len(columns[0]) if len(columns) else 0
        for lo in range(0, n, rows):
            m.add_columns([c[lo:lo + rows] for c in columns])
        return m

    @property
    def k(self) -> int:
        return len(self.sums)

    @property
    def n_paired(self) -> int:
        """The trials the policy played itself: all n (a two-level estimate's are fewer,
        :class:`analyzer.twolevel.TwoLevelMoments`)."""
        return self.n

    def add(self, values) -> None:
        """Add the trials of an (n, K) array."""
        v = _as_float_array(values).reshape(-1, self.k)
        self.add_sums(len(v), v.sum(axis=0), v.T @ v)

    def add_columns(self, columns) -> None:
        """Add the trials of K equally long outcome arrays (one per alternative): a (K, n)
        array or a list of K arrays, summed as rows, which spares the (n, K) copy."""
        v = _finite(np.asarray(columns, dtype=np.float64).reshape(self.k, -1))
        self.add_sums(v.shape[1], v.sum(axis=1), v @ v.T)

    def add_sums(self, n: int, sums: np.ndarray, cross: np.ndarray) -> None:
        """Add trials already summed: their count, Σx and Σxxᵀ."""
        self.n += int(n)
        self.sums += sums
        self.cross += cross

    def estimate(self, i: int, z: float = Z95) -> Estimate:
        """Mean of outcome ``i`` with its interval."""
        return _summed_estimate(self.n, self.sums[i], self.cross[i, i], z)

    def diff(self, i: int, j: int, z: float = Z95) -> Estimate:
        """Mean of outcome ``i`` minus outcome ``j`` on the same trials, with its interval."""
        total = self.sums[i] - self.sums[j]
        total_sq = self.cross[i, i] + self.cross[j, j] - 2 * self.cross[i, j]
        return _summed_estimate(self.n, total, total_sq, z)

    def absorb(self, other: PairedMoments) -> None:
        """Add the trials of ``other`` (the same K outcomes, summed elsewhere)."""
        self.add_sums(other.n, other.sums, other.cross)

    def __add__(self, other: PairedMoments) -> PairedMoments:
        out = PairedMoments(self.k)
        out.absorb(self)
        out.absorb(other)
        return out

    def same(self, i: int, j: int) -> bool:
        """Whether outcomes ``i`` and ``j`` were equal on every trial: Σ(xᵢ − xⱼ)² = 0,
        exact for whole-number outcomes."""
        return bool(self.cross[i, i] + self.cross[j, j] - 2 * self.cross[i, j] == 0
                    and self.sums[i] == self.sums[j])

    def subset(self, columns) -> PairedMoments:
        """The moments of outcomes ``columns`` alone, in that order."""
        idx = np.asarray(columns, dtype=np.int64)
        out = PairedMoments(len(idx))
        out.add_sums(self.n, self.sums[idx], self.cross[np.ix_(idx, idx)])
        return out

    def p_best(self, columns, draws: int = 20_000, seed: int = 0) -> np.ndarray:
        """:func:`p_best` of outcomes ``columns`` from the sums alone: outcomes equal on every
        trial share their P(best)."""
        return p_best_of(self, columns, draws, seed)

    def mean_covariance(self) -> np.ndarray | None:
        """The covariance of the K means (None with fewer than two trials: not known)."""
        return self.covariance() / self.n if self.n >= 2 else None

    def means(self) -> np.ndarray:
        return self.sums / self.n

    def covariance(self) -> np.ndarray:
        """The sample covariance of the K outcomes (ddof=1)."""
        mean = self.means()
        return (self.cross - self.n * np.outer(mean, mean)) / max(self.n - 1, 1)


class ColumnMoments:
    """Running n, Σx and Σx² of K outcomes: each one's mean with its interval, at a K-th of
    the cost of :class:`PairedMoments` when their differences are not needed.

    >>> m = ColumnMoments(2)
    >>> m.add_columns([[3, 5, 7], [1, 4, 5]])
    >>> str(m.estimate(1))
    '3.333 ± 5.171 (n=3)'
    """

    def __init__(self, k: int):
        self.n = 0
        self.sums = np.zeros(k)
        self.squares = np.zeros(k)

    @property
    def k(self) -> int:
        return len(self.sums)

    def add_columns(self, columns) -> None:
        """Add the trials of a (K, n) array, or a list of K equally long arrays."""
        v = _finite(np.asarray(columns, dtype=np.float64).reshape(self.k, -1))
        self.n += v.shape[1]
        self.sums += v.sum(axis=1)
        self.squares += np.einsum("ij,ij->i", v, v)

    def absorb(self, other: ColumnMoments) -> None:
        """Add the trials of ``other`` (the same K outcomes, summed elsewhere)."""
        self.n += other.n
        self.sums += other.sums
        self.squares += other.squares

    def estimate(self, i: int, z: float = Z95) -> Estimate:
        """Mean of outcome ``i`` with its interval."""
        return _summed_estimate(self.n, self.sums[i], self.squares[i], z)


def _summed_estimate(n: int, total: float, total_sq: float, z: float) -> Estimate:
    """The mean of n trials from their sum and sum of squares, with its interval; exact
    integer arithmetic when the sums are whole (every score bidlab simulates)."""
    if n == 0:
        raise ValueError("no trials yet")
    total, total_sq = float(total), float(total_sq)
    mean = total / n
    if n < 2:
        se = math.nan
    elif total.is_integer() and total_sq.is_integer():
        var_n2 = n * int(total_sq) - int(total) ** 2  # n²(n-1)/n · sample variance, exact
        se = math.sqrt(max(var_n2, 0) / (n * n * (n - 1)))
    else:
        se = math.sqrt(max(total_sq - total * mean, 0.0) / (n - 1) / n)
    return interval(mean, se, n, z)
