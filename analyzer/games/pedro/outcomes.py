"""Pedro/Cinch auctions run alone and each outcome played once (:mod:`analyzer.shared_play`):
a hand evaluation's actions, and every seat's actions for the bid chart. Rules that throw
a deal in when nobody bids, or when the stock runs short, make the deal itself depend on
the auction: those play every action in full. May import: shared_play, this game.
"""

from __future__ import annotations

import numpy as np

from ...shared_play import deterministic, outcome_points, play_outcomes, side_points
from ...shared_play import stop as _stop
from . import engine


def _pedro():
    from .. import pedro  # the package's public face (Scenario, run_deals)

    return pedro


def can_share_plays(rules, pols: np.ndarray) -> bool:
    """Whether the actions of a deal may share its plays: no seat draws random numbers before
    the play, and no rule redeals."""
    return deterministic(pols) and not (rules.all_pass == "redeal"
                                        or rules.stock_short == "redeal")



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


def pedro_player(rules, idx, seed, pols, base: np.ndarray):
    """``play(deals, m, t)`` for :func:`play_outcomes`: deals ``idx[deals]`` played with the
    seat m places after the dealer as maker naming t, nobody bidding, under the scenario
    vector ``base`` (its known cards; its force and trump are replaced)."""
    def play(deals, m, t):
        vec = base.copy()
        vec[engine.SC_SEAT], vec[engine.SC_FORCE] = m + 1, engine.FORCE_MAKER
        vec[engine.SC_TRUMP] = t
        rec = _pedro().run_deals(rules, idx[deals], seed, pols, scenario=vec)[0]
        return side_points(rec, m, engine.R_DEALER, engine.R_PTS)

    return play


def pedro_auction(rules, idx, seed, pols, vec: np.ndarray):
    """The auction of scenario ``vec`` on deals ``idx``, run alone: (maker's offset from
    the dealer, bid, trump), one entry per deal."""
    rec = _pedro().run_deals(rules, idx, seed, pols, scenario=_stop(vec))[0]
    dealer = rec[:, engine.R_DEALER].astype(np.int64)
    bidder = rec[:, engine.R_BIDDER].astype(np.int64)
    maker = np.where(bidder >= 0, bidder, dealer)
    return ((maker - dealer) & 3, rec[:, engine.R_BID].astype(np.int64),
            rec[:, engine.R_TRUMP].astype(np.int64))


def pedro_settle(points, outcome, offset, rules):
    """Per deal, the settlement of the side of the seat ``offset`` places after the dealer
    when the auction ends in ``outcome`` (maker offset, bid, trump; ``points`` filled by
    :func:`play_outcomes`): [(own, opponents') under method 1, the same under method 2]."""
    m, bid, trump = outcome
    got = outcome_points(points, m, trump)
    scores = settle_teams(got[:, 0], got[:, 1], bid, rules.m2_diff_to == "bidder_only")
    same_team = ((m - offset) & 1) == 0  # the seat's side made trump
    return [(np.where(same_team, s_m, s_o), np.where(same_team, s_o, s_m))
            for s_m, s_o in scores]


def simulate_batch(samples, rules, hand_mask, offset, known, pols, seed, first, n,
                   actions) -> None:
    """Pedro: grow ``samples`` (evaluate._Samples) by deals first .. first+n-1, for
    ``actions`` ((trump, bid) pairs, (-1, 0) for the pass)."""
    idx = np.arange(first, first + n, dtype=np.int64)

    def vector(**kw):
        return _pedro().Scenario(hand=hand_mask, seat=offset, known=known, **kw).vector()

    play = pedro_player(rules, idx, seed, pols, vector())
    points = np.full((n, 4, 4, 2), -1, dtype=np.int64)
    for t in range(4):
        points[:, offset, t] = play(np.arange(n), offset, t)
        samples.maker_b[t].append(points[:, offset, t, 0].copy())
        samples.maker_o[t].append(points[:, offset, t, 1].copy())

    # the auctions: one per bid level (the trump the seat would name plays no part in
    # them), and the pass
    auctions = {bid: pedro_auction(rules, idx, seed, pols, vector(force="bid", trump=0, bid=bid)
                                   if bid > 0 else vector(force="pass"))
                for bid in sorted({b for _, b in actions})}

    def outcome(t, bid):
        m, b, trump = auctions[bid]
        if t >= 0:  # the seat names t when it wins (or, as dealer, when all pass)
            trump = np.where(m == offset, t, trump)
        return m, b, trump

    outcomes = [outcome(t, bid) for t, bid in actions]
    play_outcomes(points, [(m, trump) for m, _, trump in outcomes], play)
    for k, out in enumerate(outcomes):
        for method, (own, opp) in enumerate(pedro_settle(points, out, offset, rules)):
            samples.own[method][k].append(own)
            samples.opp[method][k].append(opp)


def pedro_seat_batch(rules, seed, pols, first, n, share: bool | None = None):
    """Every seat of deals first .. first+n-1 taking each of its bidding actions, as
    ``bidlab hand`` plays them: the pass, then each bid min_bid .. 14 made in its turn (the
    others bid by their policies and may outbid it; the dealer bids the lowest legal amount
    up to it), naming its policy's trump if it wins.

    Returns ``hands`` (u64[n, 4], the dealt hands by seat offset from the dealer),
    ``trumps`` (int64[n, 4], the trump each seat's policy names from its dealt hand),
    ``sole`` (int64[n, 4], its side's points as the sole bidder naming that trump) and
    ``values`` (int64[n, 4, 1 + bids], its side's settlement net of the opponents' under
    the rules' method, action by action). All actions of a deal are played on the same
    deal; each distinct (maker, trump) outcome of the deal is played once where
    :func:`can_share_plays` (or ``share`` says so), else every action is played in full.
    """
    idx = np.arange(first, first + n, dtype=np.int64)
    bids = list(range(rules.min_bid, 15))
    hands = np.empty((n, 4), dtype=np.uint64)
    trumps = np.empty((n, 4), dtype=np.int64)
    sole = np.empty((n, 4), dtype=np.int64)
    values = np.empty((n, 4, 1 + len(bids)), dtype=np.int64)
    rows = np.arange(n)
    share = can_share_plays(rules, pols) if share is None else share

    def scenario(offset, **kw):
        return _pedro().Scenario(seat=offset, trump=None, **kw).vector()

    if not share:
        for o in range(4):
            rec, dealt = _pedro().run_deals(rules, idx, seed, pols,
                                         scenario=scenario(o, force="maker"))
            seat = (rec[:, engine.R_DEALER].astype(np.int64) + o) & 3
            hands[:, o], trumps[:, o] = dealt[rows, seat], rec[:, engine.R_TRUMP]
            sole[:, o] = side_points(rec, o, engine.R_DEALER, engine.R_PTS)[:, 0]
            for k, bid in enumerate([0, *bids]):
                rec = _pedro().run_deals(rules, idx, seed, pols, scenario=scenario(
                    o, force="bid", bid=bid) if bid else scenario(o, force="pass"))[0]
                col = engine.R_S1 if rules.scoring == 1 else engine.R_S2
                team = (rec[:, engine.R_DEALER].astype(np.int64) + o) & 1
                own = np.where(team == 0, rec[:, col], rec[:, col + 1]).astype(np.int64)
                opp = np.where(team == 0, rec[:, col + 1], rec[:, col]).astype(np.int64)
                values[:, o, k] = own - opp
        return hands, trumps, sole, values

    play = pedro_player(rules, idx, seed, pols, scenario(0))
    points = np.full((n, 4, 4, 2), -1, dtype=np.int64)
    outcomes = []
    for o in range(4):
        rec, dealt = _pedro().run_deals(rules, idx, seed, pols,
                                     scenario=_stop(scenario(o, force="maker")))
        seat = (rec[:, engine.R_DEALER].astype(np.int64) + o) & 3
        hands[:, o], trumps[:, o] = dealt[rows, seat], rec[:, engine.R_TRUMP]
        outcomes.append((np.full(n, o), None, trumps[:, o]))
        for bid in [0, *bids]:
            outcomes.append(pedro_auction(rules, idx, seed, pols, scenario(
                o, force="bid", bid=bid) if bid else scenario(o, force="pass")))
    play_outcomes(points, [(m, trump) for m, _, trump in outcomes], play)
    per_seat = 2 + len(bids)
    for o in range(4):
        sole[:, o] = points[rows, o, trumps[:, o], 0]
        for k in range(1 + len(bids)):
            own, opp = pedro_settle(points, outcomes[o * per_seat + 1 + k], o,
                                    rules)[rules.scoring - 1]
            values[:, o, k] = own - opp
    return hands, trumps, sole, values

