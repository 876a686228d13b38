"""Rook policies in numba: ``random`` and ``heuristic``, chosen per seat.

``random`` (code 0) is uniform over the legal actions of every phase: pass,
the lowest legal bid or any legal bid (a third each); any legal drop; any 3
cards to pass; any allowed trump; either first leader; any legal card.

``heuristic`` (code 1) plays like a sensible club player, using only what its
seat may know (its cards and the cards played):

* **Bidding.** It estimates its side's points with its best suit as trump
  (:func:`estimate`: counters held, trump length, side aces, top trumps, the
  Rook, and an allowance for partner and the widow) and raises by the minimum
  while that estimate less a margin covers the bid. It overbids its own partner
  only with a clearly stronger hand.
* **Drop and pass.** It gives up its least valuable cards: low non-counters
  from short side suits, keeping trumps, counters and high cards unless forced.
* **Trump.** Its longest suit, ties broken by high cards; no trump (when
  allowed) only with a flat hand and three aces.
* **Play.** It draws trumps while its side is declarer, cashes cards that are
  top of their suit, smears counters onto tricks its partner is sure to win,
  takes tricks with points using the cheapest card that wins, and keeps its
  last trump for the last trick rather than ruffing cheap tricks with it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..bits import ONE, ZERO, bit, lsb, msb, popcount
from ..cards import JOKER
from ..rng import uniform_int
from ._choice import random_card, random_subset
from ._rook_core import LANE, NO_TRUMP, ROOK, points_of, power, stronger

RANDOM, HEURISTIC = 0, 1  # policy codes, as named in games.common.POLICY_NAMES

# Bidding valuation, in points of a 200-point hand (scaled to other point schemes): the
# side's points as declarer ~ _BASE + _PER_POINT x counters held + _PER_TRUMP x trump length
# (the Rook included) + _PER_ACE x side aces + _PER_TOP x top trumps (Q K A). Least-squares
# fit on 200,000 heuristic hands with the seat forced to declare (simulations/rook_calibrate.py);
# the base carries the partner's and the widow's share. Counters weigh little: the trump
# length decides who takes them.
_BASE = 73.0
_PER_POINT = 0.15
_PER_TRUMP = 8.4
_PER_ACE = 6.0
_PER_TOP = 8.0
_BID_MARGIN = 15.0
_OVERBID_PARTNER = 20.0  # outbid one's own partner only when this much stronger
_RUFF_FLOOR = 20  # ruff with one's last trump only for a trick worth this much


@njit(cache=True)
def suit_score(hand, s):
    """Strength of suit ``s`` as trump: length first, then high cards."""
    m = hand & LANE[s]
    score = 32 * popcount(m)
    while m != ZERO:
        c = lsb(m)
        score += c & 15
        m &= m - ONE
    return score


@njit(cache=True)
def best_suit(hand):
    best, best_score = 0, -1
    for s in range(4):
        sc = suit_score(hand, s)
        if sc > best_score:
            best, best_score = s, sc
    return best


@njit(cache=True)
def estimate(hand, cpts, total_points):
    """Expected points of the side of a seat holding ``hand`` that names its best suit."""
    s = best_suit(hand)
    trumps = hand & LANE[s]
    length = popcount(trumps) + (1 if hand & ROOK else 0)
    aces = 0
    for t in range(4):
        if t != s and hand & bit(16 * t + 12):
            aces += 1
    top = popcount(trumps >> np.uint64(16 * s + 10))  # Q, K, A of trumps
    scale = total_points / 200.0
    return (scale * (_BASE + _PER_TRUMP * length + _PER_ACE * aces + _PER_TOP * top)
            + _PER_POINT * points_of(hand, cpts))


@njit(cache=True)
def choose_bid(pol, value, seat, high, high_seat, step_exact, total_points, prng):
    """0 (pass) or a legal bid: a multiple of 5 above ``high`` (70 to open), at most the total."""
    lowest = 70 if high == 0 else high + 5
    if lowest > total_points:
        return 0
    if pol == RANDOM:
        r = uniform_int(prng, 3)
        if r == 0:
            return 0
        if r == 1 or step_exact:
            return lowest
        return lowest + 5 * uniform_int(prng, (total_points - lowest) // 5 + 1)
    limit = value - _BID_MARGIN * total_points / 200.0
    if high_seat >= 0 and (high_seat & 1) == (seat & 1):
        limit -= _OVERBID_PARTNER
    return lowest if lowest <= limit else 0


@njit(cache=True)
def keep_value(c, hand, intent, cpts):
    """How much a seat wants to keep card ``c`` when ``intent`` would be its trump."""
    m = bit(c)
    if c == JOKER or m & LANE[intent]:
        return 1000 + (c & 15)
    rank = c & 15
    v = rank + 6 * popcount(hand & LANE[c >> 4])  # short suits go first
    if cpts[c] > 0:
        v += 100 + 4 * cpts[c]
    elif rank >= 10:
        v += 40  # Q, K, A keep their trick-taking power
    return v


@njit(cache=True)
def least_valuable(cards, hand, intent, cpts):
    best, best_v = -1, 1 << 30
    m = cards
    while m != ZERO:
        c = lsb(m)
        v = keep_value(c, hand, intent, cpts)
        if v < best_v:
            best, best_v = c, v
        m &= m - ONE
    return best


@njit(cache=True)
def choose_drop(pol, hand, allowed, cpts, prng):
    """The card the declarer drops from his 14 (``allowed``: those the rules let him drop)."""
    if pol == RANDOM:
        return random_card(allowed, prng)
    return least_valuable(allowed, hand, best_suit(hand), cpts)


@njit(cache=True)
def choose_pass(pol, hand, cpts, prng):
    """Three cards to pass to an opponent."""
    if pol == RANDOM:
        return random_subset(hand, 3, prng)
    intent = best_suit(hand)
    out = ZERO
    for _ in range(3):
        out |= bit(least_valuable(hand & ~out, hand, intent, cpts))
    return out


@njit(cache=True)
def choose_trump(pol, hand, allow_no_trump, prng):
    if pol == RANDOM:
        return uniform_int(prng, 5 if allow_no_trump else 4)
    s = best_suit(hand)
    if allow_no_trump and popcount(hand & LANE[s]) <= 3:
        aces = 0
        for t in range(4):
            if hand & bit(16 * t + 12):
                aces += 1
        if aces >= 3:
            return NO_TRUMP
    return s


@njit(cache=True)
def choose_leader(pol, declarer, prng):
    """Who leads trick 1 when the declarer chooses: himself or his left-hand opponent."""
    if pol == RANDOM:
        return (declarer + uniform_int(prng, 2)) % 4
    return declarer


@njit(cache=True)
def discard_cost(c, tmask, cpts):
    """What playing ``c`` to a trick one does not win gives away."""
    if bit(c) & tmask:
        return 200 + (c & 15) + 20 * (1 if c == JOKER else 0)
    if cpts[c] > 0:
        return 100 + 2 * cpts[c] + (c & 15)
    return c & 15


@njit(cache=True)
def cheapest(cards, tmask, cpts):
    best, best_v = -1, 1 << 30
    m = cards
    while m != ZERO:
        c = lsb(m)
        v = discard_cost(c, tmask, cpts)
        if v < best_v:
            best, best_v = c, v
        m &= m - ONE
    return best


@njit(cache=True)
def _top_trump(trumps, rook_pos):
    """The strongest card of a set of trumps."""
    real = trumps & ~ROOK
    if real == ZERO:
        return JOKER
    c = msb(real)
    if trumps & ROOK and rook_pos > (c & 15):
        return JOKER
    return c


@njit(cache=True)
def _lead(hand, my_team, decl_team, tmask, rook_pos, unseen, cpts):
    trumps = hand & tmask
    if my_team == decl_team and popcount(trumps) >= 2 and unseen & tmask:
        top = _top_trump(trumps, rook_pos)
        if stronger(top, tmask, rook_pos) & unseen == ZERO or popcount(trumps) >= 4:
            return top  # draw trumps
    plain = hand & ~tmask
    best, best_pts = -1, -1
    m = plain
    while m != ZERO:  # cash a card no unseen card of its suit can beat, counters first
        c = lsb(m)
        if stronger(c, tmask, rook_pos) & unseen == ZERO and cpts[c] > best_pts:
            best, best_pts = c, cpts[c]
        m &= m - ONE
    if best >= 0 and (unseen & tmask == ZERO or my_team == decl_team):
        return best
    if plain != ZERO:
        longest, n = 0, -1
        for s in range(4):
            k = popcount(plain & LANE[s])
            if k > n:
                longest, n = s, k
        return cheapest(plain & LANE[longest], tmask, cpts)
    return cheapest(hand, tmask, cpts)


@njit(cache=True)
def choose_play(pol, hand, legal, led, best_seat, best_card, best_pow, trick_pts, pos, seat,
                decl_team, tmask, rook_pos, unseen, tricks_left, cpts, prng):
    """The card to play. ``unseen``: cards this seat has not seen played or held."""
    if pol == RANDOM:
        return random_card(legal, prng)
    my_team = seat & 1
    if led == ZERO:
        return _lead(hand, my_team, decl_team, tmask, rook_pos, unseen, cpts)
    partner_winning = (best_seat & 1) == my_team
    if partner_winning:
        safe = pos == 3 or (stronger(best_card, tmask, rook_pos) & unseen == ZERO
                            and (bit(best_card) & tmask or unseen & tmask == ZERO))
        if safe:
            smear = legal & ~tmask
            best, best_pts = -1, 0
            m = smear
            while m != ZERO:
                c = lsb(m)
                if cpts[c] > best_pts:
                    best, best_pts = c, cpts[c]
                m &= m - ONE
            if best >= 0:
                return best
        return cheapest(legal, tmask, cpts)
    # the cheapest card that wins the trick as it stands
    win, win_cost = -1, 1 << 30
    m = legal
    while m != ZERO:
        c = lsb(m)
        if power(c, led, tmask, rook_pos) > best_pow:
            v = discard_cost(c, tmask, cpts)
            if v < win_cost:
                win, win_cost = c, v
        m &= m - ONE
    if win >= 0:
        holds = pos == 3 or stronger(win, tmask, rook_pos) & unseen == ZERO
        last_trump = bit(win) & tmask and popcount(hand & tmask) == 1 and tricks_left > 1
        worth = trick_pts + cpts[win]
        if last_trump and not (led & tmask) and worth < _RUFF_FLOOR:
            return cheapest(legal, tmask, cpts)
        if holds or worth >= 10:
            return win
    return cheapest(legal, tmask, cpts)
