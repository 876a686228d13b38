"""`bidlab hand rook`: per-trump points, P(points >= b), EV(b), the auction-aware
ceilings, EV(pass), the recommendation, reproducibility and one-line errors."""

import json

import numpy as np
import pytest
from cli_helpers import assert_bad_input, run

from analyzer import evaluate_hand
from analyzer.games import rook
from analyzer.games.rook.evaluate import settle

STRONG = "AS KS QS JS 9S 5S JK AH KH 5D 2D 3C 4C"  # seven spades with the Rook
WEAK = "3S 4H 6D 7C 8S 9H 3D 4C 6H 2C 7D 2H 8C"  # no counter, no card above a 9
N = 4000


@pytest.fixture(scope="module")
def strong():
    return evaluate_hand("rook", STRONG, seat="dealer", deals=N, seed=2)


@pytest.fixture(scope="module")
def weak():
    return evaluate_hand("rook", WEAK, seat="eldest", deals=N, seed=2)


def test_strong_hand_names_spades_and_bids_high(strong):
    pts = strong.points.set_index("trump")["points"]
    assert pts.idxmax() == "spades"
    lo = strong.points.set_index("trump")["points_lo"]["spades"]
    assert lo > pts.drop("spades").max()  # clearly, not by noise
    row = strong.bids[(strong.bids["trump"] == "spades") & (strong.bids["bid"] == 140)].iloc[0]
    assert row["p_make_lo"] > 0.9
    assert strong.recommended.startswith("bid up to")
    best = strong.actions.iloc[0]
    passing = strong.actions[strong.actions["action"] == "pass"].iloc[0]
    assert best["ev_lo"] > passing["ev_hi"]


def test_weak_hand_is_worth_little(weak):
    assert (weak.points["points_hi"] < 110).all()
    spades = weak.bids[weak.bids["trump"] == "spades"].set_index("bid")
    assert spades.loc[150, "p_make_hi"] < 0.2
    # as declarer at 150 it loses ground against passing, beyond the noise
    assert spades.loc[150, "ev_net_hi"] < weak.pass_ev.iloc[0]["ev_net_lo"]


def test_ev_sign_conventions_by_hand():
    """EV(b) as declarer is B if B >= b else -b, the opponents always +O (spec §4.9)."""
    b = np.array([150, 100, 200, 80])
    o = 200 - b
    own, opp = settle(b, o, 120, rook.PRESETS["rook"])
    assert own.tolist() == [150, -120, 200, -120] and opp.tolist() == [50, 100, 0, 120]
    own, opp = settle(b, o, 120, rook.parse_rules("rook(opp_scores=not_when_declarer_set)"))
    assert own.tolist() == [150, -120, 200, -120] and opp.tolist() == [50, 0, 0, 0]


def test_per_trump_ev_matches_the_points_distribution(strong):
    """EV(b) own = sum over points p of P(p) * (p if p >= b else -b), from the distribution."""
    dist = strong.distribution.set_index("trump")
    for trump in ("spades", "clubs"):
        shares = dist.loc[trump]
        pts = np.array([int(c) for c in shares.index])
        for bid in (70, 120, 175):
            want = float((shares.to_numpy() * np.where(pts >= bid, pts, -bid)).sum())
            row = strong.bids[(strong.bids["trump"] == trump) & (strong.bids["bid"] == bid)]
            assert row["ev_own"].iloc[0] == pytest.approx(want, abs=1e-9)


def test_ceilings_are_monotone_in_winning_the_auction(strong):
    p = strong.ceilings["p_declarer"].to_numpy()
    assert (np.diff(p) >= 0).all() and p[-1] > 0.99


def test_same_seed_same_output():
    args = ["hand", "rook", STRONG, "--seat", "second", "--deals", "2000", "--seed", "9"]
    a, b = run(*args), run(*args)
    assert a.exit_code == 0, a.stderr
    assert a.stdout == b.stdout
    assert "recommended: " in a.stdout and "P(points ≥ b)" in a.stdout


def test_json_has_every_table():
    r = run("hand", "rook", STRONG, "--deals", "1000", "--json")
    doc = json.loads(r.stdout)
    assert {"points", "distribution", "bids", "ceilings", "pass_ev", "actions"} <= set(doc)
    assert len(doc["bids"]) == 4 * 27 and doc["provenance"]["rules"] == "rook"


def test_json_says_what_the_text_says():
    """--json's "bid_up_to" (160) read as the advice's "bid up to 150": it is the column the
    text calls "declaring beats passing to"; and the advice left out the text's best trump."""
    r = run("hand", "rook", STRONG, "--seat", "dealer", "--deals", "1000", "--json")
    doc = json.loads(r.stdout)
    text = run("hand", "rook", STRONG, "--seat", "dealer", "--deals", "1000").stdout
    assert f"recommended: {doc['advice']}\n" in text and "(best trump as declarer: " in text
    assert all("beats_passing_to" in row and "bid_up_to" not in row for row in doc["points"])


def test_no_trump_and_parker_variants():
    ev = evaluate_hand("rook(allow_no_trump=True)", STRONG, deals=500)
    assert list(ev.points["trump"]) == ["clubs", "diamonds", "hearts", "spades", "no trump"]
    ev = evaluate_hand("rook(points=parker_adapt)", "AS KS QS JS 9S 5S JK AH KH 5D", deals=500)
    assert ev.bids["bid"].max() == 120 and (ev.points["points"] <= 120).all()


@pytest.mark.parametrize("args, expected", [
    (["AS KS QS JS 9S 5S JK AH KH 5D 2D 3C"], ["13 cards", "12 card(s)"]),
    (["AS KS QS JS 9S 5S JK AH KH 5D 2D 3C JK"], ["'JK'", "repeats", "Rook"]),
    ([STRONG, "--rule", "pass_cycle=up"], ["pass_cycle", "right_left, right_left_none"]),
    ([STRONG, "--rule", "points=parker_adapt"], ["10 cards", "41-card"]),
    (["AS KS QS JS 9S 5S JK AH KH 5D 2D 3C XX"], ["'XX'"]),
])
def test_bad_input_is_one_line_exit_2(args, expected):
    assert_bad_input(run("hand", "rook", *args), *expected)


def test_declaring_and_bidding_ceilings_have_their_own_names(strong):
    """The per-trump table's "bid up to" (as declarer, nobody else bidding) read as a third
    meaning beside the ranking's and the recommendation's "bid up to b", and the footer
    defined "bid up to" as the highest bid that beats passing, which the recommendation
    is not. Each now says what it is; the CSV footer no longer promises the distribution."""
    from analyzer.games.rook.hand_view import render_hand

    text = render_hand(strong)
    assert "declaring beats passing to" in text and "bid up to = " not in text
    assert "not the advice" in text
    assert "replaces the one recommended so far only when it beats it" in text
    assert "--json or --csv" not in text


@pytest.mark.parametrize("game, hand", [
    ("rook", "AS KS QS JS 9S 5S JK AH KH 5D 2D 3C 4C"),
    ("pedro", "AS KS 5S 5C 2S 9H 3D JC 7H")])
def test_the_recommended_action_is_among_the_ranked_ones(game, hand):
    """The advice takes the lowest bid its rivals do not beat beyond the noise, which need
    not be among the four best estimates: Rook's "bid up to 150" was missing from
    ev.actions, where a reader looks for its P(best) and gain."""
    ev = evaluate_hand(game, hand, deals=2000, seed=1)
    row = ev.actions[ev.actions["action"] == ev.recommended]
    assert len(row) == 1, (ev.recommended, list(ev.actions["action"]))
    # P(best) is taken among every alternative: the rows shown hold at most all of it
    assert 0 < ev.actions["p_best"].sum() <= 1 + 1e-9


def test_the_hand_says_which_way_its_deals_pass():
    """A single-hand Rook figure mixed both passing directions without a word (deal i
    passes by the cycle at i): the output now says so, and how to fix one direction."""
    note = "passing: right and left in turn by the deal's index (pass_cycle=right_left)"
    assert note in run("hand", "rook", STRONG, "--deals", "200").output
    fixed = run("hand", "rook", STRONG, "--deals", "200", "--rule", "pass_cycle=left")
    assert fixed.exit_code == 0 and "passing:" not in fixed.output
    df = rook.simulate(rook.parse_rules("rook"), 4, seed=1)  # what "in turn" means
    assert df["direction"].tolist() == [-1, 1, -1, 1]  # right, left, right, left


def test_the_advice_says_why_it_compares_fewer_bids_than_the_ladder_holds(strong):
    """"95% for the 17 bids compared" beside 27 ceilings from 70 to 200 went unexplained:
    ceilings that play out alike on every deal are one alternative."""
    from analyzer.games.rook.hand_view import render_hand

    n = strong.decision.compared
    assert 1 < n < len(rook.PRESETS["rook"].bids)
    assert f"count as one, named by the lowest: {n} of the 27 here" in render_hand(strong)


def test_the_figure_draws_what_the_advice_ranks(strong):
    """The advice ranks bidding up to b with the auction played; the figure drew only the
    trumps' as-declarer lines, another number than the one the advice reads."""
    from analyzer.games import game

    ax = game("rook").hand_figure(strong).axes[0]
    lines = {line.get_label(): line for line in ax.get_lines()}
    auction = lines["bid up to b, auction played (the advice's)"]
    assert list(auction.get_xdata()) == list(strong.ceilings["bid"])
    assert np.allclose(auction.get_ydata(), strong.ceilings["ev_net"])
    bid = int(strong.recommended.removeprefix("bid up to "))
    star = lines[f"recommended: bid up to {bid}"]
    at = strong.ceilings.set_index("bid").loc[bid, "ev_net"]
    assert (list(star.get_xdata()), list(star.get_ydata())) == ([bid], [at])
