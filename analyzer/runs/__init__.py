"""Runs that outgrow one frame, or one machine: chunks, run stores and executors.

* :mod:`.job`: what a run plays (:class:`Job`) and its chunks (:class:`Chunk`);
* :mod:`.store`: a run store (``--run-dir``): resume, extend, merge;
* :mod:`.executors`: where chunks are played: here, or on a Dask cluster;
* :mod:`.runner`: a run of any size in bounded memory (:func:`play`).

May import: the foundations, the games' registry and common module, the summary, and
:mod:`analyzer.rollout` (the spreader a hand evaluation grows on a cluster with).
"""

from .executors import EXECUTORS, ExecutorError, executor
from .job import Chunk, Job, default_chunk, plan, spread
from .runner import play
from .store import RunStore, RunStoreError, merged_row_parts, merged_stores, merged_summary


def __getattr__(name: str):
    # spreader lives with the hand evaluations (rollout), which import pandas: loaded when
    # asked for, so that a command's --help still loads neither numba nor pandas
    if name == "spreader":
        from ..rollout import spreader

        return spreader
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = ["EXECUTORS", "Chunk", "ExecutorError", "Job", "RunStore", "RunStoreError",
           "default_chunk", "executor", "merged_row_parts", "merged_stores", "merged_summary",
           "play", "plan", "spread", "spreader"]
