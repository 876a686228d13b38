"""A mutation review of the changes since 5b73ab4 (the run store's checksums and provenance
checks, merge's pinning, two-level verdicts, the API's argument checks, the benchmarks'
argparse): each test here fails on a small change to the code that the other tests let
pass (a check dropped, a comparison flipped, a path left unresolved), and passes on the
code as it is.

Each runs in seconds: run stores of a few thousand Pedro deals, or no simulation at all.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from cli_helpers import assert_bad_input, run
from store_helpers import SMALL, edit_chunk, finished_store

from analyzer import io

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def _chunk(store, lo: int, suffix: str) -> Path:
    return store / "chunks" / f"{lo:019d}+1000{suffix}"


@pytest.fixture
def store(tmp_path):
    """A finished run store of 4 chunks that keeps its rows."""
    return finished_store(tmp_path)


@pytest.fixture
def unfinished(store, tmp_path):
    """The store stopped after 3 of its 4 chunks (its last chunk's files removed, as if
    killed in it)."""
    for suffix in (".json", ".parquet"):
        _chunk(store, 3000, suffix).unlink()
    (tmp_path / "rows.parquet").unlink()
    return store


def _rewrite_a_value(rows: Path) -> None:
    """Rows rewritten with one value changed: their count and provenance still hold."""
    df = io.read_table(rows)
    df.loc[5, "bid"] = df.loc[5, "bid"] + 1
    io.write_table(df, rows, df.attrs)


# ---- a damaged or foreign chunk is named before resume plays, and before merge prints ------


def test_rows_of_other_deals_are_named_before_resume_plays_the_rest(unfinished):
    """verify reads each rows file's footer, whose metadata says which deals it holds: a
    rows file of chunk 1,000 copied over chunk 0's is named before the missing chunk is
    played (not after the whole run, when the table is written)."""
    copied = _chunk(unfinished, 0, ".parquet")
    copied.write_bytes(_chunk(unfinished, 1000, ".parquet").read_bytes())
    assert_bad_input(run("resume", str(unfinished)), copied.name,
                     "its first is 1000, the manifest's 0")
    assert not _chunk(unfinished, 3000, ".json").exists()  # nothing was played


def test_a_rows_file_that_fails_its_checksum_is_named_before_resume_plays_the_rest(
        unfinished):
    """A rows file rewritten with another value (its count and provenance still hold) was
    found only when the table was written, after resume had played every missing chunk;
    verify's promise is "read before any chunk is played, not found after the run"."""
    rows = _chunk(unfinished, 2000, ".parquet")
    _rewrite_a_value(rows)
    assert_bad_input(run("resume", str(unfinished)), rows.name, "do not match the checksum")
    assert not _chunk(unfinished, 3000, ".json").exists()  # nothing was played


@pytest.mark.parametrize("damage", ["other deals", "checksum"])
def test_merge_out_names_a_damaged_rows_file_before_it_prints_the_summary(
        store, tmp_path, damage):
    """merge --out checks the rows (merged_row_parts: "found before the table is begun")
    before it prints anything: a refused merge printed a whole summary on stdout, then its
    one error line."""
    rows = _chunk(store, 0, ".parquet")
    if damage == "other deals":
        rows.write_bytes(_chunk(store, 1000, ".parquet").read_bytes())
    else:
        _rewrite_a_value(rows)
    out = tmp_path / "merged.parquet"
    r = run("merge", str(store), "--out", str(out))
    assert_bad_input(r, rows.name)
    assert r.stdout == "" and not out.exists()



@pytest.mark.parametrize("name, value", [("seed", 9), ("n", 999)])
def test_a_chunk_s_statistics_of_other_deals_are_named(store, name, value):
    """The statistics' own provenance is checked, not only the chunk's attrs: it alone
    says the chunk's n (the attrs hold no n), and a seed edited there only would be summed
    in as this run's."""
    p = _chunk(store, 1000, ".json")
    edit_chunk(p, lambda chunk: chunk["state"]["provenance"].update({name: value}))
    for args in (["resume", str(store)], ["merge", str(store)]):
        assert_bad_input(run(*args), p.name, f"its {name} is {value}, the manifest's")


def test_the_chunk_that_does_not_add_up_is_named_beside_the_first(store):
    """Each chunk is tried beside the first: a third chunk holding a count where the others
    hold a mean is named with the first, not the second (every chunk tried beside itself
    "does not add up" at the second: its deals twice), so the advice deletes the right
    one."""
    p = _chunk(store, 2000, ".json")
    edit_chunk(p, lambda chunk: chunk["state"]["stats"].update(points_bidding_side=["c", 1, 2]))
    for args in (["resume", str(store)], ["merge", str(store)]):
        line = assert_bad_input(run(*args), _chunk(store, 0, ".json").name, p.name,
                                "do not add up")
        assert _chunk(store, 1000, ".json").name not in line, line


def test_merge_out_writes_the_runs_in_order_of_seed_then_first_deal(tmp_path):
    """Runs of several seeds go into the table seed by seed (a run of seed 1 before one of
    seed 2 whose deals come first), each seed's deals in order, as the table's ``seed``
    column says."""
    for seed, first in ((2, 0), (1, 100)):
        r = run("simulate", "pedro", "--deals", "100", "--seed", str(seed), "--first",
                str(first), "--run-dir", str(tmp_path / f"s{seed}"), "--out",
                str(tmp_path / f"s{seed}.parquet"))
        assert r.exit_code == 0, r.stderr
    out = tmp_path / "both.parquet"
    r = run("merge", str(tmp_path / "s2"), str(tmp_path / "s1"), "--out", str(out))
    assert r.exit_code == 0, r.stderr
    rows = io.read_table(out)
    assert rows["seed"].tolist() == [1] * 100 + [2] * 100
    assert rows["deal"].tolist() == list(range(100, 200)) + list(range(100))


# ---- --run-dir and --out apart --------------------------------------------------------------


def test_a_run_dir_inside_the_out_path_is_refused_up_front(tmp_path):
    """The other way round from a table inside the store: --run-dir t.parquet/run with --out
    t.parquet played the whole run into t.parquet/, then could not write the table over
    that folder."""
    table = tmp_path / "t.parquet"
    assert_bad_input(run(*SMALL, "--run-dir", str(table / "run"), "--out", str(table)),
                     "overlap")
    assert list(tmp_path.iterdir()) == []


def test_a_relative_run_dir_and_an_absolute_out_inside_it_overlap(tmp_path, monkeypatch):
    """The two paths are compared resolved: --run-dir run with --out /abs/.../run/t.parquet
    is the same overlap as the two spelt alike."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "run").mkdir()  # a new store's folder, empty
    assert_bad_input(run(*SMALL, "--run-dir", "run", "--out", str(tmp_path / "run" / "t.parquet")),
                     "overlap")
    assert [p.name for p in tmp_path.iterdir()] == ["run"]
    assert not list((tmp_path / "run").iterdir())


# ---- deal indices ---------------------------------------------------------------------------


def test_deal_indices_take_any_whole_dtype_and_the_last_deal():
    """Unsigned arrays, int32 arrays and 2**63-1 (the last deal, which `bidlab deal
    --index` takes) are deal numbers, given to the kernels as int64; none is a bare
    StopIteration of the search for the bad one."""
    from analyzer.games.common import deal_indices

    for given, expected in ((np.array([0, 5], dtype=np.uint64), [0, 5]),
                            (np.array([3, 4], dtype=np.int32), [3, 4]),
                            ([2**63 - 1], [2**63 - 1]), ([], []), (range(2), [0, 1])):
        got = deal_indices(given)
        assert got.dtype == np.int64 and got.tolist() == expected, given


@pytest.mark.parametrize("indices, bad", [
    ([True], "True"), (np.array([2**63], dtype=np.uint64), str(2**63)),
    ([0, 2**63], str(2**63)), ([np.int64(5), 2**63], str(2**63))])
def test_a_deal_index_that_is_a_bool_or_past_the_last_deal_is_named(indices, bad):
    """The index named is the bad one as given: [0, 2**63] is a float array to numpy, and
    its first element, 0.0, was named as the bad index (a numpy integer is a whole number
    too)."""
    from analyzer.games.common import deal_indices
    from analyzer.limits import ArgumentError

    with pytest.raises(ArgumentError, match=f"a deal index is a whole number 0 .. 2\\*\\*63-1; "
                                            f"got {bad}$"):
        deal_indices(indices)


def test_no_deal_indices_log_no_deals():
    from analyzer.games import pedro

    assert pedro.play_logged("pedro", 1, []) == []


# ---- analyzer.games.<name> ------------------------------------------------------------------


def test_only_a_game_package_is_an_attribute_of_analyzer_games():
    """A family's package loads on first use; a preset that is no package (cinch plays in
    pedro's) and any other name are an AttributeError, so hasattr says False rather than
    raising ModuleNotFoundError, or answering None."""
    import analyzer.games as games

    assert games.pedro.__name__ == "analyzer.games.pedro"
    assert not hasattr(games, "cinch") and not hasattr(games, "nope")
    with pytest.raises(AttributeError, match="has no attribute 'nope'"):
        games.nope  # noqa: B018


# ---- the report's findings ------------------------------------------------------------------


def test_a_comparison_s_family_in_the_findings_counts_only_measures_with_an_interval():
    """The findings' sentence counts the family as the verdicts do (compare.family_size): a
    measure with no interval (a rate on no deals) is not one of the measures the 95% is
    shared by."""
    from report_helpers import findings_of, make_part

    def measure(name, diff, lo, hi, family):
        return {"comparison": 1, "a_rules": "pedro", "b_rules": "pedro(min_bid=7)",
                "measure": name, "b_minus_a": diff, "diff_lo": lo, "diff_hi": hi,
                "beyond_noise": lo > 0 or hi < 0, "beyond_family": family}

    nan = float("nan")
    rows = [measure("strong", 1.0, 0.5, 1.5, True), measure("faint", 0.1, 0.01, 0.19, False),
            measure("none played", nan, nan, nan, False)]
    (said,) = findings_of(make_part("variants", {"comparisons": rows}))
    assert ("1 of them (*) even with the 95% held for all 2 measures that have an interval "
            "together") in said, said


# ---- a budget on the command line -----------------------------------------------------------


def test_bid_chart_with_a_budget_plays_the_deals_the_budget_chooses():
    """--budget leaves --deals at its default (2,000,000), which must not reach bid_chart:
    the API refuses deals beside a budget ("a budget chooses the deals")."""
    r = run("bid-chart", "pedro", "--policy", "pimc:2", "--base", "heuristic", "--budget",
            "0.5", "--by", "seat")
    assert r.exit_code == 0, r.stderr
    assert r.stdout.startswith("pedro | policy pimc:2 | seed 1 |"), r.stdout[:200]
    assert "estimator: two-level" in r.stdout


def test_compare_with_a_budget_plays_the_deals_the_budget_chooses():
    """As bid-chart: compare's --deals default must not reach compare_variants beside a
    budget, which refuses the two together."""
    r = run("compare", "pedro", "pedro(min_bid=7)", "--policy", "pimc:2", "--base",
            "heuristic", "--budget", "0.5")
    assert r.exit_code == 0, r.stderr
    assert "two-level" in r.stdout, r.stdout[:300]


# ---- the benchmarks' count ------------------------------------------------------------------


@pytest.fixture
def count_argument(monkeypatch):
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    from bench_pedro import count_argument

    return count_argument


def test_a_benchmark_s_count_is_a_million_by_default_and_at_least_one(count_argument, capsys):
    """The default the help states (1,000,000), a count of 1 taken, 0 refused in one line."""
    parser = count_argument("deals")
    assert parser.parse_args([]).deals == 1_000_000
    assert parser.parse_args(["1"]).deals == 1
    for bad in ("0", "-3", " 5"):
        with pytest.raises(SystemExit):
            parser.parse_args([bad])
        assert f"deals is a whole number of at least 1; got {bad!r}" in capsys.readouterr().err


def test_bench_rook_counts_hands():
    """Rook's benchmark times hands, and its help says so."""
    r = subprocess.run([sys.executable, str(BENCHMARKS / "bench_rook.py"), "--help"],
                       capture_output=True, text=True, cwd=BENCHMARKS, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "hands a timed run plays (default 1,000,000)" in " ".join(r.stdout.split())
