"""What every game's deal kernels share in form: a chunk's scratch, the stand-ins for a log
row when a chunk does not log, and (Pedro, Rook) the chunk kernels' type.

Pedro and Rook each have two chunk kernels, one in ``<game>.engine`` (no seat searches) and
one in ``<game>.search`` (dd and pimc seats), both the game's ``play_chunk`` with another
card search; only the record's integer type differs between the games. They stay four
short module-level functions: a kernel made by a factory closes over the game's functions,
and numba's cache cannot key such a closure (numba issue #6264), so it would compile
again in every process.

The engines' chunk kernels are serial (``kit.threads`` spreads the chunks) and made by
:func:`serial_chunk_kernel`. Pedro's and Rook's are compiled by numba's nopython pipeline
plus its copy propagation (``_numba_pipeline``): as fast as numba's parallel pipeline,
which they used before (Pedro, random players, one thread: 1.07 s for two million deals
against 1.20 s for the plain pipeline; a ``prange`` kernel: 1.06 s), and quicker to
compile (Pedro: about 22 s, against 27 s with ``parallel=True`` and 62 s for a ``prange``
kernel). King's keep numba's parallel pipeline: with the copy propagation alone its
heuristic hands ran about 10% slower (``king.engine``). One kernel serves plain and logged
deals: ``log`` as a runtime flag cost 2% (1.01 s against 0.99 s), and a second kernel
would compile the deal again.

May import: numba, numpy and the foundations (``_jit_cache``, ``_numba_pipeline``); never a
game (nor ``games.search``, which stands above it).
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

from ..._jit_cache import njit_on_first_call
from ..._numba_pipeline import CopyPropagatingCompiler


def chunk_signature(rec_type):
    """The type of a Pedro or Rook chunk kernel whose records are ``rec_type`` integers:
    ``chunk(seed, indices, lo, hi, rp, pols, sc, rec, hands_out, li, lu, log)``."""
    vec, masks = types.int64[:], types.uint64[:, :]
    return types.void(types.int64, vec, types.int64, types.int64, vec, vec, types.uint64[:],
                      rec_type[:, :], masks, types.int16[:, :], masks, types.boolean)


def serial_chunk_kernel(signature, parallel_pipeline: bool = False):
    """A chunk kernel of ``signature``: serial and without the GIL (threads run the chunks),
    compiled on its first call with copy propagation (see above), or by numba's parallel
    pipeline when ``parallel_pipeline`` (King's: faster there, though it has no parallel loop)."""
    if parallel_pipeline:
        return njit_on_first_call(signature, nogil=True, parallel=True)
    return njit_on_first_call(signature, nogil=True, pipeline_class=CopyPropagatingCompiler)


# Pedro's and Rook's records open with the auction's outcome, in these columns
AUCTION_COLUMNS = ("dealer", "maker", "bid", "trump")  # maker: Pedro's bidder, Rook's declarer


@njit(cache=True, inline="always")
def record_auction(rec, dealer, maker, bid, trump):
    """The auction's outcome into the first columns of a record (AUCTION_COLUMNS)."""
    rec[0] = dealer
    rec[1] = maker
    rec[2] = bid
    rec[3] = trump


@njit(cache=True, inline="always")
def scenario_seat(code, dealer):
    """The seat a scenario fixes, from its code: 1 + the seat's offset from the dealer (0: none,
    which gives -1)."""
    if code > 0:
        return (dealer + np.int64(code) - 1) % 4
    return -1


@njit(cache=True, inline="always")
def deal_scratch(deck_size):
    """A chunk's scratch for dealing, allocated once: the deck, the four hands and the
    policy and deal RNG states."""
    return (np.empty(deck_size, dtype=np.int64), np.empty(4, dtype=np.uint64),
            np.empty(1, dtype=np.uint64), np.empty(1, dtype=np.uint64))


@njit(cache=True, inline="always")
def no_log_row():
    """A chunk's stand-ins for a deal's log rows (int16, uint64), used when it does not log."""
    return np.empty(1, dtype=np.int16), np.empty(1, dtype=np.uint64)


@njit(cache=True)
def no_search(*args):
    """The card search of the kernels in which no seat searches: no card (-1), so the seat
    plays by its policy. It takes whatever arguments the game's search takes."""
    return -1
