"""Chunks of a search kernel spread over threads, from Python.

The engines' fast kernels run their chunks with numba's ``prange``. The search kernels
(``_<game>_search``) do not: a ``prange`` kernel takes about three times as long to
compile (Pedro's deal kernel: 102 s against 31 s serial, here), and a searched deal costs
0.1 - 1 s, so the few microseconds a chunk costs to start from Python are nothing. Those
kernels are serial numba functions that release the GIL; :func:`run_chunks` hands their
chunks to as many threads as numba is set to use, each thread taking the next chunk when
it is free, so one slow deal does not hold up the others. Every deal is a pure function
of its index, so the result does not depend on the threads or the chunks.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor


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
