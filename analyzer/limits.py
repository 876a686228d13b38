"""How large a run may be, said before the work and not after an hour of it.

The library's sizes and seeds are checked first (:func:`check_count`, :func:`check_seed`):
one ValueError naming the argument and what it takes, before any kernel sees a float, a
negative count or a seed beyond its 64 bits. Then two limits, both stated in the size
options' ``--help``:

* **Memory.** Commands that keep one row per deal (``simulate``, ``compare``, ``match``,
  ``bench``, a hand evaluation's paired samples) are refused up front when that would
  take more than the memory this machine has free, with the size that would fit.
* **Time.** Every run is refused up front when no machine could play it within
  :data:`TIME_LIMIT` (it would need more than :data:`FASTEST_PER_SECOND` deals a second),
  and stopped after its first batch, a few seconds in, when the pace that batch measured
  says the whole run would take longer.

>>> require_memory(10**6, 150, "simulate --deals")
>>> require_memory(10**15, 150, "simulate --deals")
Traceback (most recent call last):
...
analyzer.limits.SizeError: simulate --deals 1,000,000,000,000,000 needs about 150,000.0 TB ...

May import: the standard library only.
"""

from __future__ import annotations

import contextlib
import contextvars
import numbers
import os
import time
from collections.abc import Iterator

TIME_LIMIT = 24 * 3600.0  # seconds: a longer run is refused
FASTEST_PER_SECOND = 1e8  # deals a second no machine reaches (about 50x this VM's best)
MEMORY_SHARE = 0.8  # of the free memory a run may plan to use
MAX_SEED = 2**63 - 1  # seeds and deal indices are int64 in the kernels
GAME_MAX_DEALS = 2**22  # the most deals of one whole game (games.kit.games.MAX_DEALS)
# the most whole games of a run: each owns 2**24 deal indices, and the last must fit int64
GAME_MAX_GAMES = MAX_SEED // 2**24  # (games.kit.games.MAX_GAMES)
# A searching seat (dd, pimc) costs tens of milliseconds a deal where the other policies cost
# microseconds, so a size left at its default then plays a run of about a minute here
# (pimc:20 on two cores: Pedro simulate 1,000 deals 18 s, hand 500 52 s, match 200 games 23 s,
# bid-chart 5,000 76 s; Rook hand 500 80 s; King hand 500 35 s, simulate 1,000 games 78 s).
# The CLI's size options and the library's hand evaluation and comparison take these.
SEARCH_SIZES = {"simulate": 1_000, "compare": 1_000, "match": 200, "hand": 500,
                "bid-chart": 5_000}
SEARCH_MAX_DEALS = 5_000  # a stop rule's cap when a seat searches: about ten minutes
SOLVE_MAX_NODES = 50_000_000  # `solve`'s node budget by default: a few seconds a position


class SizeError(ValueError):
    """A run too large to finish: beyond the memory free or the time limit."""


class TimeLimitError(SizeError):
    """A run refused for its time: no machine could play it, or its first batch's pace says
    this one would take over the limit. Unlike a lack of memory, the same run is refused
    again, so a run store undoes what the run asked of it."""


class ArgumentError(ValueError):
    """A size, seed or tolerance the library cannot run with."""


def _whole(value) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def check_count(name: str, value, minimum: int = 1) -> int:
    """``value`` as an int when it is a whole number >= ``minimum``; ArgumentError otherwise.

    >>> check_count("deals", 1.5)
    Traceback (most recent call last):
    ...
    analyzer.limits.ArgumentError: deals must be a whole number >= 1; got 1.5
    """
    if not _whole(value) or value < minimum:
        raise ArgumentError(f"{name} must be a whole number >= {minimum:,}; got {value!r}")
    return int(value)


def check_counts(optional: tuple[str, ...] = (), **sizes) -> None:
    """:func:`check_count` (at least 1) of each size, but those named ``optional`` that
    are None (a default the callee sets)."""
    for name, value in sizes.items():
        if not (value is None and name in optional):
            check_count(name, value)


def check_seed(seed) -> int:
    """``seed`` as an int when it is 0 .. 2**63-1; ArgumentError otherwise."""
    if not _whole(seed) or not 0 <= seed <= MAX_SEED:
        raise ArgumentError(f"seed must be a whole number 0 .. 2**63-1; got {seed!r}")
    return int(seed)


def check_positive(name: str, value) -> float | None:
    """``value`` (a tolerance or seconds) when None or a number above 0; ArgumentError
    otherwise."""
    if value is None:
        return None
    if not isinstance(value, numbers.Real) or isinstance(value, bool) or not value > 0:
        raise ArgumentError(f"{name} must be a number above 0; got {value!r}")
    return value


def free_memory() -> int | None:
    """Bytes of memory free for a new run (Linux's MemAvailable), or None if unknown."""
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, AttributeError):
        return None


def _size(nbytes: float) -> str:
    for unit, scale in (("TB", 1e12), ("GB", 1e9), ("MB", 1e6)):
        if nbytes >= scale:
            return f"{nbytes / scale:,.1f} {unit}"
    return f"{nbytes / 1e3:,.0f} kB"


def _duration(seconds: float) -> str:
    for unit, scale in (("years", 365.25 * 86400), ("days", 86400), ("hours", 3600),
                        ("minutes", 60)):
        if seconds >= scale:
            return f"{seconds / scale:,.1f} {unit}"
    return f"{seconds:.0f} s"


# what a refusal calls the size it refuses, where it was not asked for by a command's option
_ASKED_AS: contextvars.ContextVar[str | None] = contextvars.ContextVar("asked_as", default=None)


@contextlib.contextmanager
def asked_as(label: str) -> Iterator[None]:
    """Within it, a refusal names its size ``label`` (a scenario file's section, not the
    option a command would take) and offers no ``--first``, which only commands have.

    >>> with asked_as("s.toml: [bids] size"):
    ...     require_time(10**15, "--deals")
    Traceback (most recent call last):
    ...
    analyzer.limits.TimeLimitError: s.toml: [bids] size 1,000,000,000,000,000 would take ...
    """
    token = _ASKED_AS.set(label)
    try:
        yield
    finally:
        _ASKED_AS.reset(token)


def _label(what: str) -> str:
    """What a refusal calls its size: the label of :func:`asked_as`, else ``what``."""
    return _ASKED_AS.get() or what


def require_memory(n: int, bytes_each: float, what: str, unit: str = "deals",
                   parts: str | None = None) -> None:
    """SizeError unless ``n`` rows of ``bytes_each`` fit in the memory free now. ``parts``:
    the option that runs it in parts (simulate's --first), offered only where the command
    has one (ladder, match and bench have none: naming it there sent users to an error)."""
    asked = _ASKED_AS.get() is not None
    what = _label(what)
    free = free_memory()
    need = n * bytes_each
    if free is None or need <= MEMORY_SHARE * free:
        return
    fits = int(MEMORY_SHARE * free / bytes_each)
    raise SizeError(f"{what} {n:,} needs about {_size(need)} of memory for its rows and "
                    f"{_size(free)} is free: at most about {fits:,} {unit} here"
                    + ("" if asked or parts is None else f", or run it in parts with {parts}"))


def require_time(n: int, what: str, unit: str = "deals") -> None:
    """SizeError when even the fastest machine could not play ``n`` within the limit."""
    what = _label(what)
    if n / FASTEST_PER_SECOND > TIME_LIMIT:
        raise TimeLimitError(f"{what} {n:,} would take more than {_duration(TIME_LIMIT)} on "
                             f"any machine (over {FASTEST_PER_SECOND:,.0f} {unit} a second); "
                             f"the limit is {_duration(TIME_LIMIT)} a run")


class Pace:
    """Watches a run's batches: after the first, it projects the whole run's time at the
    measured pace and raises SizeError if that exceeds the limit."""

    def __init__(self, total: int, what: str, unit: str = "deals"):
        require_time(total, what, unit)
        self.total, self.what, self.unit = total, _label(what), unit
        self.start = time.perf_counter()
        self.checked = False

    def step(self, done: int) -> None:
        """``done`` units are finished (cumulative)."""
        if self.checked or done <= 0 or done >= self.total:
            return
        self.checked = True
        per = (time.perf_counter() - self.start) / done
        projected = per * self.total
        if projected > TIME_LIMIT:
            raise TimeLimitError(
                f"{self.what} {self.total:,} would take about {_duration(projected)} at the "
                f"pace of its first {done:,} {self.unit} ({1 / per:,.0f} a second here); the "
                f"limit is {_duration(TIME_LIMIT)} a run: at most about "
                f"{int(TIME_LIMIT / per):,} {self.unit}")
