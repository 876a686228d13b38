"""What the pimc benchmark counts (``benchmarks/bench_pimc.py``): per decision of a pimc
seat, the worlds it solved, the null-window searches and nodes they took, and the CPU's
cycle counter across it, summed by the cards in the deciding seat's hand.

Counting is off unless the policy vector carries the address of a table of
``STAT_ROWS x NSTAT`` uint64 words (``setup.P_STATS``); a serial run then adds into it. A
row is the cards the seat holds (0..14, Pedro's kept trumps can make it more than six).

May import: :mod:`analyzer.bits`; never a game.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

from ...bits import load_word, store_word

# columns: decisions; those decided without a search (every legal card alike); worlds
# solved; null-window searches; nodes; cycles
ST_DECISIONS, ST_UNSEARCHED, ST_WORLDS, ST_SEARCHES, ST_NODES, ST_CYCLES = range(6)
NSTAT = 6
STAT_ROWS = 15


@intrinsic
def _read_cycles(typingctx):
    def codegen(context, builder, signature, args):
        fn = builder.module.declare_intrinsic("llvm.readcyclecounter", [],
                                              ir.FunctionType(ir.IntType(64), []))
        return builder.call(fn, [])

    return types.uint64(), codegen


@njit(cache=True)
def cycles():
    """The CPU's cycle counter (the benchmark converts it to seconds by the wall clock of the
    same run)."""
    return _read_cycles()


@njit(cache=True)
def add_stat(table, row, col, amount):
    """Add ``amount`` to the counter (``row``, ``col``) of the table at address ``table``."""
    r = min(row, STAT_ROWS - 1)
    i = r * NSTAT + col
    store_word(table, i, load_word(table, i) + np.uint64(amount))
