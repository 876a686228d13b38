"""Estimates as text: ``mean ± half-width`` and ``mean [lo, hi]``, with digits enough to
show the interval and which side of zero it ends on: the helpers bidlab's tables, chart
labels and sentences show their intervals with (a view may wrap one, for its n/a cells).

>>> plus_minus(5.62, 1.5), ci(9.3691, 9.3122, 9.4260), pct(0.8364, 0.8312, 0.8415)
('5.62 ± 1.50', '9.37 [9.31, 9.43]', '83.6% [83.1%, 84.2%]')

May import: the standard library only.
"""

from __future__ import annotations

import math


def plus_minus(mean: float, half_width: float, digits: int = 2, sign: bool = False) -> str:
    """``mean ± half-width``, with digits enough (up to 4) to show a small half-width and
    which side of zero the interval ends on ("+0.06 ± 0.06" read as touching it).

    >>> plus_minus(0.0021, 0.0043, sign=True)
    '+0.002 ± 0.004'
    >>> plus_minus(-0.00024, 0.0043, sign=True)  # no sign where it rounds to zero
    '0.000 ± 0.004'
    >>> plus_minus(0.0601, 0.0562, sign=True)
    '+0.060 ± 0.056'
    """
    while digits < 4 and (0 < half_width < 0.5 * 10 ** -digits or (
            round(abs(mean), digits) == round(half_width, digits) and abs(mean) != half_width)):
        digits += 1
    hw = f"{half_width:.{digits}f}" if math.isfinite(half_width) else "n/a"  # one trial
    signed = sign and round(mean, digits) != 0  # "+0.000" of a small loss read as a gain
    return f"{mean:{'+' if signed else ''}z.{digits}f} ± {hw}"  # z: no "-0.00"


def symmetric(mean: float, lo: float, hi: float, digits: int) -> bool:
    """Whether an interval shows as ``mean ± half-width`` at ``digits`` (a Wilson or a
    :func:`analyzer.stats.bounded` interval may not)."""
    return round(hi - mean, digits) == round(mean - lo, digits)


def visible_digits(mean: float, lo: float, hi: float, digits: int) -> int:
    """``digits``, or more (up to 8) where the interval would round to none at ``digits``:
    "0.000 ± 0.000" would read as certain; or where an end other than 0 would read 0:
    "+0.07 [+0.00, +0.13]" read as touching zero an interval that clears it.

    >>> visible_digits(0.0, 0.0, 0.00019, 3), visible_digits(5.6, 4.1, 7.1, 1)
    (4, 1)
    >>> visible_digits(0.068, 0.0034, 0.133, 2)
    3
    """
    def unreadable(d: int) -> bool:
        return ((hi > lo and round(max(hi - mean, mean - lo), d) == 0)
                or any(x != 0 and round(x, d) == 0 for x in (lo, hi)))

    while digits < 8 and unreadable(digits):
        digits += 1
    return digits


def interval_text(mean: float, lo: float, hi: float, digits: int = 1) -> str:
    """``mean ± half-width``, or ``mean [lo, hi]`` where the interval is not symmetric at
    ``digits`` (a Wilson interval, a :func:`analyzer.stats.bounded` one); "mean [n/a]" without an
    interval (one trial), "-" without a mean. An interval too narrow to show at ``digits`` gets the
    digits it needs (up to 8): "0.000 ± 0.000" would read as certain.

    >>> interval_text(5.62, 4.1, 7.14), interval_text(0.0, 0.0, 4.9)
    ('5.6 ± 1.5', '0.0 [0.0, 4.9]')
    >>> interval_text(0.0, 0.0, 0.00019, 3)
    '0.0000 [0.0000, 0.0002]'
    """
    if not math.isfinite(mean):
        return "-"
    hw = (hi - lo) / 2
    if not math.isfinite(hw):
        return f"{mean:z.{digits}f} [n/a]"
    digits = visible_digits(mean, lo, hi, digits)
    if not symmetric(mean, lo, hi, digits):
        return f"{mean:z.{digits}f} [{lo:.{digits}f}, {hi:.{digits}f}]"
    return f"{mean:z.{digits}f} ± {hw:.{digits}f}"


# ---- estimates as bracketed text (a report's tables and findings) ----------------------


def known(*xs) -> bool:
    """Whether every value is there: not None, not NaN (a table's empty cell)."""
    return all(x is not None and not (isinstance(x, float) and math.isnan(x)) for x in xs)


def num(x, digits: int = 2, sign: bool = False) -> str:
    if not known(x):
        return "-"
    return f"{x:+z,.{digits}f}" if sign else f"{x:z,.{digits}f}"  # z: no "-0.00"


def ci(mean, lo, hi, digits: int = 2, sign: bool = False) -> str:
    """``mean [lo, hi]``; the mean alone where there is no interval. An interval too narrow
    to show at ``digits`` gets the digits it needs (:func:`visible_digits`).

    >>> ci(9.3691, 9.3122, 9.4260), ci(0.0, 0.0, 0.00003, 3)
    ('9.37 [9.31, 9.43]', '0.00000 [0.00000, 0.00003]')
    """
    if not known(mean):
        return "-"
    if not known(lo, hi):
        return num(mean, digits, sign)
    digits = visible_digits(mean, lo, hi, digits)
    return f"{num(mean, digits, sign)} [{num(lo, digits, sign)}, {num(hi, digits, sign)}]"


def pct(p, lo, hi, digits: int = 1, unit: str = "%") -> str:
    """A proportion and its interval in per cent (``unit=""`` under a "%" header), with
    digits enough that an interval other than 0 does not read as 0.

    >>> pct(0.8364, 0.8312, 0.8415), pct(0.0, 0.0, 0.00019, unit="")
    ('83.6% [83.1%, 84.2%]', '0.00 [0.00, 0.02]')
    """
    if not known(p):
        return "-"
    if not known(lo, hi):
        return f"{100 * p:.{digits}f}{unit}"
    digits = visible_digits(100 * p, 100 * lo, 100 * hi, digits)
    return (f"{100 * p:.{digits}f}{unit} [{100 * lo:.{digits}f}{unit}, "
            f"{100 * hi:.{digits}f}{unit}]")
