"""King's objective and play rules as the double-dummy search reads them (numba).

The search (:mod:`analyzer.games.search.dd`) knows nothing of any game: it reads a
parameter vector ``q``, card values ``cpts`` and trick values ``tv`` in its *search
layout*. The function here fills them for one seat's contract (a paranoid search), so
that the Python solver and the engines' ``dd``/``pimc`` players share one definition of
the game. May import: bits, the search's parameters, this game's rules and core.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...bits import ZERO, bit
from ..search.params import LANE13, NTV, Q_ACE, Q_BAN, Q_FORCE, Q_FREE, Q_SIDE, Q_TM, Q_TRUMP_ANY
from .rules import (
    LAST_TWO,
    NO_HEARTS,
    NO_KING_OF_HEARTS,
    NO_KINGS_JACKS,
    NO_QUEENS,
    NO_TRICKS,
    POSITIVE,
)

KH = 16 * 2 + 11  # the K♥ and A♥ in the shared layout
AH = 16 * 2 + 12


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
