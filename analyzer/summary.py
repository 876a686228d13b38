"""What a simulation says, every figure with its n and 95% interval.

:func:`summarize` turns the per-deal frame of :func:`analyzer.games.pedro.simulate`
or the per-hand frame of :func:`analyzer.games.rook.simulate` into a
:class:`Summary`: titled sections, each one small DataFrame (points, contracts,
shares, dealer advantage), rendered as aligned text tables. Means carry a
normal interval (``mean ± 1.96·se``), rates a Wilson interval (:mod:`analyzer.stats`).

Pedro/Cinch: the *bidding side* is the team of the seat that named trump: the
high bidder, or the dealer on a deal where all passed and nobody holds a
contract. Rook: the *declaring side* is the declarer's team; every hand has a
declarer (the dealer is forced at 70 when the first three pass).

>>> from analyzer.games import pedro
>>> df = pedro.simulate(pedro.parse_rules("pedro"), 2000, seed=1)
>>> summarize(df).to_text().splitlines()[0]
'pedro: n=2000 deals (0..1999 of seed 1), policy heuristic'

May import: the foundations, the games' registry and :mod:`.games.common`; never a game by
name.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .games.common import policy_label
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
class Section:
    """One titled table of a :class:`Summary`.

    ``key`` names it (``points``, ``contracts``, ``shares``, ``dealer``); ``kind``
    is ``"mean"`` (columns n, mean, se, lo, hi) or ``"rate"`` (n, k, rate, lo,
    hi); lo/hi bound the 95% interval. ``note`` is a line printed under the table.
    """

    key: str
    title: str
    table: pd.DataFrame
    kind: str
    note: str | None = None

    def to_text(self) -> str:
        return (_mean_table if self.kind == "mean" else _rate_table)(self.table)


@dataclass
class Summary:
    """Tables of one simulation; ``provenance`` says which run they describe.

    ``sections`` in print order; ``points``, ``contracts``, ``shares`` and
    ``dealer`` are their tables by key. Pedro/Cinch: ``points`` is the mean points
    per deal (bidding side, other side, team 0, team 1, dead); ``contracts`` the
    make rate of the bidder over contract deals, overall and by bid; ``shares``
    no-contract deals and deals where the dealer's side named trump; ``dealer``
    the mean settlement of the dealer's team minus the other team's, methods 1
    and 2. Rook: the same per hand for the declaring side (every hand has a
    contract); shares of hands where the dealer was forced at 70, where the
    dealer's side declared and where the widow is a counter; the dealer
    advantage in score. ``estimates`` holds every figure by a short name.
    """

    provenance: dict
    sections: list[Section]
    estimates: dict[str, Estimate] = field(default_factory=dict, repr=False)
    methods_agree: bool = False  # Pedro: dealer advantage identical per deal under methods 1, 2
    unit: str = "deals"  # what one row is: Pedro deals, Rook hands

    def table(self, key: str) -> pd.DataFrame:
        """The table of the section named ``key``; KeyError if there is none."""
        for s in self.sections:
            if s.key == key:
                return s.table
        raise KeyError(key)

    @property
    def points(self) -> pd.DataFrame:
        return self.table("points")

    @property
    def contracts(self) -> pd.DataFrame:
        return self.table("contracts")

    @property
    def shares(self) -> pd.DataFrame:
        return self.table("shares")

    @property
    def dealer(self) -> pd.DataFrame:
        return self.table("dealer")

    def to_text(self) -> str:
        p = self.provenance
        last = p["first"] + p["n"] - 1
        lines = [
            f"{p['rules']}: n={p['n']} {self.unit} ({p['first']}..{last} of seed {p['seed']}), "
            f"policy {policy_label(p['policy'])}",
            "Every figure: n and 95% interval (means: mean ± 1.96 se; rates: Wilson).",
        ]
        for s in self.sections:
            lines += ["", s.title, s.to_text()]
            if s.note:
                lines.append(s.note)
        return "\n".join(lines)

    def to_document(self, provenance: dict | None = None) -> dict:
        """Everything :meth:`to_text` prints, for ``--json``: the provenance (``provenance``
        adds to it, e.g. a frame's whole ``attrs``), then each section's rows, labelled by
        ``row``, each figure with its n and 95% bounds (lo, hi)."""
        from .documents import provenance as with_version
        from .documents import records

        return {"provenance": with_version({**(provenance or {}), **self.provenance}),
                "unit": self.unit,
                "interval": "95%: means by the normal (mean, 1.96 se), rates by Wilson",
                "sections": [{"key": s.key, "title": s.title, "kind": s.kind, "note": s.note,
                              "rows": records(s.table, "row")} for s in self.sections]}

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
    first = a["first"] if "first" in a else int(df.iloc[0, 0]) if len(df) else 0
    return {
        "n": len(df),
        "seed": a.get("seed", "?"),
        "rules": a.get("rules", a.get("game", "?")),
        "policy": a.get("policy", "?"),
        "first": int(first),
    }


class _Estimates:
    """Builds table rows and records each figure under its key in ``est``."""

    def __init__(self) -> None:
        self.est: dict[str, Estimate] = {}

    def mean(self, key: str, values) -> list:
        self.est[key] = mean_ci(values)
        return _est_row(self.est[key])

    def rate(self, key: str, k: int, n: int) -> list:
        self.est[key] = wilson(k, n)
        return _rate_row(self.est[key])

    def means(self, rows: dict[str, tuple[str, object]]) -> pd.DataFrame:
        """``{label: (key, values)}`` -> a mean table."""
        return _frame({label: self.mean(key, v) for label, (key, v) in rows.items()}, _EST_COLS)

    def make_rates(self, bid: np.ndarray, made: np.ndarray, contract: np.ndarray,
                   overall: str = "all contracts") -> pd.DataFrame:
        """Make rate over the contract rows, overall and by bid (``made == 1``: made)."""
        n_contract = int(contract.sum())
        rows: dict[str, list] = {}
        if n_contract:
            rows[overall] = self.rate("make_rate", int((made[contract] == 1).sum()),
                                              n_contract)
            for b in np.unique(bid[contract]):
                sel = contract & (bid == b)
                rows[f"bid {int(b)}"] = self.rate(f"make_rate_bid{int(b)}",
                                                  int((made[sel] == 1).sum()), int(sel.sum()))
        return _frame(rows, _RATE_COLS)


def _dealer_sign(df: pd.DataFrame) -> np.ndarray:
    """+1 where the dealer is on team 0, -1 on team 1: turns team 0 minus team 1 into dealer's
    team minus the other."""
    return np.where((df["dealer"].to_numpy() & 1) == 0, 1.0, -1.0)


def summarize(df: pd.DataFrame) -> Summary:
    """Summary of a simulation frame of any game (its ``attrs["game"]``, or the variant
    string in ``attrs["rules"]``, names it; the game summarizes,
    :meth:`analyzer.games.protocol.Game.summarize`).

    Raises ValueError on an empty frame (there is nothing to estimate) or one that does not
    say its game.
    """
    from .games import game

    name = df.attrs.get("game") or df.attrs.get("rules")
    if not name:
        raise ValueError("the frame does not say its game: attrs['game'] or attrs['rules'] "
                         "(frames from simulate carry both)")
    return game(name).summarize(df)


