"""Per-deal tables on disk, written atomically and carrying their provenance.

Formats, chosen by the file suffix:

* ``.parquet`` (pyarrow): column types kept exactly; the provenance (seed,
  rules string, policy, bidlab version, n, ...) is stored as JSON under the
  schema metadata key ``bidlab``.
* ``.csv``: one comment line ``# bidlab {json}`` with the same provenance, then
  the header and the rows. ``read_table`` skips the line and restores it; other
  tools may need to be told to skip one line (``pandas.read_csv(path, comment="#")``).

A write goes to a temporary file in the target's directory and is moved into
place with ``os.replace``, so a reader never sees half a file and a failed write
leaves any earlier file as it was.

>>> import pandas as pd
>>> path = write_table(pd.DataFrame({"points": [9, 5]}), "run.parquet", {"seed": 1})
>>> read_table(path).attrs["seed"]
1
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

import pandas as pd

from . import __version__

SUFFIXES = (".parquet", ".csv")
META_KEY = b"bidlab"
_CSV_TAG = "# bidlab "


class TableFormatError(ValueError):
    """A table path whose suffix bidlab cannot write or read."""


def table_format(path: str | os.PathLike) -> str:
    """``"parquet"`` or ``"csv"`` from the suffix; TableFormatError otherwise."""
    suffix = Path(path).suffix.lower()
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
    p = Path(path)
    table_format(p)
    return check_directory(p)


def check_directory(path: str | os.PathLike) -> Path:
    """``path`` as a Path if a new file could be moved into place there; OSError otherwise.

    Shared by every atomic writer (tables here, figures in :mod:`analyzer.plotting`):
    the target must not be a directory, and its directory must exist and be writable.
    """
    p = Path(path)
    parent = p.parent if str(p.parent) else Path(".")
    if p.is_dir():
        raise IsADirectoryError(21, "is a directory", str(p))
    if not parent.is_dir():
        raise FileNotFoundError(2, "directory does not exist", str(parent))
    _require_writable(parent)
    return p


def _require_writable(folder: Path) -> None:
    if not os.access(folder, os.W_OK | os.X_OK):
        raise PermissionError(13, "directory is not writable", str(folder))


def check_out_dir(path: str | os.PathLike) -> Path:
    """``path`` as a Path if a folder of outputs could be written there; OSError otherwise.

    The folder may not exist yet (writers create it): then its nearest existing ancestor
    must be a writable directory. Nothing is created here, so a run that fails before
    writing leaves nothing behind.
    """
    p = Path(path)
    probe = p
    while not probe.exists():
        if probe.parent == probe:
            break
        probe = probe.parent
    if not probe.is_dir():
        raise NotADirectoryError(20, "not a directory", str(probe))
    _require_writable(probe)
    return p


def _provenance(df: pd.DataFrame, metadata: dict) -> dict:
    return {"n": len(df), "bidlab_version": __version__, **metadata}


def _write_parquet(df: pd.DataFrame, f, meta: dict) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.Table.from_pandas(df, preserve_index=False)
    schema_meta = dict(table.schema.metadata or {})
    schema_meta[META_KEY] = json.dumps(meta, sort_keys=True).encode()
    pq.write_table(table.replace_schema_metadata(schema_meta), f)


def _write_csv(df: pd.DataFrame, f, meta: dict) -> None:
    f.write((_CSV_TAG + json.dumps(meta, sort_keys=True) + "\n").encode())
    f.write(df.to_csv(index=False, lineterminator="\n").encode())


def write_table(df: pd.DataFrame, path: str | os.PathLike, metadata: dict) -> Path:
    """Write ``df`` to ``path`` (.parquet or .csv) atomically with ``metadata``.

    ``n`` and ``bidlab_version`` are added to the metadata; values must be JSON
    serializable. On any error the temporary file is removed and an existing
    file at ``path`` is left untouched.
    """
    p = check_writable(path)
    fmt = table_format(p)
    meta = _provenance(df, metadata)
    with atomic_open(p) as f:
        (_write_parquet if fmt == "parquet" else _write_csv)(df, f, meta)
    return p


@contextlib.contextmanager
def atomic_open(path: str | os.PathLike) -> Iterator[BinaryIO]:
    """A binary file that replaces ``path`` only when the ``with`` block succeeds.

    The data goes to a temporary file beside ``path`` and is moved into place
    with ``os.replace``; on any error the temporary file is removed and an
    existing file at ``path`` is left as it was.

    >>> with atomic_open("out.bin") as f:
    ...     n = f.write(b"data")
    """
    p = Path(path)
    # O_EXCL on a random name, mode 0o666 less the umask: the file ends up with the
    # permissions an ordinary open() would give it (mkstemp would force 0o600)
    tmp = p.with_name(f".{p.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(fd, "wb") as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, p)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def read_table(path: str | os.PathLike) -> pd.DataFrame:
    """The frame written by :func:`write_table`, its provenance in ``df.attrs``."""
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
        meta = json.loads(first[len(_CSV_TAG):]) if first.startswith(_CSV_TAG) else {}
        df = pd.read_csv(p, skiprows=1 if meta else 0)
    df.attrs = meta
    return df
