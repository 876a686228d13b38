"""Behaviour a fourth mutation review found unpinned: each test failed on a one-line change
that every other test passed (the change named in its docstring). The kernels and the
pure-Python references held; these are the layers around them: intervals near too few
deals, compare's per-deal measures, the advice's edges and the two-level plan."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from analyzer.stats import Z95, Estimate, PairedMoments, bounded, unseen_share

# ---- intervals where few deals differ -------------------------------------------------------


def test_a_difference_seen_on_a_handful_of_deals_keeps_its_unseen_share_both_ways():
    """5 of 1,000 deals altered, all one way: the normal interval [0.002, 0.018] clears
    zero, and compare called "B higher" on it (``min(d.lo, mean - unseen)`` made ``d.lo``)."""
    from analyzer.differences import bounded_difference

    d = Estimate(0.01, 0.004, 0.002, 0.018, 1000)
    b = bounded_difference(d, (0.0, 14.0), differ=5)
    unseen = 14 * unseen_share(1000)
    assert b.lo == pytest.approx(0.01 - unseen) and b.hi == pytest.approx(0.01 + unseen)
    assert b.lo < 0 < b.hi


def test_thirty_altered_deals_and_thirty_defining_deals_are_enough():
    """MIN_TRIALS (30) is inclusive in compare's verdict and the widened difference."""
    from analyzer.compare import with_verdicts
    from analyzer.differences import bounded_difference

    t = pd.DataFrame({"b_minus_a": [0.5, 0.5], "diff_lo": [0.3, 0.3], "diff_hi": [0.7, 0.7],
                      "n_paired": [500, 500], "n_a": [30, 29], "n_b": [500, 500]})
    assert with_verdicts(t)["beyond_noise"].tolist() == [True, False]
    d = Estimate(0.1, 0.01, 0.08, 0.12, 1000)
    assert bounded_difference(d, (0.0, 14.0), differ=30) == d
    assert bounded_difference(d, (0.0, 14.0), differ=29).lo < d.lo


def test_a_bounded_interval_reaches_as_far_as_each_side_of_the_range_allows():
    share = unseen_share(100)
    b = bounded(Estimate(14.0, 0.0, 14.0, 14.0, 100), 0.0, 14.0)  # 100 deals of 14 of 14
    assert b.lo == pytest.approx(14 - 14 * share) and b.hi == 14.0
    b = bounded(Estimate(2.0, 0.0, 2.0, 2.0, 100), 0.0, 14.0)  # down by 2 shares, up by 12
    assert (b.lo, b.hi) == (pytest.approx(2 - 2 * share), pytest.approx(2 + 12 * share))


def test_a_measure_s_range_is_the_wider_of_the_two_variants():
    """parker_adapt's 120 points against the 200 of the default: 0 .. 200 (B's range was
    left out)."""
    from analyzer.compare_rows import Rows
    from analyzer.games import game, rook

    a, b = rook.parse_rules("rook(points=parker_adapt)"), rook.parse_rules("rook")
    assert Rows().bounds(game(a), a, b)["declaring side's points"] == (0.0, 200.0)


# ---- compare's per-deal measures on frames whose answers are known ---------------------------


def test_pedros_dealer_measures_read_the_dealers_side():
    """Deal 0: dealer seat 1 (team 1) settles 10 against 3: +7; deal 1: dealer seat 2 (team
    0) settles 4 against 9: -5. A variant compared with itself reads 0 either way, so the
    sign and the side were unpinned."""
    from analyzer.games import pedro
    from analyzer.games.pedro.summary import compare_measures

    df = pd.DataFrame({"bid": [7, 0], "dealer": [1, 2], "maker": [1, 2], "made": [1, -1],
                       "score1_team0": [3, 4], "score1_team1": [10, 9],
                       "score1_bid": [10, 4], "score1_opp": [3, 9],
                       "bid_points": [10, 4], "dead_points": [1, 1]})
    m = compare_measures(df, pedro.parse_rules("pedro"))
    assert m["dealer's side's score less the other's (own method)"].tolist() == [7.0, -5.0]
    assert m["dealer's side names trump"].tolist() == [1.0, 1.0]


def test_rooks_dealer_measures_read_the_dealers_side():
    from analyzer.games.rook.summary import compare_measures

    # hand 0: dealer seat 3 and declarer seat 1 (team 1): 150 against 50; hand 1: dealer
    # seat 0 (team 0), declarer seat 1 set: team 0 80, team 1 -120
    df = pd.DataFrame({"dealer": [3, 0], "declarer": [1, 1], "score0": [50, 80],
                       "score1": [150, -120], "bid_points": [150, 120], "bid": [130, 120],
                       "made": [1, 0], "forced": [0, 0], "score_bid": [150, -120],
                       "score_opp": [50, 80]})
    m = compare_measures(df)
    assert m["dealer's side's score less the other's"].tolist() == [100.0, 200.0]
    assert m["dealer's side declares"].tolist() == [1.0, 0.0]


def test_kings_hand_measures_read_each_hands_dealer():
    """Hand k+1 of a game whose first dealer is seat 1 is dealt by seat (1 + k) % 4: its
    column read the next seat after a one-character change."""
    from analyzer.games import king
    from analyzer.games.king.summary import compare_measures

    rules = king.parse_rules("king")
    n_hands = len(rules.contracts)
    row = {"first_dealer": 1, **{f"total{s}": 0 for s in range(4)}}
    for k in range(n_hands):
        for s in range(4):
            row[f"h{k + 1}_p{s}"] = 10 * (k + 1) if s == (1 + k) % 4 else -1
    m = compare_measures(pd.DataFrame([row]), rules)
    got = [v[0] for name, v in m.items() if name.startswith("hand ")]
    assert got == [10.0 * (k + 1) for k in range(n_hands)]


def test_the_seat_table_reads_each_position_from_the_dealer():
    """The report's seat-position advantage flipped sign unnoticed."""
    from analyzer.games.standings import seat_positions

    # dealer seat 0 on both deals; team 0 (seats 0, 2) settles 10, team 1 (1, 3) 4
    df = pd.DataFrame({"dealer": [0, 0], "maker": [1, 2], "bid": [6, 7], "made": [1, 0],
                       "s0": [10, 10], "s1": [4, 4]})
    t = seat_positions(df, "maker", "bid", "made", ("s0", "s1"))
    assert t["advantage"].tolist() == [-6.0, 6.0, -6.0, 6.0]  # eldest, second, third, dealer
    assert t["named_trump"].tolist() == [1, 1, 0, 0]


# ---- advice at its edges ------------------------------------------------------------------------


def test_a_fixed_gain_on_ten_deals_is_not_a_clear_decision():
    """Bid 6 beats passing by exactly 5 on each of 10 deals: no spread, too few deals. A
    rival differing by a constant counted as clear, which stopped --until-decided at its
    first look (``d.mean == 0 and d.se == 0`` made ``d.se == 0``)."""
    from analyzer.advice import decide

    d = decide(PairedMoments.of([[0, 5]] * 10), ["pass", "bid 6"])
    assert d.action == "pass" and not d.clear


def test_p_best_of_a_bid_that_plays_as_the_pass_goes_to_the_pass():
    """Bid 7 is never made: it is the pass on every deal. Its share of P(best) must join the
    pass's, so that the rows shown sum to 1 (they read 5.5% against 72% once)."""
    from analyzer.rollout import rank_alternatives

    rng = np.random.default_rng(1)
    x = rng.integers(-5, 10, 400).astype(float)
    bid6 = x + rng.integers(-3, 4, 400)
    m = PairedMoments.of(np.c_[bid6, x, x])
    t = rank_alternatives(m, [("bid 6", "", 6), ("bid 7", "", 7), ("pass", "", 0)], seed=0)
    assert sorted(t["action"]) == ["bid 6", "pass"]
    assert t["p_best"].sum() == pytest.approx(1.0)
    every = m.p_best([0, 1, 2], seed=0)
    assert t.set_index("action").loc["pass", "p_best"] == pytest.approx(every[1] + every[2])


def test_rooks_p_make_counts_the_hands_that_score_exactly_the_bid():
    """Rook's points and bids both step by 5, so "exactly the bid" is common: ``>=`` made
    ``>`` passed (Pedro's was pinned, Rook's not)."""
    from analyzer import evaluate_hand

    ev = evaluate_hand("rook", "AS KS QS JS 9S 5S JK AH KH 5D 2D 3C 4C", seat="dealer",
                       deals=500, seed=2)
    dist = ev.distribution.set_index("trump")
    for trump in ("spades", "clubs"):
        shares = dist.loc[trump]
        pts = np.array([int(c) for c in shares.index])
        for bid in (70, 120, 150, 175):
            want = float(shares.to_numpy()[pts >= bid].sum())
            row = ev.bids[(ev.bids["trump"] == trump) & (ev.bids["bid"] == bid)].iloc[0]
            assert row["p_make"] == pytest.approx(want, abs=1e-12), (trump, bid)


# ---- King's trump-right advice at whole-number bounds --------------------------------------


def _e(mean, lo, hi, n=900):
    return Estimate(mean, (hi - lo) / (2 * Z95), lo, hi, n)


def test_an_offer_of_one_is_refused_where_one_and_the_other_tricks_only_reach_four():
    from analyzer.games.king.evaluate import trump_right_advice

    a = trump_right_advice(_e(0.2, 0.18, 0.22), _e(2.2, 2.18, 2.22), _e(3.1, 3.0, 3.2))
    assert a["accept_offers_above"] == 1  # 1 + 3.0 ties the decline's 4
    a = trump_right_advice(_e(0.2, 0.18, 0.22), _e(2.2, 2.18, 2.22), _e(3.2, 3.01, 3.39))
    assert a["accept_offers_above"] == 0


def test_play_only_where_naming_trump_takes_more_than_four_beyond_the_noise():
    from analyzer.games.king.evaluate import trump_right_advice

    value, other = _e(1.6, 1.5, 1.7), _e(3.5, 3.3, 3.7)
    assert trump_right_advice(value, _e(4.3, 3.9, 4.7), other)["decline"] == "either"
    assert trump_right_advice(value, _e(4.3, 4.1, 4.5), other)["decline"] == "play"
    assert trump_right_advice(value, _e(3.7, 3.3, 4.1), other)["decline"] == "either"


def test_thirty_hands_are_enough_for_trump_right_advice_and_twenty_nine_are_not():
    from analyzer.games.king.evaluate import trump_right_advice

    own, other = _e(5.1, 4.9, 5.3, 30), _e(3.5, 3.3, 3.7, 30)
    a = trump_right_advice(_e(1.6, 1.5, 1.7, 30), own, other)
    assert (a["offer_up_to"], a["accept_offers_above"], a["decline"]) == (1, 1, "play")
    a = trump_right_advice(_e(1.6, 1.5, 1.7, 29), own, other)
    assert (a["offer_up_to"], a["accept_offers_above"], a["decline"]) == (None, None, None)


def test_an_offer_stops_below_a_lower_bound_that_is_a_whole_number():
    from analyzer.games.king.evaluate import trump_right_advice

    a = trump_right_advice(_e(2.5, 2.0, 3.0), _e(5.1, 4.9, 5.3), _e(3.5, 3.3, 3.7))
    assert a["offer_up_to"] == 1  # above 1 trick beyond the noise, not above 2


# ---- the two-level estimate's interval and plan --------------------------------------------


def test_the_two_level_interval_takes_t_on_the_searched_deals():
    """5 searched deals of 1,000: t on 4 degrees of freedom (2.78), not on 999 (1.96), which
    made the interval 30% too narrow."""
    from analyzer.student import t_multiplier
    from analyzer.twolevel import two_level

    rng = np.random.default_rng(0)
    h = rng.integers(0, 15, 1000)
    s = h[:5] + np.array([1, 0, 2, 1, 0])
    t = two_level(h, s)
    assert t.half_width == pytest.approx(t_multiplier(Z95, 4) * t.se, rel=1e-9)


def test_a_two_level_plan_never_searches_more_deals_than_it_plays_cheaply():
    """The searched deals are the first n of the N cheap ones: a cheap policy that explains
    little and costs as much as the search planned N = 909 and n = 9,090."""
    from analyzer.twolevel import best_split

    s = best_split(1.0, 100.0, 0.0, 1e-3, 1e-3, 10.0)
    assert s.n_paired <= s.n_base
