"""Chunks of a deal kernel spread over threads, from Python.

Pedro's and Rook's deal kernels, with or without the search, are one serial numba function
each (a chunk of deals, logged or not) that releases the GIL, not a ``prange`` kernel: a
``prange`` kernel takes about three times as long to compile (Pedro's deal kernel: 102 s
against 31 s serial, here). :func:`run_chunks` hands pieces of the deals to as many
threads as numba is set to use, each thread taking the next piece when it is free, large
ones first and small ones last, so that the calls from Python are few and one slow deal
does not hold up the others (two threads' deals/s within 3% of the ``prange`` kernels',
2026-12-04). Every deal is a pure function of its index, so the result does not depend on
the threads or the pieces. :func:`threaded_kernels` makes a game's ``simulate_kernel`` and
``log_kernel`` from its chunk kernel.

May import: numpy and numba; never a game.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, wait

import numpy as np

# The worker threads, kept for the life of the process, one pool a thread count. A hand
# evaluation calls its kernels 60 to 120 times, mostly on a few thousand deals; starting
# and joining fresh threads cost 350-420 us a call against 90-110 us with kept ones
# (2 threads, 2026-12-07), about a tenth of a small two-level evaluation.
_pools: dict[int, ThreadPoolExecutor] = {}
_pools_lock = threading.Lock()


def _pool(threads: int) -> ThreadPoolExecutor:
    with _pools_lock:
        if threads not in _pools:
            _pools[threads] = ThreadPoolExecutor(max_workers=threads,
                                                 thread_name_prefix="bidlab-chunks")
        return _pools[threads]


def _forget_pools() -> None:
    """In a forked child (a process executor's worker): the pools' threads did not come
    along, and a pool that believes it has idle workers would never run a piece."""
    global _pools_lock
    _pools.clear()
    _pools_lock = threading.Lock()  # another thread may have held it at the fork


os.register_at_fork(after_in_child=_forget_pools)


def run_chunks(call: Callable[[int, int], None], n: int, chunk: int) -> None:
    """``call(lo, hi)`` over ``range(n)`` in pieces of at least ``chunk`` items, on up to
    ``numba.get_num_threads()`` threads (in this thread when one suffices).

    Each free thread takes the next piece: half of what is left divided among the threads,
    never less than ``chunk`` (guided scheduling). The first pieces are large, so a fast
    kernel is called a few dozen times per batch rather than once per chunk (each call
    costs tens of microseconds of Python, which made two threads 6-9% slower at 2,048
    heuristic Pedro deals a chunk, 2026-12-04); the last are ``chunk`` items, so the
    threads finish together even when one deal takes a second (a search)."""
    import numba

    if chunk < 1:
        raise ValueError(f"need chunk >= 1; got {chunk}")
    threads = max(1, min(numba.get_num_threads(), -(-n // chunk)))
    lock = threading.Lock()
    state = {"at": 0, "stop": False}

    def take() -> tuple[int, int] | None:
        with lock:
            lo = state["at"]
            if lo >= n or state["stop"]:
                return None
            hi = min(n, lo + max(chunk, (n - lo) // (2 * threads)))
            state["at"] = hi
            return lo, hi

    def work() -> None:
        while (piece := take()) is not None:
            call(*piece)

    if threads == 1:
        work()
        return
    futures = [_pool(threads).submit(work) for _ in range(threads)]
    try:
        for future in futures:
            future.result()  # the first error (or Ctrl-C) ends the wait ...
    finally:
        state["stop"] = True  # ... no thread takes another piece, and the pieces running
        wait(futures)  # finish before the caller's arrays go (as the pool's shutdown did)


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
