"""Rook: the text of a logged hand (rook_view.render_hand) and summarize() on Rook frames."""

import math
import re

import numpy as np
import pandas as pd
import pytest

from analyzer.games import rook
from analyzer.games.rook.summary import rook_card_points
from analyzer.games.rook.view import card_points, render_hand
from analyzer.stats import mean_ci, wilson
from analyzer.summary import summarize

SEATS = "NESW"


@pytest.fixture(scope="module")
def logs():
    return rook.play_logged(rook.PRESETS["rook"], 3, range(5))


def _play_rows(text: str) -> list[str]:
    lines = text.splitlines()
    start = lines.index("Play (* marks the card that wins the trick)") + 3  # title, header, rule
    end = lines.index("", start)
    return lines[start:end]


@pytest.mark.parametrize("k", range(5))
def test_render_hand_shows_every_trick_winner_and_the_score(logs, k):
    log = logs[k]
    text = render_hand(log, seed=3, policy="heuristic")
    assert text.splitlines()[0] == f"Hand {k} of seed 3: rook, policy heuristic"
    rows = _play_rows(text)
    assert len(rows) == len(log["tricks"]) == 13
    for t, (row, trick) in enumerate(zip(rows, log["tricks"], strict=True), start=1):
        win = trick["winner"]
        pts = sum(card_points(c, "princeton") for _, c in trick["plays"])
        bonus = r" \+ 20 last trick" if t == 13 else ""
        assert re.fullmatch(rf"\s+{t}  {trick['leader']} {SEATS[trick['leader']]}\s+.*"
                            rf"  {win} {SEATS[win]}\s+{pts}{bonus}", row), row
        best = dict((s, c) for s, c in trick["plays"])[win]
        assert f"{SEATS[win]} {best}*" in row
    res = log["result"]
    d0, d1 = res["score"]
    assert f"Score: team 0 {d0:+d}, team 1 {d1:+d}." in text
    verdict = "made" if res["made"] else "set"
    assert f"bid {log['bid']} and its side took {res['points'][log['declarer'] & 1]}: " \
           f"{verdict}." in text
    assert "add up to" not in text  # tricks + dropped card + last trick == the log's points
    assert f"widow: {log['widow']}" in text
    for s in range(4):  # the Rook sits in its own column of its holder's row
        row = next(x for x in text.splitlines() if x.startswith(f"  {s} {SEATS[s]}   "))
        assert row.endswith("JK") == ("JK" in log["hands"][s])


def test_render_hand_without_labels(logs):
    log = logs[0]
    text = render_hand(log, seed=3, policy="random", rules="rook(x)", labels=False)
    assert text.splitlines()[0] == "Hand 0 of seed 3: rook(x), policy random"
    assert "(N-S)" not in text and " 0 N " not in text
    win = log["tricks"][-1]["winner"]
    assert re.search(rf"^\s+13  \d\s+.*  {win}\s+\d+ \+ 20 last trick$", text, re.M)


def test_card_points():
    assert card_points("AS", "princeton") == 15
    assert card_points("KH", "princeton") == 10
    assert card_points("KH", "parker_adapt") == 0
    assert card_points("JK", "no_last_trick_bonus") == 20
    assert card_points("5C", "princeton") == 5 and card_points("9D", "princeton") == 0
    pts = rook_card_points("rook")
    assert pts.sum() == 180 and pts[63] == 20 and pts[3 * 16 + 12] == 15  # AS
    assert rook_card_points("rook(points=parker_adapt)")[11] == 0  # KC


# ---- summarize() on Rook frames --------------------------------------------------------


def tiny_rook(rules: str = "rook") -> pd.DataFrame:
    """Four hands, dealers 0..3; hand 3 is forced at 70. Widows: KC, the Rook, 9D, 5S."""
    df = pd.DataFrame({
        "deal": [0, 1, 2, 3],
        "dealer": [0, 1, 2, 3],
        "declarer": [1, 1, 0, 3],
        "bid": [120, 120, 100, 70],
        "forced": [0, 0, 0, 1],
        "redeals": [0, 0, 0, 0],
        "widow": [11, 63, 16 + 7, 48 + 3],
        "made": [1, 0, 1, 1],
        "points0": [60, 110, 150, 90],
        "points1": [140, 90, 50, 110],
        "score0": [60, 110, 150, 90],
        "score1": [140, -120, 50, 110],
    })
    team = df["declarer"] & 1
    df["bid_points"] = np.where(team == 0, df["points0"], df["points1"])
    df["opp_points"] = np.where(team == 0, df["points1"], df["points0"])
    df.attrs.update(game="rook", rules=rules, seed=4, policy="heuristic", first=0)
    return df


def test_tiny_rook_frame_hand_computed():
    s = summarize(tiny_rook())
    assert s.provenance == {"n": 4, "seed": 4, "rules": "rook", "policy": "heuristic",
                            "first": 0}
    assert s.points.loc["declaring side", "mean"] == pytest.approx((140 + 90 + 150 + 110) / 4)
    assert s.points.loc["team 0 (seats 0, 2)", "mean"] == pytest.approx(102.5)
    c = s.contracts
    assert list(c.index) == ["all hands", "bid 70", "bid 100", "bid 120"]
    assert (c.loc["all hands", "n"], c.loc["all hands", "k"]) == (4, 3)
    assert (c.loc["bid 120", "n"], c.loc["bid 120", "k"]) == (2, 1)
    assert c.loc["bid 70", "lo"] == pytest.approx(wilson(1, 1).lo)
    sh = s.shares
    assert sh.loc["dealer forced at 70 (three passes)", "k"] == 1
    # declarer's team == dealer's team in hands 1 (1 for 1), 2 (0 for 2) and 3 (3 for 3)
    assert sh.loc["dealer's side declared", "k"] == 3
    assert sh.loc["widow card is a counter", "k"] == 3  # KC, the Rook, 5S; not 9D
    # dealers' teams 0, 1, 0, 1: dealer's team score minus the other's
    adv = [60 - 140, -120 - 110, 150 - 50, 110 - 90]
    assert s.dealer.loc["score", "mean"] == pytest.approx(np.mean(adv))
    assert s.dealer.loc["score", "se"] == pytest.approx(mean_ci(adv).se)
    text = s.to_text()
    assert text.splitlines()[0] == "rook: n=4 hands (0..3 of seed 4), policy heuristic"
    assert "Points per hand" in text and "thrown in" not in text


def test_widow_counters_follow_the_point_scheme():
    s = summarize(tiny_rook("rook(points=parker_adapt,all_pass=redeal)"))
    assert s.shares.loc["widow card is a counter", "k"] == 2  # kings score 0 here
    assert s.shares.loc["thrown in at least once (all four passed)", "k"] == 0


def test_rook_empty_frame_raises():
    df = rook.simulate(rook.PRESETS["rook"], 0)
    with pytest.raises(ValueError, match="empty"):
        summarize(df)


def test_real_rook_simulation():
    n = 20_000
    df = rook.simulate(rook.PRESETS["rook"], n, seed=11)
    s = summarize(df)
    pts = s.points["mean"]
    assert pts["team 0 (seats 0, 2)"] + pts["team 1 (seats 1, 3)"] == pytest.approx(200, abs=1e-9)
    assert pts["declaring side"] + pts["other side"] == pytest.approx(200, abs=1e-9)
    assert s.contracts.loc["all hands", "n"] == n
    assert s.contracts["n"].iloc[1:].sum() == n
    # the widow is a uniformly random card of 53, and 17 of them are counters
    p0 = 17 / 53
    se = math.sqrt(p0 * (1 - p0) / n)
    share = s.shares.loc["widow card is a counter"]
    assert share["n"] == n
    assert abs(share["rate"] - p0) <= 3 * se
    assert s.estimates["widow_counter"].k == share["k"]
    text = s.to_text()
    assert f"n={n} hands" in text and "Dealer advantage" in text
