"""Rule variants compared on identical deals: what a rule change does to the game.

Deal ``i`` of a seed is the same deal under every variant of one deck (the cards come
from the deal stream alone; :meth:`Game.same_deck` says where decks differ), so the two
variants are played on the same cards and every difference is paired, deal by deal: its
interval is far narrower than that of two independent runs. A variant that throws a deal
in (a ``redeal`` flag) plays the deal's redeal instead, the next cards of the deal's own
stream; every deal counts under both variants, so the rule's effect is in the figures,
and a row says how often each variant threw a deal in.

>>> from analyzer.compare import compare_variants
>>> result = compare_variants("pedro", "pedro(low_to=holder)", deals=20_000)
>>> list(result.table.columns[:3]), len(result.table)
(['measure', 'a', 'a_hw'], 10)

With ``base`` (a cheap policy) the numbers are two-level estimates of ``policy``'s (see
:mod:`analyzer.twolevel`): ``base`` plays ``base_deals`` deals under both variants,
``policy`` the first ``deals`` of them too, and each figure is the cheap mean plus the
searching player's correction fitted on the first deals, with an interval from both parts.

May import: the foundations (advice, compare_text, differences, documents, estimate_text,
limits, moments, stats, text, twolevel, variants), :mod:`.compare_rows` (what a row is),
:mod:`.rollout` (a two-level run) and the games' registry, common module, protocol and
standings (a whole game's measures); never a game by name.
"""

from __future__ import annotations

import functools
import math
import textwrap
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .advice import MIN_TRIALS, ladder_z
from .compare_rows import OWN_ROWS, RATE, Rows, rows_asked
from .compare_text import (
    BOTH_DEFINE,
    COUNTS_NOTE,
    changed_note,
    counts_apart,
    n_header,
    n_label,
    shown_measure,
)
from .differences import bounded_difference, delta, difference, ratio_gradients
from .documents import stamp
from .estimate_text import interval_text
from .games import as_rules, game
from .games.common import (
    default_chunk,
    parse_policies,
    policy_label,
    policy_string,
    searches,
    searching_size,
)
from .games.standings import FIRST_DEALER_WINS
from .limits import Pace, check_counts, check_seed, require_time
from .moments import Moments
from .stats import Z95, Estimate, PairedMoments, bounded, held, wilson
from .text import ShownAsText, render_table, two_level_note
from .twolevel import ESTIMATOR as TWO_LEVEL
from .twolevel import TwoLevelMoments, check_budget, check_request
from .variants import RuleError, game_only_changes, rule_changes


@dataclass(repr=False)
class Comparison(ShownAsText):
    """One row per measure: the value under A and B, and the paired difference B − A."""

    a: str
    b: str
    table: pd.DataFrame
    provenance: dict

    def __post_init__(self):
        self.table = with_verdicts(self.table)
        stamp(self, self.provenance)  # the table says how it was made

    def text(self) -> str:
        return render_comparison(self)

    def __repr__(self) -> str:
        p = self.provenance
        return (f"<Comparison: A {self.a}, B {self.b}, policy {p['policy']}, seed {p['seed']}, "
                f"{self.deals_line(self.unit)}{two_level_note(p)}>")

    def changed_text(self, width: int | None = 100) -> str:
        """How many deals the rule changed, and what a flag of whole games does here
        (:func:`analyzer.compare_text.changed_note`), as the table and a report say it."""
        game_only = [] if self.provenance.get("whole_games") else \
            game_only_changes(as_rules(self.a), as_rules(self.b))
        return changed_note(self.table, self.provenance, self.unit, game_only, width)

    @property
    def unit(self) -> str:
        """What one paired row is, for people: a deal, a Rook hand, a King game, a King
        hand of one contract, or a whole game to the target."""
        return _rows_of(self.provenance).unit(game(self.a))

    def deals_line(self, unit: str = "deal") -> str:
        """How many ``unit``s were compared, and how many of them a variant threw in."""
        p = self.provenance
        thrown = p["deals"] - p["shared_deals"]
        if p.get("whole_games"):
            return (f"{p['deals']:,} whole games to the target (undecided after "
                    f"{p['max_deals']:,} {game(self.a).deal_unit}), " +
                    ("game i the same deals under A and B" if p.get("same_deck", True) else
                     "dealt from different decks (no two deals alike, so not paired)"))
        if p.get("same_deck", True) is False:
            return f"{p['deals']:,} {unit}s, dealt from different decks (no two alike)"
        return (f"{p['deals']:,} {unit}s" + (f" of {p['contract']}" if "contract" in p else "")
                + (f" ({thrown:,} thrown in and redealt under A or B, counted as redealt)"
                   if thrown else ""))


def family_size(table: pd.DataFrame) -> int:
    """How many measures a comparison's family holds: those with an interval (a measure
    without one, as a rate on no deals, makes no claim to share the 95% with)."""
    return int(np.isfinite(table["diff_lo"].to_numpy(float)).sum())


def trials_column(columns) -> str:
    """The column of the trials a verdict rests on, among ``columns`` (a table's, or a row's
    ``_fields``): the paired deals, or a two-level comparison's searched ones (``n_search``;
    its ``n_paired`` counts the cheap N, though its correction's spread is read off n)."""
    return "n_search" if "n_search" in columns else "n_paired"


def with_verdicts(table: pd.DataFrame) -> pd.DataFrame:
    """``table`` with ``beyond_noise`` (B − A's paired 95% interval excludes zero, on at
    least ``MIN_TRIALS`` paired deals, and as many defining the measure under each variant)
    and ``beyond_family`` (it still does when widened to
    hold the 95% for every measure with an interval together: Bonferroni; a bound held to
    the measure's range widens on the side toward zero).

    >>> t = pd.DataFrame({"b_minus_a": [0.5, 0.1, 0.0], "diff_lo": [0.3, 0.01, -0.1],
    ...                   "diff_hi": [0.7, 0.19, 0.1], "n_paired": [500] * 3})
    >>> with_verdicts(t)[["beyond_noise", "beyond_family"]].values.tolist()
    [[True, True], [True, False], [False, False]]
    """
    if "beyond_noise" in table or not len(table):
        return table
    d, lo, hi = (table[c].to_numpy(float) for c in ("b_minus_a", "diff_lo", "diff_hi"))
    enough = table[trials_column(table)].to_numpy(float) >= MIN_TRIALS
    if {"n_a", "n_b"} <= set(table):  # a measure of some deals: enough of them under each
        enough &= np.fmin(table["n_a"], table["n_b"]).to_numpy(float) >= MIN_TRIALS
    beyond = enough & ((lo > 0) | (hi < 0))
    stretch = ladder_z(family_size(table)) / Z95
    with np.errstate(invalid="ignore"):
        family = beyond & ((d - (d - lo) * stretch > 0) | (d + (hi - d) * stretch < 0))
    return table.assign(beyond_noise=beyond, beyond_family=family)


def verdict_word(row, unit: str) -> str:
    """A row's verdict in a few words: "B higher" or "B lower" where its interval excludes
    zero (with "*" where it does for all the measures together), else "no difference beyond
    the noise", the words the reports and the bid advice use."""
    if not (np.isfinite(row.diff_lo) and np.isfinite(row.diff_hi)):
        return "-"
    if getattr(row, "n_differ", 1) == 0:
        return f"same on every {unit}"
    if getattr(row, trials_column(row._fields)) < MIN_TRIALS:
        return f"too few {unit}s"
    if not row.beyond_noise:
        return "no difference beyond the noise"
    return ("B higher" if row.diff_lo > 0 else "B lower") + ("*" if row.beyond_family else "")


def family_note(table: pd.DataFrame) -> str:
    """How many of a comparison's measures would look beyond the noise by chance, and how
    many stay beyond it held against all of them together.

    >>> t = with_verdicts(pd.DataFrame({"b_minus_a": [0.5, 0.1], "diff_lo": [0.3, 0.01],
    ...                                 "diff_hi": [0.7, 0.19], "n_paired": [500, 500]}))
    >>> family_note(t)  # doctest: +NORMALIZE_WHITESPACE
    'Of 2 measures at 95% each about 0.1 would look beyond the noise by chance; 2 do, 1 of
    them held against all 2 together (Bonferroni, marked *).'
    """
    k = family_size(table)
    beyond, family = int(table["beyond_noise"].sum()), int(table["beyond_family"].sum())
    return (f"Of {k} measures at 95% each about {0.05 * k:.1f} would look beyond the noise by "
            f"chance; {beyond} {'does' if beyond == 1 else 'do'}, {family} of them held "
            f"against all {k} together "
            "(Bonferroni, marked *).")


def verdict_note(table: pd.DataFrame, policy: str, unit: str, same_deck: bool = True) -> str:
    """What the verdicts assume, in a sentence a player can follow, and the family's note."""
    played = (f"are played on the same {unit}s" if same_deck else
              f"deal from different decks, {unit} i of each paired with the other's,")
    return textwrap.fill(
        f"Verdicts: A and B {played} by the same players ({policy}), "
        f"so B − A is the rule change's effect for players who play so; \"B higher\" or "
        f"\"B lower\" only where its paired 95% interval excludes zero. "
        + family_note(table), 100)


def compare_variants(a, b, deals: int | None = None, seed: int = 1,
                     policy: str = "heuristic", *, batch: int | None = None,
                     progress: Callable[[int], None] | None = None,
                     executor=None, base: str | None = None,
                     base_deals: int | None = None, budget: float | None = None,
                     contract: str | None = None, games: int | None = None,
                     max_deals: int | None = None) -> Comparison:
    """Simulate the same ``deals`` deals under variants ``a`` and ``b`` (Rules or variant
    strings of one game family); paired differences. The deals go in chunks of ``batch``
    (by default at most a million), both variants a chunk, so memory holds one chunk;
    ``progress(k)`` follows each chunk (``2 * deals`` in all; two-level, ``2 * (deals +
    base_deals)``). ``executor`` (a Dask one of :mod:`analyzer.runs`) plays the chunks on a
    cluster. Every figure comes from exact sums of the chunks (:mod:`analyzer.moments`), so
    it depends neither on ``batch`` nor on the executor.

    The table has a row per measure: its mean under A and B with 95% half-widths
    (``a_hw``, ``b_hw``) and bounds (``a_lo`` .. ``b_hi``), n under each, the paired
    difference ``b_minus_a`` with its 95% interval ``diff_lo`` .. ``diff_hi``, the deals
    it pairs (``n_paired``) and those on which the measure differs (``n_differ``: defined
    under one variant only, or valued otherwise). A share of deals has Wilson's interval;
    where a run shows no spread, an interval is what the measure's range allows
    (:func:`analyzer.stats.bounded`), except for A against itself, exactly 0.

    ``deals`` left out: a million, or where a seat searches (dd, pimc: milliseconds a
    card) ``limits.SEARCH_SIZES["compare"]``, as the CLI's ``--deals``. With ``base``, a
    two-level comparison (module doc): ``deals`` is n, the deals ``policy`` plays, and the
    table adds the cheap policy's means (``base_a``, ``base_b``), the correction of the
    difference (``correction`` .. ``correction_hi``), ``n_base`` (N) and ``n_search`` (n);
    a measure of some deals is each variant's mean over its own deals, a ratio of
    two-level means (:func:`_two_level_figures`), and ``n_apart`` counts the deals one
    player or one variant defines it on and the other not. ``budget`` (seconds) chooses N
    and n instead, to make the first measure's B − A narrowest
    (:func:`analyzer.rollout.run_two_level`: a pilot, then the best split). ``contract``
    (King): single hands of it instead of whole games, hand ``i`` the same cards under
    both. ``games`` (Pedro, Cinch, Rook; instead of ``deals``): that many whole games to the
    target under both variants, game ``i`` the same deals under both, each counted
    undecided after ``max_deals`` deals (by default the more of the two variants' own
    defaults): who wins, and how long games last (:mod:`analyzer.compare_rows`)."""
    ra = as_rules(a)
    rb = as_rules(b)
    g = game(ra)
    if game(rb) is not g:
        raise RuleError(f"compare needs two variants of one game; got {ra.game} and {rb.game}")
    for rules in (ra, rb):
        g.check_contract(contract, rules)
    pols = parse_policies(policy)
    check_budget(base, budget, deals, base_deals)
    rows = rows_asked(g, ra, rb, deals, contract, games, max_deals, base)
    if rows.whole_games:
        deals = games
    if deals is None:
        deals = searching_size(g, "compare", pols, 1_000_000)
    check_seed(seed)
    check_counts(deals=deals, base_deals=base_deals, batch=batch,
                 optional=("base_deals", "batch"))
    prov = {"a": str(ra), "b": str(rb), "seed": seed, "policy": policy_string(pols),
            "deals": deals, **({} if g.same_deck(ra, rb) else {"same_deck": False}),
            **({} if contract is None else {"contract": contract}),
            **({"whole_games": True, "max_deals": rows.max_deals} if rows.whole_games else {})}
    if base is not None:
        return _two_level(ra, rb, seed, pols, base, deals, base_deals, batch, progress,
                          executor, prov, budget, rows)
    size = batch or default_chunk(deals, searches(pols))
    if rows.whole_games and not batch:  # a game is some ten deals: as many deals a chunk
        size = -(-size // 10)
    work = functools.partial(compare_chunk, ra, rb, seed, policy, rows=rows)
    stats: dict[str, list] = {}
    shared = changed = 0
    for chunk_stats, chunk_shared, chunk_changed in _played(
            work, deals, size, executor, progress,
            what="--games" if rows.whole_games else "--deals"):
        shared += chunk_shared
        changed += chunk_changed
        for name, moments in chunk_stats.items():
            stats[name] = ([m + o for m, o in zip(stats[name], moments, strict=True)]
                           if name in stats else list(moments))
    table = []
    spans = rows.bounds(g, ra, rb)
    for name, (ma, mb, md, mr, differ, ma_both, mb_both, differ_both) in stats.items():
        table.append(_row(name, ma, mb, difference(md, mr), md.n, differ, spans[name], ra, rb))
        if not mr.same(1, 3) and md.n > 1:  # the deals a rule moves in or out, set aside
            table.append(_row(name + BOTH_DEFINE, ma_both, mb_both, md.estimate(), md.n,
                              differ_both, spans[name], ra, rb))
    if rows.whole_games:  # the first dealer's team won under one variant only: who won
        prov["winners_changed"] = next(r["n_differ"] for r in table
                                       if r["measure"] == FIRST_DEALER_WINS)
    return Comparison(str(ra), str(rb), pd.DataFrame(table),
                      {**prov, "shared_deals": shared, "changed_deals": changed})


def _row(name: str, ma: Moments, mb: Moments, d: Estimate | None, paired: int, differ: int,
         span: tuple[float, float], ra, rb) -> dict:
    """A measure's row: its level under A and B (``ma``, ``mb``), and B − A (``d``, held to
    what ``differ`` altered deals and the measure's ``span`` allow; ``paired`` deals define
    it under both)."""
    ea, eb = _level(ma, span), _level(mb, span)
    if d is not None and str(ra) != str(rb):  # A/A: equal by construction, exactly 0 ± 0
        d = bounded_difference(d, span, differ, seen=min(ea.n, eb.n))
    return {"measure": name, "a": ea.mean, "a_hw": ea.half_width, "n_a": ea.n,
            "b": eb.mean, "b_hw": eb.half_width, "n_b": eb.n,
            "b_minus_a": d.mean if d else np.nan,
            "diff_lo": d.lo if d else np.nan, "diff_hi": d.hi if d else np.nan,
            "n_paired": d.n if d else paired, "n_differ": differ,
            "a_lo": ea.lo, "a_hi": ea.hi, "b_lo": eb.lo, "b_hi": eb.hi,
            "share": span == RATE}


def _rows_of(provenance: dict) -> Rows:
    """The rows a comparison's provenance says it paired."""
    return Rows(provenance.get("contract"), provenance.get("max_deals"))


def _level(m: Moments, span: tuple[float, float]) -> Estimate:
    """A measure's mean under one variant, with its interval: Wilson's for a share of deals
    (as ``simulate`` gives it), else the normal one, or the measure's range allows where
    every deal read the same (``span``); NaN where it defines the measure on no deal."""
    if not m.n:
        return Estimate(math.nan, math.nan, math.nan, math.nan, 0)
    if span == RATE and m.exact and m.total == m.squares:  # every value 0 or 1
        return wilson(m.total, m.n)
    return bounded(m.estimate(), *span)


def _played(work, deals: int, size: int, executor, progress, first: int = 0,
            what: str = "--deals"):
    """``work(lo, n)`` over deals ``first`` .. ``first + deals - 1`` in chunks of ``size``,
    in order, on ``executor`` when given; the pace is checked (a run that would take over a
    day stops) and ``progress`` told of both variants' deals after each chunk."""
    unit = "games" if what == "--games" else "deals"
    pace = Pace(deals, what, unit) if executor is None else require_time(deals, what, unit)

    def ranges():  # one at a time: a run may have more chunks than memory holds
        return ((lo, min(size, first + deals - lo)) for lo in range(first, first + deals, size))

    parts = executor.map_ordered(work, ranges()) if executor is not None else (
        work(lo, n) for lo, n in ranges())
    done = 0
    for (_, n), part in zip(ranges(), parts, strict=True):
        done += n
        if pace is not None:
            pace.step(done)
        if progress:
            progress(2 * n)
        yield part


def _two_level(ra, rb, seed, pols, base, deals, base_deals, batch, progress, executor, prov,
               budget=None, rows=OWN_ROWS):
    """:func:`compare_variants` with ``base``: N = ``base_deals`` cheap deals, the first n =
    ``deals`` of them played by ``pols`` as well (or as ``budget`` splits them)."""
    from .rollout import run_two_level

    base_pols = parse_policies(base)
    base_deals = deals if base_deals is None else base_deals
    check_request(policy_string(pols), policy_string(base_pols),
                  None if budget is not None else deals, base_deals)
    sums: dict[str, dict[str, PairedMoments]] = {"cheap": {}, "joint": {}}
    shared = {"cheap": 0, "joint": 0}
    apart: dict[str, int] = {}  # per measure: deals one policy or variant defines it on

    def grower(part_name: str, searching, size: int):
        into = sums[part_name]
        work = functools.partial(two_level_chunk, ra, rb, seed, base_pols, searching,
                                 rows=rows)

        def grow(first: int, n: int) -> None:
            for part, chunk_shared, chunk_apart in _played(work, n, batch or size, executor,
                                                           progress, first):
                shared[part_name] += chunk_shared
                for name, moments in part.items():
                    if name in into:
                        into[name].absorb(moments)
                    else:
                        into[name] = moments
                    apart[name] = apart.get(name, 0) + chunk_apart.get(name, 0)
        return grow

    def headline() -> TwoLevelMoments:  # the first measure's values (its B − A is split for)
        name = next(iter(sums["joint"]))
        return TwoLevelMoments(sums["cheap"][name], sums["joint"][name]).subset([0, 2])

    paired_size = default_chunk(deals, True)
    n, big, stopped_by = run_two_level(
        grower("cheap", None, default_chunk(base_deals, searches(base_pols))),
        grower("joint", pols, paired_size), lambda: headline().variances([-1, 1]), deals,
        base_deals, budget,
        batch=batch or paired_size)
    cheap, joint = sums["cheap"], sums["joint"]
    spans = rows.bounds(game(ra), ra, rb)
    table = []
    for name, mh in cheap.items():
        mj = joint.get(name)
        row = {"measure": name, "n_apart": apart.get(name, 0), "share": spans[name] == RATE}
        figures = None if mj is None else _two_level_figures(TwoLevelMoments(mh, mj))
        if figures is None:  # too few paired deals define it under a variant
            table.append(row)
            continue
        ea, eb, d, c, base_a, base_b = figures
        lo, hi = spans[name]
        # where no deal showed a spread, what the searching player's n deals may have
        # missed (it is its figure); a cheap mean plus a correction held to the range
        ea, eb = held(ea, lo, hi, mj.n), held(eb, lo, hi, mj.n)
        if str(ra) != str(rb):
            d = held(d, lo - hi, hi - lo, mj.n)
        table.append({**row, "a": ea.mean, "a_hw": ea.half_width, "n_a": ea.n,
                     "b": eb.mean, "b_hw": eb.half_width, "n_b": eb.n,
                     "b_minus_a": d.mean, "diff_lo": d.lo, "diff_hi": d.hi, "n_paired": d.n,
                     "a_lo": ea.lo, "a_hi": ea.hi, "b_lo": eb.lo, "b_hi": eb.hi,
                     "base_a": base_a, "base_b": base_b,
                     "correction": c.mean, "correction_lo": c.lo, "correction_hi": c.hi,
                     "n_base": mh.n, "n_search": mj.n})
    prov.update(deals=n, estimator=TWO_LEVEL, base_policy=policy_string(base_pols),
                n_base=big, stopped_by=stopped_by, shared_deals=shared["joint"],
                shared_base_deals=shared["cheap"])
    return Comparison(prov["a"], prov["b"], pd.DataFrame(table), prov)


# the fewest paired deals a ratio's two-level figure needs under each variant: on 20
# (random bids against the heuristic's, pedro(min_bid=7)) the delta method's interval
# missed the whole range in 1 of 29 seeds ("bidder makes" -0.118, [-0.22, -0.02])
RATIO_MIN_DEALS = 30


def _two_level_figures(t: TwoLevelMoments):
    """A measure's two-level A, B, B − A, the correction of B − A and the cheap policy's A and
    B, from the moments of (A's value where defined else 0, A defined, B's two); None with
    under two paired deals, or where under :data:`RATIO_MIN_DEALS` of them define a measure
    of some deals under a variant.

    A measure of every deal is the two-level mean of its values. A measure of some deals
    (contract deals) is each variant's mean over its own deals, Σ value / Σ defined: the
    ratio of two two-level means, with the delta method's interval. The searching player
    may define it on other deals than the cheap one (it bids otherwise), and a rule on
    other deals than the other rule: the ratio is about each one's own deals all the same,
    where pairing the deals all four define would compare what no mean is about."""
    if t.n_paired < 2:
        return None
    if all((m.sums[1::2] == m.n).all() for m in (t.base, t.joint)):  # defined on every deal
        t = t.subset([0, 2])
        return (t.estimate(0), t.estimate(1), t.diff(1, 0), t.diff_correction(1, 0),
                t.base_estimate(0).mean, t.base_estimate(1).mean)
    if min(t.joint.sums[1], t.joint.sums[3]) < RATIO_MIN_DEALS:
        return None
    means, cheap = t.means(), t.base.means()
    if min(means[1], means[3], cheap[1], cheap[3]) <= 0:
        return None
    grad_a, grad_b = ratio_gradients(means)
    cov, n = t.mean_covariance(), t.n
    a, b = means[0] / means[1], means[2] / means[3]
    base_a, base_b = cheap[0] / cheap[1], cheap[2] / cheap[3]
    return (delta(a, grad_a, cov, n), delta(b, grad_b, cov, n),
            delta(b - a, grad_b - grad_a, cov, n),
            delta(b - a - (base_b - base_a), grad_b - grad_a, t.correction_covariance(),
                   t.n_paired), base_a, base_b)


def compare_chunk(ra, rb, seed: int, policy: str, lo: int, n: int, rows: Rows = OWN_ROWS):
    """Deals ``lo .. lo + n - 1`` under both variants: for each measure the exact sums of its
    values under A, under B, of the paired B − A where both define it, and of where each
    defines it (:func:`analyzer.differences.difference`); and the deals played on the same cards."""
    g = game(ra)
    da, db, same = rows.frames(g, ra, rb, seed, policy, lo, n)
    redealing = rows.redealing(g, ra, rb)
    ma, mb = (rows.measures(g, df, r, redealing, (ra, rb)) for df, r in ((da, ra), (db, rb)))
    out = {}
    changed = np.zeros(n, dtype=bool)
    for name, (x, y) in _aligned(ma, mb, n).items():
        has_x, has_y = ~np.isnan(x), ~np.isnan(y)
        both = has_x & has_y
        differs = both & (x != y)
        changed |= (has_x != has_y) | differs
        out[name] = (Moments.of(x[has_x]), Moments.of(y[has_y]), Moments.of(y[both] - x[both]),
                     PairedMoments.of_columns([np.where(has_x, x, 0.0), has_x.astype(float),
                                               np.where(has_y, y, 0.0), has_y.astype(float)]),
                     int((has_x != has_y).sum() + differs.sum()),
                     Moments.of(x[both]), Moments.of(y[both]), int(differs.sum()))
    return out, int(same.sum()), int(changed.sum())


def _aligned(ma: dict, mb: dict, n: int) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Each measure's values under A and B, A's measures first; a measure only one variant
    has (a King hand another ordering of hands plays elsewhere) is undefined, NaN, under
    the other, so it has its level there and no difference."""
    missing = np.full(n, np.nan)
    return {name: (ma.get(name, missing), mb.get(name, missing))
            for name in [*ma, *(k for k in mb if k not in ma)]}


def two_level_chunk(ra, rb, seed: int, base, searching, lo: int, n: int,
                    rows: Rows = OWN_ROWS):
    """Deals ``lo .. lo + n - 1`` for a two-level comparison: per measure the paired moments,
    over every deal, of (A's value where defined else 0, A defined, B's two) under the cheap
    policy ``base``, or with ``searching`` (a policy vector) those four under it then the
    four under ``base`` (:func:`_two_level_figures`); the deals played on the same cards
    (under both policies); and per measure the deals it is defined on under one policy, or
    one variant, only."""
    g = game(ra)
    redealing = rows.redealing(g, ra, rb)
    frames = []
    same = np.ones(n, dtype=bool)
    for policy in ((searching, base) if searching is not None else (base,)):
        da, db, both = rows.frames(g, ra, rb, seed, policy, lo, n)
        frames += [da, db]
        same &= both
    measures = [rows.measures(g, df, rules, redealing, (ra, rb))
                for df, rules in zip(frames, (ra, rb) * (len(frames) // 2), strict=True)]
    pairs = [_aligned(a, b, n) for a, b in zip(measures[0::2], measures[1::2], strict=True)]
    out, apart = {}, {}
    for name in pairs[0]:
        values = np.vstack([v for pair in pairs for v in pair[name]])
        defined = ~np.isnan(values)
        columns = np.empty((2 * len(values), n))
        columns[0::2] = np.where(defined, values, 0.0)
        columns[1::2] = defined
        moments = PairedMoments(len(columns))
        moments.add_columns(columns)
        out[name] = moments
        # deals defined under one policy only (rows 0, 1 searching; 2, 3 cheap), or under
        # one variant only: told apart in the table (n_apart)
        differ = defined[0::2] != defined[1::2]
        if searching is not None:
            differ = np.vstack([differ, defined[:2] != defined[2:]])
        apart[name] = int(differ.any(axis=0).sum())
    return out, int(same.sum()), apart


def render_comparison(c: Comparison) -> str:
    """The header line and the table of a comparison, as `bidlab compare` prints them."""
    p = c.provenance
    unit = c.unit
    ra, rb = as_rules(p["a"]), as_rules(p["b"])
    head = (f"A = {p['a']}   B = {p['b']}   policy {policy_label(p['policy'])}, "
            f"seed {p['seed']}, {c.deals_line(unit)}\n")
    if p["a"] != p["b"]:  # and where the presets differ, what either plays beyond its flags
        notes = [f"{r.game}: {type(r).PRESET_NOTES[r.game]}" for r in
                 ((ra, rb) if ra.game != rb.game else ()) if r.game in type(r).PRESET_NOTES]
        head += f"B changes: {'; '.join(rule_changes(ra, rb) + notes)}\n"
    if "base_policy" in p:
        thrown = p["n_base"] - p["shared_base_deals"]
        head += (f"estimator: {p['estimator']}: {policy_label(p['base_policy'])} on "
                 f"N = {p['n_base']:,} deals"
                 + (f" ({thrown:,} thrown in and redealt under A or B)"
                    if thrown and p.get("same_deck", True) else "")
                 + ", plus the "
                 f"correction ({p['policy']} minus it) fitted on the first n = {p['deals']:,}; "
                 f"every figure is an estimate of {p['policy']}'s\n")

    two_level = "correction" in c.table
    rows = []
    for r in c.table.itertuples():
        row = [shown_measure(r.measure), interval_text(r.a, r.a_lo, r.a_hi, 3),
               interval_text(r.b, r.b_lo, r.b_hi, 3),
               "-" if np.isnan(r.b_minus_a) else f"{r.b_minus_a:+.4f}",
               "-" if np.isnan(r.diff_lo) else f"[{r.diff_lo:+.4f}, {r.diff_hi:+.4f}]",
               verdict_word(r, unit)]
        if two_level:
            row += ["-" if np.isnan(r.correction) else
                    f"{r.correction:+.4f} [{r.correction_lo:+.4f}, {r.correction_hi:+.4f}]",
                    "-" if np.isnan(r.n_base) else f"{r.n_base:,.0f} / {r.n_search:,.0f}"]
        else:  # a measure of some deals: how many each variant has (B − A: A's mean to B's)
            row.append(n_label(r.n_a, r.n_b, r.n_paired))
        rows.append(row)
    names = [f"measure (per {unit})", "A", "B", "B − A", "95% CI (paired)", "verdict"]
    names += (["correction of B − A (n)", "N / n"] if two_level
              else [n_header(counts_apart(c.table))])
    table = render_table(names, rows, align="l" * 1 + "r" * 4 + "l" + "r" * (len(names) - 6))
    table += "\n" + verdict_note(c.table, policy_label(p["policy"]), unit,
                                  p.get("same_deck", True))
    if not two_level and counts_apart(c.table):
        table += "\n" + COUNTS_NOTE.format(unit=unit)
    if not two_level and p["a"] != p["b"]:
        table += "\n" + c.changed_text()
    if two_level and c.table["b_minus_a"].isna().any():
        table += ("\n- : too few of the n deals define the measure under a variant to "
                  f"estimate it (a measure of some deals needs {RATIO_MIN_DEALS})")
    if two_level and (c.table["n_apart"] > 0).any():
        table += ("\n(contract deals): each variant's mean over the deals it defines the "
                  "measure on, a ratio of two-level means (the delta method's interval); "
                  "estimates are held to the measure's range")
    return head + "\n" + table
