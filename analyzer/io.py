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
place (:func:`analyzer.atomic.atomic_open`; a CSV's sidecar just before the CSV), so a
reader never sees half a file and a failed write leaves any earlier file as it was. An
existing table is replaced only if bidlab wrote it (:func:`check_out_table`).

>>> import pandas as pd
>>> path = write_table(pd.DataFrame({"points": [9, 5]}), "run.csv", {"seed": 1})
>>> list(pd.read_csv(path).columns), read_table(path).attrs["seed"]
(['points'], 1)
>>> sorted(p.name for p in Path(".").glob("run.csv*"))
['run.csv', 'run.csv.json']

May import: the standard library, numpy, pandas and pyarrow, the package's version and
:mod:`analyzer.atomic` (which imports only the standard library and parsing).
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # frames in the annotations; read_table loads pandas when it reads
    import pandas as pd

from . import __version__
from .atomic import (
    atomic_open,
    check_directory,
    checked_name,
    refuse_inside_run_store,
    require_own_file,
)

SUFFIXES = (".parquet", ".csv")
META_KEY = b"bidlab"
SIDECAR = ".json"  # a CSV's provenance: ``run.csv`` -> ``run.csv.json``
CSV_BLOCK = 100_000  # rows formatted at a time: the digest sees the bytes as written
CSV_DIGEST = "csv_sha256"  # the sidecar's digest of its CSV
_CSV_TAG = "# bidlab "  # the provenance line of CSVs from before the sidecar (still read)


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
    p = checked_name(path)
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
    refuse_inside_run_store(Path(path), "table")
    p = check_writable(path)
    require_own_file(p, _is_own_table)
    return p


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


def sidecar(path: str | os.PathLike) -> Path:
    """The file beside a CSV table that holds its provenance: ``run.csv.json``."""
    p = Path(path)
    return p.with_name(p.name + SIDECAR)


def flat_meta(provenance: dict) -> dict:
    """A provenance as a table's metadata and a manifest keep it: numbers and text as they
    are, anything else (a tuple of rungs, a rules object) as its text."""
    return {k: (v if isinstance(v, (int, float, str)) else str(v)) for k, v in provenance.items()}


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
