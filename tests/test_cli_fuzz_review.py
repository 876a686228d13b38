"""Bad input found by a fuzzing review of every command and option against the rule (one
line on stderr, exit 2, nothing lost): each test failed on the code it was written against."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from cli_helpers import assert_bad_input, run


def _report(tmp_path, scenario_text: str):
    """``bidlab report`` of a scenario file holding ``scenario_text``, into tmp_path/rep."""
    scenario = tmp_path / "s.toml"
    scenario.write_text(scenario_text)
    return run("report", str(scenario), "--out", str(tmp_path / "rep"))


def test_more_whole_games_than_the_deal_indices_hold_is_one_line(tmp_path):
    # was: a traceback, exit 1 (ValueError: need n_games >= 0 and 0 <= first, first +
    # n_games <= 549,755,813,887): under the day's limit, so no size check caught it first
    assert_bad_input(run("match", "pedro", "--games", "1000000000000"), "--games",
                     "549,755,813,887")
    assert_bad_input(_report(tmp_path, 'game = "pedro"\n[games]\ngames = 1000000000000\n'),
                     "[games] games", "549,755,813,887")
    assert not (tmp_path / "rep").exists()


def _store(tmp_path, name="run"):
    d = tmp_path / name
    r = run("simulate", "pedro", "--deals", "300", "--chunk", "100", "--run-dir", str(d))
    assert r.exit_code == 0, r.stderr
    return d


@pytest.mark.parametrize("key, value", [("out", 5), ("out", ""), ("out_dir", ["x"])])
def test_a_manifest_whose_output_path_is_not_a_path_is_named(tmp_path, key, value):
    # was: a traceback, exit 1 (TypeError: expected str, bytes or os.PathLike object, not
    # int) from resume, which writes the run's --out again
    store = _store(tmp_path)
    p = store / "manifest.json"
    m = json.loads(p.read_text())
    m[key] = value
    p.write_text(json.dumps(m))
    before = sorted((f.name, f.read_bytes()) for f in (store / "chunks").iterdir())
    assert_bad_input(run("resume", str(store)), "manifest.json", f"its {key} is {value!r}")
    assert sorted((f.name, f.read_bytes()) for f in (store / "chunks").iterdir()) == before


@pytest.mark.parametrize("command", [
    ["bid-chart", "pedro", "--policy", "pimc:2"],
    ["hand", "pedro", "AS KS 5S 5C 2S 9H 3D JC 7H", "--policy", "pimc:2"],
    ["compare", "pedro", "pedro(low_to=holder)", "--policy", "pimc:2"]])
def test_a_budget_beyond_the_days_limit_is_refused_before_its_pilot(command):
    # was: accepted; the pilot doubled to 2**20 searched deals (days) and the split's N and
    # n were never held to the day's limit
    assert_bad_input(run(*command, "--base", "heuristic", "--budget", "1e30"), "--budget",
                     "86,400")


def test_the_library_refuses_a_budget_beyond_the_days_limit_too():
    from analyzer.twolevel import TwoLevelError, check_budget

    check_budget("heuristic", 86_400.0)
    with pytest.raises(TwoLevelError, match="at most 86,400 seconds"):
        check_budget("heuristic", 86_401.0)


def test_merging_a_run_with_no_finished_chunk_is_one_line(tmp_path):
    # was: two lines, "bidlab: run is not finished: 0 of 300 deals" then the refusal (a run
    # stopped before its first chunk ended keeps its manifest and no chunk)
    store = _store(tmp_path)
    for f in (store / "chunks").iterdir():
        f.unlink()
    assert_bad_input(run("merge", str(store)), "no finished chunk")


def test_a_size_refusal_offers_first_only_to_the_command_that_has_it(monkeypatch):
    # was: ladder, match and bench said "or run it in parts with --first": none has --first
    from analyzer import limits

    monkeypatch.setattr(limits, "free_memory", lambda: 10**6)
    for args in (["ladder", "pedro", "--deals", "100000"],
                 ["match", "pedro", "--games", "100000"],
                 ["bench", "--game", "pedro", "--policy", "random", "--deals", "100000"]):
        line = assert_bad_input(run(*args), "of memory")
        assert "--first" not in line, line
    line = assert_bad_input(run("simulate", "pedro", "--deals", "100000", "--chunk", "100000"),
                            "of memory")
    assert "--first" in line, line


@pytest.mark.parametrize("args", [
    ["deal", "king", "--contract", "no-tricks+no-tricks"],
    ["hand", "king", "AH KH QH JH 2C 3C 4C 5D 6D 7D 8S 9S TS", "--deals", "5", "--contract",
     "no-hearts+No_Hearts"]])
def test_a_king_contract_naming_one_hand_twice_is_refused(args):
    # was: exit 0 with the numbers of the single hand (its two names' bits joined as one)
    assert_bad_input(run(*args), "twice", "--contract")


@pytest.mark.parametrize("text", ["no-tricks+no-tricks", "no-hearts+No_Hearts"])
def test_the_library_refuses_a_contract_naming_one_hand_twice(text):
    # was: the refusal sat in the command layer, so king.simulate(..., contract=text)
    # played the single hand under the combined hand's name
    from analyzer.games import king
    from analyzer.variants import RuleError

    with pytest.raises(RuleError, match="twice"):
        king.parse_contract(text)
    with pytest.raises(RuleError, match="twice"):
        king.simulate(king.parse_rules("king"), 1, 0, "heuristic", contract=text)


@pytest.mark.parametrize("name, value, status", [
    ("NUMBA_DISABLE_JIT", "zzz", 2), ("NUMBA_OPT", "fast", 2), ("NUMBA_BOUNDSCHECK", "0", 0)])
def test_a_numba_setting_numba_cannot_read_is_one_line(name, value, status):
    # was: exit 0 after numba's RuntimeWarning, a dozen lines with a traceback in them, and
    # the setting silently ignored
    r = subprocess.run([sys.executable, "-m", "analyzer", "games"], capture_output=True,
                       text=True, env={**os.environ, name: value})
    assert r.returncode == status, (r.returncode, r.stderr)
    if status:
        assert r.stderr.count("\n") == 1 and f"{name}={value!r}" in r.stderr, r.stderr
        assert "Traceback" not in r.stderr


def test_a_game_or_policy_given_twice_is_timed_and_warmed_once(monkeypatch):
    # was: bench listed every row of a repeated --game or --policy twice (timing it twice),
    # and warmup's provenance named a repeated game twice
    from analyzer import bench as bench_mod
    from analyzer import warmup as warmup_mod

    asked = {}
    monkeypatch.setattr(bench_mod, "run", lambda **kw: asked.update(kw) or [])
    r = run("bench", "--game", "pedro", "--game", "pedro", "--policy", "random", "--policy",
            "random", "--json")
    assert r.exit_code == 0, r.stderr
    assert (asked["games"], asked["policies"]) == (("pedro",), ("random",))
    assert json.loads(r.stdout)["provenance"]["games"] == ["pedro"]
    monkeypatch.setattr(warmup_mod, "warm", lambda presets, **kw: asked.update(
        presets=presets) or [])
    r = run("warmup", "pedro", "pedro", "--json")
    assert r.exit_code == 0, r.stderr
    assert asked["presets"] == ["pedro"]
    assert json.loads(r.stdout)["provenance"]["games"] == ["pedro"]
