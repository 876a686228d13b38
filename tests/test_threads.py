"""``kit.threads.run_chunks``: the search kernels' chunks on threads."""

import threading

import numba
import pytest

from analyzer.games.kit.threads import run_chunks


@pytest.fixture(params=[1, 2], ids=["one thread", "two threads"])
def threads(request):
    prev = numba.get_num_threads()
    numba.set_num_threads(min(request.param, numba.config.NUMBA_NUM_THREADS))
    yield numba.get_num_threads()
    numba.set_num_threads(prev)


@pytest.mark.parametrize("n, chunk", [(0, 4), (1, 4), (10, 3), (12, 4), (7, 100), (9, 1)])
def test_every_item_once_in_chunks_of_the_size_asked(threads, n, chunk):
    seen = []
    lock = threading.Lock()

    def call(lo, hi):
        with lock:
            seen.append((lo, hi))

    run_chunks(call, n, chunk)
    seen.sort()
    assert [i for lo, hi in seen for i in range(lo, hi)] == list(range(n))
    assert all(hi - lo == chunk for lo, hi in seen[:-1])


def test_chunks_run_on_as_many_threads_as_numba_uses(threads):
    names = set()
    barrier = threading.Barrier(threads, timeout=10)

    def call(lo, hi):
        names.add(threading.current_thread().name)
        barrier.wait()  # each of the first chunks waits for the others: all run at once

    run_chunks(call, threads, 1)
    assert len(names) == threads


def test_an_error_in_a_chunk_reaches_the_caller(threads):
    def call(lo, hi):
        if lo == 4:
            raise ValueError("chunk 4 failed")

    with pytest.raises(ValueError, match="chunk 4 failed"):
        run_chunks(call, 8, 2)


def test_a_chunk_below_one_is_refused():
    with pytest.raises(ValueError, match="chunk >= 1"):
        run_chunks(lambda lo, hi: None, 5, 0)
