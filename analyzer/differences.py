"""B − A of one measure between two rule variants played on the same deals, and the
delta method's interval for a smooth function of paired means: what :mod:`analyzer.compare`
reports for each measure. An interval never claims more than the deals show: where no deal
or only a handful differed, the measure's range bounds what the unseen deals may do.

May import: numpy, :mod:`.advice` (its trial floor), :mod:`.moments` and :mod:`.stats`.
"""

from __future__ import annotations

import math

import numpy as np

from .advice import MIN_TRIALS
from .moments import Moments
from .stats import Z95, Estimate, PairedMoments, bounded, interval, unseen_share


def bounded_difference(d: Estimate, span: tuple[float, float], differ: int,
                       seen: int | None = None) -> Estimate:
    """B − A where few deals differed. None, or no spread: the interval a difference within
    the measure's range allows, not a width of 0 (a rule that alters 1 deal in 5,000 shows
    none in 100). Under :data:`MIN_TRIALS` altered deals, no narrower than that either way
    of its mean: the normal interval on a handful of deals was narrower with one deal
    altered than with none, and covered 84% where 3 were expected; not so where every deal
    was altered. ``seen``: the deals the
    measure is defined on under the variant that has fewer, where fewer than ``d.n`` (a
    make rate of 30 contracts all made under A, 40 under B, of 2,000 deals read 0.000 ±
    0.002, and covered 62%)."""
    lo, hi = span
    seen = d.n if seen is None else seen
    if not d.n:
        return d
    if differ == 0 or d.se == 0:
        return bounded(d, lo - hi, hi - lo, seen=seen)
    if differ >= MIN_TRIALS or differ >= d.n:
        # every deal altered (a whole game's length under another target): no mass of
        # zeros to hide the few that moved, so the paired t interval stands; widened by
        # the range (a game's cap of 1,000 deals) it read -4.65 [-165.6, +156.3] on 20
        return d
    unseen = (hi - lo) * unseen_share(seen)  # what deals like none seen may move it by
    low, high = min(d.lo, d.mean - unseen), max(d.hi, d.mean + unseen)
    return Estimate(d.mean, (high - low) / (2 * Z95), low, high, d.n)


def difference(both: Moments, defined: PairedMoments) -> Estimate | None:
    """B − A of a measure. Where the variants define it on the same deals (every deal, or
    the same contract deals), the paired difference on those deals (``both``). Where a rule
    change moves deals in or out of it (a contract only under B), B's mean over its deals
    minus A's over its own: ratio estimators over every deal, Σ value / Σ defined, paired
    deal by deal, with the delta method's interval (``defined``: the moments of A's value
    where defined else 0, A's defined, then B's two). Pairing only the deals both define
    would compare what neither mean is about, and hide the change."""
    if defined.same(1, 3):
        return both.estimate() if both.n > 1 else None
    if defined.n < 2 or min(defined.sums[1], defined.sums[3]) < 2:
        return None  # a variant's mean of one deal has no spread to count
    value_a, share_a, value_b, share_b = defined.means()
    grad_a, grad_b = ratio_gradients(defined.means())
    return delta(value_b / share_b - value_a / share_a, grad_b - grad_a,
                  defined.mean_covariance(), defined.n)


def ratio_gradients(means: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The gradients of A's and B's means over their own deals, Σ value / Σ defined, in
    the four means (A's value where defined else 0, A defined, then B's two)."""
    value_a, share_a, value_b, share_b = means
    return (np.array([1 / share_a, -value_a / share_a ** 2, 0.0, 0.0]),
            np.array([0.0, 0.0, 1 / share_b, -value_b / share_b ** 2]))


def delta(mean: float, gradient: np.ndarray, covariance: np.ndarray, n: int) -> Estimate:
    """A smooth function of means, ``mean``, with the delta method's 95% interval."""
    se = math.sqrt(max(float(gradient @ covariance @ gradient), 0.0))
    return interval(mean, se, n)
