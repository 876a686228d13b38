"""A run store: a folder that keeps a run chunk by chunk, so that it can be resumed after a
kill, extended, and merged with other runs.

Layout of ``DIR``::

    manifest.json              what the run plays (job: rules, seed, policy, contract, rows),
                               its first deal, the deals asked for, the chunk size, the deal
                               ranges done, where its rows go (``out``) or its chart
                               (``out_dir``, a bid chart's folder), and the build of the
                               players that began it (``kernels``: their sources' digest)
    chunks/<lo>+<n>.json       a finished chunk's summary statistics (exact integers), the
                               SHA-256 of its rows file and its own, checked when read
    chunks/<lo>+<n>.parquet    its rows, when the run keeps them

Every file is written atomically (a temporary name, then a rename), the rows before the
statistics, so a chunk whose ``.json`` exists is whole; a kill loses at most the chunks
being played. The chunk files are the truth; the manifest's ``done`` list follows them.
One process at a time plays into a store (a lock on ``DIR/.lock``). What a command asks of
a store (a new run, more deals, another ``out``) stays in memory until it holds the lock
and its size has been checked (:meth:`RunStore.save`), and is undone if the run is refused
for its time after its first chunk (:meth:`RunStore.rollback`): a refused or locked-out
command leaves the store as it was.

May import: the foundations (atomic, io, summary, _jit_cache), :mod:`.job`.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import itertools
import json
import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # frames in the annotations; reading rows loads pandas
    import pandas as pd

from .. import __version__, atomic, io
from .._jit_cache import build_digest
from ..summary import Summary, merge
from .job import Chunk, Job

FORMAT = atomic.RUN_STORE_FORMAT + "1"  # a run store: never replaced as an output folder
MANIFEST = "manifest.json"
_REPLAY = ("delete that chunk's files (its .json, and its .parquet where it has one) and run "
           "bidlab resume to play it again (the same deals)")
_CHUNK_NAME = re.compile(r"^(\d{19})\+(\d+)\.json$")


class RunStoreError(ValueError):
    """A folder that is not a run store, or one that does not match what was asked."""


class RunStore:
    """The run store in ``folder`` (see the module's docstring)."""

    _pinned: list[tuple[int, int]] | None = None  # the chunks :meth:`pin` read

    def __init__(self, folder: str | os.PathLike):
        _require_name(folder)
        self.folder = Path(folder)
        self.chunks = self.folder / "chunks"
        path = self.folder / MANIFEST
        if not path.is_file():
            if self.chunks.is_dir() and any(map(_CHUNK_NAME.match, os.listdir(self.chunks))):
                raise RunStoreError(f"{folder} holds a run's chunks but no {MANIFEST}: restore "
                                    "it (the chunks go on only with it), or start the run "
                                    "again in another --run-dir")
            if self.folder.is_dir() and any(self.folder.iterdir()):  # the user's own files
                raise RunStoreError(f"{folder} is not a bidlab run store (no {MANIFEST}) and "
                                    "holds files bidlab did not write; give the folder a "
                                    "run's --run-dir made (a new run: a new or empty folder)")
            raise RunStoreError(f"{folder} is not a bidlab run store (no {MANIFEST}); start "
                                f"one with simulate --run-dir {folder}")
        raw = _read(path)
        try:
            m = json.loads(raw.decode("utf-8"))
            if m.get("format") != FORMAT:  # another command's folder: a chart, a report
                made = (f"its format is {m['format']!r}, not {FORMAT!r}" if m.get("format")
                        else "it is an output's, not a run's")
                raise ValueError(f"{made}: a folder made by --run-dir is needed")
            self.job = Job.from_dict(m["job"])
            self.first, self.deals, self.chunk = (_count(m, k, least) for k, least in
                                                  (("first", 0), ("deals", 1), ("chunk", 1)))
            self.out, self.out_dir = _path(m, "out"), _path(m, "out_dir")
            self.kernels = _text(m, "kernels")  # None: a store from before builds were kept
        except (ValueError, KeyError, TypeError, AttributeError) as e:
            raise RunStoreError(f"{path} is not a bidlab run manifest or is damaged ({e}); "
                                "restore it, or start the run again in another --run-dir"
                                ) from None
        outside = [(lo, n) for lo, n in self.done()
                   if lo < self.first or lo + n > self.first + self.deals]
        if outside:
            lo, n = outside[0]
            raise RunStoreError(f"{path} is damaged: it asks for deals {self.first:,}.."
                                f"{self.first + self.deals - 1:,}, but the run has played "
                                f"{lo:,}..{lo + n - 1:,} ({self._chunk_file(lo, n, '.json')}); "
                                "restore the manifest, or start the run again in another "
                                "--run-dir")
        self.saved: tuple | None = (self.deals, self.out, self.out_dir)  # as on disk

    # ---- making one ------------------------------------------------------------------------

    @classmethod
    def open(cls, folder: str | os.PathLike, job: Job, first: int, deals: int, chunk: int,
             out: str | None = None, out_dir: str | None = None) -> RunStore:
        """The store in ``folder`` for ``job``: a new one (the folder missing or empty), or
        the existing one when it plays the same job from the same first deal (then it is
        resumed, and ``deals`` above its size extends it). RunStoreError for a folder of
        other files or a store of another run, naming what differs. Nothing is written
        until :meth:`save`."""
        _require_name(folder)
        p = Path(folder)
        if p.exists() and not p.is_dir():
            raise RunStoreError(f"--run-dir {folder} is a file, not a folder")
        if p.is_dir() and any(f.name != ".lock" for f in p.iterdir()):
            store = cls(p)
            store.require(job, first)
            if deals < store.deals:
                raise RunStoreError(
                    f"{folder} holds a run of {store.deals:,} deals; --deals {deals:,} would "
                    f"shrink it (give {store.deals:,} or more, or another --run-dir)")
            store.deals = deals
            if out is not None:
                store.out = out
            if out_dir is not None:
                store.out_dir = out_dir
            return store
        store = cls.__new__(cls)
        store.folder, store.chunks = p, p / "chunks"
        store.job, store.first, store.deals, store.chunk, store.out, store.out_dir = (
            job, int(first), int(deals), int(chunk), out, out_dir)
        store.kernels = build_digest()
        store.saved = None  # a new store: nothing on disk yet
        return store

    def save(self) -> None:
        """Write what was asked of the store (its folder, when new, and its manifest): call
        it holding :meth:`lock`, once the run's size is checked. The manifest is read again
        first: another process may have made or extended the store since :meth:`open`."""
        if (self.folder / MANIFEST).is_file():
            disk = RunStore(self.folder)
            disk.require(self.job, self.first)
            self.saved = (disk.deals, disk.out, disk.out_dir)
            self.deals, self.chunk = max(self.deals, disk.deals), disk.chunk
        else:
            self.saved = None
        self.chunks.mkdir(parents=True, exist_ok=True)
        self._write_manifest()

    def rollback(self) -> None:
        """Undo :meth:`save` for a run refused for its time after its first chunk: the
        manifest as it was, without the chunks played beyond it; a new store's files go
        (its folder too, by :meth:`drop_if_empty` once the lock is released)."""
        if self.saved is None:
            shutil.rmtree(self.chunks, ignore_errors=True)
            with contextlib.suppress(OSError):
                (self.folder / MANIFEST).unlink()
            return
        self.deals, self.out, self.out_dir = self.saved
        for lo, n in self.done():
            if lo + n > self.first + self.deals:
                for suffix in (".json", ".parquet"):
                    with contextlib.suppress(OSError):
                        self._chunk_file(lo, n, suffix).unlink()
        self._write_manifest()

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

    def require_this_build(self) -> None:
        """RunStoreError when another build of bidlab's players began this run: its deals
        left would be played by other players than its first, and the two mixed in one
        result without a word (a heuristic changed between versions moves every figure)."""
        if self.kernels not in (None, build_digest()):
            raise RunStoreError(
                f"{self.folder} was begun by another build of bidlab (its players' sources "
                f"differ from this one's), so its {self.deals - self.n_done:,} deals left would "
                "be played by other players than its first: finish it with the bidlab that "
                "began it, or start the run again in another --run-dir")

    def extend(self, more: int) -> None:
        """``more`` deals after the ones asked for so far, continuing the same stream
        (written by :meth:`save`)."""
        if more < 1:
            raise RunStoreError(f"--extend needs at least 1 deal, got {more}")
        self.deals += more

    def set_chunk(self, size: int) -> None:
        """Cut the chunks still to play ``size`` deals each (a resumed run cuts them so too)."""
        self.chunk = int(size)
        self._write_manifest()

    # ---- what it holds -------------------------------------------------------------------

    def done(self) -> list[tuple[int, int]]:
        """The finished chunks ``(lo, n)``, in deal order; RunStoreError naming two chunk
        files that share deals (one copied in from another run)."""
        if self._pinned is not None:
            return list(self._pinned)
        found = (_CHUNK_NAME.match(p.name) for p in self.chunks.iterdir()) \
            if self.chunks.is_dir() else ()
        done = sorted((int(m[1]), int(m[2])) for m in found if m)
        for (a, an), (b, bn) in itertools.pairwise(done):
            if b < a + an:
                raise RunStoreError(
                    f"{self._chunk_file(a, an, '.json')} and {self._chunk_file(b, bn, '.json')} "
                    f"share deals {b:,}..{min(a + an, b + bn) - 1:,}, so one is not of this "
                    "run: delete one (its .json and .parquet) and run bidlab resume to play "
                    "its deals again")
        return done

    def verify(self) -> None:
        """RunStoreError naming the first finished chunk that is damaged or not of this run:
        read before any chunk is played, not found after the run."""
        import pyarrow.parquet as pq

        for lo, n in self.done():
            chunk = self._chunk_checked(lo, n)
            if self.job.rows:  # the footer and the file's checksum: the rows are read
                self._chunk_rows(lo, n, pq.read_metadata, chunk.get("rows_sha256"))  # later

    def pin(self) -> RunStore:
        """Read the finished chunks once, for good: a reader that holds no lock (merge)
        counts and writes the same chunks though a run plays into the store meanwhile (its
        rows held a chunk its summary and metadata did not count)."""
        self._pinned = self.done()
        return self

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
        chunk = {"attrs": c.attrs, "state": c.state}
        if self.job.rows:
            if c.rows is None:
                raise ValueError("this run keeps its rows; the chunk has none")
            rows = self._chunk_file(c.lo, c.n, ".parquet")
            io.write_table(c.rows, rows, c.attrs)
            chunk["rows_sha256"] = io.file_sha256(rows)
        # the digest of the chunk as it will read back (JSON makes tuples lists, keys text)
        chunk["sha256"] = _digest(json.loads(json.dumps(chunk)))
        _write_json(self._chunk_file(c.lo, c.n, ".json"), chunk)
        self._write_manifest()

    def result(self):
        """What every finished chunk makes together (:meth:`Job.result`): a summary, or a
        bid chart."""
        done = self.done()
        if not done:
            raise RunStoreError(f"{self.folder} has no finished chunk yet")
        states = [self._chunk_state(lo, n) for lo, n in done]
        damage = (KeyError, TypeError, ValueError, IndexError, AttributeError)
        try:
            return self.job.result(states, self.attrs())
        except damage:
            failed = []  # which chunk: one at a time
            for (lo, n), state in zip(done, states, strict=True):
                try:
                    self.job.result([state], self.attrs())
                except damage as e:
                    failed.append((lo, n, e))
            # a chunk is damaged where another one reads, or where it keeps no checksum (a
            # store written before them: nothing vouches for it); where every chunk fails and
            # each is as written, the fault is in the code that reads them (its traceback
            # follows), and deleting good chunks would not mend it
            unchecked = [f for f in failed if not self._has_checksum(f[0], f[1])]
            if failed and (len(failed) < len(done) or unchecked):
                lo, n, e = (unchecked or failed)[0]
                raise RunStoreError(f"{self._chunk_file(lo, n, '.json')} is damaged "
                                    f"({type(e).__name__}: {e}); {_REPLAY}") from None
            if failed:
                raise
            # each whole alone: one does not add up with the others (a mean where they
            # hold a count), found beside the first
            for (lo, n), state in zip(done[1:], states[1:], strict=True):
                try:
                    self.job.result([states[0], state], self.attrs())
                except damage as e:
                    raise RunStoreError(
                        f"{self._chunk_file(*done[0], '.json')} and "
                        f"{self._chunk_file(lo, n, '.json')} do not add up "
                        f"({type(e).__name__}: {e}), so one is damaged: delete both (their "
                        ".json and .parquet) and run bidlab resume to play them again (the "
                        "same deals)") from None
            raise

    def attrs(self) -> dict:
        """The rows' provenance for the whole run (the first chunk's, spanning them all)."""
        lo, n = self.done()[0]
        return {**self._chunk_json(lo, n)["attrs"], "first": self.first, "n": self.n_done}

    def row_parts(self) -> Iterator[pd.DataFrame]:
        """The rows chunk by chunk, in deal order (one chunk in memory at a time)."""
        if not self.job.rows:
            raise RunStoreError(f"{self.folder} kept no rows (its run had no --out)")
        # the whole run's, as a run without a store gives its frame (pandas keeps them)
        attrs = {k: v for k, v in self.attrs().items() if k != "n"}
        for lo, n in self.done():
            df = self._chunk_rows(lo, n, io.read_table,
                                  self._chunk_json(lo, n).get("rows_sha256"))
            df.attrs = dict(attrs)
            yield df

    def complete(self) -> bool:
        return next(self.missing(), None) is None

    def drop_if_empty(self) -> None:
        """Remove the folder when it holds nothing but its lock file (a new store undone, or
        never written); call it after the lock is released."""
        with contextlib.suppress(OSError):
            if [p.name for p in self.folder.iterdir()] == [".lock"]:
                (self.folder / ".lock").unlink()
                self.folder.rmdir()

    @contextlib.contextmanager
    def lock(self) -> Iterator[None]:
        """Hold the store for this process; RunStoreError when another one plays into it."""
        self.folder.mkdir(parents=True, exist_ok=True)
        with open(self.folder / ".lock", "a+") as f:
            try:
                fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise RunStoreError(f"{self.folder} is in use by another bidlab process; wait "
                                    "for it (a new run: give it another --run-dir)") from None
            try:
                yield
            finally:
                fcntl.flock(f, fcntl.LOCK_UN)

    # ---- helpers -------------------------------------------------------------------------

    def _chunk_file(self, lo: int, n: int, suffix: str) -> Path:
        return self.chunks / f"{lo:019d}+{n}{suffix}"

    def _chunk_json(self, lo: int, n: int) -> dict:
        path = self._chunk_file(lo, n, ".json")
        try:
            chunk = json.loads(_read(path).decode("utf-8"))
        except RunStoreError:
            raise
        except (OSError, ValueError) as e:
            raise RunStoreError(f"{path} is damaged ({e}); {_REPLAY}") from None
        if not isinstance(chunk, dict) or not {"attrs", "state"} <= chunk.keys():
            raise RunStoreError(f"{path} is damaged (no attrs and state); {_REPLAY}")
        recorded = chunk.pop("sha256", None)  # a store written before checksums has none
        if recorded is not None and recorded != _digest(chunk):
            raise RunStoreError(f"{path} is damaged (what it holds does not match its "
                                f"checksum); {_REPLAY}")
        return chunk

    def _chunk_rows(self, lo: int, n: int, read, recorded: str | None):
        """``read(path)`` of chunk ``lo``+``n``'s rows (a frame, or the file's Parquet
        metadata); RunStoreError when the file is missing or damaged (or unlike ``recorded``,
        the SHA-256 its chunk's .json keeps), holds other than ``n`` rows, or says its rows
        are other deals: another chunk's rows file of the same size, copied over this one,
        would go into --out under this run's provenance."""
        import pandas as pd

        path = self._chunk_file(lo, n, ".parquet")
        try:
            got = read(path)
            rows, meta = ((len(got), got.attrs) if isinstance(got, pd.DataFrame) else
                          (got.num_rows, json.loads((got.metadata or {}).get(io.META_KEY, "{}"))))
        except (OSError, ValueError) as e:  # pyarrow's ArrowInvalid is a ValueError
            raise RunStoreError(f"{path} is missing or damaged ({type(e).__name__}); "
                                f"{_REPLAY}") from None
        if rows != n:
            raise RunStoreError(f"{path} holds {rows:,} rows, not its {n:,}; {_REPLAY}")
        self._require_ours(path, meta, lo, n)
        if recorded not in (None, io.file_sha256(path)):  # :meth:`verify`'s too: not after
            raise RunStoreError(f"{path} is damaged (its rows do not match the checksum its "
                                f"chunk's .json keeps); {_REPLAY}")
        return got

    def _has_checksum(self, lo: int, n: int) -> bool:
        """Whether chunk ``lo``+``n``'s JSON keeps the checksum it was written with (read
        after :meth:`_chunk_json` has checked it: present means it holds)."""
        return "sha256" in json.loads(_read(self._chunk_file(lo, n, ".json")).decode("utf-8"))

    def _chunk_state(self, lo: int, n: int) -> dict:
        """The summary state of chunk ``lo``+``n`` (:meth:`_chunk_checked`)."""
        return self._chunk_checked(lo, n)["state"]

    def _chunk_checked(self, lo: int, n: int) -> dict:
        """Chunk ``lo``+``n``'s JSON; RunStoreError when what its summary state says of its
        deals (a simulation's seed, rules, policy and range) is not this run's: a chunk
        copied in from another run would mix the two without a word. Its ``attrs`` too:
        the first chunk's are the provenance of the run's --out table."""
        chunk = self._chunk_json(lo, n)
        state, path = chunk["state"], self._chunk_file(lo, n, ".json")
        self._require_ours(path, chunk["attrs"], lo, n)
        self._require_ours(path, state.get("provenance") if isinstance(state, dict) else None,
                           lo, n)
        return chunk

    def _require_ours(self, path: Path, p, lo: int, n: int) -> None:
        """RunStoreError unless the provenance ``p`` that ``path`` holds (a dict; anything
        else says nothing) is that of deals ``lo``+``n`` of this run, in what it says."""
        if not isinstance(p, dict):
            return
        ours = {"seed": self.job.seed, "rules": self.job.rules, "policy": self.job.policy,
                "first": lo, "n": n}
        for name, value in ours.items():
            if name in p and p[name] != value:
                raise RunStoreError(
                    f"{path} is not of the run {MANIFEST} describes: its {name} is "
                    f"{p[name]!r}, the manifest's {value!r}; if the chunk was copied in from "
                    f"another run, {_REPLAY}; if {MANIFEST} was edited, restore it")

    def _write_manifest(self) -> None:
        _write_json(self.folder / MANIFEST, {
            "format": FORMAT, "bidlab_version": __version__, "job": self.job.to_dict(),
            "first": self.first, "deals": self.deals, "chunk": self.chunk, "out": self.out,
            "out_dir": self.out_dir, "kernels": self.kernels,
            "done": [list(r) for r in _joined(self.done())]})


def _require_name(folder) -> None:
    if not str(folder).strip():  # Path("") is the current folder: never a store by accident
        raise RunStoreError("a run store with an empty name; give its folder a name")


def _read(path: Path) -> bytes:
    """The bytes of a store's file. RunStoreError for one this user may not read: that is
    no damage (its chunk deleted and played again for nothing), and nothing is written
    ("cannot write", as an OSError is said, misled)."""
    try:
        with open(path, "rb") as f:
            return f.read()
    except PermissionError as e:
        raise RunStoreError(f"cannot read {path}: {e.strerror}; give this user read access "
                            "to the run store's files") from None


def _count(manifest: dict, key: str, least: int) -> int:
    """A whole number of the manifest, at least ``least``; ValueError naming it otherwise."""
    v = manifest[key]
    if isinstance(v, bool) or not isinstance(v, int) or v < least:
        raise ValueError(f"its {key} is {v!r}, not a whole number of at least {least}")
    return v


def _path(manifest: dict, key: str) -> str | None:
    """A path the manifest keeps (the run's --out, --out-dir), or None; ValueError naming it
    otherwise: resume writes there, and a number there was a traceback."""
    v = manifest.get(key)
    if v is not None and not (isinstance(v, str) and v.strip()):
        raise ValueError(f"its {key} is {v!r}, not a path or null")
    return v


def _text(manifest: dict, key: str) -> str | None:
    """A text the manifest keeps, or None; ValueError naming it otherwise."""
    v = manifest.get(key)
    if v is not None and not isinstance(v, str):
        raise ValueError(f"its {key} is {v!r}, not a text or null")
    return v


def _joined(ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Adjacent ranges as one: the manifest lists what is done in a few lines."""
    out: list[list[int]] = []
    for lo, n in ranges:
        if out and out[-1][0] + out[-1][1] == lo:
            out[-1][1] += n
        else:
            out.append([lo, n])
    return [tuple(r) for r in out]


def _digest(data: dict) -> str:
    """The SHA-256 of a chunk's JSON in one spelling (sorted keys): an edit or a flipped bit
    that still parses would otherwise be summed into the run without a word."""
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()


def _write_json(path: Path, data: dict) -> None:
    with atomic.atomic_open(path, say=False) as f:
        f.write((json.dumps(data, indent=1) + "\n").encode())


def merged_stores(folders: list[str]) -> list[RunStore]:
    """The run stores of ``folders``, to merge: each given once (RunStoreError otherwise),
    their finished chunks read once (:meth:`RunStore.pin`)."""
    seen: dict[Path, str] = {}
    for f in folders:
        if (key := Path(f).resolve()) in seen:
            what = (f"{f} is given twice" if seen[key] == f
                    else f"{seen[key]} and {f} are one folder")
            raise RunStoreError(f"{what}: its deals would count twice; give each run once")
        seen[key] = f
    return [RunStore(f).pin() for f in folders]


def merged_summary(stores: list[RunStore]) -> Summary:
    """The summary of several run stores (:func:`merged_stores`) of one game, rules and
    policy (their deals must not overlap); RunStoreError naming the first mismatch."""
    for s in stores[1:]:
        for name in ("rules", "policy", "contract"):
            a, b = getattr(stores[0].job, name), getattr(s.job, name)
            if a != b:
                shown = [("none (whole games)" if name == "contract" else "none")
                         if v is None else v for v in (a, b)]
                raise RunStoreError(f"cannot merge {stores[0].folder} and {s.folder}: {name} "
                                    f"{shown[0]} and {shown[1]} differ")
    built = [s for s in stores if s.kernels is not None]  # older stores keep no build
    other = next((s for s in built if s.kernels != built[0].kernels), None)
    if other is not None:
        raise RunStoreError(f"cannot merge {built[0].folder} and {other.folder}: other builds "
                            "of bidlab played them (their players' sources differ), so their "
                            "figures are of other players")
    kinds = {s.job.kind for s in stores}
    if kinds != {"simulate"}:
        raise RunStoreError(f"merge joins simulations; {', '.join(sorted(kinds))} given")
    try:
        return merge([s.result() for s in stores])
    except ValueError as e:
        raise RunStoreError(f"cannot merge {', '.join(str(s.folder) for s in stores)}: {e}"
                            ) from None


def merged_row_parts(stores: list[RunStore], summary: Summary,
                     ) -> tuple[dict, Iterator[pd.DataFrame]]:
    """The rows of several run stores (``summary``: their :func:`merged_summary`), for one
    table: (its provenance, its parts in order of seed and first deal). Runs of more than
    one seed get a ``seed`` column first (a deal index alone no longer names a deal).
    RunStoreError when a run kept no rows, or a rows file is damaged or of other deals
    (found before the table is begun)."""
    stores = sorted(stores, key=lambda s: (s.job.seed, s.first))
    for s in stores:
        if not s.job.rows:
            raise RunStoreError(f"{s.folder} kept no rows (its run had no --out): merge "
                                "its summary without --out")
        s.verify()
    several = len({s.job.seed for s in stores}) > 1
    meta = {**stores[0].attrs(), **{k: v for k, v in summary.provenance.items()
                                    if k in ("n", "seed", "first", "ranges")}}

    def parts() -> Iterator[pd.DataFrame]:
        for s in stores:
            for df in s.row_parts():
                if len(stores) > 1:  # one run's provenance would not be theirs: the metadata's
                    df.attrs = {}
                if several:
                    df.insert(0, "seed", s.job.seed)
                yield df

    return meta, parts()
