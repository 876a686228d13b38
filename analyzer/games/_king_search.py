"""King's dd and pimc card choice (numba): a paranoid search for the seat to move.

The seat maximises its own points in the contract and the other three play
together against it (``_dd_games.king_setup``), a lower bound on what it can
secure since real opponents do not collude. pimc knows its hand, the cards
played and the voids revealed; the trump auction is not used.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ._dd_games import king_setup
from ._pimc import (
    KN_POOL,
    P_WORLDS,
    POLICY_DD,
    WS_CPTS,
    WS_KN,
    WS_Q,
    WS_TV,
    dd_choose,
    node_budget,
    pimc_choose,
)

ALL_CARDS = np.uint64(0x1FFF_1FFF_1FFF_1FFF)


@njit(cache=True)
def king_search_card(pols, seat, hands, leader, n_played, legal, ws, gen, contract,
                     kh_force_ace, trump, seen, prng):
    """The card a dd or pimc seat plays; -1 if the search gave none. ``seen``: every card
    played so far, the current trick's included."""
    q, cpts, tv, kn = ws[WS_Q], ws[WS_CPTS], ws[WS_TV], ws[WS_KN]
    king_setup(contract, kh_force_ace, trump, seat, q, cpts, tv)
    nodes = node_budget(pols)
    if pols[seat] == POLICY_DD:
        return dd_choose(hands, seat, leader, n_played, legal, q, cpts, tv, ws, gen, nodes)
    kn[KN_POOL] = ~seen & ~hands[seat] & ALL_CARDS
    return pimc_choose(hands, seat, leader, n_played, legal, q, cpts, tv, ws, gen,
                       pols[P_WORLDS], nodes, prng)
