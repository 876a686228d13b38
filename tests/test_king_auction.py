"""The King heuristic's trump auction: no seat raises its own standing offer.

After the benefited accepted an offer, the heuristic used to raise that same offer with
nobody competing (``bidlab deal king --contract positive --seed 2 --index 6``: E offers
2, the dealer accepts, W and N pass, then E offers 3 and pays 3). docs/spec.md §3.5 allows
the raise; no sane player makes it. Checked here on the engine's own auction logs.
"""

from __future__ import annotations

import numpy as np
import pytest

from analyzer.games import king
from analyzer.games.common import parse_policies
from analyzer.games.king import engine
from analyzer.games.king.rules import POSITIVE, kernel_params


def auction_logs(seed: int, indices, policy: str = "heuristic"):
    """(records, auction calls as int16[n, 2 * MAX_CALLS]) of positive single hands."""
    idx = np.asarray(indices, dtype=np.int64)
    n = len(idx)
    rec = np.empty((n, engine.NREC), dtype=np.int16)
    hands = np.empty((n, 4), dtype=np.uint64)
    li = np.empty((n, engine.NLOGI), dtype=np.int16)
    engine.log_kernel(seed, idx, np.zeros(n, dtype=np.int64), idx % 4,
                      np.full(n, POSITIVE, dtype=np.int64), kernel_params(king.parse_rules("king")),
                      parse_policies(policy), rec, hands, li)
    return rec, li[:, engine.L_CALLS:engine.L_CALLS + 2 * engine.MAX_CALLS]


def own_raises(rec, calls) -> np.ndarray:
    """Per hand, how many offers a seat made over its own standing offer (the highest,
    neither outbid nor refused), replaying the logged calls in order."""
    n = len(rec)
    high = np.zeros(n, dtype=np.int64)
    holder = np.full(n, -1, dtype=np.int64)
    floor = np.zeros(n, dtype=np.int64)
    count = np.zeros(n, dtype=np.int64)
    n_calls = np.minimum(rec[:, engine.R_NCALLS].astype(np.int64), engine.MAX_CALLS)
    for j in range(engine.MAX_CALLS):
        live = j < n_calls
        seat, act = calls[:, 2 * j].astype(np.int64), calls[:, 2 * j + 1].astype(np.int64)
        offer = live & (act > 0) & (act < engine.ACCEPT)
        standing = (holder == seat) & (high > floor)
        count += offer & standing
        high = np.where(offer, act, high)
        holder = np.where(offer, seat, holder)
        floor = np.where(live & (act == engine.REFUSE), high, floor)
    return count


def test_no_heuristic_seat_raises_its_own_standing_offer_in_100000_hands():
    rec, calls = auction_logs(2, range(100_000))
    raises = own_raises(rec, calls)
    assert raises.sum() == 0, np.flatnonzero(raises)[:10]
    sold = rec[:, engine.R_OUTCOME] == engine.OUT_SELL
    assert 0.2 < sold.mean() < 0.95  # the auction still sells the right in most hands


@pytest.mark.parametrize("seed, index", [(2, 6), (2, 15), (2, 17), (2, 21), (1, 12)])
def test_the_reported_hands_sell_without_an_own_raise(seed, index):
    """The five hands of the report (the holder raised its accepted offer in each): sold at
    the last offer the benefited accepted, and no seat raised its own standing offer."""
    log = king.play_logged(king.parse_rules("king"), seed, [index], contract="positive")[0]
    calls = log["auction"]
    accepted = [k for k, (_, act) in enumerate(calls) if act == "accept"]
    assert log["outcome"] == "sell" and accepted, calls
    offers = [act for _, act in calls[:accepted[-1]] if isinstance(act, int) and act > 0]
    assert log["price"] == offers[-1]
    rec, raw = auction_logs(seed, [index])
    assert own_raises(rec, raw).sum() == 0


def test_the_replay_finds_own_raises_where_they_happen():
    """The checker itself can fail: the random policy raises its own offer at times."""
    rec, calls = auction_logs(2, range(20_000), policy="random")
    assert own_raises(rec, calls).sum() > 0


def test_no_trump_where_allowed_takes_more_tricks_with_the_hands_that_name_it():
    """With allow_no_trump the heuristic never named no trump (its estimate of no trump was
    its best suit's less the trump length), so the flag changed nothing. It now names no
    trump with a balanced hand rich in kings, queens and jacks; on such hands, dealt
    afresh, that takes more tricks than the suit it would have named, on the same deals."""
    import random

    from analyzer.games.king.evaluate import evaluate_king_hand, parse_king_hand
    from analyzer.games.king.policies import best_trump, plays_no_trump

    assert plays_no_trump(np.uint64(parse_king_hand("KS QS JS 2S KH QH 3H KD QD 4D KC 5C 6C")))
    assert not plays_no_trump(np.uint64(parse_king_hand(  # a five-card suit
        "KS QS JS 2S 3S KH QH KD QD 4D KC 5C 6C")))
    assert not plays_no_trump(np.uint64(parse_king_hand(  # balanced, but low cards
        "2S 3S 4S 5S 2H 3H 4H 2D 3D 4D 2C 3C 6C")))
    rules = king.parse_rules("king(allow_no_trump=true)")
    names = ("clubs", "diamonds", "hearts", "spades")
    rng = random.Random(5)
    deck = [r + s for s in "CDHS" for r in "23456789TJQKA"]
    gains = []
    while len(gains) < 60:
        hand = " ".join(rng.sample(deck, 13))
        mask = np.uint64(parse_king_hand(hand))
        if not plays_no_trump(mask):
            continue
        assert best_trump(mask, True) == 4 and best_trump(mask, False) < 4
        ev = evaluate_king_hand(rules, hand, seat="dealer", contract="positive", deals=400,
                                seed=len(gains) + 1)
        tricks = ev.positive.set_index("choice")["tricks"]
        assert tricks["I name my policy's trump"] == tricks["I name no trump"]
        gains.append(tricks["I name no trump"] - tricks[f"I name {names[best_trump(mask, False)]}"])
    g = np.array(gains)
    assert g.mean() - 1.96 * g.std(ddof=1) / np.sqrt(len(g)) > 0, (g.mean(), g.std())
