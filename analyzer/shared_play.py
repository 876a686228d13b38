"""Pedro hand evaluation that plays each auction outcome of a deal once.

`bidlab hand` compares 4 x (15 - min_bid) bids and the pass on common deals. Played
one by one that is some 60 simulations of every deal, yet the play of a Pedro deal
depends only on the deal, the maker and the trump: never on the amount bid. So
here each deal's auctions are run alone (the kernel's stop-after-the-auction
scenario), the distinct (maker, trump) outcomes are played once each, and every
action is settled from those points as the kernel settles (RULES.md §1.9). With
policies that draw no random numbers before the play (all but ``random``) the
result is the very result of playing every action, which a test checks.

Rules that throw a deal in when nobody bids, or when the stock runs short, make the
deal itself depend on the auction: they use the one-by-one path.
"""

from __future__ import annotations

import numpy as np

from .games import _pedro_engine as engine
from .games import pedro
from .games._pedro_policies import RANDOM
from .games._pimc import P_PLAY_ONLY
from .games.pedro_rules import kernel_params


def can_share_plays(rules: pedro.Rules, pols: np.ndarray) -> bool:
    """Whether the actions of a deal may share its plays: no seat draws random numbers
    before the play, and no rule redeals."""
    deterministic = bool((pols[:4] != RANDOM).all()) or (
        pols.shape[0] > P_PLAY_ONLY and pols[P_PLAY_ONLY] == 1)
    return deterministic and rules.all_pass != "redeal" and rules.stock_short != "redeal"


def _kernel(rules, idx, seed, pols, vec):
    rec = np.empty((len(idx), engine.NREC), dtype=np.int8)
    hands = np.empty((len(idx), 4), dtype=np.uint64)
    if len(idx):
        engine.simulate_kernel(seed, idx, pedro.DEFAULT_CHUNK, kernel_params(rules), pols,
                               vec, rec, hands)
    return rec


def settle_teams(b_pts, o_pts, bid, m2_bidder_only: bool):
    """Per-deal (maker's, other side's) settlement under methods 1 and 2, as the kernel
    settles: a made bid scores what each side took (method 1) or the difference (method
    2); a set costs the maker the bid; bid 0 is a hand without contract."""
    made = b_pts >= bid
    contract = bid > 0
    diff = b_pts - o_pts
    s1_m = np.where(contract & ~made, -bid, b_pts)
    s1_o = o_pts
    s2_m = np.where(made, np.maximum(diff, 0), 0)
    gap = np.maximum(-diff, 0)
    if m2_bidder_only:
        gap = np.where(contract, 0, gap)
    s2_o = np.where(made, gap, o_pts + bid)
    return (s1_m, s1_o), (s2_m, s2_o)


def simulate_batch(samples, rules, hand_mask, offset, known, pols, seed, first, n,
                   actions) -> None:
    """Grow ``samples`` (evaluate._Samples) by deals first .. first+n-1, for ``actions``
    ((trump, bid) pairs, (-1, 0) for the pass)."""
    idx = np.arange(first, first + n, dtype=np.int64)
    rows = np.arange(n)

    def vector(**kw):
        return pedro.Scenario(hand=hand_mask, seat=offset, known=known, **kw).vector()

    # points[i, m, t, side]: deal i played with the seat m places after the dealer as
    # maker naming t; side 0 the maker's team, 1 the other (-1: not played)
    points = np.full((n, 4, 4, 2), -1, dtype=np.int64)

    def play(deals, m, t):
        vec = vector(force="maker", trump=t)
        vec[engine.SC_SEAT] = m + 1
        rec = _kernel(rules, idx[deals], seed, pols, vec)
        team = (rec[:, engine.R_DEALER].astype(np.int64) + m) & 1
        p0 = rec[:, engine.R_PTS].astype(np.int64)
        p1 = rec[:, engine.R_PTS + 1].astype(np.int64)
        points[deals, m, t, 0] = np.where(team == 0, p0, p1)
        points[deals, m, t, 1] = np.where(team == 0, p1, p0)

    for t in range(4):
        play(rows, offset, t)
        samples.maker_b[t].append(points[:, offset, t, 0].copy())
        samples.maker_o[t].append(points[:, offset, t, 1].copy())

    # the auctions: one per bid level (the trump the seat would name plays no part in
    # them), and the pass
    auctions = {}
    for bid in sorted({b for _, b in actions}):
        vec = (vector(force="bid", trump=0, bid=bid) if bid > 0 else vector(force="pass"))
        rec = _kernel(rules, idx, seed, pols, np.append(vec, np.uint64(1)))
        dealer = rec[:, engine.R_DEALER].astype(np.int64)
        bidder = rec[:, engine.R_BIDDER].astype(np.int64)
        maker = np.where(bidder >= 0, bidder, dealer)
        auctions[bid] = ((maker - dealer) & 3, rec[:, engine.R_BID].astype(np.int64),
                         rec[:, engine.R_TRUMP].astype(np.int64), dealer)

    def outcome(t, bid):
        m, b, trump, dealer = auctions[bid]
        if t >= 0:  # the seat names t when it wins (or, as dealer, when all pass)
            trump = np.where(m == offset, t, trump)
        return m, b, trump, dealer

    # the other makers' outcomes, each played once
    for t, bid in actions:
        m, _, trump, _ = outcome(t, bid)
        todo = (m != offset) & (points[rows, m, trump, 0] < 0)
        for mm in range(4):
            for tt in range(4):
                deals = np.flatnonzero(todo & (m == mm) & (trump == tt))
                if len(deals):
                    play(deals, mm, tt)

    for k, (t, bid) in enumerate(actions):
        m, b, trump, dealer = outcome(t, bid)
        got = points[rows, m, trump]
        scores = settle_teams(got[:, 0], got[:, 1], b, rules.m2_diff_to == "bidder_only")
        same_team = ((m - offset) & 1) == 0  # the seat's side made trump
        for method, (s_m, s_o) in enumerate(scores):
            samples.own[method][k].append(np.where(same_team, s_m, s_o))
            samples.opp[method][k].append(np.where(same_team, s_o, s_m))
