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
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .cards import JOKER
from .games.common import policy_label
from .games.rook.rules import POINT_SCHEMES, PRESETS, parse_rules
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
    """Summary of a per-deal frame from :func:`analyzer.games.pedro.simulate`, or of a
    per-hand frame from :func:`analyzer.games.rook.simulate` (``df.attrs["game"] == "rook"``).

    Raises ValueError on an empty frame: there is nothing to estimate.
    """
    if df.attrs.get("game") == "rook":
        return _summarize_rook(df)
    if df.attrs.get("game") == "king":
        return _summarize_king(df)
    return _summarize_pedro(df)


def _summarize_pedro(df: pd.DataFrame) -> Summary:
    if len(df) == 0:
        raise ValueError("cannot summarize an empty simulation (0 deals)")
    e = _Estimates()
    points = e.means({
        "bidding side (named trump)": ("points_bidding_side", df["bid_points"]),
        "other side": ("points_other_side", df["opp_points"]),
        "team 0 (seats 0, 2)": ("points_team0", df["points0"]),
        "team 1 (seats 1, 3)": ("points_team1", df["points1"]),
        "dead (scored by nobody)": ("dead_points", df["dead_points"]),
    })

    bid = df["bid"].to_numpy()
    contract = bid > 0
    contracts = e.make_rates(bid, df["made"].to_numpy(), contract)

    n = len(df)
    dealer_team = df["dealer"].to_numpy() & 1
    maker_team = df["maker"].to_numpy() & 1
    shares = _frame(
        {
            "no contract (all passed)": e.rate("no_contract", int((~contract).sum()), n),
            "dealer's side named trump": e.rate("dealer_named_trump",
                                                int((maker_team == dealer_team).sum()), n),
        },
        _RATE_COLS,
    )

    # Made or set, the *difference* between the teams is the same under method 1 and
    # method 2 with m2_diff_to=side_with_more (only the level differs), hence the note.
    sign = _dealer_sign(df)
    adv = {m: sign * (df[f"score{m}_team0"].to_numpy(np.float64)
                      - df[f"score{m}_team1"].to_numpy(np.float64)) for m in (1, 2)}
    dealer = e.means({f"method {m}": (f"dealer_advantage{m}", adv[m]) for m in (1, 2)})
    agree = bool(np.array_equal(adv[1], adv[2]))
    note = ("  (under these rules the two methods give the same difference on every deal)"
            if agree else None)
    sections = [
        Section("points", "Points per deal", points, "mean"),
        Section("contracts", "Bidder makes the contract (contract deals only)", contracts,
                "rate"),
        Section("shares", "Shares of all deals", shares, "rate"),
        Section("dealer", "Dealer advantage: dealer's team settlement minus the other team's, "
                "per deal", dealer, "mean", note),
    ]
    return Summary(_provenance(df), sections, e.est, methods_agree=agree)


def _rook_rules(df: pd.DataFrame):
    """The Rook rules of a frame, from its ``rules`` attribute (the preset when absent)."""
    text = df.attrs.get("rules")
    return PRESETS["rook"] if text is None else parse_rules(str(text))


def rook_card_points(rules) -> np.ndarray:
    """Points of every card index 0..63 under Rook ``rules`` (a Rules object or its string).

    Index ``16 * suit + rank`` with rank 0..12 for 2..A; 63 is the Rook. Ranks a
    scheme removes from the deck score 0 here as they do in play.
    """
    if isinstance(rules, str):
        rules = parse_rules(rules)
    ranks, rook, _last, _low = POINT_SCHEMES[rules.points]
    pts = np.zeros(64, dtype=np.int64)
    for s in range(4):
        pts[16 * s:16 * s + 13] = ranks
    pts[JOKER] = rook
    return pts


def _summarize_rook(df: pd.DataFrame) -> Summary:
    if len(df) == 0:
        raise ValueError("cannot summarize an empty simulation (0 hands)")
    e = _Estimates()
    points = e.means({
        "declaring side": ("points_declaring_side", df["bid_points"]),
        "other side": ("points_other_side", df["opp_points"]),
        "team 0 (seats 0, 2)": ("points_team0", df["points0"]),
        "team 1 (seats 1, 3)": ("points_team1", df["points1"]),
    })

    bid = df["bid"].to_numpy()
    contracts = e.make_rates(bid, df["made"].to_numpy(), np.ones(len(df), dtype=bool),
                             overall="all hands")

    n = len(df)
    dealer_team = df["dealer"].to_numpy() & 1
    declarer_team = df["declarer"].to_numpy() & 1
    rules = _rook_rules(df)
    widow_points = rook_card_points(rules)[df["widow"].to_numpy() & 63]
    srows = {
        "dealer forced at 70 (three passes)": e.rate(
            "dealer_forced", int((df["forced"].to_numpy() != 0).sum()), n),
        "dealer's side declared": e.rate(
            "dealer_declared", int((declarer_team == dealer_team).sum()), n),
        "widow card is a counter": e.rate("widow_counter", int((widow_points > 0).sum()), n),
    }
    if rules.all_pass == "redeal":
        srows["thrown in at least once (all four passed)"] = e.rate(
            "redealt", int((df["redeals"].to_numpy() > 0).sum()), n)
    shares = _frame(srows, _RATE_COLS)

    adv = _dealer_sign(df) * (df["score0"].to_numpy(np.float64)
                              - df["score1"].to_numpy(np.float64))
    dealer = e.means({"score": ("dealer_advantage", adv)})
    sections = [
        Section("points", "Points per hand", points, "mean"),
        Section("contracts", "Declarer makes the bid (all hands)", contracts, "rate"),
        Section("shares", "Shares of all hands", shares, "rate"),
        Section("dealer", "Dealer advantage: dealer's team score minus the other team's, "
                "per hand", dealer, "mean"),
    ]
    return Summary(_provenance(df), sections, e.est, unit="hands")


def _summarize_king(df: pd.DataFrame) -> Summary:
    """Whole games (``attrs["contract"] == "games"``): final score by seat position from the
    first dealer and each hand's mean points; single hands: points per seat and, for
    positive hands, the auction's outcomes."""
    if len(df) == 0:
        raise ValueError("cannot summarize an empty simulation (0 rows)")
    e = _Estimates()
    what = df.attrs.get("contract", "games")
    n = len(df)
    if what == "games":
        d0 = df["first_dealer"].to_numpy()
        totals = np.stack([df[f"total{s}"].to_numpy(np.float64) for s in range(4)], axis=1)
        by_pos = {f"first dealer + {k}": (f"score_pos{k}", totals[np.arange(n), (d0 + k) % 4])
                  for k in range(4)}
        by_pos["sum of the four (always 0)"] = ("score_sum", totals.sum(axis=1))
        hands = e.means({f"hand {k + 1}, dealer's points": (
            f"hand{k + 1}_dealer", df[[f"h{k + 1}_p{s}" for s in range(4)]].to_numpy(np.float64)[
                np.arange(n), (d0 + k) % 4]) for k in range(10) if f"h{k + 1}_p0" in df
            and (df[[f"h{k + 1}_p{s}" for s in range(4)]].to_numpy() != 0).any()})
        sections = [
            Section("points", "Final score by seat, counted from the first dealer",
                    e.means(by_pos), "mean"),
            Section("hands", "Each hand: the dealer's points", hands, "mean"),
        ]
        return Summary(_provenance(df), sections, e.est, unit="games")
    rows = {f"seat {s}": (f"points_seat{s}", df[f"points{s}"]) for s in range(4)}
    d = df["dealer"].to_numpy()
    pts = np.stack([df[f"points{s}"].to_numpy(np.float64) for s in range(4)], axis=1)
    for k, name in enumerate(("dealer", "eldest (dealer + 1)", "dealer + 2", "dealer + 3")):
        rows[name] = (f"points_pos{k}", pts[np.arange(n), (d + k) % 4])
    sections = [Section("points", f"Points per hand ({what})", e.means(rows), "mean")]
    if what == "positive":
        out = df["outcome"].to_numpy()
        shares = _frame({label: e.rate(key, int((out == code).sum()), n) for label, key, code in
                         (("sold (the buyer names trump)", "sold", 1),
                          ("declined (4-3-3-3, not played)", "declined", 2),
                          ("played with the dealer's trump", "played", 3))}, _RATE_COLS)
        sections.append(Section("shares", "Trump auction outcomes", shares, "rate"))
    return Summary(_provenance(df), sections, e.est, unit="hands")
