"""Rook cards in numba: suit masks, trick power, legal moves and card points.

May import: the foundations, ``games.kit``, ``games.search.params``/``setup`` and Rook's
rules and core; never another game.

Rook keeps the shared card layout (``analyzer.cards``: lanes C D H S, rank 2 at
bit 0, the Rook at bit 63), since its trump suit is just a lane plus the Rook.
After trump is called everything the play needs is two masks: ``tmask``, the
trump suit (the trump lane and the Rook; the Rook alone with no trump), and the
led suit's mask. A card's *power* orders a trick: real trumps are odd numbers
65..89 by rank, the Rook the even number 64 + 2k sitting just above the k-th
real trump (``rook_pos`` = k, 0 = lowest, 13 = highest), cards of the led suit
their rank 0..12, and everything else -1.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...bits import ONE, ZERO, bit, popcount
from ...cards import JOKER
from ..kit.lanes import COLUMN, LANE, RANKS_FROM

ROOK = np.uint64(1) << np.uint64(JOKER)
NO_TRUMP = 4  # trump code for no trump: the Rook alone is the trump suit
TRUMP_POWER = 64


@njit(cache=True)
def trump_suit(trump):
    """Mask of the trump suit: the trump lane and the Rook (the Rook alone with no trump)."""
    if trump == NO_TRUMP:
        return ROOK
    return LANE[trump] | ROOK


@njit(cache=True, inline="always")
def suit_of(c, tmask):
    """Mask of the effective suit of card ``c`` (the Rook's is trump)."""
    if bit(c) & tmask:
        return tmask
    return LANE[c >> 4]


@njit(cache=True, inline="always")
def power(c, led, tmask, rook_pos):
    """Trick power of card ``c`` when the led suit's mask is ``led`` (see the module doc)."""
    m = bit(c)
    if m & tmask:
        if c == JOKER:
            return TRUMP_POWER + 2 * rook_pos
        return TRUMP_POWER + 2 * (c & 15) + 1
    if m & led:
        return c & 15
    return -1


@njit(cache=True, inline="always")
def stronger(c, tmask, rook_pos):
    """Mask of the cards of ``c``'s effective suit that beat it."""
    m = bit(c)
    if m & tmask:
        if c == JOKER:  # the real trumps of rank >= rook_pos
            return tmask & ~ROOK & RANKS_FROM[rook_pos]
        above = tmask & ~ROOK & ~((m << ONE) - ONE)
        if rook_pos > (c & 15):
            above |= ROOK & tmask
        return above
    return LANE[c >> 4] & ~((m << ONE) - ONE)


@njit(cache=True, inline="always")
def legal_moves(hand, led, free_play):
    """Cards of ``hand`` that may be played to a trick whose led suit mask is ``led`` (0: lead)."""
    if led == ZERO:
        return hand
    follow = hand & led
    if follow == ZERO:
        return hand
    if free_play:
        follow |= hand & ROOK
    return follow


@njit(cache=True, inline="always")
def points_of(mask, cpts):
    """Points of the cards in ``mask``; ``cpts[c]`` is the points of card index c (0..63).

    Only the 5s, 10s, Kings, Aces and the Rook can score under any scheme, so a
    popcount per scoring rank (all four suits score alike) counts them all."""
    total = cpts[JOKER] if mask & ROOK else 0
    for r in (3, 8, 11, 12):
        total += cpts[r] * popcount(mask & (COLUMN << np.uint64(r)))
    return total


@njit(cache=True)
def fill_card_points(rank_points, rook_points, cpts):
    """``cpts[c]``: points of card index c (0..63), from points by rank (2..A) and the Rook's."""
    for c in range(64):
        cpts[c] = 0
    for s in range(4):
        for r in range(13):
            cpts[16 * s + r] = rank_points[r]
    cpts[JOKER] = rook_points
