"""The pieces a report is made of: a :class:`Part` (one section: its title, the sentence
that says what its numbers assume, and its blocks), and the formatting of estimates.

A part keeps two views of each table: ``tables`` holds the numbers (written to ``data/``
as Parquet and CSV), and a ``table`` block holds the same rows formatted for people, each
estimate as "mean [lo, hi]".

>>> ci(9.3691, 9.3122, 9.4260)
'9.37 [9.31, 9.43]'
>>> pct(0.8364, 0.8312, 0.8415)
'83.6% [83.1%, 84.2%]'
>>> verdict(-0.02, 0.03, "B higher", "B lower")
'no difference beyond the noise (95% CI [-0.02, +0.03])'
>>> verdict(0.0, 0.0, "B higher", "B lower")
'the same on every deal'

An interval too narrow to show at the digits asked gets the digits it needs, as in the
command line's tables (:func:`analyzer.stats.visible_digits`):

>>> ci(0.0, 0.0, 0.00003, 3)
'0.00000 [0.00000, 0.00003]'

May import: the standard library, numpy, pandas and :mod:`analyzer.stats`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from ..stats import visible_digits


@dataclass
class Block:
    """One thing a part shows: ``kind`` is "text" (a paragraph), "table" (``frame``, a
    formatted DataFrame; ``name`` its data table), "figure" (``name`` in figures/) or
    "pre" (preformatted text)."""

    kind: str
    text: str = ""
    frame: pd.DataFrame | None = None
    name: str = ""
    anchor: str = ""  # the HTML id of a table block ("bid-guide")
    folded: bool = True  # a "pre" block: folded under "As text", or shown as it is


@dataclass
class Part:
    """One section of a report."""

    key: str  # its HTML id and the prefix of its data files
    title: str
    model: str  # one sentence: what the numbers assume, for a player
    blocks: list[Block] = field(default_factory=list)
    tables: dict[str, pd.DataFrame] = field(default_factory=dict)  # name -> numbers
    figures: dict[str, Any] = field(default_factory=dict)  # name -> matplotlib Figure
    provenance: dict = field(default_factory=dict)  # rules, seed, policy, n, seconds

    def text(self, paragraph: str) -> None:
        self.blocks.append(Block("text", text=paragraph))

    def table(self, name: str, data: pd.DataFrame, shown: pd.DataFrame, caption: str,
              anchor: str = "") -> None:
        """Add table ``name``: ``data`` to data/, ``shown`` on the page under ``caption``."""
        self.tables[name] = data.reset_index(drop=True)
        self.blocks.append(Block("table", text=caption, frame=shown, name=name,
                                 anchor=anchor))

    def figure(self, name: str, fig, caption: str) -> None:
        self.figures[name] = fig
        self.blocks.append(Block("figure", text=caption, name=name))

    def pre(self, text: str, folded: bool = True) -> None:
        self.blocks.append(Block("pre", text=text, folded=folded))


def _ok(*xs) -> bool:
    return all(x is not None and not (isinstance(x, float) and math.isnan(x)) for x in xs)


# Under this many deals a row shows no estimate: a normal-theory interval on two or four
# deals says nothing (four made bids of 13 read "+14.00 [+14.00, +14.00]").
FEW = 30


def too_few(n: int) -> str:
    return f"too few to estimate (n = {n:,})"


def num(x, digits: int = 2, sign: bool = False) -> str:
    if not _ok(x):
        return "-"
    return f"{x:+z,.{digits}f}" if sign else f"{x:z,.{digits}f}"  # z: no "-0.00"


def ci(mean, lo, hi, digits: int = 2, sign: bool = False) -> str:
    """``mean [lo, hi]``; the mean alone where there is no interval."""
    if not _ok(mean):
        return "-"
    if not _ok(lo, hi):
        return num(mean, digits, sign)
    digits = visible_digits(mean, lo, hi, digits)
    return f"{num(mean, digits, sign)} [{num(lo, digits, sign)}, {num(hi, digits, sign)}]"


def pct(p, lo, hi, digits: int = 1) -> str:
    if not _ok(p):
        return "-"
    if not _ok(lo, hi):
        return f"{100 * p:.{digits}f}%"
    digits = visible_digits(100 * p, 100 * lo, 100 * hi, digits)
    return f"{100 * p:.{digits}f}% [{100 * lo:.{digits}f}%, {100 * hi:.{digits}f}%]"


def verdict(lo, hi, better: str, worse: str, digits: int = 2,
            unchanged: str | None = None) -> str:
    """Advice that respects the noise: which way the paired interval [lo, hi] points, or
    that it shows no difference beyond the noise. ``unchanged`` (the unit, "deal"): this
    measure was the same on every unit of the run (others may have moved), and [lo, hi]
    bounds what the run may have missed.

    >>> verdict(-0.0011, 0.0011, "B higher", "B lower", 4, unchanged="deal")
    'the same on every deal: B − A within [-0.0011, +0.0011]'
    """
    if not _ok(lo, hi):
        return "not measured"
    if lo == hi == 0:
        return f"the same on every {unchanged or 'deal'}"
    if unchanged:
        return (f"the same on every {unchanged}: B − A within [{lo:+.{digits}f}, "
                f"{hi:+.{digits}f}]")
    if lo > 0:
        return better
    if hi < 0:
        return worse
    return f"no difference beyond the noise (95% CI [{lo:+.{digits}f}, {hi:+.{digits}f}])"
