"""The pieces a report is made of: a :class:`Part` (one section: its title, the sentence
that says what its numbers assume, and its blocks), and the advice a paired interval
supports.

A part keeps two views of each table: ``tables`` holds the numbers (written to ``data/``
as Parquet and CSV), and a ``table`` block holds the same rows formatted for people, each
estimate as "mean [lo, hi]" (:func:`analyzer.estimate_text.ci`, :func:`analyzer.estimate_text.pct`).

>>> verdict(-0.02, 0.03, "B higher", "B lower")
'no difference beyond the noise (95% CI [-0.02, +0.03])'
>>> verdict(0.0, 0.0, "B higher", "B lower")
'the same on every deal'

May import: the standard library, numpy, pandas and :mod:`analyzer.estimate_text`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from ..estimate_text import known


@dataclass
class Block:
    """One thing a part shows: ``kind`` is "text" (a paragraph), "table" (``frame``, a
    formatted DataFrame; ``name`` its data table), "figure" (``name`` in figures/), "pre"
    (preformatted text) or "see" (a paragraph ending in a link to ``anchor``, titled
    ``name``: a table shown in another section)."""

    kind: str
    text: str = ""
    frame: pd.DataFrame | None = None
    name: str = ""
    anchor: str = ""  # the HTML id of a table block ("bid-guide")
    folded: bool = True  # a "pre" block: folded under "As text", or shown as it is
    command: str = ""  # a "pre" block: the bidlab command that prints it, said above it
    note: str = ""  # a "pre" block: where the report keeps the tables its text names


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
    # key findings its maker read off its own tables (a game's bid guide); others are read
    # by :mod:`.findings`
    headlines: list[str] = field(default_factory=list)

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

    def pre(self, text: str, folded: bool = True, command: str = "", note: str = "") -> None:
        self.blocks.append(Block("pre", text=text, folded=folded, command=command, note=note))


# Under this many deals a row shows no estimate: a normal-theory interval on two or four
# deals says nothing (four made bids of 13 read "+14.00 [+14.00, +14.00]").
FEW = 30


def too_few(n: int) -> str:
    return f"too few to estimate (n = {n:,})"


def verdict(lo, hi, better: str, worse: str, digits: int = 2,
            unchanged: str | None = None) -> str:
    """Advice that respects the noise: which way the paired interval [lo, hi] points, or
    that it shows no difference beyond the noise. ``unchanged`` (the unit, "deal"): this
    measure was the same on every unit of the run (others may have moved), and [lo, hi]
    bounds what the run may have missed.

    >>> verdict(-0.0011, 0.0011, "B higher", "B lower", 4, unchanged="deal")
    'the same on every deal: B − A within [-0.0011, +0.0011]'
    """
    if not known(lo, hi):
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
