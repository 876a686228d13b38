"""Numbers and names read from text, in one place: ASCII only, with stated ranges.

Python is generous with text that looks like a number: ``"²".isdigit()`` is true and
``int("٣")`` is 3, ``float("nan")`` compares false with every bound, and an integer of
more than 4,300 digits raises where a user expects one line. Every number bidlab reads
from a user (command-line options, rule flags, policy world counts, seats) goes through
:func:`parse_int` or :func:`parse_float`, which accept plain ASCII digits within a range
and say the range when they refuse.

>>> parse_int("20", 1, 10_000, "pimc worlds")
20
>>> parse_int("²", 1, 10_000, "pimc worlds")
Traceback (most recent call last):
...
analyzer.parsing.NumberError: bad pimc worlds '²': give a whole number from 1 to 10,000
>>> parse_float("nan", 0, None, "--target-ci", low_open=True)
Traceback (most recent call last):
...
analyzer.parsing.NumberError: bad --target-ci 'nan': give a number above 0

May import: the standard library only.
"""

from __future__ import annotations

import math
import re

QUOTE_LIMIT = 80  # characters of a user's input an error line quotes at most
_FLOAT = re.compile(r"^[+]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$")


class NumberError(ValueError):
    """A number that is not plain ASCII digits, or outside its range."""


def quoted(text: object, limit: int = QUOTE_LIMIT) -> str:
    """``repr`` of a user's input, cut to ``limit`` characters (an error line stays one
    readable line whatever was pasted)."""
    r = repr(text) if isinstance(text, str) else repr(str(text))
    return r if len(r) <= limit else f"{r[:limit - 4]}...{r[-1]}"


def first_few(items, limit: int = 3, quote: bool = False) -> str:
    """Distinct ``items`` in their order, the first ``limit`` of them joined (each cut by
    :func:`quoted` when ``quote``), then how many more: a pasted list of a thousand names
    stays one readable error line.

    >>> first_few(["x"] * 300 + ["y", "z", "w", "v"], quote=True)
    "'x', 'y', 'z' and 2 more"
    """
    distinct = list(dict.fromkeys(str(i) for i in items))
    shown = [quoted(i) if quote else i for i in distinct[:limit]]
    more = len(distinct) - len(shown)
    return ", ".join(shown) + (f" and {more} more" if more else "")


def plain_ascii(text: str) -> bool:
    """Printable ASCII only: no control character, no newline, no look-alike letter."""
    return text.isascii() and text.isprintable()


def describe_range(lo: int | float, hi: int | float | None, low_open: bool = False) -> str:
    if isinstance(lo, int) and isinstance(hi, int):
        return f"a whole number from {lo:,} to {hi:,}"
    return (f"a number {'above' if low_open else 'from'} {lo:,g}"
            + ("" if hi is None else f" up to {hi:,g}"))


# digits in groups of three, as the tables print counts (20,000) or Python writes them
_GROUPED = re.compile(r"[0-9]{1,3}(?:,[0-9]{3})+|[0-9]{1,3}(?:_[0-9]{3})+")


def parse_int(text: str | int, lo: int, hi: int, what: str) -> int:
    """The integer ``text`` names, from ``lo`` to ``hi``: ASCII digits only, grouped by
    threes with commas or underscores or not at all, no sign, no more digits than ``hi``
    has; NumberError names ``what`` and the range otherwise.

    >>> parse_int("20,000", 1, 10**9, "deals"), parse_int("1_000_000", 1, 10**9, "deals")
    (20000, 1000000)
    """
    if isinstance(text, bool):
        raise NumberError(f"bad {what} {text!r}: give {describe_range(lo, hi)}")
    if isinstance(text, int):
        value = text
    else:
        t = str(text).strip()
        if _GROUPED.fullmatch(t):  # 20,000 as bidlab prints it, or 20_000 as Python writes it
            t = t.replace(",", "").replace("_", "")
        if not (t.isascii() and t.isdigit()) or len(t) > len(str(hi)):
            raise NumberError(f"bad {what} {quoted(text)}: give {describe_range(lo, hi)}")
        value = int(t)
    if not lo <= value <= hi:
        raise NumberError(f"bad {what} {quoted(str(text))}: give {describe_range(lo, hi)}")
    return value


def parse_float(text: str | float, lo: float, hi: float | None, what: str,
                low_open: bool = False) -> float:
    """The finite number ``text`` names, above ``lo`` (or from it) and at most ``hi``:
    ASCII decimal notation only; NaN and infinities are refused."""
    if isinstance(text, (int, float)) and not isinstance(text, bool):
        value = float(text)
    else:
        t = str(text).strip()
        if not (t.isascii() and _FLOAT.match(t)):
            raise NumberError(f"bad {what} {quoted(text)}: give "
                              f"{describe_range(lo, hi, low_open)}")
        value = float(t)
    ok = math.isfinite(value) and (value > lo if low_open else value >= lo) and (
        hi is None or value <= hi)
    if not ok:
        raise NumberError(f"bad {what} {quoted(str(text))}: give "
                          f"{describe_range(lo, hi, low_open)}")
    return value
