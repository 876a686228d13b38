"""`bidlab solve` and `bidlab ladder` from the command line: output, JSON, bad input."""

from __future__ import annotations

import json

import pandas as pd
import pytest
from cli_helpers import assert_bad_input, run

from analyzer.games import pedro

EXAMPLE = ["solve", "pedro", "--hands", "5S JS/AS 2H/KS 3H/4S 5H", "--trump", "S",
           "--leader", "N"]


def test_solve_prints_the_value_and_every_card():
    r = run(*EXAMPLE)
    assert r.exit_code == 0, r.stderr
    assert "value for N-S: 5 points" in r.stdout
    lines = {ln.split()[0]: ln.split()[1:] for ln in r.stdout.splitlines()
             if ln[:2] in ("JS", "5S")}
    assert lines["JS"] == ["5", "best"] and lines["5S"] == ["1"]


def test_a_solve_is_timed_after_its_kernel_is_compiled(monkeypatch):
    """A first `bidlab solve` printed "12 nodes, 10007.8 ms": its 10 s of compiling read as
    search time. The kernel is now compiled (or loaded) for the call's types first."""
    import time

    from analyzer import solver
    from analyzer.games.search import dd_cards

    events, compile_now = [], dd_cards.solve_moves.compile
    monkeypatch.setattr(dd_cards.solve_moves, "compile",
                        lambda sig: (events.append("compile"), compile_now(sig))[1])
    monkeypatch.setattr(solver.time, "perf_counter",
                        lambda: (events.append("clock"), time.monotonic())[1])
    sol = solver.solve("pedro", "5S JS/AS 2H/KS 3H/4S 5H", trump="S", leader=0)
    assert events == ["compile", "clock", "clock"]
    assert sol.nodes > 0


def test_solve_json_and_side():
    r = run(*EXAMPLE, "--side", "E", "--json")
    out = json.loads(r.stdout)
    assert out["value"] == 1 and out["side"] == "E" and out["best"] == ["JS"]
    assert out["card_values"] == {"5S": 5, "JS": 1}


def test_solve_from_deal_matches_the_dd_play_of_that_deal():
    """The start of play of deal 3, solved, equals what four dd seats take there."""
    r = run("solve", "pedro", "--from-deal", "3", "--seed", "1", "--json")
    value = json.loads(r.stdout)["value"]
    log = pedro.play_logged(pedro.parse_rules("pedro"), 1, [3], "heuristic")[0]
    maker = log["bidder"] if log["bidder"] is not None else log["dealer"]
    hands = "/".join(" ".join(h) for h in log["start_hands"])
    from analyzer import solve

    assert value == solve("pedro", hands, trump=log["trump"], leader=maker).value


def test_solve_king_and_rook_examples():
    r = run("solve", "king", "--contract", "no-hearts", "--hands",
            "AS 5S KH/KS 2S TH/5C JS QH/QS 3S 5H")
    assert r.exit_code == 0 and "paranoid" in r.stdout and "-80" in r.stdout
    r = run("solve", "rook", "--hands", "AS 5S/KS 2S/5C JS/QS JK", "--trump", "S",
            "--leader", "E")
    assert r.exit_code == 0 and "value for E-W" in r.stdout


@pytest.mark.parametrize("args, expected", [
    (["--hands", "AS 5S/KS 2S/5C JS"], "4 parts"),
    (["--hands", "AS 5S/KS 2S/5C JS/QS AS"], "each card is dealt once"),
    (["--hands", "AS 5S/KS 2S/5C JS/QS 3S", "--trump", "X"], "trump: C, D, H, S or NT"),
    (["--hands", "AS 5S/KS 2S/5C JS/QS 3S", "--trump", "S", "--leader", "Q"], "seats: N, E"),
    (["--hands", "AS 5S/KS 2S/5C JS/QS 3S", "--trump", "S", "--played", "AS"], "played"),
    (["--hands", "AS 5S 2C 3C 4C 6C 7C/KS/5C/3S", "--trump", "S"], "at most 6"),
    (["--hands", "AS 5S/KS 2S/5C JS/QS 3S", "--trump", "S", "--played", "2H 3H 4H 6H"],
     "at most 3 played"),
    (["--hands", "AS 5S/KS 2S/5C JS/QS 3S"], "needs a trump"),
    # the garbled "card AS is played and in the current trick hand", and an out-of-order
    # trick read as a hand-size error
    (["--hands", "5S/2S/5C JS/QS 3S", "--trump", "S", "--leader", "N", "--played",
      "N:AS E:AS"], "card AS is played twice to the current trick"),
    (["--hands", "5S/2S/5C JS/QS 3S", "--trump", "S", "--leader", "N", "--played",
      "N:AS S:KS"], "S plays KS out of turn: after N it is E's turn"),
])
def test_solve_bad_positions(args, expected):
    assert_bad_input(run("solve", "pedro", *args), expected)


@pytest.mark.parametrize("hands, played", [
    ("5S/AS 2H 3H 4H JS/KS/4S", ""),  # 1/5/1/1 cards
    ("5S JS/-/KS 3H/4S 5H", ""),  # E holds nothing
    ("5S JS/AS 2H/KS 3H/4S", ""),  # W one short
    ("5S JS/AS 2H/KS 3H/4S 5H", "QS"),  # N played, yet still holds two
])
def test_solve_refuses_hand_sizes_the_trick_cannot_explain(hands, played):
    """Hands shrink one card a trick: at the trick's start they hold the same number."""
    assert_bad_input(run("solve", "pedro", "--hands", hands, "--trump", "S", "--leader", "N",
                         "--played", played), "same number of cards", "got N")


def test_uneven_pedro_hands_solve_under_play_short_hand():
    r = run("solve", "pedro", "--hands", "5S JS/-/KS 3H/4S 5H", "--trump", "S", "--leader",
            "N", "--rule", "stock_short=play_short_hand")
    assert r.exit_code == 0, r.stderr
    assert "value for N-S" in r.stdout


def test_solve_bad_positions_other_games():
    assert_bad_input(run("solve", "rook", "--hands", "AS 5S/KS/5C JS/QS 3S", "--trump", "S"),
                     "same number of cards")
    assert_bad_input(run("solve", "king", "--hands", "AS/KS/5C/QS"), "contract")
    assert_bad_input(run("solve", "king", "--hands", "AS/KS/5C/JK", "--contract",
                         "no-tricks"), "52 cards")
    # the played card could not have been played: S still holds a heart and a heart was led
    assert_bad_input(run("solve", "king", "--contract", "no-tricks", "--leader", "E",
                         "--hands", "AS KD/KS/5H/QH QC", "--played", "2H 3C"),
                     "could not play 3C")
    assert_bad_input(run("solve", "pedro"), "--hands")
    # seed 1's positive hand 4 was declined 4-3-3-3 in its auction: nothing was played
    assert_bad_input(run("solve", "king", "--from-deal", "4", "--seed", "1", "--contract",
                         "positive"), "declined")


def test_solve_node_budget():
    """A budget too small is one line naming --max-nodes; a big enough one solves; the
    option takes positive integers only."""
    r = run(*EXAMPLE, "--json")
    nodes = json.loads(r.stdout)["nodes"]
    assert nodes > 2
    assert_bad_input(run(*EXAMPLE, "--max-nodes", str(nodes // 2)), "not solved within",
                     "--max-nodes")
    r = run(*EXAMPLE, "--max-nodes", str(nodes), "--json")
    assert r.exit_code == 0 and json.loads(r.stdout)["value"] == 5
    assert_bad_input(run(*EXAMPLE, "--max-nodes", "0"), "--max-nodes")


def test_ladder_runs_and_writes(tmp_path):
    r = run("ladder", "pedro", "--deals", "60", "--rungs", "random,heuristic,dd",
            "--duplicate", "--out-dir", str(tmp_path / "lad"), "--progress")
    assert r.exit_code == 0, r.stderr
    assert "playing the rungs" in r.stderr  # the progress bar's label (no terminal here)
    assert "dd (clairvoyant)" in r.stdout and "heuristic vs random" in r.stdout
    summary = pd.read_csv(tmp_path / "lad" / "summary.csv")
    assert list(summary["rung"]) == ["random", "heuristic", "dd (clairvoyant)"]
    assert (tmp_path / "lad" / "by_bid.png").stat().st_size > 1000
    deals = pd.read_parquet(tmp_path / "lad" / "deals.parquet")
    # every rung played the same contracts, and clairvoyance never takes less on average
    assert len(deals) == 60 and deals["points_dd"].mean() >= deals["points_random"].mean()


def test_ladder_rook():
    r = run("ladder", "rook", "--deals", "40", "--rungs", "random,heuristic", "--duplicate")
    assert r.exit_code == 0, r.stderr
    assert "heuristic vs random" in r.stdout
    bids = [ln.split()[0] for ln in r.stdout.split("by bid level")[1].splitlines()[3:]
            if ln.strip() and ln.split()[0].isdigit()]
    assert bids and all(int(b) % 5 == 0 and 70 <= int(b) <= 200 for b in bids)


def test_ladder_king(tmp_path):
    r = run("ladder", "king", "--deals", "60", "--rungs", "random,heuristic", "--out-dir",
            str(tmp_path))
    assert r.exit_code == 0, r.stderr
    assert "trump chooser's tricks" in r.stdout and "declined 4-3-3-3" in r.stdout
    assert (tmp_path / "by_bid.png").exists()
    r = run("ladder", "king", "--deals", "40", "--rungs", "heuristic", "--contract",
            "no-queens", "--out-dir", str(tmp_path / "neg"))
    assert r.exit_code == 0, r.stderr
    assert "no-queens points" in r.stdout and "P(make)" not in r.stdout  # no auction
    assert sorted(p.name for p in (tmp_path / "neg").iterdir()) == [
        "deals.parquet", "manifest.json", "summary.csv", "summary.csv.json"]


def test_ladder_bad_input():
    assert_bad_input(run("ladder", "pedro", "--rungs", "random,genius"),
                     "bad rung 'genius'; give one of random, heuristic, dd, pimc")
    # one policy plays the other side: a policy a seat was once spliced into every seat
    assert_bad_input(run("ladder", "pedro", "--deals", "5", "--opponents",
                         "random,heuristic,random,heuristic"), "one policy plays the whole side")
    assert_bad_input(run("ladder", "king", "--deals", "5", "--duplicate"), "partnerships")
    assert_bad_input(run("ladder", "king", "--contract", "no-spades"), "contracts:")
    assert_bad_input(run("ladder", "rook", "--contract", "positive"),
                     "--contract: only king; Rook has no contracts")
    assert_bad_input(run("simulate", "pedro", "--policy", "pimc:0"), "pimc:W")


@pytest.mark.parametrize("command, name, argv, expected", [
    ("simulate", "deals", ["pedro", "--policy", "pimc"], 1_000),
    ("simulate", "deals", ["pedro", "--policy", "pimc", "--deals", "7"], 7),
    ("simulate", "deals", ["pedro"], 100_000),
    ("simulate", "deals", ["rook", "--policy", "heuristic,dd,heuristic,heuristic"], 1_000),
    ("compare", "deals", ["pedro", "cinch", "--policy", "dd"], 1_000),
    ("match", "n_games", ["pedro", "--policy", "pimc:5"], 200),
    ("match", "n_games", ["pedro", "--policy", "random"], 10_000),
    ("hand", "deals", ["pedro", "AS", "--policy", "dd"], 500),
    ("hand", "deals", ["pedro", "AS", "--policy", "dd", "--deals", "20000"], 20_000),
    ("bid-chart", "deals", ["pedro", "--policy", "dd"], 5_000),
    ("bid-chart", "deals", ["king", "--policy", "dd"], 500),
])
def test_size_defaults_shrink_when_a_seat_searches(command, name, argv, expected):
    """A size left at its default plays about a minute when a seat searches; one given is
    kept, and the fast policies keep the large default."""
    from analyzer import cli

    ctx = cli.main.get_command(None, command).make_context(command, list(argv))
    assert cli.search_sized(ctx, name, ctx.params[name], ctx.params["policy"]) == expected


def test_searching_simulate_says_its_smaller_default():
    r = run("simulate", "pedro", "--policy", "dd")
    assert r.exit_code == 0, r.stderr
    assert "--deals defaults to 1,000 rather than 100,000" in r.stderr
    assert "n=1000 deals" in r.stdout


def test_searching_target_ci_caps_its_max_deals():
    """--target-ci with a searching seat stops at 5,000 deals unless told otherwise: its
    1,000,000 would take days."""
    hand = ["pedro", "AS", "KS", "5S", "5C", "2S", "9H", "3D", "JC", "7H", "--policy", "dd"]
    r = run("hand", *hand, "--target-ci", "100")
    assert r.exit_code == 0, r.stderr
    assert "--max-deals defaults to 5,000 rather than 1,000,000" in r.stderr
    r = run("hand", *hand, "--target-ci", "100", "--max-deals", "60")
    assert r.exit_code == 0, r.stderr
    assert "--max-deals defaults" not in r.stderr


def test_a_deal_s_position_shows_its_hands_as_deal_and_cards_do():
    """--from-deal echoed each hand in the kernel's order (clubs first, low to high);
    `bidlab deal` and `bidlab cards` show spades first, high to low."""
    from analyzer.cards import CardSet

    r = run("solve", "pedro", "--from-deal", "3", "--seed", "1")
    assert r.exit_code == 0, r.stderr
    line = next(x for x in r.stdout.splitlines() if x.startswith("hands N/E/S/W: "))
    hands = line.split(": ", 1)[1].split("/")
    assert [str(CardSet(h)) for h in hands] == hands
    assert hands[1].split() == ["5S", "4H", "6D", "QC", "7C", "4C"]


def test_a_solved_deal_says_which_deal_it_is_and_a_budget_hint_fits_the_command():
    """``--from-deal`` printed the hands alone, no deal, seed or policy; the budget error
    said "--max-nodes" twice and offered --hands/--played to a --from-deal run."""
    r = run("solve", "pedro", "--from-deal", "3", "--seed", "1")
    assert r.exit_code == 0, r.stderr
    assert "deal 3 of seed 1 (policy heuristic)" in r.stdout
    doc = json.loads(run("solve", "pedro", "--from-deal", "3", "--seed", "1", "--json").stdout)
    assert doc["from_deal"] == {"deal": 3, "seed": 1, "policy": "heuristic"}
    line = assert_bad_input(run("solve", "pedro", "--from-deal", "3", "--max-nodes", "10"),
                            "not solved within 10 nodes")
    assert line.count("--max-nodes") == 1 and "--hands" not in line
    line = assert_bad_input(run(*EXAMPLE, "--max-nodes", "2"), "not solved within 2 nodes")
    assert line.count("--max-nodes") == 1 and "--played" in line


def test_ladder_worlds_only_where_a_bare_pimc_plays():
    """--worlds without a bare pimc was ignored in silence, and the header said "pimc worlds
    20" beside opponents pimc:2, which play 2."""
    assert_bad_input(run("ladder", "pedro", "--deals", "4", "--rungs", "heuristic,dd",
                         "--worlds", "5"), "--worlds 5 is for a bare pimc")
    r = run("ladder", "pedro", "--deals", "4", "--rungs", "heuristic", "--opponents", "pimc:2")
    assert r.exit_code == 0, r.stderr
    assert "opponents pimc:2" in r.stdout and "pimc worlds" not in r.stdout
