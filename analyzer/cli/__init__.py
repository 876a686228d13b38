"""The ``bidlab`` command line: one module per command (or family of commands), each a
short function that parses its options, calls the library through the games' protocol
(:class:`analyzer.games.protocol.Game`) and prints.

Layout: :mod:`.group` (the command group and its one-line errors), :mod:`.options` (option
types and the options the commands share), then :mod:`.info` (games, rules, cards),
:mod:`.play` (simulate, compare, match, deal), :mod:`.hand`, :mod:`.chart` (bid-chart),
:mod:`.solve`, :mod:`.ladder` and :mod:`.bench`. Importing a command module registers its
commands on :data:`main`; the group imports one when its command is asked for
(:data:`.group.COMMANDS`), so ``bidlab --help`` loads neither numba nor pandas.

May import: everything below it (games, analysis, plots); nothing imports it but
:mod:`analyzer.entry` and ``python -m analyzer``.
"""

from .group import BidlabGroup, fail, input_errors, main

__all__ = ["BidlabGroup", "fail", "input_errors", "main", "search_sized"]


def __getattr__(name: str):
    """The options' helpers, imported on first use (they load the games)."""
    if name == "search_sized":
        from . import options
        return getattr(options, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
