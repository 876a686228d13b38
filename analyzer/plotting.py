"""Charts in one house style: every plot function takes a DataFrame and returns a Figure.

Figures are built on matplotlib's Agg canvas directly (``matplotlib.figure.Figure``,
never ``pyplot``): nothing needs a display, no global backend is switched under
a program that imported us, and no figure stays registered with pyplot to leak
memory over a long run. Every plot function runs inside :func:`house_style`, so
fonts, the suit colours, the grid and the spines are the same on every chart.

>>> from analyzer.games.pedro.evaluate import evaluate_hand
>>> ev = evaluate_hand("pedro", "AS KS 5S 5C 2S 9H 3D JC 7H", deals=2_000)
>>> save_figure(ev_by_bid(ev.bids, ev.pass_ev, method=1), "hand.png").name
'hand.png'

May import: matplotlib, :mod:`.atomic`, :mod:`.text` and the package's version; never a game.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path

import matplotlib as mpl
import numpy as np
import pandas as pd
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from . import __version__, atomic
from .text import without_context

# A four-colour deck: distinct hues that also differ in lightness, so the lines stay
# apart in greyscale print. Order follows analyzer.cards.SUIT_NAMES.
SUIT_COLORS = {"clubs": "#228833", "diamonds": "#0077BB", "hearts": "#CC3311",
               "spades": "#222222"}
PASS_COLOR = "#8C8C8C"
AUCTION_COLOR = "#AA3377"  # Rook's bid-up-to line, apart from every suit's colour
BAND_ALPHA = 0.18  # confidence bands: visible, yet lines of other suits show through
FIGURE_SUFFIXES = (".png", ".svg", ".pdf")
_MAKER = f"bidlab {__version__}"  # a figure's Software (PNG) or Creator (SVG, PDF)
_MAKER_PREFIX = b"bidlab "

HOUSE_STYLE = {
    "figure.figsize": (8.0, 5.0),
    "figure.dpi": 100,
    "figure.facecolor": "white",
    "savefig.dpi": 150,
    "savefig.bbox": "tight",
    "savefig.facecolor": "white",
    "font.family": "sans-serif",
    "font.sans-serif": ["DejaVu Sans", "Arial", "Helvetica", "sans-serif"],
    "font.size": 11,
    "axes.titlesize": 11,
    "axes.labelsize": 11,
    "xtick.labelsize": 10,
    "ytick.labelsize": 10,
    "legend.fontsize": 10,
    "axes.prop_cycle": mpl.cycler(color=[*SUIT_COLORS.values(), "#AA3377", "#EE7733"]),
    "axes.grid": True,
    "axes.axisbelow": True,
    "grid.color": "#E5E5E5",
    "grid.linewidth": 0.8,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.edgecolor": "#555555",
    "lines.linewidth": 2.0,
    "lines.markersize": 4.0,
    "legend.frameon": False,
    "pdf.fonttype": 42,  # embed TrueType, so PDF text stays selectable and editable
    "svg.fonttype": "none",  # SVG text stays text
    "svg.hashsalt": "bidlab",  # stable ids: the same chart gives the same SVG
}


class FigureFormatError(ValueError):
    """A figure path whose suffix bidlab cannot write."""


def house_style() -> AbstractContextManager:
    """The house rcParams for the duration of a ``with`` block.

    >>> with house_style():
    ...     fig = new_figure()
    """
    return mpl.rc_context(HOUSE_STYLE)


def styled(plot: Callable[..., Figure]) -> Callable[..., Figure]:
    """Decorator: run a plot function inside :func:`house_style`."""

    @functools.wraps(plot)
    def wrapper(*args, **kwargs) -> Figure:
        with house_style():
            return plot(*args, **kwargs)

    return wrapper


def new_figure() -> Figure:
    """An empty Figure on an Agg canvas (call inside :func:`house_style`)."""
    fig = Figure()
    FigureCanvasAgg(fig)
    return fig


def _ev_columns(method: int | None, net: bool) -> tuple[str, str, str]:
    """EV columns of a bids table: ``ev{method}_net`` (Pedro), or ``ev_net`` for games with
    one settlement (method None)."""
    if method not in (1, 2, None):
        raise ValueError(f"method must be 1, 2 or None, got {method!r}")
    col = f"ev{method or ''}_{'net' if net else 'own'}"
    return col, f"{col}_lo", f"{col}_hi"


def _require(df: pd.DataFrame, columns, what: str) -> None:
    missing = [c for c in columns if c not in df.columns]
    if missing:
        raise ValueError(f"{what} lacks column(s) {', '.join(missing)}")


@styled
def ev_by_bid(bids: pd.DataFrame, pass_ev: pd.DataFrame | None = None, method: int | None = 1,
              net: bool = True, title: str | None = None, xlabel: str | None = None,
              ceilings: pd.DataFrame | None = None, recommended: int | None = None) -> Figure:
    """EV of each bid, one line per trump with its 95% band, and EV(pass) as a level.
    ``ceilings`` (Rook's ``HandEvaluation.ceilings``: EV of bidding up to b with the auction
    played, what the advice ranks) adds a bold line above the trumps' as-declarer lines,
    with the ``recommended`` ceiling marked on it.

    ``bids`` and ``pass_ev`` are ``HandEvaluation.bids`` and ``.pass_ev``; the
    column plotted is ``ev{method}_net`` (own − opponents) or ``ev{method}_own``
    with its ``_lo``/``_hi`` bounds (``ev_net``/``ev_own`` with ``method=None``,
    for Rook). ``title`` should carry the provenance (hand, seat, rules, policy,
    seed, n).

    >>> from analyzer.games.pedro.evaluate import evaluate_hand
    >>> ev = evaluate_hand("cinch", "AH KH QH 5D 2H 9C 3S JS 7C", deals=1_000)
    >>> fig = ev_by_bid(ev.bids, ev.pass_ev, method=2, net=False)
    """
    col, lo, hi = _ev_columns(method, net)
    _require(bids, ["trump", "bid", col, lo, hi], "bids")
    if bids.empty:
        raise ValueError("bids is empty: nothing to plot")
    fig = new_figure()
    ax = fig.add_subplot()
    for trump, rows in bids.groupby("trump", sort=False):
        rows = rows.sort_values("bid")
        (line,) = ax.plot(rows["bid"], rows[col], marker="o", label=str(trump),
                          color=SUIT_COLORS.get(str(trump)))
        ax.fill_between(rows["bid"], rows[lo], rows[hi], color=line.get_color(),
                        alpha=BAND_ALPHA, linewidth=0)
    if ceilings is not None:
        _require(ceilings, ["bid", col, lo, hi], "ceilings")
        rows = ceilings.sort_values("bid")
        ax.fill_between(rows["bid"], rows[lo], rows[hi], color=AUCTION_COLOR, alpha=BAND_ALPHA,
                        linewidth=0)
        ax.plot(rows["bid"], rows[col], color=AUCTION_COLOR, linewidth=3.2, zorder=4,
                label="bid up to b, auction played (the advice's)")
        if recommended:
            at = rows[rows["bid"] == recommended].iloc[0]
            ax.plot([recommended], [at[col]], marker="*", markersize=16, color=AUCTION_COLOR,
                    markeredgecolor="white", zorder=5, linestyle="none",
                    label=f"recommended: bid up to {recommended}")
    if pass_ev is not None and not pass_ev.empty:
        _require(pass_ev, [col, lo, hi], "pass_ev")
        row = pass_ev.iloc[0]
        ax.axhspan(row[lo], row[hi], color=PASS_COLOR, alpha=BAND_ALPHA, linewidth=0)
        ax.axhline(row[col], color=PASS_COLOR, linestyle="--", linewidth=1.8,
                   label=f"pass ({row[col]:+.2f})")
    ax.axhline(0, color="#555555", linewidth=0.8, zorder=1)
    ticks = np.unique(bids["bid"].to_numpy())
    step = max(1, -(-len(ticks) // 14))  # at most 14 labels: Rook has 27 bids
    ax.set_xticks(ticks[::step])
    pad = 0.3 * (ticks[1] - ticks[0]) if len(ticks) > 1 else 0.3
    ax.set_xlim(ticks[0] - pad, ticks[-1] + pad)
    ax.set_xlabel(xlabel or "bid b (bid in turn; the others may outbid; names trump if it wins)")
    side = "own − opponents' score" if net else "own score"
    how = f"method {method}, " if method else ""
    ax.set_ylabel(f"EV per deal, {how}{side}")
    ax.set_title(title or f"EV by bid, {how}{side}")
    ax.legend(title="trump (band: 95% CI)" if ceilings is None else "band: 95% CI", loc="best")
    return fig


@styled
def bid_heatmap(table: pd.DataFrame, classes: pd.DataFrame, title: str | None = None) -> Figure:
    """Hand class (rows, weakest at the bottom) x action -> gain over passing; each class's
    recommended action boxed; a panel a seat where the classes are by seat.

    ``table`` and ``classes`` are ``BidChart.table`` and ``.classes`` (analyzer.bidchart):
    the colour is EV(action) - EV(pass), a paired difference, so blue cells beat passing.
    Rare classes (too few hands, or a decision interval too wide to read) are greyed and
    marked in their label.
    """
    _require(table, ["label", "action", "bid", "gain"], "table")
    _require(classes, ["label", "n", "recommended", "rare"], "classes")
    actions = list(dict.fromkeys(table.sort_values("bid", kind="stable")["action"]))
    grid = (table.assign(gain=table["gain"].fillna(0.0))
            .pivot(index="label", columns="action", values="gain")
            .loc[list(classes["label"]), actions])
    lim = max(1.0, float(np.nanmax(np.abs(grid.to_numpy()))))
    # 116 rows of four seats in one column had labels too small to read: a panel a seat,
    # two abreast, each label without the seat its panel names
    panels = ([(seat, group) for seat, group in
               classes.groupby("seat", observed=True, sort=True)]
              if "seat" in classes and classes["seat"].nunique() > 1 else [(None, classes)])
    ncols = 1 if len(panels) == 1 else 2
    nrows = -(-len(panels) // ncols)
    tallest = max(len(group) for _, group in panels)
    fig = new_figure()
    fig.set_layout_engine("constrained")  # the panels, their labels and one colour bar
    cell = 0.42 if ncols == 1 else 0.34 if len(actions) <= 16 else 0.26  # inches an action
    fig.set_size_inches(1.4 + ncols * (3.5 + cell * len(actions)),
                        1.2 + nrows * (0.6 + 0.22 * tallest))
    axes = fig.subplots(nrows, ncols, squeeze=False).ravel()
    for ax in axes[len(panels):]:
        ax.set_visible(False)
    for ax, (seat, group) in zip(axes, panels, strict=False):
        im = _heatmap_panel(ax, grid.loc[list(group["label"])], group, actions, lim, seat)
    fig.suptitle(title or "EV(action) − EV(pass); box = recommended", fontsize=10)
    steps = [m * 10.0 ** k for k in range(-1, 4) for m in (1, 2, 5)]  # 0.1 .. 5,000
    ticks = [-t for t in reversed(steps) if 0.5 <= t <= lim] + [0] + [
        t for t in steps if 0.5 <= t <= lim]
    bar = fig.colorbar(im, ax=list(axes[:len(panels)]), ticks=ticks, shrink=0.6,
                       label="gain over passing per deal (own − opponents; linear within "
                             "±1, logarithmic beyond)")
    bar.ax.set_yticklabels([f"{t:+g}" if t else "0" for t in ticks])
    return fig


def _heatmap_panel(ax, grid: pd.DataFrame, classes: pd.DataFrame, actions: list[str],
                   lim: float, seat: str | None):
    """One panel of :func:`bid_heatmap`: its classes' rows, boxes and labels (without the
    ``seat=`` part where the panel is one ``seat``'s and its title names it); the image,
    for the colour bar."""
    from matplotlib.colors import SymLogNorm
    from matplotlib.patches import Rectangle

    ax.grid(False)
    # linear within ±1 point and logarithmic beyond: the gains under a point that decide
    # most advice would wash out on a linear scale to the ±25 of the strongest hands
    im = ax.imshow(grid.to_numpy(), cmap="RdBu", aspect="auto", origin="lower",
                   norm=SymLogNorm(linthresh=1.0, vmin=-lim, vmax=lim, base=10))
    for i, c in enumerate(classes.itertuples()):
        j = actions.index(c.recommended)
        ax.add_patch(Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False, lw=1.6, ec="black"))
        if c.rare:
            ax.add_patch(Rectangle((-0.5, i - 0.5), len(actions), 1, color="white", alpha=0.6))
    short = [a.replace("bid up to ", "≤").replace("bid ", "") for a in actions]
    ax.set_xticks(range(len(actions)), short, fontsize=7 if len(actions) > 16 else 9,
                  rotation=90 if len(actions) > 16 else 0)
    ax.set_title("" if seat is None else f"seat {seat}", fontsize=10)
    labels = [c.label if seat is None else without_context(c.label, [seat])
              for c in classes.itertuples()]
    ax.set_yticks(range(len(classes)),
                  [f"{label}  (n={c.n:,})" + ("  rare" if c.rare else "")
                   for label, c in zip(labels, classes.itertuples(), strict=True)],
                  fontsize=8 if len(classes) <= 40 else 6)
    ceilings = any(a.startswith("bid up to ") for a in actions)  # Rook's actions
    ax.set_xlabel("action: pass, or bid b" + (" (≤b: raise up to b)" if ceilings else ""))
    return im


def check_figure_path(path: str | os.PathLike) -> Path:
    """Fail early, before any work, when ``path`` cannot be written as a figure.

    FigureFormatError for a suffix other than .png, .svg or .pdf; OSError (with
    the path and a reason) for a missing or read-only directory.
    """
    p = Path(path)
    if p.is_dir():
        raise FigureFormatError(f"{str(path)!r} is a folder; a figure is a file ending in "
                                f"{', '.join(FIGURE_SUFFIXES)}")
    if p.suffix.lower() not in FIGURE_SUFFIXES:
        shown = repr(p.suffix) if p.suffix else "no suffix"
        raise FigureFormatError(
            f"unsupported figure format {shown} for {str(path)!r}; use one of "
            f"{', '.join(FIGURE_SUFFIXES)}"
        )
    return atomic.check_directory(p)


def save_figure(fig: Figure, path: str | os.PathLike) -> Path:
    """Write ``fig`` as PNG, SVG or PDF (chosen by the suffix), atomically.

    The image goes to a temporary file in the same directory and is moved into
    place with ``os.replace``: a reader never sees half an image and a failed
    write leaves any earlier file as it was.

    >>> save_figure(new_figure(), "chart.svg")
    PosixPath('chart.svg')
    """
    p = check_figure_path(path)
    kind = p.suffix.lower()[1:]
    with house_style(), atomic.atomic_open(p) as f:  # the metadata says bidlab drew it
        fig.savefig(f, format=kind, metadata={"Software" if kind == "png" else "Creator": _MAKER})
    return p


def check_plot_path(path: str | os.PathLike) -> Path:
    """:func:`check_figure_path` for a chart a user names (``--plot``): it may replace only a
    figure bidlab drew (its metadata names bidlab), never a user's own image."""
    p = check_figure_path(path)
    atomic.require_own_file(p, _drawn_by_bidlab)
    return p


def _drawn_by_bidlab(p: Path) -> bool:
    """Whether the figure's metadata names bidlab: PNG's Software and SVG's Creator are near
    the start of the file, PDF's Creator near the end."""
    try:
        with open(p, "rb") as f:
            head = f.read(1 << 16)
            f.seek(max(0, f.seek(0, os.SEEK_END) - (1 << 16)))
            tail = f.read()
    except OSError:
        return False
    return _MAKER_PREFIX in head or _MAKER_PREFIX in tail


@styled
def ladder_by_bid(by_bid: pd.DataFrame, title: str | None = None,
                  measure: str = "bid-side points") -> Figure:
    """Mean bid-side points (``measure``: King's trump chooser counts tricks) by bid level,
    one line per ladder rung, with 95% error bars.

    ``by_bid`` is :meth:`analyzer.ladder.Ladder.by_bid`. The gap between rungs at a
    bid level is how much that bid's value depends on who plays the cards.
    """
    _require(by_bid, ("bid", "rung", "points", "points_lo", "points_hi"), "the ladder table")
    fig = new_figure()
    ax = fig.add_subplot()
    for k, (rung, g) in enumerate(by_bid.groupby("rung", sort=False)):
        x = g["bid"].to_numpy() + (k - 1.5) * 0.08  # small offsets keep the bars apart
        yerr = [(g["points"] - g["points_lo"]).fillna(0), (g["points_hi"] - g["points"]).fillna(0)]
        ax.errorbar(x, g["points"], yerr=yerr, marker="o", ms=3, capsize=2, label=rung)
    bids = sorted(by_bid["bid"].unique())
    ax.plot(bids, bids, color="0.6", lw=0.8, ls="--", label="= bid (just made)")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))  # bids are whole numbers
    ax.set_xlabel("bid")
    ax.set_ylabel(f"{measure} (mean, 95% CI)")
    ax.legend(loc="upper left")
    if title:
        ax.set_title(title)
    return fig
