"""Bid charts: what each bidding action is worth to a seat, by the class of hand it holds.

How the numbers are made, in a paragraph a player can follow: every hand dealt to every
seat counts (four hands a deal), whether or not it would win the auction. For each hand
the deal is played once for every action the seat could take, on the very same cards:
passing, and bidding each amount in its turn (Rook, and Pedro's dealer, who bids last:
raising by the minimum up to each amount) while the other three bid by their policy and
may outbid it. If the seat wins, it names its own best trump: the suit its policy names
from these cards (Rook: after the widow and the pass). So EV(bid b) is what bidding b is
worth from this seat with this hand against these opponents, the same model as ``bidlab
hand``, and EV(bid b) - EV(pass) is a paired difference with a narrow interval. Hands
are then grouped into classes by features of the hand in that suit (for Rook, in its
longest suit, the Rook included), and each class gets, per action, the mean and 95%
interval, P(make b) as the sole bidder, and a recommendation by :mod:`analyzer.advice`: a
bid only where it beats passing, and every lower bid it displaces, beyond the noise (of
the whole ladder of bids); a gain under 1% of a deal's points is marked slight. The guide
lists, per seat, the weakest class recommended to bid at least b; a check reports any class
recommended a lower bid than a class a card weaker.

Each game declares its features (``analyzer/games/<game>/chart.py``, with the terms of
:mod:`analyzer.chart_features`; listed by ``--help``).

>>> chart = bid_chart("pedro", deals=2_000, by=("trumps", "seat"))
>>> int(chart.classes["n"].sum()) == 4 * 2_000
True

With a cheap ``base`` policy the EVs, gains and recommendations are two-level estimates of
``policy``'s (:mod:`analyzer.twolevel`): ``base`` plays ``base_deals`` deals, ``policy`` the
first ``deals`` of them too, and each class's EVs are the cheap means plus the searching
player's fitted corrections; the sole-bidder points and P(make) are the searching player's own
over its deals.

May import: the foundations, :mod:`.advice`, :mod:`.chart_features`, :mod:`.twolevel` and
:mod:`.rollout` (its two-level driver), the games' registry and protocol and
:mod:`.games.common`; never a game by name.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from statistics import NormalDist

import numpy as np
import pandas as pd

from .advice import MIN_TRIALS, decide, slight
from .chart_features import (
    RARE_HALF_WIDTH,
    RARE_MIN_N,
    ChartGame,
    Feature,
    check_features,
)
from .documents import stamp
from .games import as_rules, common
from .games import game as game_of
from .games.common import (
    first_batch,
    one_policy_for_every_seat,
    parse_policies,
    policy_string,
    provenance,
)
from .limits import Pace, check_counts, check_seed
from .rollout import run_two_level
from .stats import Z95, PairedMoments, bounded, est_cols, wilson
from .text import ShownAsText
from .twolevel import ESTIMATOR as TWO_LEVEL
from .twolevel import TwoLevelError, TwoLevelMoments, check_budget, check_request

BATCH = 50_000  # deals a batch: the seat outcomes of one batch take about 0.12 GB (a larger
# batch is no faster: 200,000 took 0.44 GB and more system time for its page faults)
GUIDE_COLUMNS = ("minimum holding", "n", "recommended", "rec_gain", "rec_gain_lo", "rec_gain_hi",
                 "slight")  # of the class each row names, after its context and bids


def _label(cls: dict, by: tuple[str, ...], features: dict[str, Feature]) -> str:
    """"trumps=4, pedros=1, ace": a binary feature by its name, or "no ace"."""
    return ", ".join((f if cls[f] else f"no {f}") if features[f].binary else f"{f}={cls[f]}"
                     for f in by)


@dataclass(repr=False)
class BidChart(ShownAsText):
    """A bid chart: ``table`` one row per (class, action), ``classes`` one per class with
    its recommendation, ``guide`` the weakest class recommended each bid per seat, and
    ``violations`` every pair of neighbouring classes whose recommended bids go down as
    strength goes up (with the size of the drop and its 95% interval)."""

    table: pd.DataFrame
    classes: pd.DataFrame
    guide: pd.DataFrame
    violations: pd.DataFrame
    by: tuple[str, ...]
    provenance: dict

    def __post_init__(self):
        stamp(self, self.provenance)  # every table says how it was made

    def text(self) -> str:  # as ``bidlab bid-chart`` prints it
        return game_of(self.provenance["rules"]).render_chart(self)


@dataclass
class _ClassStats:
    moments: PairedMoments
    points: np.ndarray  # sole-bidder points: count per multiple of the point step


@dataclass
class SeatChartAccumulator:
    """Per-class sums of every seat-hand's actions, added batch by batch so that memory
    does not grow with the deals: n, Σ and Σ of products of the actions' net scores (any
    paired difference's interval comes from them) and the sole-bidder points' histogram."""

    rules: object
    by: tuple[str, ...] | None = None
    game: ChartGame = field(init=False)
    stats: dict = field(init=False, default_factory=dict)  # class code -> _ClassStats
    n_deals: int = 0

    def __post_init__(self):
        from .games import game

        self.game = game(self.rules).chart_game(self.rules)
        self.by = check_features(self.by or self.game.default_by, self.rules)
        self.sizes = [len(self.game.features[f].labels) for f in self.by]

    def run(self, seed: int, pols: np.ndarray, first: int, n: int) -> None:
        """Play deals first .. first+n-1 for every seat and action, and add them."""
        codes, sole, values = self.game.batch(seed, pols, first, n)
        self.add(codes, sole.ravel(), values.reshape(4 * n, -1))
        self.n_deals += n

    def run_paired(self, seed: int, pols: np.ndarray, base_pols: np.ndarray, first: int,
                   n: int) -> None:
        """Play deals first .. first+n-1 under ``pols`` and ``base_pols`` and add each
        seat-hand's actions under both (``pols``' columns first) and ``pols``' sole-bidder
        points: the paired part of a two-level chart (:func:`two_level_chart`)."""
        codes, sole, values = self.game.batch(seed, pols, first, n)
        cheap_codes, _, cheap = self.game.batch(seed, base_pols, first, n)
        # a hand's class reads the suit its policy names trump in: both must read it alike
        if any(not np.array_equal(codes[f], cheap_codes[f]) for f in self.by):
            raise TwoLevelError(
                "the two policies class some hands differently (they name another trump): a "
                "two-level chart needs a --base that names trump as --policy does, as the "
                "heuristic does for dd and pimc (they bid and name trump by it)")
        self.add(codes, sole.ravel(), np.hstack([values.reshape(4 * n, -1),
                                                 cheap.reshape(4 * n, -1)]))
        self.n_deals += n

    def add(self, codes: dict, sole: np.ndarray, values: np.ndarray) -> None:
        """Add seat-hands: feature codes, sole-bidder points and action values (rows)."""
        key = np.zeros(len(values), dtype=np.int64)
        for f, size in zip(self.by, self.sizes, strict=True):
            key = key * size + codes[f]
        order = np.argsort(key, kind="stable")
        key, values = key[order], values[order].astype(np.float64)
        bins = np.asarray(sole, dtype=np.int64)[order] // self.game.point_step
        n_bins = self.game.total_points // self.game.point_step + 1
        starts = np.flatnonzero(np.r_[True, key[1:] != key[:-1]])
        for lo, hi in zip(starts, np.r_[starts[1:], len(key)], strict=True):
            x = values[lo:hi]
            stats = self.stats.get(int(key[lo]))
            if stats is None:
                stats = self.stats[int(key[lo])] = _ClassStats(
                    PairedMoments(x.shape[1]), np.zeros(n_bins, dtype=np.int64))
            stats.moments.add_sums(hi - lo, x.sum(axis=0), x.T @ x)
            stats.points += np.bincount(bins[lo:hi], minlength=n_bins)

    def to_state(self) -> dict:
        """The sums as JSON-ready lists (whole numbers in float64: exact), for a chunk of a
        run played elsewhere (:mod:`analyzer.runs`); :meth:`add_state` adds them back."""
        return {"n_deals": self.n_deals, "classes": {
            str(key): {"n": st.moments.n, "sums": st.moments.sums.tolist(),
                       "cross": st.moments.cross.tolist(), "points": st.points.tolist()}
            for key, st in self.stats.items()}}

    def add_state(self, state: dict) -> None:
        """Add the sums of :meth:`to_state` (another chunk's deals)."""
        for key, c in state["classes"].items():
            stats = self.stats.get(int(key))
            if stats is None:
                stats = self.stats[int(key)] = _ClassStats(
                    PairedMoments(len(c["sums"])), np.zeros(len(c["points"]), dtype=np.int64))
            stats.moments.add_sums(c["n"], np.array(c["sums"]), np.array(c["cross"]))
            stats.points += np.array(c["points"], dtype=np.int64)
        self.n_deals += state["n_deals"]

    def _class_of(self, key: int) -> dict:
        idx = np.unravel_index(key, self.sizes)
        return {f: (bool(i) if self.game.features[f].binary else self.game.features[f].labels[i])
                for f, i in zip(self.by, idx, strict=True)}

    def chart(self, provenance: dict) -> BidChart:
        game, by = self.game, self.by
        span = 4 * game.total_points  # a gain's bound where no deal showed one (nets: ±2T)
        rows, class_rows, decisions = [], [], {}
        for key in sorted(self.stats):
            st = self.stats[key]
            cls = self._class_of(key)
            label = _label(cls, by, game.features)
            m, n = st.moments, st.moments.n
            d = decide(m, game.action_labels)
            decisions[key] = d
            at_least = np.cumsum(st.points[::-1])[::-1]  # hands with points >= each level
            levels = np.arange(len(st.points)) * game.point_step
            n_points = int(st.points.sum())  # two-level: the searching player's n hands
            pts = PairedMoments(1)
            pts.add_sums(n_points, np.array([levels @ st.points]),
                         np.array([[levels ** 2 @ st.points]]))
            for k, action in enumerate(game.action_labels):
                bid = game.bids[k - 1] if k else 0
                gain = bounded(m.diff(k, 0), -span, span, seen=m.n_paired) if k else None
                row = {**cls, "label": label, "action": action, "bid": bid, "n": n,
                       **est_cols("ev", m.estimate(k)), **est_cols("gain", gain),
                       "recommended": k == d.index, "best": k == d.best}
                if isinstance(m, TwoLevelMoments):
                    row.update(n_paired=m.n_paired, **est_cols("correction", m.correction(k)))
                if k:
                    made = wilson(int(at_least[bid // game.point_step]), n_points)
                    row.update(p_make=made.p, p_make_lo=made.lo, p_make_hi=made.hi)
                rows.append(row)
            deciding = d.edge if d.edge is not None else d.margin
            hw = deciding.half_width if deciding is not None else 0.0  # all alike: decided
            class_rows.append({
                **cls, "label": label, "n": n, **est_cols("points", pts.estimate(0)),
                **est_cols("ev_pass", m.estimate(0)),
                **(est_cols("pass_correction", m.correction(0))
                   if isinstance(m, TwoLevelMoments) else {}),
                "recommended": d.action, "rec_bid": game.bids[d.index - 1] if d.index else 0,
                **est_cols("rec_gain", d.gain),
                "beats_passing_to": game.bids[d.ceiling - 1] if d.ceiling else 0,
                "best": game.action_labels[d.best],
                "runner_up": game.action_labels[d.runner_up], **est_cols("margin", d.margin),
                "clear": d.clear, "slight": slight(d.gain, game.total_points),
                "advice": d.sentence(deal_points=game.total_points),
                "rare": bool(n < RARE_MIN_N or m.n_paired < MIN_TRIALS  # searched, 2-level
                             or not hw <= RARE_HALF_WIDTH * game.total_points)})
        table = pd.DataFrame(rows)
        classes = pd.DataFrame(class_rows)
        for f in by:  # ordered categoricals: the features' own order, not the alphabet's
            feat = game.features[f]
            if not feat.binary:
                for df in (table, classes):
                    df[f] = pd.Categorical(df[f], categories=feat.labels, ordered=True)
        classes = classes.sort_values([f for f in by if not game.features[f].strength]
                                      + ["points", "label"], kind="stable").reset_index(drop=True)
        prov = {**provenance, "by": ",".join(by), "n_deals": self.n_deals,
                "n": int(classes["n"].sum()) if len(classes) else 0,
                "method": game_of(self.rules).scoring_method(self.rules),
                "model": MODEL}
        return BidChart(table, classes, _guide(classes, by, game), _violations(
            self, classes, decisions), by, prov)


MODEL = ("Every seat's hand of every deal counts; each action is played on the same deals: "
         "pass, or bid b in its turn (Rook, and Pedro's dealer, who bids last: the lowest "
         "legal bid up to b) while the others bid by their policy and may outbid it, naming "
         "its best trump if it wins. A bid is recommended only where it beats passing and "
         "every lower bid it displaces beyond the noise (paired intervals, 95% for all the "
         "bids together; 30 hands up).")


def _context(by: tuple[str, ...], game: ChartGame) -> list[str]:
    """The features that are not strength (seat, dealer): the guide and the check work
    within each of their combinations."""
    return [f for f in by if not game.features[f].strength]


def _guide(classes: pd.DataFrame, by: tuple[str, ...], game: ChartGame) -> pd.DataFrame:
    """Per context (seat) and bid: the weakest readable class (lowest mean points as sole
    bidder) whose recommended bid reaches it; consecutive bids with the same such class
    are one row, ``bid_from`` to ``bid_to``."""
    context = _context(by, game)
    rows = []
    groups = classes.groupby(context, observed=True, sort=True) if context else [((), classes)]
    for ctx, group in groups:
        ctx = ctx if isinstance(ctx, tuple) else (ctx,)
        readable = group[~group["rare"]].sort_values("points", kind="stable")
        for bid in game.bids:
            ok = readable[readable["rec_bid"] >= bid]
            if not len(ok):
                continue
            w = ok.iloc[0]
            if rows and rows[-1]["minimum holding"] == w["label"]:
                rows[-1]["bid_to"] = bid
                continue
            rows.append({**dict(zip(context, ctx, strict=True)), "bid_from": bid, "bid_to": bid,
                         "minimum holding": w["label"], "n": int(w["n"]),
                         **{k: w[k] for k in GUIDE_COLUMNS[2:]}})
    # the columns even when no class is recommended to bid: guide.csv keeps its header
    return pd.DataFrame(rows, columns=[*context, "bid_from", "bid_to", *GUIDE_COLUMNS])


def strength_steps(by: tuple[str, ...], features: dict[str, Feature]):
    """(feature, positions in ``by`` that go one bin up) of every strength step the chart's
    classes allow: one card added (see :class:`Feature`)."""
    for f in by:
        feat = features[f]
        if feat.strength and not set(feat.unclear) & set(by):
            yield f, [by.index(g) for g in (f, *feat.implies) if g in by]


def _violations(acc: SeatChartAccumulator, classes: pd.DataFrame, decisions) -> pd.DataFrame:
    """Pairs of classes one strength step apart (a card added, :func:`strength_steps`)
    where the stronger class's recommended bid is lower. The size is the drop in bids; the
    interval is of the stronger class's gain over passing at the weaker class's bid minus
    the weaker class's (independent classes): beyond the noise when it is all below 0.

    Of many pairs some will look beyond the noise by chance (2.5% of equal pairs at 95%),
    so ``beyond_family`` also holds each against the Bonferroni bound for all the pairs
    checked (``attrs["pairs"]``): the family of checks errs 2.5% of the time."""
    game, by = acc.game, acc.by
    steps = list(strength_steps(by, game.features))
    pairs = sum(1 for key in acc.stats for _, up in steps
                if _weaker_key(acc, key, up) in acc.stats)
    z_family = NormalDist().inv_cdf(1 - 0.025 / max(pairs, 1))
    rows = []
    for key, st in acc.stats.items():
        for f, up in steps:
            wkey = _weaker_key(acc, key, up)
            if wkey not in acc.stats:
                continue
            strong, weak = decisions[key], decisions[wkey]
            if strong.index >= weak.index:
                continue
            k = weak.index  # the weaker class's recommended step
            a, b = st.moments.diff(k, 0), acc.stats[wkey].moments.diff(k, 0)
            diff = a.mean - b.mean
            se = float(np.hypot(a.se, b.se))
            hw = Z95 * se
            s_cls, w_cls = acc._class_of(key), acc._class_of(wkey)
            rows.append({"feature": f, "stronger": _label(s_cls, by, game.features),
                         "weaker": _label(w_cls, by, game.features),
                         "stronger_bid": game.bids[strong.index - 1] if strong.index else 0,
                         "weaker_bid": game.bids[k - 1], "size": k - strong.index,
                         "gain_diff": diff, "gain_diff_lo": diff - hw, "gain_diff_hi": diff + hw,
                         "beyond_noise": bool(diff + hw < 0),
                         "beyond_family": bool(diff + z_family * se < 0),
                         "n_stronger": st.moments.n, "n_weaker": acc.stats[wkey].moments.n})
    cols = ["feature", "stronger", "weaker", "stronger_bid", "weaker_bid", "size", "gain_diff",
            "gain_diff_lo", "gain_diff_hi", "beyond_noise", "beyond_family", "n_stronger",
            "n_weaker"]
    rare = set(classes.loc[classes["rare"], "label"])
    out = pd.DataFrame(rows, columns=cols)
    out["rare"] = out["stronger"].isin(rare) | out["weaker"].isin(rare)
    out = out.sort_values(["beyond_noise", "gain_diff"], ascending=[False, True],
                          kind="stable").reset_index(drop=True)
    out.attrs["pairs"] = pairs
    return out


def _weaker_key(acc: SeatChartAccumulator, key: int, up: list[int]) -> int:
    """The class one strength step below ``key`` (the bins ``up`` one lower), -1 if none."""
    idx = list(np.unravel_index(key, acc.sizes))
    if any(idx[j] == 0 for j in up):
        return -1
    for j in up:
        idx[j] -= 1
    return int(np.ravel_multi_index(idx, acc.sizes))


class SeatChartRun:
    """A seat chart played in ranges of deals, anywhere: ``play(first, n)``, its sums as
    ``to_state()`` (added elsewhere by ``add_state``), and the chart, ``result()``. The
    games' :meth:`~analyzer.games.protocol.Game.chart_run` (what a run store and a cluster
    play a bid chart with)."""

    def __init__(self, rules, seed: int, policy: str, by=None):
        self.rules, self.seed, self.pols = rules, int(seed), parse_policies(policy)
        one_policy_for_every_seat(self.pols, "a bid chart")
        self.acc = SeatChartAccumulator(rules, by)

    def play(self, first: int, n: int) -> None:
        self.acc.run(self.seed, self.pols, first, n)

    def to_state(self) -> dict:
        return self.acc.to_state()

    def add_state(self, state: dict) -> None:
        self.acc.add_state(state)

    def result(self) -> BidChart:
        return self.acc.chart(provenance(self.rules, self.seed, self.pols, 0))


def bid_chart(game, deals: int | None = None, seed: int = 1, policy: str = "heuristic", *,
              by=None, progress=None, batch: int = BATCH, base: str | None = None,
              base_deals: int | None = None, budget: float | None = None) -> BidChart:
    """Play ``deals`` deals (2,000,000, or the CLI's smaller size where a seat searches)
    for every seat and action and chart the hands by ``by``. Only per-class sums are kept
    between batches, so memory does not grow with ``deals``; the deals, and so the chart,
    do not depend on ``batch``. ``progress(n)`` follows each batch of n deals. A game whose
    charts are its own (King's danger and trump-right charts: ``Game.chart_by`` is None)
    draws them instead. With ``base``, a two-level chart (module doc): ``deals`` is n,
    ``base_deals`` N, or ``budget`` seconds split between them."""
    rules = as_rules(game)
    g, pols = game_of(rules), parse_policies(policy)
    one_policy_for_every_seat(pols, "a bid chart")
    check_budget(base, budget, deals, base_deals)
    if deals is None:
        deals = common.searching_size(g, "bid-chart", pols, 2_000_000)
    check_seed(seed)
    check_counts(deals=deals, batch=batch, base_deals=base_deals, optional=("base_deals",))
    if g.chart_by is None:
        return g.bid_chart(rules, deals, seed, policy, by, progress, base=base,
                           base_deals=base_deals, budget=budget)
    if base is not None:
        return two_level_chart(rules, deals, base_deals, seed, pols, parse_policies(base), by,
                               progress, batch, budget)
    acc = SeatChartAccumulator(rules, by)
    _play(lambda first, n: acc.run(seed, pols, first, n), deals, first_batch(pols), batch,
          progress)
    return acc.chart(provenance(rules, seed, pols, 0))


def _play(play, deals: int, first: int, batch: int, progress) -> None:
    """``play(first, n)`` over the deals in batches; a small first one, whose pace says
    within seconds whether the run fits the time limit (analyzer.limits); the chart does not
    depend on the batches."""
    pace = Pace(deals, "--deals")
    done = 0
    while done < deals:
        n = min(batch if done else min(batch, first), deals - done)
        play(done, n)
        done += n
        pace.step(done)
        if progress:
            progress(n)


def chart_variances(cheap: SeatChartAccumulator,
                    joint: SeatChartAccumulator) -> tuple[float, float, float]:
    """(Var(h), Var(d), Cov(h, d)) a hand of each class's leading action, summed over the
    classes with two or more paired hands: what a chart's budget is split for. A class
    holding a share p of the hands has an EV variance of (Var(h) + 2 Cov) / (p N) +
    Var(d) / (p n) (hands, not deals: four a deal), so its p-weighted sum over the classes,
    the variance of a dealt hand's class EV on average, is these sums over N and n."""
    total = np.zeros(3)
    for key, st in cheap.stats.items():
        paired = joint.stats.get(key)
        if paired is not None and paired.moments.n >= 2:
            total += TwoLevelMoments(st.moments, paired.moments).leading_variances()
    return float(total[0]), float(total[1]), float(total[2])


def two_level_chart(rules, deals: int, base_deals: int | None, seed: int, pols, base_pols, by,
                    progress, batch: int = BATCH, budget: float | None = None) -> BidChart:
    """The bid chart of ``pols`` estimated two-level: ``base_pols`` on ``base_deals`` deals
    (N), ``pols`` on the first ``deals`` (n) as well; each class's actions are
    :class:`~analyzer.twolevel.TwoLevelMoments` of the two, so the decision rule runs on
    them unchanged. A class with under two searched hands has no estimate and is left out
    (``provenance["classes_unsearched"]``). ``progress`` follows both parts' deals.

    ``budget`` (seconds) chooses N and n instead (:func:`analyzer.rollout.run_two_level`: a
    pilot, then the best split), for :func:`chart_variances`: the classes' leading EVs'
    variance averaged over the hands dealt."""
    base_deals = deals if base_deals is None else base_deals
    check_request(policy_string(pols), policy_string(base_pols),
                  None if budget is not None else deals, base_deals)
    cheap, joint = SeatChartAccumulator(rules, by), SeatChartAccumulator(rules, by)

    def paired(first: int, n: int) -> None:
        joint.run_paired(seed, pols, base_pols, first, n)

    def cheap_from(first: int, n: int) -> None:
        for start in range(first, first + n, batch):
            size = min(batch, first + n - start)
            cheap.run(seed, base_pols, start, size)
            if progress:
                progress(size)

    if budget is None:
        # the paired deals first: their first batch shows at once a pair that classes apart
        _play(paired, deals, first_batch(pols), batch, progress)
        _play(lambda first, n: cheap.run(seed, base_pols, first, n), base_deals,
              first_batch(base_pols), batch, progress)
        stopped_by = "deals"
    else:
        deals, base_deals, stopped_by = run_two_level(
            cheap_from, paired, lambda: chart_variances(cheap, joint), deals, base_deals,
            budget, progress, batch=first_batch(pols))
    return two_level_result(cheap, joint, seed, pols, base_pols, stopped_by=stopped_by,
                            **({"budget": budget} if budget is not None else {}))


def two_level_result(cheap: SeatChartAccumulator, joint: SeatChartAccumulator, seed: int, pols,
                     base_pols, **extra) -> BidChart:
    """The two-level chart of the sums ``cheap`` (``base_pols`` over N deals) and ``joint``
    (both policies over the first n of them), ``extra`` added to its provenance."""
    both = SeatChartAccumulator(cheap.rules, cheap.by)
    both.n_deals = cheap.n_deals
    for key, st in cheap.stats.items():
        paired = joint.stats.get(key)
        if paired is not None and paired.moments.n >= 2:
            both.stats[key] = _ClassStats(TwoLevelMoments(st.moments, paired.moments),
                                          paired.points)
    prov = {**provenance(cheap.rules, seed, pols, 0), "estimator": TWO_LEVEL,
            "base_policy": policy_string(base_pols), "n_base": cheap.n_deals,
            "n_search": joint.n_deals, "classes_unsearched": len(cheap.stats) - len(both.stats),
            **extra}
    return both.chart(prov)


class TwoLevelChartRun:
    """A two-level seat chart played in ranges of deals, anywhere (the interface of
    :class:`SeatChartRun`): ``play(first, n)`` plays the range under ``base`` and, where it
    lies among the first ``search_deals`` deals, under both policies; the sums of both go
    in one state, and ``result()`` is :func:`two_level_result` of them. What a run store and
    a cluster play ``bid-chart --base`` with (:class:`analyzer.runs.Job`)."""

    def __init__(self, rules, seed: int, policy: str, base: str, search_deals: int, by=None):
        self.seed, self.search_deals = int(seed), int(search_deals)
        self.pols, self.base_pols = parse_policies(policy), parse_policies(base)
        for pols in (self.pols, self.base_pols):
            one_policy_for_every_seat(pols, "a bid chart")
        check_request(policy_string(self.pols), policy_string(self.base_pols))
        self.cheap = SeatChartAccumulator(rules, by)
        self.joint = SeatChartAccumulator(rules, by)

    def play(self, first: int, n: int) -> None:
        paired = min(first + n, self.search_deals) - first
        if paired > 0:  # first: a pair that classes hands apart is refused at once
            self.joint.run_paired(self.seed, self.pols, self.base_pols, first, paired)
        self.cheap.run(self.seed, self.base_pols, first, n)

    def to_state(self) -> dict:
        return {"cheap": self.cheap.to_state(), "joint": self.joint.to_state()}

    def add_state(self, state: dict) -> None:
        self.cheap.add_state(state["cheap"])
        self.joint.add_state(state["joint"])

    def result(self) -> BidChart:
        return two_level_result(self.cheap, self.joint, self.seed, self.pols, self.base_pols,
                                stopped_by="deals")
