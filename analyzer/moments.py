"""Sufficient statistics that add up exactly, so that a run in chunks gives the numbers of the
whole run, bit for bit.

A mean's interval needs only n, the sum and the sum of squares of the samples. Every
per-deal quantity bidlab summarizes (points, scores, made or set) is a whole number, so
those sums are kept as Python integers: adding the chunks' sums in any order, on any
executor and for any chunk size gives the same integers, and the estimate computed from
them is the same float. (Floating-point sums would differ in their last bits with the
order of addition.) Samples that are not whole numbers still work, as float sums, and the
result then says it is not exact.

>>> a, b = Moments.of([1, 2, 3]), Moments.of([4])
>>> (a + b) == Moments.of([1, 2, 3, 4])
True
>>> str((a + b).estimate())
'2.500 ± 2.054 (n=4)'
>>> Counts(3, 10) + Counts(1, 10)
Counts(k=4, n=20)

May import: numpy and :mod:`analyzer.stats`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .stats import Z95, Estimate, Proportion, interval, wilson

_INT_SAFE = 2 ** 62  # a block's sum of squares stays below int64's limit


@dataclass(frozen=True)
class Moments:
    """n samples, their sum and their sum of squares (ints when the samples are whole)."""

    n: int
    total: int | float
    squares: int | float

    @classmethod
    def of(cls, values) -> Moments:
        a = np.asarray(values).ravel()
        if a.dtype.kind == "f":
            if not np.isfinite(a).all():
                raise ValueError("samples must be finite numbers (no NaN or infinity)")
            if not np.array_equal(a, np.round(a)) or (a.size and np.abs(a).max() >= 2 ** 31):
                return cls(int(a.size), float(a.sum()), float((a * a).sum()))
            a = a.astype(np.int64)
        elif a.dtype.kind not in "iub":
            raise ValueError(f"samples must be numbers, got {a.dtype}")
        if a.size and (int(a.max()) >= 2 ** 31 or int(a.min()) <= -2 ** 31):
            # int64 sums would wrap (uint64 2**63 read as -2**63): Python's integers do not
            ints = [int(x) for x in a.tolist()]
            return cls(len(ints), sum(ints), sum(x * x for x in ints))
        a = a.astype(np.int64)
        if a.size == 0:
            return cls(0, 0, 0)
        biggest = int(np.abs(a).max())
        block = max(1, _INT_SAFE // max(1, biggest * biggest))
        total = int(a.sum())  # |a| < 2**31 and a chunk of < 2**32 rows: no overflow
        squares = sum(int(np.dot(a[i:i + block], a[i:i + block]))
                      for i in range(0, a.size, block))
        return cls(int(a.size), total, squares)

    @property
    def exact(self) -> bool:
        return isinstance(self.total, int) and isinstance(self.squares, int)

    def __add__(self, other: Moments) -> Moments:
        return Moments(self.n + other.n, self.total + other.total,
                       self.squares + other.squares)

    def estimate(self, z: float = Z95) -> Estimate:
        """The mean, its standard error (sample deviation, ddof=1) and ``mean ± t·se``
        (:func:`analyzer.stats.interval`)."""
        if self.n == 0:
            raise ValueError("a mean needs at least one sample, got none")
        mean = self.total / self.n  # int / int: the correctly rounded quotient
        if self.n == 1:
            return Estimate(mean, math.nan, math.nan, math.nan, 1)
        # n·Σx² − (Σx)², exact in integers; over n²(n−1) it is the variance of the mean
        spread = self.n * self.squares - self.total * self.total
        se = math.sqrt(max(spread, 0) / (self.n * self.n * (self.n - 1)))
        return interval(mean, se, self.n, z)

    def to_list(self) -> list:
        return ["m", self.n, self.total, self.squares]


@dataclass(frozen=True)
class Counts:
    """k successes in n trials."""

    k: int
    n: int

    def __add__(self, other: Counts) -> Counts:
        return Counts(self.k + other.k, self.n + other.n)

    def estimate(self, z: float = Z95) -> Proportion:
        return wilson(self.k, self.n, z)

    def to_list(self) -> list:
        return ["c", self.k, self.n]


class Histogram:
    """How often each row of a few whole-number outcomes occurred, e.g. (the side's points,
    the other side's points) of every deal: everything about the sample that a function
    of those outcomes needs (its mean, interval, distribution and any threshold's count),
    in the space of their distinct values rather than of the deals.

    >>> h = Histogram(2)
    >>> h.add([7, 3, 7], [7, 11, 7])
    >>> h.n, h.count(lambda b, o: b >= 7)
    (3, 2)
    >>> str(h.moments(lambda b, o: b - o).estimate())
    '-2.667 ± 11.474 (n=3)'
    """

    def __init__(self, width: int):
        self.width = width
        self.counts: dict[tuple[int, ...], int] = {}

    def add(self, *columns) -> None:
        """Count the rows of ``width`` equally long integer arrays."""
        if len(columns) != self.width:
            raise ValueError(f"a histogram of {self.width} outcomes, got {len(columns)}")
        cols = [np.asarray(c, dtype=np.int64).ravel() for c in columns]
        if not cols[0].size:
            return
        # one integer key a row (mixed radix over each outcome's range), so that counting is
        # a 1-D unique, many times faster than np.unique(axis=0)
        lows = [int(c.min()) for c in cols]
        spans = [int(c.max()) - lo + 1 for c, lo in zip(cols, lows, strict=True)]
        key = np.zeros_like(cols[0])
        for c, lo, span in zip(cols, lows, spans, strict=True):
            key = key * span + (c - lo)
        keys, counts = np.unique(key, return_counts=True)
        digits = []
        for lo, span in zip(reversed(lows), reversed(spans), strict=True):
            digits.append(keys % span + lo)
            keys = keys // span
        for row, c in zip(zip(*map(np.ndarray.tolist, reversed(digits)), strict=True),
                          counts.tolist(), strict=True):
            self.counts[row] = self.counts.get(row, 0) + c

    def absorb(self, other: Histogram) -> None:
        """Add the rows of ``other`` (counted elsewhere)."""
        for key, c in other.counts.items():
            self.counts[key] = self.counts.get(key, 0) + c

    @property
    def n(self) -> int:
        return sum(self.counts.values())

    def table(self) -> tuple[list[np.ndarray], np.ndarray]:
        """The distinct rows, sorted, as one array per outcome, and how often each occurred."""
        keys = sorted(self.counts)
        values = np.array(keys, dtype=np.int64).reshape(len(keys), self.width)
        return list(values.T), np.array([self.counts[k] for k in keys], dtype=np.int64)

    def count(self, where) -> int:
        """Rows for which ``where(*outcomes)`` (vectorised) is true."""
        values, counts = self.table()
        return int(counts[np.asarray(where(*values), dtype=bool)].sum())

    def moments(self, f) -> Moments:
        """The exact :class:`Moments` of ``f(*outcomes)`` (vectorised, whole numbers) over
        the rows counted."""
        values, counts = self.table()
        v = np.asarray(f(*values), dtype=np.int64)
        c = counts.tolist()
        x = v.tolist()
        return Moments(sum(c), sum(a * b for a, b in zip(c, x, strict=True)),
                       sum(a * b * b for a, b in zip(c, x, strict=True)))


def from_list(item: list) -> Moments | Counts:
    """The statistic :meth:`Moments.to_list` or :meth:`Counts.to_list` wrote (JSON)."""
    kind, *values = item
    if kind == "m":
        return Moments(*values)
    if kind == "c":
        return Counts(*values)
    raise ValueError(f"unknown statistic {kind!r}")
