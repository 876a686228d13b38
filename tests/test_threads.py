"""``kit.threads.run_chunks``: a kernel's deals in pieces on threads."""

import multiprocessing
import threading
import warnings

import numba
import pytest

from analyzer.games.kit.threads import run_chunks


@pytest.fixture(params=[1, 2], ids=["one thread", "two threads"])
def threads(request):
    prev = numba.get_num_threads()
    numba.set_num_threads(min(request.param, numba.config.NUMBA_NUM_THREADS))
    yield numba.get_num_threads()
    numba.set_num_threads(prev)


def _pieces(n: int, chunk: int) -> list[tuple[int, int]]:
    seen = []
    lock = threading.Lock()

    def call(lo, hi):
        with lock:
            seen.append((lo, hi))

    run_chunks(call, n, chunk)
    return sorted(seen)


@pytest.mark.parametrize("n, chunk", [(0, 4), (1, 4), (10, 3), (12, 4), (7, 100), (9, 1),
                                      (1000, 7)])
def test_every_item_once_in_pieces_of_at_least_the_chunk(threads, n, chunk):
    seen = _pieces(n, chunk)
    assert [i for lo, hi in seen for i in range(lo, hi)] == list(range(n))
    sizes = [hi - lo for lo, hi in seen]
    assert all(k >= chunk for k in sizes[:-1])  # the last piece may be what is left
    assert sizes == sorted(sizes, reverse=True)  # large pieces first, small ones last


def test_a_fast_kernel_is_called_a_few_times_and_a_slow_one_ends_in_chunks(threads):
    """Guided pieces: a batch of 400,000 deals in chunks of 2,048 is a few dozen calls (not
    196), and the last pieces are single chunks, so the threads finish together."""
    seen = _pieces(400_000, 2048)
    assert len(seen) <= 30
    sizes = [hi - lo for lo, hi in seen]
    assert sizes[-2] == 2048 and sizes[-1] <= 2048
    assert max(hi - lo for lo, hi in seen) <= 400_000 // (2 * threads)


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
        if lo <= 4 < hi:
            raise ValueError("chunk 4 failed")

    with pytest.raises(ValueError, match="chunk 4 failed"):
        run_chunks(call, 8, 2)


def test_a_chunk_below_one_is_refused():
    with pytest.raises(ValueError, match="chunk >= 1"):
        run_chunks(lambda lo, hi: None, 5, 0)



@pytest.fixture
def two_threads():
    prev = numba.get_num_threads()
    numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
    if numba.get_num_threads() < 2:
        numba.set_num_threads(prev)
        pytest.skip("numba offers one thread here")
    yield
    numba.set_num_threads(prev)


def test_the_threads_are_kept_from_one_call_to_the_next(two_threads):
    """A hand evaluation calls its kernels a hundred times or more: the worker threads
    start once, not once a call (about 0.3 ms a call saved, 2026-12-07)."""
    workers = []
    for _ in range(2):
        seen = set()  # the Thread objects themselves: alive, so never confused
        barrier = threading.Barrier(2, timeout=10)

        def call(lo, hi, seen=seen, barrier=barrier):
            seen.add(threading.current_thread())
            barrier.wait()

        run_chunks(call, 2, 1)
        workers.append(seen)
    assert workers[0] == workers[1]


def _child_runs_chunks(queue) -> None:
    numba.set_num_threads(2)
    queue.put(_pieces(100, 10))


def test_a_forked_child_runs_its_chunks_on_threads_of_its_own(two_threads):
    """A process executor's worker may be forked from a process whose pool has run: the
    child must not wait for threads that did not come along with it."""
    barrier = threading.Barrier(2, timeout=10)
    run_chunks(lambda lo, hi: barrier.wait(), 2, 1)  # the parent's two workers ran
    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    with warnings.catch_warnings():  # Python 3.12 warns of fork() with threads
        warnings.simplefilter("ignore", DeprecationWarning)
        child = context.Process(target=_child_runs_chunks, args=(queue,))
        child.start()
    child.join(timeout=60)
    if child.is_alive():
        child.kill()
        pytest.fail("the forked child hung running its chunks")
    seen = queue.get(timeout=10)
    assert [i for lo, hi in seen for i in range(lo, hi)] == list(range(100))
