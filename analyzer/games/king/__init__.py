"""King, the Brazilian 10-hand game (seed 003): six negative hands, four positive ones.

Rules: ``docs/rules.md`` §3 (King), §5 (invariants), §7 (flags); every
flag is a field of :class:`Rules` (see ``bidlab rules king``). Decisions the
text leaves open are listed in ``tests/reference/KING_LOG_FORMAT.md``.

King is individual: records carry one column per seat. A *deal* of
``simulate`` is a whole game by default, or one hand of the contract given.

>>> from analyzer.games import king
>>> games = king.simulate(king.parse_rules("king"), 1000, seed=5)
>>> hands = king.simulate(king.PRESETS["king"], 1000, seed=5, contract="no-hearts")
>>> len(games), len(hands)
(1000, 1000)

The package's face is :mod:`.deals` (batches of hands and games as DataFrames and logs),
each of its names loaded on first use, so that the rules and ``GAME`` answer without numba
or pandas (``bidlab games``, ``rules``, a command's ``--help``).

May import: its rules and game modules, and the registry's :func:`~analyzer.games.lazy_member`
(which loads the rest on first use); never another game.
"""

from __future__ import annotations

from .. import lazy_member
from .rules import CONTRACT_CODES, PRESET_NAMES, PRESETS, Rules, parse_contract, parse_rules

__all__ = ["PRESETS", "PRESET_NAMES", "Rules", "parse_rules", "parse_contract", "run_batch",
           "run_deals", "run_games", "simulate", "play_logged", "play_game_logged",
           "CONTRACT_CODES", "parse_policies"]


def __getattr__(name: str):
    """The rest of the package on first use: the names of :mod:`.deals`, then its submodules."""
    return lazy_member(__name__, name)


from .game import GAME as GAME  # noqa: E402 - the interface generic code uses
