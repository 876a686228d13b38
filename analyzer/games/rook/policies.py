"""Rook policies in numba: ``random`` and ``heuristic``, chosen per seat.

May import: the foundations, ``games.kit``, ``games.search.params``/``setup`` and Rook's
rules and core; never another game.

``random`` (code 0) is uniform over the legal actions of every phase: pass,
the lowest legal bid or any legal bid (a third each); any legal drop; any 3
cards to pass; any allowed trump; either first leader; any legal card. Its
draws are made in the engine from the policy stream.

Every function here takes scalars only: they run for most of the 52 plays of
a hand, and an array argument costs reference counting on every call.

``heuristic`` (code 1) plays like a sensible club player, using only what its
seat may know (its cards and the cards played):

* **Bidding.** It estimates its side's points with its best suit as trump
  (:func:`estimate`: counters held, trump length, side aces, top trumps, the
  Rook, and an allowance for partner and the widow) and raises by the minimum
  while that estimate less a margin covers the bid. It overbids its own partner
  only with a clearly stronger hand.
* **Drop and pass.** It gives up its least valuable cards: low non-counters
  (2 to J) from its shortest side suits first, then higher non-counters, then
  counters, lowest first; trumps and the Rook only when nothing else is left.
* **Trump.** Its longest suit, ties broken by high cards; no trump (when
  allowed) with the Rook and no suit longer than 4 (:func:`heuristic_trump`).
* **Play.** As declarer it draws trumps: with its top trump while no unseen trump beats
  it, else with its lowest trump that does not count, holding four or more or at least
  as many as are unseen (its partner leaves the trumps to it). It cashes cards that are
  top of their suit (defenders too, with trumps still out), otherwise leads low from its
  longest side suit, smears counters onto tricks its partner is sure to win (the Rook
  first, and trump counters too, unless they are top of the trump suit), gives a side
  counter to partner's top-of-suit card third in hand (only a ruff beats it), takes over
  partner's trick with the top card of the suit when the last hand could beat partner,
  second in hand and void without a trump gives partner, last, a side counter that is
  not top of its suit when a card still out beats the lead, takes tricks with points
  using the cheapest card that wins (a counter that is top of its suit when a later hand
  could beat the cheapest), and keeps its last trump for the last trick rather than
  ruffing a trick worth under 10 points with it (15 when it is sure of the last trick
  and its bonus). With rook_free_play, second or third in hand, it does not take a trick
  worth under 10 points with a Rook that a later trump may beat.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...bits import ONE, ZERO, bit, lsb, msb, popcount
from ...cards import JOKER
from ...rng import uniform_int
from ..kit.lanes import COLUMN, LANE, RANKS_FROM, highest_card, lowest_card, suit_tops
from .core import (
    NO_TRUMP,
    ROOK,
    TRUMP_POWER,
    points_of,
    stronger,
)

RANDOM, HEURISTIC = 0, 1  # policy codes, as named in games.common.POLICY_NAMES

# Bidding valuation, in points of a 200-point hand (scaled to other point schemes): the
# side's points as declarer ~ _BASE + _PER_POINT x counters held + _PER_TRUMP x trump length
# (the Rook included) + _PER_ACE x side aces + _PER_TOP x top trumps (Q K A). Least-squares
# fit on 200,000 heuristic hands with eldest forced to declare (simulations/rook_calibrate.py,
# residual sd 36 points); the base carries the partner's and the widow's share. Counters
# weigh little: the trump length decides who takes them.
_BASE = 65.3
_PER_POINT = 0.22
_PER_TRUMP = 9.1
_PER_ACE = 5.3
_PER_TOP = 7.5
_BID_MARGIN = 15.0
_OVERBID_PARTNER = 20.0  # outbid one's own partner only when this much stronger
# ruff with one's last trump only for a trick worth this much (its own 10 if it counts): at 20
# it was kept for the last trick while cheap tricks went by (10 over 20: +1.23 net points a
# hand, duplicate; 5, 15 and 0 lose to 10)
_RUFF_FLOOR = 10
# ... and a last trump that no unseen trump beats, sure of the last trick and its bonus, only
# for a trick worth this much (15 over 10: +0.295 net points a hand, duplicate; 20 and 25
# gain less, 30 loses; without a last-trick bonus 15 loses 0.43, so 10 stays there)
_BOSS_RUFF_FLOOR = 15
# second or third in hand, win with a card a later hand may beat only a trick worth this
# much: a 5 in it is enough (+0.11 net points a hand over 10, duplicate)
_TAKE_FLOOR = 5
# with rook_free_play, second or third in hand, the Rook takes a trick worth less than this
# only when no unseen trump can beat it: a later hand that overtrumps the lowest trump takes
# its 20 points, and a free Rook can wait for a trick partner wins (duplicate, see
# heuristic_play)
_FREE_ROOK_FLOOR = 10


@njit(cache=True, inline="always")
def suit_score(hand, s):
    """Strength of suit ``s`` as trump: length first, then the highest cards."""
    m = (hand >> np.uint64(16 * s)) & np.uint64(0x1FFF)
    return np.int64((np.uint64(popcount(m)) << np.uint64(13)) | m)


@njit(cache=True, inline="always")
def best_suit(hand):
    """The longest suit, ties to the one with the higher top cards (then C D H S order)."""
    best, best_score = 0, -1
    for s in range(4):
        sc = suit_score(hand, s)
        if sc > best_score:
            best, best_score = s, sc
    return best


@njit(cache=True, inline="always")
def estimate(hand, cpts, total_points):
    """Expected points of the side of a seat holding ``hand`` that names its best suit."""
    s = best_suit(hand)
    trumps = hand & LANE[s]
    length = popcount(trumps) + (1 if hand & ROOK else 0)
    aces = popcount(hand & ~trumps & (COLUMN << np.uint64(12)))
    top = popcount(trumps & RANKS_FROM[10])  # Q, K, A of trumps
    scale = total_points / 200.0
    return (scale * (_BASE + _PER_TRUMP * length + _PER_ACE * aces + _PER_TOP * top)
            + _PER_POINT * points_of(hand, cpts))


@njit(cache=True)
def random_bid(high, step_exact, total_points, prng):
    """0 (pass) or a legal bid: a multiple of 5 above ``high`` (70 to open), at most the total."""
    lowest = 70 if high == 0 else high + 5
    if lowest > total_points:
        return 0
    r = uniform_int(prng, 3)
    if r == 0:
        return 0
    if r == 1 or step_exact:
        return lowest
    return lowest + 5 * uniform_int(prng, (total_points - lowest) // 5 + 1)


@njit(cache=True, inline="always")
def heuristic_bid(value, seat, high, high_seat, total_points):
    """The lowest legal bid while the valuation less a margin covers it, else 0 (pass)."""
    lowest = 70 if high == 0 else high + 5
    if lowest > total_points:
        return 0
    limit = value - _BID_MARGIN * total_points / 200.0
    if high_seat >= 0 and (high_seat & 1) == (seat & 1):
        limit -= _OVERBID_PARTNER
    return lowest if lowest <= limit else 0


LOW_CARDS = RANKS_FROM[0] & ~RANKS_FROM[10]  # 2 to J of every suit


@njit(cache=True, inline="always")
def lowest_trump(trumps, rook_pos):
    """The weakest of a non-empty set of trumps."""
    real = trumps & ~ROOK
    if real == ZERO:
        return JOKER
    c = lsb(real)
    if trumps & ROOK and rook_pos <= (c & 15):
        return JOKER
    return c


@njit(cache=True, inline="always")
def top_trump(trumps, rook_pos):
    """The strongest of a non-empty set of trumps."""
    real = trumps & ~ROOK
    if real == ZERO:
        return JOKER
    c = msb(real)
    if trumps & ROOK and rook_pos > (c & 15):
        return JOKER
    return c


@njit(cache=True, inline="always")
def trumps_above(trumps, p, rook_pos):
    """The trumps of ``trumps`` whose power beats ``p`` (all of them over a plain card)."""
    if p < TRUMP_POWER:
        return trumps
    out = trumps & ~ROOK & RANKS_FROM[min((p - TRUMP_POWER + 1) // 2, 13)]
    if TRUMP_POWER + 2 * rook_pos > p:
        out |= trumps & ROOK
    return out


@njit(cache=True)
def least_valuable(cards, hand, intent, counters):
    """The card of ``cards`` a seat that means ``intent`` for trump gives up first."""
    side = cards & ~LANE[intent] & ~ROOK
    low = side & ~counters & LOW_CARDS
    if low != ZERO:  # the lowest card of the shortest side suit holding one
        best_s, best_len = 0, 99
        for s in range(4):
            if low & LANE[s]:
                n = popcount(hand & LANE[s])
                if n < best_len:
                    best_s, best_len = s, n
        return lsb(low & LANE[best_s])
    if side & ~counters:
        return lowest_card(side & ~counters)
    if side != ZERO:
        return lowest_card(side)
    if cards & LANE[intent]:
        return lowest_card(cards & LANE[intent])
    return JOKER


@njit(cache=True)
def heuristic_drop(hand, allowed, counters):
    """The card the declarer drops from his 14 (``allowed``: those the rules let him drop)."""
    return least_valuable(allowed, hand, best_suit(hand), counters)


@njit(cache=True)
def heuristic_pass(hand, counters):
    """Three cards to pass to an opponent: the three least valuable (see least_valuable).

    The usual case, three low non-counters in side suits, takes the lowest of them
    from the shortest side suit first (ties: C D H S order), then the next
    shortest: the suits' low cards are laid out in that order in one mask, whose
    three lowest bits are the choice. No loop and no branch on the cards.
    """
    intent = best_suit(hand)
    low = hand & ~LANE[intent] & ~ROOK & ~counters & LOW_CARDS
    k0 = popcount(hand & LANE[0]) * 4  # sort key of a suit: (its length, its index)
    k1 = popcount(hand & LANE[1]) * 4 + 1
    k2 = popcount(hand & LANE[2]) * 4 + 2
    k3 = popcount(hand & LANE[3]) * 4 + 3
    r0 = np.uint64(16 * ((k1 < k0) + (k2 < k0) + (k3 < k0)))  # each suit's lane in the order
    r1 = np.uint64(16 * ((k0 < k1) + (k2 < k1) + (k3 < k1)))
    r2 = np.uint64(16 * ((k0 < k2) + (k1 < k2) + (k3 < k2)))
    r3 = np.uint64(16 * ((k0 < k3) + (k1 < k3) + (k2 < k3)))
    lane = LANE[0]
    ordered = ((low & lane) << r0) | (((low >> np.uint64(16)) & lane) << r1) \
        | (((low >> np.uint64(32)) & lane) << r2) | (((low >> np.uint64(48)) & lane) << r3)
    rest = ordered & (ordered - ONE)
    rest &= rest - ONE
    rest &= rest - ONE
    first = ordered & ~rest  # its three lowest cards (fewer if it has fewer)
    out = ((first >> r0) & lane) | (((first >> r1) & lane) << np.uint64(16)) \
        | (((first >> r2) & lane) << np.uint64(32)) | (((first >> r3) & lane) << np.uint64(48))
    for _ in range(3 - popcount(out)):
        out |= bit(least_valuable(hand & ~out, hand, intent, counters))
    return out


@njit(cache=True)
def heuristic_trump(hand, allow_no_trump):
    """The longest suit, or no trump (when allowed) with the Rook and no suit longer than
    4: the Rook is then the only trump, and a long suit no longer pays. Measured as
    declarer with this heuristic's play (1,500 random hands, 300 deals each): such hands
    take 14 to 24 points more at no trump than at their best suit; with a five-card suit
    it is even, and without the Rook no trump loses 19 or more. (The rule before, a flat
    hand with three aces, needed a longest suit of 3: a hand of 12 suited cards and the
    Rook, so no trump was hardly ever called.)"""
    s = best_suit(hand)
    if allow_no_trump and hand & ROOK and popcount(hand & LANE[s]) <= 4:
        return NO_TRUMP
    return s


@njit(cache=True, inline="always")
def cheapest(cards, tmask, counters, rook_pos):
    """What to throw to a trick one does not win: a low non-counter, a low counter, a trump."""
    side = cards & ~tmask
    if side & ~counters:
        return lowest_card(side & ~counters)
    if side != ZERO:
        return lowest_card(side)
    real = cards & ~ROOK
    if real != ZERO:  # the Rook's 20 points go last
        return lowest_trump(real, rook_pos)
    return JOKER


@njit(cache=True, inline="always")
def smear_card(legal, tmask, rook_pos, unseen, counters):
    """The counter to give a trick partner is sure to win, or -1: the Rook first, then the
    highest side-suit counter, then the highest trump counter. The Rook and trump counters
    only while some unseen trump beats them (a trump that is top of the suit wins a trick
    of its own; as the lowest trump the Rook is hard to save otherwise)."""
    if legal & ROOK and stronger(JOKER, tmask, rook_pos) & unseen:
        return JOKER
    side = legal & ~tmask & counters
    if side != ZERO:
        return highest_card(side)
    tc = legal & tmask & counters & ~ROOK
    give = ZERO
    while tc != ZERO:
        c = lsb(tc)
        tc &= tc - ONE
        if stronger(c, tmask, rook_pos) & unseen:
            give |= bit(c)
    return msb(give) if give != ZERO else -1


@njit(cache=True, inline="always")
def _lead(hand, is_declarer, tmask, rook_pos, unseen, counters):
    trumps = hand & tmask
    if is_declarer and popcount(trumps) >= 2 and unseen & tmask:
        # the declarer draws trumps (his partner leaves them to him: +0.61 net points a hand,
        # duplicate); with his top trump while nothing unseen beats it, else with his lowest
        # trump that does not count, which gives up no points to the trump over it, when he
        # holds four or more or at least as many as are unseen (+2.30; it led the top trump
        # from four into the ace)
        top = top_trump(trumps, rook_pos)
        if stronger(top, tmask, rook_pos) & unseen == ZERO:
            return top
        n = popcount(trumps)
        if n >= 4 or popcount(unseen & tmask) <= n:
            low = trumps & ~ROOK & ~counters
            if low != ZERO:
                return lsb(low)
            if n >= 4:
                return top
    plain = hand & ~tmask
    # cash the highest card that no unseen card of its suit beats (ties: C D H S order).
    # Defenders too, while trumps are out: an ace held back is ruffed or thrown once the
    # declarer has drawn trumps and runs his long suit (+5.8 net points a hand, duplicate).
    sure = suit_tops(plain | unseen) & plain
    if sure != ZERO:
        return highest_card(sure)
    if plain != ZERO:  # low from the longest side suit
        longest, n = 0, -1
        for s in range(4):
            k = popcount(plain & LANE[s])
            if k > n:
                longest, n = s, k
        # (no ace is left to lead here: every side ace is top of its suit, cashed above)
        return cheapest(plain & LANE[longest], tmask, counters, rook_pos)
    return cheapest(hand, tmask, counters, rook_pos)


@njit(cache=True, inline="always")
def heuristic_play(hand, legal, led, best_seat, best_card, best_pow, trick_pts, pos, seat,
                   declarer, tmask, rook_pos, unseen, tricks_left, counters, free_play=False,
                   last_pts=20):
    """The heuristic's card. ``unseen``: cards this seat has not seen played or held;
    ``declarer``: the declarer's seat; ``last_pts``: the last trick's bonus.

    Scalars only: this runs for most of the 52 plays of a hand, and array
    arguments would cost reference counting on every call."""
    my_team = seat & 1
    if led == ZERO:
        return _lead(hand, seat == declarer, tmask, rook_pos, unseen, counters)
    if (best_seat & 1) == my_team:  # partner is winning
        if pos == 3 or (stronger(best_card, tmask, rook_pos) & unseen == ZERO
                        and (bit(best_card) & tmask or unseen & tmask == ZERO)):
            c = smear_card(legal, tmask, rook_pos, unseen, counters)
            if c >= 0:
                return c  # partner is sure to win: give him points
        if pos == 2 and bit(best_card) & led & ~tmask:
            if unseen & led & RANKS_FROM[best_pow + 1] == ZERO:
                # partner's card is top of its suit and only a ruff beats it: give it a side
                # counter that would not win a trick of its own (+3.2 net points a hand)
                give = legal & ~tmask & counters & ~suit_tops(legal | unseen)
                if give != ZERO:
                    return highest_card(give)
            else:
                # the last hand may beat partner's card: take over with the top card of the
                # suit, which wins for certain unless trumped (+1.0 net points a hand)
                over = legal & led & suit_tops(legal | unseen) & RANKS_FROM[best_pow + 1]
                if over != ZERO:
                    return lowest_card(over)
        return cheapest(legal, tmask, counters, rook_pos)
    if best_pow >= TRUMP_POWER:
        win = trumps_above(legal & tmask, best_pow, rook_pos)
    else:
        win = (legal & led & RANKS_FROM[best_pow + 1]) | (legal & tmask)
    if free_play and pos < 3 and trick_pts < _FREE_ROOK_FLOOR \
            and stronger(JOKER, tmask, rook_pos) & unseen:
        # The Rook played at will may be overtrumped by a later hand; on a cheap trick keep
        # it for one partner wins (rook(rook_free_play=True), 1,000,000 hands, partnerships
        # swapped: +0.172 net points a hand, 95% CI +0.153 to +0.192; only when able to
        # follow, +0.110; without free play, a void hand not ruffing so loses 0.66)
        win &= ~ROOK
    if win != ZERO:
        plain_win = win & ~tmask
        w = lowest_card(plain_win) if plain_win != ZERO else lowest_trump(win, rook_pos)
        if pos < 3 and plain_win != ZERO and stronger(w, tmask, rook_pos) & unseen:
            # a later hand may beat the cheapest winner: win with a counter that is top of the
            # suit instead, which it must cash some time anyway (+1.2 net points a hand)
            sure = plain_win & counters & suit_tops(plain_win | unseen)
            if sure != ZERO:
                w = lowest_card(sure)
        worth = trick_pts + (10 if bit(w) & counters else 0)  # a counter of ours is safe too
        if bit(w) & tmask and not (led & tmask) and tricks_left > 1 \
                and popcount(hand & tmask) == 1 and worth < _BOSS_RUFF_FLOOR and (
                    worth < _RUFF_FLOOR
                    or last_pts > 0 and stronger(w, tmask, rook_pos) & unseen == ZERO):
            return cheapest(legal, tmask, counters, rook_pos)  # keep the last trump
        if pos == 3 or stronger(w, tmask, rook_pos) & unseen == ZERO or worth >= _TAKE_FLOOR:
            return w
    if pos == 1 and legal & (led | tmask) == ZERO and best_pow < TRUMP_POWER \
            and stronger(best_card, tmask, rook_pos) & unseen:
        # second in hand, void and without a trump, on a lead a card still out beats: partner,
        # last, may win it, so a side counter that would fall to a higher card of its suit
        # later goes now (+0.66 net points a hand, duplicate)
        give = legal & counters & ~suit_tops(legal | unseen)
        if give != ZERO:
            return highest_card(give)
    return cheapest(legal, tmask, counters, rook_pos)
