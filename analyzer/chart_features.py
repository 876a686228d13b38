"""What a game's bid chart is made of, shared by every game's ``chart.py``: the hand
features it classifies by (:class:`Feature`, binned with :func:`bin_index` and
:func:`bit_of`), what a game gives the chart (:class:`ChartGame`), when a class is too
rare to read, and the check of the features a user asks for (:func:`check_features`).
The chart itself is :mod:`analyzer.bidchart`.

>>> check_features("trumps, seat", "pedro")
('trumps', 'seat')

May import: numpy, the games' registry and :mod:`.games.common`'s seat names, and
:mod:`.parsing`; never a game by name.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .games import as_rules
from .games import game as game_of
from .games.common import SEATS
from .parsing import first_few

RARE_HALF_WIDTH = 1.0 / 14  # too wide to read: a decision margin over ±1/14 of the points
RARE_MIN_N = 100  # in a deal (±1 in Pedro, ±14 in Rook), or n < 100


class ChartError(ValueError):
    """Bad bid-chart options, such as an unknown feature."""


@dataclass(frozen=True)
class Feature:
    """A hand feature: its bin labels, weakest first when ``strength``; binary features are
    shown as ``name`` / ``no name``.

    A strength step adds a card: this feature one bin up, and with it every feature of
    ``implies`` that the chart classifies by (the ace of trumps is also one more trump and
    one more counter). Where a feature of ``unclear`` is classified too, the step cannot be
    read as adding one card (which counter is one more counter, if the Pedros are fixed?)
    and the monotonicity check does not take it.
    """

    labels: tuple[str, ...]
    title: str
    strength: bool = True
    implies: tuple[str, ...] = ()
    unclear: tuple[str, ...] = ()

    @property
    def binary(self) -> bool:
        return self.labels == YES_NO


YES_NO = ("no", "yes")
SEAT_FEATURE = Feature(SEATS, "seat relative to the dealer", strength=False)
DEALER_FEATURE = Feature(YES_NO, "the seat is the dealer", strength=False)


def bin_index(values: np.ndarray, edges: list[int]) -> np.ndarray:
    """Bin index of each value: k for values below ``edges[k]``, the last bin above."""
    return np.searchsorted(edges, values, side="right")


def bit_of(x: np.ndarray, b) -> np.ndarray:
    return ((x >> np.asarray(b, dtype=np.uint64)) & np.uint64(1)).astype(np.int64)


@dataclass(frozen=True)
class ChartGame:
    """What a game gives the chart: its features, its bidding ladder, and its seat
    outcomes batch by batch."""

    features: dict[str, Feature]
    default_by: tuple[str, ...]
    bids: tuple[int, ...]
    action_labels: tuple[str, ...]  # the pass, then each bid
    total_points: int
    point_step: int  # sole-bidder points come in multiples of this
    batch: Callable  # (seed, pols, first, n) -> (codes, sole points [n, 4], values [n, 4, A])


def check_features(by, rules) -> tuple[str, ...]:
    """The chart's features ``by`` (a sequence, or "trumps,seat") as a tuple; ChartError
    otherwise, in words that fit both the CLI's --by and a scenario's ``by`` key."""
    rules = as_rules(rules)
    chart_by = game_of(rules).chart_by
    if chart_by is None:
        raise ChartError(f"{rules.game} charts choose their own features; --by is for "
                         f"the bidding games")
    if isinstance(by, str):
        by = [f.strip() for f in by.split(",")]
    by, known = tuple(by) if isinstance(by, list | tuple) else (by,), chart_by[0]
    bad = first_few([f for f in by if f not in known], quote=True)
    if bad or not by:
        raise ChartError(f"bad chart feature(s) {bad or '(none)'} for {rules.game}; "
                         f"features: {', '.join(known)}")
    if len(set(by)) != len(by):
        twice = sorted({f for f in by if by.count(f) > 1})
        raise ChartError(f"chart feature(s) {', '.join(twice)} named more than once; give "
                         f"each once (features: {', '.join(known)})")
    return by


def class_legend(features: dict, by: tuple[str, ...]) -> str:
    """What the words of a hand class mean, feature by feature, in one paragraph (a chart's
    ``features`` by name, those it classes ``by``).

    >>> f = {"ace": Feature(YES_NO, "holds the ace of trumps"),
    ...      "trumps": Feature(("<=2", "3+"), "trumps held")}
    >>> class_legend(f, ("trumps", "ace"))
    'Hand classes: trumps (<=2, 3+): trumps held; ace / no ace: holds the ace of trumps.'
    """
    words = [f"{name} / no {name}: {features[name].title}" if features[name].labels == YES_NO
             else f"{name} ({', '.join(features[name].labels)}): {features[name].title}"
             for name in by]
    return "Hand classes: " + "; ".join(words) + "."
