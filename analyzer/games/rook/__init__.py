"""Rook with a standard deck plus a joker, "Princeton rules" (seed 004).

Rules: ``docs/rules.md`` §4 (Rook), §5 (invariants), §7 (flags); every
flag is a field of :class:`Rules` (see ``bidlab rules rook``). Decisions the
text leaves open are listed in ``tests/reference/ROOK_LOG_FORMAT.md``.

The package's face is :mod:`.deals` (batches of deals as DataFrames and logs), each of
its names loaded on first use, so that the rules and ``GAME`` answer without numba or
pandas (``bidlab games``, ``rules``, a command's ``--help``). The numba code lives in
``rook.core`` (cards, tricks), ``rook.policies`` (random, heuristic) and
``rook.engine`` (the hand kernel and the parallel batch driver).

>>> from analyzer.games import rook
>>> df = rook.simulate(rook.parse_rules("rook"), 1000, seed=3)
>>> len(df), df.attrs["rules"]
(1000, 'rook')

May import: its rules and game modules, and the registry's :func:`~analyzer.games.lazy_member`
(which loads the rest on first use); never another game.
"""

from __future__ import annotations

from .. import lazy_member
from .rules import PRESET_NAMES, PRESETS, Rules, parse_rules

__all__ = ["PRESETS", "PRESET_NAMES", "Rules", "parse_rules", "Scenario", "run_batch",
           "records_frame", "simulate", "simulate_games", "play_logged", "TRUMP_NAMES",
           "parse_policies"]


def __getattr__(name: str):
    """The rest of the package on first use: the names of :mod:`.deals`, then its submodules."""
    return lazy_member(__name__, name)


from .game import GAME as GAME  # noqa: E402 - the interface generic code uses
