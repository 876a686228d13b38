"""``bidlab report`` refuses a bad scenario file in one line before any work, and a report
killed half-way leaves the previous report as it was."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest
from cli_helpers import assert_bad_input, report_data, run

GOOD = 'game = "pedro"\nseed = 1\n[bids]\ndeals = 1000\n'

BAD = {  # file text -> what the one line must say
    "unknown_key": ('game = "pedro"\ncolour = "red"\n[bids]\n', "unknown key 'colour'"),
    "unknown_section_key": ('game = "pedro"\n[bids]\ndeal = 5\n', "[bids] unknown key 'deal'"),
    "unknown_section": ('game = "pedro"\n[bidz]\ndeals = 5\n', "unknown key 'bidz'"),
    "wrong_type": ('game = "pedro"\n[bids]\ndeals = "many"\n', "deals must be a whole number"),
    "float_size": ('game = "pedro"\n[bids]\ndeals = 1e6\n', "deals must be a whole number"),
    "bool_size": ('game = "pedro"\n[bids]\ndeals = true\n', "deals must be a whole number"),
    "negative_size": ('game = "pedro"\n[bids]\ndeals = -5\n', "deals must be at least 1"),
    "zero_games": ('game = "pedro"\n[games]\ngames = 0\n', "games must be at least 1"),
    "negative_seed": ('game = "pedro"\nseed = -1\n[bids]\n', "seed must be at least 0"),
    "missing_game": ("seed = 1\n[bids]\n", "missing key 'game'"),
    "unknown_game": ('game = "bridge"\n[bids]\n', "unknown game 'bridge'"),
    "unknown_flag": ('game = "pedro"\nrules = { lowest = 3 }\n[bids]\n', "lowest"),
    "bad_flag_value": ('game = "pedro"\nrules = { min_bid = 99 }\n[bids]\n', "min_bid"),
    "bad_variant_flag": ('game = "pedro"\n[[variants]]\nb = "pedro(low_to=nobody)"\n',
                         "[[variants]] #1 b"),
    "variant_of_another_game": ('game = "pedro"\n[[variants]]\nb = "rook"\n',
                                "not a variant of the scenario's game"),
    "variants_not_array": ('game = "pedro"\n[variants]\nb = "cinch"\n', "[[variants]]"),
    "bad_hand": ('game = "pedro"\n[hands]\ncards = ["AS KS ZZ"]\n', "[hands] cards[0]"),
    "short_hand": ('game = "pedro"\n[hands]\ncards = ["AS KS QS"]\n', "[hands] cards[0]"),
    "bad_seat": ('game = "pedro"\n[hands]\ncards = ["AS KS 5S 5C 2S 9H 3D JC 7H"]\n'
                 'seat = "north"\n', "seats: dealer, eldest, second, third"),
    "empty_hand_list": ('game = "pedro"\n[hands]\ncards = []\n', "non-empty list of strings"),
    "missing_hands": ('game = "pedro"\n[hands]\ndeals = 5\n', "missing key 'cards'"),
    "bad_policy": ('game = "pedro"\npolicy = "genius"\n[bids]\n', "bad policy 'genius'"),
    "bad_rung": ('game = "pedro"\n[ladder]\nrungs = ["heuristic", "oracle"]\n',
                 "[ladder] rungs"),
    "bad_feature": ('game = "pedro"\n[bid_chart]\nby = "trumps,luck"\n', "[bid_chart] by"),
    "no_bids_in_king": ('game = "king"\n[bids]\n', "[bids]"),
    "contract_in_rook": ('game = "rook"\n[hands]\ncards = ["AS KS QS JS 9S 5S JK AH KH 5D '
                         '2D 3C 4C"]\ncontract = "no-hearts"\n',
                         "[hands] contract: only king; Rook has no contracts"),
    "bad_ladder_contract": ('game = "king"\n[ladder]\ncontract = "bogus"\n',
                            "[ladder] contract: unknown contract 'bogus'; contracts: no-tricks"),
    "no_section": ('game = "pedro"\nseed = 3\n', "no section"),
    "not_toml": ("this is not = = toml\n", "not valid TOML"),
    "bad_name": ('game = "pedro"\nname = "../elsewhere"\n[bids]\n', "cannot be a folder name"),
    "bad_base": ('game = "pedro"\nbase = "cheap"\n[bids]\n', "base: bad policy 'cheap'"),
    "base_is_policy": ('game = "pedro"\nbase = "heuristic"\n[bids]\n', "cheaper one"),
    "base_searches_more": ('game = "pedro"\npolicy = "dd"\nbase = "pimc:2"\n[bids]\n',
                           "base 'pimc:2': the base policy pimc:2 searches more than the "
                           "policy dd"),
    "base_deals_below_deals": ('game = "pedro"\npolicy = "dd"\nbase = "heuristic"\n'
                               '[[variants]]\nb = "cinch"\ndeals = 50\nbase_deals = 10\n',
                               "[[variants]] #1 base_deals"),
    "king_chart_with_base": ('game = "king"\npolicy = "dd"\nbase = "heuristic"\n'
                             '[bid_chart]\n', "[bid_chart] with base"),
    # every rung plays the deals: 5e12 deals alone fit a day, times 2 rungs do not
    "ladder_too_long": ('game = "pedro"\n[ladder]\ndeals = 5_000_000_000_000\n'
                        'rungs = ["heuristic", "random"]\n',
                        "[ladder] deals x rungs = 10,000,000,000,000 would take"),
    "variant_games_in_king": ('game = "king"\n[[variants]]\nb = "king(max_offer=1)"\n'
                              'games = 10\n', "[[variants]] #1 games: King's comparisons "
                              "pair its whole games already"),
    "variant_games_with_base": ('game = "pedro"\npolicy = "dd"\nbase = "heuristic"\n'
                                '[[variants]]\nb = "pedro(target=21)"\ngames = 10\n',
                                "[[variants]] #1 games: whole games are compared plain"),
    "variant_contract_unknown": ('game = "king"\n[[variants]]\nb = "king(max_offer=1)"\n'
                                 'contract = "bogus"\n', "[[variants]] #1 contract: unknown "
                                 "contract 'bogus'"),
    "variant_contract_in_pedro": ('game = "pedro"\n[[variants]]\nb = "cinch"\n'
                                  'contract = "positive"\n', "[[variants]] #1 contract: only "
                                  "king"),
    "variant_games_and_deals": ('game = "pedro"\n[[variants]]\nb = "pedro(target=21)"\n'
                                'games = 100\ndeals = 5000\n', "[[variants]] #1 games and "
                                "deals: whole games take no deals"),
    "variant_max_deals_alone": ('game = "pedro"\n[[variants]]\nb = "pedro(target=21)"\n'
                                'max_deals = 50\n', "[[variants]] #1 max_deals bounds whole "
                                "games: give games"),
    "games_too_many": ('game = "pedro"\n[games]\ngames = 10_000_000_000_000\n',
                       # the games' deal indices end before a day's worth of games
                       "[games] games must be at most 549,755,813,887"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_a_bad_scenario_is_one_line_exit_2_and_no_report(case, tmp_path):
    text, expected = BAD[case]
    path = tmp_path / f"{case}.toml"
    path.write_text(text)
    out = tmp_path / "report"
    result = run("report", str(path), "--out", str(out))
    assert_bad_input(result, expected, str(path))
    assert not out.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == [path.name]  # no temporary left


def test_a_rules_table_spells_its_flags_in_any_case():
    from analyzer.report.scenario import parse_scenario

    text = 'game = "pedro(min_bid=7)"\nrules = { LOW_TO = "holder" }\n[bids]\n'
    assert str(parse_scenario(text, "s.toml").rules) == "pedro(min_bid=7,low_to=holder)"


def test_a_missing_file_a_folder_and_a_binary_file(tmp_path):
    out = tmp_path / "report"
    assert_bad_input(run("report", str(tmp_path / "nope.toml"), "--out", str(out)),
                     "no such scenario file")
    assert_bad_input(run("report", str(tmp_path), "--out", str(out)), "is a folder")
    binary = tmp_path / "x.toml"
    binary.write_bytes(b"\xff\xfe\x00game")
    assert_bad_input(run("report", str(binary), "--out", str(out)), "not a TOML file")
    assert not out.exists()


def test_a_folder_of_other_files_is_never_replaced(tmp_path):
    scenario = tmp_path / "s.toml"
    scenario.write_text(GOOD)
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "thesis.tex").write_text("years of work")
    assert_bad_input(run("report", str(scenario), "--out", str(mine)), "did not write")
    assert (mine / "thesis.tex").read_text() == "years of work"


def test_kill_9_during_a_report_leaves_the_previous_report_intact(tmp_path):
    """Build a small report, then start a long one into the same folder and SIGKILL it
    once it is working: the first report is still there, byte for byte."""
    small = tmp_path / "small.toml"
    small.write_text(GOOD)
    out = tmp_path / "report"
    assert run("report", str(small), "--out", str(out), "--no-progress").exit_code == 0
    before = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    long = tmp_path / "long.toml"
    long.write_text('game = "pedro"\n[ladder]\ndeals = 100_000\nrungs = ["heuristic", '
                    '"pimc:8"]\n')
    proc = subprocess.Popen([sys.executable, "-m", "analyzer", "report", str(long), "--out",
                             str(out), "--no-progress"], stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "NUMBA_NUM_THREADS": "1"})
    try:
        line = proc.stderr.readline()  # "[1/1] make rate ...": it is playing deals now
        assert "[1/1]" in line, line
        time.sleep(1.0)
        assert proc.poll() is None, "the long report ended before it could be killed"
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
        proc.stderr.close()
    after = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert after == before
    # a later report there replaces it, and clears what the killed one may have left
    assert run("report", str(small), "--out", str(out), "--no-progress").exit_code == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["long.toml", "report",
                                                          "small.toml"]
    assert Path(out / "index.html").is_file()


def test_a_report_failing_while_it_writes_leaves_the_previous_one(tmp_path, monkeypatch):
    """The failure comes after the figures and data are written into the temporary folder,
    before the page: the old report stays whole and no temporary is left beside it."""
    from analyzer.report import render

    small = tmp_path / "small.toml"
    small.write_text(GOOD)
    out = tmp_path / "report"
    assert run("report", str(small), "--out", str(out), "--no-progress").exit_code == 0
    before = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}

    def broken(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(render, "to_markdown", broken)
    result = run("report", str(small), "--out", str(out), "--no-progress")
    assert result.exit_code == 2
    assert result.stderr.splitlines()[-1] == "bidlab: error: cannot write: No space left on device"
    assert "Traceback" not in result.stderr
    after = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert after == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report", "small.toml"]


def test_a_two_level_scenario_says_its_estimator_in_every_section_it_moves(tmp_path):
    path = tmp_path / "two.toml"
    path.write_text('game = "pedro"\npolicy = "dd"\nbase = "heuristic"\n'
                    '[bid_chart]\ndeals = 20\nbase_deals = 2000\nby = "trumps,seat"\n'
                    '[hands]\ncards = ["AS KS 5S 5C 2S 9H 3D JC 7H"]\ndeals = 20\n'
                    'base_deals = 2000\n'
                    '[[variants]]\nb = "pedro(low_to=holder)"\ndeals = 20\nbase_deals = 2000\n')
    out = tmp_path / "report"
    result = run("report", str(path), "--out", str(out))
    assert result.exit_code == 0, result.output
    page = (out / "report.md").read_text()
    assert page.count("Two-level estimates of dd") == 3
    assert "correction of B − A" in page and "estimator: two-level" in page


def test_a_two_level_bid_guide_played_in_chunks_is_the_one_played_at_once(tmp_path):
    """A report's executor plays a two-level [bid_chart] in a run's chunks (as a cluster
    does): the same data files as the chart played in one process."""
    from analyzer import runs
    from analyzer.report import build
    from analyzer.report.scenario import load_scenario

    path = tmp_path / "two.toml"
    path.write_text('game = "pedro"\npolicy = "dd"\nbase = "heuristic"\n'
                    '[bid_chart]\ndeals = 20\nbase_deals = 2000\nby = "trumps,seat"\n')
    s = load_scenario(str(path))
    ex = runs.executor("local")
    bars: dict[str, list[int]] = {}  # a section's title: [its work, the progress it made]

    def bar(total: int, label: str):
        bars[label] = [total, 0]
        return lambda k: bars[label].__setitem__(1, bars[label][1] + k)

    try:
        parts = {"once": build.run_sections(s, lambda line: None),
                 "chunks": build.run_sections(s, lambda line: None, bar, ex=ex)}
    finally:
        ex.close()
    digests = report_data(parts, tmp_path)
    assert any("bid" in name for name in digests["once"])
    assert digests["chunks"] == digests["once"]
    guide = bars["the bid guide"]
    assert guide == [2020, 2020]  # the bar ends full: N cheap deals and n searched ones


# ---- what a good scenario file becomes -----------------------------------------------------


def test_quick_caps_the_large_sizes_and_keeps_the_small_ones(tmp_path):
    """--quick: a size above its --quick size is cut to it; a smaller one stays as written
    (16 deals stay 16), and without --quick every size is the file's."""
    from analyzer.report.scenario import load_scenario

    path = tmp_path / "q.toml"
    path.write_text('game = "pedro"\n[bids]\ndeals = 16\n[seats]\ndeals = 5_000_000\n'
                    '[games]\ngames = 5\n[ladder]\n')
    quick = load_scenario(path, quick=True)
    assert quick.quick
    assert quick.section("bids")["deals"] == 16
    assert quick.section("seats")["deals"] == 20_000
    assert quick.section("games")["games"] == 5 and quick.section("games")["max_deals"] is None
    assert quick.section("ladder")["deals"] == 60  # the default 1,000, cut
    full = load_scenario(path)
    assert not full.quick
    assert (full.section("bids")["deals"], full.section("seats")["deals"],
            full.section("ladder")["deals"]) == (16, 5_000_000, 1_000)


def test_a_variant_without_a_is_compared_with_the_scenarios_own_rules():
    """[[variants]] a defaults to the scenario's game and rules, its flags included (not
    the bare preset); an a that is given stays."""
    from analyzer.report.scenario import parse_scenario

    s = parse_scenario('game = "pedro"\nrules = { min_bid = 7 }\n[[variants]]\n'
                       'b = "pedro(min_bid=6)"\n[[variants]]\na = "pedro"\nb = "cinch"\n',
                       "v.toml")
    first, second = s.sections["variants"]
    assert str(first["a"]) == "pedro(min_bid=7)" and first["a"] == s.rules
    assert str(first["b"]) == "pedro(min_bid=6)"
    assert str(second["a"]) == "pedro"


def test_seed_zero_is_kept_as_zero():
    from analyzer.report.scenario import parse_scenario

    assert parse_scenario('game = "pedro"\nseed = 0\n[bids]\n', "z.toml").seed == 0
    assert parse_scenario('game = "pedro"\n[bids]\n', "d.toml").seed == 1  # the default


@pytest.mark.parametrize("name", ["..", ".", ".hidden"])
def test_a_name_starting_with_a_dot_cannot_name_the_report_folder(name):
    """".." would write the report beside reports/, "." over it, ".hidden" out of sight."""
    from analyzer.report.scenario import ScenarioFileError, parse_scenario

    with pytest.raises(ScenarioFileError, match="cannot be a folder name"):
        parse_scenario(f'game = "pedro"\nname = "{name}"\n[bids]\n', "n.toml")
    assert parse_scenario('game = "pedro"\nname = "a.b"\n[bids]\n', "n.toml").name == "a.b"


def test_a_two_level_variant_s_verdict_counts_its_searched_deals(tmp_path):
    """On 20 searched deals (5,000 cheap) min_bid=7 leaves fewer deals without a contract
    by an interval clear of zero: too few to tell, as compare says, counting the searched
    deals the correction's spread is read off (it said "B lower" on the 5,000 cheap)."""
    # (seed 9 puts the interval clear of zero, the case this is about, as seed 3 did under
    # the old bidding: tests/test_compare.py's two-level verdict test checks that it does)
    out = _report(tmp_path, 'game = "pedro"\nseed = 9\npolicy = "random"\n'
                  'base = "heuristic"\n[[variants]]\nb = "pedro(min_bid=7)"\ndeals = 20\n'
                  'base_deals = 5000\n')
    row = next(line for line in (out / "report.md").read_text().splitlines()
               if line.startswith("| no contract"))
    assert "too few deals to tell (20 searched)" in row, row
    # B's two-level share lay wholly below 0 and was cut to "0.000 [0.000, -0.053]"
    for lo, hi in re.findall(r"\[([-+\d.]+), ([-+\d.]+)\]", row):
        assert float(lo) <= float(hi), row


def test_a_variant_of_whole_games_is_paired_game_by_game(tmp_path):
    """[[variants]] games: whole games to the target, game i the same deals under A and B;
    the table, the footer and the finding count games, and a comparison of deals beside it
    keeps its deals."""
    out = _report(tmp_path, 'game = "pedro"\nseed = 4\n[[variants]]\n'
                  'b = "pedro(target=21)"\ngames = 400\nmax_deals = 500\n[[variants]]\n'
                  'b = "pedro(low_to=holder)"\ndeals = 3000\n')
    page = " ".join((out / "report.md").read_text().split())
    assert "| measure (per game) |" in page and "| measure (per deal) |" in page
    assert "play the same deals or games with every seat as heuristic; B − A is taken one " \
           "by one" in page
    assert "400 whole games to the target (undecided after 500 deals), game i the same " \
           "deals under A and B." in page and "score-blind players" in page
    assert "target acts only on whole games" not in page
    assert "(B = pedro(target=21) against A = pedro), B − A per game: deals per game" in page
    assert "n = 400 + 3,000 deals or games (one comparison each)" in page
    table = pd.read_csv(out / "data" / "variants-comparisons.csv")
    assert table.groupby("comparison")["unit"].first().to_dict() == {1: "game", 2: "deal"}


def test_a_king_variant_of_one_contract_pairs_its_hands(tmp_path):
    """[[variants]] contract: King's single hands of it, as `compare --contract`, beside a
    comparison of whole games."""
    out = _report(tmp_path, 'game = "king"\n[[variants]]\nb = "king(max_offer=1)"\n'
                  'contract = "positive"\ndeals = 2000\n[[variants]]\n'
                  'b = "king(pos_leader=left_of_dealer)"\ndeals = 100\n')
    page = " ".join((out / "report.md").read_text().split())
    assert "2,000 hands of positive under both." in page
    assert "play the same games or hands with every seat as heuristic; B − A is taken one " \
           "by one" in page
    alone = " ".join((_report(tmp_path / "alone", 'game = "king"\n[[variants]]\n'
                              'b = "king(max_offer=1)"\ncontract = "positive"\n'
                              'deals = 500\n') / "report.md").read_text().split())
    assert "play the same hands with every seat as heuristic; B − A is taken hand by " \
           "hand" in alone
    assert "| measure (per hand) |" in page and "| measure (per game) |" in page
    assert "against A = king), B − A per hand: price (tricks; hands sold)" in page
    table = pd.read_csv(out / "data" / "variants-comparisons.csv")
    assert table.groupby("comparison")["unit"].first().to_dict() == {1: "hand", 2: "game"}


def _report(tmp_path, scenario: str):
    """The folder of the report ``scenario`` (a file's text) builds, its command passed."""
    tmp_path.mkdir(exist_ok=True)
    path = tmp_path / "scenario.toml"
    path.write_text(scenario)
    out = tmp_path / "report"
    result = run("report", str(path), "--out", str(out))
    assert result.exit_code == 0, result.output
    return out


def test_the_games_section_gives_the_first_dealer_s_edge_as_match_does(tmp_path):
    """A tuner's question of whole games (the review of compare --games): how often the
    team that deals first wins; match prints it, the report's [games] section now too."""
    import json

    out = _report(tmp_path, 'game = "pedro"\nseed = 2\n[games]\ngames = 500\n')
    page = " ".join((out / "report.md").read_text().split())
    rates = json.loads(run("match", "pedro", "--games", "500", "--seed", "2",
                           "--json").stdout)["rates"]
    first = next(r for r in rates if r["row"].startswith("first dealer"))
    assert first["k"] > 0
    assert (f"The first dealer's team won {100 * first['rate']:.1f}% "
            f"[{100 * first['lo']:.1f}%, {100 * first['hi']:.1f}%] of the {first['n']} "
            "decided games") in page
