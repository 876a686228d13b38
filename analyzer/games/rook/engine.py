"""The Rook hand kernel: deal, auction, widow and drop, passing, trump, play, score.

May import: the foundations, ``games.kit``, ``games.search`` and Rook's rules, core,
adapter, policies (and engine); never another game.

:func:`play_hand` is the whole of a hand, from the deal to the score, ending in one
fixed-width record, and also in a trick-by-trick log when asked: the hands the reference
checks from their logs are played by the very code that plays the batches.
:func:`chunk_kernel` plays a chunk of hand indices, with or without their logs;
``simulate_kernel`` and ``log_kernel`` spread chunks over threads (``kit.threads``).

These kernels play no ``dd`` or ``pimc`` seat (``play_hand`` takes the card search as an
argument, here :func:`no_search`), so they compile without the search; ``rook.search``
has the same kernels with it.

Hand ``i`` has dealer ``i % 4`` and hand index ``h = i`` for the passing cycle.
The points the Princeton text leaves open are settled in
``tests/reference/ROOK_LOG_FORMAT.md``, for this kernel and the reference alike.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

from ...bits import ONE, ZERO, bit, lsb, popcount
from ...rng import DEAL_STREAM, POLICY_STREAM, stream_key, uniform_int
from ..kit.choice import random_card, random_subset
from ..kit.deal import deal
from ..kit.kernels import (
    chunk_signature,
    no_log_row,
    no_search,
    record_auction,
    scenario_seat,
    serial_chunk_kernel,
)
from ..kit.threads import threaded_kernels
from ..kit.tricks import credit_team, forced_card, log_card, log_trick
from ..search import setup as workspace
from ..search.params import Q_TM, suit_mask
from .adapter import rook_setup, rook_to_search
from .core import (
    RANKS_FROM,
    ROOK,
    TRUMP_POWER,
    fill_card_points,
    legal_moves,
    points_of,
    power,
    suit_of,
    trump_suit,
)
from .policies import (
    estimate,
    heuristic_bid,
    heuristic_drop,
    heuristic_pass,
    heuristic_play,
    heuristic_trump,
    lowest_card,
    random_bid,
)
from .rules import (
    P_ALL_PASS,
    P_BID_STEP,
    P_COUNTERS,
    P_CYCLE,
    P_DROP,
    P_DROP_TO,
    P_FIRST_LEAD,
    P_FREE_PLAY,
    P_HAND,
    P_LAST_PTS,
    P_LOW_RANK,
    P_NCYCLE,
    P_NO_TRUMP,
    P_OPP_SCORES,
    P_RANK_PTS,
    P_ROOK_POS,
    P_ROOK_PTS,
    P_TOTAL,
)

SEARCH_KERNELS = ".search"  # these kernels with the search behind dd/pimc seats

MAX_ATTEMPTS = 1000  # a REDEAL loop gives up (the dealer is forced at 70) after this many

# ---- per-hand record: int16 columns ----------------------------------------------------
REC_COLUMNS = (
    "dealer", "declarer", "bid", "trump", "forced", "redeals", "direction", "leader",
    "widow", "drop", "rook_seat",
    "bid_seat0", "bid_seat1", "bid_seat2", "bid_seat3",
    "points0", "points1", "drop_points", "drop_team", "last_team", "made",
    "score0", "score1", "n_calls",
)  # fmt: skip
(R_DEALER, R_DECLARER, R_BID, R_TRUMP, R_FORCED, R_REDEALS, R_DIRECTION, R_LEADER, R_WIDOW,
 R_DROP, R_ROOK_SEAT, R_BID_SEAT, _, _, _, R_PTS, _, R_DROP_PTS, R_DROP_TEAM, R_LAST_TEAM,
 R_MADE, R_SCORE, _, R_NCALLS) = range(len(REC_COLUMNS))  # fmt: skip
NREC = len(REC_COLUMNS)
assert (R_DEALER, R_BID, R_TRUMP) == (0, 2, 3)  # kit.kernels.AUCTION_COLUMNS
N_HANDS_OUT = 5  # the four dealt hands and the widow (shared layout masks)

# ---- log layout --------------------------------------------------------------------------
# int16 row: the auction's calls as (seat, bid) pairs, then the tricks; -1 = none
MAX_CALLS = 64
L_CALLS = 0
L_TRICKS = 2 * MAX_CALLS  # + 10 per trick: leader, winner, then (seat, card) x 4
NLOGI = L_TRICKS + 10 * 13
# uint64 row: dealt hands, passed cards, hands at the start of play
U_HANDS, U_PASSED, U_START = 0, 4, 8
NLOGU = 12

# ---- scenario vector (uint64): known cards and a forced auction ---------------------------
# SC_SEAT: 1 + the scenario seat's offset from the dealer (0 = none); SC_KNOWN + k: cards known
# to be held by the seat k places after the dealer. SC_FORCE: FORCE_DECLARER makes the seat
# declarer at SC_BID with nobody else bidding; FORCE_PASS makes it pass; FORCE_CEILING makes it
# bid the lowest legal amount while that is at most SC_BID. SC_TRUMP: the trump it calls as
# declarer (TRUMP_BY_POLICY: its policy's). SC_DIR: 0 passing by the hand index, else
# 1 + (left, right, none).
# SC_STOP (optional): 1 to stop once trump is called, recording only dealer, declarer, bid,
# trump, forced and redeals (the play depends on the hand, the declarer and the trump alone).
SC_SEAT, SC_FORCE, SC_TRUMP, SC_KNOWN, SC_BID, SC_DIR, SC_STOP = 0, 1, 2, 3, 7, 8, 9
NSC = 9
FORCE_NONE, FORCE_DECLARER, FORCE_PASS, FORCE_CEILING = 0, 1, 2, 3
TRUMP_BY_POLICY = 5
_DIRECTIONS = (1, -1, 0)


@njit(cache=True)
def _allowed_drops(cards, rule, counters):
    if rule == 1:  # no counters, unless every card is one
        out = cards & ~counters
        return out if out != ZERO else cards
    if rule == 2 and cards != ROOK:  # not the Rook
        return cards & ~ROOK
    return cards


@njit(cache=True, inline="always")
def _record_auction(rec, dealer, declarer, bid, trump, forced, attempt):
    """The auction's outcome: all that a stop-once-trump-is-called (SC_STOP) run records."""
    record_auction(rec, dealer, declarer, bid, trump)
    rec[R_FORCED] = forced
    rec[R_REDEALS] = min(attempt, 32767)


@njit(cache=True, inline="always")
def play_hand(seed, index, rp, pols, sc, cpts, deck, hands, values, given, prng, drng, rec,
              dealt, li, lu, log, ws, search_card):
    """Play hand ``index`` of ``seed`` under rule vector ``rp`` and seat policies ``pols``.

    ``sc`` is the scenario (see SC_*). ``cpts`` are the card points
    (``fill_card_points``); deck, hands, values, given, prng and drng are scratch.
    ``rec`` receives the record, ``dealt`` the dealt hands and the widow, and
    ``li``/``lu`` the log when ``log`` is true. ``ws`` is the searching players'
    workspace (``search.setup.make_workspace``): dd and pimc seats bid, drop, pass and
    call trump by the heuristic and choose cards by ``search_card`` once hands are down to
    the search depth (``rook.search.search_card``, or :func:`no_search`).
    """
    searching = workspace.any_searching(pols)
    # seats that bid, drop, pass, call trump and pick the first leader at random: random seats,
    # unless the policies choose cards only (the ladder: every rung plays the same contracts)
    play_only = workspace.plays_only(pols)
    random_calls = 0
    for s in range(4):
        if pols[s] == 0 and not play_only:
            random_calls |= 1 << s
    dealer = index % 4
    eldest = (dealer + 1) % 4
    hand_size = rp[P_HAND]
    n_cards = 4 * hand_size + 1
    full = RANKS_FROM[rp[P_LOW_RANK]] | ROOK  # the whole deck
    total = rp[P_TOTAL]
    step_exact = rp[P_BID_STEP] == 1
    fixed_seat = scenario_seat(sc[SC_SEAT], dealer)
    force = np.int64(sc[SC_FORCE])
    prng[0] = stream_key(seed, index, POLICY_STREAM)
    attempt = 0
    n_calls = 0
    while True:
        # -- deal: hand_size cards to each seat, the last card is the widow ---------------
        drng[0] = stream_key(seed, index, DEAL_STREAM + attempt)
        deal(sc, SC_KNOWN, dealer, drng, deck, full, hand_size, hands)
        for s in range(4):
            dealt[s] = hands[s]
        widow = deck[n_cards - 1]
        dealt[4] = bit(widow)
        # -- auction: round and round from eldest until three have passed ----------------
        for s in range(4):
            rec[R_BID_SEAT + s] = 0
        high, high_seat = 0, -1
        passed = 0  # bit per seat
        n_passed = 0
        n_calls = 0
        forced = 0
        seat = eldest
        if force == FORCE_DECLARER:  # nobody else bids: the seat holds the contract
            high, high_seat = np.int64(sc[SC_BID]), fixed_seat
            rec[R_BID_SEAT + fixed_seat] = high
            break
        for s in range(4):
            values[s] = 0.0 if random_calls >> s & 1 else estimate(hands[s], cpts, total)
        while True:
            if n_passed == 3 and (high > 0 or rp[P_ALL_PASS] == 0):
                break
            if n_passed == 4:
                break
            if passed >> seat & 1:
                seat = (seat + 1) % 4
                continue
            if seat == fixed_seat and force == FORCE_PASS:
                b = 0
            elif seat == fixed_seat and force == FORCE_CEILING:
                lowest = 70 if high == 0 else high + 5
                b = lowest if lowest <= np.int64(sc[SC_BID]) and lowest <= total else 0
            else:
                if random_calls >> seat & 1:
                    b = random_bid(high, step_exact, total, prng)
                else:
                    b = heuristic_bid(values[seat], seat, high, high_seat, total)
            if log and n_calls < MAX_CALLS:
                li[L_CALLS + 2 * n_calls] = seat
                li[L_CALLS + 2 * n_calls + 1] = b
            n_calls += 1
            if b > 0:
                high, high_seat = b, seat
                rec[R_BID_SEAT + seat] = b
            else:
                passed |= 1 << seat
                n_passed += 1
            seat = (seat + 1) % 4
        if high == 0:
            if n_passed == 4 and attempt < MAX_ATTEMPTS:
                attempt += 1
                continue
            high, high_seat, forced = 70, dealer, 1
        break
    declarer = high_seat
    bid = high
    decl_team = declarer & 1
    if log:
        for j in range(n_calls, MAX_CALLS):
            li[L_CALLS + 2 * j] = -1
            li[L_CALLS + 2 * j + 1] = -1
    # -- widow and drop ---------------------------------------------------------------------
    random_d = random_calls >> declarer & 1
    fourteen = hands[declarer] | bit(widow)
    counters = np.uint64(rp[P_COUNTERS]) | ROOK
    allowed = _allowed_drops(fourteen, rp[P_DROP], counters)
    if random_d:
        drop = random_card(allowed, prng)
    else:
        drop = heuristic_drop(fourteen, allowed, counters)
    hands[declarer] = fourteen & ~bit(drop)
    # -- passing: everyone gives 3 cards to the same side ------------------------------------
    if sc[SC_DIR] > ZERO:
        direction = _DIRECTIONS[np.int64(sc[SC_DIR]) - 1]
    else:
        direction = rp[P_CYCLE + index % rp[P_NCYCLE]]
    for s in range(4):
        given[s] = ZERO
    if direction != 0:
        for s in range(4):
            if random_calls >> s & 1:
                given[s] = random_subset(hands[s], 3, prng)
            else:
                given[s] = heuristic_pass(hands[s], counters)
        for s in range(4):
            hands[s] = (hands[s] & ~given[s]) | given[(s - direction) % 4]
    # -- trump (before the declarer sees what he received) and the first leader ---------------
    own = hands[declarer] & ~given[(declarer - direction) % 4] if direction != 0 else \
        hands[declarer]
    allow_nt = rp[P_NO_TRUMP] == 1
    if (force == FORCE_DECLARER or force == FORCE_CEILING) and declarer == fixed_seat \
            and sc[SC_TRUMP] != TRUMP_BY_POLICY:
        trump = np.int64(sc[SC_TRUMP])
    elif random_d:
        trump = uniform_int(prng, 5 if allow_nt else 4)
    else:
        trump = heuristic_trump(own, allow_nt)
    if sc.shape[0] > SC_STOP and sc[SC_STOP] == ONE:
        _record_auction(rec, dealer, declarer, bid, trump, forced, attempt)
        return
    tmask = trump_suit(trump)
    if rp[P_FIRST_LEAD] == 0:  # the random policy picks either; the heuristic leads itself
        leader = (declarer + uniform_int(prng, 2)) % 4 if random_d else declarer
    elif rp[P_FIRST_LEAD] == 1:
        leader = declarer
    else:
        leader = (declarer + 1) % 4
    if log:
        for s in range(4):
            lu[U_PASSED + s] = given[s]
            lu[U_START + s] = hands[s]
    # -- play ------------------------------------------------------------------------------
    rook_pos = rp[P_ROOK_POS]
    free_play = rp[P_FREE_PLAY] == 1
    last_pts = rp[P_LAST_PTS]
    played = won0 = won1 = ZERO
    first_leader = leader
    last_team = 0
    sq = ws[workspace.WS_Q]
    depth = workspace.search_depth(pols)
    if searching:  # team 0's points are the search's value; seats of team 1 minimise
        rook_setup(rp, trump, 0, sq, ws[workspace.WS_CPTS], ws[workspace.WS_TV])
        ws[workspace.WS_KN][:] = ZERO  # nothing known yet: no voids, no cards, no minimum
    for t in range(hand_size):
        led = ZERO
        best_seat, best_card, best_pow = -1, -1, -1
        trick = ZERO
        trick_pts = 0
        for pos in range(4):
            seat = (leader + pos) & 3
            h = hands[seat]
            legal = legal_moves(h, led, free_play)
            c = forced_card(legal)
            if c < 0 and pols[seat] >= workspace.POLICY_DD and popcount(h) <= depth:
                c = search_card(pols, seat, hands, leader, pos, legal, ws, index + 1,
                                trump, rook_pos, full & ~played & ~trick, given,
                                direction, drop if seat == declarer else -1, prng)
            if c >= 0:
                pass
            elif pols[seat] == 0:
                c = random_card(legal, prng)
            elif led != ZERO and legal & (tmask | counters) == ZERO and (
                    (best_seat & 1) == (seat & 1) or best_pow >= TRUMP_POWER
                    or legal & RANKS_FROM[best_pow + 1] == ZERO):
                # no points to give and nothing to win (or partner winning): the
                # heuristic would throw its lowest card
                c = lowest_card(legal)
            else:
                unseen = full & ~played & ~h & ~trick
                if seat == declarer:
                    unseen &= ~bit(drop)
                c = heuristic_play(h, legal, led, best_seat, best_card, best_pow, trick_pts,
                                   pos, seat, declarer, tmask, rook_pos, unseen,
                                   hand_size - t, counters, free_play, last_pts)
            if searching:
                cs = lsb(rook_to_search(bit(c), trump, rook_pos))
                tcards = ws[workspace.WS_TCARDS]
                led_s = ZERO if pos == 0 else suit_mask(tcards[0], sq[Q_TM])
                workspace.record_play(ws, pos, seat, cs, led_s, sq)
            if led == ZERO:
                led = suit_of(c, tmask)
            pw = power(c, led, tmask, rook_pos)
            if pw > best_pow:
                best_seat, best_card, best_pow = seat, c, pw
            trick |= bit(c)
            trick_pts += cpts[c]
            hands[seat] = h & ~bit(c)
            if log:
                log_card(li, L_TRICKS + 10 * t, pos, seat, c)
        played |= trick
        won0, won1 = credit_team(won0, won1, best_seat, trick)
        if log:
            log_trick(li, L_TRICKS + 10 * t, leader, best_seat)
        leader = best_seat
        last_team = best_seat & 1
    if log:
        for j in range(L_TRICKS + 10 * hand_size, NLOGI):
            li[j] = -1
    # -- score and settle ---------------------------------------------------------------------
    p0 = points_of(won0, cpts)  # scalars: an array here is a heap allocation every hand
    p1 = points_of(won1, cpts)
    drop_team = decl_team if rp[P_DROP_TO] == 0 else last_team
    drop_pts = cpts[drop]
    p0 += (rp[P_LAST_PTS] if last_team == 0 else 0) + (drop_pts if drop_team == 0 else 0)
    p1 += (rp[P_LAST_PTS] if last_team == 1 else 0) + (drop_pts if drop_team == 1 else 0)
    b_pts = p0 if decl_team == 0 else p1
    o_pts = p1 if decl_team == 0 else p0
    made = 1 if b_pts >= bid else 0
    rec[R_SCORE + decl_team] = b_pts if made else -bid
    rec[R_SCORE + 1 - decl_team] = o_pts if made or rp[P_OPP_SCORES] == 0 else 0
    rook_seat = 4
    for s in range(4):
        if dealt[s] & ROOK:
            rook_seat = s
    _record_auction(rec, dealer, declarer, bid, trump, forced, attempt)
    rec[R_DIRECTION] = direction
    rec[R_LEADER] = first_leader
    rec[R_WIDOW] = widow
    rec[R_DROP] = drop
    rec[R_ROOK_SEAT] = rook_seat
    rec[R_PTS] = p0
    rec[R_PTS + 1] = p1
    rec[R_DROP_PTS] = drop_pts
    rec[R_DROP_TEAM] = drop_team
    rec[R_LAST_TEAM] = last_team
    rec[R_MADE] = made
    rec[R_NCALLS] = n_calls


@njit(cache=True)
def _scratch(rp):
    """A driver's working arrays, made once per chunk: the card points for ``rp``, then
    the deck, hands, valuations, passed cards and the two RNG states."""
    cpts = np.empty(64, dtype=np.int64)
    fill_card_points(rp[P_RANK_PTS:P_RANK_PTS + 13], rp[P_ROOK_PTS], cpts)
    return (cpts, np.empty(128, dtype=np.int64), np.empty(4, dtype=np.uint64),
            np.empty(4, dtype=np.float64), np.empty(4, dtype=np.uint64),
            np.empty(1, dtype=np.uint64), np.empty(1, dtype=np.uint64))


@njit(cache=True, inline="always")
def play_chunk(seed, indices, lo, hi, rp, pols, sc, rec, hands_out, li, lu, log, search_card):
    """The body of every Rook kernel: ``play_hand`` (inlined once, whatever ``log`` is) for
    hands ``indices[lo:hi]``, each into its own row of ``rec``, ``hands_out`` and, if logged,
    ``li`` and ``lu``. The chunk's scratch is allocated once."""
    cpts, deck, hands, values, given, prng, drng = _scratch(rp)
    li_row, lu_row = no_log_row()
    ws = workspace.workspace_for(pols)
    for i in range(lo, hi):
        if log:
            li_row, lu_row = li[i], lu[i]
        play_hand(seed, indices[i], rp, pols, sc, cpts, deck, hands, values, given, prng, drng,
                  rec[i], hands_out[i], li_row, lu_row, log, ws, search_card)


CHUNK_SIG = chunk_signature(types.int16)


# no seat searches here (``rook.search``: the same with dd and pimc seats); serial, run on
# threads (``kit.kernels``)
@serial_chunk_kernel(CHUNK_SIG)
def chunk_kernel(seed, indices, lo, hi, rp, pols, sc, rec, hands_out, li, lu, log):
    play_chunk(seed, indices, lo, hi, rp, pols, sc, rec, hands_out, li, lu, log, no_search)


simulate_kernel, log_kernel = threaded_kernels(chunk_kernel, NLOGI, NLOGU)
