"""The King kernels: one hand of any contract, whole 10-hand games, and logs.

May import: the foundations, ``games.kit``, ``games.search`` and King's rules, core,
adapter, policies (and engine); never another game.

:func:`play_hand` deals and plays one hand (negative contracts, combined
negatives, or a positive hand with its trump auction) and writes one record;
with ``log`` it also writes the auction and the tricks, from the same code
path. :func:`chunk_kernel` plays a chunk of hands, logged or not, and :func:`games_chunk` a
chunk of whole games (game ``g``: first dealer from the game stream, hand k dealt by
D0 + k), each serial; ``hands_kernel`` (single hands of one contract, hand ``i`` dealt by
``i % 4``), ``games_kernel`` and ``log_kernel`` run such chunks on threads
(:func:`threaded_hand_kernels`), as Pedro's and Rook's engines do.

These kernels play no ``dd`` or ``pimc`` seat (``play_hand`` takes the card search as an
argument, here :func:`no_search`), so they compile without the search; ``king.search``
has the same kernels with it.

``tests/reference/KING_LOG_FORMAT.md`` settles what the source text leaves open in King,
for this kernel and the reference alike.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

from ...bits import ZERO, bit, popcount
from ...cards import DECK_52
from ...rng import DEAL_STREAM, POLICY_STREAM, stream_key, uniform_int
from ..kit.choice import random_card
from ..kit.deal import deal
from ..kit.kernels import deal_scratch, no_search, serial_chunk_kernel
from ..kit.threads import run_chunks
from ..kit.tricks import forced_card, log_card, log_trick
from ..search import setup as workspace
from .knowledge import record_card
from .policies import (
    AH,
    HEARTS,
    KH,
    KINGS_JACKS,
    LANE,
    NO_TRUMP,
    QUEENS,
    best_trump,
    heuristic_accepts,
    heuristic_offer,
    negative_play,
    positive_play,
    trick_estimate,
    trump_value,
)
from .rules import (
    LAST_TWO,
    NO_HEARTS,
    NO_KING_OF_HEARTS,
    NO_KINGS_JACKS,
    NO_QUEENS,
    NO_TRICKS,
    P_AUCTION,
    P_CONTRACTS,
    P_FIRST_DEALER,
    P_FIRST_LEAD,
    P_FLOOR,
    P_KH_FORCE,
    P_MAX_OFFER,
    P_N_HANDS,
    P_NO_TRUMP,
    P_POS_LEADER,
    POSITIVE,
)

SEARCH_KERNELS = ".search"  # these kernels with the search behind dd/pimc seats

# ---- scenario vector (uint64): a known hand, and who names trump in a positive hand ---------
# SC_SEAT: 1 + the scenario seat's offset from the dealer (0 = none); SC_KNOWN + k: cards known
# to be held by the seat k places after the dealer. SC_CHOOSER: 0 = the auction decides,
# CHOOSE_SELF = the scenario seat names trump (SC_TRUMP, or its policy's when TRUMP_BY_POLICY),
# CHOOSE_OTHER = one of the other three (in turn by hand index) names its policy's trump; both
# skip the auction and pay nothing.
SC_SEAT, SC_KNOWN, SC_CHOOSER, SC_TRUMP = 0, 1, 5, 6
NSC = 7
CHOOSE_AUCTION, CHOOSE_SELF, CHOOSE_OTHER = 0, 1, 2
TRUMP_BY_POLICY = 5
GAME_STREAM = 32  # the first dealer of a game
OUT_NONE, OUT_SELL, OUT_DECLINE, OUT_PLAY = 0, 1, 2, 3
ACCEPT, REFUSE = 100, 101  # the benefited's answers in the auction log

# ---- per-hand record: int16 columns -----------------------------------------------------
REC_COLUMNS = (
    "dealer", "contract",
    "tricks0", "tricks1", "tricks2", "tricks3",
    "points0", "points1", "points2", "points3",
    "outcome", "buyer", "price", "trump", "chooser", "leader", "kh_seat", "n_calls",
)  # fmt: skip
(R_DEALER, R_CONTRACT, R_TRICKS, _, _, _, R_POINTS, _, _, _, R_OUTCOME, R_BUYER, R_PRICE,
 R_TRUMP, R_CHOOSER, R_LEADER, R_KH_SEAT, R_NCALLS) = range(len(REC_COLUMNS))  # fmt: skip
NREC = len(REC_COLUMNS)

# ---- log layout: int16 row: auction calls (seat, action) then tricks; -1 = none ------------
MAX_CALLS = 200
L_CALLS = 0
L_TRICKS = 2 * MAX_CALLS  # + 10 per trick: leader, winner, then (seat, card) x 4
NLOGI = L_TRICKS + 130

# ---- per-game record: int16 columns --------------------------------------------------------
MAX_HANDS = 10
# each hand's trump auction too (OUT_NONE and 0 for a negative hand): how often a rule sells
# or declines the trump right, and at what price, is what auction flags change
GAME_COLUMNS = ("first_dealer", "total0", "total1", "total2", "total3",
                *(f"h{k + 1}_p{s}" for k in range(MAX_HANDS) for s in range(4)), "kh_finder",
                *(f"h{k + 1}_outcome" for k in range(MAX_HANDS)),
                *(f"h{k + 1}_price" for k in range(MAX_HANDS)))
G_D0, G_TOTAL, G_HANDS = 0, 1, 5
G_FINDER = G_HANDS + 4 * MAX_HANDS  # the seat dealt the K♥ when the first dealer is found
G_OUTCOME = G_FINDER + 1  # hand k's auction outcome (OUT_*), then its price (tricks offered)
G_PRICE = G_OUTCOME + MAX_HANDS


@njit(cache=True)
def legal_moves(hand, led_suit, trick, contract, kh_force_ace):
    """Cards of ``hand`` playable to ``trick`` (``led_suit`` -1: the lead) under ``contract``."""
    if led_suit < 0:
        if contract & (NO_HEARTS | NO_KING_OF_HEARTS) and hand & ~HEARTS:
            return hand & ~HEARTS  # no heart lead while holding another suit
        return hand
    follow = hand & LANE[led_suit]
    if follow != ZERO:
        if contract & NO_KING_OF_HEARTS and kh_force_ace and led_suit == 2 and trick & AH \
                and hand & KH:
            return KH
        return follow
    if contract & NO_KING_OF_HEARTS and hand & KH:
        return KH  # the K♥ goes at the first chance
    return hand


@njit(cache=True, inline="always")
def _power(c, led_suit, trump):
    s = c >> 4
    if s == trump:
        return 100 + (c & 15)
    if s == led_suit:
        return c & 15
    return -1


@njit(cache=True, inline="always")
def _calls_at_random(pols, seat, play_only):
    """Whether ``seat`` offers, answers and names trump at random: the random policy, unless
    the policies choose cards only."""
    return pols[seat] == 0 and not play_only


@njit(cache=True, inline="always")
def _name_trump(hand, at_random, prng, allow_nt):
    """The trump the chooser names: uniform over the suits (and no trump where allowed) when
    it calls at random, else its best suit."""
    if at_random:
        return uniform_int(prng, 5 if allow_nt else 4)
    return best_trump(hand, allow_nt)


@njit(cache=True, inline="always")
def _shortcut_price(high, second, priority):
    """The valuation shortcut's price (docs/rules.md §3.5): where the ascending auction
    would end, at the runner-up's offer if the winner has priority over its seat (or no
    one else offered), else one trick more; at least 1, at most the winner's own offer."""
    return min(high, max(1, second if priority else second + 1))


@njit(cache=True, inline="always")
def _positive_leader(rule, dealer, chooser):
    """The positive hand's first leader under ``pos_leader`` (its index in ``rule``): the
    dealer, the trump's chooser or the dealer's left."""
    if rule == 0:
        return dealer
    if rule == 1:
        return chooser
    return (dealer + 1) & 3


@njit(cache=True)
def _random_offer(high, floor, has_priority, holds_offer, max_offer, prng):
    """Pass half the time, else a uniform legal offer (a raise, or the priority match);
    always pass while holding the high offer (docs/spec.md §3.5, "Bots")."""
    if holds_offer:
        return 0
    lowest = max(high, floor) + 1
    n = max(0, max_offer - lowest + 1) + (1 if has_priority else 0)
    if n == 0 or uniform_int(prng, 2) == 0:
        return 0
    k = uniform_int(prng, n)
    if has_priority and k == n - 1:
        return high
    return lowest + k


@njit(cache=True, inline="always")
def play_hand(seed, index, slot, dealer, contract, rp, pols, sc, deck, hands, prng, drng, rec,
              row, dealt, li, lu, log, ws, search_card):
    """Deal and play one hand; the record goes to ``rec[row]``, the dealt hands to ``dealt``.

    ``ws`` is the searching players' workspace (``search.setup.make_workspace``): dd and
    pimc seats offer and name trump by the heuristic and choose cards by ``search_card``
    (``king.search.search_card``, a paranoid search: the seat against the other three, or
    :func:`no_search`) once hands are down to the search depth. With
    ``pols[P_PLAY_ONLY]`` set the policies choose cards only: every seat offers, answers and
    names trump by the heuristic (the ladder's rungs play the same contracts).

    ``slot`` keeps a game's hands apart: hand k of game g uses the deal stream
    DEAL_STREAM + k and the policy stream POLICY_STREAM + k of deal index g.
    """
    play_only = workspace.plays_only(pols)
    drng[0] = stream_key(seed, index, DEAL_STREAM + slot)
    prng[0] = stream_key(seed, index, POLICY_STREAM + slot)
    deal(sc, SC_KNOWN, dealer, drng, deck, DECK_52, 13, hands)
    kh_seat = 0
    for s in range(4):
        dealt[s] = hands[s]
        if hands[s] & KH:
            kh_seat = s
    max_offer = rp[P_MAX_OFFER]
    allow_nt = rp[P_NO_TRUMP] == 1
    n_calls = 0
    outcome, buyer, price, trump, chooser = OUT_NONE, -1, 0, -1, -1
    leader = dealer if rp[P_FIRST_LEAD] == 0 else (dealer + 1) & 3
    positive = contract == POSITIVE
    choose = np.int64(sc[SC_CHOOSER])
    if positive and choose != CHOOSE_AUCTION:
        me = (dealer + np.int64(sc[SC_SEAT]) - 1) & 3
        outcome = OUT_PLAY
        chooser = me if choose == CHOOSE_SELF else (me + 1 + index % 3) & 3
        if choose == CHOOSE_SELF and sc[SC_TRUMP] != TRUMP_BY_POLICY:
            trump = np.int64(sc[SC_TRUMP])
        else:
            trump = _name_trump(hands[chooser], _calls_at_random(pols, chooser, play_only),
                                prng, allow_nt)
        leader = _positive_leader(rp[P_POS_LEADER], dealer, chooser)
    elif positive:
        # -- the trump auction (docs/rules.md §3.5) -----------------------------------------------
        high, holder, floor, last_answer = 0, -1, 0, -1
        sealed = rp[P_AUCTION] == 1
        second, holder_j, second_j, ask = 0, -1, -1, 0  # the shortcut's runner-up and price
        while True:
            new_offer = False
            for j in range(3):
                p = (dealer + 1 + j) & 3
                prio = holder >= 0 and j < ((holder - dealer - 1) & 3) and high > floor
                if sealed:
                    if _calls_at_random(pols, p, play_only):
                        x = uniform_int(prng, max_offer + 1)
                    else:
                        x = min(trump_value(hands[p], allow_nt), max_offer)
                    x = max(x, 0)
                    if x > high:
                        second, second_j = high, holder_j
                        high, holder, holder_j = x, p, j
                    elif x > second:
                        second, second_j = x, j
                    new_offer = new_offer or x > 0
                elif _calls_at_random(pols, p, play_only):
                    x = _random_offer(high, floor, prio, p == holder, max_offer, prng)
                else:  # the holder of the high offer passes, refused or not, until outbid
                    x = heuristic_offer(hands[p], high, floor, prio, p == holder, max_offer,
                                        allow_nt)
                if log and n_calls < MAX_CALLS:
                    li[L_CALLS + 2 * n_calls] = p
                    li[L_CALLS + 2 * n_calls + 1] = x
                n_calls += 1
                if x > 0 and not sealed:
                    high, holder = x, p
                    new_offer = True
                    last_answer = -1
            if not new_offer:
                break
            if sealed:  # the price the ascending auction would end at (docs/rules.md §3.5)
                ask = _shortcut_price(high, second, holder_j < second_j or second == 0)
            if _calls_at_random(pols, dealer, play_only):
                accept = uniform_int(prng, 2) == 1
            else:
                accept = heuristic_accepts(hands[dealer], ask if sealed else high, high <= 1,
                                           allow_nt)
            if log and n_calls < MAX_CALLS:
                li[L_CALLS + 2 * n_calls] = dealer
                li[L_CALLS + 2 * n_calls + 1] = ACCEPT if accept else REFUSE
            n_calls += 1
            if accept:
                last_answer = 1
            else:
                floor = high
                last_answer = 0
            if sealed:
                break
        if high >= 1 and last_answer == 1:
            outcome, buyer, price = OUT_SELL, holder, ask if sealed else high
        elif high <= 1:
            if _calls_at_random(pols, dealer, play_only):
                decline = uniform_int(prng, 2) == 1
            else:
                decline = trick_estimate(hands[dealer], best_trump(hands[dealer], allow_nt)) < 16
            outcome = OUT_DECLINE if decline else OUT_PLAY
        else:
            outcome = OUT_PLAY
        if outcome != OUT_DECLINE:  # a declined hand is not played: no trump, no leader
            chooser = buyer if outcome == OUT_SELL else dealer
            trump = _name_trump(hands[chooser], _calls_at_random(pols, chooser, play_only),
                                prng, allow_nt)
            leader = _positive_leader(rp[P_POS_LEADER], dealer, chooser)
    if log:
        for j in range(min(n_calls, MAX_CALLS), MAX_CALLS):
            li[L_CALLS + 2 * j] = -1
            li[L_CALLS + 2 * j + 1] = -1
        for j in range(L_TRICKS, NLOGI):
            li[j] = -1
    # -- play: 13 tricks (none after a 4-3-3-3 decline) ------------------------------------------
    won0, won1, won2, won3 = ZERO, ZERO, ZERO, ZERO
    t0, t1, t2, t3 = 0, 0, 0, 0
    w11, w12 = -1, -1
    first_leader = leader
    kh_force_ace = rp[P_KH_FORCE] == 1
    tr = trump if positive else -1
    searching = workspace.any_searching(pols)
    depth = workspace.search_depth(pols)
    if searching:
        ws[workspace.WS_KN][:] = ZERO  # nothing known yet: no voids, no cards, no minimum
    if outcome != OUT_DECLINE:
        played = ZERO
        for t in range(13):
            led_suit = -1
            best_seat, best_card, best_pow = -1, -1, -1
            trick = ZERO
            for pos in range(4):
                seat = (leader + pos) & 3
                h = hands[seat]
                legal = legal_moves(h, led_suit, trick, contract, kh_force_ace)
                c = forced_card(legal)
                if c < 0 and pols[seat] >= workspace.POLICY_DD and 13 - t <= depth:
                    c = search_card(pols, seat, hands, leader, pos, legal, ws,
                                    (index << 4) + slot + 1, contract, kh_force_ace, tr,
                                    played | trick, prng)
                if c >= 0:
                    pass
                elif pols[seat] == 0:
                    c = random_card(legal, prng)
                else:
                    unseen = ~played & ~h & ~trick & (LANE[0] | LANE[1] | LANE[2] | LANE[3])
                    if positive:
                        c = positive_play(h, legal, led_suit, best_card,
                                          tr if tr >= 0 else NO_TRUMP, pos, unseen,
                                          seat == chooser)
                    else:
                        c = negative_play(h, legal, led_suit, best_card, pos, contract, unseen)
                if searching:  # the card, and what it shows of the seat's hand
                    record_card(ws, pos, seat, c, led_suit, trick, contract, kh_force_ace)
                if led_suit < 0:
                    led_suit = c >> 4
                pw = _power(c, led_suit, tr)
                if pw > best_pow:
                    best_seat, best_card, best_pow = seat, c, pw
                trick |= bit(c)
                hands[seat] = h & ~bit(c)
                if log:
                    log_card(li, L_TRICKS + 10 * t, pos, seat, c)
            played |= trick
            if best_seat == 0:
                won0 |= trick
                t0 += 1
            elif best_seat == 1:
                won1 |= trick
                t1 += 1
            elif best_seat == 2:
                won2 |= trick
                t2 += 1
            else:
                won3 |= trick
                t3 += 1
            if t == 11:
                w11 = best_seat
            elif t == 12:
                w12 = best_seat
            if log:
                log_trick(li, L_TRICKS + 10 * t, leader, best_seat)
            leader = best_seat
    # -- score ------------------------------------------------------------------------------------
    for s in range(4):
        won = won0 if s == 0 else (won1 if s == 1 else (won2 if s == 2 else won3))
        n = t0 if s == 0 else (t1 if s == 1 else (t2 if s == 2 else t3))
        rec[row, R_TRICKS + s] = n
        pts = 0
        if positive:
            if outcome == OUT_DECLINE:
                n = 4 if s == dealer else 3
                rec[row, R_TRICKS + s] = 0
            elif outcome == OUT_SELL:
                nb = t0 if buyer == 0 else (t1 if buyer == 1 else (t2 if buyer == 2 else t3))
                pay = price if rp[P_FLOOR] == 0 else min(price, nb)
                if s == buyer:
                    n -= pay
                elif s == dealer:
                    n += pay
            pts = 25 * n
        else:
            if contract & NO_TRICKS:
                pts -= 20 * n
            if contract & NO_HEARTS:
                pts -= 20 * popcount(won & HEARTS)
            if contract & NO_KINGS_JACKS:
                pts -= 30 * popcount(won & KINGS_JACKS)
            if contract & NO_QUEENS:
                pts -= 50 * popcount(won & QUEENS)
            if contract & NO_KING_OF_HEARTS and won & KH:
                pts -= 160
            if contract & LAST_TWO:
                pts -= 90 * ((1 if w11 == s else 0) + (1 if w12 == s else 0))
        rec[row, R_POINTS + s] = pts
    rec[row, R_DEALER] = dealer
    rec[row, R_CONTRACT] = contract
    rec[row, R_OUTCOME] = outcome
    rec[row, R_BUYER] = buyer
    rec[row, R_PRICE] = price
    rec[row, R_TRUMP] = tr
    rec[row, R_CHOOSER] = chooser
    rec[row, R_LEADER] = first_leader if outcome != OUT_DECLINE else -1
    rec[row, R_KH_SEAT] = kh_seat
    rec[row, R_NCALLS] = n_calls


@njit(cache=True)
def first_dealer(seed, game, rp, pols):
    """(first dealer, K♥ finder) of a game. The cards are dealt one by one until a seat
    receives the K♥ (a uniform seat): by default it deals first (docs/rules.md §3.1);
    with kh_finder_chooses it names the first dealer, the random policy any seat and the
    others the seat on its left, so that it deals fourth (D0+3): the position that scored
    best in 500,000 heuristic games (+3.6 [+3.0, +4.1] points a game over an even share;
    the first dealer -1.6). Naming himself, as it did, was the worst of the four."""
    g = np.empty(1, dtype=np.uint64)
    g[0] = stream_key(seed, game, GAME_STREAM)
    finder = uniform_int(g, 4)
    d0 = finder
    if rp[P_FIRST_DEALER] == 1:
        d0 = uniform_int(g, 4) if pols[finder] == 0 else (finder + 1) & 3
    return d0, finder


@njit(cache=True, inline="always")
def play_games(seed, first, lo, hi, rp, pols, out, search_card):
    """Whole games ``first + lo`` .. ``first + hi - 1`` into rows lo .. hi-1 of ``out``: one
    chunk of a games kernel."""
    n_hands = rp[P_N_HANDS]
    sc = np.zeros(NSC, dtype=np.uint64)
    deck, hands, prng, drng = deal_scratch(104)  # twice the deck: ``kit.deal``
    rec = np.empty((1, NREC), dtype=np.int16)
    dealt = np.empty(4, dtype=np.uint64)
    li = np.empty(1, dtype=np.int16)
    lu = np.empty(1, dtype=np.uint64)
    ws = workspace.workspace_for(pols)
    for i in range(lo, hi):
        g = first + i
        d0, finder = first_dealer(seed, g, rp, pols)
        out[i, G_D0] = d0
        out[i, G_FINDER] = finder
        for s in range(4):
            out[i, G_TOTAL + s] = 0
        for k in range(MAX_HANDS):
            for s in range(4):
                out[i, G_HANDS + 4 * k + s] = 0
            out[i, G_OUTCOME + k] = OUT_NONE
            out[i, G_PRICE + k] = 0
        for k in range(n_hands):
            play_hand(seed, g, k, (d0 + k) & 3, rp[P_CONTRACTS + k], rp, pols, sc, deck, hands,
                      prng, drng, rec, 0, dealt, li, lu, False, ws, search_card)
            for s in range(4):
                out[i, G_HANDS + 4 * k + s] = rec[0, R_POINTS + s]
                out[i, G_TOTAL + s] += rec[0, R_POINTS + s]
            out[i, G_OUTCOME + k] = rec[0, R_OUTCOME]
            out[i, G_PRICE + k] = rec[0, R_PRICE]


@njit(cache=True, inline="always")
def play_chunk(seed, indices, slots, dealers, contracts, lo, hi, rp, pols, sc, rec, hands_out,
               li, log, search_card):
    """Hands ``lo .. hi-1`` of (index, slot, dealer, contract) into the same rows of ``rec``
    and ``hands_out`` (and of ``li`` when ``log``), with scratch of their own: the body of
    every hands kernel, logged or not, with the search or without, ``play_hand`` inlined once."""
    deck, hands, prng, drng = deal_scratch(104)  # twice the deck: ``kit.deal``
    li_row = np.empty(1, dtype=np.int16)  # a stand-in for a log row when not logging
    lu = np.empty(1, dtype=np.uint64)
    ws = workspace.workspace_for(pols)
    for i in range(lo, hi):
        if log:
            li_row = li[i]
        play_hand(seed, indices[i], slots[i], dealers[i], contracts[i], rp, pols, sc, deck,
                  hands, prng, drng, rec, i, hands_out[i], li_row, lu, log, ws, search_card)


# a chunk kernel (here and in ``king.search``): hands lo .. hi-1, logged or not
CHUNK_SIG = types.void(
    types.int64, types.int64[:], types.int64[:], types.int64[:], types.int64[:], types.int64,
    types.int64, types.int64[:], types.int64[:], types.uint64[:], types.int16[:, :],
    types.uint64[:, :], types.int16[:, :], types.boolean,
)
# a games chunk: (seed, first, lo, hi, rp, pols, out), games first + lo .. first + hi - 1
GAMES_SIG = types.void(types.int64, types.int64, types.int64, types.int64, types.int64[:],
                       types.int64[:], types.int16[:, :])


# serial, run on threads, like Pedro's and Rook's, but compiled by numba's parallel pipeline:
# with the copy propagation alone (``kit.kernels``) King's heuristic
# hands ran about 10% slower (three paired runs, 2026-12-03), Pedro's and Rook's did not
@serial_chunk_kernel(CHUNK_SIG, parallel_pipeline=True)
def chunk_kernel(seed, indices, slots, dealers, contracts, lo, hi, rp, pols, sc, rec,
                 hands_out, li, log):
    """Hands ``lo .. hi-1`` of (index, slot, dealer, contract), with their logs when ``log``;
    no seat searches."""
    play_chunk(seed, indices, slots, dealers, contracts, lo, hi, rp, pols, sc, rec, hands_out,
               li, log, no_search)


# single hands of one contract, hand i dealt by i % 4, no log: (seed, indices, contract, lo,
# hi, rp, pols, sc, rec, hands_out)
HANDS_SIG = types.void(types.int64, types.int64[:], types.int64, types.int64, types.int64,
                       types.int64[:], types.int64[:], types.uint64[:], types.int16[:, :],
                       types.uint64[:, :])


@serial_chunk_kernel(HANDS_SIG, parallel_pipeline=True)
def hands_chunk(seed, indices, contract, lo, hi, rp, pols, sc, rec, hands_out):
    """Hands ``lo .. hi-1`` of ``contract``, no log, no seat searching: ``play_hand`` compiled
    with the log and the search away (``chunk_kernel``'s runtime flags cost ~4%)."""
    deck, hands, prng, drng = deal_scratch(104)
    li_row = np.empty(1, dtype=np.int16)
    lu = np.empty(1, dtype=np.uint64)
    ws = workspace.workspace_for(pols)
    for i in range(lo, hi):
        play_hand(seed, indices[i], 0, indices[i] % 4, contract, rp, pols, sc, deck, hands,
                  prng, drng, rec, i, hands_out[i], li_row, lu, False, ws, no_search)


@serial_chunk_kernel(GAMES_SIG, parallel_pipeline=True)
def games_chunk(seed, first, lo, hi, rp, pols, out):
    """Whole games ``first + lo`` .. ``first + hi - 1``; no seat searches."""
    play_games(seed, first, lo, hi, rp, pols, out, no_search)


def threaded_hand_kernels(chunk_kernel, games_chunk, log_chunk: int | None = None,
                          hands_chunk=None):
    """``(hands_kernel, games_kernel, log_kernel)`` run over a chunk kernel and a games chunk
    (of this module or ``king.search``) on threads (``kit.threads.run_chunks``):

    * ``hands_kernel(seed, indices, chunk, contract, rp, pols, sc, rec, hands_out)``: single
      hands of one contract, hand ``i`` dealt by ``i % 4``, ``chunk`` hands a call;
    * ``games_kernel(seed, first, n, chunk, rp, pols, out)``: whole games first .. first+n-1
      into ``out[n, len(GAME_COLUMNS)]``;
    * ``log_kernel(seed, indices, slots, dealers, contracts, rp, pols, rec, hands_out, li)``:
      the chosen hands with their logs, ``log_chunk`` hands a call (all in one by default).
    """

    def hands_kernel(seed, indices, chunk, contract, rp, pols, sc, rec, hands_out):
        n = len(indices)
        if hands_chunk is not None:
            run_chunks(lambda lo, hi: hands_chunk(seed, indices, contract, lo, hi, rp, pols, sc,
                                                  rec, hands_out), n, chunk)
            return
        slots, dealers = np.zeros(n, np.int64), indices % 4
        contracts = np.full(n, contract, np.int64)
        li = np.empty((0, NLOGI), np.int16)
        run_chunks(lambda lo, hi: chunk_kernel(seed, indices, slots, dealers, contracts, lo,
                                               hi, rp, pols, sc, rec, hands_out, li, False),
                   n, chunk)

    def games_kernel(seed, first, n, chunk, rp, pols, out):
        run_chunks(lambda lo, hi: games_chunk(seed, first, lo, hi, rp, pols, out), n, chunk)

    def log_kernel(seed, indices, slots, dealers, contracts, rp, pols, rec, hands_out, li):
        sc = np.zeros(NSC, np.uint64)
        n = len(indices)
        run_chunks(lambda lo, hi: chunk_kernel(seed, indices, slots, dealers, contracts, lo,
                                               hi, rp, pols, sc, rec, hands_out, li, True),
                   n, log_chunk or max(n, 1))

    return hands_kernel, games_kernel, log_kernel


hands_kernel, games_kernel, log_kernel = threaded_hand_kernels(chunk_kernel, games_chunk,
                                                               hands_chunk=hands_chunk)
