"""Rook bid charts: features against a card-by-card reading, the chart's arithmetic, the CLI."""

import numpy as np
import pandas as pd
import pytest
from cli_helpers import assert_bad_input, run

from analyzer.bidchart import ChartError, chart_from_deals, hand_features
from analyzer.cards import cards_of
from analyzer.evaluate_rook import settle
from analyzer.games import rook

RULES = rook.PRESETS["rook"]
POINTS = {3: 5, 8: 10, 11: 10, 12: 15}  # rank index (2 = 0) -> points, princeton


@pytest.fixture(scope="module")
def hands():
    return rook.simulate(RULES, 30_000, seed=3, policies="heuristic")


def plain_features(mask: int, trump: int) -> dict:
    cards = cards_of(mask)
    rook_held = 63 in cards
    n = sum(1 for c in cards if c != 63 and c // 16 == trump) + rook_held
    pts = 20 * rook_held + sum(POINTS.get(c % 16, 0) for c in cards if c != 63)
    aces = sum(1 for c in cards if c != 63 and c % 16 == 12)
    return {
        "trumps": "<=4" if n <= 4 else "8+" if n >= 8 else str(n),
        "counters": "<=25" if pts <= 25 else "30-45" if pts <= 45 else "50-65" if pts <= 65
        else "70+",
        "aces": "3+" if aces >= 3 else str(aces),
        "rook": rook_held,
    }


def test_features_match_a_card_by_card_reading(hands):
    feats = hand_features(hands)
    for i in range(0, len(hands), 61):
        d = int(hands["declarer"].iat[i])
        want = plain_features(int(hands[f"hand{d}"].iat[i]), int(hands["trump"].iat[i]))
        for k, v in want.items():
            assert feats[k].iat[i] == v, (i, k)


def test_chart_ev_matches_per_hand_settlement(hands):
    chart = chart_from_deals(hands, RULES, by=("trumps", "rook"))
    feats = hand_features(hands)
    assert set(chart.table["bid"]) == set(range(70, 201, 5))
    for _, line in chart.table.sample(10, random_state=2).iterrows():
        sel = (feats["trumps"] == line["trumps"]) & (feats["rook"] == line["rook"])
        b = hands.loc[sel, "bid_points"].to_numpy().astype(int)
        own, opp = settle(b, 200 - b, int(line["bid"]), RULES)
        assert line["n"] == sel.sum()
        assert line["ev"] == pytest.approx((own - opp).mean())
        assert line["p_make"] == pytest.approx((b >= line["bid"]).mean())
    assert chart.table.groupby("label")["n"].first().sum() == len(hands)


def test_more_trumps_are_worth_more(hands):
    chart = chart_from_deals(hands, RULES, by=("trumps",))
    pts = chart.classes.set_index("trumps")["points"]
    order = ["<=4", "5", "6", "7", "8+"]
    assert all(pts[a] < pts[b] for a, b in zip(order[:-1], order[1:], strict=True))


def test_pedro_features_are_refused_for_rook(hands):
    with pytest.raises(ChartError, match="features: trumps, counters, aces, rook"):
        chart_from_deals(hands.head(100), RULES, by=("pedros",))


def test_cli_writes_every_file(tmp_path):
    out = tmp_path / "chart"
    r = run("bid-chart", "rook", "--deals", "20000", "--seed", "4", "--out-dir", str(out))
    assert r.exit_code == 0, r.stderr
    assert "Hand classes" in r.stdout and "Bidding guide" in r.stdout
    table = pd.read_parquet(out / "chart.parquet")
    assert set(table["bid"]) == set(range(70, 201, 5))
    assert (out / "heatmap.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert np.isfinite(table["ev"]).all()


def test_cli_bad_feature_is_one_line():
    assert_bad_input(run("bid-chart", "rook", "--deals", "100", "--by", "pedros"),
                     "pedros", "trumps, counters, aces, rook")
