"""Rule variants compared on identical deals: what a rule change does to the game.

Deal ``i`` of a seed is the same deal under every variant (the cards come from
the deal stream alone), so the two variants are played on the same cards and
every difference is paired, deal by deal: its interval is far narrower than
that of two independent runs. Variants that redeal (``redeal`` flags) only
share the deals that were not thrown in.

>>> from analyzer.compare import compare_variants
>>> result = compare_variants("pedro", "pedro(low_to=holder)", deals=20_000)
>>> list(result.table.columns[:3]), len(result.table)
(['measure', 'a', 'a_hw'], 7)

May import: the foundations (moments, stats) and the games' registry, common module and
protocol; never a game by name.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .games import game, parse_game
from .games.common import default_chunk, parse_policies, policy_string, searches
from .limits import Pace, require_time
from .moments import Moments
from .variants import RuleError


@dataclass
class Comparison:
    """One row per measure: the value under A and B, and the paired difference B − A."""

    a: str
    b: str
    table: pd.DataFrame
    provenance: dict


def compare_variants(a, b, deals: int = 1_000_000, seed: int = 1,
                     policy: str = "heuristic", batch: int | None = None,
                     progress: Callable[[int], None] | None = None,
                     executor=None) -> Comparison:
    """Simulate the same ``deals`` deals under variants ``a`` and ``b`` (Rules or variant
    strings of one game family); paired differences. The deals go in chunks of ``batch``
    (by default at most a million), both variants a chunk, so memory holds one chunk;
    ``progress(k)`` follows each chunk (``2 * deals`` in all). ``executor`` (a Dask one of
    :mod:`analyzer.runs`) plays the chunks on a cluster. Every figure comes from exact
    sums of the chunks (:mod:`analyzer.moments`), so it depends neither on ``batch`` nor
    on the executor.

    The table has a row per measure: its mean under A and B with 95% half-widths
    (``a_hw``, ``b_hw``) and bounds (``a_lo`` .. ``b_hi``), n under each, the paired
    difference ``b_minus_a`` with its 95% interval ``diff_lo`` .. ``diff_hi``, and the
    deals it pairs (``n_paired``)."""
    ra = parse_game(a) if isinstance(a, str) else a
    rb = parse_game(b) if isinstance(b, str) else b
    g = game(ra)
    if game(rb) is not g:
        raise RuleError(f"compare needs two variants of one game; got {ra.game} and {rb.game}")
    pols = parse_policies(policy)
    size = batch or default_chunk(deals, searches(pols))
    pace = Pace(deals, "--deals") if executor is None else require_time(deals, "--deals")

    def ranges():  # one at a time: a run may have more chunks than memory holds
        return ((lo, min(size, deals - lo)) for lo in range(0, deals, size))

    work = functools.partial(compare_chunk, ra, rb, seed, policy)
    parts = executor.map_ordered(work, ranges()) if executor is not None else (
        work(lo, n) for lo, n in ranges())
    stats: dict[str, list] = {}
    shared = done = 0
    for (_, n), (chunk_stats, chunk_shared) in zip(ranges(), parts, strict=True):
        done += n
        if pace is not None:
            pace.step(done)
        shared += chunk_shared
        for name, moments in chunk_stats.items():
            stats[name] = ([m + o for m, o in zip(stats[name], moments, strict=True)]
                           if name in stats else list(moments))
        if progress:
            progress(2 * n)
    rows = []
    for name, (ma, mb, md) in stats.items():
        ea, eb = ma.estimate(), mb.estimate()
        d = md.estimate() if md.n > 1 else None
        rows.append({"measure": name, "a": ea.mean, "a_hw": ea.half_width, "n_a": ea.n,
                     "b": eb.mean, "b_hw": eb.half_width, "n_b": eb.n,
                     "b_minus_a": d.mean if d else np.nan,
                     "diff_lo": d.lo if d else np.nan, "diff_hi": d.hi if d else np.nan,
                     "n_paired": md.n,
                     "a_lo": ea.lo, "a_hi": ea.hi, "b_lo": eb.lo, "b_hi": eb.hi})
    prov = {"a": str(ra), "b": str(rb), "seed": seed, "policy": policy_string(pols),
            "deals": deals, "shared_deals": shared}
    return Comparison(str(ra), str(rb), pd.DataFrame(rows), prov)


def compare_chunk(ra, rb, seed: int, policy: str, lo: int, n: int):
    """Deals ``lo .. lo + n - 1`` under both variants: for each measure the exact sums of its
    values under A, under B and of the paired B − A, and the deals both played."""
    g = game(ra)
    da = g.simulate(ra, n, seed, policy, lo)
    db = g.simulate(rb, n, seed, policy, lo)
    same = g.shared_rows(da, db)
    ma, mb = g.compare_measures(da[same], ra), g.compare_measures(db[same], rb)
    out = {}
    for name in ma:
        x, y = ma[name], mb[name]
        both = ~np.isnan(x) & ~np.isnan(y)
        out[name] = (Moments.of(x[~np.isnan(x)]), Moments.of(y[~np.isnan(y)]),
                     Moments.of(y[both] - x[both]))
    return out, int(same.sum())
