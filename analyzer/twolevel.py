"""Two-level (control-variate) estimates: what a searching player makes, at about the cost
of what a cheap one makes.

A cheap policy (the heuristic) plays N deals; the searching one (pimc, or dd) plays the
first n of the same deals as well (the counter-based streams deal them alike). With h a
deal's outcome under the cheap policy and d = s - h the searching policy's correction on
the same deal,

    EV(search) = mean over the N deals of h + mean over the first n of d

is unbiased (each mean is). The n deals are the first of the N, so the two means are
correlated, and its variance is

    Var(h) / N + Var(d) / n + 2 Cov(h, d) / N,

every term estimated from the samples (``Cov`` on the n paired deals). When n = N it is the
plain mean of s, interval and all. The correction is small and varies little where the
two players agree on most deals, so n can be a small share of N: for a time budget the
split that minimises the variance gives N and n in proportion to the square roots of
(Var(h) + 2 Cov(h, d)) / cost(h) and Var(d) / cost(s) (two-phase sampling;
:func:`best_split`).

>>> import numpy as np
>>> h = np.array([3, 1, 4, 1, 5, 9, 2, 6])
>>> s = np.array([4, 1, 5])              # the searching player on the first three deals
>>> t = two_level(h, s)
>>> (t.n_base, t.n_paired, round(t.mean, 3))
(8, 3, 4.542)
>>> round(t.correction.mean, 3)
0.667

:class:`TwoLevelMoments` makes the same estimate for K alternatives played on the same deals
from sums alone (a hand evaluation's bids and pass), and their paired differences, so that
everything that ranks and decides on :class:`analyzer.stats.PairedMoments` works on it.

May import: numpy, :mod:`analyzer.stats`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .stats import Z95, Estimate, PairedMoments, mean_ci, p_best_of

ESTIMATOR = "two-level (control variate)"


class TwoLevelError(ValueError):
    """Samples a two-level estimate cannot be made from."""


def check_request(policy: str, base: str, deals: int | None = None,
                  base_deals: int | None = None) -> None:
    """Refuse a two-level run that cannot be made, in one line: a ``base`` policy that is
    the searching ``policy`` itself (both canonical policy strings), or, when the sizes are
    given, n = ``deals`` outside 2 .. N = ``base_deals`` (the searched deals are the first
    of the cheap ones)."""
    if policy == base:
        raise TwoLevelError("the base policy is the policy itself; a two-level estimate needs "
                            "a cheaper one (e.g. --policy pimc:20 --base heuristic)")
    if deals is not None and base_deals is not None and not 2 <= deals <= base_deals:
        raise TwoLevelError(f"need 2 <= --deals (n) <= --base-deals (N); got n={deals:,}, "
                            f"N={base_deals:,}")


def check_budget(base: str | None, budget: float | None) -> None:
    """Refuse, in one line, a ``budget`` that no two-level run would use (no ``base``
    policy) or that is not a positive number of seconds."""
    if budget is None:
        return
    if base is None:
        raise TwoLevelError("a budget splits the time of a two-level estimate between its two "
                            "policies: give a base policy too (e.g. base=\"heuristic\")")
    if not (isinstance(budget, (int, float)) and math.isfinite(budget) and budget > 0):
        raise TwoLevelError(f"a budget is a number of seconds above 0; got {budget!r}")


@dataclass(frozen=True)
class TwoLevel:
    """A two-level estimate: ``mean`` with its ``se`` and 95% interval, from the cheap
    policy's ``base`` mean over ``n_base`` deals and the ``correction`` (searching minus
    cheap) over the first ``n_paired`` of them."""

    mean: float
    se: float
    lo: float
    hi: float
    n_base: int
    n_paired: int
    base: Estimate
    correction: Estimate

    @property
    def half_width(self) -> float:
        return (self.hi - self.lo) / 2

    def format(self, digits: int = 3) -> str:
        return (f"{self.mean:.{digits}f} ± {self.half_width:.{digits}f} "
                f"(N={self.n_base:,}, n={self.n_paired:,}; correction "
                f"{self.correction.mean:+.{digits}f} ± {self.correction.half_width:.{digits}f})")

    def __str__(self) -> str:
        return self.format()

    def to_dict(self) -> dict:
        """What a table, a JSON document or a report shows of it: the estimator, N, n, the
        correction and every interval."""
        return {"estimator": ESTIMATOR, "mean": self.mean, "se": self.se, "lo": self.lo,
                "hi": self.hi, "n_base": self.n_base, "n_paired": self.n_paired,
                "base": self.base.mean, "base_lo": self.base.lo, "base_hi": self.base.hi,
                "correction": self.correction.mean, "correction_lo": self.correction.lo,
                "correction_hi": self.correction.hi}


def two_level(base, paired, z: float = Z95) -> TwoLevel:
    """The two-level estimate from ``base``, the cheap policy's outcomes on deals 0 .. N-1,
    and ``paired``, the searching policy's outcomes on deals 0 .. n-1 (the same deals, in
    the same order; 2 <= n <= N)."""
    h = np.asarray(base, dtype=np.float64).ravel()
    s = np.asarray(paired, dtype=np.float64).ravel()
    big, small = len(h), len(s)
    if small < 2 or small > big:
        raise TwoLevelError(f"need 2 <= n <= N paired deals (the first n of the N); got "
                            f"n={small:,}, N={big:,}")
    if not (np.isfinite(h).all() and np.isfinite(s).all()):
        raise TwoLevelError("outcomes must be finite numbers (no NaN or infinity)")
    d = s - h[:small]
    var_h = h.var(ddof=1) if big > 1 else 0.0
    cov_hd = float(np.cov(h[:small], d, ddof=1)[0, 1])
    variance = var_h / big + d.var(ddof=1) / small + 2 * cov_hd / big
    se = math.sqrt(max(variance, 0.0))
    mean = float(h.mean() + d.mean())
    return TwoLevel(mean, se, mean - z * se, mean + z * se, big, small, mean_ci(h, z=z),
                    mean_ci(d, z=z))


@dataclass(frozen=True)
class Split:
    """How many deals each policy plays for a budget: ``n_base`` cheap ones, the first
    ``n_paired`` of them by the searching player too; ``se`` the standard error expected,
    and ``plain_se`` that of the searching player alone for the same time."""

    n_base: int
    n_paired: int
    se: float
    plain_se: float

    @property
    def gain(self) -> float:
        """How many times narrower the interval is than the searching player's alone."""
        return self.plain_se / self.se if self.se > 0 else math.inf


def best_split(var_h: float, var_d: float, cov_hd: float, cost_h: float, cost_s: float,
               seconds: float) -> Split:
    """The N and n that minimise the two-level variance for ``seconds`` of work, where the
    cheap policy costs ``cost_h`` seconds a deal and the searching one ``cost_s`` (the
    paired deals cost both). Variances and covariance as :func:`two_level` estimates them,
    from a pilot run."""
    if min(cost_h, cost_s, seconds) <= 0:
        raise TwoLevelError("costs and the budget must be positive seconds")
    var_s = max(var_h + var_d + 2 * cov_hd, 0.0)
    plain = math.sqrt(var_s / max(2, int(seconds / cost_s)))
    # every deal paired (N = n) is the searching player's plain mean: the best there is when
    # the cheap player's deals would add more noise than they take away (a <= 0 below)
    everyone = max(2, int(seconds / (cost_h + cost_s)))
    best = Split(everyone, everyone, math.sqrt(var_s / everyone), plain)
    a = var_h + 2 * cov_hd  # the base mean's share
    b = max(var_d, 0.0)
    if a <= 0:
        return best
    # Lagrange: N ~ sqrt(a / cost_h), n ~ sqrt(b / cost_s), N cost_h + n cost_s = seconds;
    # the n paired deals are among the N, so N >= n
    scale = seconds / (math.sqrt(a * cost_h) + math.sqrt(b * cost_s))
    big = max(2, int(scale * math.sqrt(a / cost_h)))
    small = max(2, int(scale * math.sqrt(b / cost_s)))
    if big < small:
        return best
    se = math.sqrt(a / big + b / small)
    return Split(big, small, se, plain) if se < best.se else best


class TwoLevelMoments:
    """Two-level estimates of K alternatives from sums: ``base``, the cheap policy's paired
    moments of the K outcomes over N deals, and ``joint``, the moments of the searching
    policy's K outcomes then the cheap policy's K on the first n of them (2K columns).

    The estimate of any contrast c (one alternative, or the difference of two) is
    c·mean_N(h) + c·mean_n(s − h), with variance c'Σ_h c / N + Var(c·d) / n
    + 2 Cov(c·h, c·d) / N (:func:`two_level`, column by column). It has the interface of
    :class:`analyzer.stats.PairedMoments` (``k``, ``n``, ``estimate``, ``diff``, ``means``,
    ``p_best``, ``same``, ``subset``), so the ranking and the decision rule use it as they
    are; ``n`` is N, ``n_paired`` is n.

    >>> import numpy as np
    >>> h = np.array([[3, 1, 4, 1, 5, 9, 2, 6], [2, 2, 3, 1, 4, 8, 1, 5]])
    >>> s = np.array([[4, 1, 5], [2, 3, 3]])
    >>> m = TwoLevelMoments.of(h, s)
    >>> round(m.estimate(0).mean, 3), round(two_level(h[0], s[0]).mean, 3)
    (4.542, 4.542)
    >>> round(m.diff(0, 1).se, 6) == round(two_level(h[0] - h[1], s[0] - s[1]).se, 6)
    True
    """

    def __init__(self, base: PairedMoments, joint: PairedMoments):
        if joint.k != 2 * base.k:
            raise TwoLevelError(f"joint moments of {joint.k} outcomes for {base.k} "
                                "alternatives; expected the searching then the cheap policy's")
        if joint.n > base.n:
            raise TwoLevelError(f"need n <= N paired deals (the first n of the N); got "
                                f"n={joint.n:,}, N={base.n:,}")
        self.base = base
        self.joint = joint

    @classmethod
    def of(cls, base, paired) -> TwoLevelMoments:
        """From outcome arrays: ``base`` (K, N) of the cheap policy, ``paired`` (K, n) of the
        searching one on the first n deals."""
        h = np.asarray(base, dtype=np.float64)
        s = np.asarray(paired, dtype=np.float64)
        b, j = PairedMoments(len(h)), PairedMoments(2 * len(h))
        b.add_columns(h)
        j.add_columns(np.vstack([s, h[:, :s.shape[1]]]))
        return cls(b, j)

    @property
    def k(self) -> int:
        return self.base.k

    @property
    def n(self) -> int:
        return self.base.n

    @property
    def n_paired(self) -> int:
        return self.joint.n

    def _contrast(self, c: np.ndarray, z: float) -> Estimate:
        k, big, small = self.k, self.n, self.n_paired
        if small < 2:
            raise TwoLevelError(f"need at least 2 paired deals; got {small}")
        joint = self.joint.covariance()
        d = np.r_[c, -c]  # s - h on the joint columns
        var_h = c @ self.base.covariance() @ c
        var_d = d @ joint @ d
        cov_hd = np.r_[np.zeros(k), c] @ joint @ d
        se = math.sqrt(max(var_h / big + var_d / small + 2 * cov_hd / big, 0.0))
        mean = float(c @ self.means())
        return Estimate(mean, se, mean - z * se, mean + z * se, big)

    def estimate(self, i: int, z: float = Z95) -> Estimate:
        """The two-level estimate of alternative ``i``, with its interval (n: N)."""
        return self._contrast(np.eye(self.k)[i], z)

    def diff(self, i: int, j: int, z: float = Z95) -> Estimate:
        """The two-level estimate of alternative ``i`` minus ``j`` (paired), with its interval."""
        c = np.zeros(self.k)
        c[i] += 1
        c[j] -= 1
        return self._contrast(c, z)

    def correction(self, i: int, z: float = Z95) -> Estimate:
        """Mean of (searching − cheap) for alternative ``i`` over the n paired deals."""
        return self.joint.diff(i, self.k + i, z)

    def diff_correction(self, i: int, j: int, z: float = Z95) -> Estimate:
        """Mean of (searching − cheap) for alternative ``i`` minus ``j`` over the n paired
        deals: how far the searching player moves their difference."""
        c = np.zeros(self.k)
        c[i] += 1
        c[j] -= 1
        d = np.r_[c, -c]
        mean = float(d @ self.joint.means())
        se = math.sqrt(max(d @ self.joint.covariance() @ d, 0.0) / self.n_paired)
        return Estimate(mean, se, mean - z * se, mean + z * se, self.n_paired)

    def variances(self, i: int) -> tuple[float, float, float]:
        """Var(h), Var(d) and Cov(h, d) of alternative ``i`` (h: the cheap policy's outcome,
        d: the searching one's minus it), as :func:`best_split` takes them."""
        joint = self.joint.covariance()
        k = self.k
        var_d = joint[i, i] + joint[k + i, k + i] - 2 * joint[i, k + i]
        cov_hd = joint[k + i, i] - joint[k + i, k + i]
        return float(self.base.covariance()[i, i]), float(var_d), float(cov_hd)

    def leading_variances(self) -> tuple[float, float, float]:
        """:meth:`variances` of the alternative with the highest estimate: what a budget is
        split for."""
        return self.variances(int(np.argmax(self.means())))

    def correlation(self, i: int) -> float:
        """The per-deal correlation of the two policies' outcomes of alternative ``i`` on the
        paired deals: what bounds the gain, 1 / sqrt(1 - rho^2) at most (NaN if either
        never varies)."""
        joint = self.joint.covariance()
        k = self.k
        scale = math.sqrt(joint[i, i] * joint[k + i, k + i])
        return float(joint[i, k + i] / scale) if scale > 0 else math.nan

    def base_estimate(self, i: int, z: float = Z95) -> Estimate:
        """The cheap policy's mean of alternative ``i`` over the N deals."""
        return self.base.estimate(i, z)

    def means(self) -> np.ndarray:
        joint = self.joint.means()
        return self.base.means() + joint[:self.k] - joint[self.k:]

    def mean_covariance(self) -> np.ndarray | None:
        """The covariance of the K two-level means (None with under two paired deals)."""
        if self.n_paired < 2:
            return None
        k, big, small = self.k, self.n, self.n_paired
        joint = self.joint.covariance()
        to_d = np.hstack([np.eye(k), -np.eye(k)])  # s - h
        var_d = to_d @ joint @ to_d.T
        cov_hd = joint[k:, :] @ to_d.T  # Cov(h_i, d_j)
        return self.base.covariance() / big + var_d / small + (cov_hd + cov_hd.T) / big

    def same(self, i: int, j: int) -> bool:
        """Whether alternatives ``i`` and ``j`` were equal on every deal, under both policies."""
        return (self.base.same(i, j) and self.joint.same(i, j)
                and self.joint.same(self.k + i, self.k + j))

    def contrast(self, weights) -> TwoLevelMoments:
        """The two-level moments of one combination of the alternatives (weights: B − A is
        [-1, 1]), as one alternative: what a time budget is split for."""
        c = np.asarray(weights, dtype=np.float64)[None, :]
        zero = np.zeros_like(c)
        return TwoLevelMoments(self.base.linear(c),
                               self.joint.linear(np.block([[c, zero], [zero, c]])))

    def subset(self, columns) -> TwoLevelMoments:
        columns = list(columns)
        return TwoLevelMoments(self.base.subset(columns),
                               self.joint.subset(columns + [self.k + c for c in columns]))

    def p_best(self, columns, draws: int = 20_000, seed: int = 0) -> np.ndarray:
        return p_best_of(self, columns, draws, seed)
