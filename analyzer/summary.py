"""What a Pedro/Cinch simulation says, every figure with its n and 95% interval.

:func:`summarize` turns the per-deal frame of :func:`analyzer.games.pedro.simulate`
into a :class:`Summary` of small DataFrames (points, contracts, shares, dealer
advantage) and renders them as aligned text tables. Means carry a normal
interval (``mean ± 1.96·se``), rates a Wilson interval (:mod:`analyzer.stats`).

The *bidding side* is the team of the seat that named trump: the high bidder,
or the dealer on a deal where all passed and nobody holds a contract.

>>> from analyzer.games import pedro
>>> df = pedro.simulate(pedro.parse_rules("pedro"), 2000, seed=1)   # doctest: +SKIP
>>> print(summarize(df).to_text())                                   # doctest: +SKIP
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .stats import Estimate, Proportion, mean_ci, wilson
from .text import render_table

_EST_COLS = ["n", "mean", "se", "lo", "hi"]
_RATE_COLS = ["n", "k", "rate", "lo", "hi"]


def _est_row(e: Estimate) -> list:
    return [e.n, e.mean, e.se, e.lo, e.hi]


def _rate_row(p: Proportion) -> list:
    return [p.n, p.k, p.mean, p.lo, p.hi]


def _frame(rows: dict[str, list], columns: list[str]) -> pd.DataFrame:
    return pd.DataFrame.from_dict(rows, orient="index", columns=columns)


@dataclass
class Summary:
    """Tables of one simulation; ``provenance`` says which run they describe.

    ``points``: mean points per deal (rows: bidding side, other side, team 0,
    team 1, dead). ``contracts``: make rate of the bidder over contract deals,
    overall and by bid. ``shares``: no-contract deals and deals where the
    dealer's side named trump. ``dealer``: mean settlement of the dealer's team
    minus the other team's, methods 1 and 2. Mean tables have columns n, mean,
    se, lo, hi; rate tables n, k, rate, lo, hi; lo/hi bound the 95% interval.
    """

    provenance: dict
    points: pd.DataFrame
    contracts: pd.DataFrame
    shares: pd.DataFrame
    dealer: pd.DataFrame
    estimates: dict[str, Estimate] = field(default_factory=dict, repr=False)
    methods_agree: bool = False  # dealer advantage identical per deal under methods 1 and 2

    def to_text(self) -> str:
        p = self.provenance
        last = p["first"] + p["n"] - 1
        lines = [
            f"{p['rules']}: n={p['n']} deals ({p['first']}..{last} of seed {p['seed']}), "
            f"policy {p['policy']}",
            "Every figure: n and 95% interval (means: mean ± 1.96 se; rates: Wilson).",
            "",
            "Points per deal",
            _mean_table(self.points),
            "",
            "Bidder makes the contract (contract deals only)",
            _rate_table(self.contracts),
            "",
            "Shares of all deals",
            _rate_table(self.shares),
            "",
            "Dealer advantage: dealer's team settlement minus the other team's, per deal",
            _mean_table(self.dealer),
        ]
        if self.methods_agree:
            lines.append("  (under these rules the two methods give the same difference on "
                         "every deal)")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.to_text()


def _mean_table(df: pd.DataFrame) -> str:
    rows = [
        [label, int(r["n"]), f"{r['mean']:.3f}", f"± {(r['hi'] - r['lo']) / 2:.3f}",
         f"[{r['lo']:.3f}, {r['hi']:.3f}]"]
        for label, r in df.iterrows()
    ]
    return render_table(["", "n", "mean", "95% ±", "95% CI"], rows, "lrrrl", indent="  ")


def _pct(x: float) -> str:
    """A rate as a percentage: two decimals, or two significant digits below 1%."""
    v = 100 * x
    if v == 0 or v >= 1:
        return f"{v:.2f}%"
    return np.format_float_positional(v, precision=2, fractional=False, trim="-") + "%"


def _rate_table(df: pd.DataFrame) -> str:
    rows = [
        [label, int(r["n"]), int(r["k"]), _pct(r["rate"]),
         f"[{_pct(r['lo'])}, {_pct(r['hi'])}]"]
        for label, r in df.iterrows()
    ]
    return render_table(["", "n", "k", "rate", "95% CI"], rows, "lrrrl", indent="  ")


def _provenance(df: pd.DataFrame) -> dict:
    a = df.attrs
    first = a.get("first", int(df["deal"].iloc[0]) if len(df) else 0)
    return {
        "n": len(df),
        "seed": a.get("seed", "?"),
        "rules": a.get("rules", a.get("game", "?")),
        "policy": a.get("policy", "?"),
        "first": int(first),
    }


def summarize(df: pd.DataFrame) -> Summary:
    """Summary of a per-deal frame from :func:`analyzer.games.pedro.simulate`.

    Raises ValueError on an empty frame: there is nothing to estimate.
    """
    if len(df) == 0:
        raise ValueError("cannot summarize an empty simulation (0 deals)")
    est: dict[str, Estimate] = {}

    def mean(key: str, values) -> list:
        est[key] = mean_ci(values)
        return _est_row(est[key])

    def rate(key: str, k: int, n: int) -> list:
        est[key] = wilson(k, n)
        return _rate_row(est[key])

    points = _frame(
        {
            "bidding side (named trump)": mean("points_bidding_side", df["bid_points"]),
            "other side": mean("points_other_side", df["opp_points"]),
            "team 0 (seats 0, 2)": mean("points_team0", df["points0"]),
            "team 1 (seats 1, 3)": mean("points_team1", df["points1"]),
            "dead (scored by nobody)": mean("dead_points", df["dead_points"]),
        },
        _EST_COLS,
    )

    bid = df["bid"].to_numpy()
    made = df["made"].to_numpy()
    contract = bid > 0
    n_contract = int(contract.sum())
    crows: dict[str, list] = {}
    if n_contract:
        crows["all contracts"] = rate("make_rate", int((made[contract] == 1).sum()), n_contract)
        for b in np.unique(bid[contract]):
            sel = bid == b
            crows[f"bid {int(b)}"] = rate(f"make_rate_bid{int(b)}", int((made[sel] == 1).sum()),
                                          int(sel.sum()))
    contracts = _frame(crows, _RATE_COLS)

    n = len(df)
    dealer_team = df["dealer"].to_numpy() & 1
    maker_team = df["maker"].to_numpy() & 1
    shares = _frame(
        {
            "no contract (all passed)": rate("no_contract", int((~contract).sum()), n),
            "dealer's side named trump": rate("dealer_named_trump",
                                              int((maker_team == dealer_team).sum()), n),
        },
        _RATE_COLS,
    )

    # Made or set, the *difference* between the teams is the same under method 1 and
    # method 2 with m2_diff_to=side_with_more (only the level differs), hence the note.
    sign = np.where(dealer_team == 0, 1.0, -1.0)
    adv = {m: sign * (df[f"score{m}_team0"].to_numpy(np.float64)
                      - df[f"score{m}_team1"].to_numpy(np.float64)) for m in (1, 2)}
    dealer = _frame({f"method {m}": mean(f"dealer_advantage{m}", adv[m]) for m in (1, 2)},
                    _EST_COLS)
    return Summary(_provenance(df), points, contracts, shares, dealer, est,
                   methods_agree=bool(np.array_equal(adv[1], adv[2])))
