"""The ``bidlab`` command line: one module per command (or family of commands), each a
short function that parses its options, calls the library through the games' protocol
(:class:`analyzer.games.protocol.Game`) and prints.

Layout: :mod:`.group` (the command group and its one-line errors), :mod:`.options` (option
types and the options the commands share), then :mod:`.info` (games, rules, cards),
:mod:`.play` (simulate, compare, match, deal), :mod:`.hand`, :mod:`.chart` (bid-chart),
:mod:`.solve`, :mod:`.ladder` and :mod:`.bench`. Importing a command module registers its
commands on :data:`main`.

May import: everything below it (games, analysis, plots); nothing imports it but
:mod:`analyzer.entry` and ``python -m analyzer``.
"""

from . import bench, chart, hand, info, ladder, play, solve  # noqa: F401 - registers commands
from .group import INPUT_ERRORS, BidlabGroup, fail, main
from .options import GAME_MAX_DEALS, search_sized

__all__ = ["INPUT_ERRORS", "GAME_MAX_DEALS", "BidlabGroup", "fail", "main", "search_sized"]
