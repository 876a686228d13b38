"""A report's key findings: each sentence read off its section's numbers, never stronger
than its interval, and linked to the section it comes from."""

from __future__ import annotations

import re

import pandas as pd
import pytest
from report_helpers import findings_of as _said
from report_helpers import make_part as _part

from analyzer.advice import ladder_z
from analyzer.bidchart_view import guide_headline
from analyzer.games.king.chart_view import right_headline
from analyzer.report import render
from analyzer.report.findings import key_findings
from analyzer.report.parts import Part
from analyzer.stats import wilson


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
    assert said.endswith("; the level made least often is 7 (70.0% [65.0%, 75.0%]) (a "
                         "level's row describes the hands that bid it under this policy).")
    one = _said(_part("bids", {"levels": levels[:1]}, unit="hands"))[0]
    assert "least often" not in one and "a hand" in one


def test_levels_whose_make_rates_overlap_the_lowest_are_named_together():
    levels = [_level(5, 900, 0.86, 0.85, 0.87), _level(8, 300, 0.71, 0.70, 0.72),
              _level(9, 300, 0.70, 0.69, 0.71), _level(12, 40, 0.80, 0.66, 0.90)]
    (said,) = _said(_part("bids", {"levels": levels}))
    assert ("the level made least often is 9 (70.0% [69.0%, 71.0%]), and 8 (71.0% "
            "[70.0%, 72.0%]) and 12 (80.0% [66.0%, 90.0%]) may be as low (their intervals "
            "reach the lowest's)") in said
    (two,) = _said(_part("bids", {"levels": levels[:3]}))
    assert "9 (70.0% [69.0%, 71.0%]), and 8 (71.0% [70.0%, 72.0%]) may be as low (its " in two
    assert "5 (" not in said.split("least often")[1]  # 86% [85%, 87%]: clear of the lowest


def _measure(name, diff, lo, hi):
    return {"comparison": 1, "a_rules": "pedro", "b_rules": "cinch", "measure": name,
            "b_minus_a": diff, "diff_lo": lo, "diff_hi": hi}


def test_a_comparison_names_only_measures_beyond_the_noise_clearest_first():
    rows = [_measure("small but sure", 0.1, 0.05, 0.15),  # 0.1 / 0.1 wide: clarity 1
            _measure("large and surer", -3.0, -3.5, -2.5),  # 3 / 1 wide: clarity 3
            _measure("unclear", 2.0, -1.0, 5.0),
            _measure("sure but faint", 0.02, 0.01, 0.05)]  # clarity 0.5: not among the two
    rows.append(_measure("mirror of the surer", 3.0, 2.5, 3.5))  # the other side's share
    (said,) = _said(_part("variants", {"comparisons": rows}))
    assert said == ("B = cinch against A = pedro, B − A per deal: large and surer -3.000 "
                    "[-3.500, -2.500]; small but sure +0.100 [+0.050, +0.150]; sure but faint "
                    "+0.020 [+0.010, +0.050] (4 of 5 measures move beyond the noise; the "
                    "clearest shown).")
    quiet = [_measure("unclear", 2.0, -1.0, 5.0), _measure("zero", 0.0, 0.0, 0.0)]
    named = _part("variants", {"comparisons": [{**r, "label": "Cinch's scoring"}
                                               for r in quiet]}, unit="games")
    assert _said(named) == ["Cinch's scoring (B = cinch against A = pedro): no measure of the "
                            "2 moves beyond the noise."]


@pytest.mark.parametrize("diff, lo, hi, how", [
    (1.0, 0.2, 1.8, "plays better than"), (-1.0, -1.8, -0.2, "plays worse than"),
    (0.3, -0.1, 0.7, "shows no difference beyond the noise from"),
    (0.0, 0.0, 0.0, "shows no difference beyond the noise from")])
def test_a_card_player_is_better_or_worse_only_when_its_paired_interval_excludes_zero(
        diff, lo, hi, how):
    rungs = [_rung("heuristic", 500, 0.0, 0.0, 0.0), _rung("pimc:20", 500, diff, lo, hi)]
    (said,) = _said(_part("ladder", {"rungs": rungs}, measure="bid-side points"))
    assert said.startswith(f"Card player pimc:20 {how} heuristic on the same 500 deals: "
                           "bid-side points ")
    assert said.endswith(" (paired).")


def _rung(rung, n, diff, lo, hi, family=None):
    """A ladder's row: the paired difference, and the interval held for all the rungs
    (``family``: (lo, hi); by default the rung's own, for one comparison)."""
    flo, fhi = family or (lo, hi)
    return {"rung": rung, "n": n, "diff": diff, "diff_lo": lo, "diff_hi": hi,
            "diff_family_lo": flo, "diff_family_hi": fhi}


def test_a_card_player_is_named_better_only_on_enough_deals_and_for_all_compared():
    """Two equal rungs each at 95% alone, on 3 deals: 18% of runs named one better (a
    statistician's measurement); four equal rungs on 500 deals: 12%."""
    few = [_rung("heuristic", 3, 0.0, 0.0, 0.0), _rung("pimc:20", 3, 2.0, 0.5, 3.5)]
    (said,) = _said(_part("ladder", {"rungs": few}, measure="bid-side points"))
    assert said.startswith("Card player pimc:20 cannot yet be told from heuristic")
    rows = [_rung("random", 500, 0.0, 0.0, 0.0), _rung("heuristic", 500, 0.5, 0.1, 0.9,
                                                      family=(-0.1, 1.1)),
            _rung("dd", 500, 2.0, 1.5, 2.5, family=(1.2, 2.8))]
    said = _said(_part("ladder", {"rungs": rows}, measure="bid-side points"))
    assert said[0].startswith("Card player heuristic shows no difference beyond the noise")
    assert said[0].endswith("[-0.10, +1.10] (paired, 95% for the 2 players compared "
                            "together).")
    assert said[1].startswith("Card player dd plays better than random")


def _side(side, wins, n):
    """A side's row as standings.whole_games writes it (its 95% Wilson interval alone)."""
    w = wilson(wins, n)
    return {"side": side, "n": n, "wins": wins, "win": w.p, "win_lo": w.lo, "win_hi": w.hi}


def test_whole_games_name_a_side_only_when_its_win_rate_is_off_an_even_share():
    teams = _part("games", {"sides": [_side("team 0", 550, 1000), _side("team 1", 450, 1000)]},
                  unit="games")
    teams.text("A game lasts 9.10 [9.00, 9.20] deals (mean, 95% CI); 0 of 500 were undecided.")
    # two teams deal first in turn: even by design, so their length, not a chance "winner"
    assert _said(teams) == ["Whole games: a game lasts 9.10 [9.00, 9.20] deals (mean, 95% CI); "
                            "0 of 500 were undecided."]
    names = ("first dealer", "first dealer + 1", "first dealer + 2", "first dealer + 3")
    even = [_side(s, w, 10_000) for s, w in zip(names, (2600, 2400, 2500, 2500), strict=True)]
    (said,) = _said(_part("games", {"sides": even}, unit="games"))
    assert said.startswith("Whole games: no side wins more or less often than an even 25% "
                           "beyond the noise (95% for the 4 sides together: first dealer "
                           "26.0% [24."), said
    seats = [_side(s, w, 10_000) for s, w in zip(names, (2700, 2300, 2500, 2500), strict=True)]
    (said,) = _said(_part("games", {"sides": seats}, unit="games"))
    assert said.startswith("Whole games, against an even 25% of wins (95% for the 4 sides "
                           "together): first dealer wins 27.0% [25.9%, 28.1%]; first dealer + "
                           "1 wins 23.0% [22.0%, 24.1%] (the others within the noise)."), said


def test_a_side_beyond_the_noise_alone_is_not_named_for_all_four():
    """Each of four even seats at 95% alone: some seat was named in 18% of runs."""
    alone = [_side("north", 2590, 10_000), _side("east", 2470, 10_000),
             _side("south", 2470, 10_000), _side("west", 2470, 10_000)]
    assert alone[0]["win_lo"] > 0.25  # beyond the noise on its own
    (said,) = _said(_part("games", {"sides": alone}, unit="games"))
    assert said.startswith("Whole games: no side wins more or less often"), said


def test_a_bound_other_than_the_reference_never_prints_as_the_reference():
    n = 1_000_000
    k = next(k for k in range(251_000, 260_000) if wilson(k, n, ladder_z(4)).lo > 0.25)
    barely = [_side("north", k, n), _side("east", 250_000, n), _side("south", 250_000, n),
              _side("west", 250_000, n)]
    (said,) = _said(_part("games", {"sides": barely}, unit="games"))
    low = re.search(r"north wins [\d.]+% \[([\d.]+)%", said).group(1)
    assert float(low) > 25 and "south" not in said, said  # printed with the digits to show it
    rows = [_measure("faint", 0.01, 0.0004, 0.02)]
    assert "faint +0.0100 [+0.0004, +0.0200]" in _said(_part("variants",
                                                              {"comparisons": rows}))[0]


def test_hands_give_their_advice_and_sections_without_a_headline_give_none():
    hands = _part("hands", {"hands": [{"hand": "AS KS", "seat": "eldest",
                                       "advice": "bid 7 naming spades: +6.11 ± 0.22 over "
                                                 "passing"}]})
    king_hands = _part("hands", {"hands": [{"hand": "AS KS", "seat": "eldest"}]})
    rules = _part("rules", {})
    rules.text("The preset pedro as it stands: no flag differs from its default.")
    empty_guide = _part("bid-chart", {"guide": pd.DataFrame(columns=["seat", "bid_from"])})
    found = key_findings([rules, empty_guide, king_hands, hands, _part("other", {})])
    assert [(p.key, said) for p, said in found] == [
        ("rules", "The preset pedro as it stands: no flag differs from its default."),
        ("hands", "AS KS at eldest: bid 7 naming spades: +6.11 ± 0.22 over passing.")]


def _guide_row(seat, bid_from, bid_to, holding, gain):
    return {"seat": seat, "bid_from": bid_from, "bid_to": bid_to,
            "minimum holding": f"{holding}, seat={seat}", "n": 1000, "rec_gain": gain,
            "rec_gain_lo": gain - 0.1, "rec_gain_hi": gain + 0.1, "slight": False}


def test_the_guide_headlines_each_seats_weakest_hand_worth_a_bid():
    """The bidding games' guide headline (their chart view's): each seat's first row."""
    guide = [_guide_row("dealer", 1, 4, "trumps=3, no ace", 0.2),
             _guide_row("dealer", 5, 9, "trumps=4, ace", 1.5),
             _guide_row("eldest", 1, 6, "trumps=4, no ace", 0.4)]
    assert guide_headline(pd.DataFrame(guide)) == [
        "The weakest hand worth a bid, by seat: dealer: trumps=3, no ace (bids up to 4: +0.20 "
        "[+0.10, +0.30] over passing); eldest: trumps=4, no ace (bids up to 6: +0.40 "
        "[+0.30, +0.50] over passing)."]
    assert guide_headline(pd.DataFrame(columns=["seat", "bid_from"])) == []


def test_kings_guide_headline_is_the_trump_rights_range_by_longest_suit():
    right = pd.DataFrame(
        [{"longest": k, "high_cards": h, "seat": "eldest", "value": v, "rare": rare}
         for k, h, v, rare in [("<=4", "0-2", 0.2, False), ("<=4", "3-4", 0.1, False),
                               ("5", "0-2", 1.2, False), ("5", "7+", 9.0, True)]])
    assert right_headline(right, "longest") == [
        "The trump right is worth, in tricks over another seat naming trump (the range over "
        "the other features and the seats): longest <=4: +0.10 to +0.20; longest 5: +1.20 "
        "to +1.20."]
    assert right_headline(right.assign(rare=True), "longest") == []


def test_a_sections_own_headlines_lead_its_findings():
    """A game's guide headline reaches the findings through its part, ahead of what the
    findings read off the part's tables."""
    hands = _part("hands", {"hands": [{"hand": "AS KS", "seat": "eldest",
                                       "advice": "pass"}]})
    hands.headlines = ["Said by the section."]
    assert _said(hands) == ["Said by the section.", "AS KS at eldest: pass."]


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


def test_a_comparison_counts_the_measures_that_hold_for_the_whole_family():
    """With the comparison's family flags (``beyond_family``), its sentence says how many of
    the measures beyond the noise stay beyond it with the 95% shared by all of them."""
    rows = [{**_measure("strong", 1.0, 0.5, 1.5), "beyond_family": True},
            {**_measure("faint", 0.1, 0.01, 0.19), "beyond_family": False},
            {**_measure("unclear", 2.0, -1.0, 5.0), "beyond_family": False}]
    (said,) = _said(_part("variants", {"comparisons": rows}))
    assert said.endswith("(2 of 3 measures move beyond the noise, 1 of them (*) even with "
                         "the 95% held for all 3 measures that have an interval together; the "
                         "clearest shown).")
    assert "strong +1.000 [+0.500, +1.500]*; faint +0.100 [+0.010, +0.190] (" in said


def test_a_guide_without_a_seat_headlines_its_first_row_alone():
    """A guide charted without a seat (``by`` of strength features only) has no context
    columns: its headline is its first row, with no seat named before it."""
    guide = [_guide_row("dealer", 1, 4, "trumps=3", 0.2),
             _guide_row("dealer", 5, 9, "trumps=4", 1.5)]
    plain = pd.DataFrame(guide).drop(columns="seat")
    plain["minimum holding"] = ["trumps=3", "trumps=4"]
    (said,) = guide_headline(plain)
    assert said == ("The weakest hand worth a bid: trumps=3 (bids up to 4: +0.20 [+0.10, "
                    "+0.30] over passing).")  # no "by seat": there is none
    assert ": : " not in said and "trumps=4" not in said


def test_a_guide_with_two_context_features_headlines_each_combination():
    """Every column before ``bid_from`` is context: the headline names each combination's
    first row, the context's values before it and out of its holding."""
    guide = [{**_guide_row("eldest", 1, 4, "trumps=3", 0.2), "dealer": "no"},
             {**_guide_row("eldest", 1, 6, "trumps=4", 0.4), "dealer": "yes"}]
    for row in guide:
        row["minimum holding"] = f"{row['minimum holding']}, dealer={row['dealer']}"
    frame = pd.DataFrame(guide)
    frame = frame[["seat", "dealer", *[c for c in frame if c not in ("seat", "dealer")]]]
    assert guide_headline(frame) == [
        "The weakest hand worth a bid, by seat and dealer: eldest dealer=no: trumps=3 (bids "
        "up to 4: +0.20 [+0.10, +0.30] over passing); eldest dealer=yes: trumps=4 (bids up "
        "to 6: +0.40 [+0.30, +0.50] over passing)."]


def test_a_games_headline_measures_lead_its_comparison_however_clear_the_rest():
    """King's final scores are what a player keeps; one hand's dealer points, though often
    clearer, come after them, and the sentence says so. Without headline measures, or where
    none of them moves, the clearest lead as before."""
    rows = [_measure("hand 2 (no-hearts): its dealer's points", 8.0, 7.5, 8.5),  # clarity 8
            _measure("final score, first dealer + 1", 9.0, 7.0, 11.0),  # clarity 2.25
            _measure("final score, first dealer + 2", -1.0, -1.5, -0.5),  # clarity 1
            _measure("final score, first dealer + 3", 0.5, -1.0, 2.0)]  # within the noise
    king = {"unit": "games", "headline_measures": ["final score"]}
    (said,) = _said(_part("variants", {"comparisons": rows}, **king))
    assert said == ("B = cinch against A = pedro, B − A per game: final score, first dealer + 1 "
                    "+9.000 [+7.000, +11.000]; final score, first dealer + 2 -1.000 [-1.500, "
                    "-0.500]; hand 2 (no-hearts): its dealer's points +8.000 [+7.500, +8.500] "
                    "(3 of 4 "
                    "measures move beyond the noise; the clearest shown, those of a final "
                    "score first).")
    (plain,) = _said(_part("variants", {"comparisons": rows}, unit="games"))
    assert plain.index("hand 2") < plain.index("first dealer + 1")
    assert "first)." not in plain
    hands_only = [r for r in rows if not r["measure"].startswith("final")]
    (alone,) = _said(_part("variants", {"comparisons": hands_only}, **king))
    assert alone.endswith("(1 of 1 measures moves beyond the noise; the clearest shown).")


def test_a_share_moves_by_percentage_points_in_a_finding():
    """"declarer makes -0.028" read as points; a share's difference is in percentage
    points (the comparison flags its shares)."""
    rows = [{**_measure("declarer makes", -0.028, -0.031, -0.025), "share": True},
            {**_measure("declaring side's points", -5.75, -6.0, -5.5), "share": False}]
    (said,) = _said(_part("variants", {"comparisons": rows}, unit="hands"))
    assert "declarer makes -2.8 [-3.1, -2.5] percentage points" in said
    assert "declaring side's points -5.750 [-6.000, -5.500]" in said


def test_thirty_deals_are_enough_for_a_card_player_finding_and_twenty_nine_are_not():
    """MIN_TRIALS is the floor, inclusive: ``n < 30`` made ``<=`` passed every test (a
    mutation review)."""
    for n, how in ((30, "plays better than"), (29, "cannot yet be told from")):
        rungs = [_rung("heuristic", n, 0.0, 0.0, 0.0), _rung("pimc:20", n, 2.0, 0.5, 3.5)]
        (said,) = _said(_part("ladder", {"rungs": rungs}, measure="bid-side points"))
        assert said.startswith(f"Card player pimc:20 {how} heuristic"), said
