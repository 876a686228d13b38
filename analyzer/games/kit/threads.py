"""Chunks of a deal kernel spread over threads, from Python.

Pedro's and Rook's deal kernels, with or without the search, are one serial numba function
each (a chunk of deals, logged or not) that releases the GIL, not a ``prange`` kernel: a
``prange`` kernel takes about three times as long to compile (Pedro's deal kernel: 102 s
against 31 s serial, here), and a chunk of thousands of deals (or one searched deal, 0.1 -
1 s) makes the few microseconds a chunk costs to start from Python nothing.
:func:`run_chunks` hands the chunks to as many threads as numba is set to use, each thread
taking the next chunk when it is free, so one slow deal does not hold up the others. Every
deal is a pure function of its index, so the result does not depend on the threads or the
chunks. :func:`threaded_kernels` makes a game's ``simulate_kernel`` and ``log_kernel``
from its chunk kernel.

May import: numpy and numba; never a game.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import numpy as np


def run_chunks(call: Callable[[int, int], None], n: int, chunk: int) -> None:
    """``call(lo, hi)`` for each chunk [lo, hi) of ``range(n)``, ``chunk`` items each, on up
    to ``numba.get_num_threads()`` threads (in this thread when one suffices)."""
    import numba

    if chunk < 1:
        raise ValueError(f"need chunk >= 1; got {chunk}")
    bounds = [(lo, min(n, lo + chunk)) for lo in range(0, n, chunk)]
    threads = min(numba.get_num_threads(), len(bounds))
    if threads <= 1:
        for lo, hi in bounds:
            call(lo, hi)
        return
    pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="bidlab-search")
    try:
        for future in [pool.submit(call, lo, hi) for lo, hi in bounds]:
            future.result()  # the first error (or Ctrl-C) ends the wait ...
    finally:
        pool.shutdown(wait=True, cancel_futures=True)  # ... and the chunks not yet started


def threaded_kernels(chunk_kernel, nlogi: int, nlogu: int, log_chunk: int | None = None):
    """``(simulate_kernel, log_kernel)`` run over ``chunk_kernel(seed, indices, lo, hi, rp,
    pols, sc, rec, hands_out, li, lu, log)`` on threads:

    * ``simulate_kernel(seed, indices, chunk, rp, pols, sc, rec, hands_out)``: ``chunk`` deals
      a call, no log;
    * ``log_kernel(seed, indices, rp, pols, sc, rec, hands_out, li, lu)``: with the logs
      (``nlogi`` int16 and ``nlogu`` uint64 slots a deal), ``log_chunk`` deals a call (all in
      one call by default; 1 for searching seats, a thread a deal).
    """

    def simulate_kernel(seed, indices, chunk, rp, pols, sc, rec, hands_out):
        li, lu = np.empty((0, nlogi), np.int16), np.empty((0, nlogu), np.uint64)
        run_chunks(lambda lo, hi: chunk_kernel(seed, indices, lo, hi, rp, pols, sc, rec,
                                               hands_out, li, lu, False), len(indices), chunk)

    def log_kernel(seed, indices, rp, pols, sc, rec, hands_out, li, lu):
        run_chunks(lambda lo, hi: chunk_kernel(seed, indices, lo, hi, rp, pols, sc, rec,
                                               hands_out, li, lu, True),
                   len(indices), log_chunk or max(len(indices), 1))

    return simulate_kernel, log_kernel
