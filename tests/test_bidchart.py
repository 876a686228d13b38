"""Bid charts: hand features against a plain reading of the cards, and the chart's arithmetic."""

import numpy as np
import pytest

from analyzer.bidchart import ChartError, chart_from_deals, hand_features
from analyzer.cards import cards_of, rank_of, suit_of
from analyzer.evaluate import settle
from analyzer.games import pedro

RULES = pedro.parse_rules("pedro")


@pytest.fixture(scope="module")
def deals():
    return pedro.simulate(RULES, 60_000, seed=3, policies="heuristic")


def plain_features(hand_mask: int, trump: int, offset: int) -> dict:
    """The same features read card by card, the slow obvious way."""
    partner = {0: 3, 3: 0, 1: 2, 2: 1}[trump]
    cards = [(rank_of(c), suit_of(c)) for c in cards_of(hand_mask)]
    trumps = [r for r, s in cards if s == trump]
    left = (5, partner) in cards
    n = len(trumps) + left
    f = {name: r in trumps for name, r in
         (("two", 2), ("right", 5), ("ten", 10), ("jack", 11), ("queen", 12), ("king", 13),
          ("ace", 14))}
    f["left"] = left
    f["trumps"] = "<=2" if n <= 2 else "6+" if n >= 6 else str(n)
    f["pedros"] = f["right"] + f["left"]
    f["counters"] = f["pedros"] + f["ace"] + f["jack"] + f["ten"] + f["two"]
    f["seat"] = ("dealer", "eldest", "second", "third")[offset]
    f["dealer"] = offset == 0
    return f


def test_features_match_a_card_by_card_reading(deals):
    feats = hand_features(deals)
    for i in range(0, len(deals), 97):
        maker = int(deals["maker"].iat[i])
        hand = int(deals[f"hand{maker}"].iat[i])  # by column: a row Series would turn it to float
        want = plain_features(hand, int(deals["trump"].iat[i]),
                              (maker - int(deals["dealer"].iat[i])) % 4)
        got = feats.iloc[i]
        for k, v in want.items():
            assert got[k] == v, (i, k)


def test_chart_ev_matches_per_deal_settlement(deals):
    chart = chart_from_deals(deals, RULES, by=("trumps", "dealer"))
    feats = hand_features(deals)
    for _, line in chart.table.sample(8, random_state=1).iterrows():
        sel = (feats["trumps"] == line["trumps"]) & (feats["dealer"] == line["dealer"])
        b = deals.loc[sel, "bid_points"].to_numpy().astype(int)
        o = deals.loc[sel, "opp_points"].to_numpy().astype(int)
        own, opp = settle(b, o, int(line["bid"]), 1, "side_with_more")
        assert line["n"] == sel.sum()
        assert line["ev"] == pytest.approx((own - opp).mean())
        assert line["p_make"] == pytest.approx((b >= line["bid"]).mean())
        assert line["p_make_lo"] <= line["p_make"] <= line["p_make_hi"]
    assert chart.table.groupby("label")["n"].first().sum() == len(deals)


def test_ceiling_is_the_highest_bid_with_positive_ev(deals):
    chart = chart_from_deals(deals, RULES)
    for _, c in chart.classes.iterrows():
        lines = chart.table[chart.table["label"] == c["label"]]
        positive = lines[lines["ev"] > 0]["bid"]
        assert c["bid_ceiling"] == (positive.max() if len(positive) else 0)
        if c["n"] < 100:
            assert c["rare"]


def test_guide_rows_reach_their_bid(deals):
    chart = chart_from_deals(deals, RULES)
    ceil = dict(zip(chart.classes["label"], chart.classes["bid_ceiling"], strict=True))
    for _, g in chart.guide.iterrows():
        assert ceil[g["minimum holding"]] >= g["bid"]


def test_unknown_feature_is_a_clear_error(deals):
    with pytest.raises(ChartError, match="features:"):
        chart_from_deals(deals.head(100), RULES, by=("trumps", "colour"))


def test_same_seed_same_chart():
    a = chart_from_deals(pedro.simulate(RULES, 5_000, seed=9), RULES)
    b = chart_from_deals(pedro.simulate(RULES, 5_000, seed=9), RULES)
    assert a.table.equals(b.table)
    assert np.array_equal(a.classes["n"], b.classes["n"])
