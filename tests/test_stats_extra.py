"""P(best), batch means, and whether the 95% intervals cover 95% of the time.

The coverage tests repeat a small experiment with many seeds on a quantity known
exactly and accept a coverage between 93% and 97%. With R repetitions the
binomial spread of the coverage is sqrt(0.95 * 0.05 / R): 0.5% for R = 2000,
1.1% for R = 400, so the band is about 4 and 1.8 standard deviations wide.
"""

import math

import numpy as np
import pytest

from analyzer.cards import CardSet, parse_card
from analyzer.games import pedro
from analyzer.stats import mean_ci, p_best, wilson

# ---- p_best --------------------------------------------------------------------------------


def test_p_best_far_ahead_is_certain():
    rng = np.random.default_rng(1)
    v = rng.normal(0, 1, size=(500, 3))
    v[:, 1] += 5
    pb = p_best(v)
    assert pb[1] > 0.999
    assert math.isclose(pb.sum(), 1.0)


def test_p_best_identical_columns_split_evenly():
    x = np.random.default_rng(2).normal(0, 1, size=(2000, 1))
    assert p_best(np.hstack([x, x])).tolist() == [0.5, 0.5]
    assert p_best(np.hstack([x - 1, x, x])).tolist() == [0.0, 0.5, 0.5]


def test_p_best_shares_only_between_truly_identical_columns():
    x = np.random.default_rng(9).normal(0, 1, size=(1000, 1))
    shuffled = x[::-1]  # the same sum, other trials: a different alternative
    pb = p_best(np.hstack([x, shuffled, x + 1, x]))
    assert pb[1] == 0.0 and pb[2] == 1.0 and pb[0] == pb[3] == 0.0
    pb = p_best(np.hstack([x + 1, shuffled, x, x + 1]))
    assert pb[0] == pb[3] == 0.5


def test_p_best_equal_means_independent_noise_split_evenly():
    noise = np.random.default_rng(3).normal(0, 1, size=(2000, 2))
    noise -= noise.mean(axis=0)  # exactly equal sample means
    draws = 40_000
    pb = p_best(noise, draws=draws, seed=4)
    se = math.sqrt(0.25 / draws)
    assert abs(pb[0] - 0.5) < 3 * se and math.isclose(pb.sum(), 1.0)


def test_p_best_of_one_column_is_certain_and_of_one_trial_unknown():
    assert np.isnan(p_best([[1.0, 3.0, 2.0]])).all()  # no spread to tell them apart by
    assert p_best(np.arange(10.0).reshape(10, 1)).tolist() == [1.0]


def test_p_best_is_reproducible_by_seed():
    v = np.random.default_rng(5).normal(0, 1, size=(300, 4))
    assert np.array_equal(p_best(v, seed=7), p_best(v, seed=7))


@pytest.mark.parametrize("bad", [np.zeros(5), np.zeros((5, 0)), np.zeros((0, 3)),
                                 np.zeros((2, 2, 2))])
def test_p_best_bad_shapes_raise(bad):
    with pytest.raises(ValueError):
        p_best(bad)


# ---- coverage of the 95% intervals ---------------------------------------------------------


def covers(est, truth: float) -> bool:
    return est.lo <= truth <= est.hi


def assert_coverage(hits: list[bool]) -> None:
    """Coverage of a 95% interval within 3 binomial standard errors of 0.95 (a fixed band
    would be 1.8 of them at 400 repetitions, 4 at 2,000)."""
    rate = sum(hits) / len(hits)
    band = 3 * math.sqrt(0.95 * 0.05 / len(hits))
    assert abs(rate - 0.95) <= band, f"coverage {rate:.3f} over {len(hits)} repetitions"


def test_mean_ci_covers_the_mean_of_uniform_draws():
    hits = [covers(mean_ci(np.random.default_rng(1000 + r).uniform(0, 1, 200)), 0.5)
            for r in range(2000)]
    assert_coverage(hits)


def test_mean_ci_covers_the_mean_of_bernoulli_draws():
    hits = [covers(mean_ci(np.random.default_rng(5000 + r).random(400) < 0.3), 0.3)
            for r in range(2000)]
    assert_coverage(hits)


def test_wilson_covers_a_proportion():
    hits = []
    for r in range(2000):
        k = int((np.random.default_rng(9000 + r).random(300) < 0.2).sum())
        hits.append(covers(wilson(k, 300), 0.2))
    assert_coverage(hits)


def test_wilson_covers_the_chance_partner_holds_a_card():
    """P(the fixed seat's partner holds a given card) = 9/43 exactly, from the simulator."""
    mask = CardSet("AS KS 5S 5C 2S 9H 3D JC 7H").mask
    card = np.uint64(parse_card("AH"))
    rules, pols = pedro.parse_rules("pedro"), pedro.parse_policies("random")
    scenario = pedro.Scenario(hand=mask, seat=1, force="maker", trump=3)
    n, hits = 2000, []
    for r in range(400):
        _, hands = pedro.run_batch(rules, 0, n, 100 + r, pols, scenario=scenario)
        partner = (np.arange(n) % 4 + 1 + 2) % 4
        k = int(((hands[np.arange(n), partner] >> card) & np.uint64(1)).sum())
        hits.append(covers(wilson(k, n), 9 / 43))
    assert_coverage(hits)


def test_p_best_is_unknown_from_one_trial_and_shared_among_every_alternative():
    """One deal said 100% for whichever read higher; the ranking's P(best) was taken among
    the four shown, so eleven equal bids gave the first shown 51%."""
    from analyzer.rollout import rank_alternatives
    from analyzer.stats import PairedMoments

    assert np.isnan(p_best([[0.0, 1.0, 5.0]])).all()
    assert np.isnan(PairedMoments.of([[0.0, 1.0, 5.0]]).p_best([0, 1, 2])).all()
    rng = np.random.default_rng(7)
    bids = rng.normal(1.0, 3.0, (2000, 11))
    moments = PairedMoments.of(np.c_[bids, np.full(2000, -5.0) + rng.normal(0, 1, 2000)])
    labels = [(f"bid {b}", "", b) for b in range(1, 12)] + [("pass", "", 0)]
    shown = rank_alternatives(moments, labels, seed=1)
    assert len(shown) == 4 and shown["p_best"].sum() < 0.9, shown["p_best"].tolist()


def test_a_row_s_p_best_holds_every_alternative_alike_on_every_deal():
    """The dealer's pass read 5.5% beside 13 bids never made (the pass again on every deal,
    not shown): its P(best) was split 13 ways. A row holds its whole group's, and a bid
    alike on every deal with a shown one (bid up to 12 and 13) is not shown again."""
    from analyzer.rollout import rank_alternatives
    from analyzer.stats import PairedMoments

    rng = np.random.default_rng(5)
    passing = rng.normal(0.0, 3.0, 400)
    bid = passing + rng.normal(0.02, 1.0, 400)  # about as good: P(best) near a half each
    moments = PairedMoments.of(np.c_[bid, bid, passing, passing, passing])
    labels = [("bid 7", "", 7)] + [(f"bid {b}", "", b) for b in (8, 9, 10)] + [("pass", "", 0)]
    shown = rank_alternatives(moments, labels, seed=1).set_index("action")["p_best"]
    assert sorted(shown.index) == ["bid 7", "pass"]  # their twins are not shown
    assert shown.sum() == pytest.approx(1.0)
    assert 0.1 < shown["pass"] < 0.9


def test_exact_moments_of_large_integers_and_no_nan_through_columns():
    from analyzer.moments import Moments
    from analyzer.stats import ColumnMoments, PairedMoments

    m = Moments.of(np.array([3_000_000_000, 5_000_000_000], dtype=np.int64))
    assert (m.total, m.squares) == (8 * 10**9, 34 * 10**18)
    assert Moments.of(np.array([2**63], dtype=np.uint64)).total == 2**63
    with pytest.raises(ValueError, match="finite"):
        PairedMoments(2).add_columns([[1.0, math.nan], [0.0, 0.0]])
    with pytest.raises(ValueError, match="finite"):
        ColumnMoments(2).add_columns([[1.0, math.inf], [0.0, 0.0]])
