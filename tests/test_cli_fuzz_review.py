"""Bad input found by a fuzzing review of every command and option against the rule (one
line on stderr, exit 2, nothing lost): each test failed on the code it was written against."""

from __future__ import annotations

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

