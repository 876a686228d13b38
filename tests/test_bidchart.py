"""Bid charts: every seat-hand counted, features against a plain reading of the cards,
the chart's arithmetic against the seat outcomes, the decision rule, and the monotonicity
check (which must be able to fail)."""

import re
from statistics import NormalDist

import numpy as np
import pandas as pd
import pytest

from analyzer.bidchart import SeatChartAccumulator, bid_chart
from analyzer.bidchart_view import render_bid_chart
from analyzer.cards import cards_of, rank_of, suit_of
from analyzer.chart_features import ChartError
from analyzer.games import pedro
from analyzer.games.pedro import outcomes
from analyzer.games.pedro.chart import pedro_codes
from analyzer.stats import Z95
from analyzer.student import t_multiplier
from analyzer.twolevel import ESTIMATOR, TwoLevelError

RULES = pedro.parse_rules("pedro")
HEURISTIC = pedro.parse_policies("heuristic")


def plain_features(hand_mask: int, trump: int, offset: int) -> dict:
    """The Pedro features read card by card, the slow obvious way (bin codes)."""
    partner = {0: 3, 3: 0, 1: 2, 2: 1}[trump]
    cards = [(rank_of(c), suit_of(c)) for c in cards_of(hand_mask)]
    trumps = [r for r, s in cards if s == trump]
    left = (5, partner) in cards
    n = len(trumps) + left
    f = {name: int(r in trumps) for name, r in
         (("two", 2), ("right", 5), ("ten", 10), ("jack", 11), ("queen", 12), ("king", 13),
          ("ace", 14))}
    f["left"] = int(left)
    f["trumps"] = 0 if n <= 2 else 4 if n >= 6 else n - 2
    f["pedros"] = f["right"] + f["left"]
    f["counters"] = f["pedros"] + f["ace"] + f["jack"] + f["ten"] + f["two"]
    f["seat"], f["dealer"] = offset, int(offset == 0)
    return f


@pytest.fixture(scope="module")
def seat_batch():
    return outcomes.pedro_seat_batch(RULES, 3, HEURISTIC, 0, 20_000)


def test_pedro_features_match_a_card_by_card_reading(seat_batch):
    hands, trumps, _, _ = seat_batch
    flat_h, flat_t = hands.ravel(), trumps.ravel()
    offsets = np.tile(np.arange(4), len(hands))
    codes = pedro_codes(flat_h, flat_t, offsets)
    for i in range(0, len(flat_h), 97):
        want = plain_features(int(flat_h[i]), int(flat_t[i]), int(offsets[i]))
        for k, v in want.items():
            assert codes[k][i] == v, (i, k)


@pytest.mark.parametrize("game", [
    "pedro", "cinch", "pedro(scoring=2,m2_diff_to=bidder_only)",
    "pedro(excess_trumps=keep_all_dump_on_trick1)", "cinch(all_pass=dealer_forced_min_bid)",
])
def test_each_outcome_played_once_equals_every_action_played_in_full(game):
    rules = pedro.parse_rules(game)
    shared = outcomes.pedro_seat_batch(rules, 5, HEURISTIC, 100, 1_000, share=True)
    full = outcomes.pedro_seat_batch(rules, 5, HEURISTIC, 100, 1_000, share=False)
    for a, b in zip(shared, full, strict=True):
        assert np.array_equal(a, b)


def test_seat_values_are_the_seats_settlement(seat_batch):
    """Passing is the natural auction: its value for seat o is what ``simulate`` settles."""
    _, _, sole, values = seat_batch
    df = pedro.simulate(RULES, 20_000, seed=3)
    for o in range(4):
        team = (df["dealer"].to_numpy().astype(int) + o) & 1
        s0, s1 = df["score1_team0"].to_numpy().astype(int), df["score1_team1"].to_numpy()
        natural = np.where(team == 0, s0 - s1, s1 - s0)
        # the pass changes the auction only where the seat would have bid
        would_bid = df[[f"bid_seat{s}" for s in range(4)]].to_numpy()[
            np.arange(len(df)), (df["dealer"].to_numpy() + o) % 4] > 0
        assert np.array_equal(values[~would_bid, o, 0], natural[~would_bid])
    assert ((sole >= 0) & (sole <= 14)).all()


def test_every_seat_hand_counts_and_the_sums_match_the_outcomes(seat_batch):
    hands, trumps, sole, values = seat_batch
    acc = SeatChartAccumulator(RULES, ("trumps", "ace", "seat"))
    n = len(hands)
    codes = pedro_codes(hands.ravel(), trumps.ravel(), np.tile(np.arange(4), n))
    acc.add(codes, sole.ravel(), values.reshape(4 * n, -1))
    acc.n_deals = n
    chart = acc.chart({"rules": "pedro", "seed": 3, "policy": "heuristic"})
    assert chart.classes["n"].sum() == 4 * n == chart.provenance["n"]
    flat = values.reshape(4 * n, -1)
    for _, row in chart.table.sample(12, random_state=1).iterrows():
        sel = ((codes["trumps"] == ["<=2", "3", "4", "5", "6+"].index(row["trumps"]))
               & (codes["ace"] == int(row["ace"]))
               & (codes["seat"] == ["dealer", "eldest", "second", "third"].index(row["seat"])))
        k = 0 if row["action"] == "pass" else row["bid"] - RULES.min_bid + 1
        assert row["n"] == sel.sum()
        assert row["ev"] == pytest.approx(flat[sel, k].mean())
        if k:
            d = flat[sel, k] - flat[sel, 0]
            assert row["gain"] == pytest.approx(d.mean())
            assert row["gain_hi"] - row["gain"] == pytest.approx(  # Student's t
                t_multiplier(Z95, len(d) - 1) * d.std(ddof=1) / np.sqrt(len(d)))
            assert row["p_make"] == pytest.approx((sole.ravel()[sel] >= row["bid"]).mean())


def test_a_gain_no_hand_showed_gets_the_interval_the_scores_allow(seat_batch):
    """Bidding 1 or passing often settle alike on every hand of a small class: its gain is
    not known to be 0, only to be within 4 x 14 points on the few hands a class of n may
    hide (Wilson at 0 of n), where the interval had been 0 ± 0."""
    hands, trumps, sole, values = seat_batch
    acc = SeatChartAccumulator(RULES, ("trumps", "ace", "seat"))
    n = 1_500
    codes = pedro_codes(hands[:n].ravel(), trumps[:n].ravel(), np.tile(np.arange(4), n))
    acc.add(codes, sole[:n].ravel(), values[:n].reshape(4 * n, -1))
    acc.n_deals = n
    table = acc.chart({"rules": "pedro", "seed": 3, "policy": "heuristic"}).table
    flat = values[:n].reshape(4 * n, -1)
    unseen = 0
    for _, row in table[table["action"] != "pass"].iterrows():
        sel = ((codes["trumps"] == ["<=2", "3", "4", "5", "6+"].index(row["trumps"]))
               & (codes["ace"] == int(row["ace"]))
               & (codes["seat"] == ["dealer", "eldest", "second", "third"].index(row["seat"])))
        k = row["bid"] - RULES.min_bid + 1
        if np.all(flat[sel, k] == flat[sel, 0]):
            unseen += 1
            bound = 56 * Z95 ** 2 / (sel.sum() + Z95 ** 2)
            assert row["gain"] == 0 and row["gain_hi"] == pytest.approx(bound)
            assert row["gain_lo"] == pytest.approx(-bound)
        else:
            assert row["gain_lo"] < row["gain_hi"]
    assert unseen > 0, "the check needs a class where no hand showed a gain"


def test_recommendations_follow_the_decision_rule():
    """Beyond the noise of the whole ladder: 14 bids compared, so z = 2.91 (Bonferroni)."""
    chart = bid_chart("pedro", deals=20_000, seed=2)
    z = NormalDist().inv_cdf(1 - 0.025 / 14)
    for c in chart.classes.itertuples():
        rows = chart.table[chart.table["label"] == c.label].set_index("action")
        lower = rows["gain"] - z * rows["gain_se"]
        if c.recommended == "pass":
            assert np.isnan(c.rec_gain)
        else:
            assert lower[c.recommended] > 0  # beats passing beyond the noise
        beats = rows[lower > 0]["bid"]
        assert c.beats_passing_to == (beats.max() if len(beats) else 0)
        assert rows["recommended"].sum() == 1 and rows.loc[c.recommended, "recommended"]


def test_the_chart_does_not_depend_on_the_batch_size():
    a = bid_chart("cinch", deals=3_000, seed=9, by=("trumps", "seat"))
    b = bid_chart("cinch", deals=3_000, seed=9, by=("trumps", "seat"), batch=700)
    pd.testing.assert_frame_equal(a.table, b.table)
    pd.testing.assert_frame_equal(a.classes, b.classes)


@pytest.fixture(scope="module")
def big_chart():
    return bid_chart("pedro", deals=150_000, seed=11)


def test_more_strength_never_lowers_the_recommended_bid_beyond_the_noise(big_chart):
    """The property the guide rests on, on a chart of 150,000 deals (600,000 hands): a
    card added to the suit (one more trump, a Pedro, the ace) never lowers the
    recommended bid of a readable class beyond the noise of the whole family of pairs
    checked (each pair at 95% alone would fail about 2.5% of equal pairs by chance)."""
    chart = big_chart
    v = chart.violations
    assert v.attrs["pairs"] > 100
    bad = v[v["beyond_family"] & ~v["rare"]]
    assert bad.empty, bad.to_string()
    pairs = v.attrs["pairs"]  # no more than chance: 2.5% of them, with 3 binomial SEs
    assert v["beyond_noise"].sum() <= 0.025 * pairs + 3 * np.sqrt(pairs * 0.025 * 0.975)
    for _, rows in chart.guide.groupby("seat", observed=True):
        assert (rows["bid_from"] <= rows["bid_to"]).all()
        assert (rows["bid_from"].to_numpy()[1:] == rows["bid_to"].to_numpy()[:-1] + 1).all()


def test_a_gain_under_one_percent_of_a_deals_points_is_marked_slight(big_chart):
    """The bid guide recommended "bid 3: +0.008 ± 0.004" as it did "bid 8: +11.13": both
    beyond the noise, the first worth nothing at the table. A recommended gain whose whole
    interval lies under 1% of the points a deal holds (0.14 of Pedro's 14) is marked
    slight: in the classes, their advice, the guide, its headline and the text."""
    from analyzer.bidchart_view import guide_headline

    classes = big_chart.classes
    expected = (classes["recommended"] != "pass") & (classes["rec_gain_hi"] < 0.14)
    assert classes["slight"].tolist() == expected.tolist()
    assert 0 < classes["slight"].sum() < (classes["recommended"] != "pass").sum()
    for c in classes.itertuples():
        assert ("a slight gain (under 0.14 points a deal" in c.advice) == c.slight
    guide = big_chart.guide
    by_label = classes.set_index(["seat", "label"])["slight"]
    assert guide["slight"].tolist() == [
        by_label[key] for key in zip(guide["seat"], guide["minimum holding"], strict=True)]
    text = render_bid_chart(big_chart)
    noted = [line for line in text.splitlines() if line.rstrip().endswith("slight")]
    assert len(noted) == classes["slight"].sum() + guide["slight"].sum()
    assert "slight = a gain over pass whose whole interval lies under 0.14 points" in text
    headline = guide_headline(guide)[0]
    firsts = guide.groupby("seat", observed=True).head(1)
    assert headline.count("a slight gain") == firsts["slight"].sum()


def test_the_check_finds_a_class_that_bids_lower_with_more_strength():
    """The check can fail: swap two classes' sums so that the stronger one holds the
    weaker one's outcomes, and the drop is reported beyond the noise."""
    chart_acc = SeatChartAccumulator(RULES, ("trumps", "seat"))
    hands, trumps, sole, values = outcomes.pedro_seat_batch(RULES, 3, HEURISTIC, 0, 20_000)
    n = len(hands)
    codes = pedro_codes(hands.ravel(), trumps.ravel(), np.tile(np.arange(4), n))
    flat = values.reshape(4 * n, -1).copy()
    strong = (codes["trumps"] == 3) & (codes["seat"] == 1)  # 5 trumps, eldest
    flat[strong] = flat[strong][:, :1]  # every action worth what passing is: never bid
    chart_acc.add(codes, sole.ravel(), flat)
    chart = chart_acc.chart({"rules": "pedro", "seed": 3, "policy": "heuristic"})
    v = chart.violations
    hit = v[(v["stronger"] == "trumps=5, seat=eldest") & (v["weaker"] == "trumps=4, seat=eldest")]
    assert len(hit) == 1 and hit["beyond_noise"].iloc[0] and hit["beyond_family"].iloc[0]


def test_bad_features_are_clear_errors():
    with pytest.raises(ChartError, match="features:"):
        bid_chart("pedro", deals=100, by=("trumps", "colour"))
    with pytest.raises(ChartError, match="more than once"):
        bid_chart("pedro", deals=100, by=("trumps", "trumps"))


# ---- two-level charts (--base) ------------------------------------------------------------

RANKED = ["ev", "ev_lo", "ev_hi", "gain", "gain_lo", "gain_hi", "p_make"]


@pytest.mark.parametrize("game", ["pedro", "rook"])
def test_a_two_level_chart_with_every_deal_paired_is_the_plain_chart(game):
    by = ("trumps", "seat")
    plain = bid_chart(game, deals=60, seed=3, policy="dd", by=by)
    two = bid_chart(game, deals=60, seed=3, policy="dd", by=by, base="heuristic",
                    base_deals=60)
    # a class with one hand has no two-level interval: left out, and counted
    single = plain.classes["n"] < 2
    assert two.provenance["classes_unsearched"] == single.sum()
    kept = plain.table[plain.table["n"] >= 2].reset_index(drop=True)
    assert list(two.table["label"]) == list(kept["label"])
    assert np.allclose(two.table[RANKED].to_numpy(float), kept[RANKED].to_numpy(float),
                       atol=1e-9, equal_nan=True)
    rec = plain.classes[~single].set_index("label")["recommended"]
    assert (two.classes.set_index("label")["recommended"].loc[rec.index] == rec).all()
    assert (two.table["n_paired"] == two.table["n"]).all()


def test_a_budget_chooses_the_sizes_and_plays_the_chart_they_give():
    by = ("trumps", "seat")
    timed = bid_chart("pedro", seed=5, policy="dd", by=by, base="heuristic", budget=4)
    prov = timed.provenance
    assert (prov["stopped_by"], prov["budget"]) == ("budget", 4)
    n, big = prov["n_search"], prov["n_base"]
    assert 50 <= n <= big and big >= 10_000  # at least the pilot's deals
    # the same deals as the sizes it chose, given by hand: the same chart
    sized = bid_chart("pedro", deals=n, base_deals=big, seed=5, policy="dd", by=by,
                      base="heuristic")
    assert sized.provenance["stopped_by"] == "deals"
    pd.testing.assert_frame_equal(timed.table, sized.table)


def test_a_two_level_chart_corrects_the_cheap_chart():
    by = ("trumps", "seat")
    cheap = bid_chart("pedro", deals=6000, seed=4, by=by)
    two = bid_chart("pedro", deals=60, seed=4, policy="dd", by=by, base="heuristic",
                    base_deals=6000)
    prov = two.provenance
    assert (prov["estimator"], prov["base_policy"], prov["n_base"], prov["n_search"]) == (
        ESTIMATOR, "heuristic", 6000, 60)
    t, c = two.table.set_index(["label", "action"]), cheap.table.set_index(["label", "action"])
    t = t.loc[c.index.intersection(t.index)]
    # EV = the cheap mean over N + the correction over n, class by class and action by action
    assert np.allclose(t["ev"], c.loc[t.index, "ev"] + t["correction"])
    assert (t["n"] == c.loc[t.index, "n"]).all() and (t["n_paired"] < t["n"]).all()
    # each class says how much the searching player moves its EV(pass), in the text as well
    passing = two.table[two.table["action"] == "pass"].set_index("label")
    classes = two.classes.set_index("label")
    assert np.allclose(classes["pass_correction"], passing.loc[classes.index, "correction"])
    assert np.allclose(classes["pass_correction_hi"],
                       passing.loc[classes.index, "correction_hi"])
    assert "of which correction" in render_bid_chart(two)
    assert "pass_correction" not in cheap.classes
    # a gain no hand showed a spread of is bounded by what the searching player's own n
    # hands may have missed, not the cheap player's N (the figure is the searching one's)
    from analyzer.stats import unseen_share

    # (rows whose gain is 0 with an interval wider than the cheap N could leave: a measured
    # spread that happens to average 0 stays within that, as with bid 3 at trumps=5 here)
    t = two.table
    flat = t[(t["action"] != "pass") & (t["gain"] == 0)
             & (t["gain_hi"] > 4 * 14 * unseen_share(t["n"].to_numpy()))]
    assert len(flat) and (flat["n_paired"] < flat["n"]).all()
    assert np.allclose(flat["gain_hi"], 4 * 14 * unseen_share(flat["n_paired"].to_numpy()))
    assert "of which correction" not in render_bid_chart(cheap)
    with pytest.raises(TwoLevelError, match="cheaper one"):
        bid_chart("pedro", deals=10, base="heuristic", base_deals=10)
    with pytest.raises(TwoLevelError, match="searches more"):
        bid_chart("pedro", deals=10, policy="dd", base="pimc:3", base_deals=10)
    with pytest.raises(TwoLevelError, match="--base-deals"):
        bid_chart("pedro", deals=10, policy="dd", base="heuristic", base_deals=5)
    # random names another trump than the heuristic would: its hands fall in other classes
    with pytest.raises(TwoLevelError, match="names trump"):
        bid_chart("pedro", deals=200, policy="random", by=by, base="heuristic", base_deals=200)


def test_features_may_be_given_as_the_string_the_provenance_keeps():
    from analyzer.chart_features import check_features

    rules = pedro.parse_rules("pedro")
    assert check_features("trumps, seat", rules) == check_features(("trumps", "seat"), rules)
    with pytest.raises(ChartError, match="bad chart feature.*tramps"):  # not split to letters
        check_features("tramps,seat", rules)


# ---- the chart's rules on made-up hands: rare classes, the guide, the check -----------------

ACTIONS = 15  # Pedro's pass, then bids 1 .. 14


def made_up_chart(hands_by_trumps: dict[int, np.ndarray], sole: int = 7):
    """A chart classed by trumps alone of made-up seat-hands: per trumps bin (0 is "<=2"),
    the action values of its hands, one row a hand (pass, bid 1 .. bid 14)."""
    acc = SeatChartAccumulator(RULES, ("trumps",))
    codes = np.concatenate([np.full(len(v), t) for t, v in hands_by_trumps.items()])
    values = np.vstack(list(hands_by_trumps.values())).astype(np.float64)
    acc.add({"trumps": codes}, np.full(len(values), sole), values)
    acc.n_deals = len(values)
    return acc.chart({"rules": "pedro", "seed": 1, "policy": "heuristic"})


def hands(n: int, row) -> np.ndarray:
    """n hands whose actions are all worth ``row`` (a value per action, zeros after)."""
    return np.tile(np.r_[row, np.zeros(ACTIONS - len(row))], (n, 1))


def climbing(n: int, step: int) -> np.ndarray:
    """n hands recommended bid ``step`` (each bid up to it beats the one below by 1 on every
    hand, the higher ones are worth nothing): ``step`` 0 is the pass."""
    return hands(n, np.arange(step + 1))


def noisy(n: int, spread: float) -> np.ndarray:
    """n hands where every bid is worth +spread or -spread, alternately, over passing."""
    x = hands(n, [0] + [1] * (ACTIONS - 1))
    x[:, 1:] *= spread * np.where(np.arange(n) % 2, 1, -1)[:, None]
    return x


def test_a_class_is_rare_under_100_hands_or_when_its_decision_is_wider_than_a_point():
    """rare: n < 100, or a deciding interval's half-width over 1/14 of Pedro's 14 points (1
    point); 100 hands, or a half-width under a point, are read."""
    chart = made_up_chart({0: climbing(99, 0), 1: climbing(100, 0), 2: noisy(1000, 9.8),
                           3: noisy(1000, 11.9)})
    c = chart.classes.set_index("label")
    half = (c["margin_hi"] - c["margin_lo"]) / 2
    assert 0.85 < half["trumps=4"] < 0.95 and 1.05 < half["trumps=5"] < 1.15
    assert c["n"].to_dict() == {"trumps=<=2": 99, "trumps=3": 100, "trumps=4": 1000,
                                "trumps=5": 1000}
    assert c["rare"].to_dict() == {"trumps=<=2": True, "trumps=3": False, "trumps=4": False,
                                   "trumps=5": True}


def test_a_stronger_class_with_the_same_recommendation_is_no_violation():
    for step in (0, 3):  # both pass, both bid 3
        chart = made_up_chart({1: climbing(100, step), 2: climbing(100, step)})
        assert chart.classes["rec_bid"].tolist() == [step, step]
        assert chart.violations.empty, chart.violations.to_string()
        assert chart.violations.attrs["pairs"] == 1


def test_a_violation_is_beyond_the_noise_only_when_its_whole_interval_is_below_zero():
    """The stronger class (trumps=4) bids 2 where the weaker (trumps=3) bids 5: a drop of 3
    bids, its size the stronger class's gain at bid 5 minus the weaker one's. It is beyond
    the noise only where the interval's upper end is below 0, not where it reaches 0."""
    weaker = climbing(100, 5)  # bid 5 gains 5 on every hand

    def violation(gain_at_5: np.ndarray):
        stronger = hands(100, [0, 1, 10, 0, 0, 0])  # bid 2 gains 10: recommended
        stronger[:, 5] = gain_at_5
        v = made_up_chart({1: weaker, 2: stronger}).violations
        assert len(v) == 1
        row = v.iloc[0]
        assert (row["stronger"], row["weaker"]) == ("trumps=4", "trumps=3")
        assert (row["stronger_bid"], row["weaker_bid"], row["size"]) == (2, 5, 3)
        assert row["beyond_noise"] == (row["gain_diff_hi"] < 0)
        return row

    same = violation(np.full(100, 5.0))  # the same gain on every hand: [0, 0]
    assert (same["gain_diff"], same["gain_diff_lo"], same["gain_diff_hi"]) == (0, 0, 0)
    assert not same["beyond_noise"]
    spread = violation(5 + 3 * np.where(np.arange(100) % 2, 1, -1))  # 0, interval about it
    assert spread["gain_diff_lo"] < 0 < spread["gain_diff_hi"] and not spread["beyond_noise"]
    lower = violation(np.full(100, 1.0))  # gains 4 less on every hand
    assert lower["gain_diff"] == lower["gain_diff_hi"] == -4 and lower["beyond_noise"]


def guide_of(classes: list[tuple]) -> pd.DataFrame:
    """The guide (:func:`analyzer.bidchart._guide`) of Pedro classes by trumps alone, each
    (label, mean points as sole bidder, recommended bid, rare)."""
    from analyzer.bidchart import _guide
    from analyzer.games.pedro.chart import chart_game

    frame = pd.DataFrame(
        [{"label": label, "n": 500, "points": points, "rec_bid": bid,
          "recommended": f"bid {bid}" if bid else "pass", "rec_gain": 1.0, "rec_gain_lo": 0.5,
          "rec_gain_hi": 1.5, "slight": False, "rare": rare}
         for label, points, bid, rare in classes])
    return _guide(frame, ("trumps",), chart_game(RULES))


def test_each_guide_row_names_the_weakest_readable_class_recommended_every_bid_of_it():
    """To bid at least b: the class with the fewest points whose recommended bid is b or
    more, so a row's class is recommended its last bid too; a rare class (here the weakest,
    recommended 14) is never named."""
    guide = guide_of([("trumps=<=2", 2.0, 14, True), ("trumps=3", 4.0, 7, False),
                      ("trumps=4", 6.0, 9, False), ("trumps=5", 8.0, 11, False),
                      ("trumps=6+", 9.0, 0, False)])
    rows = list(zip(guide["bid_from"], guide["bid_to"], guide["minimum holding"],
                    guide["recommended"], strict=True))
    assert rows == [(1, 7, "trumps=3", "bid 7"), (8, 9, "trumps=4", "bid 9"),
                    (10, 11, "trumps=5", "bid 11")]
    for _, r in guide.iterrows():  # recommended at least the row's last bid
        assert int(r["recommended"].split()[1]) >= r["bid_to"]
    assert guide_of([("trumps=<=2", 2.0, 14, True)]).empty  # only a rare class: no advice


def test_a_two_level_class_on_few_searched_hands_is_rare_not_advised_to_pass():
    """A class whose every bid gains 5 points under both players, on 2,000 cheap hands and
    20 searched ones: its intervals are narrow, but the advice rests on the 20 searched
    hands (advice.MIN_TRIALS: "pass, too few"), so the class is rare, kept out of the guide,
    rather than a strong class read as "pass". On 30 searched hands it is advised to bid."""
    from analyzer.advice import MIN_TRIALS
    from analyzer.bidchart import two_level_result
    from analyzer.games.common import parse_policies

    rules = pedro.parse_rules("pedro")
    rng = np.random.default_rng(3)
    for searched, rare in ((MIN_TRIALS - 10, True), (MIN_TRIALS, False)):
        cheap, joint = SeatChartAccumulator(rules, ("trumps",)), SeatChartAccumulator(
            rules, ("trumps",))
        k = len(cheap.game.action_labels)
        passing = rng.integers(-3, 4, size=(2000, 1)).astype(float)
        values = np.hstack([passing, passing + 5 + np.zeros((2000, k - 1))])
        codes = {"trumps": np.full(2000, 2)}
        cheap.add(codes, np.full(2000, 7), values)
        cheap.n_deals = 500
        part = values[:searched]
        joint.add({"trumps": codes["trumps"][:searched]}, np.full(searched, 7),
                  np.hstack([part + 1, part]))
        joint.n_deals = searched // 4
        chart = two_level_result(cheap, joint, 1, parse_policies("dd"),
                                 parse_policies("heuristic"))
        row = chart.classes.iloc[0]
        assert row["margin_hi"] - row["margin_lo"] < 0.1  # narrow: not rare for its width
        assert bool(row["rare"]) is rare, row
        assert (row["recommended"] == "pass") is rare


def test_the_guide_accounts_for_every_seat_and_the_legend_says_what_rare_is():
    """A seat with no class recommended to bid had no row in the guide and no word about
    it: a player read its absence as 'never bid'. Each seat is now in a row or named in
    the line after the table; the legend gives rare's threshold in points."""
    chart = bid_chart("pedro", deals=5_000, seed=1)
    text = render_bid_chart(chart)
    guide = text.split("Bidding guide")[1].split("Monotonicity")[0]
    guided = set(chart.guide["seat"])
    missing = [s for s in ("dealer", "eldest", "second", "third") if s not in guided]
    assert missing, "this seed's 5,000 deals leave some seat without a guided class"
    assert f"at seat {', '.join(missing)} (more deals" in guide
    assert "wider than ±1 points (1/14 of the 14 a deal holds)" in text
    assert guide.startswith(": the weakest class that is not rare") and "for each b:" in guide
    assert "so it is not a threshold" in guide  # a player read it as one (a review)


def test_the_dealer_s_bids_read_as_the_ceilings_they_are():
    """The hand said "bid up to 10" at the dealer, the chart "bid 10" for the same ceiling:
    the dealer bids last and takes the lowest legal bid up to it."""
    chart = bid_chart("pedro", deals=20_000, seed=5, by=("trumps", "seat"))
    text = render_bid_chart(chart)
    dealer = text.split("seat dealer: classes strongest first")[1].split("\n\n")[0]
    eldest = text.split("seat eldest: classes strongest first")[1].split("\n\n")[0]
    assert "bid up to " in dealer and "bid up to" not in eldest
    assert not re.search(r"\bbid \d", dealer)
