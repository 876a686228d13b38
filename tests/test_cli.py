"""The bidlab command line: outputs, files and the one-line errors on bad input."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from cli_helpers import assert_bad_input, run

from analyzer import io
from analyzer.games import pedro, presets
from analyzer.variants import describe_allowed, flag_fields

ROOT = Path(__file__).resolve().parents[1]
N = 2000




# ---- commands ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "command", ["", "games", "rules", "simulate", "deal", "hand", "cards", "bench"]
)
def test_every_help_has_examples(command):
    r = run(*command.split(), "--help")
    assert r.exit_code == 0, r.output
    assert "Examples:" in r.stdout
    assert "bidlab " in r.stdout.split("Examples:")[1]


def test_games_lists_presets_with_rules_strings():
    r = run("games")
    assert r.exit_code == 0
    for name, rules in presets().items():
        assert re.search(rf"^{name}\s+\w+\s+{re.escape(str(rules))}\s", r.stdout, re.M)
    assert "scoring=2" in r.stdout  # how cinch differs


@pytest.mark.parametrize("game", ["pedro", "cinch", "pedro(low_to=holder,scoring=2)"])
def test_rules_lists_every_flag(game):
    r = run("rules", game)
    assert r.exit_code == 0, r.stderr
    rules = pedro.parse_rules(game)
    assert r.stdout.splitlines()[0].startswith(str(rules))
    for f in flag_fields(pedro.Rules):
        line = next(x for x in r.stdout.splitlines() if x.startswith(f.name + " "))
        assert str(getattr(rules, f.name)) in line
        assert describe_allowed(f, rules.game, pedro.Rules) in line
        assert f.metadata["doc"] in line


@pytest.mark.parametrize("game, flag, listed, refused", [
    ("cinch", "low_to", "winner", "holder"),
    ("pedro", "cinch_keep_nontrumps", "custom_all_but_trumps", "free"),
    ("king", "max_offer", "an integer from 1 to 13", "14"),
])
def test_rules_lists_only_what_the_game_accepts(game, flag, listed, refused):
    """Every value the table lists is accepted, and a refused one is not listed."""
    r = run("rules", game)
    line = next(x for x in r.stdout.splitlines() if x.startswith(flag + " "))
    allowed = re.split(r"\s{2,}", line)[3]
    assert allowed == listed and refused not in allowed.split(", ")
    for value in ([] if allowed.startswith("an integer") else allowed.split(", ")):
        assert run("rules", f"{game}({flag}={value})").exit_code == 0
    bad = run("rules", f"{game}({flag}={refused})")
    assert bad.exit_code == 2 and f"allowed: {listed}" in bad.stderr


def test_rules_marks_changed_flags():
    r = run("rules", "pedro", "--rule", "low_to=holder")
    line = next(x for x in r.stdout.splitlines() if x.startswith("low_to "))
    assert "holder *" in line


def test_simulate_parquet_equals_library(tmp_path):
    out = tmp_path / "run.parquet"
    r = run("simulate", "pedro", "--deals", str(N), "--seed", "3", "--out", str(out))
    assert r.exit_code == 0, r.stderr
    expected = pedro.simulate(pedro.parse_rules("pedro"), N, seed=3, policies="heuristic")
    got = pd.read_parquet(out)  # the rows, with text columns beside cards, suits and seats
    pd.testing.assert_frame_equal(got[expected.columns], expected, check_like=False)
    assert {"hand0_text", "dealer_text", "trump_text", "maker_text"} <= set(got.columns)
    meta = io.read_table(out).attrs
    assert meta["seed"] == 3 and meta["rules"] == "pedro" and meta["n"] == N
    assert meta["policy"] == "heuristic" and "bidlab_version" in meta
    # the summary: provenance, n and 95% intervals
    assert f"n={N}" in r.stdout and "seed 3" in r.stdout
    assert "95% CI" in r.stdout
    assert re.search(r"bidding side.*\b2000\b.*\[\d+\.\d+, \d+\.\d+\]", r.stdout)


def test_simulate_variant_rules_policy_first_to_csv(tmp_path):
    out = tmp_path / "run.csv"
    r = run("simulate", "pedro(low_to=holder)", "--rule", "scoring=2", "--deals", "1500",
            "--seed", "5", "--first", "700", "--policy", "heuristic,random,heuristic,random",
            "--out", str(out))
    assert r.exit_code == 0, r.stderr
    rules = pedro.parse_rules("pedro(low_to=holder,scoring=2)")
    expected = pedro.simulate(rules, 1500, seed=5, first=700,
                              policies="heuristic,random,heuristic,random")
    got = io.read_table(out)
    pd.testing.assert_frame_equal(got[expected.columns], expected, check_dtype=False)
    assert got.attrs["rules"] == "pedro(low_to=holder,scoring=2)"
    assert got.attrs["first"] == 700


def _trick_rows(text: str) -> list[str]:
    play = text.split("Play (")[1].split("\n\n")[0]
    return [x for x in play.splitlines() if re.match(r"^\s+\d+\s", x)]


def test_deal_shows_six_tricks_and_points_add_up():
    r = run("deal", "pedro", "--seed", "1", "--index", "3")
    assert r.exit_code == 0, r.stderr
    out = r.stdout
    tricks = _trick_rows(out)
    assert [int(t.split()[0]) for t in tricks] == [1, 2, 3, 4, 5, 6]
    assert all(t.count("*") == 1 for t in tricks)  # one winning card per trick
    m = re.search(r"team 0: (\d+)\s+team 1: (\d+)\s+dead: (\d+)\s+\(total (\d+)\)", out)
    p0, p1, dead, total = map(int, m.groups())
    assert p0 + p1 + dead == total == 14
    log = pedro.play_logged(pedro.parse_rules("pedro"), 1, [3])[0]
    assert [p0, p1] == log["result"]["points"]
    # the element table credits exactly these points
    points = out.split("\nPoints\n")[1]
    credited = {0: 0, 1: 0}
    for line in points.splitlines():
        mm = re.match(r"^\s+(High|Low|Jack|Game|Right Pedro|Left Pedro)\s+\S+\s+(\d)\s.*team (\d)$",
                      line)
        if mm:
            credited[int(mm.group(3))] += int(mm.group(2))
    assert [credited[0], credited[1]] == [p0, p1]
    for word in ("Dealt hands", "stock, top first", "Bidding", "Trump:", "Discard and draw",
                 "method 1", "method 2"):
        assert word in out
    assert ("made" in out) or ("set." in out) or ("No contract" in out)


def test_deal_hands_sorted_and_complete():
    r = run("deal", "cinch", "--seed", "9", "--index", "0", "--policy", "random", "--no-labels")
    assert r.exit_code == 0, r.stderr
    hands = r.stdout.split("Dealt hands\n")[1].split("stock, top first")[0]
    rows = [x.split(None, 1) for x in hands.splitlines()[2:] if x.strip()]
    assert [int(s) for s, _ in rows] == [0, 1, 2, 3]
    order = "AKQJT98765432"
    for _, cells in rows:
        for suit in re.split(r"\s{2,}", cells.strip()):
            ranks = suit.split() if suit != "-" else []
            assert ranks == sorted(ranks, key=order.index)
    assert len(_trick_rows(r.stdout)) >= 1


def test_cards_parses_and_sorts():
    r = run("cards", "AS KS 10H TD 5C 2h")
    assert r.exit_code == 0, r.stderr
    assert "hand:  AS KS TH 2H TD 5C" in r.stdout
    assert "count: 6" in r.stdout
    assert re.search(r"^spades\s+2\s+A K$", r.stdout, re.M)
    assert re.search(r"^hearts\s+2\s+T 2$", r.stdout, re.M)
    assert re.search(r"^diamonds\s+1\s+T$", r.stdout, re.M)
    assert re.search(r"^clubs\s+1\s+5$", r.stdout, re.M)
    r2 = run("cards", "as,ks", "qs")  # several arguments, commas, lower case
    assert "hand:  AS KS QS" in r2.stdout


def test_bench_prints_threads_and_speedup():
    r = run("bench", "--deals", "2000", "--repeats", "1", "--policy", "random")
    assert r.exit_code == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].split() == ["game", "policy", "threads", "deals", "seconds", "deals/s",
                                "speed-up"]
    rows = [x.split() for x in lines[2:]]
    assert rows[0][:3] == ["pedro", "random", "1"] and rows[0][-1] == "1.00x"
    assert all(x[-1].endswith("x") for x in rows)


# ---- bad input: one line, exit 2, no traceback, no file ----------------------------------


BAD_SIMULATE = [
    (["--rule", "low_to=sideways"], ["low_to", "winner, holder"]),
    (["--rule", "nonsense=1"], ["nonsense", "low_to"]),
    (["--rule", "low_to"], ["flag=value"]),
    (["--deals", "-5"], ["--deals", "a whole number from 1 to"]),
    (["--deals", "0"], ["--deals"]),
    (["--seed", "-1"], ["--seed"]),
    (["--first", "-2"], ["--first"]),
    (["--policy", "smart"], ["random, heuristic"]),
    (["--policy", "random,random"], ["random, heuristic"]),
    (["--rule", "low_to=holder", "--rule", "low_to=winner"], ["low_to", "twice"]),
]


@pytest.mark.parametrize("args, expected", BAD_SIMULATE)
def test_simulate_bad_input(tmp_path, args, expected):
    out = tmp_path / "run.parquet"
    r = run("simulate", "pedro", "--deals", "100", *args, "--out", str(out))
    assert_bad_input(r, *expected)
    assert not out.exists()
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize(
    "game, expected",
    [("bridge", ["bridge", "pedro, cinch, rook, king"]), ("pedro(low_to=up)", ["winner, holder"]),
     ("rook(pass_cycle=up)", ["pass_cycle", "right_left, right_left_none, left, right, none"]),
     ("cinch(low_to=holder)", ["low_to", "winner"]),
     ("pedro(low_to=holder,low_to=winner)", ["low_to", "twice", "'holder' and 'winner'"])],
)
def test_bad_game_strings(tmp_path, game, expected):
    out = tmp_path / "run.csv"
    assert_bad_input(run("simulate", game, "--deals", "10", "--out", str(out)), *expected)
    assert not out.exists()
    assert_bad_input(run("rules", game), *expected)
    assert_bad_input(run("deal", game), *expected)


def test_a_flag_given_twice_with_one_value_is_no_ambiguity():
    a = run("rules", "pedro(low_to=holder,low_to=holder)")
    b = run("rules", "pedro(low_to=holder)")
    assert a.exit_code == 0 and a.output == b.output


def test_combination_error_after_parsing(tmp_path):
    out = tmp_path / "run.parquet"
    r = run("simulate", "cinch", "--rule", "low_to=holder", "--deals", "10", "--out", str(out))
    assert_bad_input(r, "low_to", "winner")
    assert not out.exists()


@pytest.mark.parametrize("name", ["run.txt", "run", "run.parquet.bak"])
def test_unsupported_out_suffix(tmp_path, name):
    out = tmp_path / name
    assert_bad_input(run("simulate", "pedro", "--deals", "10", "--out", str(out)),
                     ".parquet, .csv")
    assert not out.exists()
    assert os.listdir(tmp_path) == []


def test_unwritable_out(tmp_path):
    missing = tmp_path / "no" / "such" / "run.parquet"
    assert_bad_input(run("simulate", "pedro", "--deals", "10", "--out", str(missing)),
                     "does not exist")
    assert not missing.parent.exists()
    (tmp_path / "dir.csv").mkdir()
    assert_bad_input(run("simulate", "pedro", "--deals", "10", "--out",
                         str(tmp_path / "dir.csv")), "directory")
    # a folder with no suffix: said to be a folder, not a missing suffix
    assert_bad_input(run("simulate", "pedro", "--deals", "10", "--out", str(tmp_path)),
                     "is a directory; give a file name ending in .parquet or .csv")


def test_bad_input_leaves_existing_file_untouched(tmp_path):
    out = tmp_path / "run.parquet"
    out.write_bytes(b"earlier run")
    r = run("simulate", "pedro", "--rule", "low_to=sideways", "--out", str(out))
    assert_bad_input(r)
    assert out.read_bytes() == b"earlier run"
    assert os.listdir(tmp_path) == ["run.parquet"]


@pytest.mark.parametrize(
    "hand, expected",
    [("AS XX", ["'XX'", "position 2"]), ("AS AS", ["repeats"]), ("1S", ["'1S'"]),
     ("", ["no cards"])],
)
def test_cards_malformed(hand, expected):
    assert_bad_input(run("cards", hand), *expected)


@pytest.mark.parametrize(
    "args",
    [["deal", "pedro", "--index", "-1"], ["deal", "pedro", "--seed", "x"],
     ["deal", "pedro", "--policy", "nope"], ["bench", "--deals", "0"], ["frobnicate"],
     ["simulate", "pedro", "--dels", "5"], ["simulate"]],
)
def test_other_bad_input(args):
    assert_bad_input(run(*args))


# ---- python -m analyzer ------------------------------------------------------------------


def pym(*args: str, cwd: Path = ROOT):
    return subprocess.run([sys.executable, "-m", "analyzer", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=300)


def test_python_m_games_and_version():
    r = pym("games")
    assert r.returncode == 0, r.stderr
    assert "cinch" in r.stdout
    v = pym("--version")
    assert v.returncode == 0 and "bidlab" in v.stdout


def test_python_m_simulate_writes_parquet(tmp_path):
    out = tmp_path / "run.parquet"
    r = pym("simulate", "cinch", "--deals", "1000", "--seed", "2", "--out", str(out))
    assert r.returncode == 0, r.stderr
    expected = pedro.simulate(pedro.parse_rules("cinch"), 1000, seed=2)
    pd.testing.assert_frame_equal(pd.read_parquet(out)[expected.columns], expected)
    assert "n=1000" in r.stdout


@pytest.mark.parametrize(
    "args",
    [["simulate", "pedro", "--deals", "-5", "--out", "OUT"],
     ["simulate", "pedro", "--rule", "nonsense=1", "--out", "OUT"],
     ["simulate", "pedro", "--deals", "10", "--out", "OUT.txt"],
     ["cards", "AS XX"]],
)
def test_python_m_bad_input(tmp_path, args):
    out = tmp_path / "run.parquet"
    args = [a.replace("OUT", str(out)) for a in args]
    r = pym(*args)
    assert r.returncode == 2
    assert len(r.stderr.splitlines()) == 1 and r.stderr.startswith("bidlab: error:")
    assert "Traceback" not in r.stderr
    assert os.listdir(tmp_path) == []
