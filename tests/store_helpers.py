"""Helpers shared by the run-store tests: a small finished store, and a chunk edited as an
older store's (no checksum) so that the checks behind the checksum are reached."""

import json

from cli_helpers import run

SMALL = ["simulate", "pedro", "--deals", "4000", "--chunk", "1000", "--seed", "3"]


def finished_store(tmp_path):
    """A finished run store of 4 chunks of 1,000 deals that keeps its rows (its table in
    ``tmp_path / "rows.parquet"``)."""
    d = tmp_path / "run"
    r = run(*SMALL, "--run-dir", str(d), "--out", str(tmp_path / "rows.parquet"))
    assert r.exit_code == 0, r.stderr
    return d


def edit_chunk(path, change) -> None:
    """``change(chunk)`` on a chunk's JSON, written back without its checksum: a chunk of a
    store written before checksums, so that what is checked behind them is reached."""
    chunk = json.loads(path.read_text())
    chunk.pop("sha256")
    change(chunk)
    path.write_text(json.dumps(chunk))


def merge_as_a_chunk_finishes(store, out, monkeypatch, owner, name: str):
    """``bidlab merge STORE --out OUT`` with the store's last chunk taken away and put back
    when ``owner.name`` is first called, as a run playing into the store would finish it
    while merge, which takes no lock, reads: the result."""
    last = sorted((store / "chunks").iterdir())[-2:]  # the last chunk's .json and .parquet
    kept = {p: p.read_bytes() for p in last}
    for p in last:
        p.unlink()
    real = getattr(owner, name)

    def a_chunk_finishes(*args, **kwargs):
        for p, data in kept.items():
            p.write_bytes(data)
        return real(*args, **kwargs)

    monkeypatch.setattr(owner, name, a_chunk_finishes)
    return run("merge", str(store), "--out", str(out))
