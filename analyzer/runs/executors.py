"""Where a run's chunks are played: here (the default), or on a Dask cluster.

* :class:`LocalExecutor` plays the chunks one after another in this process, each on every
  core (numba's threads). It imports nothing of Dask.
* :class:`DaskExecutor` sends them to a Dask cluster as tasks: an existing one
  (``--scheduler tcp://HOST:PORT``) or a ``LocalCluster`` of ``--workers`` processes that
  it starts on 127.0.0.1 and closes afterwards. Each worker process loads the kernels
  once, at its first task, a task lost with its worker is played again elsewhere, and
  results come back as they finish. A chunk is a pure function of its deals, so the
  numbers do not depend on the executor, the workers or the chunks.

Chunks for a cluster are sized from the measured cost of a deal: the run's first chunks are
small, one a worker, and the rest take about :data:`TASK_SECONDS` each on a worker (a pimc
run: tasks of tens of deals; a heuristic run: millions). A task's time leaves out the
loading of the kernels.

May import: the standard library, :mod:`.job`; Dask only inside :class:`DaskExecutor`.
"""

from __future__ import annotations

import functools
import itertools
import logging
import os
import re
import time
from collections.abc import Iterable, Iterator

from .job import FAST_CHUNK, ROWS_CHUNK, Chunk, Job
from .job import spread as spread_ranges

EXECUTORS = ("local", "dask", "dask-local")
SCHEDULER_ADDRESS = re.compile(r"^(tcp|tls)://(\[[0-9A-Fa-f:.]+\]|[^\s/:\[\]]+):(\d{1,5})$")
WORKER_WAIT = 30.0  # seconds a scheduler with no worker yet is given one (started beside it)
TASK_SECONDS = 3.0  # a task's work: long beside Dask's few milliseconds a task, short to lose
MAX_TASK_DEALS = 2 * FAST_CHUNK  # a worker holds one chunk's frame: about 300 MB at most
INSTALL_HINT = "pip install 'bidlab[dask]' (Dask and distributed)"


class ExecutorError(ValueError):
    """An executor that cannot start: Dask missing, a scheduler not reached, bad options."""


class LocalExecutor:
    """The chunks in this process, one after another, each on every core."""

    name = "local"
    workers = 1
    measures = False  # chunks are sized by the run's length, not by a probe

    def play(self, job: Job, chunks: Iterable[tuple[int, int]]) -> Iterator[Chunk]:
        for lo, n in chunks:
            yield job.play(lo, n)

    def close(self) -> None:
        pass


_WARM: set[tuple[str, str, str]] = set()  # (kind, rules, policy) a worker has loaded


def _task(threads: int | None, fn, lo: int, n: int):
    """A task: ``fn(lo, n)`` on ``threads`` numba threads (None: numba's default)."""
    if threads:
        import numba

        numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
    return fn(lo, n)


def _play(job: Job, lo: int, n: int) -> Chunk:
    """One chunk on a worker. Its ``seconds`` time the chunk alone: the worker's first
    task loads the kernels first (once a process, from numba's cache), outside that time."""
    key = (job.kind, job.rules, job.policy)
    if key not in _WARM:
        job.play(lo, 1)
        _WARM.add(key)
    t0 = time.perf_counter()
    chunk = job.play(lo, n)
    chunk.seconds = time.perf_counter() - t0
    return chunk


class DaskExecutor:
    """Chunks as tasks on a Dask cluster: ``scheduler`` (an address), or a new LocalCluster
    of ``workers`` processes on 127.0.0.1."""

    measures = True

    def __init__(self, scheduler: str | None = None, workers: int | None = None):
        try:
            from distributed import Client, LocalCluster
        except ImportError:
            raise ExecutorError(f"--executor dask needs Dask: {INSTALL_HINT}") from None
        self.cluster = None
        self.threads = None
        try:
            if scheduler:
                self.client = Client(scheduler, timeout="10s")
                self.name = f"dask {scheduler}"
                self._wait_for_a_worker(scheduler)
            else:
                n = workers or max(1, (os.cpu_count() or 1))
                # numba's threads split the cores among the workers, one task each
                self.threads = max(1, (os.cpu_count() or 1) // n)
                # no dashboard; the scheduler's own HTTP routes on a free port, not on
                # 8787 (taken, it warned on stderr)
                self.cluster = LocalCluster(n_workers=n, threads_per_worker=1,
                                            host="127.0.0.1", dashboard_address=None,
                                            scheduler_kwargs={"dashboard_address":
                                                              "127.0.0.1:0"},
                                            silence_logs=logging.ERROR)
                self.client = Client(self.cluster)
                self.name = f"dask-local ({n} workers on 127.0.0.1)"
        except OSError as e:
            self.close()
            raise ExecutorError(f"cannot reach the Dask scheduler {scheduler}: {e}") from None
        self.workers = max(1, len(self.client.scheduler_info()["workers"]))

    def _wait_for_a_worker(self, scheduler: str) -> None:
        """ExecutorError when the scheduler has had no worker for :data:`WORKER_WAIT`
        seconds: its tasks would wait for ever, and the run with them, without a word."""
        if self.client.scheduler_info()["workers"]:
            return
        try:
            self.client.wait_for_workers(1, timeout=WORKER_WAIT)
        except TimeoutError:
            self.close()
            raise ExecutorError(f"the Dask scheduler {scheduler} has no worker (waited "
                                f"{WORKER_WAIT:g} s): start one with dask worker "
                                f"{scheduler}") from None

    def play(self, job: Job, chunks: Iterable[tuple[int, int]]) -> Iterator[Chunk]:
        """The chunks' results as they finish."""
        task = functools.partial(_task, self.threads, functools.partial(_play, job))
        for _, chunk in self._map(task, chunks):
            yield chunk

    def map_parts(self, fn, first: int, n: int, progress=None, weight: int = 1) -> Iterator:
        """``fn(lo, k)`` for deals ``first .. first + n - 1`` in parts (:func:`~.job.spread`:
        a few a worker), as tasks, the results in the parts' order; ``progress(k * weight)``
        after each. For work whose cost a deal is not measured first: a hand's samples, a
        ladder, a report's sections."""
        ranges = spread_ranges(first, n, self.workers)
        for (_, k), result in zip(ranges, self.map_ordered(fn, ranges), strict=True):
            if progress:
                progress(k * weight)
            yield result

    def map_ordered(self, fn, ranges: Iterable[tuple[int, int]]) -> Iterator:
        """``fn(lo, n)`` for each range, as tasks, the results in the ranges' order."""
        waiting, want = {}, 0
        for k, result in self._map(functools.partial(_task, self.threads, fn), ranges):
            waiting[k] = result
            while want in waiting:
                yield waiting.pop(want)
                want += 1

    def _map(self, fn, ranges: Iterable[tuple[int, int]]) -> Iterator[tuple[int, object]]:
        """(index, ``fn(lo, n)``) for each range as it finishes, with at most two tasks a
        worker submitted at a time: a worker always has its next task, and results that
        finish early (waiting for an earlier one) stay few."""
        from distributed import as_completed

        todo = enumerate(ranges)
        index = {}

        def submit(k: int, lo: int, n: int):
            future = self.client.submit(fn, lo, n, retries=3, pure=False)
            index[future.key] = k
            return future

        running = as_completed([submit(k, lo, n) for k, (lo, n) in
                                itertools.islice(todo, 2 * self.workers)])
        try:
            for future in running:
                result = future.result()
                k = index.pop(future.key)
                future.release()
                following = next(todo, None)
                if following is not None:
                    running.add(submit(following[0], *following[1]))
                yield k, result
        finally:
            self.client.cancel(list(running.futures))

    def close(self) -> None:
        for thing in (getattr(self, "client", None), self.cluster):
            if thing is not None:
                thing.close()


def executor(name: str, scheduler: str | None = None, workers: int | None = None):
    """The executor named ``name`` (:data:`EXECUTORS`); ExecutorError for options that do
    not go with it."""
    if name not in EXECUTORS:
        raise ExecutorError(f"unknown executor {name!r}; use one of {', '.join(EXECUTORS)}")
    if name == "dask" and not scheduler:
        raise ExecutorError("--executor dask needs --scheduler tcp://HOST:PORT (a running "
                            "dask scheduler); --executor dask-local starts one here")
    if name != "dask" and scheduler:
        raise ExecutorError("--scheduler goes with --executor dask")
    address = SCHEDULER_ADDRESS.match(scheduler) if scheduler else None
    if scheduler and not (address and 0 < int(address[3]) < 65536):
        raise ExecutorError(f"--scheduler {scheduler!r} is not a scheduler's address: give "
                            "tcp://HOST:PORT (tls:// with TLS), as dask scheduler prints it")
    if name != "dask-local" and workers:
        raise ExecutorError("--workers goes with --executor dask-local")
    if name == "local":
        return LocalExecutor()
    return DaskExecutor(scheduler if name == "dask" else None, workers)


def task_size(seconds_per_deal: float, remaining: int, workers: int, rows: bool) -> int:
    """Deals a task: about :data:`TASK_SECONDS` of work at the measured pace, at most
    :data:`MAX_TASK_DEALS` (``rows`` kept: :data:`ROWS_CHUNK`, a worker's memory), and
    small enough that every worker gets two tasks."""
    by_time = int(TASK_SECONDS / max(seconds_per_deal, 1e-9))
    share = -(-remaining // (2 * max(1, workers)))
    return max(1, min(by_time, ROWS_CHUNK if rows else MAX_TASK_DEALS, share))

