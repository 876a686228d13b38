"""King heuristics in numba (code 1; code 0, ``random``, draws in the engine).

May import: the foundations, ``games.kit``, ``games.search.params``/``setup`` and King's
rules and core; never another game.

Every function takes scalars only: they run for most of the 52 plays of a
hand, and an array argument costs reference counting on every call. Cards use
the shared layout (lanes C D H S, rank 2 at bit 0).

* **Negative hands.** In the last-two hand, while it holds more than two cards,
  it sheds high cards, so that tricks 12 and 13 find it with low ones: following,
  its highest card of the suit led (where that would win, the highest that ducks
  at trick 11, and from trick 8 when no unseen card of the suit beats its lowest);
  in tricks 1-7, void or leading, its highest card. From
  trick 8, void, it throws the card likeliest to win a late trick (the fewest
  unseen cards above it, two more in a suit of two or more, then of its shortest
  suit); leading, with one suit left
  it leads the lowest card when an unseen card beats it, else, keeping a suit
  whose lowest card every unseen card of the suit beats, its highest singleton,
  else its highest card. Otherwise, following suit it ducks: the highest
  card that stays under the current winner; when it cannot duck it plays its
  highest card if it is last (the trick is lost anyway) and its lowest otherwise.
  Void, it sheds its most dangerous card for the contract (K♥, hearts, queens,
  kings and jacks, else high cards); in no hearts a side singleton with two or
  more unseen cards of its suit under it goes first. Leading, in no hearts it
  leads a side singleton whose suit has three or more unseen cards. Otherwise it
  keeps to the suits whose lowest card some unseen card beats (all suits when
  none is) and leads the lowest-ranked card of those suits among its suits of
  two or more (of all those suits when it has none of two), so the suit it leads
  from still has a card for a later lead; that card need not be low (from K-x it
  leads the x and the K stays).
* **Positive hands.** It cashes top cards, leads trumps while the other seats
  may hold them as trump chooser (its top trump when no unseen trump beats it, else
  its lowest), wins a trick with the cheapest card that
  wins, ruffs when void with the lowest winning trump, and otherwise throws
  its lowest card.
* **Auction.** It values the trump right as the tricks it would gain by
  choosing trump over playing under another seat's suit (:func:`trump_value`),
  offers the minimum legal amount while that stays within its value (and, as
  docs/spec.md §3.5 has every player do, passes while it holds the high offer, accepted
  or refused, until another seat outbids it), accepts
  an offer above its own value as the benefited (with the 4 tricks of a decline as
  its value where the offer is 1: :func:`heuristic_accepts`), and declines (4-3-3-3)
  when it expects fewer than 4 tricks with its own trump. It names the suit it values most,
  or, where the rules allow no trump, no trump with a hand that :func:`plays_no_trump`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...bits import ONE, ZERO, bit, lsb, msb, popcount
from ..kit.lanes import COLUMN, LANE, highest_card, lowest_card

HEARTS = LANE[2]
KH = np.uint64(1) << np.uint64(16 * 2 + 11)
AH = np.uint64(1) << np.uint64(16 * 2 + 12)
QUEENS = COLUMN << np.uint64(10)
TOP3 = (COLUMN * np.uint64(7)) << np.uint64(10)  # Q K A of every suit
KINGS_JACKS = (COLUMN << np.uint64(11)) | (COLUMN << np.uint64(9))
NO_HEARTS_BIT, NO_KJ_BIT, NO_QUEENS_BIT, NO_KH_BIT, LAST_TWO_BIT = 2, 4, 8, 16, 32
NO_TRUMP = 4
RANK_BITS = np.uint64(0x1FFF)  # a lane's 13 ranks


@njit(cache=True)
def danger_card(cards, contract):
    """The card of ``cards`` most costly to keep under ``contract`` (negative hands)."""
    if contract & NO_KH_BIT and cards & KH:
        return lsb(KH)
    if contract & NO_QUEENS_BIT and cards & QUEENS:
        return highest_card(cards & QUEENS)
    if contract & NO_KJ_BIT and cards & KINGS_JACKS:
        return highest_card(cards & KINGS_JACKS)
    if contract & NO_HEARTS_BIT and cards & HEARTS:
        return msb(cards & HEARTS)
    return highest_card(cards)


@njit(cache=True, inline="always")
def above(c):
    """The cards ranked above card ``c`` (of its lane, and every card of the higher lanes:
    with ``& LANE[s]``, the cards of its suit that beat it)."""
    return ~((bit(c) << ONE) - ONE)


@njit(cache=True, inline="always")
def side_singleton(legal, unseen, least, under):
    """A card of ``legal`` alone in its side suit (not hearts) with ``least`` or more unseen
    cards of that suit (``under``: of those, only the ones below it); of two, the one in the
    later lane (C D H S), as measured; -1 when there is none."""
    pick = -1
    for s in range(4):
        m = legal & LANE[s] & ~HEARTS
        if popcount(m) == 1:
            rest = unseen & LANE[s] & ((m - ONE) if under else ~ZERO)
            if popcount(rest) >= least:
                pick = max(pick, lsb(m))
    return pick


@njit(cache=True, inline="always")
def most_dangerous(cards, hand, unseen):
    """The card of ``cards`` likeliest to win a late trick: the top card of the suit where the
    fewest unseen cards beat it, a suit of two or more in ``hand`` counting two more (a
    singleton's void comes sooner: paired +2.7 points, CHANGELOG), then of the suit
    shortest in ``hand``, then the highest-ranked (of equals, the first suit)."""
    best, best_k = -1, 1 << 30
    for s in range(4):  # branch-free: it runs for every void play from trick 8
        lane = RANK_BITS << np.uint64(16 * s)
        m = cards & lane
        c = msb(m)
        top = (ONE << np.uint64(c & 63)) & (ZERO - np.uint64(m != ZERO))
        ln = popcount(hand & lane)
        k = 1000 * (popcount(unseen & (ZERO - (top << ONE)) & lane) + 2 * (ln >= 2)) \
            + 20 * ln - (c & 15)
        k = k if m != ZERO else 1 << 30
        best = c if k < best_k else best
        best_k = min(k, best_k)
    return best


@njit(cache=True, inline="always")
def last_two_shed(hand, legal, led_suit, best_card, unseen):
    """The last-two hand's card while it holds more than two cards: only tricks 12 and 13
    cost, so until then it sheds its highest cards (winning free tricks) and the last two
    find it with low ones (paired: +30.6 points, CHANGELOG). Following, the highest card of
    the suit led; where that would win, the highest that ducks at trick 11, and from trick
    8 when no unseen card of the suit beats its lowest. From
    trick 8 (six cards or fewer), void, :func:`most_dangerous` (a boss, and of a short
    suit, before a higher card some unseen card beats: paired +2.0 points, CHANGELOG);
    leading, its lowest card when it holds one suit only and an unseen card beats it, else,
    outside the suits whose lowest card is a sure loser (every unseen card of the suit beats
    it), its highest singleton, or without one its highest card."""
    n = popcount(hand)
    if led_suit >= 0:
        follow = legal & LANE[led_suit]
        if follow != ZERO:
            if n <= 6 and msb(follow) > best_card:
                # its top card would win: at trick 11 (and lead trick 12), or from trick 8
                # where no unseen card of the suit beats even its lowest (all it keeps
                # there wins later anyway), it ducks with the highest card under the winner
                # (paired +0.55 and +2.5 points, CHANGELOG)
                under = follow & (bit(best_card) - ONE)
                if under != ZERO and (n == 3 or unseen & LANE[led_suit]
                                      & above(lsb(follow)) == ZERO):
                    return msb(under)
            return msb(follow)
        return most_dangerous(legal, hand, unseen) if n <= 6 else highest_card(legal)
    if n > 6:
        return highest_card(legal)
    low = lsb(legal)
    if legal & LANE[low >> 4] == legal and unseen & above(low) & LANE[low >> 4]:
        # one suit left, its lowest card beatable: lead it and hand the lead on, void in
        # the others' suits (its top card drew the others' cards that beat its low ones:
        # paired +1.6 points, CHANGELOG)
        return low
    # leading from trick 8: not from a suit whose lowest card every unseen card of the suit
    # beats (a sure loser, kept to hand the lead on later; leading the suit's top card would
    # draw the cards above it: paired +2.3 points, CHANGELOG)
    keep = ZERO
    single = ZERO  # singletons of the kept suits
    alone = ZERO  # singletons of every suit
    for s in range(4):  # branch-free: these run for every lead from trick 8
        lane = RANK_BITS << np.uint64(16 * s)
        m = legal & lane
        out = unseen & lane
        below = (m & (ZERO - m)) - ONE  # the cards under its lowest (all when m is empty)
        kept = m & (ZERO - np.uint64((out == ZERO) | (out & below != ZERO)))
        one = ZERO - np.uint64(m & (m - ONE) == ZERO)  # all ones when at most one card
        keep |= kept
        single |= kept & one
        alone |= m & one
    if keep == ZERO:
        keep, single = legal, alone
    # of those, a singleton first: its void lets it throw a high card when the suit is led
    # (paired +2.8 points, CHANGELOG)
    return highest_card(single if single != ZERO else keep)


@njit(cache=True)
def negative_play(hand, legal, led_suit, best_card, pos, contract, unseen):
    """The heuristic's card in a negative hand (``led_suit`` -1 when leading); ``unseen``:
    the cards neither in its hand nor played so far."""
    if contract == LAST_TWO_BIT and popcount(hand) > 2:
        return last_two_shed(hand, legal, led_suit, best_card, unseen)
    if led_suit < 0:
        if contract == NO_HEARTS_BIT:
            # a side singleton whose suit has 3+ unseen cards: the others most likely follow
            # (no heart in the trick) and it gains a void to throw hearts on (paired: +9.0
            # points, CHANGELOG)
            pick = side_singleton(legal, unseen, 3, False)
            if pick >= 0:
                return pick
        # lead low from a suit of two or more: the suit keeps a card for a later lead; and
        # from a suit whose lowest card an unseen card beats, as one nobody can beat wins
        # (paired: +0.9 to +3.4 points a negative hand, CHANGELOG)
        deep = ZERO
        beatable = ZERO
        for s in range(4):
            m = legal & LANE[s]
            if popcount(m) >= 2:
                deep |= m
            if m != ZERO and unseen & LANE[s] & above(lsb(m)):
                beatable |= m
        if beatable != ZERO:
            deep &= beatable
            return lowest_card(deep if deep != ZERO else beatable)
        return lowest_card(deep if deep != ZERO else legal)
    follow = legal & LANE[led_suit]
    if follow != ZERO:
        if best_card >= 0:
            under = follow & ((bit(best_card)) - ONE)
            if under != ZERO:
                return msb(under)  # the highest card that still ducks
        return msb(follow) if pos == 3 else lsb(follow)
    if contract == NO_HEARTS_BIT and legal & HEARTS:
        # void in no hearts: a side singleton with 2+ unseen cards of its suit under it
        # goes before a heart, as it would win a later trick of that suit with hearts in it
        # and gives another void (paired: +2.1 points, CHANGELOG)
        pick = side_singleton(legal, unseen, 2, True)
        if pick >= 0:
            return pick
    return danger_card(legal, contract)


@njit(cache=True)
def positive_play(hand, legal, led_suit, best_card, trump, pos, unseen, is_chooser):
    """The heuristic's card in a positive hand (``led_suit`` -1 when leading)."""
    tl = LANE[trump] if trump != NO_TRUMP else ZERO
    if led_suit < 0:
        mine = hand & tl
        if is_chooser and mine != ZERO and unseen & tl:
            # draw trumps: with the top trump while no unseen trump beats it, else with the
            # lowest, so a beatable honour is not led into the one above it (paired, seat
            # rotated: +0.29 tricks a positive hand, CHANGELOG)
            if unseen & tl & above(msb(mine)) == ZERO:
                return msb(mine)
            return lsb(mine)
        for s in range(4):  # cash a card that no unseen card of its suit beats
            m = hand & LANE[s] & ~tl
            if m != ZERO:
                c = msb(m)
                if unseen & LANE[s] & above(c) == ZERO:
                    return c
        plain = hand & ~tl
        return lowest_card(plain if plain != ZERO else hand)
    follow = legal & LANE[led_suit]
    best_trumped = tl != ZERO and bit(best_card) & tl and led_suit != trump
    if follow != ZERO:
        if not best_trumped:
            win = follow & above(best_card)
            if win != ZERO and pos == 3:
                return lsb(win)  # last to play: the cheapest winner
            out = unseen & LANE[led_suit]
            sure = win & above(msb(out)) if out != ZERO else win
            if sure != ZERO:
                return lsb(sure)  # the cheapest card no unseen card of the suit beats
        return lsb(follow)
    ruff = legal & tl
    if ruff != ZERO:
        if best_trumped:
            ruff &= above(best_card)
        if ruff != ZERO:
            return lsb(ruff)
    return lowest_card(legal & ~tl if legal & ~tl else legal)


@njit(cache=True)
def _suit_estimate(hand, trump):
    """Quarter-tricks a hand expects to take with ``trump`` (NO_TRUMP: its top cards only)."""
    q = 4 * popcount(hand & (COLUMN << np.uint64(12)))  # aces
    for s in range(4):
        m = hand & LANE[s]
        if m & (np.uint64(1) << np.uint64(16 * s + 11)) and popcount(m) >= 2:
            q += 2  # a guarded king
    if trump != NO_TRUMP:
        n = popcount(hand & LANE[trump])
        q += 4 * max(0, n - 3) + 2 * popcount(hand & LANE[trump] & TOP3)
    return q


@njit(cache=True)
def plays_no_trump(hand):
    """Whether no trump takes more tricks than the hand's best suit: a hand with no suit
    longer than 4, rich in kings, queens and jacks (2 a king, 2 a queen, 1 a jack, 1 a
    guarded king: 13 or more). Measured with this heuristic's play on random hands with no
    suit longer than 4, 400 deals each: once the trump chooser drew trumps with a beatable
    top trump last (CHANGELOG), its best suit gained and no trump took more tricks only
    from a score of 13 (3,000 hands scoring 11 or more, seed 2: 11 -0.066 ± 0.018 tricks,
    12 -0.003 ± 0.025, 13 +0.066 ± 0.032, 14 +0.13 ± 0.05, 15+ +0.24 ± 0.06); 2% of such
    hands score 13 or more (longer suits: no trump loses on average, however the top
    cards lie). docs/rules.md §3.4."""
    longest = 0
    score = 0
    for s in range(4):
        m = hand & LANE[s]
        longest = max(longest, popcount(m))
        king = m & (np.uint64(1) << np.uint64(16 * s + 11))
        score += 2 * popcount(m & (np.uint64(3) << np.uint64(16 * s + 10)))  # Q, K
        score += popcount(m & (np.uint64(1) << np.uint64(16 * s + 9)))  # J
        if king and popcount(m) >= 2:
            score += 1
    return longest <= 4 and score >= 13


@njit(cache=True)
def trick_estimate(hand, trump):
    """Quarter-tricks a hand expects to take with ``trump``. At no trump, a hand that
    :func:`plays_no_trump` takes a quarter more than at its best suit (the smallest step;
    the measured gain is 0.07 to 0.24 tricks); any other takes its top cards only."""
    if trump == NO_TRUMP and plays_no_trump(hand):
        best = 0
        for t in range(4):
            best = max(best, _suit_estimate(hand, t))
        return best + 1
    return _suit_estimate(hand, trump)


@njit(cache=True)
def best_trump(hand, allow_no_trump):
    """The suit with the highest :func:`trick_estimate` (the first of equals), or no trump
    where allowed and the hand :func:`plays_no_trump`."""
    if allow_no_trump and plays_no_trump(hand):
        return NO_TRUMP
    best, best_q = 0, -1
    for t in range(4):
        q = trick_estimate(hand, t)
        if q > best_q:
            best, best_q = t, q
    return best


@njit(cache=True)
def _own_and_average(hand, allow_no_trump):
    """Quarter-tricks with the hand's own trump, and the sum over the four suits (four
    times the average suit's): what naming trump and playing under another's are worth."""
    q_best = trick_estimate(hand, best_trump(hand, allow_no_trump))
    q_sum = 0
    for t in range(4):
        q_sum += trick_estimate(hand, t)
    return q_best, q_sum


@njit(cache=True)
def trump_value(hand, allow_no_trump):
    """Tricks gained by naming trump rather than playing under an average other suit."""
    q_best, q_sum = _own_and_average(hand, allow_no_trump)
    return (4 * q_best - q_sum) // 16


@njit(cache=True)
def heuristic_accepts(hand, price, may_decline, allow_no_trump):
    """Whether the benefited sells for ``price``: when the price and the tricks it expects
    under another seat's trump (an average suit) beat what it keeps by refusing, which is
    naming its own trump or, where the best offer is 1 trick or none (``may_decline``),
    the 4 tricks of a decline if that is more (docs/rules.md §6: "selling for 1 must beat
    that"). Compared in sixteenths of a trick, as :func:`trump_value` does; without the
    decline it is ``price > trump_value``, the whole rule before, which sold for 1 in 17% of
    positive hands and ended below 4 tricks in 71% of those (20,000 hands, seed 9)."""
    q_best, q_sum = _own_and_average(hand, allow_no_trump)
    keep = 4 * q_best
    if may_decline:
        keep = max(keep, 64)
    return 16 * price + q_sum > keep


@njit(cache=True)
def heuristic_offer(hand, high, floor, has_priority, holds_offer, max_offer, allow_no_trump):
    """0 (pass) or an offer: the minimum legal amount while it stays within the value.

    ``holds_offer``: the seat made the high offer and nobody has outbid it. It passes
    then, as docs/spec.md §3.5 has every player do: over an accepted offer a raise only
    costs it more with nobody competing; over a refused one, the spec's players offer again
    only after being outbid.
    """
    if holds_offer:
        return 0
    value = trump_value(hand, allow_no_trump)
    if has_priority and high > floor and high <= value:
        return high  # "pela mão": the same offer, with priority
    lowest = max(high, floor) + 1
    return lowest if lowest <= min(value, max_offer) else 0
