"""Nothing lost: what a review of long runs and their files found, each with its input.

A run store's chunks are a run's only copy and a user's files in an output folder are not
bidlab's: neither is replaced. A command refused (too large, or the store in use) leaves the
store as it was. A damaged chunk is named in one line before any output is written.
"""

from __future__ import annotations

import json
import re

import pytest
from cli_helpers import assert_bad_input, run
from store_helpers import SMALL, edit_chunk, finished_store, merge_as_a_chunk_finishes

from analyzer import atomic, io, runs


@pytest.fixture
def store(tmp_path):
    """A finished run store of 4 chunks that keeps its rows, and its manifest's text."""
    return finished_store(tmp_path)


def test_an_output_folder_that_is_a_run_store_is_refused(store, tmp_path):
    chunks = sorted(p.name for p in (store / "chunks").iterdir())
    assert_bad_input(run("bid-chart", "pedro", "--deals", "100", "--out-dir", str(store)),
                     "is a run store")
    assert sorted(p.name for p in (store / "chunks").iterdir()) == chunks
    assert_bad_input(run("bid-chart", "pedro", "--deals", "2000", "--chunk", "500",
                         "--run-dir", str(tmp_path / "same"), "--out-dir",
                         str(tmp_path / "same")), "overlap")


def test_a_table_inside_a_run_store_is_refused(store):
    chunk = next((store / "chunks").glob("*.parquet"))
    before = chunk.read_bytes()
    assert_bad_input(run("merge", str(store), "--out", str(chunk)), "inside the run store")
    assert chunk.read_bytes() == before


def test_an_output_folder_inside_a_run_store_is_refused(store):
    # was: accepted (only --out was checked), a chart's folder written among the run's files
    before = sorted(p.relative_to(store) for p in store.rglob("*"))
    for inside in (store / "chart", store / "chunks" / "chart"):
        assert_bad_input(run("bid-chart", "pedro", "--deals", "100", "--out-dir", str(inside)),
                         "inside the run store")
    assert sorted(p.relative_to(store) for p in store.rglob("*")) == before


def test_files_bidlab_did_not_write_keep_an_output_folder_from_being_replaced(tmp_path):
    out = tmp_path / "chart"
    assert run("bid-chart", "pedro", "--deals", "500", "--out-dir", str(out)).exit_code == 0
    (out / "NOTES.txt").write_text("mine")
    assert_bad_input(run("bid-chart", "pedro", "--deals", "500", "--out-dir", str(out)),
                     "NOTES.txt")
    assert (out / "NOTES.txt").read_text() == "mine"
    (out / "NOTES.txt").unlink()  # only bidlab's own files: replaced, as before
    assert run("bid-chart", "pedro", "--deals", "500", "--out-dir", str(out)).exit_code == 0


def test_a_refused_extension_leaves_the_store_as_it_was(store):
    manifest = (store / "manifest.json").read_text()
    assert_bad_input(run("resume", str(store), "--extend", str(2**63 - 1)), "--extend")
    assert (store / "manifest.json").read_text() == manifest
    with runs.RunStore(store).lock():  # another process plays into it: refused, unchanged
        assert_bad_input(run("resume", str(store), "--extend", "1000"), "in use")
    assert (store / "manifest.json").read_text() == manifest
    assert run("resume", str(store), "--extend", "1000").exit_code == 0
    assert runs.RunStore(store).deals == 5000


def test_an_extension_refused_at_its_measured_pace_names_extend_and_is_undone(
        store, monkeypatch):
    """The run is refused after its first chunk, at this machine's pace: the line names the
    option that asked for the deals, and the store is as it was."""
    from analyzer import limits

    manifest = (store / "manifest.json").read_text()
    monkeypatch.setattr(limits, "FASTEST_PER_SECOND", 1e30)  # passes the up-front check
    monkeypatch.setattr(limits, "TIME_LIMIT", 1e-9)  # no machine here is that fast
    line = assert_bad_input(run("resume", str(store), "--extend", "4000"), "at the pace")
    assert "--extend 4,000 makes 8,000 deals" in line, line
    assert (store / "manifest.json").read_text() == manifest
    assert runs.RunStore(store).deals == 4000


def test_a_new_store_refused_for_its_size_is_not_left_behind(tmp_path):
    d = tmp_path / "huge"
    assert_bad_input(run("simulate", "pedro", "--deals", str(10**15), "--run-dir", str(d)),
                     "would take")
    assert not d.exists()


@pytest.mark.parametrize("damage, expected", [
    ("truncated json", "is damaged"), ("no stats", "is damaged"),
    ("truncated parquet", "missing or damaged"), ("missing parquet", "missing or damaged"),
    ("list manifest", "not a bidlab run manifest")])
def test_a_damaged_store_is_one_line_and_writes_no_output(store, tmp_path, damage, expected):
    chunk = sorted((store / "chunks").glob("*.json"))[1]
    rows = chunk.with_suffix(".parquet")
    if damage == "truncated json":
        chunk.write_text(chunk.read_text()[:200])
    elif damage == "no stats":
        chunk.write_text(json.dumps({"attrs": {}, "state": {}}))
    elif damage == "truncated parquet":
        rows.write_bytes(rows.read_bytes()[:2000])
    elif damage == "missing parquet":
        rows.unlink()
    else:
        (store / "manifest.json").write_text("[]")
    out = tmp_path / "again.parquet"
    assert_bad_input(run("resume", str(store), "--out", str(out)), expected)
    assert not out.exists()
    if damage != "list manifest":  # the advice works: the chunk is played again
        chunk.unlink()
        rows.unlink(missing_ok=True)
        assert run("resume", str(store), "--out", str(out)).exit_code == 0
        assert io.read_table(out).equals(io.read_table(tmp_path / "rows.parquet"))


def test_a_fault_in_reading_every_chunk_is_not_blamed_on_the_first(store, monkeypatch):
    """Where no chunk reads alone, the reading code is at fault: its error and traceback
    go up. "0000...+1000.json is damaged; delete that chunk's files" sent the user to
    delete good data, and the same error came back."""
    opened = runs.RunStore(store)

    def faulty(job, states, attrs):
        raise KeyError("a bug in the result code")

    monkeypatch.setattr(type(opened.job), "result", faulty)
    with pytest.raises(KeyError, match="a bug in the result code"):
        opened.result()


def test_one_chunk_unlike_the_others_is_named(store, monkeypatch):
    opened = runs.RunStore(store)
    result = type(opened.job).result
    second = sorted(p.name for p in (store / "chunks").glob("*.json"))[1]
    states = [opened._chunk_state(lo, n) for lo, n in opened.done()]

    def fails_on_the_second(job, chunk_states, attrs):
        if any(s is states[1] for s in chunk_states):
            raise KeyError("stats")
        return result(job, chunk_states, attrs)

    monkeypatch.setattr(opened, "_chunk_state", lambda lo, n: states[
        [c[0] for c in opened.done()].index(lo)])
    monkeypatch.setattr(type(opened.job), "result", fails_on_the_second)
    with pytest.raises(runs.RunStoreError, match=re.escape(f"{second} is damaged")):
        opened.result()


def test_resume_writes_the_chart_folder_the_run_was_started_with(tmp_path):
    d, out = tmp_path / "run", tmp_path / "chart"
    args = ["bid-chart", "pedro", "--deals", "2000", "--chunk", "500", "--seed", "2"]
    assert run(*args, "--run-dir", str(d), "--out-dir", str(out)).exit_code == 0
    (out / "chart.csv").unlink()  # as if the first run had been killed before writing it
    for p in sorted((d / "chunks").iterdir())[-2:]:
        p.unlink()
    assert run("resume", str(d)).exit_code == 0
    assert (out / "chart.csv").is_file()


def test_resume_refuses_a_user_s_file_put_at_the_out_the_run_was_started_with(tmp_path):
    """It was replaced ("bidlab: replaced ...") though --out itself refuses it; now the
    recorded paths are checked as the options are, before any chunk is played."""
    d, out = tmp_path / "run", tmp_path / "rows.csv"
    assert run(*SMALL, "--run-dir", str(d), "--out", str(out)).exit_code == 0
    for p in sorted((d / "chunks").iterdir())[-2:]:  # as if killed in its last chunk
        p.unlink()
    out.write_text("my,own\n1,2\n")
    io.sidecar(out).unlink()
    played = sorted(p.name for p in (d / "chunks").iterdir())
    line = assert_bad_input(run("resume", str(d)), "holds a file bidlab did not write")
    assert "the --out" in line and str(d) in line, line
    assert out.read_text() == "my,own\n1,2\n"
    assert sorted(p.name for p in (d / "chunks").iterdir()) == played
    # a user's note in a chart's folder is found before the run too, not after it
    chart, folder = tmp_path / "chart-run", tmp_path / "chart"
    assert run("bid-chart", "pedro", "--deals", "2000", "--chunk", "500", "--run-dir",
               str(chart), "--out-dir", str(folder)).exit_code == 0
    (chart / "chunks" / f"{1500:019d}+500.json").unlink()
    (folder / "NOTES.txt").write_text("mine")
    assert_bad_input(run("resume", str(chart)), "the --out-dir", "NOTES.txt")
    assert not (chart / "chunks" / f"{1500:019d}+500.json").exists()
    assert (folder / "NOTES.txt").read_text() == "mine"


def test_a_store_with_a_chunk_missing_merges_with_its_ranges(store):
    """The README's advice for a damaged chunk (delete it) leaves a gap: merge raised a
    TypeError, and its JSON lost the seed."""
    whole = run("merge", str(store), "--json")
    for p in (store / "chunks").glob(f"{1000:019d}+1000.*"):
        p.unlink()
    text = run("merge", str(store))
    assert text.exit_code == 0, text.stderr
    assert "n=3000 deals (0..999 of seed 3; 2000..3999 of seed 3)" in text.stdout
    doc = json.loads(run("merge", str(store), "--json").stdout)["provenance"]
    assert doc["ranges"] == [[3, 0, 1000], [3, 2000, 2000]] and doc["n"] == 3000
    assert run("resume", str(store)).exit_code == 0  # the gap played again: the whole run
    assert run("merge", str(store), "--json").stdout == whole.stdout


def test_a_chunk_of_another_run_or_twice_the_same_deals_is_named(store, tmp_path):
    """A chunk copied in from another run was summed in without a word (another seed's
    deals counted as this run's), and two chunks sharing deals gave a traceback."""
    other = tmp_path / "other"
    assert run(*SMALL[:-1], "4", "--run-dir", str(other)).exit_code == 0
    name = f"{1000:019d}+1000.json"
    mine = (store / "chunks" / name).read_bytes()
    (store / "chunks" / name).write_bytes((other / "chunks" / name).read_bytes())
    for args in (["resume", str(store)], ["merge", str(store)]):
        line = assert_bad_input(run(*args), "is not of the run manifest.json describes: its "
                                "seed is 4, the manifest's 3")
        assert name in line, line
    (store / "chunks" / name).write_bytes(mine)
    assert_bad_input(run("merge", str(store), str(store)), "given twice")
    (store / "chunks" / f"{1500:019d}+1000.json").write_bytes(mine)
    assert_bad_input(run("resume", str(store)), "share deals 1,500..1,999")


def test_a_resumed_run_s_progress_counts_the_deals_left(store, monkeypatch):
    """It jumped at once to the share done before, and so measured its time left on deals
    it had not played."""
    from analyzer.cli import options

    monkeypatch.setattr(options.LineProgress, "EVERY", 0.0)
    for p in sorted((store / "chunks").iterdir())[-4:]:  # the last two chunks
        p.unlink()
    r = run("resume", str(store), "--progress")
    assert r.exit_code == 0, r.stderr
    shares = [line.split()[1] for line in r.stderr.splitlines() if line.startswith("simulating")]
    assert shares == ["50%", "100%"], r.stderr


def test_rows_from_a_run_store_carry_the_provenance_pandas_reads(store, tmp_path):
    """pd.read_parquet(...).attrs held the provenance for a run without a store, and {} for
    the same run with one."""
    import pandas as pd

    plain = tmp_path / "plain.parquet"
    assert run(*SMALL, "--out", str(plain)).exit_code == 0
    stored, whole = pd.read_parquet(tmp_path / "rows.parquet"), pd.read_parquet(plain)
    assert stored.attrs == whole.attrs and whole.attrs["seed"] == 3
    assert stored.equals(whole)


def test_a_csv_whose_provenance_is_of_other_rows_is_refused(tmp_path):
    a, b = tmp_path / "a.csv", tmp_path / "b.csv"
    for seed, path in (("1", a), ("2", b)):
        assert run("simulate", "pedro", "--deals", "300", "--seed", seed, "--out",
                   str(path)).exit_code == 0
    assert io.read_table(a).attrs["seed"] == 1
    # a kill between the two renames: seed 2's provenance beside seed 1's rows
    io.sidecar(a).write_bytes(io.sidecar(b).read_bytes())
    with pytest.raises(io.TableFormatError, match="not of these rows"):
        io.read_table(a)


def test_ctrl_c_leaves_no_temporary_behind(tmp_path):
    # abort_now ends the process with os._exit, so no finally removes the half-file; it
    # calls remove_in_flight first (here the block's own rename then fails: in the real
    # abort the process is gone by then)
    with pytest.raises(OSError), atomic.atomic_open(tmp_path / "rows.bin") as f:
        f.write(b"half")
        assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".rows.bin")]
        atomic.remove_in_flight()
        assert not list(tmp_path.iterdir())
    assert not list(tmp_path.iterdir())


def test_ctrl_c_during_a_swap_waits_for_it(tmp_path, monkeypatch):
    """Ctrl-C removes the temporaries from the main thread while the command's thread may
    be swapping its folder in: the folder went in emptied, a manifest alone (SIGTERM, one
    CI run). The removal now waits for the swap under way."""
    import threading
    import time

    out = tmp_path / "chart"
    with atomic.atomic_dir(out) as d:
        (d / "manifest.json").write_text('{"bidlab_version": "0", "files": ["old.txt"]}')
        (d / "old.txt").write_text("old")
    real = atomic._exchange
    removal = []

    def exchange_as_ctrl_c_comes(a, b):  # the main thread's removal starts mid-swap
        removal.append(threading.Thread(target=atomic.remove_in_flight))
        removal[0].start()
        time.sleep(0.3)
        return real(a, b)

    monkeypatch.setattr(atomic, "_exchange", exchange_as_ctrl_c_comes)
    new = [f"part{k}.csv" for k in range(50)]
    with atomic.atomic_dir(out) as d:
        (d / "manifest.json").write_text(json.dumps({"bidlab_version": "0", "files": new}))
        for name in new:
            (d / name).write_text("rows")
    removal[0].join(timeout=20)
    assert sorted(p.name for p in out.iterdir()) == sorted([*new, "manifest.json"])


def test_a_run_out_of_memory_midway_keeps_its_chunks(tmp_path, monkeypatch):
    # only a refusal for time undoes a run (the same run would be refused again); memory
    # running short at a later chunk leaves the finished ones, and resume plays the rest
    from analyzer.games import common
    from analyzer.limits import SizeError

    real, calls = common.require_memory, []

    def short_from_the_third(*args, **kwargs):
        calls.append(1)
        if len(calls) >= 3:
            raise SizeError("--deals 1,000 needs more memory than is free")
        return real(*args, **kwargs)

    monkeypatch.setattr(common, "require_memory", short_from_the_third)
    d = tmp_path / "run"
    assert_bad_input(run(*SMALL, "--run-dir", str(d)), "memory")
    assert len(runs.RunStore(d).done()) == 2
    monkeypatch.setattr(common, "require_memory", real)
    assert run("resume", str(d)).exit_code == 0 and runs.RunStore(d).complete()


def test_run_and_chart_folders_that_overlap_are_refused_up_front(tmp_path):
    args = ["bid-chart", "pedro", "--deals", "2000", "--chunk", "500"]
    for store, chart in (("x/run", "x"), ("y", "y/chart")):
        assert_bad_input(run(*args, "--run-dir", str(tmp_path / store), "--out-dir",
                             str(tmp_path / chart)), "overlap")
    assert not list(tmp_path.iterdir())


def test_the_rows_of_merged_runs_summarize_as_their_ranges(tmp_path):
    from analyzer.summary import summarize

    for name, first in (("a", "0"), ("b", "2000")):
        assert run("simulate", "pedro", "--deals", "500", "--first", first, "--run-dir",
                   str(tmp_path / name), "--out", str(tmp_path / f"{name}.parquet")).exit_code == 0
    both = tmp_path / "both.parquet"
    assert run("merge", str(tmp_path / "a"), str(tmp_path / "b"), "--out", str(both)).exit_code == 0
    head = summarize(io.read_table(both)).to_text().splitlines()[0]
    assert head == "pedro: n=1000 deals (0..499 of seed 1; 2000..2499 of seed 1), policy heuristic"


def test_chunks_sharing_a_single_deal_are_refused_naming_that_deal(tmp_path):
    """Chunks 0+100 and 99+100 of one run share deal 99 alone: refused, naming it, though
    each chunk is whole and of this run (adjacent chunks, 0+100 and 100+100, are not)."""
    d = tmp_path / "run"
    args = ["simulate", "pedro", "--deals", "200", "--chunk", "100", "--seed", "3"]
    assert run(*args, "--run-dir", str(d)).exit_code == 0
    assert runs.RunStore(d).done() == [(0, 100), (100, 100)]
    shifted = tmp_path / "shifted"  # the same run's deals 99..198, played as one chunk
    assert run("simulate", "pedro", "--deals", "100", "--seed", "3", "--first", "99",
               "--run-dir", str(shifted)).exit_code == 0
    late = d / "chunks" / f"{100:019d}+100.json"
    early = d / "chunks" / f"{99:019d}+100.json"
    late.unlink()
    early.write_bytes((shifted / "chunks" / early.name).read_bytes())
    with pytest.raises(runs.RunStoreError, match=r"share deals 99\.\.99,"):
        runs.RunStore(d).done()
    for args in (["resume", str(d)], ["merge", str(d)]):
        line = assert_bad_input(run(*args), "share deals 99..99,")
        assert f"{0:019d}+100.json" in line and early.name in line, line


def test_a_save_keeps_the_deals_another_process_extended_the_store_to(store):
    """Two commands open the store; the other one extends it to 5,000 deals and saves first:
    this one's save, asked for the 4,000 it read, keeps the 5,000 (the extension's deals
    are not lost), and resume plays them."""
    job = runs.RunStore(store).job
    mine = runs.RunStore.open(store, job, 0, 4000, 1000)
    other = runs.RunStore.open(store, job, 0, 5000, 1000)
    other.save()
    assert runs.RunStore(store).deals == 5000
    mine.save()
    assert mine.deals == 5000 and runs.RunStore(store).deals == 5000
    assert run("resume", str(store)).exit_code == 0
    assert runs.RunStore(store).n_done == 5000


def _edit_manifest(store, edit) -> list:
    """Apply ``edit`` to the store's manifest (a dict) and return its chunks' bytes."""
    p = store / "manifest.json"
    m = json.loads(p.read_text())
    edit(m)
    p.write_text(json.dumps(m))
    return sorted((c.name, c.read_bytes()) for c in (store / "chunks").iterdir())


@pytest.mark.parametrize("edit, said", [
    (lambda m: m["job"].update(seed=-1), "its job's seed -1 or search_deals 0 is out of range"),
    (lambda m: m["job"].update(extra=1), "its job has fields"),
    (lambda m: m.update(deals=0), "its deals is 0, not a whole number of at least 1"),
    (lambda m: m.update(chunk=True), "its chunk is True"),
    (lambda m: m.update(deals=3000), "asks for deals 0..2,999, but the run has played "
                                     "3,000..3,999")])
def test_a_manifest_out_of_what_a_run_writes_is_named_not_a_sound_chunk(store, edit, said):
    """An edited manifest is refused in one line naming the manifest and what is wrong with
    it: a seed below 0 is not blamed on the chunks played with the real one, a job field
    no run writes is no traceback, a size of 0 or a chunk of ``true`` is not read as a
    number, and chunks past the deals it asks for are named; the chunks stay as they were."""
    before = _edit_manifest(store, edit)
    line = assert_bad_input(run("resume", str(store)), "manifest.json", said)
    assert "delete" not in line, line
    assert sorted((c.name, c.read_bytes()) for c in (store / "chunks").iterdir()) == before


def test_a_run_store_named_only_by_spaces_is_an_empty_name(tmp_path, monkeypatch):
    """A name of spaces is as empty as no name: refused, no folder made of it."""
    monkeypatch.chdir(tmp_path)
    for args in (["simulate", "pedro", "--deals", "10", "--run-dir", "  "], ["resume", " "]):
        assert_bad_input(run(*args), "empty name")
    assert list(tmp_path.iterdir()) == []


def test_a_chunk_s_rows_of_other_deals_are_named_not_written(store, tmp_path):
    """A chunk's rows file copied over another's of the same size: only its row count was
    checked, so resume --out and merge --out wrote deals 1,000..1,999 twice and 0..999
    never, under metadata that said 0..3,999."""
    chunks = store / "chunks"
    copied = chunks / f"{0:019d}+1000.parquet"
    copied.write_bytes((chunks / f"{1000:019d}+1000.parquet").read_bytes())
    out = tmp_path / "again.parquet"
    for args in (["resume", str(store)], ["merge", str(store)]):
        line = assert_bad_input(run(*args, "--out", str(out)), copied.name,
                                "its first is 1000, the manifest's 0")
        assert not out.exists(), line


def test_a_chunk_s_provenance_of_another_run_is_named_not_written(store, tmp_path):
    """The first chunk's attrs become the --out table's provenance: edited (or copied in
    from another run) they were written as this run's, seed 9 on seed 3's rows."""
    p = store / "chunks" / f"{0:019d}+1000.json"
    edit_chunk(p, lambda chunk: chunk["attrs"].update(seed=9))
    out = tmp_path / "again.parquet"
    assert_bad_input(run("resume", str(store), "--out", str(out)), p.name, "its seed is 9")
    assert not out.exists()


def test_chunks_whose_statistics_do_not_add_up_are_named(store):
    """A chunk whose statistic is a count where the others hold a mean parses alone but
    not beside them: an AttributeError's traceback."""
    p = store / "chunks" / f"{1000:019d}+1000.json"
    edit_chunk(p, lambda chunk: chunk["state"]["stats"].update(points_bidding_side=["c", 1, 2]))
    for args in (["resume", str(store)], ["merge", str(store)]):
        assert_bad_input(run(*args), p.name, "do not add up")


def test_a_chunk_changed_so_that_it_still_adds_up_is_named_by_its_checksum(store, tmp_path):
    """A flipped bit or an edit that still parses (one more point in a sum) was summed into
    the run without a word; so was a rows file rewritten with another value, whose count
    and provenance still hold. Each is named in one line, and no table is written."""
    p = store / "chunks" / f"{1000:019d}+1000.json"
    text = p.read_text()
    chunk = json.loads(text)
    total = chunk["state"]["stats"]["points_bidding_side"]
    assert isinstance(total, list) and isinstance(total[1], int), total
    total[1] += 1
    p.write_text(json.dumps(chunk))
    out = tmp_path / "again.parquet"
    for args in (["resume", str(store), "--out", str(out)], ["merge", str(store)]):
        assert_bad_input(run(*args), p.name, "does not match its checksum")
    assert not out.exists()
    p.write_text(text)
    rows = store / "chunks" / f"{2000:019d}+1000.parquet"
    df = io.read_table(rows)
    df.loc[5, "bid"] = df.loc[5, "bid"] + 1
    io.write_table(df, rows, df.attrs)
    line = assert_bad_input(run("resume", str(store), "--out", str(out)), rows.name,
                            "do not match the checksum")
    assert not out.exists(), line


@pytest.mark.parametrize("when", ["write_table_parts", "merged_summary"])
def test_merge_writes_the_chunks_it_summarized_though_a_run_plays_into_the_store(
        store, tmp_path, monkeypatch, when):
    """merge takes no lock: a chunk the run finished between merge's summary and its rows
    went into the table, 4,000 rows under metadata (and a summary) of 3,000; one finished
    after merge pinned its stores, before it summed them, went into the summary alone."""
    out = tmp_path / "merged.parquet"
    owner = io if when == "write_table_parts" else runs
    r = merge_as_a_chunk_finishes(store, out, monkeypatch, owner, when)
    assert r.exit_code == 0, r.stderr
    assert "n=3000 deals" in r.stdout
    rows = io.read_table(out)
    assert len(rows) == rows.attrs["n"] == 3000


def test_a_run_killed_before_its_first_chunk_resumes_on_a_cluster_at_its_chunk(
        store, tmp_path, monkeypatch):
    """--chunk 1000 is in the manifest, but resume on a cluster measured new sizes for a
    store with no chunk done: other chunks, and an --out table of other bytes."""
    from analyzer.runs import executors

    class Measuring(executors.LocalExecutor):  # a cluster's sizing, played here
        measures = True

    for p in (store / "chunks").iterdir():  # as if killed in its first chunk
        p.unlink()
    (tmp_path / "rows.parquet").unlink()
    monkeypatch.setattr(runs, "executor", lambda *where: Measuring())
    r = run("resume", str(store))
    assert r.exit_code == 0, r.stderr
    assert [n for _, n in runs.RunStore(store).done()] == [1000] * 4
    plain = tmp_path / "plain.parquet"
    assert run(*SMALL, "--out", str(plain)).exit_code == 0
    assert (tmp_path / "rows.parquet").read_bytes() == plain.read_bytes()


def test_a_table_in_a_new_run_store_s_folder_is_refused_up_front(tmp_path):
    """--out inside a new --run-dir (an empty folder) was written among its chunks, and
    every resume then refused the --out the run was started with; --run-dir X --out X
    played the whole run, then refused the table."""
    (tmp_path / "run").mkdir()
    for store, table in (("run", "run/rows.parquet"), ("same.parquet", "same.parquet")):
        assert_bad_input(run(*SMALL, "--run-dir", str(tmp_path / store), "--out",
                             str(tmp_path / table)), "overlap")
    assert [p.name for p in tmp_path.iterdir()] == ["run"]
    assert not list((tmp_path / "run").iterdir())


@pytest.mark.parametrize("name", ["manifest.json", f"chunks/{1000:019d}+1000.json"])
def test_a_store_file_this_user_may_not_read_is_said_so(store, monkeypatch, name):
    """Read, not written: merge said "cannot write manifest.json", and an unreadable chunk
    was called damaged, with the advice to delete it."""
    import builtins
    import io as stdio

    real, locked = builtins.open, store / name

    def open_as_another_user(file, *args, **kwargs):
        if str(file) == str(locked):
            raise PermissionError(13, "Permission denied", str(file))
        return real(file, *args, **kwargs)

    for module in (builtins, stdio):  # open() and Path.open()
        monkeypatch.setattr(module, "open", open_as_another_user)
    for args in (["resume", str(store)], ["merge", str(store)]):
        line = assert_bad_input(run(*args), f"cannot read {locked}: Permission denied")
        assert "delete" not in line, line


def test_a_store_that_lost_its_manifest_is_not_called_the_user_s_files(store):
    (store / "manifest.json").unlink()
    for args in (["resume", str(store)], ["merge", str(store)], [*SMALL, "--run-dir", str(store)]):
        line = assert_bad_input(run(*args), "holds a run's chunks but no manifest.json")
        assert "did not write" not in line, line


def test_a_store_written_before_checksums_still_resumes_and_merges(store, tmp_path):
    """Chunks without checksums (a store of an earlier bidlab) are read as before: the same
    table, byte for byte, as the run wrote."""
    for p in (store / "chunks").glob("*.json"):
        edit_chunk(p, lambda chunk: chunk.pop("rows_sha256"))
    again = tmp_path / "again.parquet"
    r = run("resume", str(store), "--out", str(again))
    assert r.exit_code == 0, r.stderr
    assert again.read_bytes() == (tmp_path / "rows.parquet").read_bytes()
    assert run("merge", str(store)).exit_code == 0


def test_a_lone_chunk_without_its_checksum_is_named_when_it_does_not_read(tmp_path):
    """A store of one chunk, written before checksums, whose state lost its stats: nothing
    vouches for the chunk, so it is named (one line), not the reading code."""
    d = tmp_path / "one"
    assert run("simulate", "pedro", "--deals", "500", "--run-dir", str(d)).exit_code == 0
    (chunk,) = sorted((d / "chunks").glob("*.json"))
    edit_chunk(chunk, lambda c: c.update(state={}))
    assert_bad_input(run("resume", str(d)), f"{chunk.name} is damaged")


def _begun_by_another_build(store, kernels="0" * 64):
    manifest = json.loads((store / "manifest.json").read_text())
    manifest["kernels"] = kernels
    (store / "manifest.json").write_text(json.dumps(manifest))


def test_a_run_begun_by_another_build_is_not_finished_by_this_one(tmp_path):
    """A run stopped, bidlab upgraded (a heuristic changed), then resumed: the deals left
    would be played by other players and summed with the first without a word. Refused in
    one line, the store unchanged; a finished run still reads, and one from before builds
    were kept still resumes."""
    d = tmp_path / "run"
    assert run(*SMALL, "--run-dir", str(d)).exit_code == 0
    assert json.loads((d / "manifest.json").read_text())["kernels"] == \
        runs.store.build_digest()
    assert run("resume", str(d)).exit_code == 0  # finished: nothing is played
    _begun_by_another_build(d)
    assert run("resume", str(d)).exit_code == 0  # read by another build: its own figures
    manifest = (d / "manifest.json").read_text()
    assert_bad_input(run("resume", str(d), "--extend", "1000"), "another build of bidlab",
                     "1,000 deals left")
    (chunk, rows) = sorted((d / "chunks").iterdir())[-2:]  # killed before its last chunk
    chunk.unlink()
    rows.unlink()
    assert_bad_input(run("resume", str(d)), "another build of bidlab", "start the run again")
    assert (d / "manifest.json").read_text() == manifest
    manifest = json.loads(manifest)
    manifest.pop("kernels")  # a store of an earlier bidlab: no build to hold it to
    (d / "manifest.json").write_text(json.dumps(manifest))
    assert run("resume", str(d)).exit_code == 0
    assert run("resume", str(d)).exit_code == 0


def test_runs_of_two_builds_are_not_merged(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    assert run(*SMALL, "--run-dir", str(a)).exit_code == 0
    assert run(*SMALL[:-1], "4", "--run-dir", str(b)).exit_code == 0  # another seed
    assert run("merge", str(a), str(b)).exit_code == 0
    _begun_by_another_build(b)
    assert_bad_input(run("merge", str(a), str(b)), f"cannot merge {a} and {b}",
                     "other builds of bidlab")
    _begun_by_another_build(a, 5 * "ab" + "0" * 54)  # two builds, neither this one
    assert_bad_input(run("merge", str(a), str(b)), "other builds of bidlab")


def test_a_chunk_played_by_another_build_is_refused_not_summed(tmp_path, monkeypatch):
    """A cluster's worker with another install of bidlab plays other players: its chunks
    were summed with the rest without a word. Refused in one line, nothing kept."""
    from analyzer.runs import job

    monkeypatch.setattr(job, "build_digest", lambda: "0" * 64)  # where the chunk is played
    d = tmp_path / "run"
    assert_bad_input(run(*SMALL, "--run-dir", str(d)), "deals 0..999 were played by another "
                     "build of bidlab", "install the same bidlab on every worker")
    assert not list((d / "chunks").glob("*.json")) if d.exists() else True
    assert_bad_input(run("simulate", "pedro", "--deals", "500"), "another build")
