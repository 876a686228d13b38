"""Pedro/Cinch card logic on uint64 masks: the trump-normalised layout and the trick rules.

May import: the foundations, ``games.kit``, ``games.search.params``/``setup`` and Pedro's
rules and core; never another game.

Cards are dealt in the shared layout of analyzer.cards (suit lanes C D H S,
rank 2 at bit 0). Once trump is named every mask is moved into a
*trump-normalised* layout in which the trick rules become constant masks::

    lanes 0, 1, 2   the three plain suits, in ascending suit order, rank 2 at bit 0
                    (the Left Pedro's slot in its printed suit stays empty)
    lane 3          the 14 trumps in power order:
                    bit 48 2, 49 3, 50 4, 51 Left Pedro, 52 Right Pedro, 53 6, ...
                    57 10, 58 J, 59 Q, 60 K, 61 A

Every trump has a higher bit than every plain card and trump order is bit order
(docs/rules.md §1.1: A K Q J 10 9 8 7 6 5 5' 4 3 2), so the strength of a card in a
trick is simply its index when it is a trump or of the led lane, and the point
cards sit at fixed bits whatever the trump suit.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...bits import ONE, ZERO, bit, lsb, msb

LANE = np.uint64(0x1FFF)
TRUMP_LANE = 3
TRUMPS = np.uint64(0x3FFF) << np.uint64(48)
PLAIN = ~TRUMPS

# Fixed bits of the point cards in the normalised layout.
N_TWO, N_LEFT, N_RIGHT, N_TEN, N_JACK, N_ACE = 48, 51, 52, 57, 58, 61
COUNTERS = np.uint64(sum(1 << b for b in (N_TWO, N_LEFT, N_RIGHT, N_TEN, N_JACK, N_ACE)))


def _tables() -> tuple[np.ndarray, np.ndarray]:
    """NORM[t, card] and ORIG[t, norm]: the layout maps for each trump suit (-1 = none)."""
    norm = np.full((4, 64), -1, dtype=np.int64)
    orig = np.full((4, 64), -1, dtype=np.int64)
    for t in range(4):
        plain = [s for s in range(4) if s != t]
        for s in range(4):
            for r in range(13):
                c = 16 * s + r
                if s == t:
                    n = 48 + (r if r < 3 else r + 1)
                elif s == 3 - t and r == 3:  # the Left Pedro
                    n = N_LEFT
                else:
                    n = 16 * plain.index(s) + r
                norm[t, c] = n
                orig[t, n] = c
    return norm, orig


NORM, ORIG = _tables()


@njit(cache=True)
def left_pedro(trump):
    """Card index (shared layout) of the Left Pedro: the other 5 of trump's colour."""
    return (3 - trump) * 16 + 3


_PLAIN_LANES = np.uint64(0x1FFF_1FFF_1FFF)  # lanes 0-2 of the normalised layout


@njit(cache=True)
def normalise(mask, trump):
    """A shared-layout mask in the trump-normalised layout.

    Branch-free: the lanes above the trump lane drop by one lane onto it, and the Left
    Pedro, now a trump, leaves its plain lane (lane 3 - trump, one lower when that is
    above the trump lane)."""
    lp = left_pedro(trump)
    t_lane = (mask >> np.uint64(16 * trump)) & LANE
    left = (mask >> np.uint64(lp)) & ONE
    out = ((((t_lane >> np.uint64(3)) << np.uint64(4)) | (left << np.uint64(3))
            | (t_lane & np.uint64(7))) << np.uint64(48))
    below = (ONE << np.uint64(16 * trump)) - ONE  # the lanes under the trump lane
    plain = ((mask & below) | ((mask >> np.uint64(16)) & ~below)) & _PLAIN_LANES
    return out | (plain & ~left_pedro_gap(trump))


@njit(cache=True, inline="always")
def left_pedro_gap(trump):
    """The place the Left Pedro leaves in its plain lane of the trump-normalised layout: no
    card is there (a mask of the 14 trumps and three 13-card lanes counts it otherwise)."""
    left_lane = 3 - trump - (1 if 3 - trump > trump else 0)
    return bit(16 * left_lane + 3)


@njit(cache=True)
def denormalise(nmask, trump):
    """Inverse of normalise."""
    pw = nmask >> np.uint64(48)
    t_lane = (pw & np.uint64(7)) | ((pw >> np.uint64(4)) << np.uint64(3))
    out = t_lane << np.uint64(16 * trump)
    if (pw >> np.uint64(3)) & ONE:
        out |= bit(left_pedro(trump))
    k = 0
    for s in range(4):
        if s != trump:
            out |= ((nmask >> np.uint64(16 * k)) & LANE) << np.uint64(16 * s)
            k += 1
    return out


@njit(cache=True, inline="always")
def legal_moves(hand, lead_lane, forbid_trumping):
    """docs/rules.md §1.6: follow the led suit or trump; void means any card.

    ``lead_lane`` is the lane of the card led, or -1 on the lead.
    """
    if lead_lane < 0:
        return hand
    trumps = hand & TRUMPS
    if lead_lane == TRUMP_LANE:
        return trumps if trumps != ZERO else hand
    follow = hand & (LANE << np.uint64(16 * lead_lane))
    if follow == ZERO:
        return hand
    return follow if forbid_trumping else follow | trumps


@njit(cache=True, inline="always")
def strength(c, lead_lane):
    """Trick-taking strength: the card's index for trumps and the led lane, else -1."""
    if c >= 48 or c >> 4 == lead_lane:
        return c
    return -1


@njit(cache=True, inline="always")
def above(c):
    """Mask of the card indices above c (c may be -1)."""
    return ~((ONE << np.uint64(c + 1)) - ONE) if c < 63 else ZERO


@njit(cache=True)
def capture_points(trick, low_to_winner):
    """Points a trick's winner takes: J, 10, both Pedros, and Low when it goes to the winner."""
    p = 5 * np.int64((trick >> np.uint64(N_RIGHT)) & ONE)
    p += 5 * np.int64((trick >> np.uint64(N_LEFT)) & ONE)
    p += np.int64((trick >> np.uint64(N_TEN)) & ONE) + np.int64((trick >> np.uint64(N_JACK)) & ONE)
    if low_to_winner:
        p += np.int64((trick >> np.uint64(N_TWO)) & ONE)
    return p


_RANK_ACROSS_PLAIN = np.uint64(0x0001_0001_0001)  # one rank in each plain lane


@njit(cache=True)
def highest_plain(cards, k):
    """The k highest-ranked plain cards of a normalised mask, ties by suit S > H > D > C.

    Lanes keep the suits' order, so of the cards of one rank the higher bit is the
    higher suit.
    """
    out = ZERO
    while k > 0 and cards != ZERO:
        fold = (cards | (cards >> np.uint64(16)) | (cards >> np.uint64(32))) & LANE
        rank = cards & (_RANK_ACROSS_PLAIN << np.uint64(msb(fold)))
        cards &= ~rank
        while k > 0 and rank != ZERO:
            b = bit(msb(rank))
            out |= b
            rank ^= b
            k -= 1
    return out


@njit(cache=True, inline="always")
def lowest_plain(cards):
    """Index of the lowest-ranked plain card (ties: lowest suit); cards must be non-empty.

    The lanes folded onto each other give the lowest rank held; of the cards of that rank
    the lowest bit is in the lowest lane."""
    fold = (cards | (cards >> np.uint64(16)) | (cards >> np.uint64(32))) & LANE
    return lsb(cards & (_RANK_ACROSS_PLAIN << np.uint64(lsb(fold))))
