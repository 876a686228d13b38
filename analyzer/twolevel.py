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

May import: numpy, :mod:`analyzer.stats`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .stats import Z95, Estimate, mean_ci

ESTIMATOR = "two-level (control variate)"


class TwoLevelError(ValueError):
    """Samples a two-level estimate cannot be made from."""


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
    a = max(var_h + 2 * cov_hd, 1e-12 * max(var_h, 1.0))  # the base mean's share
    b = max(var_d, 0.0)
    # Lagrange: N ~ sqrt(a / cost_h), n ~ sqrt(b / cost_s), N cost_h + n cost_s = seconds
    scale = seconds / (math.sqrt(a * cost_h) + math.sqrt(b * cost_s))
    big = max(2, int(scale * math.sqrt(a / cost_h)))
    small = min(big, max(2, int(scale * math.sqrt(b / cost_s))))
    se = math.sqrt(a / big + b / small)
    var_s = var_h + var_d + 2 * cov_hd
    plain = math.sqrt(max(var_s, 0.0) / max(2, int(seconds / cost_s)))
    return Split(big, small, se, plain)
