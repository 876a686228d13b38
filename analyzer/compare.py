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
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from .games import family, parse_game
from .stats import mean_ci, paired_diff
from .variants import RuleError


@dataclass
class Comparison:
    """One row per measure: the value under A and B, and the paired difference B − A."""

    a: str
    b: str
    table: pd.DataFrame
    provenance: dict


def _rook_measures(df: pd.DataFrame) -> dict[str, np.ndarray]:
    """Per-hand Rook quantities (every hand has a declarer and a bid)."""
    dealer_team = df["dealer"].to_numpy() & 1
    t0 = df["score0"].to_numpy().astype(float)
    t1 = df["score1"].to_numpy().astype(float)
    return {
        "declaring side's points": df["bid_points"].to_numpy().astype(float),
        "bid": df["bid"].to_numpy().astype(float),
        "declarer makes": (df["made"] == 1).to_numpy().astype(float),
        "dealer forced at 70": df["forced"].to_numpy().astype(float),
        "dealer's side declares": ((df["declarer"].to_numpy() & 1) == dealer_team)
        .astype(float),
        "dealer advantage (score)": np.where(dealer_team == 0, t0 - t1, t1 - t0),
        "declarer's score": df["score_bid"].to_numpy().astype(float),
    }


def _king_measures(df: pd.DataFrame) -> dict[str, np.ndarray]:
    """Per-game King quantities: final scores by seat position, each hand's dealer points."""
    n = len(df)
    d0 = df["first_dealer"].to_numpy().astype(np.int64)
    totals = np.stack([df[f"total{s}"].to_numpy(float) for s in range(4)], axis=1)
    out = {f"final score, first dealer + {k}": totals[np.arange(n), (d0 + k) % 4]
           for k in range(4)}
    for k in range(10):
        cols = [f"h{k + 1}_p{s}" for s in range(4)]
        pts = df[cols].to_numpy(float)
        if pts.any():
            out[f"hand {k + 1}: its dealer's points"] = pts[np.arange(n), (d0 + k) % 4]
    return out


def _measures(df: pd.DataFrame, rules) -> dict[str, np.ndarray]:
    """Per-deal quantities; NaN where a measure does not apply to a deal."""
    if rules.game == "rook":
        return _rook_measures(df)
    if rules.game == "king":
        return _king_measures(df)
    method = rules.scoring
    contract = df["bid"].to_numpy() > 0
    dealer_team = df["dealer"].to_numpy() & 1
    t0 = df[f"score{method}_team0"].to_numpy().astype(float)
    t1 = df[f"score{method}_team1"].to_numpy().astype(float)
    return {
        "bidding side's points": df["bid_points"].to_numpy().astype(float),
        "bid (contract deals)": np.where(contract, df["bid"], np.nan),
        "bidder makes (contract deals)": np.where(contract, df["made"] == 1, np.nan),
        "no contract": (~contract).astype(float),
        "dealer's side names trump": ((df["maker"].to_numpy() & 1) == dealer_team).astype(float),
        "dealer advantage (own method)": np.where(dealer_team == 0, t0 - t1, t1 - t0),
        "dead points": df["dead_points"].to_numpy().astype(float),
    }


def compare_variants(a, b, deals: int = 1_000_000, seed: int = 1,
                     policy: str = "heuristic") -> Comparison:
    """Simulate the same ``deals`` deals under variants ``a`` and ``b`` (Rules or variant
    strings of one game family); paired differences."""
    ra = parse_game(a) if isinstance(a, str) else a
    rb = parse_game(b) if isinstance(b, str) else b
    engine = family(ra)
    if family(rb) is not engine:
        raise RuleError(f"compare needs two variants of one game; got {ra.game} and {rb.game}")
    da = engine.simulate(ra, deals, seed=seed, policies=policy)
    db = engine.simulate(rb, deals, seed=seed, policies=policy)
    if "redeals" in da:
        same = (da["redeals"].to_numpy() == 0) & (db["redeals"].to_numpy() == 0)
    else:  # a game without redeals (King)
        same = np.ones(len(da), dtype=bool)
    ma, mb = _measures(da[same], ra), _measures(db[same], rb)
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
                     "n_paired": int(both.sum())})
    prov = {"a": str(ra), "b": str(rb), "seed": seed, "policy": da.attrs["policy"],
            "deals": deals, "shared_deals": int(same.sum())}
    return Comparison(str(ra), str(rb), pd.DataFrame(rows), prov)
