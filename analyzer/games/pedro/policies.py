"""Pedro/Cinch policies in numba: ``random`` and ``heuristic``, chosen per seat.

May import: the foundations, ``games.kit``, ``games.search.params``/``setup`` and Pedro's
rules and core; never another game.

``random`` (code 0) is uniform over the legal actions of every phase: each
legal bid or pass, each suit, each legal keep set, each robbable subset of the
stock, each legal card and each dump set.

``heuristic`` (code 1) plays like a sensible club player, using only what its
seat may know (its cards, cards played, dead cards, and the stock leftovers
when the dealer faces them or the seat is the dealer):

* **Bidding.** It values each suit as trump from the trumps it holds (the Ace
  and Pedros weigh most, low trumps guard the Pedros; with low_to=holder the 2 is
  a sure point), adds length, the
  partner's expected share and, as dealer, the value of robbing the stock. It
  bids that value (its whole estimate) when that beats the high bid, and
  overbids its own partner only with a clearly stronger hand. The dealer, who
  bids last, bids just enough to win, and passes when nobody has bid and
  passing leaves it naming trump with no contract (the SPEC all-pass rule).
* **Trump.** It names the suit of highest value.
* **Discard.** It keeps counting trumps first, then by rank (docs/rules.md §1.5), so
  counters are never made dead; as dealer it robs the stock's best trumps, then
  high cards. Under Cinch's free keep it still keeps trumps only, the custom. On
  trick 1 under keep_all_dump_on_trick1 it dumps its least valuable cards (with
  low_to=holder the 2 of trumps first: it scores for its holder wherever it falls).
* **Play.** It leads a trump that beats every trump it cannot see (pulling
  trumps); on the maker's side it otherwise leads its lowest non-counting trump,
  to draw the opponents' trumps; otherwise a low plain card. Following, it
  smears its Pedros and other counters onto a trick its partner is sure to win,
  covers partner's beatable trump with a sure one when a Pedro is in the trick,
  takes tricks with points using the cheapest card certain to hold, gambles a
  cheap winner on a Pedro-carrying trick, and otherwise throws its least
  valuable card, so it protects its Pedros.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...bits import ONE, ZERO, bit, lsb, msb, popcount
from ...rng import uniform_int
from ..kit.choice import random_subset
from .core import (
    COUNTERS,
    LANE,
    N_ACE,
    N_JACK,
    N_LEFT,
    N_RIGHT,
    N_TEN,
    N_TWO,
    PLAIN,
    TRUMPS,
    above,
    capture_points,
    highest_plain,
    left_pedro,
    lowest_plain,
)

RANDOM, HEURISTIC = 0, 1  # policy codes, as named in games.common.POLICY_NAMES

# Value of each trump, in twentieths of a point, by power position (2 .. A). Integer
# arithmetic keeps the bidding valuation exact and cheap.
_SCALE = 20
_TRUMP_WEIGHT = np.array([10, 3, 3, 48, 54, 5, 5, 6, 6, 14, 16, 12, 18, 38], dtype=np.int64)
# The weight of any power word is two table lookups on its 7-bit halves.
_WEIGHT_LO = np.array([sum(_TRUMP_WEIGHT[b] for b in range(7) if w >> b & 1) for w in range(128)],
                      dtype=np.int64)
_WEIGHT_HI = np.array(
    [sum(_TRUMP_WEIGHT[7 + b] for b in range(7) if w >> b & 1) for w in range(128)],
    dtype=np.int64,
)
# With low_to=holder the 2 is a sure point for the side holding it, like High: a full point
# (measured: bidding and naming trump so, +0.17 points a deal; see heuristic_bid).
_WEIGHT_LO_HOLDER = _WEIGHT_LO + (_SCALE - _TRUMP_WEIGHT[0]) * (np.arange(128) & 1)
_LENGTH = np.array([9 * max(0, n - 3) for n in range(15)], dtype=np.int64)  # 0.45 a trump past 3
_PARTNER_SHARE = 30  # 1.5 points the partner adds on average
_ROB_BONUS = 40  # 2 points: the dealer picks the stock's best cards
# No safety margin: the heuristic bids its whole estimate. A point under it (the margin
# it had) lost a duplicate against this, same 500,000 deals, partnerships swapped: the
# full estimate gains +0.303 net score a deal, 95% CI +0.290 to +0.316, in Pedro and in
# Cinch alike (+0.354 with m2_diff_to=bidder_only); a point over it gains nothing
# (+0.005, CI -0.014 to +0.024).
_BID_MARGIN = 0
_OVERBID_PARTNER = 2  # outbid one's own partner only when 2 points stronger

# Normalised bits of the point cards: the order a seat gives them up when it must,
# and the order it smears them onto a trick its side is sure to win.
_THROW_ORDER = (N_TWO, N_TEN, N_JACK, N_ACE, N_LEFT, N_RIGHT)
_SMEAR_ORDER = (N_RIGHT, N_LEFT, N_JACK, N_TEN)


# ---- random helpers -----------------------------------------------------------------


@njit(cache=True)
def random_subset_upto(mask, kmax, rng):
    """A uniform choice among all subsets of mask with at most kmax cards."""
    n = popcount(mask)
    kmax = min(kmax, n)
    total = 0
    c = 1
    for j in range(kmax + 1):  # sum of C(n, j)
        total += c
        c = c * (n - j) // (j + 1)
    r = uniform_int(rng, total)
    c = 1
    for j in range(kmax + 1):
        if r < c:
            return random_subset(mask, j, rng)
        r -= c
        c = c * (n - j) // (j + 1)
    return ZERO


# ---- bidding and trump (shared card layout: trump is not named yet) ---------------------


@njit(cache=True)
def power_word(hand, trump):
    """The 14-bit power word of hand's trumps if ``trump`` were named (2 at bit 0)."""
    lane = (hand >> np.uint64(16 * trump)) & LANE
    left = (hand >> np.uint64(left_pedro(trump))) & ONE
    return ((lane >> np.uint64(3)) << np.uint64(4)) | (left << np.uint64(3)) | (lane & np.uint64(7))


@njit(cache=True)
def suit_value(hand, trump, is_dealer, low_to_holder=False):
    """Heuristic estimate, in twentieths of a point, of what a side makes naming ``trump``."""
    pw = power_word(hand, trump)
    lo = _WEIGHT_LO_HOLDER if low_to_holder else _WEIGHT_LO
    v = lo[pw & np.uint64(127)] + _WEIGHT_HI[pw >> np.uint64(7)] + _LENGTH[popcount(pw)]
    return v + _PARTNER_SHARE + (_ROB_BONUS if is_dealer else 0)


@njit(cache=True)
def best_suit(hand, is_dealer, low_to_holder=False):
    best, best_v = 0, suit_value(hand, 0, is_dealer, low_to_holder)
    for t in range(1, 4):
        v = suit_value(hand, t, is_dealer, low_to_holder)
        if v > best_v:
            best, best_v = t, v
    return best, best_v


@njit(cache=True)
def random_bid(high, min_bid, rng):
    """0 to pass, else a bid b with max(high, min_bid - 1) < b <= 14, all equally likely."""
    lowest = max(high, min_bid - 1) + 1
    if lowest > 14:
        return 0
    k = uniform_int(rng, 15 - lowest + 1)
    return 0 if k == 0 else lowest + k - 1


@njit(cache=True)
def bid_estimate(hand, is_dealer, low_to_holder=False):
    """What the hand would bid with nobody in its way: its best suit's value, less the
    margin (none), in points (at most 14)."""
    _, v = best_suit(hand, is_dealer, low_to_holder)
    return min((v - _BID_MARGIN) // _SCALE, 14)


@njit(cache=True)
def heuristic_bid(hand, seat, dealer, high, high_seat, min_bid, no_contract,
                  low_to_holder=False):
    """0 to pass, else the heuristic's bid (scalars only, like every hot call).

    ``no_contract``: when all pass, the dealer names trump without a contract.
    ``low_to_holder``: Low scores to the side holding the 2, which is then valued as a sure
    point (duplicate, pedro(low_to=holder), 500,000 deals, bidding and naming trump so:
    +0.170 points a deal, 95% CI +0.165 to +0.175; net score +0.102, CI +0.096 to +0.108).
    """
    lowest = max(high, min_bid - 1) + 1
    if lowest > 14:
        return 0
    is_dealer = seat == dealer
    if is_dealer and high_seat < 0 and no_contract:
        return 0  # passing names trump all the same, with nothing to be set back
    want = bid_estimate(hand, is_dealer, low_to_holder)
    if high_seat >= 0 and (high_seat & 1) == (seat & 1) and want < high + _OVERBID_PARTNER:
        return 0
    if want < lowest:
        return 0
    # Nobody bids after the dealer: a higher bid only adds to the set-back.
    return lowest if is_dealer else want


@njit(cache=True)
def choose_trump(pol, hand, is_dealer, low_to_holder, rng):
    if pol == RANDOM:
        return uniform_int(rng, 4)
    t, _ = best_suit(hand, is_dealer, low_to_holder)
    return t


# ---- discard, keep, rob (normalised layout from here on) --------------------------------


@njit(cache=True)
def best_trumps(trumps, k):
    """The k trumps to keep: counters first, then by rank (docs/rules.md §1.5 keep policy)."""
    out = ZERO
    part = trumps & COUNTERS
    while k > 0 and part != ZERO:
        b = bit(msb(part))
        out |= b
        part ^= b
        k -= 1
    part = trumps & ~COUNTERS
    while k > 0 and part != ZERO:
        b = bit(msb(part))
        out |= b
        part ^= b
        k -= 1
    return out


@njit(cache=True)
def choose_keep_trumps(pol, trumps, k, rng):
    if pol == RANDOM:
        return random_subset(trumps, k, rng)
    return best_trumps(trumps, k)


@njit(cache=True)
def choose_free_keep(pol, plain, kmax, rng):
    """Cinch free discard: which non-trumps to keep (at most kmax)."""
    if pol == RANDOM:
        return random_subset_upto(plain, kmax, rng)
    return ZERO


@njit(cache=True)
def choose_rob(pol, stock, need, rng):
    """The dealer's pick of ``need`` cards from the remaining stock."""
    if pol == RANDOM:
        return random_subset(stock, need, rng)
    got = best_trumps(stock & TRUMPS, need)
    return got | highest_plain(stock & PLAIN, need - popcount(got))


# ---- play -------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def guarded_counters(low_to_winner):
    """The point cards a seat guards in play: with low_to=holder the 2 scores for the side
    that held it wherever it falls, so it is then the cheapest trump to give up instead."""
    return COUNTERS if low_to_winner else COUNTERS & ~bit(N_TWO)


@njit(cache=True, inline="always")
def cheapest_card(cards, counters):
    """The card a seat minds least giving up: its lowest plain card, else its lowest
    trump outside ``counters`` (the cards that count in a trick), else point cards in
    _THROW_ORDER (the Pedros last)."""
    plain = cards & PLAIN
    if plain != ZERO:
        return lowest_plain(plain)
    junk = cards & ~counters
    if junk != ZERO:
        return lsb(junk)
    for b in _THROW_ORDER:
        if (cards >> np.uint64(b)) & ONE:
            return b
    return -1


@njit(cache=True, inline="always")
def winning_cards(legal, lead_lane, best):
    """Legal cards that would take the trick from the card at index ``best``."""
    if best >= 48:
        return legal & above(best)
    return (legal & above(best) & (LANE << np.uint64(16 * lead_lane))) | (legal & TRUMPS)


@njit(cache=True, inline="always")
def heuristic_play(hand, legal, lead_lane, best_seat, best, trick, pos, n_active, seat,
                   unseen_trumps, low_to_winner, maker):
    """One card for a heuristic seat; see the module docstring."""
    top_unseen = msb(unseen_trumps)  # -1 when every trump is accounted for
    counters = guarded_counters(low_to_winner)
    if pos == 0:
        mine = hand & TRUMPS
        if mine != ZERO and msb(mine) > top_unseen:
            return msb(mine)
        if (seat & 1) == (maker & 1):
            junk = mine & ~counters
            if junk != ZERO:
                return lsb(junk)
        plain = hand & PLAIN
        if plain != ZERO:
            return lowest_plain(plain)
        return cheapest_card(hand, counters)
    if popcount(legal) == 1:
        return lsb(legal)
    last = pos == n_active - 1
    if (best_seat & 1) == (seat & 1):
        if last or (best >= 48 and best > top_unseen):
            for b in _SMEAR_ORDER:
                if (legal >> np.uint64(b)) & ONE:
                    return b
            if low_to_winner and (legal >> np.uint64(N_TWO)) & ONE:
                return N_TWO
        elif capture_points(trick, low_to_winner) >= 5:
            # A Pedro rides on partner's trump and an opponent may still beat it: cover
            # with a trump above every unseen one (duplicate, 500,000 deals: +0.025 points
            # a deal, 95% CI +0.024 to +0.026, in Pedro and in Cinch).
            sure = legal & TRUMPS & above(top_unseen) & above(best)
            if sure != ZERO:
                return cheapest_card(sure, counters)
        return cheapest_card(legal, counters)
    w = winning_cards(legal, lead_lane, best)
    if w == ZERO:
        return cheapest_card(legal, counters)
    safe = w if last else w & TRUMPS & above(top_unseen)
    if safe != ZERO:
        if last:
            # Certain to win: take the trick with a point card if one wins.
            for b in _SMEAR_ORDER:
                if (safe >> np.uint64(b)) & ONE:
                    return b
        if last or capture_points(trick, low_to_winner) > 0:
            return cheapest_card(safe, counters)
        return cheapest_card(legal, counters)
    if capture_points(trick, low_to_winner) >= 5:
        cheap = w & ~COUNTERS
        if cheap != ZERO:
            return cheapest_card(cheap, counters)
    return cheapest_card(legal, counters)


@njit(cache=True)
def choose_dump(pol, hand, k, rng, low_to_winner=True):
    """keep_all_dump_on_trick1: the k excess cards to dump.

    With low_to=holder a dumped 2 still scores for its holder (Low goes to the side that
    held it at the start of play), so it is the first trump dumped, as in play (duplicate,
    2,000,000 deals, seed 2: +0.0009 net score a deal, 95% CI +0.0008 to +0.0010)."""
    if pol == RANDOM:
        return random_subset(hand, k, rng)
    counters = guarded_counters(low_to_winner)
    out = ZERO
    for _ in range(k):
        out |= bit(cheapest_card(hand & ~out, counters))
    return out
