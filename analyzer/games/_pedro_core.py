"""Pedro/Cinch card logic on uint64 masks: trumps, the Left Pedro, legal moves, trick strength.

The shared layout (analyzer.cards) puts each suit in a 16-bit lane with the
rank 2 at bit 0. Pedro's trump suit has 14 cards: the 13 of its lane plus the
Left Pedro, the 5 of the other suit of the same colour (♣/♠, ♦/♥; with suits
ordered C D H S that suit is ``3 - trump``). Trump order is
A K Q J 10 9 8 7 6 5 5' 4 3 2, so the trumps are remapped into a 14-bit
*power word* with the Left Pedro inserted between the 4 and the Right Pedro::

    power bit: 0  1  2  3   4   5  6  7  8  9   10 11 12 13
    card:      2  3  4  5'  5   6  7  8  9  10  J  Q  K  A

Then "highest trump" is a most-significant bit of the power word, as "highest
card of a plain suit" is the most-significant bit of its lane.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..bits import ONE, ZERO, bit, lsb, msb, popcount

LANE = np.uint64(0x1FFF)
DECK = np.uint64(0x1FFF_1FFF_1FFF_1FFF)

# Power-word positions of the point cards and their values (Low counts 1 even
# when it scores to the holder: the capture value is set by the caller).
PW_TWO, PW_LEFT, PW_RIGHT, PW_TEN, PW_JACK, PW_ACE = 0, 3, 4, 9, 10, 13
COUNTER_POWERS = np.uint64((1 << 0) | (1 << 3) | (1 << 4) | (1 << 9) | (1 << 10) | (1 << 13))


@njit(cache=True)
def left_pedro(trump):
    """Card index of the Left Pedro: the 5 of the other suit of trump's colour."""
    return (3 - trump) * 16 + 3


@njit(cache=True)
def trump_mask(trump):
    return (LANE << np.uint64(16 * trump)) | bit(left_pedro(trump))


@njit(cache=True)
def power_word(mask, trump):
    """14-bit power word of the trumps in ``mask`` (see module docstring)."""
    lane = (mask >> np.uint64(16 * trump)) & LANE
    left = (mask >> np.uint64(left_pedro(trump))) & ONE
    return ((lane >> np.uint64(3)) << np.uint64(4)) | (left << np.uint64(3)) | (lane & np.uint64(7))


@njit(cache=True)
def card_of_power(p, trump):
    """Card index of power position ``p`` of ``trump``."""
    if p == PW_LEFT:
        return left_pedro(trump)
    if p < PW_LEFT:
        return 16 * trump + p
    return 16 * trump + p - 1


@njit(cache=True)
def mask_of_powers(pw, trump):
    """Inverse of power_word: the card mask of a power word."""
    lane = (pw & np.uint64(7)) | ((pw >> np.uint64(4)) << np.uint64(3))
    m = lane << np.uint64(16 * trump)
    if (pw >> np.uint64(PW_LEFT)) & ONE:
        m |= bit(left_pedro(trump))
    return m


@njit(cache=True)
def effective_suit(c, trump):
    if c >> 4 == trump or c == left_pedro(trump):
        return trump
    return c >> 4


@njit(cache=True)
def plain_suit_cards(hand, suit, trump):
    """Cards of plain suit ``suit`` in ``hand`` (the Left Pedro is never one of them)."""
    return hand & (LANE << np.uint64(16 * suit)) & ~bit(left_pedro(trump))


@njit(cache=True)
def legal_moves(hand, lead_suit, trump, forbid_trumping):
    """RULES §1.6: follow the led suit or trump; void means any card.

    ``lead_suit`` is the effective suit of the card led, or -1 on the lead.
    """
    if lead_suit < 0:
        return hand
    tm = hand & trump_mask(trump)
    if lead_suit == trump:
        return tm if tm != ZERO else hand
    follow = plain_suit_cards(hand, lead_suit, trump)
    if follow == ZERO:
        return hand
    if forbid_trumping:
        return follow
    return follow | tm


@njit(cache=True)
def strength(c, lead_suit, trump):
    """Trick-taking strength: 32 + power for trumps, rank for the led suit, -1 otherwise."""
    if c >> 4 == trump:
        r = c & 15
        return 32 + (r if r < PW_LEFT else r + 1)
    if c == left_pedro(trump):
        return 32 + PW_LEFT
    if c >> 4 == lead_suit:
        return c & 15
    return -1


@njit(cache=True)
def trick_points(mask, trump, low_to_winner):
    """Points capturable in a trick: J, 10, both Pedros, and Low when it goes to the winner."""
    pw = power_word(mask, trump)
    p = 0
    if (pw >> np.uint64(PW_RIGHT)) & ONE:
        p += 5
    if (pw >> np.uint64(PW_LEFT)) & ONE:
        p += 5
    if (pw >> np.uint64(PW_TEN)) & ONE:
        p += 1
    if (pw >> np.uint64(PW_JACK)) & ONE:
        p += 1
    if low_to_winner and pw & ONE:
        p += 1
    return p


@njit(cache=True)
def top_power(mask, trump):
    """Power position of the highest trump in mask, -1 when none."""
    return msb(power_word(mask, trump))


@njit(cache=True)
def low_power(mask, trump):
    """Power position of the lowest trump in mask, 64 when none."""
    return lsb(power_word(mask, trump))


@njit(cache=True)
def n_trumps(mask, trump):
    return popcount(mask & trump_mask(trump))
