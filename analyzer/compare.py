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

May import: the foundations and the games' registry and protocol; never a game by name.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .games import game, parse_game
from .stats import mean_ci, paired_diff
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
                     progress: Callable[[int], None] | None = None) -> Comparison:
    """Simulate the same ``deals`` deals under variants ``a`` and ``b`` (Rules or variant
    strings of one game family); paired differences. ``progress(k)`` follows each batch of
    ``batch`` deals (A's, then B's: ``2 * deals`` in all); the result does not depend on
    ``batch``.

    The table has a row per measure: its mean under A and B with 95% half-widths
    (``a_hw``, ``b_hw``) and bounds (``a_lo`` .. ``b_hi``), n under each, the paired
    difference ``b_minus_a`` with its 95% interval ``diff_lo`` .. ``diff_hi``, and the
    deals it pairs (``n_paired``)."""
    ra = parse_game(a) if isinstance(a, str) else a
    rb = parse_game(b) if isinstance(b, str) else b
    g = game(ra)
    if game(rb) is not g:
        raise RuleError(f"compare needs two variants of one game; got {ra.game} and {rb.game}")
    da = g.simulate(ra, deals, seed, policy, batch=batch, progress=progress)
    db = g.simulate(rb, deals, seed, policy, batch=batch, progress=progress)
    same = g.shared_rows(da, db)
    ma, mb = g.compare_measures(da[same], ra), g.compare_measures(db[same], rb)
    rows = []
    for name in ma:
        x, y = ma[name], mb[name]
        both = ~np.isnan(x) & ~np.isnan(y)
        ea, eb = mean_ci(x[~np.isnan(x)]), mean_ci(y[~np.isnan(y)])
        d = paired_diff(y[both], x[both]) if both.sum() > 1 else None
        rows.append({"measure": name, "a": ea.mean, "a_hw": ea.half_width, "n_a": ea.n,
                     "b": eb.mean, "b_hw": eb.half_width, "n_b": eb.n,
                     "b_minus_a": d.mean if d else np.nan,
                     "diff_lo": d.lo if d else np.nan, "diff_hi": d.hi if d else np.nan,
                     "n_paired": int(both.sum()),
                     "a_lo": ea.lo, "a_hi": ea.hi, "b_lo": eb.lo, "b_hi": eb.hi})
    prov = {"a": str(ra), "b": str(rb), "seed": seed, "policy": da.attrs["policy"],
            "deals": deals, "shared_deals": int(same.sum())}
    return Comparison(str(ra), str(rb), pd.DataFrame(rows), prov)
