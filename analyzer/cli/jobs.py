"""A run of :mod:`analyzer.runs` from the command line: its executor, its run store, its
progress, and what it made, printed. ``simulate`` and ``resume`` (:mod:`.play`) and
``bid-chart`` (:mod:`.chart`) share it.

May import: :mod:`.group` (what a stop says), :mod:`.options`, the runs package, the
games' registry, documents.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

import click

from .. import runs
from ..documents import dumps
from ..games import game as game_of
from ..limits import TimeLimitError, require_time
from .group import ABORT_NOTES
from .options import with_progress


def require_apart(run_dir: str, output: str, option: str, why: str) -> None:
    """UsageError, before the run, when ``output`` (what ``option`` names: --out's table,
    --out-dir's chart) is in ``run_dir`` or holds it: an output among the chunks made every
    later resume refuse it (or replaced them), which a new store's own checks, finding no
    store there yet, could not see. ``why``: what would happen, in words."""
    store, target = Path(run_dir).resolve(), Path(output).resolve()
    if store.is_relative_to(target) or target.is_relative_to(store):
        raise click.UsageError(f"--run-dir {run_dir} and {option} {output} overlap: {why}")


def run_job(job: runs.Job, first: int, deals: int, run_dir, chunk, where: tuple, out,
            progress, extend: int = 0, out_dir=None):
    """Play ``job`` (in the run store ``run_dir``, if any, ``extend`` more deals there) on
    the executor ``where`` names (executor, scheduler, workers): what it made. The store
    keeps ``out`` (the rows' table) and ``out_dir`` (a chart's folder) for ``resume``."""
    ex = runs.executor(*where)
    what = "--deals"  # what a refusal for the run's time names
    try:
        store = None
        if run_dir is not None:
            store = runs.RunStore.open(run_dir, job, first, deals, chunk or job.chunk_for(deals),
                                       None if out is None else os.path.abspath(out),
                                       None if out_dir is None else os.path.abspath(out_dir))
            store.verify()  # a damaged or foreign chunk is named now, not after the run
            if extend:
                store.extend(extend)
            job, first, deals = store.job, store.first, store.deals
            # checked before the store is touched (a refused new store leaves no folder)
            if store.n_done < deals:
                store.require_this_build()
            if extend:
                what = f"--extend {extend:,} makes {deals:,} deals; playing the"
            elif store.n_done:
                what = "resuming the run, its deals left:"
            require_time(deals - store.n_done, what)
        try:
            with store.lock() if store is not None else contextlib.nullcontext():
                if store is not None:
                    store.save()
                    ABORT_NOTES.append(f"the finished chunks are kept: bidlab resume {run_dir} "
                                       "plays the rest")
                try:
                    left = deals - (store.n_done if store is not None else 0)
                    return with_progress(progress, left, lambda bar: runs.play(
                        job, first, deals, ex, store, chunk, bar, out, what))
                except TimeLimitError:  # the same run would be refused again: undo it
                    if store is not None:
                        store.rollback()
                    raise
        finally:
            ABORT_NOTES.clear()
            if store is not None:
                store.drop_if_empty()
    finally:
        ex.close()


def show(job: runs.Job, result, as_json: bool, out=None, out_dir=None) -> None:
    """Print a job's result (a simulation's summary, or a bid chart), and say what was
    written: ``out`` (rows), ``out_dir`` (a chart's folder, written here)."""
    if job.kind == "bid-chart":
        from ..documents import frames, provenance

        g = game_of(job.rules)
        click.echo(dumps({**frames(result), "provenance": provenance(result.provenance)})
                   if as_json else g.render_chart(result))
        if out_dir is not None:
            g.write_chart(result, Path(out_dir))
            click.echo(f"wrote {out_dir}/", err=True)
        return
    click.echo(dumps(result.to_document()) if as_json else result.to_text())
    if out is not None:
        click.echo(f"wrote {out} ({result.provenance['n']} rows)", err=True)
