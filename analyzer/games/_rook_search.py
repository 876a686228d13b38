"""Rook's ``dd`` and ``pimc`` seats (numba): their card choice, with the engine's hands moved
into the search layout, and the engine's kernels with it (``_rook_engine``'s own play
every seat without the search and never compile it).

What a Rook seat knows beyond its hand, for pimc: the cards it passed are in
the receiver's hand until played, revealed voids (kept by the engine in ``kn``),
and, for the declarer, the dropped card, which no one holds.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from .._jit_cache import njit_on_first_call
from ..bits import ONE, ZERO, bit, lsb
from ._dd_games import rook_from_search, rook_to_search
from ._pimc import dd_choose, pimc_choose
from ._rook_engine import LOG_SIG, SIM_SIG, play_logged, play_range
from ._search_setup import (
    KN_KNOWN,
    KN_POOL,
    P_WORLDS,
    POLICY_DD,
    WS_CPTS,
    WS_KN,
    WS_Q,
    WS_TV,
    node_budget,
)


@njit(cache=True)
def search_card(pols, seat, hands, leader, n_played, legal, ws, gen, trump, rook_pos, unseen,
                given, direction, drop, prng):
    """The card (shared layout) a dd or pimc seat plays; -1 if the search gave none.

    ``unseen`` is every card not yet played (hands, the widow or drop); ``drop`` is the
    dropped card when ``seat`` is the declarer (-1 otherwise).
    """
    q, cpts, tv, kn = ws[WS_Q], ws[WS_CPTS], ws[WS_TV], ws[WS_KN]
    sh = np.empty(4, dtype=np.uint64)  # the search-layout hands
    for s in range(4):
        sh[s] = rook_to_search(hands[s], trump, rook_pos)
    legal_s = rook_to_search(legal, trump, rook_pos)
    nodes = node_budget(pols)
    if pols[seat] == POLICY_DD:
        c = dd_choose(sh, seat, leader, n_played, legal_s, q, cpts, tv, ws, gen, nodes)
    else:
        pool = unseen & ~hands[seat]
        if drop >= 0:
            pool &= ~bit(drop)
        kn[KN_POOL] = rook_to_search(pool, trump, rook_pos)
        for t in range(4):
            kn[KN_KNOWN + t] = ZERO
        if direction != 0:
            to = (seat + direction) % 4
            kn[KN_KNOWN + to] = rook_to_search(given[seat] & pool, trump, rook_pos)
        c = pimc_choose(sh, seat, leader, n_played, legal_s, q, cpts, tv, ws, gen,
                        pols[P_WORLDS], nodes, prng)
    if c < 0:
        return -1
    return lsb(rook_from_search(ONE << c, trump, rook_pos))


@njit_on_first_call(SIM_SIG, parallel=True)
def simulate_kernel(seed, indices, chunk, rp, pols, sc, rec, hands_out):
    """``_rook_engine.simulate_kernel`` with dd and pimc seats."""
    n = indices.shape[0]
    for ci in prange((n + chunk - 1) // chunk):
        play_range(seed, indices, ci * chunk, min(n, ci * chunk + chunk), rp, pols, sc, rec,
                   hands_out, search_card)


@njit_on_first_call(LOG_SIG)
def log_kernel(seed, indices, rp, pols, sc, rec, hands_out, li, lu):
    """``_rook_engine.log_kernel`` with dd and pimc seats."""
    play_logged(seed, indices, rp, pols, sc, rec, hands_out, li, lu, search_card)
