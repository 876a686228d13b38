"""Hand evaluation (Pedro, Cinch, Rook) that plays each auction outcome of a deal once.

`bidlab hand` compares 4 x (15 - min_bid) bids and the pass on common deals. Played
one by one that is some 60 simulations of every deal, yet the play of a Pedro deal
depends only on the deal, the maker and the trump: never on the amount bid. So
here each deal's auctions are run alone (the kernel's stop-after-the-auction
scenario), the distinct (maker, trump) outcomes are played once each, and every
action is settled from those points as the kernel settles (RULES.md §1.9). With
policies that draw no random numbers before the play (all but ``random``) the
result is the very result of playing every action, which a test checks.

Rook is the same with its ceilings (raise up to b) for bids and the declarer's trump
for the maker's. Rules that throw a deal in when nobody bids, or when the stock runs
short, make the deal itself depend on the auction: they use the one-by-one path.
"""

from __future__ import annotations

import numpy as np

from .games import _pedro_engine as engine
from .games import pedro
from .games._pedro_policies import RANDOM
from .games._search_setup import P_PLAY_ONLY


def can_share_plays(rules, pols: np.ndarray) -> bool:
    """Whether the actions of a deal (Pedro, Cinch or Rook) may share its plays: no seat
    draws random numbers before the play, and no rule redeals."""
    deterministic = bool((pols[:4] != RANDOM).all()) or (
        pols.shape[0] > P_PLAY_ONLY and pols[P_PLAY_ONLY] == 1)
    redeals = rules.all_pass == "redeal" or getattr(rules, "stock_short", "") == "redeal"
    return deterministic and not redeals


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


def play_outcomes(points, outcomes, play) -> None:
    """Fill ``points[i, m, t]`` (the maker's side's and the other side's points of deal i
    played with the seat m places after the dealer as maker calling trump t; -1 while not
    played) for every outcome of ``outcomes``, a list of (m, t) array pairs with one entry
    per deal. Each group of deals sharing an unplayed (m, t) is one ``play(deals, m, t)``
    call, which returns their points as an array [len(deals), 2]."""
    rows = np.arange(points.shape[0])
    for m, t in outcomes:
        todo = points[rows, m, t, 0] < 0
        for mm in np.unique(m[todo]):
            for tt in np.unique(t[todo & (m == mm)]):
                deals = np.flatnonzero(todo & (m == mm) & (t == tt))
                points[deals, mm, tt] = play(deals, mm, tt)


def side_points(rec, m, dealer_col, pts_col):
    """[n, 2]: the points of the side of the seat m places after the dealer, then the
    other side's (``rec`` a game's records, with the dealer and team points at those
    columns)."""
    team = (rec[:, dealer_col].astype(np.int64) + m) & 1
    p0 = rec[:, pts_col].astype(np.int64)
    p1 = rec[:, pts_col + 1].astype(np.int64)
    return np.stack([np.where(team == 0, p0, p1), np.where(team == 0, p1, p0)], axis=1)


def simulate_batch(samples, rules, hand_mask, offset, known, pols, seed, first, n,
                   actions) -> None:
    """Pedro: grow ``samples`` (evaluate._Samples) by deals first .. first+n-1, for
    ``actions`` ((trump, bid) pairs, (-1, 0) for the pass)."""
    idx = np.arange(first, first + n, dtype=np.int64)

    def vector(**kw):
        return pedro.Scenario(hand=hand_mask, seat=offset, known=known, **kw).vector()

    def play(deals, m, t):
        vec = vector(force="maker", trump=t)
        vec[engine.SC_SEAT] = m + 1
        rec = pedro.run_deals(rules, idx[deals], seed, pols, scenario=vec)[0]
        return side_points(rec, m, engine.R_DEALER, engine.R_PTS)

    points = np.full((n, 4, 4, 2), -1, dtype=np.int64)
    for t in range(4):
        points[:, offset, t] = play(np.arange(n), offset, t)
        samples.maker_b[t].append(points[:, offset, t, 0].copy())
        samples.maker_o[t].append(points[:, offset, t, 1].copy())

    # the auctions: one per bid level (the trump the seat would name plays no part in
    # them), and the pass
    auctions = {}
    for bid in sorted({b for _, b in actions}):
        vec = (vector(force="bid", trump=0, bid=bid) if bid > 0 else vector(force="pass"))
        rec = pedro.run_deals(rules, idx, seed, pols, scenario=np.append(vec, np.uint64(1)))[0]
        dealer = rec[:, engine.R_DEALER].astype(np.int64)
        bidder = rec[:, engine.R_BIDDER].astype(np.int64)
        maker = np.where(bidder >= 0, bidder, dealer)
        auctions[bid] = ((maker - dealer) & 3, rec[:, engine.R_BID].astype(np.int64),
                         rec[:, engine.R_TRUMP].astype(np.int64))

    def outcome(t, bid):
        m, b, trump = auctions[bid]
        if t >= 0:  # the seat names t when it wins (or, as dealer, when all pass)
            trump = np.where(m == offset, t, trump)
        return m, b, trump

    outcomes = [outcome(t, bid) for t, bid in actions]
    play_outcomes(points, [(m, trump) for m, _, trump in outcomes], play)
    rows = np.arange(n)
    for k, (m, b, trump) in enumerate(outcomes):
        got = points[rows, m, trump]
        scores = settle_teams(got[:, 0], got[:, 1], b, rules.m2_diff_to == "bidder_only")
        same_team = ((m - offset) & 1) == 0  # the seat's side made trump
        for method, (s_m, s_o) in enumerate(scores):
            samples.own[method][k].append(np.where(same_team, s_m, s_o))
            samples.opp[method][k].append(np.where(same_team, s_o, s_m))


def simulate_rook_batch(samples, rules, hand_mask, offset, known, pols, seed, first, n) -> None:
    """Rook: grow ``samples`` (evaluate_rook._Samples) by hands first .. first+n-1: the seat
    as declarer for each trump, then each ceiling ``rules.bids[k]`` and the pass."""
    from .games import _rook_engine as rook_engine
    from .games import rook

    idx = np.arange(first, first + n, dtype=np.int64)

    def vector(**kw):
        return rook.Scenario(hand=hand_mask, seat=offset, known=known, **kw).vector(
            rules.hand_size)

    def play(deals, m, t):
        vec = vector(force="declarer", trump=int(t), bid=rules.bids[0])
        vec[rook_engine.SC_SEAT] = m + 1
        rec = rook.run_deals(rules, idx[deals], seed, pols, scenario=vec)[0]
        return side_points(rec, m, rook_engine.R_DEALER, rook_engine.R_PTS)

    points = np.full((n, 4, 5, 2), -1, dtype=np.int64)
    for t in samples.trumps:
        points[:, offset, t] = play(np.arange(n), offset, t)
        samples.maker_b[t].append(points[:, offset, t, 0].copy())
        samples.maker_o[t].append(points[:, offset, t, 1].copy())

    outcomes = []
    for k in range(samples.n_actions):
        last = k == samples.n_actions - 1
        vec = vector(force="pass") if last else vector(force="ceiling", bid=rules.bids[k])
        rec = rook.run_deals(rules, idx, seed, pols, scenario=np.append(vec, np.uint64(1)))[0]
        dealer = rec[:, rook_engine.R_DEALER].astype(np.int64)
        m = (rec[:, rook_engine.R_DECLARER].astype(np.int64) - dealer) & 3
        outcomes.append((m, rec[:, rook_engine.R_BID].astype(np.int64),
                         rec[:, rook_engine.R_TRUMP].astype(np.int64)))
    play_outcomes(points, [(m, trump) for m, _, trump in outcomes], play)
    rows = np.arange(n)
    for k, (m, bid, trump) in enumerate(outcomes):
        got = points[rows, m, trump]
        made = got[:, 0] >= bid
        s_decl = np.where(made, got[:, 0], -bid)
        s_opp = got[:, 1] if rules.opp_scores == "always" else np.where(made, got[:, 1], 0)
        same_team = ((m - offset) & 1) == 0
        samples.own[k].append(np.where(same_team, s_decl, s_opp))
        samples.opp[k].append(np.where(same_team, s_opp, s_decl))
        samples.declared[k].append(m == offset)
