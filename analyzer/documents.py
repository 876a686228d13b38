"""What ``--json`` prints: a command's provenance and tables as one strict JSON document.

Every command that prints a table takes ``--json`` (:data:`analyzer.cli.options.json_option`)
and prints instead one document built here: its provenance (rules string, seed, policy, n,
bidlab's version) and every table as a list of records, each number with its n and its
95% bounds. The JSON is strict: NaN (an interval unknown at n = 1, a measure that does not
apply) is null, numpy numbers are plain numbers.

>>> import pandas as pd
>>> print(dumps({"rows": records(pd.DataFrame({"mean": [1.5, float("nan")]}))}, indent=None))
{"rows": [{"mean": 1.5}, {"mean": null}]}

May import: the standard library, numpy, pandas and the package's version.
"""

from __future__ import annotations

import dataclasses
import json
import math
import sys
from typing import TYPE_CHECKING

import numpy as np

from . import __version__

if TYPE_CHECKING:  # frames in the annotations only
    import pandas as pd


def _loaded_pandas():
    """pandas if something loaded it, else None: no frame (nor pandas' NA) exists before,
    and a document of plain values (``bidlab games --json``) need not load it."""
    return sys.modules.get("pandas")


def _is_frame(value) -> bool:
    pandas = _loaded_pandas()
    return pandas is not None and isinstance(value, pandas.DataFrame)


def plain(value):
    """``value`` as JSON holds it: numpy scalars as Python numbers, NaN and infinities as
    None, containers element by element; anything else as its text."""
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if value is None or isinstance(value, (bool, int, str)):
        return value
    pandas = _loaded_pandas()
    if pandas is not None and (value is pandas.NA or value is pandas.NaT):
        return None
    return str(value)


def records(df: pd.DataFrame, index: str | None = None) -> list[dict]:
    """The rows of ``df`` as plain dicts; ``index`` names a column for its index (a table
    whose rows are labelled by it)."""
    if index is not None:
        df = df.rename_axis(index).reset_index()
    return [plain(r) for r in df.to_dict(orient="records")]


def frames(obj) -> dict:
    """Every DataFrame field of the dataclass ``obj`` as records (a chart's tables), its
    other plain fields as they are."""
    out = {}
    for f in dataclasses.fields(obj):
        v = getattr(obj, f.name)
        out[f.name] = records(v) if _is_frame(v) else plain(v)
    return out


def stamp(obj, meta: dict) -> None:
    """Put ``meta`` (a result's provenance, made plain) in the ``attrs`` of every DataFrame
    field of the dataclass ``obj``, so that a table taken out of its result still says how
    its numbers were made: rules, seed, policy, n, and the estimator with N and n.

    >>> import pandas as pd
    >>> @dataclasses.dataclass
    ... class Result:
    ...     table: pd.DataFrame
    >>> r = Result(pd.DataFrame({"ev": [1.0]}))
    >>> stamp(r, {"seed": np.int64(7), "estimator": "plain"})
    >>> r.table.attrs
    {'seed': 7, 'estimator': 'plain'}
    """
    meta = plain(meta)
    for f in dataclasses.fields(obj):
        value = getattr(obj, f.name)
        if _is_frame(value):
            value.attrs.update(meta)


def provenance(meta: dict) -> dict:
    """The provenance of a document: ``meta`` with bidlab's version."""
    return plain({**meta, "bidlab_version": __version__})


def dumps(doc: dict, indent: int | None = 2) -> str:
    """``doc`` as strict JSON (no NaN)."""
    return json.dumps(plain(doc), indent=indent, allow_nan=False)
