"""No traceback on any input, sizes bounded up front, output sets replaced whole, and
interrupts that stop at once: every case a careful tester found, each with its input."""

from __future__ import annotations

import errno
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest
from cli_helpers import assert_bad_input, run

from analyzer import atomic, io
from analyzer.cards import CardParseError, CardSet, parse_card
from analyzer.games import parse_game
from analyzer.limits import ArgumentError, SizeError, require_memory, require_time
from analyzer.parsing import QUOTE_LIMIT, NumberError, parse_float, parse_int
from analyzer.variants import RuleError

BIDLAB = [sys.executable, "-m", "analyzer"]
HAND = "AS KS 5S 5C 2S 9H 3D JC 7H"
HUGE = "9" * 5000  # over Python's 4,300-digit limit for int()


@pytest.mark.parametrize("args, expected", [
    (["simulate", "pedro", "--rule", "target=9223372036854775808"], "target"),
    (["simulate", "pedro(target=99999999999999999999)"], "1 to 1,000,000"),
    (["simulate", "pedro", "--rule", "target=²"], "target"),
    (["simulate", "pedro", "--policy", "pimc:²"], "--policy"),
    (["solve", "pedro", "--hands", "5S/KS/5C/QS", "--trump", "S", "--leader", "¹"], "seat"),
    (["solve", "pedro", "--hands", "5S/KS/5C/QS", "--trump", "S", "--side", "²"], "seat"),
    (["simulate", "pedro", "--deals", HUGE], "--deals"),
    (["simulate", "pedro", "--seed", HUGE], "--seed"),
    (["bid-chart", "pedro", "--by", "trumps,trumps"], "more than once"),
    (["ladder", "pedro", "--rungs", "heuristic,heuristic"], "more than once"),
    (["ladder", "pedro", "--rungs", ""], "no rungs"),
    (["match", "pedro", "--games", "1000000000"], "memory"),
    (["bench", "--deals", "10000000000"], "memory"),
    (["hand", "pedro", HAND, "--target-ci", "nan"], "--target-ci"),
    (["hand", "pedro", HAND, "--time-budget", "nan"], "--time-budget"),
    (["hand", "pedro", HAND, "--time-budget", "inf"], "--time-budget"),
    (["bid-chart", "pedro", "--out-dir", ""], "empty name"),
    (["simulate", "pedro", "--out", ""], "empty name"),
    (["bid-chart", "pedro", "--out-dir", "a\x00b"], "NUL byte"),
    (["simulate", "pedro", "--out", "a\x00b.csv"], "NUL byte"),
    (["simulate", "pedro", "--deals", "٣"], "--deals"),
    (["simulate", "pedro(low_to=holder\n)"], "one line"),
    (["simulate", "pedro\n"], "one line"),
    (["cards", "Aſ"], "bad card"),
    # simulate holds a chunk at a time (issue 35): time, not memory, refuses this one
    (["simulate", "pedro", "--deals", str(2**63 - 1)], "would take"),
    (["bid-chart", "pedro", "--deals", str(10**30)], "--deals"),
    (["bid-chart", "pedro", "--deals", str(10**15)], "would take"),
    # a hand evaluation keeps sums, not deals (issue 35): time refuses it
    (["hand", "pedro", HAND, "--deals", str(10**15)], "would take"),
    # compare holds a chunk at a time too: time refuses it
    (["compare", "pedro", "cinch", "--deals", str(10**15)], "would take"),
    (["ladder", "pedro", "--deals", str(10**15), "--rungs", "random"], "memory"),
])
def test_each_reported_input_is_one_line_and_exit_2(args, expected, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert_bad_input(run(*args), expected)
    assert not list(tmp_path.iterdir())  # nothing written, nothing half-written


def test_the_api_refuses_what_the_cli_refuses():
    with pytest.raises(CardParseError):
        parse_card("Aſ")
    with pytest.raises(ValueError, match="52 cards and the joker"):
        CardSet(0x2000)
    with pytest.raises(RuleError):
        parse_game("pedro(target=99999999999999999999)")
    with pytest.raises(RuleError, match="one line"):
        parse_game("pedro\n(low_to=holder)")
    assert str(CardSet(1 << 63)) == "JK"


@pytest.mark.parametrize("parse", [parse_int, parse_float])
def test_a_boolean_is_not_a_number(parse):
    # True is an int to Python; a size of True is a mistake, not 1 deal
    with pytest.raises(NumberError, match="bad --deals '?True"):
        parse(True, 0, 5, "--deals")
    assert parse(1, 0, 5, "--deals") == 1


def _library_calls():
    import analyzer
    from analyzer.compare import compare_variants
    from analyzer.games import pedro

    rules = pedro.parse_rules("pedro")
    return [
        (lambda: analyzer.evaluate_hand("pedro", HAND, seed=-1), "seed must be"),
        (lambda: analyzer.evaluate_hand("pedro", HAND, deals=1.5), "deals must be"),
        (lambda: analyzer.evaluate_hand("pedro", HAND.split()), "hand must be a string"),
        (lambda: analyzer.evaluate_hand("pedro", HAND, target_ci=0), "target_ci must be"),
        (lambda: pedro.simulate(rules, 10, batch=0), "batch must be"),  # it looped forever
        (lambda: pedro.simulate(rules, 10, seed=2**63), "seed must be"),
        (lambda: compare_variants("pedro", "cinch", deals=0), "deals must be"),
        (lambda: analyzer.bid_chart("king", deals=10, seed=None), "seed must be"),
    ]


@pytest.mark.parametrize("case", range(8))
def test_the_library_refuses_a_size_or_seed_it_cannot_run_in_one_line(case):
    # before any kernel: a float, a negative count or a 65-bit seed reached numpy or numba
    call, message = _library_calls()[case]
    with pytest.raises(ArgumentError, match=message):
        call()


def test_error_lines_quote_at_most_about_80_characters_of_the_input():
    r = run("cards", "ZZ" * 400)
    assert_bad_input(r, "bad card")
    assert len(r.stderr) < 2 * QUOTE_LIMIT + 200
    r = run("simulate", "pedro(" + "x" * 3000 + ")")
    assert_bad_input(r)
    assert len(r.stderr) < 400


def test_sizes_are_bounded_before_any_work():
    require_memory(1000, 100, "--deals")
    with pytest.raises(SizeError, match="at most about"):
        require_memory(10**14, 100, "--deals")
    require_time(10**9, "--deals")
    with pytest.raises(SizeError, match="on any machine"):
        require_time(10**14, "--deals")


def test_the_limits_are_stated_in_help():
    for command in ("simulate", "bid-chart", "hand", "compare", "match"):
        text = " ".join(run(command, "--help").stdout.split())
        assert "24 hours" in text and "memory" in text, command


# ---- output sets ---------------------------------------------------------------------------


def test_an_output_folder_is_replaced_whole_or_not_at_all(tmp_path):
    out = tmp_path / "chart"
    with atomic.atomic_dir(out) as d:  # an output set: its manifest lists its files
        (d / "manifest.json").write_text(json.dumps({"bidlab_version": "old",
                                                     "files": ["old_only.csv"]}))
        (d / "old_only.csv").write_text("old")
    with pytest.raises(RuntimeError), atomic.atomic_dir(out) as d:
        (d / "manifest.json").write_text(json.dumps({"bidlab_version": "new"}))
        raise RuntimeError("interrupted while writing")
    assert sorted(p.name for p in out.iterdir()) == ["manifest.json", "old_only.csv"]
    assert json.loads((out / "manifest.json").read_text())["bidlab_version"] == "old"
    with atomic.atomic_dir(out) as d:
        (d / "manifest.json").write_text(json.dumps({"bidlab_version": "new"}))
    assert [p.name for p in out.iterdir()] == ["manifest.json"]  # no old file beside the new
    assert sorted(p.name for p in tmp_path.iterdir()) == ["chart"]  # no temporaries left
    fresh = tmp_path / "fresh"
    with pytest.raises(RuntimeError), atomic.atomic_dir(fresh):
        raise RuntimeError("failed before it was done")
    assert not fresh.exists()


def test_a_users_file_put_in_the_output_folder_during_the_write_is_refused_and_kept(
        tmp_path):
    """The folder is checked up front and again at the swap: a file the user dropped into
    it while the run wrote its outputs stops the swap (it would have been deleted with the
    old folder), and the earlier output stays as it was."""
    out = tmp_path / "chart"
    with atomic.atomic_dir(out) as d:
        (d / "manifest.json").write_text(json.dumps({"bidlab_version": "old",
                                                     "files": ["chart.csv"]}))
        (d / "chart.csv").write_text("old")
    with pytest.raises(FileExistsError, match="bidlab did not write") as e:
        with atomic.atomic_dir(out) as d:
            (d / "manifest.json").write_text(json.dumps({"bidlab_version": "new",
                                                         "files": []}))
            (out / "NOTES.txt").write_text("mine")  # while the run plays
    assert "NOTES.txt" in str(e.value)
    assert (out / "NOTES.txt").read_text() == "mine"
    assert (out / "chart.csv").read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["chart"]  # no temporary left
    fresh = tmp_path / "fresh"  # a folder that was not there when the run began
    with pytest.raises(FileExistsError, match="bidlab did not write"):
        with atomic.atomic_dir(fresh):
            fresh.mkdir()
            (fresh / "mine.txt").write_text("mine")
    assert [p.name for p in fresh.iterdir()] == ["mine.txt"]


def test_a_folder_of_other_files_is_refused_not_emptied(tmp_path):
    mine = tmp_path / "notes"
    mine.mkdir()
    (mine / "keep.txt").write_text("mine")
    r = run("bid-chart", "pedro", "--deals", "100", "--out-dir", str(mine))
    assert_bad_input(r, "bidlab did not write")
    assert (mine / "keep.txt").read_text() == "mine"


@pytest.mark.parametrize("args,name,theirs", [
    (("match", "rook", "--games", "20", "--out"), "mine.csv", b"my,precious\n1,2\n"),
    (("simulate", "pedro", "--deals", "200", "--out"), "mine.parquet", None),
    (("hand", "pedro", "AS KS 5S 5C 2S 9H 3D JC 7H", "--deals", "300", "--plot"), "mine.png",
     b"\x89PNG not bidlab's"),
])
def test_a_users_own_file_is_refused_an_earlier_output_replaced(args, name, theirs, tmp_path):
    """`--out mine.csv` replaced a user's file with only "bidlab: replaced" said; `--out-dir`
    already refused a folder bidlab did not write. The user's file is refused, untouched,
    before any work; bidlab's own earlier output is still replaced."""
    mine = tmp_path / name
    if theirs is None:  # a Parquet table of the user's (no bidlab provenance)
        pd.DataFrame({"x": [1, 2]}).to_parquet(mine)
        theirs = mine.read_bytes()
    else:
        mine.write_bytes(theirs)
    r = run(*args, str(mine))
    assert_bad_input(r, "bidlab did not write", str(mine))
    assert mine.read_bytes() == theirs and r.stdout == ""
    ours = tmp_path / f"ours{mine.suffix}"
    for _ in range(2):
        r = run(*args, str(ours))
        assert r.exit_code == 0, r.stderr
    assert f"bidlab: replaced {ours}" in r.stderr


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs Linux /proc")
@pytest.mark.parametrize("option", ["--out", "--out-dir"])
def test_an_unwritable_folder_is_refused_before_the_run(option):
    """/proc refuses new files even to root, for whom the permission bits say writable: the
    write failed after the whole run, naming a hidden temporary file. Now a file is tried
    first, and the error names the user's path."""
    target = "/proc/bidlab-out.csv" if option == "--out" else "/proc/bidlab-chart"
    command = ("compare", "pedro", "cinch", "--deals", "300") if option == "--out" else (
        "bid-chart", "pedro", "--deals", "300")
    r = run(*command, option, target)
    line = assert_bad_input(r, "not writable", target)
    assert ".tmp" not in line and r.stdout == ""


def test_stale_temporaries_of_dead_writers_are_removed(tmp_path):
    target = tmp_path / "run.parquet"
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True).stdout.strip()
    stale = tmp_path / f".run.parquet.{dead}.deadbeef.tmp"
    stale.write_text("half a file")
    stale_dir = tmp_path / f".run.parquet.{dead}.cafe0000.tmp"
    stale_dir.mkdir()
    other = tmp_path / ".run.parquet.notes.tmp"  # not a temporary of ours: kept
    other.write_text("keep")
    with atomic.atomic_open(target) as f:
        f.write(b"data")
    assert sorted(p.name for p in tmp_path.iterdir()) == [".run.parquet.notes.tmp",
                                                          "run.parquet"]


def test_a_live_writers_temporary_is_kept(tmp_path):
    """Only a dead writer's leftovers go: the temporary of a writer still at work (another
    thread of this process, or another process) is its half-written output, kept."""
    target = tmp_path / "run.parquet"
    writer = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
    try:
        ours = tmp_path / f".run.parquet.{os.getpid()}.deadbeef.tmp"
        ours.write_text("another thread's half file")
        theirs = tmp_path / f".run.parquet.{writer.pid}.cafe0000.tmp"
        theirs.mkdir()
        (theirs / "part.csv").write_text("another process's half folder")
        with atomic.atomic_open(target) as f:
            f.write(b"data")
        atomic.remove_stale_temporaries(target)
        assert ours.read_text() == "another thread's half file"
        assert (theirs / "part.csv").read_text() == "another process's half folder"
    finally:
        writer.kill()
        writer.wait()
    assert target.read_bytes() == b"data"


def test_a_name_too_long_for_the_temporary_is_refused_up_front(tmp_path):
    long_name = "x" * 240 + ".csv"
    r = run("simulate", "pedro", "--deals", "10", "--out", str(tmp_path / long_name))
    assert_bad_input(r, "name too long")


def test_a_full_disk_names_the_file(tmp_path, monkeypatch):
    real_fdopen = os.fdopen

    class Full:
        def __init__(self, f):
            self.f = f

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.f.close()

        def write(self, data):
            raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(io.os, "fdopen", lambda fd, mode: Full(real_fdopen(fd, mode)))
    with pytest.raises(OSError) as e, atomic.atomic_open(tmp_path / "t.csv") as f:
        f.write(b"x")
    assert e.value.filename == str(tmp_path / "t.csv") and e.value.errno == errno.ENOSPC
    assert not list(tmp_path.iterdir())


# ---- interrupts, in a real process ---------------------------------------------------------


def _start(args, cwd, env=None):
    return subprocess.Popen([*BIDLAB, *args], cwd=cwd, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env={**os.environ, **(env or {})})


@pytest.mark.parametrize("delay, args", [
    *((d, ["bid-chart", "pedro", "--deals", "3000000"]) for d in (0.05, 0.1, 0.2, 0.4, 1.0, 2.5)),
    (3.0, ["solve", "rook", "--from-deal", "0", "--max-nodes", "2000000000"]),
])
def test_ctrl_c_stops_at_once_from_the_first_moment(delay, args, tmp_path):
    """During the imports (the first second or two) and inside a kernel call alike (a
    Rook deal solved from its start runs for minutes in one call)."""
    p = _start(args, tmp_path)
    time.sleep(delay)
    p.send_signal(signal.SIGINT)
    t0 = time.monotonic()
    out, err = p.communicate(timeout=30)
    assert time.monotonic() - t0 < 2, "Ctrl-C took more than 2 s"
    # A signal in the interpreter's own start-up (site, runpy finding the package: 50 ms or
    # more on a loaded machine) comes before bidlab's first line can catch it; Python then
    # prints its own traceback, none of whose frames is bidlab's. From bidlab's first line
    # on, no traceback.
    before_bidlab = b"KeyboardInterrupt" in err and b"/analyzer/" not in err
    if not before_bidlab:
        assert b"Traceback" not in err, err.decode()[-500:]
        # stopped: by Python's default handler (-SIGINT), else by bidlab with Aborted! and
        # the shell's status for Ctrl-C
        assert p.returncode == -signal.SIGINT or p.returncode == 130 and b"Aborted!" in err, \
            (p.returncode, err.decode()[-300:])


@pytest.mark.parametrize("name, value", [("NUMBA_NUM_THREADS", "0"),
                                         ("NUMBA_THREADING_LAYER", "bogus")])
def test_a_numba_setting_it_cannot_run_with_is_one_line(name, value):
    r = subprocess.run([*BIDLAB, "games"], capture_output=True, text=True,
                       env={**os.environ, name: value})
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and name in r.stderr, r.stderr


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("stdout, expected", [("closed", "standard output is closed"),
                                              ("full", "cannot write to standard output")])
def test_output_that_cannot_be_written_is_one_line_naming_stdout(stdout, expected):
    """`bidlab games >&-` had exited 0 having printed nothing; `> /dev/full` said "cannot
    write" without saying where."""
    with open("/dev/full", "w") as full:
        r = subprocess.run([*BIDLAB, "games"], stderr=subprocess.PIPE, text=True,
                           stdout=full if stdout == "full" else None,
                           # a child's fd 1 closed, as the shell's >&- leaves it
                           preexec_fn=(lambda: os.close(1)) if stdout == "closed" else None)
    assert r.returncode == 2, (r.returncode, r.stderr)
    assert r.stderr.count("\n") == 1 and expected in r.stderr, r.stderr


def _check_set(out: Path, old: dict | None) -> str:
    """The folder is the old set untouched, or a complete new one: never a mix."""
    if not out.exists():
        assert old is None
        return "none"
    manifest = json.loads((out / "manifest.json").read_text())
    files = {p.name for p in out.iterdir()}
    assert files == set(manifest["files"]) | {"manifest.json"}, files
    if old is not None and manifest["seed"] == old["seed"]:
        assert {p.name: p.read_bytes() for p in out.iterdir()} == old["bytes"]
        return "old"
    assert manifest["seed"] == 2
    return "new"


def _write_phase(p, tmp_path, name: str) -> float:
    """Wait until process ``p`` starts writing its output set (its hidden temporary folder
    appears beside ``name``); the time it appeared."""
    while not any(q.name.startswith(f".{name}.") for q in tmp_path.iterdir()):
        if p.poll() is not None:
            raise AssertionError("the run ended before its write phase was seen")
        time.sleep(0.002)
    return time.monotonic()


@pytest.mark.parametrize("sig, points", [(signal.SIGINT, 4), (signal.SIGTERM, 4),
                                         (signal.SIGKILL, 10)])
def test_an_interrupted_chart_leaves_the_old_set_or_the_new_one(sig, points, tmp_path):
    """bid-chart --out-dir interrupted at evenly spaced points of its write phase (from the
    moment its temporary folder appears to the swap): the folder holds the earlier chart,
    byte for byte, or the whole new one, and a later write removes what the kill left."""
    out = tmp_path / "chart"
    base = ["bid-chart", "pedro", "--deals", "20000", "--by", "trumps,seat", "--out-dir",
            str(out)]

    _start([*base, "--seed", "1"], tmp_path).communicate(timeout=120)
    old = {"seed": 1, "bytes": {p.name: p.read_bytes() for p in out.iterdir()}}

    def put_old_back():
        """The earlier chart again, from its bytes (a subprocess would cost a start-up)."""
        shutil.rmtree(out)
        out.mkdir()
        for name, data in old["bytes"].items():
            (out / name).write_bytes(data)

    p = _start([*base, "--seed", "2"], tmp_path)  # how long the write phase lasts
    began = _write_phase(p, tmp_path, "chart")
    p.communicate(timeout=120)
    phase = time.monotonic() - began
    seen = []
    for k in range(points):
        p = _start([*base, "--seed", "2"], tmp_path)
        _write_phase(p, tmp_path, "chart")
        time.sleep(phase * k / points)
        p.send_signal(sig)
        p.communicate(timeout=60)
        seen.append(_check_set(out, old))
        if seen[-1] == "new":  # the new chart is in: put the old one back for the next point
            put_old_back()
    assert "old" in seen, seen
    run("bid-chart", "pedro", "--deals", "100", "--by", "trumps", "--out-dir", str(out))
    assert not [q.name for q in tmp_path.iterdir() if q.name.startswith(".chart.")]


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM, signal.SIGKILL])
def test_an_interrupted_simulate_out_leaves_the_old_file_or_the_new_one(sig, tmp_path):
    target = tmp_path / "run.parquet"
    run("simulate", "pedro", "--deals", "1000", "--seed", "1", "--out", str(target))
    old = target.read_bytes()
    for delay in (0.3, 1.0, 1.8, 2.6):
        p = _start(["simulate", "pedro", "--deals", "2000000", "--seed", "2", "--out",
                    str(target)], tmp_path)
        time.sleep(delay)
        p.send_signal(sig)
        _, err = p.communicate(timeout=60)
        if sig != signal.SIGKILL:  # stopped by bidlab (or before its first line, by Python)
            # SIGTERM had left its hidden half-written file (hundreds of MB) behind
            assert not [q.name for q in tmp_path.iterdir() if q.name.startswith(".run.")]
            assert p.returncode in (-sig, 128 + sig), (p.returncode, err.decode()[-300:])
        data = target.read_bytes()
        if data != old:
            assert io.read_table(target).attrs["seed"] == 2 and len(io.read_table(target)) \
                == 2_000_000
            break


def test_library_defaults_are_sized_for_searching_players(monkeypatch):
    """A hand evaluation, comparison or bid chart left at its default size with a searching
    seat had played 20,000 hands or 1-2 million deals (hours); each takes the CLI's
    smaller default."""
    import analyzer
    from analyzer import compare_variants, games, limits
    from analyzer.rollout import search_sized

    pedro = games.game("pedro")
    assert search_sized(pedro, {"policy": "heuristic"}) == {"policy": "heuristic"}
    assert search_sized(pedro, {"policy": "dd"}) == {"deals": 500, "policy": "dd"}
    assert search_sized(pedro, {"policy": "pimc:10", "deals": 80})["deals"] == 80
    assert search_sized(pedro, {"policy": "dd", "until_decided": True})["max_deals"] == 5_000
    monkeypatch.setitem(limits.SEARCH_SIZES, "compare", 12)
    c = compare_variants("pedro", "pedro(low_to=holder)", policy="dd")
    assert c.provenance["deals"] == 12
    monkeypatch.setitem(limits.SEARCH_SIZES, "bid-chart", 6)
    assert analyzer.bid_chart("pedro", policy="dd").provenance["n_deals"] == 6


def test_a_scenario_key_names_the_refusals_within_it_and_only_those():
    """``asked_as`` renames a size's refusal (time now, or the pace of its first batch) for
    the scenario key it came from, and no refusal after it: not one after a block that
    returned, nor one after a block a refusal left."""
    from analyzer.limits import Pace, asked_as

    with asked_as("s.toml: [bids] size"):
        with pytest.raises(SizeError, match=r"^s\.toml: \[bids\] size 1,000,000,000,000,000 "):
            require_time(10**15, "--deals")
        pace = Pace(1000, "--deals")
    with pytest.raises(SizeError, match="^--deals 1,000,000,000,000,000 "):
        require_time(10**15, "--deals")
    pace.start -= 10**6  # its first deal took a million seconds: the run would take years
    with pytest.raises(SizeError, match=r"^s\.toml: \[bids\] size 1,000 would take about"):
        pace.step(1)
    with pytest.raises(SizeError), asked_as("t.toml: [seats] size"):
        require_time(10**15, "--deals")
    with pytest.raises(SizeError, match="^--deals 1,000,000,000,000,000 "):
        require_time(10**15, "--deals")


def test_a_report_sections_memory_refusal_names_its_scenario_key_not_options(
        tmp_path, monkeypatch):
    """A section too large for the memory free is refused naming the scenario's key, with no
    ``--deals`` or ``--first``: a report has neither option (``build_report`` runs each
    section under ``asked_as``)."""
    from analyzer import limits

    monkeypatch.setattr(limits, "free_memory", lambda: 10_000)
    scenario = tmp_path / "s.toml"
    scenario.write_text('game = "pedro"\n[bids]\ndeals = 1000\n')
    r = run("report", str(scenario), "--out", str(tmp_path / "rep"), "--no-progress")
    assert r.exit_code == 2, (r.exit_code, r.stderr)
    line = r.stderr.splitlines()[-1]
    assert line.startswith(f"bidlab: error: {scenario}: [bids] size 1,000 needs about"), line
    assert "--first" not in line and "--deals" not in line, line
    assert not (tmp_path / "rep").exists()


def test_a_bad_rule_value_names_the_preset_only_where_it_allows_fewer_values():
    """"for rule X in pedro" only where the preset narrows the flag's values (pedro keeps
    only custom_all_but_trumps of cinch_keep_nontrumps); a flag the preset takes whole
    (pedro's low_to) names no preset."""
    line = assert_bad_input(run("rules", "pedro(cinch_keep_nontrumps=zzz)"))
    assert "for rule cinch_keep_nontrumps in pedro; allowed: custom_all_but_trumps" in line
    line = assert_bad_input(run("rules", "pedro", "--rule", "low_to=zzz"))
    assert "for rule low_to; allowed: winner, holder" in line, line
