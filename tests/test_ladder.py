"""The policy ladder's premise, that every rung plays the same contracts, in Rook as in
Pedro: with the play-only flag a random seat makes its calls by the heuristic and only
its cards are random."""

from __future__ import annotations

import numpy as np
import pytest

from analyzer import ladder
from analyzer.games import common, rook
from analyzer.games._pimc import P_PLAY_ONLY
from analyzer.games.common import PolicyError

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


def test_king_has_no_ladder():
    with pytest.raises(PolicyError, match="bidding side"):
        ladder.ladder("king", deals=5)
