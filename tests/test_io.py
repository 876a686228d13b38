"""analyzer.io: round trips with provenance, atomic writes, clear format errors."""

import os

import numpy as np
import pandas as pd
import pytest

from analyzer import __version__, io


def frame(n: int = 50) -> pd.DataFrame:
    rng = np.random.default_rng(0)
    return pd.DataFrame({
        "deal": np.arange(n, dtype=np.int64),
        "points0": rng.integers(0, 15, n).astype(np.int8),
        "hand0": rng.integers(0, 2**63, n, dtype=np.uint64) * np.uint64(2),  # top bit in use
    })


META = {"seed": 7, "rules": "pedro(low_to=holder)", "policy": "heuristic", "first": 0}


@pytest.mark.parametrize("suffix", [".parquet", ".csv"])
def test_round_trip_with_metadata(tmp_path, suffix):
    df = frame()
    path = io.write_table(df, tmp_path / f"run{suffix}", META)
    back = io.read_table(path)
    pd.testing.assert_frame_equal(back, df, check_dtype=(suffix == ".parquet"))
    assert back.attrs == {**META, "n": 50, "bidlab_version": __version__}
    assert os.listdir(tmp_path) == [f"run{suffix}"]  # no temporary file left


def test_parquet_schema_metadata(tmp_path):
    import json

    import pyarrow.parquet as pq

    io.write_table(frame(), tmp_path / "run.parquet", META)
    meta = json.loads(pq.read_schema(tmp_path / "run.parquet").metadata[b"bidlab"])
    assert meta["seed"] == 7 and meta["rules"] == "pedro(low_to=holder)" and meta["n"] == 50


def test_csv_is_readable_by_pandas_with_comment(tmp_path):
    io.write_table(frame(5), tmp_path / "run.csv", META)
    assert list(pd.read_csv(tmp_path / "run.csv", comment="#").columns) == [
        "deal", "points0", "hand0"]


@pytest.mark.parametrize("name", ["run.txt", "run", "run.json"])
def test_unsupported_suffix(tmp_path, name):
    with pytest.raises(io.TableFormatError, match=r"\.parquet, \.csv"):
        io.write_table(frame(), tmp_path / name, META)
    with pytest.raises(io.TableFormatError):
        io.read_table(tmp_path / name)
    assert os.listdir(tmp_path) == []


def test_failed_write_keeps_existing_file_and_removes_temp(tmp_path):
    path = tmp_path / "run.parquet"
    path.write_bytes(b"earlier")
    with pytest.raises(TypeError):  # metadata that JSON cannot encode fails mid-write
        io.write_table(frame(), path, {"seed": object()})
    assert path.read_bytes() == b"earlier"
    assert os.listdir(tmp_path) == ["run.parquet"]


def test_replaces_existing_file(tmp_path):
    path = tmp_path / "run.csv"
    path.write_text("old")
    io.write_table(frame(3), path, META)
    assert len(io.read_table(path)) == 3


def test_check_writable(tmp_path):
    with pytest.raises(FileNotFoundError):
        io.check_writable(tmp_path / "missing" / "run.csv")
    (tmp_path / "d.csv").mkdir()
    with pytest.raises(IsADirectoryError):
        io.check_writable(tmp_path / "d.csv")
    assert io.check_writable(tmp_path / "ok.parquet") == tmp_path / "ok.parquet"


def test_check_out_dir(tmp_path):
    """A folder yet to be made passes when its nearest existing ancestor is a directory,
    and nothing is created; a file in the way fails, naming it."""
    deep = tmp_path / "a" / "b" / "c"
    assert io.check_out_dir(deep) == deep
    assert not (tmp_path / "a").exists()
    assert io.check_out_dir(tmp_path) == tmp_path
    (tmp_path / "f").write_text("")
    for bad in (tmp_path / "f", tmp_path / "f" / "sub"):
        with pytest.raises(NotADirectoryError) as e:
            io.check_out_dir(bad)
        assert e.value.filename == str(tmp_path / "f")

