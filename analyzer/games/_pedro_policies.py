"""Pedro/Cinch policies in numba: ``random`` and ``heuristic``, chosen per seat.

``random`` (code 0) is uniform over the legal actions of every phase: each
legal bid or pass, each suit, each legal keep set, each robbable subset of the
stock, each legal card and each dump set.

``heuristic`` (code 1) plays like a sensible club player, using only what its
seat may know (its cards, cards played, dead cards, and the stock leftovers
when the dealer faces them or the seat is the dealer):

* **Bidding.** It values each suit as trump from the trumps it holds (the Ace
  and Pedros weigh most, low trumps guard the Pedros), adds length, the
  partner's expected share and, as dealer, the value of robbing the stock. It
  bids the best value less a safety margin when that beats the high bid, and
  overbids its own partner only with a clearly stronger hand.
* **Trump.** It names the suit of highest value.
* **Discard.** It keeps counting trumps first, then by rank (RULES §1.5), so
  counters are never made dead; as dealer it robs the stock's best trumps, then
  high cards. Under Cinch's free keep it still keeps trumps only, the custom.
* **Play.** It leads a trump that beats every trump it cannot see (pulling
  trumps), otherwise a low plain card. Following, it smears its Pedros and
  other counters onto a trick its partner is sure to win, takes tricks with
  points using the cheapest card certain to hold, gambles a cheap winner on a
  Pedro-carrying trick, and otherwise throws its least valuable card, so it
  protects its Pedros.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..bits import ONE, ZERO, bit, lsb, msb, nth_bit, popcount
from ..rng import uniform_int
from ._pedro_core import (
    COUNTER_POWERS,
    LANE,
    PW_ACE,
    PW_JACK,
    PW_LEFT,
    PW_RIGHT,
    PW_TEN,
    PW_TWO,
    card_of_power,
    mask_of_powers,
    power_word,
    strength,
    top_power,
    trick_points,
    trump_mask,
)

RANDOM, HEURISTIC = 0, 1
POLICY_NAMES = ("random", "heuristic")

# Value of each trump as a share of the 14 points, by power position (2 .. A).
_TRUMP_WEIGHT = np.array(
    [0.5, 0.15, 0.15, 2.4, 2.7, 0.25, 0.25, 0.3, 0.3, 0.7, 0.8, 0.6, 0.9, 1.9]
)
# The sum of weights of any power word is two table lookups on its 7-bit halves.
_WEIGHT_LO = np.array([sum(_TRUMP_WEIGHT[b] for b in range(7) if w >> b & 1) for w in range(128)])
_WEIGHT_HI = np.array(
    [sum(_TRUMP_WEIGHT[7 + b] for b in range(7) if w >> b & 1) for w in range(128)]
)
_LENGTH_BONUS = 0.45  # per trump beyond three
_PARTNER_SHARE = 1.5  # expected points the partner adds
_ROB_BONUS = 2.0  # the dealer picks the stock's best cards
_BID_MARGIN = 1.0  # bid this much under the estimate
_OVERBID_PARTNER = 2.0  # outbid one's own partner only by this much

# Order in which a heuristic seat gives up point cards it is forced to throw.
_THROW_ORDER = np.array([PW_TWO, PW_TEN, PW_JACK, PW_ACE, PW_LEFT, PW_RIGHT], dtype=np.int64)
# Order of smearing onto partner's sure trick, most valuable first.
_SMEAR_ORDER = np.array([PW_RIGHT, PW_LEFT, PW_JACK, PW_TEN, PW_TWO], dtype=np.int64)


# ---- random helpers -----------------------------------------------------------------


@njit(cache=True)
def random_card(mask, rng):
    return lsb(nth_bit(mask, uniform_int(rng, popcount(mask))))


@njit(cache=True)
def random_subset(mask, k, rng):
    """A uniform k-subset of the cards in mask (selection sampling)."""
    n = popcount(mask)
    out = ZERO
    m = mask
    while k > 0:
        low = m & (~m + ONE)
        m ^= low
        if uniform_int(rng, n) < k:
            out |= low
            k -= 1
        n -= 1
    return out


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


# ---- valuation ------------------------------------------------------------------------


@njit(cache=True)
def suit_value(hand, trump, is_dealer):
    """Heuristic estimate of the points a side makes naming ``trump`` with this hand."""
    pw = power_word(hand, trump)
    v = _WEIGHT_LO[pw & np.uint64(127)] + _WEIGHT_HI[pw >> np.uint64(7)]
    n = popcount(pw)
    if n > 3:
        v += _LENGTH_BONUS * (n - 3)
    v += _PARTNER_SHARE
    if is_dealer:
        v += _ROB_BONUS
    return v


@njit(cache=True)
def best_suit(hand, is_dealer):
    best, best_v = 0, -1.0
    for t in range(4):
        v = suit_value(hand, t, is_dealer)
        if v > best_v:
            best, best_v = t, v
    return best, best_v


# ---- bidding and trump ------------------------------------------------------------------


@njit(cache=True)
def choose_bid(pol, hand, seat, dealer, high, high_seat, min_bid, rng):
    """0 to pass, else a bid b with max(high, min_bid - 1) < b <= 14."""
    lowest = max(high, min_bid - 1) + 1
    if lowest > 14:
        return 0
    if pol == RANDOM:
        k = uniform_int(rng, 15 - lowest + 1)
        return 0 if k == 0 else lowest + k - 1
    _, v = best_suit(hand, seat == dealer)
    want = int(v - _BID_MARGIN)
    if want > 14:
        want = 14
    if high_seat >= 0 and (high_seat & 1) == (seat & 1) and want < high + _OVERBID_PARTNER:
        return 0
    return want if want >= lowest else 0


@njit(cache=True)
def choose_trump(pol, hand, is_dealer, rng):
    if pol == RANDOM:
        return uniform_int(rng, 4)
    t, _ = best_suit(hand, is_dealer)
    return t


# ---- discard, keep, rob -----------------------------------------------------------------


@njit(cache=True)
def best_trumps(trumps, k, trump):
    """The k trumps to keep: counters first, then by rank (RULES §1.5 keep policy)."""
    pw = power_word(trumps, trump)
    out = ZERO
    for part in (pw & COUNTER_POWERS, pw & ~COUNTER_POWERS):
        while k > 0 and part != ZERO:
            p = msb(part)
            part ^= ONE << np.uint64(p)
            out |= bit(card_of_power(p, trump))
            k -= 1
    return out


@njit(cache=True)
def highest_plain(cards, k):
    """The k highest-ranked cards of a mask, ties by suit S > H > D > C."""
    out = ZERO
    for r in range(12, -1, -1):
        for s in range(3, -1, -1):
            if k == 0:
                return out
            b = bit(16 * s + r)
            if cards & b:
                out |= b
                k -= 1
    return out


@njit(cache=True)
def choose_keep_trumps(pol, trumps, k, trump, rng):
    if pol == RANDOM:
        return random_subset(trumps, k, rng)
    return best_trumps(trumps, k, trump)


@njit(cache=True)
def choose_free_keep(pol, nontrumps, kmax, rng):
    """Cinch free discard: which non-trumps to keep (at most kmax)."""
    if pol == RANDOM:
        return random_subset_upto(nontrumps, kmax, rng)
    return ZERO


@njit(cache=True)
def choose_rob(pol, stock, need, trump, rng):
    """The dealer's pick of ``need`` cards from the remaining stock."""
    if pol == RANDOM:
        return random_subset(stock, need, rng)
    tm = stock & trump_mask(trump)
    got = best_trumps(tm, need, trump)
    return got | highest_plain(stock & ~tm, need - popcount(got))


# ---- play -------------------------------------------------------------------------------


@njit(cache=True)
def lowest_plain_card(cards):
    """Index of the lowest-ranked card (ties: lowest suit); cards must be non-empty."""
    fold = (cards | (cards >> np.uint64(16)) | (cards >> np.uint64(32)) | (cards >> np.uint64(48)))
    r = lsb(fold & LANE)
    for s in range(4):
        if (cards >> np.uint64(16 * s + r)) & ONE:
            return 16 * s + r
    return -1


@njit(cache=True)
def cheapest_card(legal, trump):
    """The card a seat minds least giving up: low plain cards, low non-counter trumps,
    then point cards in _THROW_ORDER, the Pedros last."""
    tm = trump_mask(trump)
    plain = legal & ~tm
    if plain != ZERO:
        return lowest_plain_card(plain)
    pw = power_word(legal, trump)
    junk = pw & ~COUNTER_POWERS
    if junk != ZERO:
        return card_of_power(lsb(junk), trump)
    for p in _THROW_ORDER:
        if (pw >> np.uint64(p)) & ONE:
            return card_of_power(p, trump)
    return -1


@njit(cache=True)
def winning_cards(legal, lead_suit, best_str, trump):
    """Legal cards that would take the lead from a card of strength best_str."""
    if best_str >= 32:
        pw = power_word(legal, trump)
        above = (pw >> np.uint64(best_str - 31)) << np.uint64(best_str - 31)
        return mask_of_powers(above, trump)
    tm = legal & trump_mask(trump)
    lane = (legal >> np.uint64(16 * lead_suit)) & LANE
    lane = (lane >> np.uint64(best_str + 1)) << np.uint64(best_str + 1)
    plain = (lane << np.uint64(16 * lead_suit)) & ~tm
    return plain | tm


@njit(cache=True)
def cheapest_winner(w, trump):
    """Among winning cards: a plain card, else the lowest non-counter trump, else a counter."""
    tm = trump_mask(trump)
    plain = w & ~tm
    if plain != ZERO:
        return lowest_plain_card(plain)
    pw = power_word(w, trump)
    junk = pw & ~COUNTER_POWERS
    if junk != ZERO:
        return card_of_power(lsb(junk), trump)
    for p in _THROW_ORDER:
        if (pw >> np.uint64(p)) & ONE:
            return card_of_power(p, trump)
    return -1


@njit(cache=True)
def smear_card(legal, trump, low_to_winner):
    pw = power_word(legal, trump)
    for p in _SMEAR_ORDER:
        if p == PW_TWO and not low_to_winner:
            continue
        if (pw >> np.uint64(p)) & ONE:
            return card_of_power(p, trump)
    return cheapest_card(legal, trump)


@njit(cache=True)
def heuristic_play(hand, legal, trump, lead_suit, best_seat, best_str, trick, pos, n_active,
                   seat, unseen_trumps, low_to_winner):
    """One card for a heuristic seat; see the module docstring."""
    tm = trump_mask(trump)
    top_unseen = top_power(unseen_trumps, trump)
    if pos == 0:
        mine = hand & tm
        if mine != ZERO:
            p = top_power(mine, trump)
            if p > top_unseen:
                return card_of_power(p, trump)
        plain = hand & ~tm
        if plain != ZERO:
            return lowest_plain_card(plain)
        return cheapest_card(hand, trump)
    last = pos == n_active - 1
    if (best_seat & 1) == (seat & 1):
        if last or (best_str >= 32 and best_str - 32 > top_unseen):
            return smear_card(legal, trump, low_to_winner)
        return cheapest_card(legal, trump)
    w = winning_cards(legal, lead_suit, best_str, trump)
    if w == ZERO:
        return cheapest_card(legal, trump)
    if last:
        safe = w
    else:
        pw = power_word(w, trump)
        safe = mask_of_powers((pw >> np.uint64(top_unseen + 1)) << np.uint64(top_unseen + 1), trump)
    pts = trick_points(trick, trump, low_to_winner)
    if safe != ZERO:
        if last:
            # Certain to win: take the trick with a point card if one wins.
            pw = power_word(safe, trump)
            for p in _SMEAR_ORDER:
                if (pw >> np.uint64(p)) & ONE:
                    return card_of_power(p, trump)
        if pts > 0 or last:
            return cheapest_winner(safe, trump)
        return cheapest_card(legal, trump)
    if pts >= 5:
        c = cheapest_winner(w, trump)
        if strength(c, lead_suit, trump) >= 0 and not (
            (power_word(bit(c), trump) & COUNTER_POWERS) != ZERO
        ):
            return c
    return cheapest_card(legal, trump)


@njit(cache=True)
def choose_play(pol, hand, legal, trump, lead_suit, best_seat, best_str, trick, pos, n_active,
                seat, unseen_trumps, low_to_winner, rng):
    if pol == RANDOM:
        return random_card(legal, rng)
    return heuristic_play(hand, legal, trump, lead_suit, best_seat, best_str, trick, pos,
                          n_active, seat, unseen_trumps, low_to_winner)


@njit(cache=True)
def choose_dump(pol, hand, k, trump, rng):
    """keep_all_dump_on_trick1: the k excess cards to dump."""
    if pol == RANDOM:
        return random_subset(hand, k, rng)
    out = ZERO
    for _ in range(k):
        c = cheapest_card(hand & ~out, trump)
        out |= bit(c)
    return out
