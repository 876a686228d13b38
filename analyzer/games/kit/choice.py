"""Uniform random choices over card masks, shared by every game's ``random`` policy.

May import: :mod:`analyzer.bits` and :mod:`analyzer.rng`; never a game.
"""

from __future__ import annotations

from numba import njit

from ...bits import ONE, ZERO, lsb, nth_bit, popcount
from ...rng import uniform_int


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
