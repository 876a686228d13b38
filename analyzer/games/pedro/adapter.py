"""Pedro and Cinch's objective and play rules as the double-dummy search reads them
(numba).

May import: the foundations, ``games.kit``, ``games.search.params``/``setup`` and Pedro's
rules and core; never another game.

The search (:mod:`analyzer.games.search.dd`) knows nothing of any game: it reads a
parameter vector ``q``, card values ``cpts`` and trick values ``tv`` in its *search
layout*. The functions here fill them from Pedro's kernel parameters, so that the Python
solver and the engines' ``dd``/``pimc`` players share one definition of the game. May
import: bits, the search's parameters, this game's rules and core.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...bits import ONE, ZERO
from ..search.params import NTV, Q_ACE, Q_BAN, Q_FORCE, Q_FREE, Q_SIDE, Q_TM, Q_TRUMP_ANY
from ..search.setup import team_mask
from .core import N_JACK, N_LEFT, N_RIGHT, N_TEN, N_TWO, TRUMPS
from .rules import P_LOW_TO, P_TRUMP_FOLLOW


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
