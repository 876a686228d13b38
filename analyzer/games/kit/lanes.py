"""Suit-lane helpers for the shared card layout (lanes C D H S, rank 2 at bit 0), in numba.

Rook and King play in the shared layout, so choosing "the lowest card" or "the
highest card" of a set is a fold of the four lanes onto one 13-bit rank mask
and a lookup in the rank's column, with no loop over cards.

May import: :mod:`analyzer.bits`; never a game.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...bits import lsb, msb

LANE = np.array([np.uint64(0x1FFF) << np.uint64(16 * s) for s in range(4)], dtype=np.uint64)
COLUMN = np.uint64(0x0001_0001_0001_0001)  # rank 2 of every suit
# RANKS_FROM[r]: ranks r..A of every suit (RANKS_FROM[13] is empty)
RANKS_FROM = np.array([sum(((0x1FFF >> r) << r) << (16 * s) for s in range(4)) for r in range(14)],
                      dtype=np.uint64)


@njit(cache=True, inline="always")
def fold(m):
    """The ranks present in any suit of ``m`` (bit 63, the joker, ignored) as a 13-bit mask."""
    return (m | (m >> np.uint64(16)) | (m >> np.uint64(32)) | (m >> np.uint64(48))) \
        & np.uint64(0x1FFF)


_RANKS = np.uint64(0x1FFF_1FFF_1FFF_1FFF)  # the 13 rank bits of every lane
_LOW12 = np.uint64(0x0FFF_0FFF_0FFF_0FFF)  # where a shift by 4 may land within its own lane
_LOW8 = np.uint64(0x00FF_00FF_00FF_00FF)  # where a shift by 8 may land within its own lane


@njit(cache=True, inline="always")
def suit_tops(m):
    """The highest card of each suit of ``m`` (bit 63, the joker, ignored), all lanes at once:
    each lane's bits are smeared down from its top card, and the top is the one bit whose
    next-higher neighbour is clear. Each shift is masked to where bits of the lane itself
    can land, so nothing leaks down from the lane above (its low bits land in the top ones)."""
    y = m & _RANKS
    y |= (y >> np.uint64(1)) & _RANKS
    y |= (y >> np.uint64(2)) & _RANKS
    y |= (y >> np.uint64(4)) & _LOW12
    y |= (y >> np.uint64(8)) & _LOW8
    return y & ~(y >> np.uint64(1)) & m


@njit(cache=True, inline="always")
def lowest_card(m):
    """The lowest-ranked card of a non-empty ``m`` (no joker; ties to the first suit C D H S)."""
    return lsb(m & (COLUMN << np.uint64(lsb(fold(m)))))


@njit(cache=True, inline="always")
def highest_card(m):
    """The highest-ranked card of a non-empty ``m`` (no joker; ties to the first suit)."""
    return lsb(m & (COLUMN << np.uint64(msb(fold(m)))))
