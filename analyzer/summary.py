"""What a simulation says, every figure with its n and 95% interval.

:func:`summarize` turns the per-deal frame of :func:`analyzer.games.pedro.simulate`
or the per-hand frame of :func:`analyzer.games.rook.simulate` into a
:class:`Summary`: titled sections, each one small DataFrame (points, contracts,
shares, dealer advantage), rendered as aligned text tables. Means carry a
Student-t interval (``mean ± t·se``), rates a Wilson interval (:mod:`analyzer.stats`).

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

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:  # tables in the annotations; _frame loads pandas when it makes one
    import pandas as pd

from .estimate_text import known, symmetric, visible_digits
from .games.common import policy_label
from .moments import Counts, Moments, from_list
from .stats import Estimate, Proportion, held
from .text import render_table

_EST_COLS = ["n", "mean", "se", "lo", "hi"]
_RATE_COLS = ["n", "k", "rate", "lo", "hi"]


def _est_row(e: Estimate) -> list:
    return [e.n, e.mean, e.se, e.lo, e.hi]


def _rate_row(p: Proportion) -> list:
    return [p.n, p.k, p.mean, p.lo, p.hi]


class _Row(list):
    """A table row that knows the statistic it shows (``key``) and where it sorts among
    the rows of its table (``order``): what :func:`merge` needs to rebuild the table."""

    def __init__(self, values: list, key: str, order: tuple = ()):
        super().__init__(values)
        self.key, self.order = key, order


def _frame(rows: dict[str, list], columns: list[str]) -> pd.DataFrame:
    """A table of ``rows`` by label; its ``attrs["rows"]`` keep each row's statistic key and
    order (its position, unless the row says otherwise)."""
    import pandas as pd

    df = pd.DataFrame.from_dict(rows, orient="index", columns=columns)
    df.attrs["rows"] = [(getattr(r, "key", None), getattr(r, "order", ()) or (0, i))
                        for i, r in enumerate(rows.values())]
    return df


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
    # the sufficient statistic behind each estimate (analyzer.moments): summaries of parts
    # of a run merge into the summary of the whole run (:func:`merge`)
    stats: dict[str, Moments | Counts] = field(default_factory=dict, repr=False)
    # a mean's range, by key: where every row read the same, its interval is what the range
    # allows on the rows a run may have missed (stats.bounded), not 0 ± 0
    spans: dict[str, tuple[float, float]] = field(default_factory=dict, repr=False)

    def __post_init__(self):
        # a table taken out of its summary still says how it was made (n, seed, rules,
        # policy), as every other result's tables do (documents.stamp)
        for s in self.sections:
            s.table.attrs.update(self.provenance)

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
        lines = [
            f"{p['rules']}: n={p['n']} {self.unit} ({_deal_ranges(p)}), "
            f"policy {policy_label(p['policy'])}",
            "Every figure: n and 95% interval (means: mean ± t se, Student's t, or where every one "
            "read the same what its range allows on those a run may miss; rates: Wilson).",
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
                "interval": "95%: means by Student's t (mean, t se), or where every row "
                            "read the same what the range allows (stats.bounded); rates by "
                            "Wilson",
                "sections": [{"key": s.key, "title": s.title, "kind": s.kind, "note": s.note,
                              "rows": records(s.table, "row")} for s in self.sections]}

    def __str__(self) -> str:
        return self.to_text()

    def to_state(self) -> dict:
        """Everything :func:`from_state` needs to rebuild this summary, or to merge it with
        others, as JSON-ready values (the statistics' integers are exact)."""
        return {"provenance": self.provenance, "unit": self.unit,
                "methods_agree": self.methods_agree,
                "sections": [{"key": s.key, "title": s.title, "kind": s.kind, "note": s.note,
                              "rows": [[label, key, list(order)] for label, (key, order)
                                       in zip(s.table.index, s.table.attrs["rows"],
                                              strict=True)]}
                             for s in self.sections],
                "stats": {k: v.to_list() for k, v in self.stats.items()},
                "spans": {k: list(v) for k, v in self.spans.items()}}


def from_state(state: dict) -> Summary:
    """The summary :meth:`Summary.to_state` described."""
    stats = {k: from_list(v) for k, v in state["stats"].items()}
    spans = {k: tuple(v) for k, v in state.get("spans", {}).items()}  # older states: none
    sections = [_rebuilt(sec["key"], sec["title"], sec["kind"], sec["note"],
                         {label: (key, tuple(order)) for label, key, order in sec["rows"]},
                         stats, spans) for sec in state["sections"]]
    return Summary(dict(state["provenance"]), sections, _estimates(stats, spans),
                   state["methods_agree"], state["unit"], stats, spans)


def _estimate(key: str, stats: dict, spans: dict) -> Estimate | Proportion:
    """The figure of statistic ``key``: a mean within its range where it has one (the
    interval cut there too: two deals' mean ± 1.96 se ran to -3.4 points)."""
    e = stats[key].estimate()
    return held(e, *spans[key]) if key in spans else e


def _estimates(stats: dict, spans: dict) -> dict:
    return {k: _estimate(k, stats, spans) for k in stats}


def _rebuilt(key: str, title: str, kind: str, note: str | None,
             rows: dict[str, tuple[str, tuple]], stats: dict, spans: dict) -> Section:
    """A section's table again, from its rows' statistics, in the rows' order."""
    row = _est_row if kind == "mean" else _rate_row
    ordered = sorted(rows.items(), key=lambda item: item[1][1])
    return Section(key, title, _frame({label: _Row(row(_estimate(k, stats, spans)), k, order)
                                       for label, (k, order) in ordered},
                                      _EST_COLS if kind == "mean" else _RATE_COLS), kind, note)


def merge(parts: Sequence[Summary]) -> Summary:
    """One summary of the deals of all ``parts`` (summaries of one game, rules and policy):
    every figure from the parts' statistics added up, so that a run summarized chunk by
    chunk says exactly what the whole run summarized at once says. The parts' deal ranges
    go into the provenance (``first`` and ``n`` when they make one run, else ``ranges``).

    >>> from analyzer.games import pedro
    >>> rules = pedro.parse_rules("pedro")
    >>> whole = pedro.GAME.summarize(pedro.simulate(rules, 3000, seed=1))
    >>> halves = [pedro.GAME.summarize(pedro.simulate(rules, 1500, seed=1, first=f))
    ...           for f in (0, 1500)]
    >>> merge(halves).to_text() == whole.to_text()
    True
    """
    if not parts:
        raise ValueError("nothing to merge")
    head = parts[0]
    for p in parts[1:]:
        for name in ("rules", "policy"):
            if p.provenance.get(name) != head.provenance.get(name):
                raise ValueError(f"cannot merge runs of different {name}: "
                                 f"{head.provenance.get(name)} and {p.provenance.get(name)}")
    stats: dict = {}
    for p in parts:
        for k, v in p.stats.items():
            stats[k] = stats[k] + v if k in stats else v
    spans = {k: v for p in parts for k, v in p.spans.items()}
    sections = []
    for key in dict.fromkeys(s.key for p in parts for s in p.sections):
        present = [s for p in parts for s in p.sections if s.key == key]
        rows: dict[str, tuple[str, tuple]] = {}
        for s in present:
            for label, row in zip(s.table.index, s.table.attrs["rows"], strict=True):
                rows.setdefault(label, row)
        notes = {s.note for s in present}
        sections.append(_rebuilt(key, present[0].title, present[0].kind,
                                 notes.pop() if len(notes) == 1 else None, rows, stats, spans))
    return Summary(merged_provenance([p.provenance for p in parts]), sections,
                   _estimates(stats, spans), all(p.methods_agree for p in parts), head.unit,
                   stats, spans)


def merged_provenance(parts: Sequence[dict]) -> dict:
    """The provenance of the union of runs: ``n`` in all; ``first`` (and one ``seed``) when
    their deals make one unbroken range, and ``ranges`` ([seed, first, n] each) otherwise.
    ValueError when two runs share deals, or one is a selection (no range to join)."""
    if any("selected_from" in p for p in parts):
        raise ValueError("cannot merge a summary of selected deals (a filtered frame): "
                         "summarize the selection as one frame instead")
    # a part merged before (a run store with a chunk missing) brings its own ranges
    ranges = sorted(tuple(r) for p in parts
                    for r in (p.get("ranges") or [(p["seed"], p["first"], p["n"])]))
    for (s0, f0, n0), (s1, f1, n1) in itertools.pairwise(ranges):
        if s0 == s1 and f1 < f0 + n0:
            raise ValueError(f"runs overlap: deals {f1:,}..{min(f0 + n0, f1 + n1) - 1:,} of "
                             f"seed {s1} are in two of them")
    out = {**parts[0], "n": sum(n for _, _, n in ranges)}
    joined = []
    for seed, first, n in ranges:
        if joined and joined[-1][0] == seed and joined[-1][1] + joined[-1][2] == first:
            joined[-1][2] += n
        else:
            joined.append([seed, first, n])
    if len(joined) == 1:
        out.update(seed=joined[0][0], first=joined[0][1])
        out.pop("ranges", None)
    else:
        out.update(seed=None, first=None, ranges=joined)
    return out


def _deal_ranges(p: dict) -> str:
    """Which deals a run played: "0..1999 of seed 1", each range of a merged run, or "a
    selection from 0..49999 of seed 1" (a frame filtered by the caller)."""
    if "selected_from" in p:
        lo, hi = p["selected_from"]
        return f"a selection from {lo}..{hi} of seed {p['seed']}"
    ranges = p.get("ranges") or [[p["seed"], p["first"], p["n"]]]
    return "; ".join(f"{first}..{first + n - 1} of seed {seed}" for seed, first, n in ranges)


def _mean_table(df: pd.DataFrame) -> str:
    def row(label, r) -> list:
        d = visible_digits(r["mean"], r["lo"], r["hi"], 3)
        plus_minus = (f"± {(r['hi'] - r['lo']) / 2:.{d}f}"  # none where the interval is
                      if symmetric(r["mean"], r["lo"], r["hi"], d) else "-")  # bounded
        interval = (f"[{r['lo']:.{d}f}, {r['hi']:.{d}f}]" if known(r["lo"], r["hi"])
                    else "n/a (one deal has no spread)")  # its se is unknown, not nan
        return [label, int(r["n"]), f"{r['mean']:.{d}f}", plus_minus, interval]

    rows = [row(label, r) for label, r in df.iterrows()]
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


INDEX_COLUMNS = ("deal", "game")  # a frame's first column numbers its rows' deals or games


def _provenance(df: pd.DataFrame) -> dict:
    """Seed, rules, policy and which deals: read from the rows' own numbers where the frame
    has them (its attrs' ``first`` outlives a slice or a filter), with ``selected_from``
    (lowest, highest) when they are not one unbroken range."""
    a = df.attrs
    out = {"n": len(df), "seed": a.get("seed", "?"), "rules": a.get("rules", a.get("game", "?")),
           "policy": a.get("policy", "?"), "first": int(a.get("first") or 0)}
    ranges = a.get("ranges")  # rows of merged runs (`bidlab merge --out`), when all there
    if ranges and len(df) == sum(n for _, _, n in ranges):
        return {**out, "seed": None, "first": None, "ranges": ranges}
    if len(df) and df.columns[0] in INDEX_COLUMNS:
        numbers = df.iloc[:, 0].to_numpy()
        lo, hi = int(numbers.min()), int(numbers.max())
        out["first"] = lo
        if hi - lo + 1 != len(df) or len(np.unique(numbers)) != len(df):
            out["selected_from"] = [lo, hi]
    return out


class _Estimates:
    """Builds table rows and records each figure under its key in ``est``."""

    def __init__(self) -> None:
        self.est: dict[str, Estimate] = {}
        self.stats: dict[str, Moments | Counts] = {}
        self.spans: dict[str, tuple[float, float]] = {}

    def mean(self, key: str, values, span: tuple[float, float] | None = None) -> list:
        """A mean's row; ``span``: the range its values lie in (see :class:`Summary`)."""
        self.stats[key] = Moments.of(values)
        if span is not None:
            self.spans[key] = (float(span[0]), float(span[1]))
        self.est[key] = _estimate(key, self.stats, self.spans)
        return _Row(_est_row(self.est[key]), key)

    def rate(self, key: str, k: int, n: int, order: tuple = ()) -> list:
        self.stats[key] = Counts(int(k), int(n))
        self.est[key] = self.stats[key].estimate()
        return _Row(_rate_row(self.est[key]), key, order)

    def means(self, rows: dict[str, tuple], span: tuple[float, float] | None = None
              ) -> pd.DataFrame:
        """``{label: (key, values)}`` -> a mean table; ``span`` the range of every row's
        values, unless a row gives its own: ``(key, values, span)`` (None: no range)."""
        return _frame({label: self.mean(*row) if len(row) == 3 else self.mean(*row, span)
                       for label, row in rows.items()}, _EST_COLS)

    def make_rates(self, bid: np.ndarray, made: np.ndarray, contract: np.ndarray,
                   overall: str = "all contracts") -> pd.DataFrame:
        """Make rate over the contract rows, overall and by bid (``made == 1``: made)."""
        n_contract = int(contract.sum())
        rows: dict[str, list] = {}
        if n_contract:
            rows[overall] = self.rate("make_rate", int((made[contract] == 1).sum()),
                                      n_contract, (0,))
            for b in np.unique(bid[contract]):
                sel = contract & (bid == b)
                rows[f"bid {int(b)}"] = self.rate(f"make_rate_bid{int(b)}",
                                                  int((made[sel] == 1).sum()), int(sel.sum()),
                                                  (1, int(b)))
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


