"""Runs in chunks: exact merges, run stores (kill -9 and resume, extend, merge) and the Dask
executor on a real LocalCluster bound to 127.0.0.1, each against one uninterrupted local run.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import signal
import socket
import subprocess
import sys
import time
import warnings

import pandas as pd
import pytest
from cli_helpers import assert_bad_input, report_data, run

from analyzer import runs
from analyzer.games import game
from analyzer.summary import from_state, merge

BIDLAB = [sys.executable, "-m", "analyzer"]
CASES = [("pedro", None), ("cinch", None), ("rook", None), ("king", None),
         ("king", "positive"), ("king", "no-hearts")]


@pytest.mark.parametrize("preset, contract", CASES)
def test_chunks_merge_into_the_whole_run_bit_for_bit(preset, contract):
    """Uneven chunks (one of 7 deals), merged and through JSON, give the whole frame's summary:
    every estimate equal as a float, not just to the digits printed."""
    g = game(preset)
    rules = g.module.parse_rules(preset)
    whole = g.summarize(g.simulate(rules, 2000, 3, "heuristic", 0, contract=contract))
    parts = [g.summarize(g.simulate(rules, n, 3, "heuristic", lo, contract=contract))
             for lo, n in ((0, 700), (700, 7), (707, 1293))]
    merged = from_state(json.loads(json.dumps(merge(parts[::-1]).to_state())))
    assert merged.to_document() == whole.to_document()
    assert merged.estimates == whole.estimates


@pytest.mark.parametrize("sizes, message", [
    ({"deals": 0}, "deals must be"), ({"deals": -3}, "deals must be"),
    ({"deals": 0, "out": "rows.parquet"}, "deals must be"),
    ({"deals": 10, "first": -1}, "first must be"), ({"deals": 10, "chunk": 0}, "chunk must be"),
])
def test_play_refuses_sizes_no_run_can_take(sizes, message, tmp_path, monkeypatch):
    """0 deals read as a bare StopIteration (with out=) or "nothing to merge"."""
    from analyzer.limits import ArgumentError

    monkeypatch.chdir(tmp_path)
    job = runs.Job.of("pedro", seed=1, policy="heuristic", rows="out" in sizes)
    with pytest.raises(ArgumentError, match=message):
        runs.play(job, **{"first": 0, **sizes})
    assert not list(tmp_path.iterdir())


def test_a_merge_can_fail():
    """A summary of other deals differs (the comparison above can fail)."""
    g = game("pedro")
    rules = g.module.parse_rules("pedro")
    a = g.summarize(g.simulate(rules, 500, 3, "heuristic", 0))
    b = g.summarize(g.simulate(rules, 500, 3, "heuristic", 500))
    assert merge([a]).to_document() == a.to_document()
    assert merge([a, b]).estimates != a.estimates
    with pytest.raises(ValueError, match="overlap"):
        merge([a, a])


def test_remaining_chunks_are_cut_where_the_whole_run_cuts():
    assert list(runs.job.remaining(10, 25, [], 10)) == [(10, 10), (20, 10), (30, 5)]
    assert list(runs.job.remaining(10, 25, [(20, 10)], 10)) == [(10, 10), (30, 5)]
    assert list(runs.job.remaining(0, 10, [(0, 10)], 3)) == []


def test_a_two_level_chart_cuts_its_searched_deals_at_a_searching_run_s_chunk_size():
    """The first search_deals (a tenth of a second or more each) in chunks of a searching
    run's size (50 deals for 500), not in one chunk of the cheap deals' size; the cheap
    deals after them in the given chunk size, cut from where the searched ones end."""
    job = runs.Job.of("pedro", seed=1, policy="dd", kind="bid-chart", base="heuristic",
                      search_deals=500)
    searched = [(lo, 50) for lo in range(0, 500, 50)]
    assert list(job.cuts(0, 20_000, [], 20_000)) == [*searched, (500, 19_500)]
    assert list(job.cuts(0, 6000, [], 2000)) == [*searched, (500, 2000), (2500, 2000),
                                                 (4500, 1500)]
    # what a resume plays: only the chunks not done, cut where the whole run cuts them
    assert list(job.cuts(0, 6000, [(0, 100), (500, 2000)], 2000)) == [
        *searched[2:], (2500, 2000), (4500, 1500)]
    cheap = runs.Job.of("pedro", seed=1, policy="heuristic", kind="bid-chart")
    assert list(cheap.cuts(0, 6000, [], 2000)) == [(0, 2000), (2000, 2000), (4000, 2000)]


def _chunk_files(folder) -> int:
    chunks = folder / "chunks"
    return len(list(chunks.glob("*.json"))) if chunks.is_dir() else 0


def test_a_killed_run_resumes_to_the_same_bytes(tmp_path):
    """simulate --run-dir killed with SIGKILL after some chunks; bidlab resume plays the rest:
    the rows file and the summary are byte for byte those of an uninterrupted run."""
    args = ["simulate", "pedro", "--deals", "300000", "--chunk", "5000", "--seed", "4"]
    whole = run(*args, "--run-dir", str(tmp_path / "whole"), "--out",
                str(tmp_path / "whole.parquet"))
    assert whole.exit_code == 0, whole.stderr
    p = subprocess.Popen([*BIDLAB, *args, "--run-dir", str(tmp_path / "cut"), "--out",
                          str(tmp_path / "cut.parquet")], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    while _chunk_files(tmp_path / "cut") < 4:
        assert p.poll() is None, "the run ended before it could be killed"
        time.sleep(0.01)
    p.send_signal(signal.SIGKILL)
    p.communicate(timeout=60)
    kept = _chunk_files(tmp_path / "cut")
    assert 4 <= kept < 60 and not (tmp_path / "cut.parquet").exists()
    resumed = run("resume", str(tmp_path / "cut"))
    assert resumed.exit_code == 0, resumed.stderr
    assert resumed.stdout == whole.stdout
    assert (tmp_path / "cut.parquet").read_bytes() == (tmp_path / "whole.parquet").read_bytes()
    assert not [q for q in (tmp_path / "cut" / "chunks").iterdir() if q.name.startswith(".")]
    # the same command again resumes too (here: nothing left to play but the rows to write)
    (tmp_path / "cut.parquet").unlink()
    again = run(*args, "--run-dir", str(tmp_path / "cut"), "--out", str(tmp_path / "cut.parquet"))
    assert again.exit_code == 0 and again.stdout == whole.stdout
    assert (tmp_path / "cut.parquet").read_bytes() == (tmp_path / "whole.parquet").read_bytes()


def test_progress_asked_for_into_a_log_comes_as_lines(monkeypatch):
    """click's bar draws nothing when stderr is not a terminal: `--progress 2> run.log` got
    the label and nothing more."""
    from analyzer.cli import options

    monkeypatch.setattr(options.LineProgress, "EVERY", 0.0)
    r = run("simulate", "pedro", "--deals", "60000", "--chunk", "20000", "--progress")
    assert r.exit_code == 0, r.stderr
    lines = [line for line in r.stderr.splitlines() if line.startswith("simulating: ")]
    assert [line.split()[1] for line in lines] == ["33%", "67%", "100%"], r.stderr
    assert "s left" in lines[0] and "left" not in lines[-1], lines


def test_ctrl_c_says_the_finished_chunks_are_kept_and_how_to_go_on(tmp_path):
    """It said only "Aborted!": a user could not tell that the run was not lost."""
    d = tmp_path / "cut"
    p = subprocess.Popen([*BIDLAB, "simulate", "pedro", "--deals", "300000", "--chunk", "5000",
                          "--run-dir", str(d)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    while _chunk_files(d) < 2:
        assert p.poll() is None, "the run ended before it could be stopped"
        time.sleep(0.01)
    p.send_signal(signal.SIGINT)
    _, err = p.communicate(timeout=60)
    assert p.returncode == 130, err
    assert err.decode().split("\n")[-3:] == [
        "Aborted!", f"the finished chunks are kept: bidlab resume {d} plays the rest", ""], err


def test_a_killed_bid_chart_resumes_to_the_same_chart(tmp_path):
    """bid-chart --run-dir killed with SIGKILL after some chunks, then resumed: the chart
    (every table, as JSON and as the files of --out-dir) is the uninterrupted run's."""
    args = ["bid-chart", "pedro", "--deals", "30000", "--chunk", "750", "--seed", "3"]
    whole = run(*args, "--run-dir", str(tmp_path / "whole"), "--json", "--out-dir",
                str(tmp_path / "whole-chart"))
    assert whole.exit_code == 0, whole.stderr
    p = subprocess.Popen([*BIDLAB, *args, "--run-dir", str(tmp_path / "cut")],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    while _chunk_files(tmp_path / "cut") < 3:
        assert p.poll() is None, "the run ended before it could be killed"
        time.sleep(0.01)
    p.send_signal(signal.SIGKILL)
    p.communicate(timeout=60)
    assert 3 <= _chunk_files(tmp_path / "cut") < 40
    resumed = run(*args, "--run-dir", str(tmp_path / "cut"), "--json", "--out-dir",
                  str(tmp_path / "cut-chart"))
    assert resumed.exit_code == 0, resumed.stderr
    assert resumed.stdout == whole.stdout
    for name in ("chart.csv", "classes.csv", "guide.csv", "violations.csv"):
        assert (tmp_path / "cut-chart" / name).read_bytes() == \
            (tmp_path / "whole-chart" / name).read_bytes(), name
    plain = run("bid-chart", "pedro", "--deals", "30000", "--seed", "3", "--json")
    assert json.loads(plain.stdout)["classes"] == json.loads(whole.stdout)["classes"]


TWO_LEVEL_CHART = ["bid-chart", "pedro", "--policy", "dd", "--base", "heuristic", "--deals",
                   "60", "--base-deals", "6000", "--by", "trumps,seat", "--seed", "4",
                   "--json"]


def test_a_two_level_chart_in_a_run_store_resumes_to_the_local_chart(tmp_path):
    """bid-chart --base --run-dir: the searched deals in a searching run's chunks, the rest
    in --chunk's; chunks lost (one of each) and played again by resume: the chart made in
    one process."""
    local = run(*TWO_LEVEL_CHART)
    stored = run(*TWO_LEVEL_CHART, "--run-dir", str(tmp_path / "r"), "--chunk", "2000")
    assert local.exit_code == stored.exit_code == 0, stored.stderr
    assert json.loads(local.stdout)["provenance"]["n_search"] == 60
    assert stored.stdout == local.stdout
    chunks = sorted((tmp_path / "r" / "chunks").glob("*.json"))
    sizes = [int(p.stem.split("+")[1]) for p in chunks]
    assert sum(sizes) == 6000 and max(sizes) == 2000 and sizes[0] <= 60
    for p in (chunks[0], chunks[-1]):
        p.unlink()
    resumed = run("resume", str(tmp_path / "r"), "--json")
    assert resumed.exit_code == 0, resumed.stderr
    assert resumed.stdout == local.stdout
    assert_bad_input(run("bid-chart", "pedro", "--policy", "dd", "--base", "heuristic",
                         "--budget", "5", "--run-dir", str(tmp_path / "b")), "--run-dir")


def test_rows_and_summary_equal_a_plain_run(tmp_path):
    """A run store's rows and summary are those of a run without one (any chunk size)."""
    plain = run("simulate", "rook", "--deals", "30000", "--out", str(tmp_path / "a.csv"))
    kept = run("simulate", "rook", "--deals", "30000", "--chunk", "7000", "--run-dir",
               str(tmp_path / "r"), "--out", str(tmp_path / "b.csv"))
    assert plain.exit_code == kept.exit_code == 0, kept.stderr
    assert plain.stdout == kept.stdout
    assert (tmp_path / "a.csv").read_bytes() == (tmp_path / "b.csv").read_bytes()
    assert json.loads((tmp_path / "b.csv.json").read_text())["n"] == 30000


def test_extend_twice_is_one_run_of_the_combined_size(tmp_path):
    d = str(tmp_path / "run")
    assert run("simulate", "king", "--deals", "3000", "--run-dir", d).exit_code == 0
    assert run("resume", d, "--extend", "1500").exit_code == 0
    extended = run("resume", d, "--extend", "500", "--json")
    once = run("simulate", "king", "--deals", "5000", "--json")
    assert extended.exit_code == once.exit_code == 0
    a, b = json.loads(extended.stdout), json.loads(once.stdout)
    assert a["sections"] == b["sections"] and a["provenance"]["n"] == 5000
    for key in ("seed", "rules", "policy", "first"):
        assert a["provenance"][key] == b["provenance"][key]
    manifest = json.loads((tmp_path / "run" / "manifest.json").read_text())
    assert manifest["deals"] == 5000 and manifest["done"] == [[0, 5000]]


def test_merge_joins_seeds_and_refuses_mismatches(tmp_path):
    for name, extra in (("s1", ["--seed", "1"]), ("s2", ["--seed", "2"]), ("s3", ["--seed", "3"]),
                        ("cinch", ["--seed", "3"]), ("random", ["--policy", "random"])):
        game_name = "cinch" if name == "cinch" else "pedro"
        rows = ["--out", str(tmp_path / f"{name}.parquet")] if name in ("s1", "s2") else []
        r = run("simulate", game_name, "--deals", "2000", *extra, "--run-dir",
                str(tmp_path / name), *rows)
        assert r.exit_code == 0, r.stderr
    both = run("merge", str(tmp_path / "s2"), str(tmp_path / "s1"), "--json", "--out",
               str(tmp_path / "both.parquet"))
    assert both.exit_code == 0, both.stderr
    doc = json.loads(both.stdout)
    assert doc["provenance"]["n"] == 4000
    assert doc["provenance"]["ranges"] == [[1, 0, 2000], [2, 0, 2000]]
    merged = pd.read_parquet(tmp_path / "both.parquet")
    alone = [pd.read_parquet(tmp_path / f"s{k}.parquet").assign(seed=k) for k in (1, 2)]
    expected = pd.concat(alone, ignore_index=True)[merged.columns]
    assert list(merged.columns)[0] == "seed" and merged.equals(expected)
    assert_bad_input(run("merge", str(tmp_path / "s1"), str(tmp_path / "s3"), "--out",
                     str(tmp_path / "x.parquet")), "kept no rows")
    assert not (tmp_path / "x.parquet").exists()
    assert_bad_input(run("merge", str(tmp_path / "s1"), str(tmp_path / "cinch")), "rules")
    assert_bad_input(run("merge", str(tmp_path / "s1"), str(tmp_path / "random")), "policy")
    assert_bad_input(run("merge", str(tmp_path / "s1"), str(tmp_path / "s1")), "given twice")
    assert_bad_input(run("merge", str(tmp_path / "nothing")), "not a bidlab run store")


def test_merge_refuses_king_runs_of_different_contracts(tmp_path):
    """Same rules, seed and policy, other deals: King's single hands of one contract are not
    another's, nor whole games; merging them is one line naming the contracts."""
    for name, contract, first in (("positive", ["--contract", "positive"], "0"),
                                  ("no-hearts", ["--contract", "no-hearts"], "200"),
                                  ("games", [], "400"), ("positive-more",
                                                         ["--contract", "positive"], "200")):
        r = run("simulate", "king", "--deals", "200", "--first", first, *contract,
                "--run-dir", str(tmp_path / name))
        assert r.exit_code == 0, r.stderr
    line = assert_bad_input(run("merge", str(tmp_path / "positive"),
                                str(tmp_path / "no-hearts")), "contract positive and no-hearts")
    assert "differ" in line, line
    assert_bad_input(run("merge", str(tmp_path / "games"), str(tmp_path / "positive")),
                     "contract none (whole games) and positive differ")
    both = run("merge", str(tmp_path / "positive"), str(tmp_path / "positive-more"), "--json")
    assert both.exit_code == 0, both.stderr
    assert json.loads(both.stdout)["provenance"]["n"] == 400


def test_a_store_in_use_is_refused(tmp_path):
    d = tmp_path / "run"
    assert run("simulate", "pedro", "--deals", "1000", "--run-dir", str(d)).exit_code == 0
    with runs.RunStore(d).lock():
        assert_bad_input(run("resume", str(d), "--extend", "10"), "in use")


def test_a_store_of_another_run_is_refused(tmp_path):
    d = str(tmp_path / "run")
    assert run("simulate", "pedro", "--deals", "1000", "--run-dir", d).exit_code == 0
    assert_bad_input(run("simulate", "pedro", "--deals", "1000", "--seed", "9", "--run-dir", d),
                     "seed 1, not 9")
    assert_bad_input(run("simulate", "pedro", "--deals", "500", "--run-dir", d), "shrink")
    assert_bad_input(run("resume", d, "--out", str(tmp_path / "rows.parquet")), "kept no rows")
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("mine")
    assert_bad_input(run("simulate", "pedro", "--deals", "10", "--run-dir",
                         str(tmp_path / "other")), "not a bidlab run store")
    assert (tmp_path / "other" / "notes.txt").read_text() == "mine"


def test_the_local_path_imports_no_dask(tmp_path):
    code = ("import sys; from analyzer.cli import main\n"
            "try:\n    main(['simulate', 'pedro', '--deals', '1000'])\n"
            "except SystemExit as e:\n    assert e.code == 0, e.code\n"
            "assert 'distributed' not in sys.modules and 'dask' not in sys.modules\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=tmp_path)
    assert done.returncode == 0, done.stderr


def test_without_dask_the_executor_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)
    assert_bad_input(run("simulate", "pedro", "--deals", "10", "--executor", "dask-local"),
                     "pip install 'bidlab[dask]'")


def test_executor_options_that_do_not_go_together():
    assert_bad_input(run("simulate", "pedro", "--executor", "dask"), "--scheduler")
    assert_bad_input(run("simulate", "pedro", "--workers", "2"), "dask-local")
    assert_bad_input(run("simulate", "pedro", "--scheduler", "tcp://127.0.0.1:1"), "dask")
    # an address that is not one (it was a traceback from inside Dask), refused before Dask
    for address in ("nonsense", "tcp://127.0.0.1", "tcp://127.0.0.1:port",
                    "http://127.0.0.1:8786", "tcp://127.0.0.1:70000"):
        assert_bad_input(run("simulate", "pedro", "--executor", "dask", "--scheduler",
                             address), "tcp://HOST:PORT")
    # 500 numba processes on a 2-core machine: refused, with the bound (four a core)
    from analyzer.cli.options import MAX_LOCAL_WORKERS

    too_many = run("simulate", "pedro", "--executor", "dask-local", "--workers",
                   str(MAX_LOCAL_WORKERS + 1))
    assert_bad_input(too_many, f"from 1 to {MAX_LOCAL_WORKERS}")


def test_a_run_dir_of_the_user_s_own_files_is_refused_as_such(tmp_path):
    """It had said "start one with simulate --run-dir DIR", the command just run."""
    (tmp_path / "mine.txt").write_text("mine")
    refused = run("simulate", "pedro", "--deals", "10", "--run-dir", str(tmp_path))
    assert_bad_input(refused, "holds files bidlab did not write")
    assert "start one with" not in refused.stderr
    assert (tmp_path / "mine.txt").read_text() == "mine"


# ---- a real Dask cluster on 127.0.0.1 --------------------------------------------------------

def _local_cluster(**workers):
    """A real LocalCluster on 127.0.0.1 with no dashboard, its scheduler's HTTP routes on a
    free port (as the executor makes its own): two at once (pytest -n) both wanted 8787,
    and the second warned."""
    distributed = pytest.importorskip("distributed")
    import logging

    return distributed.LocalCluster(host="127.0.0.1", dashboard_address=None,
                                    scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
                                    silence_logs=logging.ERROR, **workers)


@pytest.fixture(scope="module")
def cluster():
    with _local_cluster(n_workers=2, threads_per_worker=1) as c:
        yield c


def test_a_scheduler_with_no_worker_is_named_not_waited_on_for_ever(monkeypatch):
    """Its tasks would wait for a worker that never comes, the run silent all the while."""
    from analyzer.runs import executors

    monkeypatch.setattr(executors, "WORKER_WAIT", 1.0)
    with _local_cluster(n_workers=0) as empty:
        refused = run("simulate", "pedro", "--deals", "100", "--executor", "dask",
                      "--scheduler", empty.scheduler_address)
    assert_bad_input(refused, "has no worker (waited 1 s): start one with dask worker tcp://")


def test_the_cluster_gives_the_local_numbers_and_rows(cluster, tmp_path):
    local = run("simulate", "pedro", "--deals", "200000", "--seed", "6", "--out",
                str(tmp_path / "local.parquet"))
    remote = run("simulate", "pedro", "--deals", "200000", "--seed", "6", "--executor", "dask",
                 "--scheduler", cluster.scheduler_address, "--out",
                 str(tmp_path / "remote.parquet"))
    assert local.exit_code == remote.exit_code == 0, remote.stderr
    assert remote.stdout == local.stdout
    assert pd.read_parquet(tmp_path / "remote.parquet").equals(
        pd.read_parquet(tmp_path / "local.parquet"))


@pytest.mark.parametrize("args", [["pedro", "--deals", "40000"], ["king", "--deals", "3000"],
                                  TWO_LEVEL_CHART[1:-3]])
def test_the_cluster_charts_what_the_local_run_charts(cluster, args):
    """Hand classes (Pedro) and King's own charts (danger, trump right, seats over whole
    games), from the chunks' exact sums on the workers: the local chart."""
    args = ["bid-chart", *args, "--seed", "5", "--json"]
    local = run(*args)
    remote = run(*args, "--executor", "dask", "--scheduler", cluster.scheduler_address)
    assert local.exit_code == remote.exit_code == 0, remote.stderr
    assert remote.stdout == local.stdout


@pytest.mark.parametrize("game_name, hand, extra", [
    ("pedro", "AS KS 5S 5C 2S 9H 3D JC 7H", ["--deals", "20000"]),
    ("cinch", "AH KH QH 5D 2H 9C 3S JS 7C", ["--target-ci", "0.15", "--seat", "dealer",
                                                      "--max-deals", "200000"]),
    ("rook", "AS KS QS JS 9S 5S JK AH KH 5D 2D 3C 4C", ["--deals", "3000"]),
    ("king", "AH KH QH JH 2C 3C 4C 5D 6D 7D 8S 9S TS", ["--deals", "2000"]),
    ("pedro", "AS KS 5S 5C 2S 9H 3D JC 7H", ["--policy", "random", "--base", "heuristic",
                                             "--deals", "300", "--base-deals", "20000"]),
    ("rook", "AS KS QS JS 9S 5S JK AH KH 5D 2D 3C 4C", ["--policy", "random", "--base",
                                                        "heuristic", "--deals", "200",
                                                        "--base-deals", "3000"]),
    ("king", "AH KH QH JH 2C 3C 4C 5D 6D 7D 8S 9S TS", ["--policy", "random", "--base",
                                                       "heuristic", "--deals", "100",
                                                       "--base-deals", "1000"]),
])
def test_the_cluster_evaluates_a_hand_as_the_local_run_does(cluster, game_name, hand, extra):
    """Every table of `bidlab hand`, fixed-size and under a stop rule (whose rounds the
    cluster plays in parts): the local run's, bit for bit."""
    args = ["hand", game_name, hand, *extra, "--json"]
    local = run(*args)
    remote = run(*args, "--executor", "dask", "--scheduler", cluster.scheduler_address)
    assert local.exit_code == remote.exit_code == 0, remote.stderr
    assert remote.stdout == local.stdout


def test_the_cluster_compares_variants_as_the_local_run_does(cluster):
    args = ["compare", "pedro", "pedro(low_to=holder)", "--deals", "60000", "--json"]
    local = run(*args)
    remote = run(*args, "--executor", "dask", "--scheduler", cluster.scheduler_address)
    assert local.exit_code == remote.exit_code == 0, remote.stderr
    assert remote.stdout == local.stdout


def test_a_comparison_does_not_depend_on_its_chunks():
    from analyzer.compare import compare_variants

    one = compare_variants("rook", "rook(pass_cycle=none)", deals=6000, batch=6000)
    many = compare_variants("rook", "rook(pass_cycle=none)", deals=6000, batch=777)
    pd.testing.assert_frame_equal(one.table, many.table, check_exact=True)
    assert one.provenance == many.provenance


@pytest.mark.parametrize("game, hand", [
    ("pedro", "AS KS 5S 5C 2S 9H 3D JC 7H"),
    ("rook", "AS KS QS JS 9S 5S JK AH KH 5D 2D 3C 4C"),
    ("king", "AH KH QH JH 2C 3C 4C 5D 6D 7D 8S 9S TS"),
])
def test_hand_statistics_grown_in_parts_add_up_to_one_run(game, hand, monkeypatch):
    """A hand evaluation keeps sums, not deals: parts grown apart (as cluster workers grow
    them) and absorbed in order give the very tables of one run."""
    from analyzer import evaluate_hand
    from analyzer.rollout import grow_part

    def spread_with(factory, grow, args, into):
        def spread(first, n, progress=None):
            cuts = [first, first + 7, first + n // 2, first + n]
            for lo, hi in itertools.pairwise(cuts):
                into.absorb(grow_part(factory, grow, args, lo, hi - lo))
        return spread

    one = evaluate_hand(game, hand, deals=400, seed=5)
    parts = evaluate_hand(game, hand, deals=400, seed=5, spread_with=spread_with)
    frames = [f for f in vars(one) if isinstance(getattr(one, f), pd.DataFrame)]
    assert frames
    for name in frames:
        pd.testing.assert_frame_equal(getattr(one, name), getattr(parts, name), check_exact=True)


def test_the_python_api_evaluates_a_hand_on_a_cluster_as_compare_does(cluster):
    """analyzer.evaluate_hand took spread_with= (a private spreader) where compare_variants
    and the ladder take executor=; executor= raised TypeError."""
    from analyzer import evaluate_hand

    ex = runs.executor("dask", scheduler=cluster.scheduler_address)
    hand = "AS KS 5S 5C 2S 9H 3D JC 7H"
    one = evaluate_hand("pedro", hand, deals=300, seed=4)
    there = evaluate_hand("pedro", hand, deals=300, seed=4, executor=ex)
    pd.testing.assert_frame_equal(one.bids, there.bids, check_exact=True)
    assert one.advice == there.advice


def test_a_searching_run_on_the_cluster_with_a_store(cluster, tmp_path):
    """pimc on the cluster (tasks sized from the measured pace) into a run store: the local
    numbers."""
    args = ["simulate", "pedro", "--deals", "120", "--policy", "pimc:3,heuristic,pimc:3,"
            "heuristic", "--seed", "2"]
    local = run(*args)
    remote = run(*args, "--executor", "dask", "--scheduler", cluster.scheduler_address,
                 "--run-dir", str(tmp_path / "store"))
    assert local.exit_code == remote.exit_code == 0, remote.stderr
    assert remote.stdout == local.stdout
    assert runs.RunStore(tmp_path / "store").complete()


def test_a_worker_lost_mid_run_costs_only_its_chunks(cluster):
    """SIGKILL one worker while its tasks run: they are played again, the result is the
    local one."""
    job = runs.Job.of("rook", seed=8, policy="heuristic")
    local = runs.play(job, 0, 400_000, chunk=100_000)
    ex = runs.executor("dask", scheduler=cluster.scheduler_address)
    pids = list(ex.client.run(os.getpid).values())
    killed = []

    def kill_one(_k):
        if not killed:
            os.kill(pids[0], signal.SIGKILL)
            killed.append(pids[0])

    try:
        remote = runs.play(job, 0, 400_000, executor=ex, chunk=4_000, progress=kill_one)
    finally:
        ex.close()
    assert killed
    assert remote.to_document() == local.to_document()


def _without_seconds(doc):
    """A JSON document less its wall times (which differ from run to run)."""
    if isinstance(doc, dict):
        return {k: _without_seconds(v) for k, v in doc.items() if k != "seconds"}
    if isinstance(doc, list):
        return [_without_seconds(v) for v in doc]
    return doc


@pytest.mark.parametrize("args", [
    ["pedro", "--deals", "24", "--rungs", "heuristic,pimc:3", "--duplicate", "--seed", "4"],
    ["king", "--deals", "300", "--rungs", "random,heuristic", "--seed", "2"],
])
def test_the_cluster_plays_the_local_ladder(cluster, args):
    """The ladder (and its duplicate matches) in parts on the workers: the local tables,
    King's declined hands summed over the parts."""
    local = run("ladder", *args, "--json")
    remote = run("ladder", *args, "--json", "--executor", "dask", "--scheduler",
                 cluster.scheduler_address)
    assert local.exit_code == remote.exit_code == 0, remote.stderr
    want, got = json.loads(local.stdout), json.loads(remote.stdout)
    assert _without_seconds(got) == _without_seconds(want)
    assert want["summary"] and (want["duplicate"] or "declined" in want["provenance"])


@pytest.mark.parametrize("name", ["quick-pedro", "quick-king"])
def test_the_cluster_writes_the_local_report_data(cluster, name, tmp_path):
    """Every section of a quick report on the cluster (King's charts included): the same
    data files, byte for byte."""
    from analyzer.report import build
    from analyzer.report.scenario import load_scenario

    s = load_scenario(os.path.join(os.path.dirname(__file__), "..", "simulations",
                                   f"{name}.toml"))
    from distributed import get_task_stream

    ex = runs.executor("dask", scheduler=cluster.scheduler_address)
    try:
        parts = {"local": build.run_sections(s, lambda line: None)}
        with get_task_stream(ex.client) as tasks:
            parts["remote"] = build.run_sections(s, lambda line: None, ex=ex)
    finally:
        ex.close()
    assert len(tasks.data) >= 5 * 2 * 2  # every section but the rules ran on the workers
    digests = report_data(parts, tmp_path)
    assert len(digests["local"]) > 10
    assert digests["remote"] == digests["local"]


def _listening_addresses(pids: set[int]) -> set[str]:
    """The local addresses (hex, as /proc/net/tcp* writes them) of the TCP sockets that
    processes ``pids`` listen on."""
    inodes = set()
    for pid in pids:
        try:
            for fd in os.listdir(f"/proc/{pid}/fd"):
                target = os.readlink(f"/proc/{pid}/fd/{fd}")
                if target.startswith("socket:["):
                    inodes.add(target[8:-1])
        except OSError:
            continue
    found = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with open(table) as f:
            for line in f.readlines()[1:]:
                cols = line.split()
                if cols[3] == "0A" and cols[9] in inodes:  # 0A: LISTEN
                    found.add(cols[1].rsplit(":", 1)[0])
    return found


def _descendants(root: int) -> set[int]:
    parents = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    parents[int(entry)] = int(f.read().rsplit(")", 1)[1].split()[1])
            except OSError:
                continue
    found, grew = {root}, True
    while grew:
        new = {p for p, parent in parents.items() if parent in found} - found
        found |= new
        grew = bool(new)
    return found


@pytest.mark.skipif(not os.path.exists("/proc/net/tcp"), reason="reads Linux's /proc")
def test_dask_local_listens_on_loopback_only():
    """--executor dask-local: the scheduler, the workers and their nannies listen on
    127.0.0.1 only (nothing on every interface, nothing another machine reaches), and
    quietly where Dask's usual port 8787 is taken (it had warned on stderr)."""
    pytest.importorskip("distributed")
    with contextlib.ExitStack() as held:
        taken = held.enter_context(socket.socket())
        with contextlib.suppress(OSError):  # already taken by another program: as good
            taken.bind(("127.0.0.1", 8787))
            taken.listen()
        with warnings.catch_warnings(record=True) as said:
            warnings.simplefilter("always")
            ex = runs.executor("dask-local", workers=2)
    try:
        addresses = _listening_addresses(_descendants(os.getpid()))
    finally:
        ex.close()
    loopback = {"0100007F", "00000000000000000000000001000000"}  # 127.0.0.1, ::1
    assert not [str(w.message) for w in said if "Port" in str(w.message)]
    assert len(addresses) >= 1
    assert addresses <= loopback, addresses


def test_a_king_chart_in_a_run_store_is_the_plain_chart(tmp_path):
    """King's charts in a run store, extended once: the chart of one plain run of the
    combined size, whatever the chunks."""
    store = str(tmp_path / "king-chart")
    first = run("bid-chart", "king", "--deals", "1200", "--seed", "3", "--run-dir", store,
                "--chunk", "500", "--json")
    assert first.exit_code == 0, first.stderr
    assert first.stdout == run("bid-chart", "king", "--deals", "1200", "--seed", "3",
                               "--json").stdout
    extended = run("resume", store, "--extend", "800", "--json")
    assert extended.exit_code == 0, extended.stderr
    whole = run("bid-chart", "king", "--deals", "2000", "--seed", "3", "--json")
    assert json.loads(extended.stdout) == json.loads(whole.stdout)

