"""Rook bid charts: every seat-hand counted, the chart's arithmetic, the CLI."""

import numpy as np
import pandas as pd
import pytest
from cli_helpers import run

from analyzer.bidchart import bid_chart
from analyzer.cards import cards_of, rank_of, suit_of
from analyzer.chart_features import ChartError
from analyzer.games import rook
from analyzer.games.rook import outcomes
from analyzer.games.rook.chart import longest_suit, rook_codes
from analyzer.games.rook.evaluate import settle
from analyzer.stats import Z95

RULES = rook.PRESETS["rook"]
HEURISTIC = rook.parse_policies("heuristic")


@pytest.fixture(scope="module")
def chart():
    return bid_chart(RULES, deals=4_000, seed=3, by=("trumps", "rook", "seat"))


def test_every_seat_hand_counts(chart):
    assert chart.classes["n"].sum() == 16_000 == chart.provenance["n"]
    assert chart.provenance["n_deals"] == 4_000
    assert set(chart.table["bid"]) == {0, *range(70, 201, 5)}


def test_p_make_and_sole_points_come_from_the_declarer_points(chart):
    """Per class, P(make b) as sole declarer against the seat outcomes, and the settlement
    arithmetic of §4.9 for made and set contracts."""
    hands, sole, _ = outcomes.rook_seat_batch(RULES, 3, rook.parse_policies("heuristic"),
                                                 0, 4_000)
    assert ((sole >= 0) & (sole <= 200) & (sole % 5 == 0)).all()
    assert chart.classes["points"].mul(chart.classes["n"]).sum() == pytest.approx(sole.sum())
    own, opp = settle(np.array([120, 90]), np.array([80, 110]), 100, RULES)
    assert own.tolist() == [120, -100] and opp.tolist() == [80, 110]


def test_rook_features_match_a_card_by_card_reading():
    rules = RULES
    hands, _, _ = outcomes.rook_seat_batch(rules, 3, rook.parse_policies("heuristic"), 0, 300)
    flat = hands.ravel()
    codes = rook_codes(flat, np.tile(np.arange(4), len(hands)), rules)
    points = {14: 15, 13: 10, 10: 10, 5: 5}
    for i in range(len(flat)):
        cards = [c for c in cards_of(int(flat[i]))]
        rook_card = 63 in cards
        by_suit = [sorted((rank_of(c) for c in cards if c != 63 and suit_of(c) == s),
                          reverse=True) for s in range(4)]
        best = max(range(4), key=lambda s: (len(by_suit[s]), by_suit[s]))  # longest, then top
        assert longest_suit(flat[i:i + 1])[0] == best
        length = len(by_suit[best]) + rook_card
        pts = 20 * rook_card + sum(points.get(rank_of(c), 0) for c in cards if c != 63)
        aces = sum(rank_of(c) == 14 for c in cards if c != 63)
        assert codes["trumps"][i] == min(max(length - 4, 0), 4)
        assert codes["counters"][i] == (0 if pts < 30 else 1 if pts < 50 else 2 if pts < 70
                                        else 3)
        assert codes["aces"][i] == min(aces, 3) and codes["rook"][i] == rook_card


def test_rook_outcomes_played_once_equal_every_action_played_in_full():
    rules = RULES
    shared = outcomes.rook_seat_batch(rules, 5, HEURISTIC, 100, 300, share=True)
    full = outcomes.rook_seat_batch(rules, 5, HEURISTIC, 100, 300, share=False)
    for a, b in zip(shared, full, strict=True):
        assert np.array_equal(a, b)


def test_more_trumps_are_worth_more():
    """Each step up in trumps gains points beyond its noise (disjoint classes of deals: the
    step's standard error is the two classes' in quadrature)."""
    chart = bid_chart(RULES, deals=4_000, seed=3, by=("trumps",))
    c = chart.classes.set_index("trumps").loc[["<=4", "5", "6", "7", "8+"]]
    gain = np.diff(c["points"].to_numpy())
    se = c["points_se"].to_numpy()
    assert (gain > Z95 * np.hypot(se[1:], se[:-1])).all(), c[["points", "points_se"]]


def test_pedro_features_are_refused_for_rook():
    with pytest.raises(ChartError, match="features: trumps, counters, aces, rook"):
        bid_chart(RULES, deals=10, by=("pedros",))


def test_cli_writes_every_file(tmp_path):
    out = tmp_path / "chart"
    r = run("bid-chart", "rook", "--deals", "2000", "--seed", "4", "--out-dir", str(out))
    assert r.exit_code == 0, r.stderr
    assert "classes strongest first" in r.stdout and "Bidding guide" in r.stdout
    assert "Monotonicity" in r.stdout
    table = pd.read_parquet(out / "chart.parquet")
    assert set(table["bid"]) == {0, *range(70, 201, 5)}
    assert (out / "heatmap.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert np.isfinite(table["ev"]).all()


def test_a_ceiling_chart_shows_no_second_up_to(chart):
    """Rook's actions are "bid up to b" already: the chart's "up to" column (the highest
    ceiling that beats passing, 200 whenever any does) read beside "recommended: bid up to
    115" as a second, contrary ceiling. Pedro's bids keep it."""
    from analyzer.bidchart_view import render_bid_chart

    text = render_bid_chart(chart)
    header = next(ln for ln in text.splitlines() if ln.startswith("class"))
    assert "beats passing to" not in header and "beats passing to = " not in text
    pedro = bid_chart("pedro", deals=2_000, seed=3)
    assert "beats passing to" in next(ln for ln in render_bid_chart(pedro).splitlines()
                                      if ln.startswith("class"))


def test_the_headline_names_the_seats_the_guide_has_no_row_for():
    """A report's key findings listed the weakest hand worth a bid for three seats and left
    the fourth out without a word (the reason was only in the guide's text)."""
    from analyzer.bidchart_view import chart_contents

    small = bid_chart("rook", deals=2_000, seed=2)
    guided = set(small.guide["seat"])
    missing = [s for s in small.classes["seat"].cat.categories if s not in guided]
    assert guided and missing  # this seed reads some seats and not others
    said = chart_contents(small).headline
    assert said[-1].startswith("No class that is not rare is recommended to bid at seat "
                               f"{', '.join(missing)} ")
