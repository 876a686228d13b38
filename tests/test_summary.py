"""analyzer.summary on a small hand-made frame and on a real simulation."""

import numpy as np
import pandas as pd
import pytest

from analyzer.games import pedro
from analyzer.stats import mean_ci, wilson
from analyzer.summary import merge, summarize


def tiny() -> pd.DataFrame:
    # four deals; dealer seats 0..3; deal 3 has no contract (dealer 3 named trump)
    df = pd.DataFrame({
        "deal": [0, 1, 2, 3],
        "dealer": [0, 1, 2, 3],
        "bid": [5, 6, 5, 0],
        "made": [1, 0, 0, -1],
        "maker": [0, 2, 1, 3],
        "bid_points": [8, 4, 3, 9],
        "opp_points": [6, 10, 11, 5],
        "points0": [8, 4, 11, 5],
        "points1": [6, 10, 3, 9],
        "dead_points": [0, 0, 0, 0],
        "score1_team0": [8, -6, 11, 5],
        "score1_team1": [6, 10, 3, 9],
        "score2_team0": [2, 0, 16, 0],
        "score2_team1": [0, 16, 0, 4],
    })
    df.attrs.update(rules="pedro", seed=9, policy="heuristic", first=0)
    return df


def test_tiny_frame_hand_computed():
    s = summarize(tiny())
    assert s.provenance == {"n": 4, "seed": 9, "rules": "pedro", "policy": "heuristic",
                            "first": 0}
    assert s.points.loc["bidding side (named trump)", "mean"] == pytest.approx(6.0)
    assert s.points.loc["other side", "mean"] == pytest.approx(8.0)
    assert s.points.loc["team 0 (seats 0, 2)", "mean"] == pytest.approx(7.0)
    c = s.contracts
    assert list(c.index) == ["all contracts", "bid 5", "bid 6"]
    assert (c.loc["all contracts", "n"], c.loc["all contracts", "k"]) == (3, 1)
    assert (c.loc["bid 5", "n"], c.loc["bid 5", "k"]) == (2, 1)
    assert c.loc["bid 6", "hi"] == pytest.approx(wilson(0, 1).hi)
    assert (s.shares.loc["no contract (all passed)", "k"]) == 1
    # the maker is on the dealer's team in deals 0 (seat 0 for 0) and 3 (seat 3 for 3)
    assert s.shares.loc["dealer's side named trump", "k"] == 2
    # dealer's team minus the other team; dealers' teams are 0, 1, 0, 1
    adv1 = [8 - 6, 10 - (-6), 11 - 3, 9 - 5]
    adv2 = [2 - 0, 16 - 0, 16 - 0, 4 - 0]
    assert s.dealer.loc["method 1", "mean"] == pytest.approx(np.mean(adv1))
    assert s.dealer.loc["method 1", "se"] == pytest.approx(mean_ci(adv1).se)
    assert s.dealer.loc["method 2", "mean"] == pytest.approx(np.mean(adv2))
    assert not s.methods_agree


def test_text_shows_n_and_intervals():
    text = summarize(tiny()).to_text()
    assert text.splitlines()[0] == "pedro: n=4 deals (0..3 of seed 9), policy heuristic"
    assert "95% CI" in text and "bid 6" in text and "method 2" in text


def test_real_simulation_is_consistent():
    df = pedro.simulate(pedro.parse_rules("pedro"), 3000, seed=2)
    s = summarize(df)
    pts = s.points["mean"]
    total = pts["bidding side (named trump)"] + pts["other side"] + pts["dead (scored by nobody)"]
    assert total == pytest.approx(14.0)
    assert s.contracts.loc["all contracts", "n"] == int((df["bid"] > 0).sum())
    assert s.contracts["n"].iloc[1:].sum() == s.contracts.loc["all contracts", "n"]
    assert s.methods_agree  # side_with_more: the methods differ in level, not in difference
    assert (s.points["lo"] <= s.points["mean"]).all() and (s.points["mean"] <= s.points["hi"]).all()


def test_empty_frame_raises():
    df = pedro.simulate(pedro.parse_rules("pedro"), 0)
    with pytest.raises(ValueError, match="empty"):
        summarize(df)


def test_a_slice_or_a_filter_names_the_deals_it_holds():
    # the attrs' first=0 outlives a slice: the rows' own deal numbers say which they are
    df = pedro.simulate(pedro.parse_rules("pedro"), 3000, seed=9)
    head = summarize(df.iloc[1000:2000]).to_text().splitlines()[0]
    assert head == "pedro: n=1000 deals (1000..1999 of seed 9), policy heuristic"
    picked = df[df["bid"] > 7]
    s = summarize(picked)
    assert s.provenance["selected_from"] == [int(picked["deal"].min()),
                                             int(picked["deal"].max())]
    assert f"n={len(picked)} deals (a selection from " in s.to_text()
    with pytest.raises(ValueError, match="selected deals"):
        merge([s, summarize(df.iloc[:10])])


def test_a_mean_no_deal_moved_is_bounded_by_its_range_in_whole_and_merged_summaries():
    """`simulate pedro` printed "dead 0.000 ± 0.000 [0.000, 0.000]" where `compare` gave the
    same measure on the same deals [0.000, 0.003]: now both are what 14 points a deal allow
    on the deals a run may have missed; merged halves say exactly what the whole says; an
    invariant (King's four scores sum to 0) stays exact."""
    from analyzer.games import king, pedro
    from analyzer.stats import unseen_share
    from analyzer.summary import from_state, merge

    rules = pedro.parse_rules("pedro")
    whole = pedro.GAME.summarize(pedro.simulate(rules, 2000, seed=1))
    dead = whole.points.loc["dead (scored by nobody)"]
    assert dead["mean"] == 0 and dead["lo"] == 0
    assert dead["hi"] == pytest.approx(14 * unseen_share(2000))
    assert "dead (scored by nobody)     2000  0.000        -  [0.000, 0.027]" in whole.to_text()
    halves = [pedro.GAME.summarize(pedro.simulate(rules, 1000, seed=1, first=f))
              for f in (0, 1000)]
    merged = merge([from_state(h.to_state()) for h in halves])
    assert merged.to_text() == whole.to_text()
    games = king.GAME.summarize(king.simulate(king.parse_rules("king"), 50, seed=1))
    invariant = games.points.loc["sum of the four (always 0)"]
    assert invariant["lo"] == invariant["hi"] == 0


def test_an_interval_too_narrow_for_three_decimals_gets_the_digits_it_needs():
    """`make simulate` (a million deals) printed "dead 0.000 ± 0.000 [0.000, 0.000]": the
    bound 14 points a deal allow on deals a run may miss is 0.00005 there. The table now
    widens a row's digits until its interval shows; other rows keep three."""
    from analyzer.stats import unseen_share
    from analyzer.summary import _mean_table

    n, hi = 1_000_000, 14 * unseen_share(1_000_000)
    df = pd.DataFrame({"n": [n, n, n], "mean": [0.0, 9.381, 2.0], "lo": [0.0, 9.373, 1.9996],
                       "hi": [hi, 9.389, 2.0004]},
                      index=["dead", "bidding side", "narrow"])
    lines = _mean_table(df).splitlines()
    assert lines[2].split()[-4:] == ["0.0000", "-", "[0.0000,", "0.0001]"]
    assert lines[3].split()[-5:] == ["9.381", "±", "0.008", "[9.373,", "9.389]"]
    assert lines[4].split()[-5:] == ["2.0000", "±", "0.0004", "[1.9996,", "2.0004]"]


def test_summaries_sharing_a_single_deal_are_refused_naming_it():
    """Deals 0..99 and 99..198 of one seed share deal 99 alone: merging them would count it
    twice; adjacent ranges (0..99 and 100..199) merge into one run."""
    rules = pedro.parse_rules("pedro")
    a, b, c = (pedro.GAME.summarize(pedro.simulate(rules, 100, seed=1, first=f))
               for f in (0, 99, 100))
    with pytest.raises(ValueError, match=r"runs overlap: deals 99\.\.99 of seed 1 are in two"):
        merge([a, b])
    with pytest.raises(ValueError, match=r"runs overlap: deals 99\.\.99 of seed 1"):
        merge([b, a])
    joined = merge([c, a]).provenance
    assert (joined["n"], joined["first"], joined["seed"]) == (200, 0, 1)
    assert "ranges" not in joined


def test_rows_with_a_deal_twice_are_labelled_a_selection():
    """Deals 0, 1, 1, 3: as many rows as the range 0..3 has deals, yet not those deals; the
    label says a selection, not "0..3" (the run's deals 0 to 3), and it will not merge."""
    df = pedro.simulate(pedro.parse_rules("pedro"), 10, seed=9)
    twice = df.iloc[[0, 1, 1, 3]]
    s = summarize(twice)
    assert s.provenance["selected_from"] == [0, 3]
    assert s.to_text().splitlines()[0] == (
        "pedro: n=4 deals (a selection from 0..3 of seed 9), policy heuristic")
    with pytest.raises(ValueError, match="selected deals"):
        merge([s, summarize(df.iloc[4:])])
    head = summarize(df.iloc[0:4]).to_text().splitlines()[0]  # the deals 0..3 themselves
    assert head == "pedro: n=4 deals (0..3 of seed 9), policy heuristic"


def test_a_tiny_run_shows_no_nan_and_no_interval_beyond_what_a_deal_holds():
    """Two deals' mean ± 1.96 se ran to [-3.36, 10.36] points; one deal's to [nan, nan]."""
    rules = pedro.parse_rules("pedro")
    two = pedro.GAME.summarize(pedro.simulate(rules, 2, seed=1))
    points = two.sections[0].table
    assert (points["lo"] >= 0).all() and (points["hi"] <= 14).all(), points
    assert (points["lo"] <= points["mean"]).all() and (points["mean"] <= points["hi"]).all()
    one = pedro.GAME.summarize(pedro.simulate(rules, 1, seed=1)).to_text()
    assert "nan" not in one and "n/a (one deal has no spread)" in one
