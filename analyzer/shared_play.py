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

from .games import pedro
from .games.pedro import engine
from .games.pedro.policies import RANDOM
from .games.search.setup import P_PLAY_ONLY


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
    per deal. The deals that need an unplayed (m, t) are one ``play(deals, m, t)`` call,
    which returns their points as an array [len(deals), 2]."""
    n, n_makers, n_trumps = points.shape[:3]
    if not points.flags.c_contiguous:
        raise ValueError("points must be C-contiguous: it is filled through a flat view")
    flat = points.reshape(n, n_makers * n_trumps, 2)
    rows = np.arange(n)
    need = np.zeros((n, n_makers * n_trumps), dtype=bool)
    for m, t in outcomes:
        need[rows, m * n_trumps + t] = True
    need &= flat[:, :, 0] < 0
    for key in np.flatnonzero(need.any(axis=0)):
        deals = np.flatnonzero(need[:, key])
        flat[deals, key] = play(deals, key // n_trumps, key % n_trumps)


def outcome_points(points, m, t) -> np.ndarray:
    """[n, 2]: ``points[i, m[i], t[i]]`` for every deal i (see :func:`play_outcomes`)."""
    n, n_makers, n_trumps = points.shape[:3]
    at = 2 * ((np.arange(n) * n_makers + m) * n_trumps + t)  # a flat take: far faster than
    flat = points.ravel()                                     # indexing three axes
    return np.stack([flat.take(at), flat.take(at + 1)], axis=1)


def side_points(rec, m, dealer_col, pts_col):
    """[n, 2]: the points of the side of the seat m places after the dealer, then the
    other side's (``rec`` a game's records, with the dealer and team points at those
    columns)."""
    team = (rec[:, dealer_col].astype(np.int64) + m) & 1
    p0 = rec[:, pts_col].astype(np.int64)
    p1 = rec[:, pts_col + 1].astype(np.int64)
    return np.stack([np.where(team == 0, p0, p1), np.where(team == 0, p1, p0)], axis=1)


def _stop(vec: np.ndarray) -> np.ndarray:
    """A scenario vector that stops once trump is named (SC_STOP): the auction's outcome."""
    return np.append(vec, np.uint64(1))


# ---- Pedro / Cinch ----------------------------------------------------------------------


def pedro_player(rules, idx, seed, pols, base: np.ndarray):
    """``play(deals, m, t)`` for :func:`play_outcomes`: deals ``idx[deals]`` played with the
    seat m places after the dealer as maker naming t, nobody bidding, under the scenario
    vector ``base`` (its known cards; its force and trump are replaced)."""
    def play(deals, m, t):
        vec = base.copy()
        vec[engine.SC_SEAT], vec[engine.SC_FORCE] = m + 1, engine.FORCE_MAKER
        vec[engine.SC_TRUMP] = t
        rec = pedro.run_deals(rules, idx[deals], seed, pols, scenario=vec)[0]
        return side_points(rec, m, engine.R_DEALER, engine.R_PTS)

    return play


def pedro_auction(rules, idx, seed, pols, vec: np.ndarray):
    """The auction of scenario ``vec`` on deals ``idx``, run alone: (maker's offset from
    the dealer, bid, trump), one entry per deal."""
    rec = pedro.run_deals(rules, idx, seed, pols, scenario=_stop(vec))[0]
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
        return pedro.Scenario(hand=hand_mask, seat=offset, known=known, **kw).vector()

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
    others bid by their policies and may outbid it), naming its policy's trump if it wins.

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
        return pedro.Scenario(seat=offset, trump=None, **kw).vector()

    if not share:
        for o in range(4):
            rec, dealt = pedro.run_deals(rules, idx, seed, pols,
                                         scenario=scenario(o, force="maker"))
            seat = (rec[:, engine.R_DEALER].astype(np.int64) + o) & 3
            hands[:, o], trumps[:, o] = dealt[rows, seat], rec[:, engine.R_TRUMP]
            sole[:, o] = side_points(rec, o, engine.R_DEALER, engine.R_PTS)[:, 0]
            for k, bid in enumerate([0, *bids]):
                rec = pedro.run_deals(rules, idx, seed, pols, scenario=scenario(
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
        rec, dealt = pedro.run_deals(rules, idx, seed, pols,
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


# ---- Rook -------------------------------------------------------------------------------


def _rook():
    from .games import rook  # here: Pedro need not compile Rook
    from .games.rook import engine as _rook_engine

    return _rook_engine, rook


def rook_player(rules, idx, seed, pols, base: np.ndarray):
    """``play(deals, m, t)``: hands ``idx[deals]`` played with the seat m places after the
    dealer as declarer calling t, nobody else bidding, under the scenario vector ``base``."""
    rook_engine, rook = _rook()

    def play(deals, m, t):
        vec = base.copy()
        vec[rook_engine.SC_SEAT], vec[rook_engine.SC_FORCE] = m + 1, rook_engine.FORCE_DECLARER
        vec[rook_engine.SC_TRUMP], vec[rook_engine.SC_BID] = int(t), rules.bids[0]
        rec = rook.run_deals(rules, idx[deals], seed, pols, scenario=vec)[0]
        return side_points(rec, m, rook_engine.R_DEALER, rook_engine.R_PTS)

    return play


def rook_auction(rules, idx, seed, pols, vec: np.ndarray):
    """The auction (and the trump call) of scenario ``vec`` on hands ``idx``, run alone:
    (declarer's offset from the dealer, bid, trump), one entry per hand."""
    rook_engine, rook = _rook()
    rec = rook.run_deals(rules, idx, seed, pols, scenario=_stop(vec))[0]
    dealer = rec[:, rook_engine.R_DEALER].astype(np.int64)
    m = (rec[:, rook_engine.R_DECLARER].astype(np.int64) - dealer) & 3
    return m, rec[:, rook_engine.R_BID].astype(np.int64), rec[:, rook_engine.R_TRUMP].astype(
        np.int64)


def rook_settle(points, outcome, offset, rules):
    """Per hand, (own, opponents') settlement (RULES.md §4.9) of the side of the seat
    ``offset`` places after the dealer when the auction ends in ``outcome``."""
    m, bid, trump = outcome
    got = outcome_points(points, m, trump)
    made = got[:, 0] >= bid
    s_decl = np.where(made, got[:, 0], -bid)
    s_opp = got[:, 1] if rules.opp_scores == "always" else np.where(made, got[:, 1], 0)
    same_team = ((m - offset) & 1) == 0
    return np.where(same_team, s_decl, s_opp), np.where(same_team, s_opp, s_decl)


def simulate_rook_batch(samples, rules, hand_mask, offset, known, pols, seed, first, n) -> None:
    """Rook: grow ``samples`` (evaluate_rook._Samples) by hands first .. first+n-1: the seat
    as declarer for each trump, then each ceiling ``rules.bids[k]`` and the pass."""
    _, rook = _rook()
    idx = np.arange(first, first + n, dtype=np.int64)

    def vector(**kw):
        return rook.Scenario(hand=hand_mask, seat=offset, known=known, **kw).vector(
            rules.hand_size)

    play = rook_player(rules, idx, seed, pols, vector())
    points = np.full((n, 4, 5, 2), -1, dtype=np.int64)
    for t in samples.trumps:
        points[:, offset, t] = play(np.arange(n), offset, t)
        samples.maker_b[t].append(points[:, offset, t, 0].copy())
        samples.maker_o[t].append(points[:, offset, t, 1].copy())

    outcomes = [rook_auction(rules, idx, seed, pols, vector(force="pass") if
                             k == samples.n_actions - 1 else
                             vector(force="ceiling", bid=rules.bids[k]))
                for k in range(samples.n_actions)]
    play_outcomes(points, [(m, trump) for m, _, trump in outcomes], play)
    for k, out in enumerate(outcomes):
        own, opp = rook_settle(points, out, offset, rules)
        samples.own[k].append(own)
        samples.opp[k].append(opp)
        samples.declared[k].append(out[0] == offset)


def rook_seat_batch(rules, seed, pols, first, n, share: bool | None = None):
    """Every seat of hands first .. first+n-1 taking each of its bidding actions, as
    ``bidlab hand rook`` plays them: the pass, then "bid up to b" for each b of
    ``rules.bids`` (it raises by the minimum while that is at most b; the others bid by
    their policies), calling trump by its policy after the widow and the pass if it wins.

    Returns ``hands`` (u64[n, 4] by seat offset from the dealer), ``sole`` (int64[n, 4],
    its side's points as declarer with nobody else bidding) and ``values`` (int64[n, 4,
    1 + len(bids)], its side's settlement net of the opponents', action by action), played
    as :func:`pedro_seat_batch` plays them.
    """
    rook_engine, rook = _rook()
    idx = np.arange(first, first + n, dtype=np.int64)
    k_actions = 1 + len(rules.bids)
    hands = np.empty((n, 4), dtype=np.uint64)
    sole = np.empty((n, 4), dtype=np.int64)
    values = np.empty((n, 4, k_actions), dtype=np.int64)
    rows = np.arange(n)

    def scenario(offset, **kw):
        return rook.Scenario(seat=offset, **kw).vector(rules.hand_size)

    def action(o, k):
        return (scenario(o, force="pass") if k == 0 else
                scenario(o, force="ceiling", bid=rules.bids[k - 1]))

    if not (can_share_plays(rules, pols) if share is None else share):
        for o in range(4):
            rec, dealt = rook.run_deals(rules, idx, seed, pols, scenario=scenario(
                o, force="declarer", bid=rules.bids[0]))
            seat = (rec[:, rook_engine.R_DEALER].astype(np.int64) + o) & 3
            hands[:, o] = dealt[rows, seat]
            sole[:, o] = side_points(rec, o, rook_engine.R_DEALER, rook_engine.R_PTS)[:, 0]
            for k in range(k_actions):
                rec = rook.run_deals(rules, idx, seed, pols, scenario=action(o, k))[0]
                team = (rec[:, rook_engine.R_DEALER].astype(np.int64) + o) & 1
                s0 = rec[:, rook_engine.R_SCORE].astype(np.int64)
                s1 = rec[:, rook_engine.R_SCORE + 1].astype(np.int64)
                values[:, o, k] = np.where(team == 0, s0 - s1, s1 - s0)
        return hands, sole, values

    play = rook_player(rules, idx, seed, pols, scenario(0))
    points = np.full((n, 4, 5, 2), -1, dtype=np.int64)
    outcomes = []
    for o in range(4):
        rec, dealt = rook.run_deals(rules, idx, seed, pols, scenario=_stop(scenario(
            o, force="declarer", bid=rules.bids[0])))
        seat = (rec[:, rook_engine.R_DEALER].astype(np.int64) + o) & 3
        hands[:, o] = dealt[rows, seat]
        outcomes.append((np.full(n, o), None, rec[:, rook_engine.R_TRUMP].astype(np.int64)))
        outcomes += [rook_auction(rules, idx, seed, pols, action(o, k))
                     for k in range(k_actions)]
    play_outcomes(points, [(m, trump) for m, _, trump in outcomes], play)
    for o in range(4):
        sole[:, o] = points[rows, o, outcomes[o * (1 + k_actions)][2], 0]
        for k in range(k_actions):
            own, opp = rook_settle(points, outcomes[o * (1 + k_actions) + 1 + k], o, rules)
            values[:, o, k] = own - opp
    return hands, sole, values
