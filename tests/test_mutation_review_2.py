"""A mutation review of the changes since 0dc82e6 (tests only): each test here fails on a
small change to the code that the other tests let pass (a dropped condition, a flipped
comparison, a unit or a progress call left out), and passes on the code as it is.

Each runs in seconds: the report sections are played in-process on a few dozen deals.
"""

from __future__ import annotations

import re
import subprocess
from types import SimpleNamespace

import pandas as pd
import pytest
from report_helpers import findings_of as _said
from report_helpers import make_part as _part

from analyzer.advice import MIN_TRIALS
from analyzer.report import build
from analyzer.report.parts import Part
from analyzer.report.scenario import load_scenario

# ---- the findings: a share's star, the bid levels that may be as low -----------------------




def _measure(name, diff, lo, hi, **flags):
    return {"comparison": 1, "a_rules": "rook", "b_rules": "rook(x)", "measure": name,
            "b_minus_a": diff, "diff_lo": lo, "diff_hi": hi, **flags}


def test_a_share_that_holds_for_the_whole_family_keeps_its_star():
    """The star marks a measure beyond the noise for the whole family, a share in
    percentage points as much as a measure in points."""
    rows = [_measure("declarer makes", -0.028, -0.031, -0.025, share=True,
                     beyond_family=True),
            _measure("declaring side's points", -5.75, -6.0, -5.5, share=False,
                     beyond_family=False)]
    (said,) = _said(_part("variants", {"comparisons": rows}, unit="hands"))
    assert "declarer makes -2.8 [-3.1, -2.5]* percentage points" in said
    assert "declaring side's points -5.750 [-6.000, -5.500];" in said  # no star: not held


def _level(bid, n, rate, lo, hi, ev=5.0):
    return {"bid": bid, "n": n, "made": int(n * rate), "rate": rate, "rate_lo": lo,
            "rate_hi": hi, "ev": ev, "ev_lo": ev - 0.5, "ev_hi": ev + 0.5}


def test_the_commonest_level_made_least_often_is_named_before_those_as_low():
    """Where the commonest level is also the lowest, a level within its noise still comes
    after it: the sentence names the lowest first, not "…a deal, and 7 may be as low"."""
    levels = [_level(6, 400, 0.70, 0.65, 0.75), _level(7, 300, 0.72, 0.66, 0.78)]
    (said,) = _said(_part("bids", {"levels": levels}, n=700))
    assert ("a deal; the level made least often is 6 (70.0% [65.0%, 75.0%]), and 7 (72.0% "
            "[66.0%, 78.0%]) may be as low (its interval reaches the lowest's) (") in said


def test_a_level_whose_interval_just_reaches_the_lowest_may_be_as_low():
    """"Reach" includes touching: a lower bound equal to the lowest's upper bound."""
    levels = [_level(5, 900, 0.90, 0.88, 0.92), _level(7, 300, 0.70, 0.65, 0.75),
              _level(8, 300, 0.80, 0.75, 0.85)]
    (said,) = _said(_part("bids", {"levels": levels}))
    assert ("the level made least often is 7 (70.0% [65.0%, 75.0%]), and 8 (80.0% [75.0%, "
            "85.0%]) may be as low (its interval reaches the lowest's)") in said


def test_the_levels_that_may_be_as_low_come_in_the_order_of_their_bids():
    levels = [_level(5, 900, 0.90, 0.88, 0.92), _level(7, 100, 0.70, 0.60, 0.80),
              _level(8, 300, 0.64, 0.62, 0.66), _level(9, 300, 0.60, 0.55, 0.65)]
    (said,) = _said(_part("bids", {"levels": levels}))
    assert ("the level made least often is 9 (60.0% [55.0%, 65.0%]), and 7 (70.0% [60.0%, "
            "80.0%]) and 8 (64.0% [62.0%, 66.0%]) may be as low (their intervals reach") in said


def test_a_level_of_exactly_few_auctions_counts():
    """(Outside the diff, found on the way.) A level won on FEW auctions is enough to be
    named, as the bids table shows its rate from FEW on."""
    from analyzer.report.parts import FEW

    levels = [_level(6, 400, 0.85, 0.81, 0.88), _level(9, FEW, 0.40, 0.25, 0.57)]
    (said,) = _said(_part("bids", {"levels": levels}))
    assert "the level made least often is 9 (40.0%" in said


# ---- a report's sections: announced, progress, units, headline measures -------------------


def _scenario(tmp_path, text: str):
    path = tmp_path / "s.toml"
    path.write_text(text)
    return load_scenario(str(path))


def _bars():
    bars: dict[str, list[int]] = {}  # a section's title: [its work, the progress it made]

    def bar(total: int, label: str):
        bars[label] = [total, 0]
        return lambda k: bars[label].__setitem__(1, bars[label][1] + k)

    return bars, bar


def test_a_section_that_reports_no_progress_is_still_announced(tmp_path, monkeypatch):
    """A section whose work was done before it (a cached simulation) never calls its
    progress: it is announced at its end, before its "done" line, all the same."""
    s = _scenario(tmp_path, 'game = "pedro"\n[bids]\ndeals = 100\n')

    def runner(s, cfg, cache, progress, ex=None):
        return Part("bids", "Make rate", "assumes")

    monkeypatch.setitem(build.RUNNERS, "bids", runner)
    said: list[str] = []
    bars, bar = _bars()
    build.run_sections(s, said.append, bar)
    assert len(said) == 2, said
    assert said[0].startswith("[1/1] ") and said[0].endswith(": 100 deals"), said
    assert "done in" in said[1]
    assert list(bars.values()) == [[100, 0]]  # its bar was made once, though never moved


@pytest.mark.parametrize("two_level, total", [("", 2 * 40),
                                              ('policy = "random"\nbase = "heuristic"\n',
                                               2 * (40 + 300))])
def test_a_variants_sections_bar_ends_full(tmp_path, two_level, total):
    """The bar counts each variant's deals, and each variant's cheap ones with a base (a
    variant's base_deals has a default even without one, which it must not count)."""
    sized = "base_deals = 300\n" if two_level else ""
    s = _scenario(tmp_path, f'game = "pedro"\n{two_level}[[variants]]\n'
                            f'b = "pedro(low_to=holder)"\ndeals = 40\n{sized}')
    bars, bar = _bars()
    parts = build.run_sections(s, lambda line: None, bar)
    assert build.section_work(s, "variants")[0] == total
    assert list(bars.values()) == [[total, total]]
    assert parts[-1].provenance["headline_measures"] == []  # Pedro: every measure alike


def test_kings_variants_section_names_its_headline_measures(tmp_path):
    """King's findings lead with the final scores: the section says which measures those
    are, for the findings to read."""
    s = _scenario(tmp_path, 'game = "king"\nseed = 1\n[[variants]]\n'
                            'b = "king(first_lead=left_of_dealer)"\ndeals = 20\n')
    part = build.run_sections(s, lambda line: None)[-1]
    assert part.provenance["headline_measures"] == ["final score"]


def test_rooks_hands_ladder_and_games_sections_count_hands(tmp_path):
    """Rook plays hands: the hands, ladder and games sections count them so, in their
    text and in the n their footers stamp."""
    s = _scenario(tmp_path, 'game = "rook"\nseed = 1\n[hands]\n'
                            'cards = ["AS KS QS JS 9S 5S JK AH KH 5D 2D 3C 4C"]\ndeals = 40\n'
                            '[ladder]\ndeals = 20\nrungs = ["random", "heuristic"]\n'
                            '[games]\ngames = 20\n')
    parts = {p.key: p for p in build.run_sections(s, lambda line: None)}
    assert parts["hands"].provenance["unit"] == "hands"
    ladder = parts["ladder"]
    assert ladder.provenance["unit"] == "hands"
    assert "on 20 hands" in ladder.model and " deals" not in ladder.model
    games = parts["games"]
    text = " ".join(b.text for b in games.blocks if b.kind == "text")
    assert re.search(r"A game lasts \S+ \[\S+, \S+\] hands \(mean", text), text
    assert "Hands per game." in [b.text for b in games.blocks if b.kind == "figure"]


def test_the_game_length_figure_labels_its_unit():
    from analyzer.report import figures

    fig = figures.game_lengths(pd.DataFrame({"deals": [4, 5], "games": [3, 7]}), "hands")
    assert fig.axes[0].get_xlabel() == "hands in the game"


# ---- the manifest's commit ---------------------------------------------------------------


def _git(repo, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=repo,
                   check=True, capture_output=True)


def test_the_commit_is_dirty_where_pyproject_changed_and_none_outside_git(tmp_path,
                                                                           monkeypatch):
    """The package and its pyproject.toml make the code: a changed pyproject (its
    dependencies) is -dirty; a package outside any checkout has no commit (None, not
    "-dirty")."""
    outside = tmp_path / "outside"
    (outside / "analyzer" / "report").mkdir(parents=True)
    monkeypatch.setattr(build, "__file__", str(outside / "analyzer" / "report" / "build.py"))
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))  # never a repo above it
    assert build._git_commit() is None

    repo = tmp_path / "repo"
    (repo / "analyzer" / "report").mkdir(parents=True)
    (repo / "analyzer" / "report" / "build.py").write_text("# code\n")
    (repo / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    (repo / "reports").mkdir()
    (repo / "reports" / "r.md").write_text("a report\n")
    _git(repo, "init", "-q")
    _git(repo, "add", ".")
    _git(repo, "commit", "-q", "-m", "c")
    monkeypatch.setattr(build, "__file__", str(repo / "analyzer" / "report" / "build.py"))
    clean = build._git_commit()
    assert clean is not None and len(clean) == 40, clean
    (repo / "reports" / "r.md").write_text("a report, rebuilt\n")  # not the code
    assert build._git_commit() == clean
    (repo / "pyproject.toml").write_text("[project]\nname = 'x'\nversion = '2'\n")
    assert build._git_commit() == clean + "-dirty"


# ---- King's trump right, as each seat can act on it ----------------------------------------

RIGHT = {"value": 1.32, "value_lo": 1.28, "value_hi": 1.36, "n": 2000, "offer_up_to": 1,
         "accept_offers_above": 1, "decline": "play", "own_tricks": 5.1, "own_tricks_lo": 4.9,
         "own_tricks_hi": 5.3}


def test_the_trump_right_with_no_seat_gives_both_sides_advice():
    from analyzer.games.king.evaluate import trump_right_sentence

    said = trump_right_sentence(RIGHT)
    assert said == ("trump right worth 1.32 ± 0.04 tricks: offer up to 1 trick(s) for it; as "
                    "the benefited, accept an offer above 1; naming trump beats the 4-3-3-3 "
                    "decline (4 tricks) beyond the noise")


@pytest.mark.parametrize("seat", ["eldest", "second", "third"])
def test_every_seat_but_the_dealer_may_only_offer(seat):
    from analyzer.games.king.evaluate import _trump_right_lines, trump_right_sentence

    assert trump_right_sentence(RIGHT, seat) == ("trump right worth 1.32 ± 0.04 tricks: offer "
                                                 "up to 1 trick(s) for it")
    lines = _trump_right_lines(RIGHT, seat)
    assert lines[1] == "  offer up to 1 trick(s) for it"  # not the tricks the decline weighs
    assert not any("my tricks naming trump" in line for line in lines)
    assert "this seat may offer tricks for it" in lines[2]


def test_the_dealers_decline_line_carries_the_tricks_it_weighs():
    from analyzer.games.king.evaluate import _trump_right_lines

    lines = _trump_right_lines(RIGHT, "dealer")
    assert lines[1] == "  as the benefited, accept an offer above 1"
    assert lines[2] == ("  naming trump beats the 4-3-3-3 decline (4 tricks) beyond the noise "
                        "(my tricks naming trump: 5.10 ± 0.20)")
    assert "this seat is the benefited" in lines[3]


def test_a_chart_row_of_too_few_hands_says_so_in_its_decline_cell_where_the_seat_declines():
    """The decline column: "-" at a seat that cannot decline, however few its hands; "too
    few" at the dealer's class under MIN_TRIALS hands, whatever its row holds."""
    from analyzer.games.king.chart_view import _advice_cells

    other = SimpleNamespace(seat="eldest", n=MIN_TRIALS - 1, offer_up_to=float("nan"),
                            accept_offers_above=float("nan"), decline="-")
    dealer = SimpleNamespace(seat="dealer", n=MIN_TRIALS - 1, offer_up_to=float("nan"),
                             accept_offers_above=float("nan"), decline="play")
    assert _advice_cells(other) == ["too few", "-", "-"]
    assert _advice_cells(dealer) == ["-", "too few", "too few"]
    enough = SimpleNamespace(seat="dealer", n=MIN_TRIALS, offer_up_to=float("nan"),
                             accept_offers_above=2.0, decline="play")
    assert _advice_cells(enough) == ["-", "2", "play"]


# ---- a hand's ranking and run time ---------------------------------------------------------


def test_a_two_level_rankings_correction_is_its_own_interval():
    """The correction (n) column shows the correction's half-width, not the gain's."""
    from analyzer import evaluate_hand

    ev = evaluate_hand("pedro", "AS KS 5S 5C 2S 9H 3D JC 7H", deals=200, policy="random",
                       base="heuristic", base_deals=2000, seed=1)
    text = str(ev)
    rows = text[text.index("Best alternatives"):].splitlines()[3:3 + len(ev.actions)]
    for line, (_, r) in zip(rows, ev.actions.iterrows(), strict=True):
        cells = re.split(r"\s{2,}", line.strip())
        correction = cells[-2]
        m = re.fullmatch(r"([+-][\d.]+) ± ([\d.]+)", correction)
        assert m, (line, correction)
        assert float(m.group(1)) == pytest.approx(r["correction"], abs=0.006)
        half = (r["correction_hi"] - r["correction_lo"]) / 2
        assert float(m.group(2)) == pytest.approx(half, abs=0.006), line


def test_a_run_that_played_one_hand_a_deal_says_nothing_of_hands(capsys):
    from analyzer.cli.hand import report_time

    report_time(1000, 2.0, "heuristic", None, 1000)  # Pedro: hand_work is the deals
    assert capsys.readouterr().err.startswith("1,000 deals in 2.0 s (")
    report_time(10, 2.0, "heuristic", None, 60)  # King: six hands a deal
    assert capsys.readouterr().err.startswith("10 deals (60 hands played in all) in 2.0 s")
