"""The Pedro/Cinch deal kernel: deal, bid, name trump, discard/draw/rob, play, score.

May import: the foundations, ``games.kit``, ``games.search`` and Pedro's rules, core,
adapter, policies (and engine); never another game.

One function, :func:`play_deal`, plays a whole deal and writes one fixed-width
record; when asked it also writes a trick-by-trick log (the same code path, so
the logged deals the reference checks are exactly the deals the batch
simulator plays). :func:`chunk_kernel` runs it over a chunk of deal indices, logged
or not; ``simulate_kernel`` and ``log_kernel`` run such chunks on threads
(``kit.threads``): a serial kernel compiles in a third of a ``prange`` kernel's time.

These kernels play no ``dd`` or ``pimc`` seat: ``play_deal`` takes the card search as an
argument, and here it is :func:`no_search`, so they compile without the search, which
would more than double a first ``bidlab simulate`` here. ``pedro.search`` has the same
kernels with the search behind those seats (serial ones, run on threads from Python). Every
kernel plays its deals through :func:`play_chunk`, which inlines ``play_deal`` once.

Where the source texts leave a Pedro rule open, ``tests/reference/PEDRO_LOG_FORMAT.md``
says what this kernel does; the pure-Python reference does the same.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

from ...bits import ONE, ZERO, bit, lsb, msb, popcount
from ...cards import DECK_52
from ...rng import DEAL_STREAM, POLICY_STREAM, stream_key
from ..kit.choice import random_card
from ..kit.deal import deal
from ..kit.kernels import (
    chunk_signature,
    deal_scratch,
    no_log_row,
    no_search,
    record_auction,
    scenario_seat,
    serial_chunk_kernel,
)
from ..kit.threads import threaded_kernels
from ..kit.tricks import credit_team, forced_card, log_card, log_trick
from ..search import setup as workspace
from ..search.params import Q_TM
from .adapter import pedro_low_card, pedro_setup
from .core import (
    N_ACE,
    N_JACK,
    N_LEFT,
    N_RIGHT,
    N_TEN,
    N_TWO,
    ORIG,
    PLAIN,
    TRUMPS,
    denormalise,
    highest_plain,
    left_pedro_gap,
    legal_moves,
    normalise,
    strength,
)
from .policies import (
    choose_dump,
    choose_free_keep,
    choose_keep_trumps,
    choose_rob,
    choose_trump,
    heuristic_bid,
    heuristic_play,
    random_bid,
)
from .rules import (
    KEEP_FREE,
    KEEP_NONE,
    P_ALL_PASS,
    P_DISCARDED,
    P_EXCESS,
    P_HIGH_LOW,
    P_KEEP_FREE,
    P_LOW_TO,
    P_M2_DIFF,
    P_MIN_BID,
    P_ROB_FACE,
    P_STOCK_SHORT,
    P_TRUMP_FOLLOW,
)

SEARCH_KERNELS = ".search"  # these kernels with the search behind dd/pimc seats

MAX_ATTEMPTS = 1000  # a REDEAL loop gives up after this many throw-ins (no contract; a short
# stock keeps own non-trumps): only known cards can make every deal redeal

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
assert (R_DEALER, R_BID, R_TRUMP) == (0, 2, 3)  # kit.kernels.AUCTION_COLUMNS
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


@njit(cache=True, inline="always")
def _possible_trumps(hand, seen, known_out, is_dealer, stock_left):
    """The trumps a seat holding ``hand`` may think in play: its own, those seen played, and
    those unseen that it does not know out (dead, or left in the stock it robbed)."""
    out = TRUMPS & ~known_out
    if is_dealer:
        out &= ~stock_left
    return (hand | seen | out) & TRUMPS


@njit(cache=True)
def _owner(b, won0, won1, held0, held1, dead0, dead1, maker, rule, to_holder):
    """Team credited with the point card at normalised bit ``b``, or -1.

    In play: the holder's team (High, and Low under low_to=holder) or the trick
    winner's. Dead (discarded) counting trumps follow DISCARDED_COUNTER_SCORING:
    0 nobody, 1 the seed-000 mistake rule (an adversary's discard scores for the
    trump maker), 2 the trump maker. Cards left in the stock score nothing.
    """
    m = bit(b)
    if held0 & m or held1 & m:
        if to_holder:
            return 0 if held0 & m else 1
        return 0 if won0 & m else 1
    if (dead0 | dead1) & m:
        mt = maker & 1
        if rule == 2 or (rule == 1 and not ((dead0 if mt == 0 else dead1) & m)):
            return mt
    return -1


# ---- scenario vector (uint64): known cards and a forced auction ---------------------------
# SC_SEAT: 1 + the scenario seat's offset from the dealer (0 = none); SC_KNOWN + k: the cards
# known to be held by the seat k places after the dealer (the scenario seat's full hand).
# SC_BID: the bid of FORCE_BID. SC_TRUMP: the trump a forced maker or bidder names
# (TRUMP_BY_POLICY: its policy's choice from its dealt hand). SC_STOP (optional): 1 to stop
# after the auction and the naming of trump, recording only dealer, bidder, bid, trump and
# redeals (the play depends on the deal, the maker and the trump alone, so a caller may play
# each such outcome once).
SC_SEAT, SC_FORCE, SC_TRUMP, SC_KNOWN, SC_BID, SC_STOP = 0, 1, 2, 3, 7, 8
FORCE_NONE, FORCE_MAKER, FORCE_PASS, FORCE_BID = 0, 1, 2, 3
TRUMP_BY_POLICY = 4


@njit(cache=True, inline="always")
def _record_auction(rec, dealer, bidder, bid, trump, attempt):
    """The auction's outcome: all that a stop-after-the-auction (SC_STOP) run records."""
    record_auction(rec, dealer, bidder, bid, trump)
    rec[R_REDEALS] = min(attempt, 127)


@njit(cache=True, inline="always")
def play_deal(seed, index, rp, pols, sc, deck, hands, prng, drng, rec, dealt, li, lu, log, ws,
              search_card):
    """Play deal ``index`` of ``seed`` under rule vector ``rp`` and seat policies ``pols``.

    ``sc`` is the scenario (see SC_*): optionally some cards' holders are known
    (typically one seat's whole hand) and the rest dealt at random, and one
    seat is made the trump maker with a given trump, made to pass, or made to
    bid a given amount in its turn (naming the given trump if it wins); the given trump
    may be TRUMP_BY_POLICY, the trump its policy names. Scratch
    arrays (deck, hands, prng, drng) belong to the caller so that a chunk
    allocates them once. ``rec`` receives the
    record and ``dealt`` the four dealt hands (shared layout); ``li``/``lu`` the
    log when ``log`` is true. ``ws`` is the searching players' workspace
    (``search.setup.make_workspace``); seats with policy ``dd`` or ``pimc`` bid, name
    trump and discard by the heuristic and choose their cards by ``search_card``
    (``pedro.search.search_card``, or :func:`no_search` in kernels without the search).
    """
    searching = workspace.any_searching(pols)
    play_only = workspace.plays_only(pols)
    kn = ws[workspace.WS_KN]
    dealer = index % 4
    eldest = (dealer + 1) % 4
    min_bid = rp[P_MIN_BID]
    no_contract = rp[P_ALL_PASS] == 0  # when all pass, the dealer names trump with no bid
    excess_dead = rp[P_EXCESS] == 0
    fixed_seat = scenario_seat(sc[SC_SEAT], dealer)
    force = np.int64(sc[SC_FORCE])
    prng[0] = stream_key(seed, index, POLICY_STREAM)
    attempt = 0
    while True:
        # -- deal: 9 cards to each seat, 16 to the stock (top = deck[36]) --------------
        drng[0] = stream_key(seed, index, DEAL_STREAM + attempt)
        deal(sc, SC_KNOWN, dealer, drng, deck, DECK_52, 9, hands)
        for s in range(4):
            dealt[s] = hands[s]
        # -- bidding: one round from eldest --------------------------------------------
        high, bidder = 0, -1
        for k in range(4):
            seat = (eldest + k) & 3
            if force == FORCE_MAKER or (force == FORCE_PASS and seat == fixed_seat):
                b = 0
            elif force == FORCE_BID and seat == fixed_seat:
                # the seat bids the given amount if it is still legal, else it must pass;
                # the dealer bids last, knowing what it takes: the lowest legal bid up to it
                # (bidding more would only raise his contract)
                b = np.int64(sc[SC_BID])
                lowest = max(high + 1, min_bid)  # the lowest legal bid in this turn
                if seat == dealer and lowest <= b:
                    b = lowest
                if b < lowest or b > 14:
                    b = 0
            else:
                if pols[seat] == 0 and not play_only:
                    b = random_bid(high, min_bid, prng)
                else:
                    b = heuristic_bid(hands[seat], seat, dealer, high, bidder, min_bid,
                                      no_contract, rp[P_LOW_TO] == 1)
            rec[R_BID_SEAT + seat] = b
            if log:
                li[L_BIDS + k] = b
            if b > 0:
                high, bidder = b, seat
        bid = high
        # A forced maker skips the auction, so its all-pass is no throw-in: without this it
        # would redeal MAX_ATTEMPTS times and play a deal no other scenario sees.
        if bidder < 0 and force != FORCE_MAKER:
            if rp[P_ALL_PASS] == 1:
                bidder, bid = dealer, min_bid
            elif rp[P_ALL_PASS] == 2 and attempt < MAX_ATTEMPTS:
                attempt += 1
                continue
        if force == FORCE_MAKER:  # the fixed seat names the given trump, no contract
            bidder, bid = fixed_seat, 0
        maker = bidder if bidder >= 0 else dealer
        if (force == FORCE_MAKER or (force == FORCE_BID and maker == fixed_seat)) \
                and sc[SC_TRUMP] != TRUMP_BY_POLICY:
            trump = np.int64(sc[SC_TRUMP])
        else:
            trump = choose_trump(1 if play_only else pols[maker], hands[maker], maker == dealer,
                                 rp[P_LOW_TO] == 1, prng)
        if sc.shape[0] > SC_STOP and sc[SC_STOP] == ONE:
            _record_auction(rec, dealer, bidder, bid, trump, attempt)
            return
        for s in range(4):
            hands[s] = normalise(hands[s], trump)
        # -- discard, draw, rob (normalised layout from here on) ---------------------
        spos = 36
        short = 0
        dead0 = ZERO  # dead cards discarded by team 0 and by team 1
        dead1 = ZERO
        stock_left = ZERO
        redeal = False
        for k in range(4):
            seat = (eldest + k) & 3
            pol = 1 if play_only else pols[seat]
            h = hands[seat]
            kept = h & TRUMPS
            dead = ZERO
            got = ZERO
            stock = ZERO
            if seat == dealer:
                for j in range(spos, 52):
                    stock |= bit(deck[j])
                stock = normalise(stock, trump)
            if seat == dealer and excess_dead and popcount(kept | (stock & TRUMPS)) > 6:
                # S002: with more than 6 trumps in hand and stock the dealer keeps the 6
                # he wants and shows the rest: the excess, his own or the stock's, is dead.
                pool = kept | (stock & TRUMPS)
                final = choose_keep_trumps(pol, pool, 6, prng)
                dead = pool & ~final
                kept = final & h
                got = final & stock
            else:
                if popcount(kept) > 6 and excess_dead:
                    keep = choose_keep_trumps(pol, kept, 6, prng)
                    dead = kept & ~keep
                    kept = keep
                plain = h & PLAIN
                if rp[P_KEEP_FREE] == KEEP_FREE and plain != ZERO and popcount(kept) < 6:
                    kept |= choose_free_keep(pol, plain, 6 - popcount(kept), prng)
                # Cinch's custom binds every player except the dealer (S002), and its law
                # nobody: robbing, the dealer may keep his own non-trumps before the stock's
                own = plain & ~kept if seat == dealer and rp[P_KEEP_FREE] != KEEP_NONE else ZERO
                need = max(0, 6 - popcount(kept))
                remaining = 52 - spos + popcount(own)
                if need > remaining:
                    short = 1
                    if rp[P_STOCK_SHORT] == 2 and attempt < MAX_ATTEMPTS:
                        redeal = True
                        break
                    if rp[P_STOCK_SHORT] != 1:  # and redeal's last deal, so that a run ends
                        kept |= highest_plain(plain & ~kept, need - remaining)
                    need = remaining
                if seat != dealer:
                    for j in range(spos, spos + need):
                        got |= bit(deck[j])
                    got = normalise(got, trump)
                    spos += need
                else:
                    if excess_dead:
                        got = choose_rob(pol, stock | own, need, prng)
                    else:  # KEEP_ALL_DUMP_ON_TRICK1: he takes every trump left (§1.5), then
                        got = stock & TRUMPS  # fills up to 6; his excess goes onto trick 1
                        got |= choose_rob(pol, (stock & ~got) | own, need - popcount(got), prng)
                    kept |= got & own
                    got &= stock
            if seat == dealer:
                stock_left = stock & ~got & ~dead
            dead0, dead1 = credit_team(dead0, dead1, seat, dead)
            if searching:  # what the others learn: its discards, face up (docs/rules.md
                # §1.5), so how many cards it drew and the trumps it kept
                kn[workspace.KN_DISCARDS + seat] = normalise(dealt[seat], trump) & ~kept & ~dead
                sure = seat != dealer and rp[P_KEEP_FREE] != KEEP_FREE and not short
                kn[workspace.KN_MIN + seat] = np.uint64(popcount(kept)) if sure else ZERO
                kn[workspace.KN_FORBID + seat] = ZERO
            hands[seat] = kept | got
            if log:
                lu[U_KEPT + seat] = denormalise(kept, trump)
                lu[U_DRAWN + seat] = denormalise(got, trump)
                lu[U_DEAD + seat] = denormalise(dead, trump)
        if redeal and attempt < MAX_ATTEMPTS:
            attempt += 1
            continue
        break

    # -- play ----------------------------------------------------------------------------
    held0 = hands[0] | hands[2]  # cards each team holds at the start of play
    held1 = hands[1] | hands[3]
    if log:
        for s in range(4):
            lu[U_START + s] = denormalise(hands[s], trump)
            lu[U_DUMPS + s] = ZERO
        for j in range(L_TRICKS, L_NTRICKS):
            li[j] = -1
    known_out = dead0 | dead1 | left_pedro_gap(trump)  # the gap: no card, never in a world
    if rp[P_ROB_FACE] == 1:
        known_out |= stock_left & TRUMPS
    forbid = rp[P_TRUMP_FOLLOW] == 1
    keep_all = not excess_dead
    low_to_winner = rp[P_LOW_TO] == 0
    played = won0 = won1 = ZERO
    leader = maker
    n_tricks = 0
    q = ws[workspace.WS_Q]
    if searching:  # team 0's trick points are the search's value; seats of team 1 minimise
        pedro_setup(rp, pedro_low_card(held0 | held1, rp[P_HIGH_LOW]), 0, q,
                    ws[workspace.WS_CPTS], ws[workspace.WS_TV])
        kn[workspace.KN_MIN_MASK] = TRUMPS
    nodes = workspace.node_budget(pols)
    gen = (index & 0x3FFFFFFFF) + 1
    while hands[0] | hands[1] | hands[2] | hands[3]:
        while hands[leader] == ZERO:
            leader = (leader + 1) & 3
        n_active = 0
        for s in range(4):
            if hands[s] != ZERO:
                n_active += 1
        lead_lane = -1
        best_seat, best = -1, -1
        trick = ZERO
        pos = 0
        for j in range(4):
            seat = (leader + j) & 3
            h = hands[seat]
            if h == ZERO:
                continue
            legal = legal_moves(h, lead_lane, forbid)
            c = forced_card(legal)
            if c < 0 and pols[seat] >= workspace.POLICY_DD and not (keep_all and n_tricks == 0):
                guess_low = pols[seat] == workspace.POLICY_PIMC and rp[P_HIGH_LOW] == 1
                if guess_low:  # the Low as this seat can know it, not as the deal holds it
                    pedro_setup(rp, pedro_low_card(_possible_trumps(
                        h, played | trick, known_out, seat == dealer, stock_left), 1), 0, q,
                        ws[workspace.WS_CPTS], ws[workspace.WS_TV])
                c = search_card(pols, seat, hands, leader, pos, legal, ws, gen, nodes,
                                prng, played | trick, known_out, dealer, stock_left)
                if guess_low:  # dd seats see the deal's own
                    pedro_setup(rp, pedro_low_card(held0 | held1, 1), 0, q,
                                ws[workspace.WS_CPTS], ws[workspace.WS_TV])
            if c >= 0:
                pass
            elif pols[seat] == 0:
                c = random_card(legal, prng)
            else:  # scalars only: an array argument costs reference counting per call
                unseen = TRUMPS & ~played & ~h & ~known_out
                if seat == dealer:
                    unseen &= ~stock_left
                c = heuristic_play(h, legal, lead_lane, best_seat, best, trick, pos,
                                   n_active, seat, unseen, low_to_winner, maker)
            if searching:
                led = q[Q_TM] if lead_lane == 3 else (np.uint64(0x1FFF) << np.uint64(16 * lead_lane)
                                                      if lead_lane >= 0 else ZERO)
                workspace.record_play(ws, pos, seat, c, led, q)
                if bit(c) & TRUMPS and kn[workspace.KN_MIN + seat] > ZERO:
                    kn[workspace.KN_MIN + seat] -= ONE
            if lead_lane < 0:
                lead_lane = c >> 4
            if strength(c, lead_lane) > best:
                best_seat, best = seat, c
            h &= ~bit(c)
            trick |= bit(c)
            if keep_all and n_tricks == 0 and popcount(h) > 5:
                d = choose_dump(1 if play_only else pols[seat], h, popcount(h) - 5, prng,
                                low_to_winner)
                h &= ~d
                trick |= d
                if searching:  # the trumps it dumps leave the count it is known to hold
                    workspace.note_lost(kn, seat, popcount(d & TRUMPS))
                if log:
                    lu[U_DUMPS + seat] = denormalise(d, trump)
            hands[seat] = h
            played |= trick
            if log:
                log_card(li, L_TRICKS + 10 * n_tricks, pos, seat, ORIG[trump, c])
            pos += 1
        won0, won1 = credit_team(won0, won1, best_seat, trick)
        if log:
            log_trick(li, L_TRICKS + 10 * n_tricks, leader, best_seat)
        leader = best_seat
        n_tricks += 1

    # -- score -----------------------------------------------------------------------------
    rule = rp[P_DISCARDED]
    in_play_trumps = (held0 | held1) & TRUMPS
    if rp[P_HIGH_LOW] == 0:
        hi, lo, hl_rule = N_ACE, N_TWO, rule
    else:  # the highest and lowest trumps in play; never dead, so no discard rule
        hi, lo, hl_rule = msb(in_play_trumps), lsb(in_play_trumps), 0
    if in_play_trumps == ZERO and rp[P_HIGH_LOW] == 1:
        rec[R_HIGH] = -1
        rec[R_LOW] = -1
    else:
        rec[R_HIGH] = _owner(hi, won0, won1, held0, held1, dead0, dead1, maker, hl_rule, True)
        rec[R_LOW] = _owner(lo, won0, won1, held0, held1, dead0, dead1, maker, hl_rule,
                            not low_to_winner)
    rec[R_JACK] = _owner(N_JACK, won0, won1, held0, held1, dead0, dead1, maker, rule, False)
    rec[R_GAME] = _owner(N_TEN, won0, won1, held0, held1, dead0, dead1, maker, rule, False)
    rec[R_RIGHT] = _owner(N_RIGHT, won0, won1, held0, held1, dead0, dead1, maker, rule, False)
    rec[R_LEFT] = _owner(N_LEFT, won0, won1, held0, held1, dead0, dead1, maker, rule, False)
    p0, p1 = 0, 0
    for e in range(6):
        if rec[R_HIGH + e] == 0:
            p0 += ELEMENT_VALUES[e]
        elif rec[R_HIGH + e] == 1:
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
    _record_auction(rec, dealer, bidder, bid, trump, attempt)
    rec[R_PTS] = p0
    rec[R_PTS + 1] = p1
    rec[R_DEAD_PTS] = dead_points
    rec[R_MADE] = made
    rec[R_S1 + mt] = s1_m
    rec[R_S1 + 1 - mt] = s1_o
    rec[R_S2 + mt] = s2_m
    rec[R_S2 + 1 - mt] = s2_o
    rec[R_SHORT] = short
    rec[R_NDEAD] = popcount(dead0 | dead1)
    if log:
        li[L_DEALER] = dealer
        li[L_REDEALS] = attempt
        li[L_BIDDER] = bidder
        li[L_BID] = bid
        li[L_TRUMP] = trump
        for j in range(16):
            li[L_STOCK + j] = deck[36 + j]
        li[L_NTRICKS] = n_tricks
        lu[U_STOCK_LEFT] = denormalise(stock_left, trump)


@njit(cache=True, inline="always")
def play_chunk(seed, indices, lo, hi, rp, pols, sc, rec, hands_out, li, lu, log, search_card):
    """Deals ``indices[lo:hi]`` into the same rows of ``rec`` and ``hands_out`` (and, when
    ``log``, of ``li``/``lu``), with scratch of their own: the body of every deal kernel.
    ``play_deal`` is inlined here once, whether ``log`` is a constant or not."""
    deck, hands, prng, drng = deal_scratch(104)  # twice the deck: ``kit.deal``
    li_row, lu_row = no_log_row()
    ws = workspace.workspace_for(pols)
    for i in range(lo, hi):
        if log:
            li_row, lu_row = li[i], lu[i]
        play_deal(seed, indices[i], rp, pols, sc, deck, hands, prng, drng, rec[i],
                  hands_out[i], li_row, lu_row, log, ws, search_card)
        if log:
            for s in range(4):  # a slice assignment compiles numba's shape-mismatch error
                lu[i, U_HANDS + s] = hands_out[i, s]


CHUNK_SIG = chunk_signature(types.int8)


# no seat searches here (``pedro.search``: the same with dd and pimc seats); serial, run on
# threads (``kit.kernels``)
@serial_chunk_kernel(CHUNK_SIG)
def chunk_kernel(seed, indices, lo, hi, rp, pols, sc, rec, hands_out, li, lu, log):
    play_chunk(seed, indices, lo, hi, rp, pols, sc, rec, hands_out, li, lu, log, no_search)


simulate_kernel, log_kernel = threaded_kernels(chunk_kernel, NLOGI, NLOGU)
