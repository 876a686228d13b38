"""A report's key findings: each sentence read off its section's numbers, never stronger
than its interval, and linked to the section it comes from."""

from __future__ import annotations

import pandas as pd
import pytest

from analyzer.report import render
from analyzer.report.findings import key_findings
from analyzer.report.parts import Part


def _part(key: str, tables: dict, unit: str = "deals", n: int = 1000, **provenance) -> Part:
    p = Part(key, f"Section {key}", "what it assumes")
    p.tables = {name: pd.DataFrame(rows) for name, rows in tables.items()}
    p.provenance = {"n": n, "unit": unit, **provenance}
    return p


def _said(part: Part) -> list[str]:
    return [sentence for _, sentence in key_findings([part])]


def _level(bid, n, rate, lo, hi, ev=5.0):
    return {"bid": bid, "n": n, "made": int(n * rate), "rate": rate, "rate_lo": lo,
            "rate_hi": hi, "ev": ev, "ev_lo": ev - 0.5, "ev_hi": ev + 0.5}


def test_the_bid_levels_headline_the_commonest_level_and_the_riskiest_of_the_rest():
    levels = [_level(6, 400, 0.85, 0.81, 0.88), _level(7, 300, 0.70, 0.65, 0.75),
              _level(13, 4, 0.25, 0.05, 0.70)]  # too few to say: left out, though lowest
    (said,) = _said(_part("bids", {"levels": levels}, n=704))
    assert said.startswith("Auctions are won most often at 6 (400 of 704 deals): made "
                           "85.0% [81.0%, 88.0%], the bidding side scoring +5.00 [+4.50, "
                           "+5.50] a deal")
    assert said.endswith("; the level made least often is 7 (70.0% [65.0%, 75.0%]).")
    one = _said(_part("bids", {"levels": levels[:1]}, unit="hands"))[0]
    assert "least often" not in one and "a hand" in one


def _measure(name, diff, lo, hi):
    return {"comparison": 1, "a_rules": "pedro", "b_rules": "cinch", "measure": name,
            "b_minus_a": diff, "diff_lo": lo, "diff_hi": hi}


def test_a_comparison_names_only_measures_beyond_the_noise_clearest_first():
    rows = [_measure("small but sure", 0.1, 0.05, 0.15),  # 0.1 / 0.1 wide: clarity 1
            _measure("large and surer", -3.0, -3.5, -2.5),  # 3 / 1 wide: clarity 3
            _measure("unclear", 2.0, -1.0, 5.0),
            _measure("sure but faint", 0.02, 0.01, 0.05)]  # clarity 0.5: not among the two
    (said,) = _said(_part("variants", {"comparisons": rows}))
    assert said == ("cinch against pedro, per deal: large and surer -3.000 [-3.500, -2.500]; "
                    "small but sure +0.100 [+0.050, +0.150] (3 of 4 measures move beyond the "
                    "noise; the clearest shown).")
    quiet = [_measure("unclear", 2.0, -1.0, 5.0), _measure("zero", 0.0, 0.0, 0.0)]
    assert _said(_part("variants", {"comparisons": quiet}, unit="games")) == [
        "cinch against pedro: no measure of the 2 moves beyond the noise."]


@pytest.mark.parametrize("diff, lo, hi, how", [
    (1.0, 0.2, 1.8, "plays better than"), (-1.0, -1.8, -0.2, "plays worse than"),
    (0.3, -0.1, 0.7, "shows no difference beyond the noise from"),
    (0.0, 0.0, 0.0, "shows no difference beyond the noise from")])
def test_a_card_player_is_better_or_worse_only_when_its_paired_interval_excludes_zero(
        diff, lo, hi, how):
    rungs = [{"rung": "heuristic", "n": 500, "diff": 0.0, "diff_lo": 0.0, "diff_hi": 0.0},
             {"rung": "pimc:20", "n": 500, "diff": diff, "diff_lo": lo, "diff_hi": hi}]
    (said,) = _said(_part("ladder", {"rungs": rungs}, measure="bid-side points"))
    assert said.startswith(f"Card player pimc:20 {how} heuristic on the same 500 deals: "
                           "bid-side points ")
    assert said.endswith(" (paired).")


def _side(side, win, lo, hi):
    return {"side": side, "win": win, "win_lo": lo, "win_hi": hi}


def test_whole_games_name_a_side_only_when_its_win_rate_is_off_an_even_share():
    even = [_side("team 0", 0.51, 0.49, 0.53), _side("team 1", 0.49, 0.47, 0.51)]
    (said,) = _said(_part("games", {"sides": even}, unit="games"))
    assert said.startswith("Whole games: no side wins more or less often than an even 50% "
                           "beyond the noise (team 0 51.0% [49.0%, 53.0%]; team 1")
    seats = [_side("first dealer", 0.27, 0.26, 0.28), _side("first dealer + 1", 0.23, 0.22,
                                                            0.24),
             _side("first dealer + 2", 0.25, 0.24, 0.26), _side("first dealer + 3", 0.25,
                                                                0.24, 0.26)]
    assert _said(_part("games", {"sides": seats}, unit="games")) == [
        "Whole games, against an even 25% of wins: first dealer wins 27.0% [26.0%, 28.0%]; "
        "first dealer + 1 wins 23.0% [22.0%, 24.0%] (the others within the noise)."]


def test_a_bound_beyond_the_reference_never_prints_as_the_reference():
    barely = [_side("team 0", 0.503, 0.50004, 0.506), _side("team 1", 0.497, 0.494, 0.49996)]
    (said,) = _said(_part("games", {"sides": barely}, unit="games"))
    assert "team 0 wins 50.300% [50.004%, 50.600%]" in said
    assert "team 1 wins 49.700% [49.400%, 49.996%]" in said
    rows = [_measure("faint", 0.01, 0.0004, 0.02)]
    assert "faint +0.0100 [+0.0004, +0.0200]" in _said(_part("variants",
                                                              {"comparisons": rows}))[0]


def test_hands_give_their_advice_and_sections_without_a_headline_give_none():
    hands = _part("hands", {"hands": [{"hand": "AS KS", "seat": "eldest",
                                       "advice": "bid 7 naming spades: +6.11 ± 0.22 over "
                                                 "passing"}]})
    king_hands = _part("hands", {"hands": [{"hand": "AS KS", "seat": "eldest"}]})
    guide = _part("bid-chart", {"guide": [{"class": "x"}]})
    rules = _part("rules", {})
    rules.text("The preset pedro as it stands: no flag differs from its default.")
    found = key_findings([rules, guide, king_hands, hands])
    assert [(p.key, said) for p, said in found] == [
        ("rules", "The preset pedro as it stands: no flag differs from its default."),
        ("hands", "AS KS at eldest: bid 7 naming spades: +6.11 ± 0.22 over passing.")]


def test_the_findings_lead_the_page_and_the_markdown_each_linked_to_its_section():
    rules = Part("rules", "Section rules", "what it assumes")  # as the rules section: no n
    rules.text("The preset pedro as it stands.")
    found = key_findings([rules])
    md = render.to_markdown("T", ["Q?"], [rules], found)
    assert md.index("## Key findings") < md.index("1. [Section rules](#rules)")
    assert "- The preset pedro as it stands. ([Section rules](#rules))" in md
    page = render.to_html("T", ["Q?"], [rules], figures=None, findings=found)
    assert ('<li>The preset pedro as it stands. (<a href="#rules">Section rules</a>)</li>'
            in page)
    assert page.index('<section id="findings">') < page.index("<nav>")
    assert "Key findings" not in render.to_markdown("T", ["Q?"], [rules])
