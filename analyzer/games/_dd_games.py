"""Each game's objective and play rules as the double-dummy search reads them (numba).

The search (``_dd.search``) knows nothing of any game: it reads a parameter
vector ``q``, card values ``cpts`` and trick values ``tv`` in its *search
layout*. The functions here fill them from a game's kernel parameters, and
move Rook's cards in and out of its search layout, so that the Python solver
and the engines' ``dd``/``pimc`` players share one definition of every game.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..bits import ONE, ZERO, bit
from ._dd_params import Q_ACE, Q_BAN, Q_FORCE, Q_FREE, Q_SIDE, Q_TM, Q_TRUMP_ANY
from ._pedro_core import N_JACK, N_LEFT, N_RIGHT, N_TEN, N_TWO, TRUMPS
from ._rook_core import NO_TRUMP, ROOK
from .king_rules import (
    LAST_TWO,
    NO_HEARTS,
    NO_KING_OF_HEARTS,
    NO_KINGS_JACKS,
    NO_QUEENS,
    NO_TRICKS,
    POSITIVE,
)
from .pedro_rules import P_LOW_TO, P_TRUMP_FOLLOW
from .rook_rules import P_FREE_PLAY, P_LAST_PTS, P_RANK_PTS, P_ROOK_POS, P_ROOK_PTS

NTV = 14  # tv[k] for k = 1..13 cards in the longest hand when a trick starts
LANE13 = np.uint64(0x1FFF)
KH = 16 * 2 + 11  # King's K♥ and A♥ in the shared layout
AH = 16 * 2 + 12


@njit(cache=True)
def team_mask(seat):
    """The seat mask of a seat's partnership."""
    return bit(seat) | bit((seat + 2) & 3)


# ---- Pedro / Cinch (trump-normalised layout, trumps in lane 3) --------------------------------
@njit(cache=True)
def pedro_setup(rp, low_card, side, q, cpts, tv):
    """Capture points of ``side``'s partnership: Right and Left Pedro 5, J and 10 of trump 1,
    and the Low card (``low_card``, normalised index, -1 for none) 1 when it goes to the trick
    winner. High scores to its holder, not in tricks, so it is worth nothing here."""
    for c in range(64):
        cpts[c] = 0
    for k in range(NTV):
        tv[k] = 0
    cpts[N_RIGHT] = 5
    cpts[N_LEFT] = 5
    cpts[N_JACK] = 1
    cpts[N_TEN] = 1
    if rp[P_LOW_TO] == 0 and low_card >= 0:
        cpts[low_card] += 1
    q[Q_TM] = TRUMPS
    q[Q_FREE] = ZERO
    q[Q_TRUMP_ANY] = ONE if rp[P_TRUMP_FOLLOW] == 0 else ZERO
    q[Q_BAN] = ZERO
    q[Q_FORCE] = ZERO
    q[Q_ACE] = ZERO
    q[Q_SIDE] = team_mask(side)


@njit(cache=True)
def pedro_low_card(in_play, rule_high_low):
    """The Low card (normalised index) among the trumps ``in_play``: the 2 under fixed A and 2,
    else the lowest trump in play (-1 when none)."""
    if rule_high_low == 0:
        return N_TWO
    t = in_play & TRUMPS
    if t == ZERO:
        return -1
    c = 0
    while not (t >> np.uint64(c)) & ONE:
        c += 1
    return c


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


# ---- King (shared layout; a paranoid search for one seat) --------------------------------------
@njit(cache=True)
def king_setup(contract, kh_force_ace, trump, seat, q, cpts, tv):
    """``seat``'s own points in ``contract`` (combined negatives add up); trump -1 or NO_TRUMP
    for none. The other three seats form the minimising side."""
    for c in range(64):
        cpts[c] = 0
    for k in range(NTV):
        tv[k] = 0
    for s in range(4):
        for r in range(13):
            c = 16 * s + r
            v = 0
            if contract & NO_HEARTS and s == 2:
                v -= 20
            if contract & NO_KINGS_JACKS and (r == 11 or r == 9):
                v -= 30
            if contract & NO_QUEENS and r == 10:
                v -= 50
            if contract & NO_KING_OF_HEARTS and c == KH:
                v -= 160
            cpts[c] = v
    for k in range(1, NTV):
        if contract & NO_TRICKS:
            tv[k] -= 20
        if contract & POSITIVE:
            tv[k] += 25
    if contract & LAST_TWO:
        tv[1] -= 90
        tv[2] -= 90
    q[Q_TM] = (LANE13 << np.uint64(16 * trump)) if 0 <= trump < 4 else ZERO
    q[Q_FREE] = ZERO
    q[Q_TRUMP_ANY] = ZERO
    q[Q_BAN] = (LANE13 << np.uint64(32)) if contract & (NO_HEARTS | NO_KING_OF_HEARTS) else ZERO
    q[Q_FORCE] = bit(KH) if contract & NO_KING_OF_HEARTS else ZERO
    q[Q_ACE] = bit(AH) if contract & NO_KING_OF_HEARTS and kh_force_ace else ZERO
    q[Q_SIDE] = bit(seat)
