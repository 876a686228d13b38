"""The report's own charts, in the house style of :mod:`analyzer.plotting`: make rate and
EV by bid level, an edge per seat position, paired effects of a rule change, game lengths
and final scores. Every estimate is drawn with its 95% interval.

May import: numpy, pandas, matplotlib's tick helpers and :mod:`analyzer.plotting`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.ticker import FuncFormatter, MaxNLocator

from ..plotting import new_figure, styled


def _errors(mean, lo, hi) -> np.ndarray:
    mean, lo, hi = (np.asarray(x, dtype=np.float64) for x in (mean, lo, hi))
    return np.nan_to_num(np.vstack([mean - lo, hi - mean]), nan=0.0)


@styled
def bid_levels(levels: pd.DataFrame, rules: str, policy: str):
    fig = new_figure()
    fig.set_size_inches(8.0, 5.5)
    top, bottom = fig.subplots(2, 1, sharex=True)
    x = levels["bid"].to_numpy()
    top.errorbar(x, 100 * levels["rate"], yerr=100 * _errors(levels["rate"], levels["rate_lo"],
                                                             levels["rate_hi"]),
                 marker="o", ms=4, capsize=2)
    top.set_ylabel("make rate (%)")
    top.set_title(f"{rules}, policy {policy}: by the bid that won the auction")
    bottom.bar(x, levels["ev"], yerr=_errors(levels["ev"], levels["ev_lo"], levels["ev_hi"]),
               width=0.6 * (np.diff(x).min() if len(x) > 1 else 1), capsize=2, color="#0077BB")
    bottom.axhline(0, color="0.4", lw=0.8)
    bottom.set_ylabel("EV of the bidding side")
    bottom.set_xlabel("bid")
    fig.tight_layout()
    return fig


@styled
def seat_edges(labels, mean, lo, hi, what: str):
    fig = new_figure()
    fig.set_size_inches(7.0, 3.2)
    ax = fig.add_subplot()
    y = np.arange(len(labels))
    ax.errorbar(mean, y, xerr=_errors(mean, lo, hi), fmt="o", capsize=3, color="#222222")
    ax.axvline(0, color="0.5", lw=0.8)
    ax.set_yticks(y, list(labels))
    ax.invert_yaxis()
    ax.set_xlabel(what)
    fig.tight_layout()
    return fig


@styled
def paired_effects(table: pd.DataFrame, title: str, unit: str = "deal"):
    """B − A of each measure with its paired 95% interval, one row a measure on its own
    axis: the measures mix points and rates, and one shared axis hid the small ones."""
    fig = new_figure()
    fig.set_size_inches(7.5, 0.9 + 0.55 * len(table))
    axes = np.atleast_1d(fig.subplots(len(table), 1))
    for ax, r in zip(axes, table.itertuples(), strict=True):
        d, lo, hi = float(r.b_minus_a), float(r.diff_lo), float(r.diff_hi)
        if getattr(r, "n_differ", 1) == 0:  # a bar on its own tiny scale read as uncertain
            ax.text(0.5, 0.5, f"identical on every {unit} (B − A within ±{hi:.1g})",
                    transform=ax.transAxes, ha="center", va="center", fontsize=8,
                    color="0.3")
            ax.set_xticks([])
            ax.set_ylim(-1, 1)  # the measure's name level with the text, as on the other rows
        elif np.isfinite(d):
            err = [[d - lo], [hi - d]] if np.isfinite(lo) and np.isfinite(hi) else None
            ax.errorbar([d], [0], xerr=err, fmt="o", capsize=3, color="#CC3311")
            reach = max(abs(x) for x in (d, lo, hi) if np.isfinite(x)) or 1.0
            ax.set_xlim(-1.15 * reach, 1.15 * reach)  # zero in the middle of every row
            # five short labels: plain ones of 0.0000020 ran into each other
            ax.xaxis.set_major_locator(MaxNLocator(5))
            ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _: f"{x:.3g}"))
            ax.axvline(0, color="0.4", lw=0.8)
        ax.set_yticks([0], [r.measure], fontsize=8)
        ax.tick_params(axis="x", labelsize=7)
    axes[0].set_title(title, fontsize=9)
    axes[-1].set_xlabel(f"B − A per {unit}, each row on its own scale (paired 95% CI)")
    fig.tight_layout()
    return fig


@styled
def game_lengths(lengths: pd.DataFrame, unit: str = "deals"):
    fig = new_figure()
    fig.set_size_inches(7.0, 3.5)
    ax = fig.add_subplot()
    ax.bar(lengths["deals"], lengths["games"], width=0.8, color="#0077BB")
    ax.set_xlabel(f"{unit} in the game")
    ax.set_ylabel("games")
    fig.tight_layout()
    return fig


@styled
def final_scores(scores: np.ndarray, sides: tuple[str, ...]):
    fig = new_figure()
    fig.set_size_inches(7.0, 3.8)
    ax = fig.add_subplot()
    lo, hi = float(np.min(scores)), float(np.max(scores))
    bins = np.linspace(lo, hi, 41) if hi > lo else np.array([lo - 0.5, lo + 0.5])
    for s, name in enumerate(sides):
        ax.hist(scores[:, s], bins=bins, histtype="step", lw=1.4, label=name)
    ax.set_xlabel("final score")
    ax.set_ylabel("games")
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig
