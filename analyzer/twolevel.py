"""Two-level (control-variate) estimates: what a searching player makes, at about the cost
of what a cheap one makes.

A cheap policy (the heuristic) plays N deals; the searching one (pimc, or dd) plays the
first n of the same deals as well (the counter-based streams deal them alike). With h a
deal's outcome under the cheap policy and s under the searching one,

    EV(search) = mean over the n deals of s − β (mean over the n of h − mean over the N of h):

the searching player's own mean, moved by as much as the cheap player's mean over those n
deals strays from its mean over all N (the regression estimator of two-phase sampling).
Each mean is unbiased, so the estimate is, for any β. The n deals are the first of the N,
so the means are correlated, and with r = s − β h its variance is

    Var(r) / n + (β² Var(h) + 2 β Cov(h, r)) / N,

every term estimated from the samples (``Cov`` on the n paired deals). The slope that makes
it least, for any n and N, is β = Cov(s, h) / Var(h) (then Cov(h, r) = 0), fitted on the
paired deals; fitting it costs a bias of order 1/n, small beside an interval of order
1/sqrt(n). With under MIN_FITTED paired deals a fitted slope would be noise, and β is 1:
the difference estimator, the cheap mean over N plus the mean of s − h over n. Either
way the estimate is the cheap mean over N plus a correction, what the searching player's
play adds. When n = N it is the plain mean of s, interval and all. The correction varies
little where the two players agree on most deals, so n can be a small share of N: for a
time budget the split that minimises the variance gives N and n in proportion to the
square roots of (β² Var(h) + 2 β Cov(h, r)) / cost(h) and Var(r) / cost(s) (two-phase
sampling; :func:`best_split`).

>>> import numpy as np
>>> h = np.array([3, 1, 4, 1, 5, 9, 2, 6])
>>> s = np.array([4, 1, 5])              # the searching player on the first three deals
>>> t = two_level(h, s)
>>> (t.n_base, t.n_paired, round(t.mean, 3), t.beta)
(8, 3, 4.542, 1.0)
>>> round(t.correction.mean, 3)
0.667

:class:`TwoLevelMoments` makes the same estimate for K alternatives played on the same deals
from sums alone (a hand evaluation's bids and pass), and their paired differences, so that
everything that ranks and decides on :class:`analyzer.stats.PairedMoments` works on it.

May import: numpy, :mod:`analyzer.stats`, :mod:`analyzer.student`, :mod:`analyzer.limits`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .limits import TIME_LIMIT
from .stats import Z95, Estimate, PairedMoments, mean_ci, p_best_of
from .student import t_multiplier

# paired deals below which each slope is 1 (the plain difference): fitting it costs a bias
# of order 1/n, and its variance from sums alone cannot see skewed outcomes, so on fewer
# deals it covered less (200 seeds, random play's bid 13 at n = 100: 91% against 92.5%)
MIN_FITTED = 200
# the slope rule is part of the name: a two-level number on fewer paired deals is the plain
# difference, and its provenance must not call it a regression without saying so
ESTIMATOR = f"two-level (regression control variate; slope 1 under {MIN_FITTED} paired deals)"


class TwoLevelError(ValueError):
    """Samples a two-level estimate cannot be made from."""


def search_cost(policy: str) -> int:
    """What a canonical policy string costs a deal, in double-dummy solves summed over its
    seats: random and the heuristic none (microseconds), dd one, pimc:W up to W.

    >>> search_cost("heuristic"), search_cost("dd"), search_cost("pimc:20,heuristic,dd,random")
    (0, 4, 21)
    """
    seats = policy.split(",")
    seats = seats * 4 if len(seats) == 1 else seats
    return sum({"dd": 1, "pimc": int(w or 1)}.get(name, 0)
               for name, _, w in (seat.partition(":") for seat in seats))


def check_request(policy: str, base: str, deals: int | None = None,
                  base_deals: int | None = None) -> None:
    """Refuse a two-level run that cannot be made or would only waste time, in one line: a
    ``base`` policy that is the searching ``policy`` itself or searches more than it
    (:func:`search_cost`; both canonical policy strings), or, when the sizes are given,
    n = ``deals`` outside 2 .. N = ``base_deals`` (the searched deals are the first of the
    cheap ones)."""
    if policy == base:
        raise TwoLevelError("the base policy is the policy itself; a two-level estimate needs "
                            "a cheaper one (e.g. policy pimc:20 with base heuristic)")
    if search_cost(base) > search_cost(policy):
        raise TwoLevelError(f"the base policy {base} searches more than the policy {policy}; "
                            "it plays every one of the N deals, so it must be the cheaper "
                            "one (random, heuristic < dd < pimc:W by worlds; e.g. policy "
                            "pimc:20 with base heuristic)")
    if deals is not None and base_deals is not None and not 2 <= deals <= base_deals:
        raise TwoLevelError(f"need 2 <= --deals (n) <= --base-deals (N); got n={deals:,}, "
                            f"N={base_deals:,}")


def check_budget(base: str | None, budget: float | None, deals: int | None = None,
                 base_deals: int | None = None) -> None:
    """Refuse, in one line, a ``budget`` that no two-level run would use (no ``base``
    policy) or that is not a positive number of seconds, and, as the command line refuses
    them, sizes given (not None) that the run would ignore: ``base_deals`` without a
    ``base``, ``deals`` beside a ``budget`` (it chooses them)."""
    if base is None and base_deals is not None:  # played a plain run, N ignored
        raise TwoLevelError("base_deals is the deals of a two-level estimate's base policy: "
                            "give a base policy too (e.g. base=\"heuristic\")")
    if budget is None:
        return
    if base is None:
        raise TwoLevelError("a budget splits the time of a two-level estimate between its two "
                            "policies: give a base policy too (e.g. base=\"heuristic\")")
    if not (isinstance(budget, (int, float)) and math.isfinite(budget) and budget > 0):
        raise TwoLevelError(f"a budget is a number of seconds above 0; got {budget!r}")
    if budget > TIME_LIMIT:  # its pilot alone would double for days, past any size check
        raise TwoLevelError(f"a budget is at most {TIME_LIMIT:,.0f} seconds (a day, the limit "
                            f"of a run); got {budget:,g}")
    if deals is not None:  # the budget's split chose n, the deals asked for were ignored
        raise TwoLevelError("a budget chooses the deals (n and N); drop deals")


@dataclass(frozen=True)
class TwoLevel:
    """A two-level estimate: ``mean`` with its ``se`` and 95% interval, the cheap policy's
    ``base`` mean over ``n_base`` deals plus the ``correction`` (what the searching player
    adds), which the first ``n_paired`` of them estimate with slope ``beta``."""

    mean: float
    se: float
    lo: float
    hi: float
    n_base: int
    n_paired: int
    base: Estimate
    correction: Estimate
    beta: float

    @property
    def half_width(self) -> float:
        return (self.hi - self.lo) / 2

    def format(self, digits: int = 3) -> str:
        return (f"{self.mean:.{digits}f} ± {self.half_width:.{digits}f} "
                f"(N={self.n_base:,}, n={self.n_paired:,}; correction "
                f"{self.correction.mean:+.{digits}f} ± {self.correction.half_width:.{digits}f}, "
                f"beta {self.beta:.2f})")

    def __str__(self) -> str:
        return self.format()

    def to_dict(self) -> dict:
        """What a table, a JSON document or a report shows of it: the estimator, N, n, the
        correction, the slope and every interval."""
        return {"estimator": ESTIMATOR, "mean": self.mean, "se": self.se, "lo": self.lo,
                "hi": self.hi, "n_base": self.n_base, "n_paired": self.n_paired,
                "base": self.base.mean, "base_lo": self.base.lo, "base_hi": self.base.hi,
                "correction": self.correction.mean, "correction_lo": self.correction.lo,
                "correction_hi": self.correction.hi, "beta": self.beta}


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
    m = TwoLevelMoments.of(h[None], s[None])
    e = m.estimate(0, z)
    return TwoLevel(e.mean, e.se, e.lo, e.hi, big, small, mean_ci(h, z=z),
                    m.correction(0, z), float(m.betas()[0]))


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
    paired deals cost both). ``var_h``, ``var_d`` and ``cov_hd``: a deal's variance of the
    base mean's part (β h), of the paired part (r = s − β h) and their covariance, as
    :meth:`TwoLevelMoments.variances` estimates them from a pilot run (with β = 1: Var(h),
    Var(s − h), Cov(h, s − h))."""
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

    Alternative i's estimate is mean_n(s_i) − β_i (mean_n(h_i) − mean_N(h_i)) with its own
    slope (:meth:`betas`); the covariance of the K estimates, and so the interval of any
    contrast of them (one alternative, or the difference of two), follows from the
    module's formula column by column (:meth:`mean_covariance`). It has the interface of
    :class:`analyzer.stats.PairedMoments` (``k``, ``n``, ``estimate``, ``diff``, ``means``,
    ``p_best``, ``same``, ``subset``), so the ranking and the decision rule use it as they
    are; ``n`` is N, ``n_paired`` is n.

    With under MIN_FITTED paired deals each slope is 1, so the difference of two
    alternatives is the two-level estimate of their difference:

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

    @property
    def fitted(self) -> bool:
        """Whether the slopes are fitted: at least MIN_FITTED paired deals."""
        return self.n_paired >= MIN_FITTED

    def betas(self, fit: bool | None = None) -> np.ndarray:
        """Each alternative's slope β = Cov(s, h) / Var(h) on the paired deals: 1 (the plain
        difference) unless :attr:`fitted` (``fit`` True: fitted all the same), or where the
        cheap outcome never varies."""
        return self._slopes(self.joint.covariance(), fit)

    def _slopes(self, joint: np.ndarray, fit: bool | None) -> np.ndarray:
        """:meth:`betas` from the paired deals' covariance ``joint``."""
        k = self.k
        if not (self.fitted if fit is None else fit):
            return np.ones(k)
        var_h, cov_sh = np.diag(joint)[k:], np.diag(joint[:k, k:])
        return np.where(var_h > 0, cov_sh / np.where(var_h > 0, var_h, 1.0), 1.0)

    def means(self) -> np.ndarray:
        joint = self.joint.means()
        return joint[:self.k] - self.betas() * (joint[self.k:] - self.base.means())

    def _parts(self, fit: bool | None = None):
        """(β, Var of the residuals r = s − β h on the paired deals, Var(h) on the N deals,
        Cov(h_i, r_j) on the paired deals), K x K each but β (``fit``: as :meth:`betas`)."""
        k = self.k
        joint = self.joint.covariance()
        beta = self._slopes(joint, fit)
        to_r = np.hstack([np.eye(k), -np.diag(beta)])
        return beta, to_r @ joint @ to_r.T, self.base.covariance(), joint[k:, :] @ to_r.T

    def _covariance(self, shift: float) -> np.ndarray:
        """The covariance of mean_n(r) + w mean_N(h), w = β + ``shift`` for each
        alternative: the estimates with shift 0, the corrections (minus mean_N(h)) with −1."""
        beta, var_r, var_h, cov_hr = self._parts()
        w = np.diag(beta + shift)
        cross = w @ cov_hr
        return (var_r * self._fitting_penalty() / self.n_paired
                + (w @ var_h @ w + cross + cross.T) / self.n)

    def _fitting_penalty(self) -> float:
        """What fitting the slopes adds to the paired part's variance: the residuals'
        variance on n - 2 degrees of freedom, not n - 1, and the slope's own error, 1 / (n - 3)
        of it (the regression estimator's small-sample variance): their sum of squares over
        n - 3. In proportion to the share of the N deals not paired, since with n = N the
        slope moves nothing and the estimate is the plain mean; 1 unfitted."""
        if not self.fitted:
            return 1.0
        n = self.n_paired
        return 1 + (1 - n / self.n) * ((n - 1) / (n - 3) - 1)

    def mean_covariance(self) -> np.ndarray | None:
        """The covariance of the K two-level means (None with under two paired deals)."""
        return self._covariance(0.0) if self.n_paired >= 2 else None

    def correction_covariance(self) -> np.ndarray | None:
        """The covariance of the K corrections, each two-level mean minus the cheap policy's
        mean over N (None with under two paired deals)."""
        return self._covariance(-1.0) if self.n_paired >= 2 else None

    def _contrast(self, c: np.ndarray, mean: float, cov: np.ndarray, n: int,
                  z: float) -> Estimate:
        se = math.sqrt(max(float(c @ cov @ c), 0.0))
        half = t_multiplier(z, self.n_paired - 1) * se  # the few searched deals' spread
        return Estimate(mean, se, mean - half, mean + half, n)

    def _check(self) -> None:
        if self.n_paired < 2:
            raise TwoLevelError(f"need at least 2 paired deals; got {self.n_paired}")

    def estimate(self, i: int, z: float = Z95) -> Estimate:
        """The two-level estimate of alternative ``i``, with its interval (n: N)."""
        return self.diff(i, None, z)

    def diff(self, i: int, j: int | None, z: float = Z95) -> Estimate:
        """The two-level estimate of alternative ``i`` minus ``j`` (paired; None: nothing),
        with its interval (n: N)."""
        self._check()
        c = _contrast_of(self.k, i, j)
        return self._contrast(c, float(c @ self.means()), self.mean_covariance(), self.n, z)

    def correction(self, i: int, z: float = Z95) -> Estimate:
        """How far the searching player moves alternative ``i`` from the cheap policy's mean
        over N: its estimate minus that mean, with its interval (n: the paired deals)."""
        return self.diff_correction(i, None, z)

    def diff_correction(self, i: int, j: int | None, z: float = Z95) -> Estimate:
        """How far the searching player moves alternative ``i`` minus ``j`` (the two-level
        estimate minus the cheap policy's mean over N), with its interval (n: the paired
        deals)."""
        self._check()
        c = _contrast_of(self.k, i, j)
        mean = float(c @ (self.means() - self.base.means()))
        return self._contrast(c, mean, self.correction_covariance(), self.n_paired, z)

    def variances(self, weights) -> tuple[float, float, float]:
        """What :func:`best_split` takes for a contrast of the alternatives (``weights``: one
        per alternative, or an alternative's index): the variance a deal of the base mean's
        part (β h), of the paired part (r = s − β h) and their covariance. The slopes are
        fitted even on a pilot's few paired deals: the split is for the run that follows,
        whose n fits them."""
        c = (np.eye(self.k)[weights] if np.ndim(weights) == 0
             else np.asarray(weights, dtype=np.float64))
        beta, var_r, var_h, cov_hr = self._parts(fit=True)
        bc = beta * c
        return float(bc @ var_h @ bc), float(c @ var_r @ c), float(bc @ cov_hr @ c)

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

    def same(self, i: int, j: int) -> bool:
        """Whether alternatives ``i`` and ``j`` were equal on every deal, under both policies;
        where every deal was searched (n = N) the estimate is the searching player's own
        mean, so equal under it alone, as a plain evaluation merges them."""
        if not self.joint.same(i, j):
            return False
        return self.n_paired == self.n or (self.base.same(i, j)
                                           and self.joint.same(self.k + i, self.k + j))

    def subset(self, columns) -> TwoLevelMoments:
        columns = list(columns)
        return TwoLevelMoments(self.base.subset(columns),
                               self.joint.subset(columns + [self.k + c for c in columns]))

    def p_best(self, columns, draws: int = 20_000, seed: int = 0) -> np.ndarray:
        return p_best_of(self, columns, draws, seed)


def _contrast_of(k: int, i: int, j: int | None) -> np.ndarray:
    """The weights of alternative ``i`` minus ``j`` (None: ``i`` alone) among ``k``."""
    c = np.zeros(k)
    c[i] += 1
    if j is not None:
        c[j] -= 1
    return c
