"""analyzer.io: round trips with provenance, atomic writes, clear format errors."""

import os

import numpy as np
import pandas as pd
import pytest

from analyzer import __version__, atomic, io


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
    # no temporary file left; a CSV's provenance in its sidecar
    assert sorted(os.listdir(tmp_path)) == [f"run{suffix}"] + (
        ["run.csv.json"] if suffix == ".csv" else [])


def test_parquet_schema_metadata(tmp_path):
    import json

    import pyarrow.parquet as pq

    io.write_table(frame(), tmp_path / "run.parquet", META)
    meta = json.loads(pq.read_schema(tmp_path / "run.parquet").metadata[b"bidlab"])
    assert meta["seed"] == 7 and meta["rules"] == "pedro(low_to=holder)" and meta["n"] == 50


def test_csv_is_readable_by_pandas_as_it_is(tmp_path):
    """The header first, nothing before it: pd.read_csv and spreadsheets need no options."""
    df = frame(5)
    io.write_table(df, tmp_path / "run.csv", META)
    back = pd.read_csv(tmp_path / "run.csv")
    assert list(back.columns) == ["deal", "points0", "hand0"]
    assert back["hand0"].astype("uint64").tolist() == df["hand0"].tolist()
    assert (tmp_path / "run.csv").read_text().startswith("deal,points0,hand0\n")


def test_sidecar_provenance_restored_and_optional(tmp_path):
    import hashlib
    import json

    path = io.write_table(frame(4), tmp_path / "run.csv", META)
    side = tmp_path / "run.csv.json"
    digest = hashlib.sha256(path.read_bytes()).hexdigest()  # ties the sidecar to these rows
    assert json.loads(side.read_text()) == {**META, "n": 4, "bidlab_version": __version__,
                                            io.CSV_DIGEST: digest}
    assert io.read_table(path).attrs == {**META, "n": 4, "bidlab_version": __version__}
    side.unlink()  # a CSV without its sidecar still reads, with no provenance
    back = io.read_table(path)
    assert len(back) == 4 and back.attrs == {}


def test_a_users_file_at_the_sidecar_s_name_is_not_replaced(tmp_path):
    """`--out data.csv` replaced a user's data.csv.json with provenance, in silence."""
    side = tmp_path / "data.csv.json"
    side.write_text('{"mine": true}')
    with pytest.raises(FileExistsError, match="did not write"):
        io.write_table(frame(2), tmp_path / "data.csv", META)
    assert side.read_text() == '{"mine": true}' and not (tmp_path / "data.csv").exists()
    side.unlink()
    io.write_table(frame(2), tmp_path / "data.csv", META)
    io.write_table(frame(3), tmp_path / "data.csv", META)  # its own sidecar: replaced
    assert len(io.read_table(tmp_path / "data.csv")) == 3


def test_an_older_csv_with_its_comment_line_still_reads(tmp_path):
    path = tmp_path / "old.csv"
    path.write_text('# bidlab {"seed": 3}\ndeal,points0\n0,7\n')
    back = io.read_table(path)
    assert back.attrs == {"seed": 3} and back["points0"].tolist() == [7]


def test_replacing_a_file_or_folder_is_reported_once(tmp_path):
    """First write: nothing said. Second: one notice, the path as given; a CSV's sidecar is
    not reported apart from its table."""
    said = []
    earlier = atomic.on_replace(said.append)
    try:
        for _ in range(2):
            io.write_table(frame(3), tmp_path / "run.csv", META)
            io.write_table(frame(3), tmp_path / "run.parquet", META)
            with atomic.atomic_dir(tmp_path / "set") as d:
                io.write_manifest(d, META, [io.write_table(frame(2), d / "t.csv", META)])
    finally:
        atomic.on_replace(earlier)
    assert said == [str(tmp_path / "run.csv"), str(tmp_path / "run.parquet"),
                    str(tmp_path / "set")]
    manifest = (tmp_path / "set" / "manifest.json").read_text()
    assert '"t.csv.json"' in manifest


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
    assert atomic.check_out_dir(deep) == deep
    assert not (tmp_path / "a").exists()
    assert atomic.check_out_dir(tmp_path) == tmp_path
    (tmp_path / "f").write_text("")
    for bad in (tmp_path / "f", tmp_path / "f" / "sub"):
        with pytest.raises(NotADirectoryError) as e:
            atomic.check_out_dir(bad)
        assert e.value.filename == str(tmp_path / "f")

