"""Two-level hand evaluations (issue 36): `hand --policy P --base CHEAP`. The EVs that rank
and decide are the cheap policy's means over N deals plus the searching policy's mean
correction over the first n of them (analyzer.twolevel.TwoLevelMoments).

The statistics are checked with a cheap "searching" policy (random play) so that the
truth can be had precisely: the estimator does not care which policy is the dear one.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest
from cli_helpers import assert_bad_input, run

from analyzer import evaluate_hand
from analyzer.twolevel import ESTIMATOR, MIN_FITTED

HAND = "AS KS 5S 5C 2S 9H 3D JC 7H"


ROOK_HAND = "AS KS QS JS 9S 5S JK AH KH 5D 2D 3C 4C"
KING_HAND = "AH KH QH JH 2C 3C 4C 5D 6D 7D 8S 9S TS"


@pytest.mark.parametrize("game, hand", [("pedro", HAND), ("rook", ROOK_HAND)])
def test_with_n_equal_to_n_base_it_is_the_plain_evaluation(game, hand):
    """When the searching policy plays every deal, mean_N(h) + mean_n(s - h) is mean(s) and
    the interval is the plain one: the same ranking, EVs and advice."""
    plain = evaluate_hand(game, hand, deals=600, seed=3, policy="random")
    two = evaluate_hand(game, hand, deals=600, seed=3, policy="random", base="heuristic",
                        base_deals=600)
    assert two.estimator.startswith("two-level") and plain.estimator == "plain"
    assert list(two.actions["action"]) == list(plain.actions["action"])
    for col in ("ev", "ev_se", "gain", "p_best"):
        np.testing.assert_allclose(two.actions[col], plain.actions[col], rtol=1e-9, atol=1e-9)
    table = "bids" if game == "pedro" else "ceilings"
    column = "ev1_net" if game == "pedro" else "ev_net"
    np.testing.assert_allclose(getattr(two, table)[column], getattr(plain, table)[column],
                               rtol=1e-9)
    assert two.recommended == plain.recommended
    # the cheap mean is the heuristic's own EV over the same deals, and with the
    # correction it makes the estimate
    cheap = evaluate_hand(game, hand, deals=600, seed=3, policy="heuristic").actions
    compared = 0
    for _, row in two.actions.iterrows():
        assert math.isclose(row["base"] + row["correction"], row["ev"], abs_tol=1e-9)
        same = cheap[cheap["action"] == row["action"]]
        if len(same):  # the cheap run ranks its own leaders
            assert math.isclose(row["base"], same["ev"].iloc[0], abs_tol=1e-9)
            compared += 1
    assert compared >= 1  # the check above ran


def interval(ev, action) -> tuple[float, float, float]:
    """EV (method 1, net) of ``action`` (a row of ``ev.actions``) with its 95% interval, from
    the bids table, or the pass's."""
    if action["action"] == "pass":
        row = ev.pass_ev.iloc[0]
    else:
        row = ev.bids[(ev.bids["trump"] == action["trump"])
                      & (ev.bids["bid"] == action["bid"])].iloc[0]
    return row["ev1_net"], row["ev1_net_lo"], row["ev1_net_hi"]


def test_the_interval_covers_the_truth_about_95_percent_of_the_time():
    """200 seeds of a small two-level evaluation (n = MIN_FITTED random-play deals, the
    fewest that fit the slope, N = 4,000 heuristic ones) against the EV of random play
    measured on 200,000 deals: coverage of EV(pass) and of the best bid within three
    binomial standard errors of 95%."""
    truth = evaluate_hand("pedro", HAND, deals=200_000, seed=10_000, policy="random")
    assert max(truth.actions["ev_se"]) < 0.05  # ten times sharper than one repetition
    watched = [truth.actions.iloc[0], truth.actions[truth.actions["action"] == "pass"].iloc[0]]
    assert watched[0]["action"] != "pass"
    hits = [[], []]
    for seed in range(200):
        ev = evaluate_hand("pedro", HAND, deals=MIN_FITTED, seed=seed, policy="random",
                           base="heuristic", base_deals=4_000)
        for k, action in enumerate(watched):
            _, lo, hi = interval(ev, action)
            hits[k].append(lo <= action["ev"] <= hi)
    for action, got in zip(watched, hits, strict=True):
        rate = np.mean(got)
        se = math.sqrt(0.95 * 0.05 / len(got))
        assert abs(rate - 0.95) <= 3 * se, (action["action"], rate)


def test_the_json_and_the_table_say_which_estimator_made_each_number():
    r = run("hand", "pedro", HAND, "--policy", "random", "--base", "heuristic", "--deals", "200",
            "--base-deals", "5000", "--json")
    assert r.exit_code == 0, r.stderr
    doc = json.loads(r.stdout)
    prov = doc["provenance"]
    assert prov["estimator"] == ESTIMATOR
    assert (prov["base_policy"], prov["n_base"], prov["n"]) == ("heuristic", 5000, 200)
    top = doc["actions"][0]
    assert {"base", "correction", "correction_lo", "correction_hi", "n_paired"} <= set(top)
    assert top["n"] == 5000 and top["n_paired"] == 200
    assert math.isclose(top["base"] + top["correction"], top["ev"], abs_tol=1e-9)
    text = run("hand", "pedro", HAND, "--policy", "random", "--base", "heuristic", "--deals",
               "200", "--base-deals", "5000")
    assert "estimator: two-level" in text.stdout and "correction (n)" in text.stdout
    plain = json.loads(run("hand", "pedro", HAND, "--deals", "200", "--json").stdout)
    assert plain["provenance"]["estimator"] == "plain"


@pytest.mark.parametrize("game, hand, extra", [
    ("pedro", HAND, []),
    ("king", KING_HAND, ["--contract", "no-hearts"]),
])
def test_a_clairvoyant_two_level_estimate_says_what_it_bounds(game, hand, extra):
    """An upper bound in Pedro, where dd solves the whole play; King's dd solves the last 6
    tricks after the heuristic's first 7, and was called an upper bound all the same."""
    args = ("hand", game, hand, *extra, "--policy", "dd", "--base", "heuristic", "--deals", "8",
            "--base-deals", "200")
    prov = json.loads(run(*args, "--json").stdout)["provenance"]
    assert prov["estimator"] == ESTIMATOR
    assert prov["bound"].startswith("upper: dd is clairvoyant" if game == "pedro" else
                                    "none: dd sees every hand but solves the last 6 tricks")
    text = run(*args).stdout
    assert "dd = clairvoyant: sees every hand" in text.splitlines()[0]
    plain = json.loads(run("hand", game, hand, *extra, "--deals", "20", "--json").stdout)
    assert "bound" not in plain["provenance"]


def test_a_budget_splits_the_time_and_says_so():
    r = run("hand", "pedro", HAND, "--policy", "random", "--base", "heuristic", "--budget", "3",
            "--json")
    assert r.exit_code == 0, r.stderr
    prov = json.loads(r.stdout)["provenance"]
    assert prov["stopped_by"] == "budget"
    assert 50 <= prov["n"] <= prov["n_base"]
    # the sizes it chose, given by hand, replay it
    sized = run("hand", "pedro", HAND, "--policy", "random", "--base", "heuristic", "--deals",
                str(prov["n"]), "--base-deals", str(prov["n_base"]), "--json")
    assert json.loads(sized.stdout)["actions"] == json.loads(r.stdout)["actions"]


@pytest.mark.parametrize("args, expected", [
    (["hand", "rook", ROOK_HAND, "--base", "heuristic"], "cheaper one"),
    (["hand", "pedro", HAND, "--budget", "10"], "--base"),
    (["hand", "pedro", HAND, "--base-deals", "10"], "--base"),
    (["hand", "pedro", HAND, "--base", "heuristic"], "cheaper one"),
    (["hand", "pedro", HAND, "--base", "nonsense"], "--base"),
    # a base that searches more than the policy would spend N deals' search for nothing
    (["hand", "pedro", HAND, "--base", "dd"], "base policy dd searches more than the "
                                              "policy heuristic"),
    (["hand", "pedro", HAND, "--policy", "pimc:5", "--base", "pimc:20"],
     "base policy pimc:20 searches more than the policy pimc:5"),
    (["hand", "pedro", HAND, "--policy", "random", "--base", "heuristic", "--target-ci", "1"],
     "--target-ci"),
    (["hand", "pedro", HAND, "--policy", "random", "--base", "heuristic", "--budget", "5",
      "--deals", "100"], "--deals"),
    # more searched deals than cheap ones: refused as compare and bid-chart refuse it
    (["hand", "pedro", HAND, "--policy", "random", "--base", "heuristic", "--deals", "30",
      "--base-deals", "20"], "need 2 <= --deals (n) <= --base-deals (N)"),
])
def test_bad_two_level_requests_get_one_line(args, expected):
    assert_bad_input(run(*args), expected)


def test_the_two_level_variance_matches_the_spread_over_seeds():
    """The reported standard error is the spread of the estimate over independent seeds (to
    within the sampling error of a variance from 60 reps)."""
    est, se = [], []
    for seed in range(60):
        ev = evaluate_hand("pedro", HAND, deals=100, seed=500 + seed, policy="random",
                           base="heuristic", base_deals=3_000)
        est.append(ev.pass_ev["ev1_net"].iloc[0])
        se.append(ev.pass_ev["ev1_net_se"].iloc[0])
    ratio = np.std(est, ddof=1) / np.mean(se)
    assert abs(ratio - 1) < 3 / math.sqrt(2 * 59), ratio  # sd of a sd's ratio ~ 1/sqrt(2(k-1))




def test_king_with_n_equal_to_n_base_is_the_plain_evaluation():
    """King's means (each negative contract's penalty, the positive hand's tricks by choice)
    and the trump right's value: with every deal paired, the plain ones."""
    plain = evaluate_hand("king", KING_HAND, deals=300, seed=4, policy="random")
    two = evaluate_hand("king", KING_HAND, deals=300, seed=4, policy="random",
                        base="heuristic", base_deals=300)
    assert two.provenance["estimator"].startswith("two-level")
    assert plain.provenance["estimator"] == "plain"
    for table, col in (("negative", "points"), ("positive", "tricks")):
        for suffix in ("", "_se", "_lo", "_hi"):
            np.testing.assert_allclose(getattr(two, table)[col + suffix],
                                       getattr(plain, table)[col + suffix], rtol=1e-9)
    assert math.isclose(two.trump_right["value"], plain.trump_right["value"], abs_tol=1e-9)
    pd.testing.assert_frame_equal(two.distribution, plain.distribution)


def test_king_two_level_moves_the_means_toward_the_cheap_sample():
    """With N > n the means are the searching player's over n, moved by beta times the
    heuristic's stray over those deals from its mean over N: a King no-hearts penalty
    estimate differs from the plain one on n deals, it is the cheap mean over N plus a
    correction, its interval is from both parts, and the text says so."""
    two = evaluate_hand("king", KING_HAND, contract="no-hearts", deals=200, seed=4,
                        policy="random", base="heuristic", base_deals=4000)
    cheap = evaluate_hand("king", KING_HAND, contract="no-hearts", deals=4000, seed=4)
    search = evaluate_hand("king", KING_HAND, contract="no-hearts", deals=200, seed=4,
                           policy="random")
    cheap_head = evaluate_hand("king", KING_HAND, contract="no-hearts", deals=200, seed=4)
    row = two.negative.iloc[0]
    assert 0 < row["beta"] < 2 and row["beta"] != 1  # fitted on the n = 200 paired deals
    stray = cheap_head.negative["points"].iloc[0] - cheap.negative["points"].iloc[0]
    want = search.negative["points"].iloc[0] - row["beta"] * stray
    assert math.isclose(row["points"], want, rel_tol=1e-9)
    # the table shows both parts: the cheap mean over N and the correction
    assert math.isclose(row["base"], cheap.negative["points"].iloc[0], rel_tol=1e-9)
    assert math.isclose(row["base"] + row["correction"], row["points"], rel_tol=1e-9)
    assert row["correction_lo"] < row["correction"] < row["correction_hi"]
    assert row["n_paired"] == 200 and -1 <= row["rho"] <= 1
    r = run("hand", "king", KING_HAND, "--contract", "no-hearts", "--policy", "random",
            "--base", "heuristic", "--deals", "200", "--base-deals", "4000")
    assert r.exit_code == 0, r.stderr
    assert "estimator: two-level" in r.stdout and "N = 4,000" in r.stdout
    assert "heuristic (N)" in r.stdout and "correction (n)" in r.stdout
    plain = run("hand", "king", KING_HAND, "--contract", "no-hearts", "--deals", "200")
    assert "correction (n)" not in plain.stdout


def _frames(result) -> dict[str, pd.DataFrame]:
    return {name: v for name, v in vars(result).items() if isinstance(v, pd.DataFrame)}


@pytest.mark.parametrize("game, hand, extra", [
    ("pedro", HAND, {}),
    ("rook", ROOK_HAND, {}),
    ("king", KING_HAND, {"contract": "no-hearts"}),
])
def test_every_table_of_an_evaluation_says_its_estimator_in_its_attrs(game, hand, extra):
    two = evaluate_hand(game, hand, deals=30, seed=2, policy="random", base="heuristic",
                        base_deals=600, **extra)
    tables = _frames(two)
    assert len(tables) >= 3
    for name, df in tables.items():
        assert df.attrs["estimator"] == ESTIMATOR, name
        assert (df.attrs["n"], df.attrs["n_base"], df.attrs["base_policy"]) == (
            30, 600, "heuristic"), name
        assert (df.attrs["seed"], df.attrs["policy"], df.attrs["rules"]) == (
            2, two.policy, two.rules), name
    plain = evaluate_hand(game, hand, deals=30, seed=2, **extra)
    assert {df.attrs["estimator"] for df in _frames(plain).values()} == {"plain"}


def test_a_chart_and_a_comparison_say_their_estimator_in_their_tables_attrs():
    from analyzer.bidchart import bid_chart
    from analyzer.compare import compare_variants

    chart = bid_chart("pedro", deals=20, base_deals=2000, seed=3, policy="dd",
                      by=("trumps", "seat"), base="heuristic")
    for name in ("table", "classes", "guide", "violations"):
        attrs = getattr(chart, name).attrs
        assert (attrs["estimator"], attrs["n_base"], attrs["n_search"]) == (
            ESTIMATOR, 2000, 20), name
    assert "pairs" in chart.violations.attrs  # its own attrs are kept
    c = compare_variants("pedro", "pedro(low_to=holder)", 20, 3, "dd", base="heuristic",
                         base_deals=2000)
    assert (c.table.attrs["estimator"], c.table.attrs["n_base"], c.table.attrs["deals"]) \
        == (ESTIMATOR, 2000, 20)


@pytest.mark.parametrize("call", ["pedro", "rook", "king", "chart", "compare"])
@pytest.mark.parametrize("base, budget, expected", [
    (None, 5.0, "give a base policy too"),
    ("heuristic", 0.0, "seconds above 0; got 0.0"),
    ("heuristic", float("nan"), "seconds above 0; got nan"),
])
def test_a_budget_no_two_level_run_would_use_is_refused(call, base, budget, expected):
    """The library, like the command line, says so rather than ignore the budget."""
    from analyzer.bidchart import bid_chart
    from analyzer.compare import compare_variants
    from analyzer.twolevel import TwoLevelError

    two = {"base": base, "budget": budget}
    calls = {"pedro": lambda: evaluate_hand("pedro", HAND, deals=10, policy="dd", **two),
             "rook": lambda: evaluate_hand("rook", ROOK_HAND, deals=10, policy="dd", **two),
             "king": lambda: evaluate_hand("king", KING_HAND, deals=10, policy="dd", **two),
             "chart": lambda: bid_chart("pedro", deals=10, policy="dd", **two),
             "compare": lambda: compare_variants("pedro", "pedro(low_to=holder)", 10, 3, "dd",
                                                 **two)}
    with pytest.raises(TwoLevelError, match=expected):
        calls[call]()


@pytest.mark.parametrize("game, hand", [("pedro", HAND), ("rook", ROOK_HAND)])
def test_a_budgeted_evaluation_reports_the_paired_deals_it_played(game, hand, monkeypatch):
    """Where the split wants fewer searched deals than its pilot already played (made so
    here: the split is told to want 2), the evaluation's n is the deals the searching
    policy played, which its table's n_paired counts, not the split's plan."""
    import dataclasses

    from analyzer import rollout

    split = rollout.best_split
    monkeypatch.setattr(rollout, "best_split",
                        lambda *a: dataclasses.replace(split(*a), n_paired=2))
    ev = evaluate_hand(game, hand, policy="random", base="heuristic", budget=0.2, seed=2)
    assert ev.stopped_by == "budget"
    assert (ev.actions["n_paired"] == ev.n).all(), (ev.n, ev.actions["n_paired"])
    assert ev.provenance["n"] == ev.n > 2 and ev.n <= ev.n_base


@pytest.mark.parametrize("game, hand", [("pedro", HAND), ("rook", ROOK_HAND)])
@pytest.mark.parametrize("rule, name", [({"until_decided": True}, "--until-decided"),
                                        ({"target_ci": 1.0}, "--target-ci"),
                                        ({"time_budget": 1.0}, "--time-budget")])
def test_the_library_refuses_a_stop_rule_with_a_base_policy(game, hand, rule, name):
    """A two-level evaluation plays its N and n (or splits a budget): a stop rule does not
    combine with it, and the library says so, as the command line does, rather than run
    without the rule."""
    from analyzer.rollout import HandError

    with pytest.raises(HandError, match=f"a two-level evaluation .*{name}"):
        evaluate_hand(game, hand, policy="random", base="heuristic", seed=2, **rule)


def test_king_s_trump_right_advice_counts_the_searched_hands_not_the_cheap_ones():
    """A two-level trump right's value stands on n = 20 searched hands (4,000 cheap): too
    few for advice (advice.MIN_TRIALS), which it gave, counting N (and said "4,000 deals
    are too few" where it gave none); on 40 it advises."""
    for deals, advised in ((20, False), (40, True)):
        ev = evaluate_hand("king", KING_HAND, contract="positive", deals=deals, seed=4,
                           policy="random", base="heuristic", base_deals=4000)
        right = ev.trump_right
        assert right["n"] == deals  # as the tables count: the searched hands
        assert (right["offer_up_to"] is not None) is advised
        assert (right["decline"] is not None) is advised
