"""King hand charts as text and figures: the danger grids, the trump right's table, the seat
positions, and the chart folder (tables, PNG heatmaps, manifest).

>>> from analyzer.games import king
>>> from analyzer.games.king.chart import king_chart
>>> chart = king_chart(king.parse_rules("king"), deals=2_000, games=200)
>>> "Trump right by hand class" in render_king_chart(chart)
True
>>> len(write_king_chart(chart, "king-chart"))
16

May import: :mod:`.chart` (the chart), the protocol (what a chart's contents are), the
package's io, text and plotting; never another game.
"""

from __future__ import annotations

import os
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd

from ... import atomic, io
from ...advice import MIN_TRIALS
from ...estimate_text import interval_text as _pm  # mean ± hw, or [lo, hi] where lopsided
from ...estimate_text import pct
from ...text import render_table
from ..common import policy_label
from ..protocol import ChartContents
from .chart import (
    FEATURE_BINS,
    FEATURE_TITLES,
    KingChart,
)
from .rules import CONTRACT_CODES, HAND_TOTALS

# ---- terminal ------------------------------------------------------------------------------


def _grid(rows: pd.DataFrame, by: tuple[str, ...]) -> tuple[list[str], list[str], dict]:
    """Row labels (every feature but the last), column labels (the last feature's bins) and
    the rows of ``rows`` by (row label, column label)."""
    head, last = by[:-1], by[-1]
    cols = [c for c in FEATURE_BINS[last][1] if (rows[last] == c).any()]
    cells, row_labels = {}, []
    for r in rows.itertuples(index=False):
        d = r._asdict()
        rl = ", ".join(str(d[f]) for f in head) if head else "all"
        if rl not in row_labels:
            row_labels.append(rl)
        cells[(rl, d[last])] = d
    return row_labels, cols, cells


def render_danger(chart: KingChart, contract: str) -> str:
    """One contract's danger grid: mean penalty ± 95% half-width, rare cells marked ``~``."""
    rows = chart.danger_of(contract)
    by = chart.danger_by[contract.replace("-", "_")]
    row_labels, cols, cells = _grid(rows, by)
    table = []
    for rl in row_labels:
        line, n = [rl], 0
        for c in cols:
            d = cells.get((rl, c))
            if d is None:
                line.append("")
                continue
            n += d["n"]
            line.append(("~" if d["rare"] else "") + _pm(d["penalty"], d["penalty_lo"],
                                                         d["penalty_hi"]))
        table.append([*line, f"{n:,}"])
    head = [", ".join(by[:-1]) or "", *[f"{by[-1]}={c}" for c in cols], "n"]
    total = abs(HAND_TOTALS[CONTRACT_CODES[contract.replace("-", "_")]])
    return (f"{contract}: mean penalty per hand (points lost, 95% CI; {total} per deal, "
            f"{total / 4:g} a seat on average)\n"
            + render_table(head, table, align="l" + "r" * (len(cols) + 1)))


def render_king_chart(chart: KingChart) -> str:
    """The three charts as plain-text tables for the terminal."""
    p = chart.provenance
    out = [f"{p['rules']} | policy {policy_label(p['policy'])} | seed {p['seed']} | "
           f"n {p['n']:,} deals "
           f"per contract (4 hands each) | {p['games']:,} games",
           "", "Danger by hand class (~ = rare: under 100 hands or an interval over ±1/14 "
           "of the hand; [n/a]: one hand, no interval)"]
    for contract in chart.danger_by:
        out += ["", render_danger(chart, contract)]
    rows = [[t.label, f"{t.n:,}", ("~" if t.rare else "") + _pm(t.score, t.score_lo, t.score_hi, 2),
             _pm(t.own_tricks, t.own_tricks_lo, t.own_tricks_hi, 2),
             "-" if not np.isfinite(t.price) else _pm(t.price, t.price_lo, t.price_hi, 2),
             pct(t.p_sold, t.p_sold_lo, t.p_sold_hi), pct(t.p_declined, t.p_declined_lo,
                                                         t.p_declined_hi),
             pct(t.p_played, t.p_played_lo, t.p_played_hi)] for t in chart.trump.itertuples()]
    out += ["", render_right(chart)]
    out += ["", "The benefited in the auction (the dealer's hand, every deal, as the heuristic's "
                "auction went; not the right's value): score = its tricks after the auction "
                "(taken + price sold, or 4 on a decline; ~ = rare)",
            render_table(["class (benefited's hand)", "n", "score", "own-trump tricks",
                          "price (sold)", "sold", "declined", "played"], rows,
                         align="lrrrrrrr")]
    rows = [[s.seat, s.deals_hands, f"{s.n:,}", _pm(s.score, s.score_lo, s.score_hi),
             pct(s.p_first, s.p_first_lo, s.p_first_hi)]
            for s in chart.seats.itertuples()] if p["games"] else []
    if rows:
        games = f"{p['games']:,} game{'s' * (p['games'] != 1)}"
        out += ["", f"Whole games (this chart's own {games}): final score by seat "
                    "position from the first dealer D0; first or tied = the share of games it "
                    "ended first or tied for first (a tie "
                    "counts for each seat in it, so the four add to over 100% where games "
                    "tie)",
                render_table(["position", "dealer of hands", "games", "final score",
                              "first or tied"], rows, align="llrrr")]
    return "\n".join(out)


def _advice_cells(r) -> list[str]:
    """(offer up to, accept above, decline?) of a trump-right row as its seat can act: "-"
    where the seat cannot (the dealer never offers, the others never accept or decline),
    "too few" where the class has under ``MIN_TRIALS`` hands for any advice (its advice
    columns are empty, "decline" too)."""
    few = r.n < MIN_TRIALS
    offer = ("-" if getattr(r, "seat", None) == "dealer" else "too few" if few
             else str(int(r.offer_up_to)) if r.offer_up_to else "no offer")
    accept = ("-" if r.decline == "-" else "too few" if few or pd.isna(r.accept_offers_above)
              else str(int(r.accept_offers_above)))
    decline = "too few" if few or pd.isna(r.decline) else r.decline
    return [offer, accept, "-" if r.decline == "-" else decline]


def _signed(mean: float, lo: float, hi: float) -> str:
    """``+m [+lo, +hi]``; the mean alone where one hand leaves no interval."""
    if not np.isfinite(mean):
        return "-"
    return f"{mean:+.2f}" + (f" [{lo:+.2f}, {hi:+.2f}]" if np.isfinite(lo) and np.isfinite(hi)
                             else "")


def render_right(chart: KingChart) -> str:
    """The trump right's value by class of hand, every seat, with the advice it supports."""
    rows = [[r.label, f"{r.n:,}", _pm(r.own_tricks, r.own_tricks_lo, r.own_tricks_hi, 2),
             _pm(r.other_tricks, r.other_tricks_lo, r.other_tricks_hi, 2),
             ("~" if r.rare else "") + _pm(r.value, r.value_lo, r.value_hi, 2),
             *_advice_cells(r)] for r in chart.right.itertuples()]
    return ("Trump right by hand class, every seat's hand (4 a deal): its tricks when it names "
            "trump and when another seat does, on the same deals; value = the difference "
            "(95% CI, paired). Offer up to k tricks only while the value exceeds k beyond the "
            "noise; as the benefited accept offers above the value's upper bound, and an offer "
            "of 1 only where 1 + the tricks when another names beats 4 (the decline it "
            "forgoes); declining the hand (it is not played: 4 tricks to the benefited, 3 to "
            "each other seat, 4-3-3-3) only where naming trump takes fewer than 4 tricks "
            "beyond the noise. \"-\": the seat cannot act (the dealer never offers; the "
            "others never accept or decline).\n"
            + render_table(["class (its hand)", "n", "naming trump", "another names", "value",
                            "offer up to", "accept above", "decline?"], rows,
                           align="lrrrrrrl"))


# ---- files ---------------------------------------------------------------------------------


def danger_heatmap(rows: pd.DataFrame, by: tuple[str, ...], title: str):
    """A contract's mean penalty by class, in the house style: a grid of the last feature
    (columns) against the others (rows), each cell annotated with the mean, its 95%
    half-width and n; rare cells hatched. ``rows`` is ``KingChart.danger_of(contract)``."""
    from ... import plotting

    with plotting.house_style():
        return _danger_heatmap(rows, by, title)


def _danger_heatmap(rows: pd.DataFrame, by: tuple[str, ...], title: str):
    from ... import plotting

    grid = _grid(rows, by)
    row_labels, cols, cells = grid
    fig = plotting.new_figure()
    fig.set_size_inches(2.6 + 1.35 * len(cols), 1.6 + 0.62 * len(row_labels))
    ax = fig.add_subplot()

    def text(d: dict) -> str:
        spread = _pm(d["penalty"], d["penalty_lo"], d["penalty_hi"]).partition(" ")[2]
        return f"{d['penalty']:.1f}\n" + (f"{spread}\n" if spread else "") + f"n={d['n']:,}"

    vmax = max(1.0, max(d["penalty"] for d in cells.values()))
    im = _heat_panel(ax, grid, by, "penalty", text, "Reds", 0, vmax)
    ax.set_title(title, fontsize=9)
    fig.colorbar(im, ax=ax, label="mean penalty per hand (points lost)")
    fig.tight_layout()
    return fig


def _heat_panel(ax, grid: tuple[list[str], list[str], dict], by: tuple[str, ...], key: str,
                text, cmap: str, vmin: float, vmax: float, label_size: float | None = None):
    """Draw one grid of :func:`_grid` on ``ax``: each cell coloured by its ``key`` and
    annotated with ``text(cell)``, rare cells hatched, the features on the axes; the image
    (for a colour bar). King's danger charts and its trump right share it."""
    from matplotlib.patches import Rectangle

    row_labels, cols, cells = grid
    values = np.full((len(row_labels), len(cols)), np.nan)
    for (rl, c), d in cells.items():
        values[row_labels.index(rl), cols.index(c)] = d[key]
    ax.grid(False)
    im = ax.imshow(np.ma.masked_invalid(values), cmap=cmap, vmin=vmin, vmax=vmax,
                   aspect="auto", origin="lower")
    for (rl, c), d in cells.items():
        i, j = row_labels.index(rl), cols.index(c)
        ax.text(j, i, text(d), ha="center", va="center", fontsize=7.5,
                color="white" if d[key] > 0.6 * vmax else "black")
        if d["rare"]:
            ax.add_patch(Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False, hatch="///",
                                   ec="#888888", lw=0))
    ax.set_xticks(range(len(cols)), cols)
    ax.set_yticks(range(len(row_labels)), row_labels)
    size = {"fontsize": label_size} if label_size else {}
    ax.set_xlabel(_axis_title(by[-1:]), **size)
    ax.set_ylabel(_axis_title(by[:-1]), **size)
    return im


def right_heatmap(chart: KingChart, title: str):
    """The trump right's value by class of hand, one panel a seat: the tricks naming trump
    adds over another seat naming it (mean, 95% half-width) and the advice it supports
    (offer up to k tricks; the dealer: accept offers above k, or decline the hand); rare
    cells hatched. The table it draws has 64 rows."""
    from ... import plotting

    with plotting.house_style():
        return _right_heatmap(chart, title)


def _right_advice(r: dict) -> str:
    """A cell's advice in a few words, as its seat can act (:func:`_advice_cells`): "offer
    up to 2"; the dealer, "accept 3+" (offers of 3 tricks or more), and "else decline"
    where declining the hand beats naming trump (both parts: an offer it should take
    beats declining too)."""
    offer, accept, decline = _advice_cells(SimpleNamespace(**r))
    if r["seat"] != "dealer":
        return f"offer up to {offer}" if offer.isdigit() else offer
    if not accept.isdigit():
        return accept  # too few
    take = "accept any offer" if accept == "0" else f"accept {int(accept) + 1}+"
    return take + ("\nelse decline" if decline == "decline" else "")


def _right_heatmap(chart: KingChart, title: str):
    from ... import plotting

    by, right = chart.trump_by, chart.right
    vmax = max(1.0, float(np.nanmax(right["value"])))
    fig = plotting.new_figure()
    seats = list(dict.fromkeys(right["seat"]))
    fig.set_size_inches(11, 8.5)
    fig.set_layout_engine("constrained")  # four panels, their labels and one colour bar
    axes = fig.subplots(2, 2, squeeze=False).ravel()

    def text(d: dict) -> str:
        spread = _pm(d["value"], d["value_lo"], d["value_hi"], 2).partition(" ")[2]
        return f"{d['value']:+.2f}\n{spread}\n{_right_advice(d)}"

    for ax, seat in zip(axes, seats, strict=False):
        mine = right[right["seat"] == seat]
        im = _heat_panel(ax, _grid(mine, by), by, "value", text, "Blues",
                         min(0.0, float(np.nanmin(mine["value"]))), vmax, label_size=8)
        ax.set_title(f"seat {seat}" + (" (the benefited: accepts or declines)"
                                       if seat == "dealer" else " (offers)"), fontsize=9)
    for ax in axes[len(seats):]:
        ax.set_visible(False)
    fig.suptitle(title, fontsize=9)
    fig.colorbar(im, ax=list(axes[:len(seats)]), label="value of the trump right (tricks)")
    return fig


def _axis_title(features: tuple[str, ...]) -> str:
    return ", ".join(f"{f}: {FEATURE_TITLES[f]}" for f in features)


def king_chart_contents(chart: KingChart) -> ChartContents:
    """What ``write_king_chart`` writes and a report shows: the tables, a danger grid per
    negative contract and the trump right's figure with their captions, and the guide.
    King's bidding is the trump auction of the positive hands, so its guide is the
    trump-right chart, and its headline the right's worth (:func:`right_headline`)."""
    meta = io.flat_meta(chart.provenance)
    tables = {"danger": chart.danger, "trump_right": chart.right, "benefited": chart.trump,
              "seats": chart.seats}
    figures, captions = {}, {}
    for contract, by in chart.danger_by.items():
        title = (f"{contract}: mean penalty per hand by {' x '.join(by)} (95% CI; hatched "
                 f"= rare)\n{meta['rules']}, policy {policy_label(meta['policy'])}, "
                 f"seed {meta['seed']}, n={int(meta['n']):,} deals x 4 hands")
        figures[f"danger_{contract}"] = danger_heatmap(chart.danger_of(contract), by, title)
        captions[f"danger_{contract}"] = (f"{contract.replace('_', ' ')}: the mean penalty per "
                                          "hand by class of hand; hatched = rare.")
    figures["trump_right"] = right_heatmap(
        chart, f"The trump right's value by {' x '.join(chart.trump_by)}: tricks naming trump "
               f"minus another seat naming it (95% CI; hatched = rare), and the advice\n"
               f"{meta['rules']}, policy {policy_label(meta['policy'])}, seed {meta['seed']}, "
               f"n={int(meta['n']):,} deals")
    captions["trump_right"] = ("The trump right's value in tricks by class of hand, a panel a "
                               "seat, with the advice each seat can act on; hatched = rare.")
    r = chart.right
    advice = [_advice_cells(x) for x in r.itertuples()]  # (offer, accept, decline) a row
    shown = pd.DataFrame({
        "hand class": r["label"], "n": [f"{n:,}" for n in r["n"]],
        "value of the right (tricks)": [
            _signed(m, lo, hi) for m, lo, hi in zip(r["value"], r["value_lo"], r["value_hi"],
                                                    strict=True)],
        **dict(zip(("offer up to", "accept offers above", "decline"),
                   map(list, zip(*advice, strict=True)) if advice else ([], [], []), strict=True)),
        "rare": ["rare" if x else "" for x in r["rare"]]})
    return ChartContents(tables, figures, captions, "trump_right", shown,
                         right_headline(r, chart.trump_by[0]), king_legend(chart))


# the guide's words for the positive hand's auction (docs/rules.md §3)
AUCTION_TERMS = ("The benefited: the positive hand's dealer, who owns the right to name "
                 "trump; the other three may offer him tricks for it, and he may sell it, "
                 "name trump, or decline the hand (4 tricks to him, 3 to each other seat) "
                 "when the best offer is 1 or none.")


def king_legend(chart: KingChart) -> str:
    """The words the chart's tables use: the auction's terms, then every feature a table
    classes by (the danger tables' and the trump right's), in one paragraph."""
    used = dict.fromkeys(f for by in (*chart.danger_by.values(), chart.trump_by, ("seat",))
                         for f in by)
    return (f"{AUCTION_TERMS} Hand classes: "
            + "; ".join(f"{f} ({', '.join(FEATURE_BINS[f][1])}): {FEATURE_TITLES[f]}"
                        for f in used) + ".")


def right_headline(right: pd.DataFrame, feature: str) -> list[str]:
    """The trump right's worth, as a range for each value of the classes' ``feature``
    (King's longest suit) over the other features and the seats; rare classes left out.

    >>> right = pd.DataFrame({"longest": ["5", "5", "6+"], "value": [1.2, 0.4, 9.0],
    ...                       "rare": [False, False, True]})
    >>> right_headline(right, "longest")[0].split(": ", 1)[1]
    'longest 5: +0.40 to +1.20.'
    """
    right = right[~right["rare"]]
    ranges = [f"{feature} {k}: {g['value'].min():+.2f} to {g['value'].max():+.2f}"
              for k, g in right.groupby(feature, sort=False)]
    if not ranges:
        return []
    return ["The trump right is worth, in tricks over another seat naming trump (the range "
            "over the other features and the seats): " + "; ".join(ranges) + "."]


def write_king_chart(chart: KingChart, out_dir: str | os.PathLike) -> list[Path]:
    """Write the tables (CSV and Parquet), one danger heatmap PNG per negative contract, the
    trump right's heatmap and ``manifest.json`` under ``out_dir`` (created if missing), each
    file atomically.

    Files: ``danger.{csv,parquet}``, ``trump_right.{csv,parquet}`` (the right's value by
    class, every seat), ``benefited.{csv,parquet}`` (the dealer in the auction),
    ``seats.{csv,parquet}``, ``danger_<contract>.png``, ``trump_right.png``,
    ``manifest.json``; the folder is replaced whole (:func:`analyzer.atomic.atomic_dir`).
    """
    from ... import plotting

    meta = io.flat_meta(chart.provenance)
    contents = king_chart_contents(chart)
    with atomic.atomic_dir(out_dir) as tmp:
        written = []
        for name, df in contents.tables.items():
            for suffix in (".csv", ".parquet"):
                written.append(io.write_table(df, tmp / f"{name}{suffix}",
                                              {**meta, "table": name}))
        for name, fig in contents.figures.items():
            written.append(plotting.save_figure(fig, tmp / f"{name}.png"))
        written.append(io.write_manifest(tmp, meta, written))
    return [Path(out_dir) / p.name for p in written]
