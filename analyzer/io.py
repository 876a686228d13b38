"""Per-deal tables on disk, written atomically and carrying their provenance.

Formats, chosen by the file suffix:

* ``.parquet`` (pyarrow): column types kept exactly; the provenance (seed,
  rules string, policy, bidlab version, n, ...) is stored as JSON under the
  schema metadata key ``bidlab``.
* ``.csv``: the header row, then the rows, nothing else, so that any tool reads it as it
  is (``pandas.read_csv(path)``, a spreadsheet). The same provenance goes beside it, to
  the sidecar ``<name>.csv.json``; ``read_table`` restores it from there, and reads a CSV
  without one too.

A write goes to a temporary file in the target's directory and is moved into
place with ``os.replace`` (a CSV's sidecar just before the CSV), so a reader never
sees half a file and a failed write leaves any earlier file as it was. An existing
file or folder of outputs is replaced; the one function that does it for every writer
(:func:`atomic_open`, :func:`atomic_dir`) reports each replaced path to the callback
set by :func:`on_replace` (the command line says ``bidlab: replaced PATH`` on stderr).

>>> import pandas as pd
>>> path = write_table(pd.DataFrame({"points": [9, 5]}), "run.csv", {"seed": 1})
>>> list(pd.read_csv(path).columns), read_table(path).attrs["seed"]
(['points'], 1)
>>> sorted(p.name for p in Path(".").glob("run.csv*"))
['run.csv', 'run.csv.json']

May import: the standard library, numpy, pandas and pyarrow, the package's version and
:mod:`analyzer.parsing` (which imports only the standard library).
"""

from __future__ import annotations

import contextlib
import ctypes
import hashlib
import json
import os
import re
import secrets
import shutil
import threading
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

if TYPE_CHECKING:  # frames in the annotations; read_table loads pandas when it reads
    import pandas as pd

from . import __version__
from .parsing import first_few

SUFFIXES = (".parquet", ".csv")
META_KEY = b"bidlab"
SIDECAR = ".json"  # a CSV's provenance: ``run.csv`` -> ``run.csv.json``
CSV_BLOCK = 100_000  # rows formatted at a time: the digest sees the bytes as written
CSV_DIGEST = "csv_sha256"  # the sidecar's digest of its CSV
_CSV_TAG = "# bidlab "  # the provenance line of CSVs from before the sidecar (still read)
_on_replace: Callable[[str], None] | None = None


class TableFormatError(ValueError):
    """A table path whose suffix bidlab cannot write or read."""


def table_format(path: str | os.PathLike) -> str:
    """``"parquet"`` or ``"csv"`` from the suffix; TableFormatError otherwise."""
    suffix = Path(path).suffix.lower()
    if suffix not in SUFFIXES and Path(path).is_dir():  # a folder named .csv: check_writable
        raise TableFormatError(f"{str(path)!r} is a directory; give a file name ending in "
                               f"{' or '.join(SUFFIXES)}")
    if suffix not in SUFFIXES:
        shown = repr(suffix) if suffix else "no suffix"
        raise TableFormatError(
            f"unsupported table format {shown} for {str(path)!r}; use one of "
            f"{', '.join(SUFFIXES)}"
        )
    return suffix[1:]


def check_writable(path: str | os.PathLike) -> Path:
    """Fail early, before any work, when ``path`` cannot be written as a table.

    Raises TableFormatError for an unknown suffix and OSError (with the path
    and a reason) for a missing or read-only directory or a directory in the way.
    """
    p = _named(path)
    if table_format(p) == "csv":
        _require_own_sidecar(check_directory(sidecar(p)))
    return check_directory(p)


def _require_own_sidecar(side: Path) -> None:
    """A CSV's sidecar is replaced with the CSV: refuse where the file at its name is not
    a table's provenance that bidlab wrote (a user's ``data.csv.json`` was overwritten in
    silence, with only the CSV said replaced)."""
    if side.exists() and not _is_own_sidecar(side):
        raise FileExistsError(17, "holds a file bidlab did not write, where the CSV's "
                                  "provenance goes; move it, or name the table otherwise",
                              str(side))


def _is_own_sidecar(side: Path) -> bool:
    try:
        with open(side, "rb") as f:
            meta = json.loads(f.read(1 << 20))
    except (OSError, ValueError):
        return False
    return isinstance(meta, dict) and "bidlab_version" in meta


def check_out_table(path: str | os.PathLike) -> Path:
    """:func:`check_writable` for a table a user names (``--out``), which must not be inside
    a run store (a chunk's file replaced there would corrupt the run) and may replace only
    a table bidlab wrote (a user's ``data.csv`` was replaced in silence)."""
    _refuse_inside_run_store(Path(path), "table")
    p = check_writable(path)
    require_own_file(p, _is_own_table)
    return p


def require_own_file(p: Path, ours: Callable[[Path], bool]) -> None:
    """FileExistsError when a file at ``p`` is not one bidlab wrote (``ours(p)`` says):
    an output replaces only an earlier output, never a user's own file."""
    if os.path.lexists(p) and not (p.is_file() and ours(p)):
        raise FileExistsError(17, "holds a file bidlab did not write; move it, or give "
                              "the output another name", str(p))


def _is_own_table(p: Path) -> bool:
    """A Parquet table with bidlab's provenance in its schema, or a CSV with bidlab's
    sidecar (or, from before the sidecar, its provenance line)."""
    try:
        if table_format(p) == "parquet":
            import pyarrow.parquet as pq

            return META_KEY in (pq.read_schema(p).metadata or {})
        with open(p, "rb") as f:
            return f.read(len(_CSV_TAG)) == _CSV_TAG.encode() or _is_own_sidecar(sidecar(p))
    except (OSError, ValueError, ImportError, TableFormatError):
        return False


def _refuse_inside_run_store(path: Path, what: str) -> None:
    """FileExistsError for an output (``what``) inside a run store, a folder whose manifest
    says so: its chunks are the run's only copy, and its folder is the run's alone."""
    for folder in list(path.absolute().parents)[:3]:  # DIR/chunks/<chunk> at the deepest
        if _is_run_store(_manifest_of(folder)):
            raise FileExistsError(17, f"is inside the run store {folder} (its chunks are the "
                                  f"run); write the {what} elsewhere", str(path))


def _manifest_of(folder: Path) -> dict | None:
    """``folder``'s manifest.json as a dict; None when there is none or it is not one."""
    try:
        manifest = json.loads((folder / "manifest.json").read_text())
    except (OSError, ValueError):
        return None
    return manifest if isinstance(manifest, dict) else None


def _is_run_store(manifest: dict | None) -> bool:
    return manifest is not None and str(manifest.get("format", "")).startswith(RUN_STORE_FORMAT)


def sidecar(path: str | os.PathLike) -> Path:
    """The file beside a CSV table that holds its provenance: ``run.csv.json``."""
    p = Path(path)
    return p.with_name(p.name + SIDECAR)


def on_replace(notice: Callable[[str], None] | None) -> Callable[[str], None] | None:
    """Call ``notice(path)`` (the path as the writer was given it) whenever a write replaces
    an existing file or folder of outputs; None: say nothing (the default, for a library).
    The command line sets it once, so every writer says it alike; returns the one before."""
    global _on_replace
    earlier, _on_replace = _on_replace, notice
    return earlier


def _replaced(shown: str) -> None:
    if _on_replace is not None:
        _on_replace(shown)


def check_directory(path: str | os.PathLike) -> Path:
    """``path`` as a Path if a new file could be moved into place there; OSError otherwise.
    Shared by every atomic writer (tables here, figures in :mod:`analyzer.plotting`): the
    target is no directory, its directory exists and is writable, and its name leaves room
    for the temporary name beside it (checked now, not after the work)."""
    p = _named(path)
    parent = p.parent if str(p.parent) else Path(".")
    if p.is_dir():
        raise IsADirectoryError(21, "is a directory", str(p))
    if not parent.is_dir():
        raise FileNotFoundError(2, "directory does not exist", str(parent))
    _require_writable(parent)
    _require_room_for_temporary(p)
    return p


def _named(path: str | os.PathLike) -> Path:
    """``path`` as a Path; an empty name (``--out ''``) would mean the current folder."""
    if not str(path).strip():
        raise FileNotFoundError(2, "an empty name; give a file or folder name", repr(str(path)))
    if "\x00" in str(path):  # os.stat would raise ValueError, not OSError
        raise FileNotFoundError(2, "a name with a NUL byte", repr(str(path))[:80])
    return Path(path)


def _temporary_name(p: Path, kind: str = "tmp") -> Path:
    """A fresh name beside ``p`` for what is written before it is moved into place: hidden,
    with this process's id (so a later run can tell a dead writer's leftovers)."""
    return p.with_name(f".{p.name}.{os.getpid()}.{secrets.token_hex(4)}.{kind}")


_IN_FLIGHT: set[Path] = set()  # this process's temporaries, until moved into place
# held while a temporary is moved into place: Ctrl-C (or SIGTERM) removes the temporaries
# from the main thread while the command's thread may be swapping one in, and a folder
# emptied under a swap went in as a manifest alone (a test caught it, 1 run in ~20)
_SWAPPING = threading.Lock()


def remove_in_flight(ending: bool = False) -> None:
    """Remove the temporaries this process is writing: Ctrl-C ends the process at once
    (``os._exit``), and no ``finally`` runs to do it. A swap under way finishes first.
    ``ending`` (the process ends next): no swap starts after, since one that moved the old
    folder aside and then found its temporary gone would leave neither in place."""
    held = _SWAPPING.acquire(timeout=10)  # not forever: a hung disk must not hang Ctrl-C
    try:
        _remove_temporaries()
    finally:
        if held and not ending:
            _SWAPPING.release()


def _remove_temporaries() -> None:
    for tmp in list(_IN_FLIGHT):
        if tmp.is_dir():
            shutil.rmtree(tmp, ignore_errors=True)
        else:
            with contextlib.suppress(OSError):
                tmp.unlink()
    _IN_FLIGHT.clear()


_TEMPORARY_EXTRA = len(".") + 20 + len(".") + 8 + len(".tmp") + 1  # pid up to 20 digits


def _require_room_for_temporary(p: Path) -> None:
    try:
        limit = os.pathconf(p.parent if str(p.parent) else ".", "PC_NAME_MAX")
    except (OSError, ValueError):
        limit = 255
    if len(os.fsencode(p.name)) + _TEMPORARY_EXTRA > limit:
        raise OSError(36, f"name too long: at most {limit - _TEMPORARY_EXTRA} bytes here",
                      str(p))


def remove_stale_temporaries(p: Path) -> None:
    """Remove what writers killed before they finished left beside ``p`` (SIGKILL leaves its
    temporary file or folder): only those whose process is gone."""
    for stale in p.parent.glob(f".{glob_escape(p.name)}.*.*"):
        parts = stale.name[len(p.name) + 2:].split(".")
        if len(parts) != 3 or not parts[0].isdigit() or parts[2] not in ("tmp", "old"):
            continue
        if _alive(int(parts[0])):
            continue
        with contextlib.suppress(OSError):
            if stale.is_dir() and not stale.is_symlink():
                shutil.rmtree(stale)
            else:
                stale.unlink()


def glob_escape(name: str) -> str:
    return re.sub(r"([*?\[])", r"[\1]", name)


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True
    return True


def _require_writable(folder: Path) -> None:
    """PermissionError unless a file can be created in ``folder``: tried, not only asked
    of the permission bits (root passes ``os.access`` on a read-only mount or /proc, and
    the write failed only after the whole run)."""
    if not os.access(folder, os.W_OK | os.X_OK):
        raise PermissionError(13, "directory is not writable", str(folder))
    probe = folder / f".bidlab-probe.{os.getpid()}.{secrets.token_hex(4)}.tmp"
    try:
        os.close(os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except OSError as e:
        raise PermissionError(e.errno or 13, f"directory is not writable ({e.strerror})",
                              str(folder)) from e
    with contextlib.suppress(OSError):
        os.unlink(probe)


def check_out_dir(path: str | os.PathLike) -> Path:
    """``path`` as a Path if a folder of outputs could be written there; OSError otherwise.

    The folder may not exist yet (writers create it): then its nearest existing ancestor
    must be a writable directory. An existing folder is replaced whole (:func:`atomic_dir`),
    so it must be empty or an earlier output of bidlab holding only the files its
    ``manifest.json`` lists: a folder of other files (a note, a scenario put beside the
    report) or a run store (its chunks are a run's only copy) is refused, never emptied.
    Nothing is created here, so a run that fails before writing leaves nothing behind.
    """
    p = _named(path)
    _refuse_inside_run_store(p, "outputs")
    probe = p
    while not probe.exists():
        if probe.parent == probe:
            break
        probe = probe.parent
    if not probe.is_dir():
        raise NotADirectoryError(20, "not a directory", str(probe))
    _require_writable(probe)
    if p.is_dir():
        _require_writable(p.resolve().parent)
        if any(p.iterdir()):
            _require_output_set(p)
    _require_room_for_temporary(p.resolve())
    return p


RUN_STORE_FORMAT = "bidlab-run/"  # the start of a run store's manifest "format"


def _require_output_set(folder: Path) -> None:
    """FileExistsError unless ``folder`` is an earlier output of bidlab (a manifest with
    its version) that holds only the files the manifest lists, and not a run store."""
    manifest = _manifest_of(folder)
    if manifest is None or "bidlab_version" not in manifest:
        raise FileExistsError(17, "holds files bidlab did not write (no bidlab "
                              "manifest.json); give a new or empty folder", str(folder))
    if _is_run_store(manifest):
        raise FileExistsError(17, "is a run store (its chunks are the run; `bidlab resume` "
                              "reads them); give the outputs another folder", str(folder))
    listed = manifest.get("files")
    known = {"manifest.json", *(listed if isinstance(listed, (list, dict)) else ())}
    strays = sorted(str(f.relative_to(folder)) for f in folder.rglob("*")
                    if f.is_file() and str(f.relative_to(folder)) not in known)
    if strays:
        raise FileExistsError(17, f"holds files bidlab did not write ({first_few(strays)}), which "
                              "replacing it would delete; move them or give another "
                              "folder", str(folder))


@contextlib.contextmanager
def atomic_dir(path: str | os.PathLike) -> Iterator[Path]:
    """A folder of outputs that replaces ``path`` whole, only when the ``with`` block
    succeeds: the files go into a hidden temporary folder beside it, which is then swapped
    in (in one step where the system can exchange two names, Linux's renameat2; else the
    old folder is moved aside first). A failed or interrupted run leaves the earlier
    folder as it was, or no folder where there was none: never half old, half new.

    >>> with atomic_dir("chart") as out:
    ...     n = (out / "manifest.json").write_text('{"bidlab_version": "0"}')
    >>> sorted(p.name for p in Path("chart").iterdir())
    ['manifest.json']
    """
    shown = str(path)
    p = _named(path).absolute()
    p.parent.mkdir(parents=True, exist_ok=True)
    remove_stale_temporaries(p)
    tmp = _temporary_name(p)
    try:
        tmp.mkdir()
    except OSError as e:  # name the user's folder, not the hidden temporary one
        raise OSError(e.errno, e.strerror, shown) from e
    _IN_FLIGHT.add(tmp)
    try:
        yield tmp
        _fsync_folder(tmp)
        with _SWAPPING:
            existed = p.is_dir()
            if existed and any(p.iterdir()):  # what the folder became while the run played
                _require_output_set(p)
            if existed and _exchange(tmp, p):
                shutil.rmtree(tmp)  # the old folder, now under the temporary name
            else:
                if p.is_dir():
                    old = _temporary_name(p, "old")
                    os.rename(p, old)
                    try:
                        os.rename(tmp, p)
                    except BaseException:
                        os.rename(old, p)  # the earlier set back in place, not aside
                        raise
                    shutil.rmtree(old, ignore_errors=True)
                else:
                    os.rename(tmp, p)
        _fsync_folder(p.parent)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    finally:
        _IN_FLIGHT.discard(tmp)
    if existed:
        _replaced(shown)


def write_manifest(folder: Path, meta: dict, files: list[Path]) -> Path:
    """``manifest.json`` of an output folder: its provenance, bidlab's version (which marks
    the folder as bidlab's, so a later run may replace it) and the files beside it, a CSV's
    provenance sidecar with it."""
    path = Path(folder) / "manifest.json"
    names = []
    for p in map(Path, files):
        names.append(p.name)
        if p.suffix.lower() == ".csv" and sidecar(p).exists():
            names.append(sidecar(p).name)
    with atomic_open(path) as f:
        f.write(json.dumps({**meta, "bidlab_version": __version__,
                            "files": names}, indent=2).encode())
    return path


def _fsync_folder(folder: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _exchange(a: Path, b: Path) -> bool:
    """Swap two names in one step (renameat2 RENAME_EXCHANGE); False where unsupported."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    at_fdcwd, rename_exchange = -100, 2
    rc = renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange)
    return rc == 0


def _write_parquet(frames: Iterable[pd.DataFrame], f, meta: dict) -> None:
    """One row group a frame (a run's chunks stream to disk as they finish), the
    provenance in the schema's metadata."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    writer = schema = None
    try:
        for df in frames:
            table = pa.Table.from_pandas(df, preserve_index=False)
            if writer is None:
                schema = table.schema.with_metadata(
                    {**(table.schema.metadata or {}),
                     META_KEY: json.dumps(meta, sort_keys=True).encode()})
                writer = pq.ParquetWriter(f, schema)
            writer.write_table(table.replace_schema_metadata(schema.metadata))
    finally:
        if writer is not None:
            writer.close()
    if writer is None:
        raise ValueError("no rows to write")


def _write_csv(frames: Iterable[pd.DataFrame], f, meta: dict, p: Path) -> None:
    """The header and the rows; the provenance to the sidecar, moved into place when the
    CSV's data is written and just before the CSV itself. Two files cannot be swapped in
    one step, so the sidecar carries the CSV's digest: a kill between the two renames
    leaves a pair :func:`read_table` refuses, never new provenance on old rows."""
    digest = hashlib.sha256()
    header = True
    for df in frames:
        for lo in range(0, max(len(df), 1) if header else len(df), CSV_BLOCK):
            block = df.iloc[lo:lo + CSV_BLOCK].to_csv(index=False, header=header,
                                                      lineterminator="\n").encode()
            header = False
            digest.update(block)
            f.write(block)
    text = json.dumps({**meta, CSV_DIGEST: digest.hexdigest()}, sort_keys=True, indent=2)
    with atomic_open(sidecar(p), say=False) as s:
        s.write((text + "\n").encode())


def write_table(df: pd.DataFrame, path: str | os.PathLike, metadata: dict) -> Path:
    """Write ``df`` to ``path`` (.parquet or .csv) atomically with ``metadata`` (JSON values;
    ``n`` and ``bidlab_version`` added; a CSV's in the sidecar ``<path>.json``). On any error
    the temporary file is removed and an existing file at ``path`` is left untouched."""
    return write_table_parts([df], path, {"n": len(df), **metadata})


def write_table_parts(frames: Iterable[pd.DataFrame], path: str | os.PathLike,
                      metadata: dict) -> Path:
    """:func:`write_table` for rows that come in parts (``frames``, consumed one at a time,
    so that only one part is in memory): a Parquet row group or a run of CSV lines each.
    ``metadata`` must say ``n``, the rows in all."""
    p = check_writable(path)
    fmt = table_format(p)
    meta = {"bidlab_version": __version__, **metadata}
    json.dumps(meta)  # metadata JSON cannot hold fails here, before any file is touched
    with atomic_open(p, shown=str(path)) as f:
        if fmt == "parquet":
            _write_parquet(frames, f, meta)
        else:
            _write_csv(frames, f, meta, p)
    return p


@contextlib.contextmanager
def atomic_open(path: str | os.PathLike, say: bool = True,
                shown: str | None = None) -> Iterator[BinaryIO]:
    """A binary file that replaces ``path`` only when the ``with`` block succeeds.

    The data goes to a temporary file beside ``path`` and is moved into place
    with ``os.replace``; on any error the temporary file is removed and an
    existing file at ``path`` is left as it was. A file replaced is reported
    (:func:`on_replace`) as ``shown`` (default ``path``), unless ``say`` is False (a
    table's sidecar: the table is reported).

    >>> with atomic_open("out.bin") as f:
    ...     n = f.write(b"data")
    """
    p = _named(path)
    remove_stale_temporaries(p)
    # O_EXCL on a random name, mode 0o666 less the umask: the file ends up with the
    # permissions an ordinary open() would give it (mkstemp would force 0o600)
    tmp = _temporary_name(p)
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    except OSError as e:  # name the user's path, not the hidden temporary one
        raise OSError(e.errno, e.strerror, str(p)) from e
    _IN_FLIGHT.add(tmp)
    try:
        with os.fdopen(fd, "wb") as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        with _SWAPPING:
            existed = os.path.lexists(p)
            os.replace(tmp, p)
    except OSError as e:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if e.filename is None:  # a full disk says ENOSPC without naming the file
            raise OSError(e.errno, e.strerror, str(p)) from e
        raise
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    finally:
        _IN_FLIGHT.discard(tmp)
    if existed and say:
        _replaced(str(path) if shown is None else shown)


def file_sha256(path: str | os.PathLike) -> str:
    """The SHA-256 of a file: what a CSV's sidecar and a run store's chunk keep of rows."""
    with open(path, "rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()


def read_table(path: str | os.PathLike) -> pd.DataFrame:
    """The frame written by :func:`write_table`, its provenance in ``df.attrs``: from the
    Parquet schema, or from a CSV's sidecar (empty when there is none; a CSV of an older
    bidlab, with its ``# bidlab`` first line, reads too)."""
    p = Path(path)
    fmt = table_format(p)
    if fmt == "parquet":
        import pyarrow.parquet as pq

        table = pq.read_table(p)
        raw = (table.schema.metadata or {}).get(META_KEY)
        df = table.to_pandas()
        meta = json.loads(raw) if raw else {}
    else:
        with open(p, encoding="utf-8") as f:
            first = f.readline()
        old = first.startswith(_CSV_TAG)
        meta = json.loads(first[len(_CSV_TAG):]) if old else {}
        import pandas as pd

        df = pd.read_csv(p, skiprows=1 if old else 0)
        if sidecar(p).is_file():
            meta = json.loads(sidecar(p).read_text(encoding="utf-8"))
            digest = meta.pop(CSV_DIGEST, None)  # older sidecars have none
            if digest is not None:
                if file_sha256(p) != digest:
                    raise TableFormatError(
                        f"{p}: its provenance {sidecar(p).name} is not of these rows "
                        "(they changed since bidlab wrote them, or a write stopped "
                        "between the two files); write the table again")
    df.attrs = meta
    return df
