"""The Pedro/Cinch deal kernel: deal, bid, name trump, discard/draw/rob, play, score.

One function, :func:`play_deal`, plays a whole deal and writes one fixed-width
record; when asked it also writes a trick-by-trick log (the same code path, so
the logged deals the reference checks are exactly the deals the batch
simulator plays). :func:`simulate_kernel` runs it over a range of deal indices
in parallel chunks; :func:`log_kernel` runs it serially with logging.

Rule decisions RULES.md leaves open are listed in
``tests/reference/PEDRO_LOG_FORMAT.md``; the reference follows the same list.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange, types

from ..bits import ZERO, bit, lsb, popcount
from ..rng import DEAL_STREAM, POLICY_STREAM, shuffle, stream_key
from ._pedro_core import (
    PW_ACE,
    PW_JACK,
    PW_LEFT,
    PW_RIGHT,
    PW_TEN,
    PW_TWO,
    card_of_power,
    effective_suit,
    legal_moves,
    low_power,
    strength,
    top_power,
    trump_mask,
)
from ._pedro_policies import (
    choose_bid,
    choose_dump,
    choose_free_keep,
    choose_keep_trumps,
    choose_play,
    choose_rob,
    choose_trump,
    highest_plain,
)
from .pedro_rules import (
    P_ALL_PASS,
    P_DISCARDED,
    P_EXCESS,
    P_HIGH_LOW,
    P_KEEP_FREE,
    P_LOW_TO,
    P_M2_DIFF,
    P_MIN_BID,
    P_ROB_FACE,
    P_SCORING,
    P_STOCK_SHORT,
    P_TRUMP_FOLLOW,
)

CARDS_52 = np.array([16 * s + r for s in range(4) for r in range(13)], dtype=np.int64)
MAX_ATTEMPTS = 1000  # a REDEAL loop gives up (no contract) after this many throw-ins

# ---- per-deal record: int8 columns -----------------------------------------------------
REC_COLUMNS = (
    "dealer", "bidder", "bid", "trump", "redeals",
    "bid_seat0", "bid_seat1", "bid_seat2", "bid_seat3",
    "high", "low", "jack", "game", "right_pedro", "left_pedro",
    "points0", "points1", "dead_points", "made",
    "score1_team0", "score1_team1", "score2_team0", "score2_team1",
    "stock_short", "n_dead",
)  # fmt: skip
(R_DEALER, R_BIDDER, R_BID, R_TRUMP, R_REDEALS, R_BID_SEAT, _, _, _, R_HIGH, R_LOW, R_JACK,
 R_GAME, R_RIGHT, R_LEFT, R_PTS, _, R_DEAD_PTS, R_MADE, R_S1, _, R_S2, _, R_SHORT,
 R_NDEAD) = range(len(REC_COLUMNS))  # fmt: skip
NREC = len(REC_COLUMNS)
ELEMENTS = ("high", "low", "jack", "game", "right_pedro", "left_pedro")
ELEMENT_VALUES = np.array([1, 1, 1, 1, 5, 5], dtype=np.int64)

# ---- log layout ------------------------------------------------------------------------
# int16 row: header, bids in bidding order, stock order, tricks, nothing else
L_DEALER, L_REDEALS, L_BIDDER, L_BID, L_TRUMP, L_BIDS, L_STOCK = 0, 1, 2, 3, 4, 5, 9
L_TRICKS = 25  # + 10 per trick: leader, winner, then (seat, card) x 4; -1 = none
L_NTRICKS = L_TRICKS + 60
NLOGI = L_NTRICKS + 1
# uint64 row: dealt hands, kept, drawn, dead by seat, dumps by seat, stock left, start hands
U_HANDS, U_KEPT, U_DRAWN, U_DEAD, U_DUMPS, U_STOCK_LEFT, U_START = 0, 4, 8, 12, 16, 20, 21
NLOGU = 25


@njit(cache=True)
def _discard_owner(card, dead_by, maker, rule):
    """Team scoring a dead (discarded) counting trump under DISCARDED_COUNTER_SCORING."""
    for s in range(4):
        if dead_by[s] & bit(card):
            if rule == 1:  # s000_mistake_rule: an adversary's discard scores for the maker
                return (maker & 1) if (s & 1) != (maker & 1) else -1
            if rule == 2:  # s002_to_trump_maker
                return maker & 1
            return -1
    return -1


@njit(cache=True)
def _owner(card, won0, won1, start, dead_by, maker, rule, to_holder):
    """Team credited with a point card: trick winner (or holder), else the discard rule."""
    b = bit(card)
    if to_holder:
        for s in range(4):
            if start[s] & b:
                return s & 1
    elif won0 & b:
        return 0
    elif won1 & b:
        return 1
    return _discard_owner(card, dead_by, maker, rule)


@njit(cache=True)
def play_deal(seed, index, rp, pols, deck, hands, start, dead_by, prng, drng, rec, li, lu, log):
    """Play deal ``index`` of ``seed`` under rule vector ``rp`` and seat policies ``pols``.

    Scratch arrays (deck, hands, start, dead_by, prng, drng) belong to the caller so a
    chunk allocates them once. ``rec`` receives the record; ``li``/``lu`` the log when
    ``log`` is true.
    """
    dealer = index % 4
    eldest = (dealer + 1) % 4
    min_bid = rp[P_MIN_BID]
    prng[0] = stream_key(seed, index, POLICY_STREAM)
    attempt = 0
    while True:
        # -- deal: 9 cards to each seat, 16 to the stock (top = deck[36]) --------------
        for k in range(52):
            deck[k] = CARDS_52[k]
        drng[0] = stream_key(seed, index, DEAL_STREAM + attempt)
        shuffle(drng, deck)
        for s in range(4):
            h = ZERO
            for k in range(9 * s, 9 * s + 9):
                h |= bit(deck[k])
            hands[s] = h
            if log:
                lu[U_HANDS + s] = h
        # -- bidding: one round from eldest --------------------------------------------
        high, bidder = 0, -1
        for k in range(4):
            seat = (eldest + k) % 4
            b = choose_bid(pols[seat], hands[seat], seat, dealer, high, bidder, min_bid, prng)
            rec[R_BID_SEAT + seat] = b
            if log:
                li[L_BIDS + k] = b
            if b > 0:
                high, bidder = b, seat
        bid = high
        if bidder < 0:
            if rp[P_ALL_PASS] == 1:
                bidder, bid = dealer, min_bid
            elif rp[P_ALL_PASS] == 2 and attempt < MAX_ATTEMPTS:
                attempt += 1
                continue
        maker = bidder if bidder >= 0 else dealer
        trump = choose_trump(pols[maker], hands[maker], maker == dealer, prng)
        tm = trump_mask(trump)
        # -- discard, draw, rob --------------------------------------------------------
        spos = 36
        short = 0
        dead = ZERO
        stock_left = ZERO
        redeal = False
        for k in range(4):
            seat = (eldest + k) % 4
            pol = pols[seat]
            h = hands[seat]
            kept = h & tm
            dead_by[seat] = ZERO
            if seat == dealer and rp[P_EXCESS] == 0:
                stock = ZERO
                for j in range(spos, 52):
                    stock |= bit(deck[j])
                pool = kept | (stock & tm)
                if popcount(pool) > 6:
                    # S002: with more than 6 trumps in hand and stock the dealer keeps the 6
                    # he wants; his own trumps left out are dead.
                    final = choose_keep_trumps(pol, pool, 6, trump, prng)
                    dead_by[seat] = kept & ~final
                    dead |= dead_by[seat]
                    stock_left = stock & ~final
                    hands[seat] = final
                    if log:
                        lu[U_KEPT + seat] = final & h
                        lu[U_DRAWN + seat] = final & stock
                        lu[U_DEAD + seat] = dead_by[seat]
                    continue
            if popcount(kept) > 6 and rp[P_EXCESS] == 0:
                keep = choose_keep_trumps(pol, kept, 6, trump, prng)
                dead_by[seat] = kept & ~keep
                dead |= dead_by[seat]
                kept = keep
            plain = h & ~tm
            if rp[P_KEEP_FREE] == 1 and plain != ZERO and popcount(kept) < 6:
                kept |= choose_free_keep(pol, plain, 6 - popcount(kept), prng)
            need = max(0, 6 - popcount(kept))
            remaining = 52 - spos
            if need > remaining:
                short = 1
                if rp[P_STOCK_SHORT] == 0:
                    kept |= highest_plain(plain & ~kept, need - remaining)
                elif rp[P_STOCK_SHORT] == 2:
                    redeal = True
                    break
                need = remaining
            got = ZERO
            if seat != dealer:
                for j in range(spos, spos + need):
                    got |= bit(deck[j])
                spos += need
            else:
                stock = ZERO
                for j in range(spos, 52):
                    stock |= bit(deck[j])
                got = choose_rob(pol, stock, need, trump, prng)
                stock_left = stock & ~got
            hands[seat] = kept | got
            if log:
                lu[U_KEPT + seat] = kept
                lu[U_DRAWN + seat] = got
                lu[U_DEAD + seat] = dead_by[seat]
        if redeal and attempt < MAX_ATTEMPTS:
            attempt += 1
            continue
        break

    # -- play ----------------------------------------------------------------------------
    for s in range(4):
        start[s] = hands[s]
    known_out = dead
    if rp[P_ROB_FACE] == 1:
        known_out |= stock_left & tm
    forbid = rp[P_TRUMP_FOLLOW] == 1
    keep_all = rp[P_EXCESS] == 1
    low_to_winner = rp[P_LOW_TO] == 0
    played = ZERO
    won0 = ZERO
    won1 = ZERO
    leader = maker
    n_tricks = 0
    if log:
        for j in range(L_TRICKS, L_NTRICKS):
            li[j] = -1
        for s in range(4):
            lu[U_DUMPS + s] = ZERO
    while hands[0] | hands[1] | hands[2] | hands[3]:
        while hands[leader] == ZERO:
            leader = (leader + 1) % 4
        n_active = 0
        for s in range(4):
            if hands[s] != ZERO:
                n_active += 1
        lead_suit = -1
        best_seat, best_str = -1, -1
        trick = ZERO
        pos = 0
        for j in range(4):
            seat = (leader + j) % 4
            h = hands[seat]
            if h == ZERO:
                continue
            legal = legal_moves(h, lead_suit, trump, forbid)
            unseen = tm & ~played & ~h & ~known_out
            if seat == dealer:
                unseen &= ~stock_left
            c = choose_play(pols[seat], h, legal, trump, lead_suit, best_seat, best_str, trick,
                            pos, n_active, seat, unseen, low_to_winner, prng)
            if lead_suit < 0:
                lead_suit = effective_suit(c, trump)
            st = strength(c, lead_suit, trump)
            if st > best_str:
                best_seat, best_str = seat, st
            h &= ~bit(c)
            trick |= bit(c)
            if keep_all and n_tricks == 0 and popcount(h) > 5:
                d = choose_dump(pols[seat], h, popcount(h) - 5, trump, prng)
                h &= ~d
                trick |= d
                if log:
                    lu[U_DUMPS + seat] = d
            hands[seat] = h
            played |= trick
            if log:
                li[L_TRICKS + 10 * n_tricks + 2 + 2 * pos] = seat
                li[L_TRICKS + 10 * n_tricks + 3 + 2 * pos] = c
            pos += 1
        if best_seat & 1:
            won1 |= trick
        else:
            won0 |= trick
        if log:
            li[L_TRICKS + 10 * n_tricks] = leader
            li[L_TRICKS + 10 * n_tricks + 1] = best_seat
        leader = best_seat
        n_tricks += 1

    # -- score -----------------------------------------------------------------------------
    rule = rp[P_DISCARDED]
    in_play = start[0] | start[1] | start[2] | start[3]
    owners = rec[R_HIGH:R_HIGH + 6]  # element owners are written straight into the record
    if rp[P_HIGH_LOW] == 0:
        owners[0] = _owner(card_of_power(PW_ACE, trump), won0, won1, start, dead_by, maker,
                           rule, True)
        owners[1] = _owner(card_of_power(PW_TWO, trump), won0, won1, start, dead_by, maker,
                           rule, not low_to_winner)
    elif in_play & tm:
        owners[0] = _owner(card_of_power(top_power(in_play, trump), trump), won0, won1, start,
                           dead_by, maker, 0, True)
        owners[1] = _owner(card_of_power(low_power(in_play, trump), trump), won0, won1, start,
                           dead_by, maker, 0, not low_to_winner)
    else:
        owners[0] = -1
        owners[1] = -1
    owners[2] = _owner(card_of_power(PW_JACK, trump), won0, won1, start, dead_by, maker, rule,
                       False)
    owners[3] = _owner(card_of_power(PW_TEN, trump), won0, won1, start, dead_by, maker, rule,
                       False)
    owners[4] = _owner(card_of_power(PW_RIGHT, trump), won0, won1, start, dead_by, maker, rule,
                       False)
    owners[5] = _owner(card_of_power(PW_LEFT, trump), won0, won1, start, dead_by, maker, rule,
                       False)
    p0, p1 = 0, 0
    for e in range(6):
        if owners[e] == 0:
            p0 += ELEMENT_VALUES[e]
        elif owners[e] == 1:
            p1 += ELEMENT_VALUES[e]
    dead_points = 14 - p0 - p1

    # -- settle ------------------------------------------------------------------------------
    mt = maker & 1
    b_pts = p0 if mt == 0 else p1
    o_pts = p1 if mt == 0 else p0
    s1_m, s1_o, s2_m, s2_o = 0, 0, 0, 0
    if bid > 0:
        made = 1 if b_pts >= bid else 0
        if made:
            s1_m, s1_o = b_pts, o_pts
            if rp[P_M2_DIFF] == 1:
                s2_m = max(b_pts - o_pts, 0)
            elif b_pts > o_pts:
                s2_m = b_pts - o_pts
            else:
                s2_o = o_pts - b_pts
        else:
            s1_m, s1_o = -bid, o_pts
            s2_o = o_pts + bid
    else:
        made = -1
        s1_m, s1_o = b_pts, o_pts
        if b_pts > o_pts:
            s2_m = b_pts - o_pts
        else:
            s2_o = o_pts - b_pts
    rec[R_DEALER] = dealer
    rec[R_BIDDER] = bidder
    rec[R_BID] = bid
    rec[R_TRUMP] = trump
    rec[R_REDEALS] = min(attempt, 127)
    rec[R_PTS] = p0
    rec[R_PTS + 1] = p1
    rec[R_DEAD_PTS] = dead_points
    rec[R_MADE] = made
    rec[R_S1 + mt] = s1_m
    rec[R_S1 + 1 - mt] = s1_o
    rec[R_S2 + mt] = s2_m
    rec[R_S2 + 1 - mt] = s2_o
    rec[R_SHORT] = short
    rec[R_NDEAD] = popcount(dead)
    if log:
        li[L_DEALER] = dealer
        li[L_REDEALS] = attempt
        li[L_BIDDER] = bidder
        li[L_BID] = bid
        li[L_TRUMP] = trump
        for j in range(16):
            li[L_STOCK + j] = deck[36 + j]
        li[L_NTRICKS] = n_tricks
        lu[U_STOCK_LEFT] = stock_left
        for s in range(4):
            lu[U_START + s] = start[s]
    return n_tricks


_SIM_SIG = types.void(
    types.int64, types.int64, types.int64, types.int64, types.int64[:], types.int64[:],
    types.int8[:, :], types.uint64[:, :],
)


@njit(_SIM_SIG, cache=True, parallel=True)
def simulate_kernel(seed, first, n, chunk, rp, pols, rec, hands_out):
    """Deals first .. first+n-1 into rec[n, NREC] and hands_out[n, 4] (dealt hands)."""
    n_chunks = (n + chunk - 1) // chunk
    for ci in prange(n_chunks):
        deck = np.empty(52, dtype=np.int64)
        hands = np.empty(4, dtype=np.uint64)
        start = np.empty(4, dtype=np.uint64)
        dead_by = np.empty(4, dtype=np.uint64)
        prng = np.empty(1, dtype=np.uint64)
        drng = np.empty(1, dtype=np.uint64)
        li = np.empty(1, dtype=np.int16)
        lu = np.empty(1, dtype=np.uint64)
        lo = ci * chunk
        hi = min(n, lo + chunk)
        for i in range(lo, hi):
            play_deal(seed, first + i, rp, pols, deck, hands, start, dead_by, prng, drng,
                      rec[i], li, lu, False)
            for s in range(4):
                hands_out[i, s] = ZERO
            for k in range(36):
                hands_out[i, k // 9] |= bit(deck[k])


_LOG_SIG = types.void(
    types.int64, types.int64[:], types.int64[:], types.int64[:], types.int8[:, :],
    types.int16[:, :], types.uint64[:, :],
)


@njit(_LOG_SIG, cache=True)
def log_kernel(seed, indices, rp, pols, rec, li, lu):
    """The chosen deals, serially, with their trick-by-trick logs."""
    deck = np.empty(52, dtype=np.int64)
    hands = np.empty(4, dtype=np.uint64)
    start = np.empty(4, dtype=np.uint64)
    dead_by = np.empty(4, dtype=np.uint64)
    prng = np.empty(1, dtype=np.uint64)
    drng = np.empty(1, dtype=np.uint64)
    for i in range(indices.shape[0]):
        play_deal(seed, indices[i], rp, pols, deck, hands, start, dead_by, prng, drng,
                  rec[i], li[i], lu[i], True)
