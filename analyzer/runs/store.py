"""A run store: a folder that keeps a run chunk by chunk, so that it can be resumed after a
kill, extended, and merged with other runs.

Layout of ``DIR``::

    manifest.json              what the run plays (job: rules, seed, policy, contract, rows),
                               its first deal, the deals asked for, the chunk size, the deal
                               ranges done, and where its rows go (``out``)
    chunks/<lo>+<n>.json       a finished chunk's summary statistics (exact integers)
    chunks/<lo>+<n>.parquet    its rows, when the run keeps them

Every file is written atomically (a temporary name, then a rename), the rows before the
statistics, so a chunk whose ``.json`` exists is whole; a kill loses at most the chunks
being played. The chunk files are the truth; the manifest's ``done`` list follows them.
One process at a time plays into a store (a lock on ``DIR/.lock``).

May import: the foundations (io, summary), :mod:`.job`.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import re
from collections.abc import Iterator
from pathlib import Path

import pandas as pd

from .. import __version__, io
from ..summary import Summary, merge
from .job import Chunk, Job

FORMAT = "bidlab-run/1"
MANIFEST = "manifest.json"
_CHUNK_NAME = re.compile(r"^(\d{19})\+(\d+)\.json$")


class RunStoreError(ValueError):
    """A folder that is not a run store, or one that does not match what was asked."""


class RunStore:
    """The run store in ``folder`` (see the module's docstring)."""

    def __init__(self, folder: str | os.PathLike):
        self.folder = Path(folder)
        self.chunks = self.folder / "chunks"
        path = self.folder / MANIFEST
        if not path.is_file():
            raise RunStoreError(f"{folder} is not a bidlab run store (no {MANIFEST}); start "
                                f"one with simulate --run-dir {folder}")
        try:
            m = json.loads(path.read_text(encoding="utf-8"))
            if m.get("format") != FORMAT:  # another command's folder: a chart, a report
                raise ValueError(f"its format is {m.get('format')!r}, not {FORMAT!r}: a "
                                 "folder made by --run-dir is needed")
            self.job = Job(**m["job"])
            self.first, self.deals, self.chunk = int(m["first"]), int(m["deals"]), int(m["chunk"])
            self.out = m.get("out")
        except (ValueError, KeyError, TypeError) as e:
            raise RunStoreError(f"{path} is not a bidlab run manifest ({e})") from None

    # ---- making one ------------------------------------------------------------------------

    @classmethod
    def open(cls, folder: str | os.PathLike, job: Job, first: int, deals: int, chunk: int,
             out: str | None = None) -> RunStore:
        """The store in ``folder`` for ``job``: a new one (the folder missing or empty), or
        the existing one when it plays the same job from the same first deal (then it is
        resumed, and ``deals`` above its size extends it). RunStoreError for a folder of
        other files or a store of another run, naming what differs."""
        p = Path(folder)
        if p.exists() and not p.is_dir():
            raise RunStoreError(f"--run-dir {folder} is a file, not a folder")
        if p.is_dir() and any(p.iterdir()):
            store = cls(p)
            store.require(job, first)
            if deals < store.deals:
                raise RunStoreError(
                    f"{folder} holds a run of {store.deals:,} deals; --deals {deals:,} would "
                    f"shrink it (give {store.deals:,} or more, or another --run-dir)")
            if deals > store.deals:
                store.extend(deals - store.deals)
            if out is not None and out != store.out:
                store.out = out
                store._write_manifest()
            return store
        p.mkdir(parents=True, exist_ok=True)
        (p / "chunks").mkdir(exist_ok=True)
        _write_json(p / MANIFEST, {"format": FORMAT, "bidlab_version": __version__,
                                   "job": job.to_dict(), "first": first, "deals": deals,
                                   "chunk": chunk, "out": out, "done": []})
        return cls(p)

    def require(self, job: Job, first: int | None = None) -> None:
        """RunStoreError unless this store plays ``job`` (from ``first``), naming the first
        field that differs."""
        mine, theirs = self.job.to_dict(), job.to_dict()
        if theirs.pop("rows") and not mine.pop("rows"):
            raise RunStoreError(f"{self.folder} kept no rows (its run had no --out): start "
                                "another --run-dir to have them")
        for name in theirs:
            if mine[name] != theirs[name]:
                raise RunStoreError(f"{self.folder} holds a run with {name} {mine[name]}, not "
                                    f"{theirs[name]}; use another --run-dir, or bidlab resume "
                                    f"{self.folder}")
        if first is not None and first != self.first:
            raise RunStoreError(f"{self.folder} holds a run from deal {self.first:,}, not "
                                f"--first {first:,}")

    def extend(self, more: int) -> None:
        """``more`` deals after the ones asked for so far, continuing the same stream."""
        if more < 1:
            raise RunStoreError(f"--extend needs at least 1 deal, got {more}")
        self.deals += more
        self._write_manifest()

    def set_chunk(self, size: int) -> None:
        """Cut the chunks still to play ``size`` deals each (a resumed run cuts them so too)."""
        self.chunk = int(size)
        self._write_manifest()

    # ---- what it holds -------------------------------------------------------------------

    def done(self) -> list[tuple[int, int]]:
        """The finished chunks ``(lo, n)``, in deal order."""
        found = (_CHUNK_NAME.match(p.name) for p in self.chunks.iterdir()) \
            if self.chunks.is_dir() else ()
        return sorted((int(m[1]), int(m[2])) for m in found if m)

    def missing(self, chunk: int | None = None) -> Iterator[tuple[int, int]]:
        """The chunks still to play, cut at the store's chunk boundaries (``chunk`` deals
        each from the first deal, or ``chunk`` when given)."""
        return self.job.cuts(self.first, self.deals, self.done(), chunk or self.chunk)

    @property
    def n_done(self) -> int:
        return sum(n for _, n in self.done())

    def record(self, c: Chunk) -> None:
        """Keep a finished chunk: its rows, then its statistics (the chunk counts as done
        once they are there), then the manifest's list of what is done."""
        name = f"{c.lo:019d}+{c.n}"
        if self.job.rows:
            if c.rows is None:
                raise ValueError("this run keeps its rows; the chunk has none")
            io.write_table(c.rows, self.chunks / f"{name}.parquet", c.attrs)
        _write_json(self.chunks / f"{name}.json", {"attrs": c.attrs, "state": c.state})
        self._write_manifest()

    def result(self):
        """What every finished chunk makes together (:meth:`Job.result`): a summary, or a
        bid chart."""
        done = self.done()
        if not done:
            raise RunStoreError(f"{self.folder} has no finished chunk yet")
        return self.job.result([self._chunk_json(lo, n)["state"] for lo, n in done],
                               self.attrs())

    def attrs(self) -> dict:
        """The rows' provenance for the whole run (the first chunk's, spanning them all)."""
        lo, n = self.done()[0]
        return {**self._chunk_json(lo, n)["attrs"], "first": self.first, "n": self.n_done}

    def row_parts(self) -> Iterator[pd.DataFrame]:
        """The rows chunk by chunk, in deal order (one chunk in memory at a time)."""
        if not self.job.rows:
            raise RunStoreError(f"{self.folder} kept no rows (its run had no --out)")
        for lo, n in self.done():
            df = io.read_table(self.chunks / f"{lo:019d}+{n}.parquet")
            df.attrs = {}
            yield df

    def complete(self) -> bool:
        return next(self.missing(), None) is None

    @contextlib.contextmanager
    def lock(self) -> Iterator[None]:
        """Hold the store for this process; RunStoreError when another one plays into it."""
        with open(self.folder / ".lock", "a+") as f:
            try:
                fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise RunStoreError(f"{self.folder} is in use by another bidlab process; wait "
                                    "for it, or use another --run-dir") from None
            try:
                yield
            finally:
                fcntl.flock(f, fcntl.LOCK_UN)

    # ---- helpers -------------------------------------------------------------------------

    def _chunk_json(self, lo: int, n: int) -> dict:
        return json.loads((self.chunks / f"{lo:019d}+{n}.json").read_text(encoding="utf-8"))

    def _write_manifest(self) -> None:
        _write_json(self.folder / MANIFEST, {
            "format": FORMAT, "bidlab_version": __version__, "job": self.job.to_dict(),
            "first": self.first, "deals": self.deals, "chunk": self.chunk, "out": self.out,
            "done": [list(r) for r in _joined(self.done())]})


def _joined(ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Adjacent ranges as one: the manifest lists what is done in a few lines."""
    out: list[list[int]] = []
    for lo, n in ranges:
        if out and out[-1][0] + out[-1][1] == lo:
            out[-1][1] += n
        else:
            out.append([lo, n])
    return [tuple(r) for r in out]


def _write_json(path: Path, data: dict) -> None:
    with io.atomic_open(path, say=False) as f:
        f.write((json.dumps(data, indent=1) + "\n").encode())


def merged_summary(folders: list[str]) -> Summary:
    """The summary of several run stores of one game, rules and policy (their deals must not
    overlap); RunStoreError naming the first mismatch."""
    stores = [RunStore(f) for f in folders]
    for s in stores[1:]:
        for name in ("rules", "policy", "contract"):
            a, b = getattr(stores[0].job, name), getattr(s.job, name)
            if a != b:
                raise RunStoreError(f"cannot merge {stores[0].folder} and {s.folder}: {name} "
                                    f"{a} and {b} differ")
    kinds = {s.job.kind for s in stores}
    if kinds != {"simulate"}:
        raise RunStoreError(f"merge joins simulations; {', '.join(sorted(kinds))} given")
    try:
        return merge([s.result() for s in stores])
    except ValueError as e:
        raise RunStoreError(f"cannot merge {', '.join(map(str, folders))}: {e}") from None


def merged_row_parts(folders: list[str], summary: Summary,
                     ) -> tuple[dict, Iterator[pd.DataFrame]]:
    """The rows of several run stores (``summary``: their :func:`merged_summary`), for one
    table: (its provenance, its parts in order of seed and first deal). Runs of more than
    one seed get a ``seed`` column first (a deal index alone no longer names a deal).
    RunStoreError when a run kept no rows."""
    stores = sorted((RunStore(f) for f in folders), key=lambda s: (s.job.seed, s.first))
    for s in stores:
        if not s.job.rows:
            raise RunStoreError(f"{s.folder} kept no rows (its run had no --out): merge "
                                "its summary without --out")
    several = len({s.job.seed for s in stores}) > 1
    meta = {**stores[0].attrs(), **{k: v for k, v in summary.provenance.items()
                                    if k in ("n", "seed", "first", "ranges")}}

    def parts() -> Iterator[pd.DataFrame]:
        for s in stores:
            for df in s.row_parts():
                if several:
                    df.insert(0, "seed", s.job.seed)
                yield df

    return meta, parts()
