"""Deprecated: the hand evaluation moved into each game's package.

``analyzer.evaluate_hand`` (or :func:`analyzer.rollout.evaluate_hand`) evaluates a hand of
any game; Pedro's own evaluation is :mod:`analyzer.games.pedro.evaluate`. This module keeps
the old names working for a release, with a DeprecationWarning.

May import: what it re-exports (:mod:`.rollout`, Pedro's evaluation).
"""

import warnings

from .games.pedro.evaluate import parse_hand, settle
from .rollout import HandError, HandEvaluation, evaluate_hand

warnings.warn("analyzer.evaluate moved: use analyzer.evaluate_hand, or "
              "analyzer.games.pedro.evaluate for Pedro's own", DeprecationWarning, stacklevel=2)

__all__ = ["HandError", "HandEvaluation", "evaluate_hand", "parse_hand", "settle"]
