"""Rook's objective and play rules as the double-dummy search reads them (numba).

The search (:mod:`analyzer.games.search.dd`) knows nothing of any game: it reads a
parameter vector ``q``, card values ``cpts`` and trick values ``tv`` in its *search
layout*. The functions here fill them from Rook's kernel parameters and move Rook's
cards in and out of its search layout, so that the Python solver and the engines'
``dd``/``pimc`` players share one definition of the game. May import: bits, the search's
parameters, this game's rules and core.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...bits import ONE, ZERO, bit
from ..search.params import LANE13, NTV, Q_ACE, Q_BAN, Q_FORCE, Q_FREE, Q_SIDE, Q_TM, Q_TRUMP_ANY
from ..search.setup import team_mask
from .core import NO_TRUMP, ROOK
from .rules import P_FREE_PLAY, P_LAST_PTS, P_RANK_PTS, P_ROOK_POS, P_ROOK_PTS


# ---- Rook (the Rook moved into the trump lane) -------------------------------------------------
@njit(cache=True)
def rook_to_search(mask, trump, rook_pos):
    """A shared-layout Rook mask in the search layout: in the trump lane the ranks from
    ``rook_pos`` up move one bit up and the Rook takes bit ``rook_pos``; at no trump nothing
    moves."""
    if trump == NO_TRUMP:
        return mask
    base = np.uint64(16 * trump)
    lane = (mask >> base) & LANE13
    low = lane & ((ONE << np.uint64(rook_pos)) - ONE)
    high = (lane >> np.uint64(rook_pos)) << np.uint64(rook_pos + 1)
    moved = low | high
    if mask & ROOK:
        moved |= ONE << np.uint64(rook_pos)
    return (mask & ~ROOK & ~(LANE13 << base)) | (moved << base)


@njit(cache=True)
def rook_from_search(mask, trump, rook_pos):
    """Inverse of ``rook_to_search``."""
    if trump == NO_TRUMP:
        return mask
    base = np.uint64(16 * trump)
    lane = (mask >> base) & np.uint64(0x3FFF)
    low = lane & ((ONE << np.uint64(rook_pos)) - ONE)
    high = (lane >> np.uint64(rook_pos + 1)) << np.uint64(rook_pos)
    out = (mask & ~(np.uint64(0xFFFF) << base)) | ((low | high) << base)
    if (lane >> np.uint64(rook_pos)) & ONE:
        out |= ROOK
    return out


@njit(cache=True)
def rook_setup(rp, trump, side, q, cpts, tv):
    """Card points by the points scheme and the last-trick bonus for ``side``'s partnership."""
    rook_pos = rp[P_ROOK_POS]
    for c in range(64):
        cpts[c] = 0
    for k in range(NTV):
        tv[k] = 0
    tv[1] = rp[P_LAST_PTS]
    for s in range(4):
        for r in range(13):
            c = 16 * s + r
            if s == trump:
                c = 16 * s + (r if r < rook_pos else r + 1)
            cpts[c] = rp[P_RANK_PTS + r]
    if trump == NO_TRUMP:
        cpts[63] = rp[P_ROOK_PTS]
        q[Q_TM] = ROOK
        q[Q_FREE] = ROOK if rp[P_FREE_PLAY] else ZERO
    else:
        rook = 16 * trump + rook_pos
        cpts[rook] = rp[P_ROOK_PTS]
        q[Q_TM] = np.uint64(0x3FFF) << np.uint64(16 * trump)
        q[Q_FREE] = bit(rook) if rp[P_FREE_PLAY] else ZERO
    q[Q_TRUMP_ANY] = ZERO
    q[Q_BAN] = ZERO
    q[Q_FORCE] = ZERO
    q[Q_ACE] = ZERO
    q[Q_SIDE] = team_mask(side)
