"""The policy ladder's premise, that every rung plays the same contracts, in Rook as in
Pedro: with the play-only flag a random seat makes its calls by the heuristic and only
its cards are random."""

from __future__ import annotations

import numpy as np
import pytest

from analyzer import ladder
from analyzer.games import common, king, rook
from analyzer.games.common import PolicyError
from analyzer.games.protocol import NotOffered
from analyzer.games.search.setup import P_PLAY_ONLY

RULES = rook.parse_rules("rook")
COLS = rook.engine.REC_COLUMNS
CALLS = ("dealer", "declarer", "bid", "trump", "forced", "redeals", "direction", "leader",
         "widow", "drop")


def _run(spec: str, play_only: bool, n: int = 400) -> np.ndarray:
    pols = common.parse_policies(spec)
    pols[P_PLAY_ONLY] = int(play_only)
    rec, _ = rook.run_batch(RULES, 0, n, 11, pols)
    return rec


def test_rook_play_only_random_seats_call_like_the_heuristic():
    heur = _run("heuristic", True)
    rand = _run("random", True)
    for name in CALLS:  # auction, drop, pass direction, trump, first leader: all the same
        j = COLS.index(name)
        assert (rand[:, j] == heur[:, j]).all(), name
    pts = COLS.index("points0")
    assert (rand[:, pts] != heur[:, pts]).mean() > 0.5  # the cards are the random player's
    free = _run("random", False)  # without the flag a random seat bids at random
    assert (free[:, COLS.index("bid")] != heur[:, COLS.index("bid")]).mean() > 0.5


def test_rook_ladder_rungs_share_contracts_and_rank():
    lad = ladder.ladder("rook", deals=300, seed=3, rungs=("random", "heuristic"))
    rec, _ = rook.run_batch(RULES, 0, 300, 3, common.parse_policies("heuristic"))
    assert (lad.deals["bid"].to_numpy() == rec[:, COLS.index("bid")]).all()
    assert (lad.deals["maker"].to_numpy() == rec[:, COLS.index("declarer")]).all()
    summ = lad.summary().set_index("rung")
    # the heuristic's card play beats random by more than the paired interval's half-width
    assert summ.loc["random", "diff_hi"] < 0
    by_bid = lad.by_bid()
    assert set(by_bid["bid"]) <= set(range(70, 205, 5)) and by_bid["n"].min() >= 1


KING = king.parse_rules("king")
KCOLS = king.engine.REC_COLUMNS
KING_CALLS = ("outcome", "buyer", "price", "trump", "chooser", "leader", "n_calls")


def _king(spec: str, play_only: bool, n: int = 400) -> np.ndarray:
    pols = common.parse_policies(spec)
    pols[P_PLAY_ONLY] = int(play_only)
    rec, _ = king.run_batch(KING, 0, n, 11, pols, contract="positive")
    return rec


def test_king_play_only_random_seats_call_like_the_heuristic():
    heur = _king("heuristic", True)
    rand = _king("random", True)
    for name in KING_CALLS:  # offers, answers, decline, trump and leader: all the same
        j = KCOLS.index(name)
        assert (rand[:, j] == heur[:, j]).all(), name
    played = heur[:, KCOLS.index("outcome")] != king.engine.OUT_DECLINE
    tricks = KCOLS.index("tricks0")
    assert (rand[played, tricks] != heur[played, tricks]).mean() > 0.3  # random cards
    free = _king("random", False)  # without the flag a random seat offers at random
    assert (free[:, KCOLS.index("n_calls")] != heur[:, KCOLS.index("n_calls")]).mean() > 0.3


def test_king_run_deals_is_run_batch_for_any_indices():
    pols = common.parse_policies("heuristic")
    whole, hands = king.run_batch(KING, 0, 60, 4, pols, contract="no-queens")
    pick = np.array([59, 3, 17, 17, 0])
    rec, h = king.run_deals(KING, pick, 4, pols, contract="no-queens")
    assert (rec == whole[pick]).all() and (h == hands[pick]).all()


def test_king_ladder_plays_the_trump_chooser_on_the_heuristic_contracts():
    n = 400
    lad = ladder.ladder("king", deals=n, seed=3, rungs=("random", "heuristic"))
    rec, _ = king.run_batch(KING, 0, n, 3, common.parse_policies("heuristic"),
                            contract="positive")
    out = rec[:, KCOLS.index("outcome")]
    played = np.flatnonzero(out != king.engine.OUT_DECLINE)
    df = lad.deals
    assert (df["deal"].to_numpy() == played).all()  # declined hands are left out
    assert lad.provenance["declined"] == n - len(played)
    assert (df["maker"].to_numpy() == rec[played, KCOLS.index("chooser")]).all()
    sold = out[played] == king.engine.OUT_SELL
    assert (df["bid"].to_numpy() == np.where(sold, rec[played, KCOLS.index("price")], 0)).all()
    # the heuristic rung is the heuristic's own hand: the chooser's tricks as recorded
    chooser = rec[played, KCOLS.index("chooser")]
    own = rec[played, KCOLS.index("tricks0") + chooser]
    assert (df["points_heuristic"].to_numpy() == own).all()
    assert (df["made_heuristic"] == ((own >= df["bid"]) & (df["bid"] > 0))).all()
    summ = lad.summary().set_index("rung")
    assert summ.loc["random", "diff_hi"] < 0  # random card play takes fewer tricks
    assert set(lad.by_bid()["bid"]) <= set(range(1, 14))


def test_king_negative_ladder_cycles_the_seat_and_keeps_the_penalty():
    n = 192  # twelve blocks of 16 deals: each offset from the dealer four times a block
    lad = ladder.ladder("king", deals=n, seed=5, rungs=("random", "heuristic"),
                        contract="no-hearts")
    df = lad.deals
    rel = (df["maker"] - df["deal"] % 4) % 4  # the seat's offset from the dealer
    assert sorted(rel.value_counts().tolist()) == [n // 4] * 4
    assert df["points_random"].between(-260, 0).all()
    assert (df["bid"] == 0).all() and lad.by_bid().empty
    summ = lad.summary().set_index("rung")
    assert np.isnan(summ.loc["heuristic", "p_make"])
    assert summ.loc["random", "diff_hi"] < 0  # random play takes more hearts


def test_king_ladder_of_declined_hands_only_says_so():
    rec, _ = king.run_batch(KING, 0, 40, 1, common.parse_policies("heuristic"),
                            contract="positive")
    first = int(np.flatnonzero(rec[:, KCOLS.index("outcome")] == king.engine.OUT_DECLINE)[0])
    with pytest.raises(PolicyError, match="declined"):
        ladder.ladder("king", deals=1, seed=1, first=first, rungs=("heuristic",))


def test_the_ladder_contract_is_king_only():
    with pytest.raises(NotOffered, match="--contract: only king; Pedro / Cinch has no contracts"):
        ladder.ladder("pedro", deals=5, contract="positive")


def test_the_ladder_header_and_notes_say_only_what_applies():
    """`ladder king` showed "P(make) 100%" with no word of what a King hand makes, and the
    header named pimc's worlds where no rung searched."""
    from cli_helpers import run

    plain = run("ladder", "king", "--deals", "12", "--rungs", "random,heuristic")
    assert plain.exit_code == 0, plain.stderr
    assert "pimc worlds" not in plain.stdout.splitlines()[0]
    assert "P(make): a buyer took at least the tricks it paid" in plain.stdout
    searched = run("ladder", "pedro", "--deals", "4", "--rungs", "heuristic,pimc",
                   "--worlds", "3")
    assert searched.exit_code == 0, searched.stderr
    assert "pimc worlds 3" in searched.stdout.splitlines()[0]
    assert "P(make):" not in searched.stdout  # Pedro's bid is made or set: nothing to say


def test_p_make_shows_its_own_n_and_no_auction_where_there_is_none():
    """`ladder king` showed n 246 beside a P(make) interval of the 149 sold hands (Wilson
    for 148 of 149), and `--contract no-hearts` an auction line and a column of n/a."""
    from cli_helpers import run

    from analyzer.stats import wilson

    r = run("ladder", "king", "--deals", "60", "--rungs", "random,heuristic")
    assert r.exit_code == 0, r.stderr
    summ = ladder.ladder("king", deals=60, seed=1, rungs=("random", "heuristic")).summary()
    header = next(ln for ln in r.stdout.splitlines() if ln.startswith("rung"))
    assert "contracts" in header.split()
    row = next(ln for ln in r.stdout.splitlines() if ln.startswith("heuristic"))
    line = summ.set_index("rung").loc["heuristic"]
    assert line["contracts"] < line["n"]  # sold hands only
    made = round(line["p_make"] * line["contracts"])
    w = wilson(made, int(line["contracts"]))
    assert f" {int(line['contracts'])} " in row and f"[{100 * w.lo:.1f}%" in row
    neg = run("ladder", "king", "--deals", "12", "--rungs", "random,heuristic",
              "--contract", "no-hearts")
    assert neg.exit_code == 0, neg.stderr
    assert "auction" not in neg.stdout and "P(make)" not in neg.stdout and "n/a" not in neg.stdout


def test_pedro_ladder_rungs_play_the_maker_s_side_and_random_cards_lose_points():
    """Each rung plays both seats of the trump maker's side: the heuristic rung is the
    heuristic's own deal, and random card play there costs the side over 2 points a deal
    (3.6 on these deals; a rung given one seat of each side, or the other side, shows
    under 1 point, or a gain)."""
    from analyzer.games import pedro

    lad = ladder.ladder("pedro", deals=400, seed=3, rungs=("random", "heuristic"))
    df = lad.deals
    rec, _ = pedro.run_batch(pedro.parse_rules("pedro"), 0, 400, 3,
                             common.parse_policies("heuristic"))
    cols = pedro.engine.REC_COLUMNS
    side = df["maker"].to_numpy() & 1  # the maker's partnership, seats 0 and 2 or 1 and 3
    own = rec[np.arange(400), np.where(side == 0, cols.index("points0"), cols.index("points1"))]
    assert (df["points_heuristic"].to_numpy() == own).all()
    summ = lad.summary().set_index("rung")
    assert summ.loc["random", "points"] < summ.loc["heuristic", "points"] - 2
    assert summ.loc["random", "diff_hi"] < -2, summ.loc["random"]


def test_duplicate_credits_the_better_player_with_a_positive_net_edge():
    """Heuristic against random, partnerships swapped deal by deal: the heuristic's net edge
    is positive beyond the noise, in points and in score, and swapping A and B flips it."""
    ab = ladder.duplicate("pedro", "heuristic", "random", deals=400, seed=3)
    ba = ladder.duplicate("pedro", "random", "heuristic", deals=400, seed=3)
    assert ab.net_points.lo > 0 and ab.net_score.lo > 0, (ab.net_points, ab.net_score)
    assert ba.net_points.hi < 0 and ba.net_score.hi < 0
    assert ab.net_points.mean == -ba.net_points.mean
    assert ab.net_score.mean == -ba.net_score.mean
    row = ab.row()
    assert (row["a"], row["b"], row["n"]) == ("heuristic", "random", 400)
    assert row["score_lo"] > 0 and row["points_lo"] > 0


@pytest.mark.parametrize("rungs", [("heuristic", "heuristic"), ("random", "heuristic", "random"),
                                   ("pimc:20", "pimc"), (" dd", "dd ")])
def test_a_rung_given_twice_is_refused(rungs):
    """Duplicate rungs are refused before any deal is played, named in the message, even
    written differently (pimc is pimc:20)."""
    with pytest.raises(PolicyError, match="given more than once"):
        ladder.check_rungs(rungs)
    with pytest.raises(PolicyError, match="given more than once"):
        ladder.ladder("pedro", deals=4, rungs=rungs)


def test_distinct_rungs_pass_the_check_as_given():
    assert ladder.check_rungs(["random", " heuristic", "pimc:5"]) == ("random", "heuristic",
                                                                     "pimc:5")



def test_each_rung_compiles_on_one_untimed_deal_before_its_seconds_start(monkeypatch):
    """The seconds column counted numba's first compile (25.7 s for 40 pimc deals that then
    played in 0.9): each rung now plays one deal of its first non-empty group untimed, and
    the clock starts after it."""
    calls = []
    monkeypatch.setattr(ladder.time, "perf_counter", lambda: calls.append("clock") or 0.0)

    def play(sel, spec, tag):
        calls.append((len(sel), spec))
        return np.zeros(len(sel), np.int64), np.zeros(len(sel), bool), np.ones(len(sel), bool)

    import pandas as pd

    groups = [(np.array([], np.int64), (1, 3), 1), (np.arange(6), (0, 2), 0)]
    ladder._play_rungs(pd.DataFrame({"deal": np.arange(6)}), ("heuristic", "dd"),
                       "heuristic", groups, play, None, 6)
    h, dd_odd, dd_even = "heuristic,heuristic,heuristic,heuristic", \
        "heuristic,dd,heuristic,dd", "dd,heuristic,dd,heuristic"
    assert calls == [(1, h), "clock", (0, h), (6, h), "clock",
                     (1, dd_even), "clock", (0, dd_odd), (6, dd_even), "clock"]


def test_a_ladder_says_where_dd_bounds_nothing():
    """King's and Rook's dd and pimc solve the last 6 tricks only: the rung labelled
    clairvoyant is not an upper bound there, as it is in Pedro."""
    from cli_helpers import run

    line = "dd and pimc solve only the last 6 tricks"
    king_text = run("ladder", "king", "--deals", "8", "--rungs", "heuristic,dd").stdout
    pedro_text = run("ladder", "pedro", "--deals", "8", "--rungs", "heuristic,dd").stdout
    assert line in king_text and line not in pedro_text


def test_the_rungs_are_measured_against_a_rung_that_is_there_and_held_together():
    """Without the heuristic among the rungs the "vs heuristic" column was blank; the
    baseline row read +0.000 [+0.000, +0.000]. The interval held for every rung's
    difference together is wider than each one's own where two or more are compared."""
    from cli_helpers import run

    from analyzer.advice import ladder_z
    from analyzer.stats import Z95

    text = run("ladder", "pedro", "--deals", "40", "--rungs", "random,dd").stdout
    head = next(x for x in text.splitlines() if x.startswith("rung"))
    assert "vs random (paired)" in head and "vs heuristic" not in head
    assert "baseline" in next(x for x in text.splitlines() if x.startswith("random "))
    lad = ladder.ladder("pedro", deals=60, rungs=("random", "heuristic", "dd"), seed=2)
    s = lad.summary("random").set_index("rung")
    for rung in ("heuristic", "dd (clairvoyant)"):
        r = s.loc[rung]
        own, held = r["diff_hi"] - r["diff_lo"], r["diff_family_hi"] - r["diff_family_lo"]
        assert held / own == pytest.approx(ladder_z(2) / Z95, rel=0.02)


def test_a_ladder_s_points_stay_within_what_a_deal_holds():
    """Three deals of 14 read "14.00 ± 0.00" (certain), and a mean of 11 over six deals ran
    to 14.5, past the 14 points a Pedro deal holds (a statistician's example)."""
    import pandas as pd

    lad = ladder.Ladder(
        pd.DataFrame({"deal": range(6), "maker": 0, "bid": [10, 10, 10, 6, 6, 6],
                      "points_heuristic": [14, 14, 14, 3, 9, 12], "made_heuristic": True,
                      "points_dd": [14, 14, 14, 8, 9, 12], "made_dd": True}),
        ("heuristic", "dd"), {"rules": "pedro", "seed": 1, "deals": 6,
                              "opponents": "heuristic"})
    s = lad.summary()
    assert (s["points_hi"] <= 14).all() and (s["points_lo"] >= 0).all()
    cells = lad.by_bid().set_index(["bid", "rung"])
    assert cells.loc[(10, "heuristic"), "points_lo"] < 14  # three deals of 14: not certain
    assert cells.loc[(10, "heuristic"), "points_hi"] == 14


@pytest.mark.parametrize("call, message", [
    (lambda: ladder.ladder("pedro", 10, "x", ("heuristic", "random")), "seed must be"),
    (lambda: ladder.ladder("pedro", 10, -1, ("heuristic", "random")), "seed must be"),
    (lambda: ladder.ladder("pedro", 0, 1, ("heuristic", "random")), "deals must be"),
    (lambda: ladder.ladder("pedro", 10, 1, ("heuristic", "random"), first=-1), "first must be"),
    (lambda: ladder.duplicate("pedro", "heuristic", "random", 0), "deals must be"),
    (lambda: ladder.duplicate("pedro", "heuristic", "random", 10, "x"), "seed must be"),
    (lambda: ladder.duplicate("pedro", "heuristic", "random", 10, worlds=0), "worlds must be"),
])
def test_the_python_api_refuses_what_no_run_can_take(call, message):
    """As compare and the hand evaluations do: a string seed reached the kernel (numba's "No
    matching definition"), 0 deals read as "all 0 hands were declined" or "mean_ci needs
    at least one sample", and a negative seed ran."""
    from analyzer.limits import ArgumentError

    with pytest.raises(ArgumentError, match=message):
        call()


def test_a_duplicate_match_needs_partnerships_and_one_policy_a_side():
    with pytest.raises(NotOffered, match="King has no partnerships"):
        ladder.duplicate("king", "heuristic", "random", 10)
    with pytest.raises(PolicyError, match="player a 'heuristic,random': one policy"):
        ladder.duplicate("pedro", "heuristic,random", "random", 10)


def test_a_bid_level_where_every_deal_read_the_same_is_not_certain():
    """King's by-bid table read "bid 3, n=2: random 6.00 ± 0.00" where both hands took 6
    tricks: King's measures were left unheld. A chooser takes 0 to 13 tricks."""
    import pandas as pd

    lad = ladder.Ladder(
        pd.DataFrame({"deal": range(4), "maker": 0, "bid": [3, 3, 2, 2],
                      "points_random": [6, 6, 4, 9], "made_random": True}),
        ("random",), {"rules": "king", "seed": 1, "deals": 4, "opponents": "heuristic"},
        measure="trump chooser's tricks", span=(0.0, 13.0))
    cells = lad.by_bid().set_index("bid")
    assert 0 < cells.loc[3, "points_lo"] < 6 < cells.loc[3, "points_hi"] <= 13
    text = ladder.render_ladder(lad)
    assert "6.00 ± 0.00" not in text and "6.00 [" in text


def test_king_ladders_hold_their_measures_to_a_hand():
    positive = ladder.ladder("king", 30, 2, ("random", "heuristic"))
    assert positive.span == (0.0, 13.0)
    negative = ladder.ladder("king", 8, 2, ("random", "heuristic"), contract="no-hearts")
    assert negative.span == (-260.0, 0.0)
