"""The decision rule behind every recommendation: advice that respects the noise.

A bidder's alternatives form a ladder: pass, then bids from the lowest up (for Rook,
"bid up to b" for rising b). All of them are played on the same deals, so any two
differ by a paired mean whose 95% interval is narrow. The rule:

* Start at pass. Going up the ladder, move the recommendation to a higher bid only
  when that bid beats the current recommendation beyond the noise: the paired
  difference's lower bound is above zero. A bid that is no better, or better by less
  than the noise, never displaces a lower one.
* "Bid up to b" is the highest bid whose paired gain over passing is above zero beyond
  the noise (none: passing is as good as any bid).
* Nothing is beyond the noise on fewer than 30 trials (:data:`MIN_TRIALS`): a normal
  interval from a handful of deals is not one. A two-level estimate's trials are its
  searched deals (n), not the cheap ones (N): its correction's spread is read off n.
* The recommendation is *clear* when it also beats, beyond the noise, the action with
  the highest estimate among the others (or equals it on every deal). A stop rule may
  play on until it is.

"Beyond the noise" holds for the ladder as a whole: a ladder of m bids makes up to m
comparisons, and at 95% each, a hand whose bids are all worth exactly what passing is
would still see one of 27 Rook ceilings "win" about half the time. So each comparison
uses the Bonferroni interval for m (z = 2.91 for 14 bids, 3.11 for Rook's 27, 1.96 for
one): the chance that any bid is recommended over an equal pass is at most 2.5%. Where the
ladder itself was picked by the same trials (a Pedro hand's trump: the best of four on
those deals), m counts the bids of every ladder it was picked from (56, z = 3.32). The
sentence shows the margin with that interval.

So a player reads "pass: no bid beats passing beyond the noise (best: bid 3, +0.002 ±
0.220)" rather than a bid that won by a hair.

A stop rule that plays on until the recommendation is clear looks more than once, and
each look is another chance for noise to look decisive: asked after every one of 32
batches, two bids worth exactly the same were called "clear" in 17.7% of 2,000 runs
(tests/test_hand_checks.py; 2.1% with the looks below). So such a rule looks only at a
few trial counts (each double the last: :func:`decision_looks`), and its looks share the
2.5%: ``decide(..., looks=K)`` uses the Bonferroni interval for m × K comparisons, and
the run's decision is reported at that level: it stopped because the decision was clear
there, and the walk at one look's level may climb to a bid that only cleared it.

>>> from analyzer.stats import PairedMoments
>>> m = PairedMoments.of([[0, 1, 3], [0, 2, 2], [0, 1, 4], [0, 0, 5]] * 8)
>>> d = decide(m, ["pass", "bid 6", "bid 7"])
>>> d.action, d.clear, round(d.z, 2)
('bid 7', True, 2.24)
>>> d.sentence()
'bid 7: +3.50 ± 0.47 over passing (95% for the 2 bids compared)'

May import: :mod:`.stats` and :mod:`.estimate_text`; never a game.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from statistics import NormalDist

import numpy as np

from .estimate_text import plus_minus
from .stats import Z95, Estimate, PairedMoments

# Fewer trials tell nothing beyond the noise: a normal interval from a handful of deals
# is not one (2 deals of a strong Pedro hand read "+17.00 ± 2.91 over passing", and 2
# hands of a Rook chart class that gained alike "+170.0 ± 0.0")
MIN_TRIALS = 30
# A gain beyond the noise can still be too small to matter at the table: one whose whole
# interval lies under 1% of the points a deal holds (0.14 of Pedro's 14, 2 of Rook's 200)
# is called slight, so that "bid 3: +0.008 ± 0.004" does not read as advice worth taking
SLIGHT_SHARE = 0.01


def beyond_noise(d: Estimate) -> bool:
    """Whether a paired difference is above zero beyond the noise: its lower bound, on at
    least :data:`MIN_TRIALS` trials."""
    return bool(d.lo > 0) and d.n >= MIN_TRIALS


def slight(gain: Estimate | None, deal_points: float | None) -> bool:
    """Whether a recommended ``gain`` over passing is slight: its whole 95% interval under
    :data:`SLIGHT_SHARE` of ``deal_points``, the points a deal holds (None: not judged).

    >>> slight(Estimate(0.008, 0.002, 0.004, 0.012, 5000), 14), slight(
    ...     Estimate(0.1, 0.03, 0.04, 0.16, 5000), 14)
    (True, False)
    """
    return gain is not None and deal_points is not None and gain.hi < SLIGHT_SHARE * deal_points


def slight_words(deal_points: float) -> str:
    """What "slight" means, for a table's legend or a sentence.

    >>> slight_words(14)
    'under 0.14 points a deal, 1% of the 14 a deal holds'
    """
    return f"under {SLIGHT_SHARE * deal_points:g} points a deal, {SLIGHT_SHARE:.0%} of the " \
           f"{deal_points:g} a deal holds"


def ladder_z(comparisons: int) -> float:
    """The normal quantile that keeps the chance of any of ``comparisons`` one-sided false
    gains at 2.5% (Bonferroni); 1.96 for one.

    >>> round(ladder_z(1), 2), round(ladder_z(14), 2), round(ladder_z(27), 2)
    (1.96, 2.91, 3.11)
    """
    return Z95 if comparisons <= 1 else NormalDist().inv_cdf(1 - 0.025 / comparisons)


def decision_looks(first: int, limit: int) -> list[int]:
    """The trial counts at which a stop rule asks whether the decision is clear: ``first``,
    then each double of the last, then ``limit``. Doubling keeps the looks few (8 from
    10,000 to 1,000,000 trials) and so the price of sharing the 95% among them small.

    >>> decision_looks(10_000, 1_000_000)
    [10000, 20000, 40000, 80000, 160000, 320000, 640000, 1000000]
    """
    if first < 1 or limit < 1:
        raise ValueError(f"need first and limit of at least 1; got {first}, {limit}")
    looks, n = [], first
    while n < limit:
        looks.append(n)
        n *= 2
    return [*looks, limit]


def _same_every_trial(d: Estimate) -> bool:
    return d.mean == 0 and d.se == 0


@dataclass(frozen=True)
class Decision:
    """The recommended action of a ladder of alternatives, and the figures behind it.

    Indices are into the ladder (0 is the pass). ``gain``: the recommendation minus the
    pass; ``best``/``runner_up``: the two highest estimates, ``margin`` the first minus
    the second; ``rival``: the highest-estimate action other than the recommendation and
    ``edge`` the recommendation minus it; ``ceiling``: the highest bid that beats passing
    beyond the noise (0 when none does), with its gain ``ceiling_gain``.
    """

    labels: tuple[str, ...]
    z: float  # the intervals' quantile: 95% for the ladder's comparisons together
    compared: int  # the bids the 95% is shared among (more than the ladder's: choices)
    index: int
    gain: Estimate | None
    best: int
    runner_up: int
    margin: Estimate | None
    rival: int
    edge: Estimate | None
    ceiling: int
    ceiling_gain: Estimate | None
    looks: int = 1  # a stop rule's looks at the trials that share the 95% too

    @property
    def action(self) -> str:
        return self.labels[self.index]

    @property
    def clear(self) -> bool:
        """The recommendation beats its strongest rival beyond the noise (or equals it on
        every trial): more trials would not change it."""
        if self.edge is None:
            return True
        return beyond_noise(self.edge) or _same_every_trial(self.edge)

    def sentence(self, digits: int = 2, deal_points: float | None = None) -> str:
        """The advice in one line a player can follow, with its margin; with
        ``deal_points`` (the points a deal holds), a :func:`slight` gain says so."""
        def pm(e: Estimate) -> str:
            return plus_minus(e.mean, e.half_width, digits, sign=True)

        best = self.labels[self.best]
        if self.index == 0:
            if self.best == 0:
                if self.margin is None:
                    return "pass"
                return (f"pass: passing has the highest EV (next: "
                        f"{self.labels[self.runner_up]}, {pm(_neg(self.margin))} over "
                        f"passing{self._level()})")
            few = f"{self.edge.n:,} deal is" if self.edge.n == 1 else f"{self.edge.n:,} deals are"
            why = ("no bid beats passing beyond the noise" if self.edge.n >= MIN_TRIALS else
                   f"{few} too few to tell a bid from passing; {MIN_TRIALS} at least")
            return f"pass: {why} (best: {best}, {pm(_neg(self.edge))} over passing{self._level()})"
        line = f"{self.action}: {pm(self.gain)} over passing{self._level()}"
        if self.rival != 0 and self.edge is not None and not self.clear:
            level = " at that 95%" if self._level() else ""
            line += (f"; {self.labels[self.rival]} differs by {pm(_neg(self.edge))}{level}: "
                     f"no difference beyond the noise")
        if slight(self.gain, deal_points):
            line += (f"; a slight gain ({slight_words(deal_points)}): passing gives up "
                     f"little")
        return line

    def _level(self) -> str:
        looks = f"the stop rule's {self.looks} looks" if self.looks > 1 else ""
        bids = f"the {self.compared} bids compared" if self.compared > 1 else ""
        return f" (95% for {' and '.join(x for x in (bids, looks) if x)})" if bids or looks else ""


def _neg(e: Estimate) -> Estimate:
    return Estimate(-e.mean, e.se, -e.hi, -e.lo, e.n)


def decide(moments: PairedMoments, labels, ladder: list[int] | None = None,
           z: float | None = None, looks: int = 1, compared: int | None = None) -> Decision:
    """The recommendation among the outcomes ``ladder`` of ``moments`` (indices, the pass
    first and bids rising; default: all of them in order), labelled ``labels`` (one per
    ladder step). ``z``: the intervals' quantile, by default :func:`ladder_z` of the bids
    ``compared`` (by default the ladder's; more where the ladder was picked among several
    by these same trials, as a Pedro hand's trump is) times ``looks`` (the looks of a stop
    rule that share the 95%)."""
    ladder = list(range(moments.k)) if ladder is None else list(ladder)
    labels = tuple(labels)
    if len(labels) != len(ladder) or not ladder:
        raise ValueError(f"need one label per ladder step; got {len(labels)} for {len(ladder)}")
    if looks < 1:
        raise ValueError(f"need at least one look; got {looks}")
    compared = len(ladder) - 1 if compared is None else compared
    z = ladder_z(compared * looks) if z is None else z

    # a two-level difference rests on its n searched deals (n_paired), however many cheap
    # ones stand behind its mean (its n is N); a plain one's n_paired is its n
    searched = moments.n_paired

    def diff(a: int, b: int) -> Estimate:
        return replace(moments.diff(ladder[a], ladder[b], z), n=searched)

    rec = 0
    for a in range(1, len(ladder)):
        if beyond_noise(diff(a, rec)):
            rec = a
    ceiling, ceiling_gain = 0, None
    for a in range(1, len(ladder)):
        d = diff(a, 0)
        if beyond_noise(d):
            ceiling, ceiling_gain = a, d
    means = moments.means()[ladder]
    order = np.argsort(-means, kind="stable")  # ties: the lower step first
    best = int(order[0])
    # the runner-up is a step that played out otherwise on some trial: a bid never made
    # (outbid before the seat's turn) is the pass again, not a rival to show
    others = [int(i) for i in order[1:] if not moments.same(ladder[int(i)], ladder[best])]
    runner_up = others[0] if others else best
    rival = best if best != rec else runner_up
    single = not others
    return Decision(
        labels=labels, z=z, compared=compared, index=rec,
        gain=None if rec == 0 else diff(rec, 0), best=best, runner_up=runner_up,
        margin=None if single else diff(best, runner_up), rival=rival,
        edge=None if single else diff(rec, rival), ceiling=ceiling, ceiling_gain=ceiling_gain,
        looks=looks)
