"""A run of any size in bounded memory: chunks played by an executor, merged from their exact
statistics, rows streamed to disk, and kept in a run store when one is given.

Memory holds one chunk at a time (at most a million fast deals, a quarter of that with the
rows), however many deals the run has; the result (a simulation's summary, a bid chart) is
the merge of the chunks' statistics, equal bit for bit to that of the whole run at once.

>>> from analyzer.runs import Job
>>> s = play(Job.of("pedro", seed=1, policy="heuristic"), first=0, deals=3000, chunk=1000)
>>> s.provenance["n"], s.provenance["first"]
(3000, 0)

May import: the foundations (io, limits, summary, _jit_cache), :mod:`.job`, :mod:`.store`,
:mod:`.executors`.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator

from .. import io
from .._jit_cache import build_digest
from ..games import common
from ..limits import Pace, check_count, check_counts, require_time
from .executors import ExecutorError, LocalExecutor, task_size
from .job import Chunk, Job
from .store import RunStore


def play(job: Job, first: int, deals: int, executor=None, store: RunStore | None = None,
         chunk: int | None = None, progress: Callable[[int], None] | None = None,
         out: str | None = None, what: str = "--deals"):
    """Play deals ``first .. first + deals - 1`` of ``job`` on ``executor`` (here by
    default): what they make (:meth:`Job.result`: a Summary, or a BidChart).

    ``store`` keeps every finished chunk and is resumed where it stands (its own first
    deal and size then rule); ``out`` receives the rows (``job.rows`` must be set), written
    atomically once the run is whole. ``chunk``: deals a chunk (by default about a
    hundredth of the run, or sized by the cluster's measured pace); the numbers never
    depend on it, nor on the executor. ``progress(k)`` follows each chunk played: a resumed
    run's counts only the deals left, so that its time left is not measured on deals
    played before. A refusal for the run's time names the deals left ``what`` (the option
    that asked for them).
    """
    ex = executor or LocalExecutor()
    if store is not None:
        first, deals = store.first, store.deals
        # a resumed run cuts its chunks where the first one did, though it was stopped
        # before its first chunk (its --chunk is in the manifest); a new one on a cluster
        # measures them
        if chunk is None and (store.saved is not None or store.n_done or not ex.measures):
            chunk = store.chunk
    check_count("first", first, 0)  # 0 deals read as a bare StopIteration with out=, else
    check_count("deals", deals)     # as "nothing to merge"
    check_counts(optional=("chunk",), chunk=chunk)
    if out is not None and not job.rows:
        raise ValueError("rows go to --out only from a job that keeps them (rows=True)")
    done: list[tuple[int, int]] = store.done() if store is not None else []
    if store is not None and sum(n for _, n in done) < store.deals:
        store.require_this_build()  # before a deal is played: nothing left half mixed
    states: dict[int, dict] = {}
    attrs: dict = {}
    left = deals - sum(n for _, n in done)
    # a cluster's pace is not this machine's: only the limit no machine can beat applies
    pace = Pace(left, what) if not ex.measures else require_time(left, what)

    def todo(size: int) -> Iterator[tuple[int, int]]:
        return store.missing(size) if store is not None else job.cuts(first, deals, done, size)

    def sized(size: int) -> None:  # the store keeps the size the cluster measured
        if store is not None:
            store.set_chunk(size)

    def finished() -> Iterator[Chunk]:
        count = 0
        for c in _played(job, ex, todo, chunk, deals, sized):
            if c.kernels and c.kernels != build_digest():  # kept by nothing: not one deal
                raise ExecutorError(
                    f"deals {c.lo:,}..{c.lo + c.n - 1:,} were played by another build of "
                    "bidlab (a worker's players' sources differ from this one's): install the "
                    "same bidlab on every worker")
            if store is not None:
                store.record(c)
            else:
                done.append((c.lo, c.n))
                states[c.lo] = c.state
            attrs.update(c.attrs)
            count += c.n
            if pace is not None:
                pace.step(count)
            if progress:
                progress(c.n)
            yield c

    if out is not None and store is None:  # rows stream to the file as the chunks finish
        chunks = _in_order(finished(), first)
        head = next(chunks)
        parts = (c.rows for c in itertools.chain([head], chunks))
        io.write_table_parts(parts, out, {**head.attrs, "first": first, "n": deals})
    else:
        for _ in finished():
            pass
    if store is None:
        return job.result([states[lo] for lo in sorted(states)], attrs)
    result = store.result()  # a damaged chunk is refused before --out is touched
    if out is not None:
        io.write_table_parts(store.row_parts(), out, store.attrs())
    return result


def _played(job: Job, ex, todo: Callable[[int], Iterator], chunk: int | None, deals: int,
            sized: Callable[[int], None]) -> Iterator[Chunk]:
    """The chunks ``todo(size)`` names, played on ``ex``. A cluster that measures its pace
    plays a small chunk on each worker first, then sizes the rest from their time a deal
    (``sized(size)`` hears the size)."""
    # a two-level chart's chunks are not alike (its first deals are searched): its sizes
    # are set, not measured
    if chunk or not ex.measures or job.base is not None:
        yield from ex.play(job, todo(chunk or job.chunk_for(deals)))
        return
    # one small chunk a worker, side by side: the pace of the slowest sizes the rest
    probe = todo(max(1, common.first_batch(common.parse_policies(job.policy)) // ex.workers))
    measured = []
    for c in ex.play(job, itertools.islice(probe, ex.workers)):
        measured.append(c.seconds / c.n)
        yield c
    if not measured:
        return
    left = sum(n for _, n in todo(max(deals, 1)))
    if left:
        size = task_size(max(measured), left, ex.workers, job.rows)
        sized(size)
        yield from ex.play(job, todo(size))


def _in_order(chunks: Iterator[Chunk], first: int) -> Iterator[Chunk]:
    """``chunks`` in deal order (a cluster finishes them in any order): the ones that come
    early wait for the ones before them."""
    waiting, at = {}, first
    for c in chunks:
        waiting[c.lo] = c
        while at in waiting:
            c = waiting.pop(at)
            at += c.n
            yield c
