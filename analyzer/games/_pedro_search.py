"""Pedro's ``dd`` and ``pimc`` seats (numba): their card choice, and the engine's kernels
with it.

``_pedro_engine``'s kernels play every seat without the search and never compile it;
these play the same deals (``play_deal``) with :func:`search_card` behind the seats whose
policy is ``dd`` or ``pimc``, so the search compiles only for a run that has such a seat.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from .._jit_cache import njit_on_first_call
from ._pedro_engine import LOG_SIG, SIM_SIG, play_logged, play_range
from ._pedro_games import GAME_SIG, play_game
from ._pimc import dd_choose, pimc_choose
from ._search_setup import KN_DISCARDS, KN_POOL, P_WORLDS, POLICY_DD, WS_CPTS, WS_KN, WS_Q, WS_TV

ALL_CARDS = np.uint64(0x3FFF_1FFF_1FFF_1FFF)  # the 52 cards in the trump-normalised layout


@njit(cache=True)
def search_card(pols, seat, hands, leader, n_played, legal, ws, gen, nodes, prng, seen,
                known_out, dealer, stock_left):
    """The card of a ``dd`` or ``pimc`` seat (-1: the search gave none; use the heuristic)."""
    q, cpts, tv, kn = ws[WS_Q], ws[WS_CPTS], ws[WS_TV], ws[WS_KN]
    if pols[seat] == POLICY_DD:
        return dd_choose(hands, seat, leader, n_played, legal, q, cpts, tv, ws, gen, nodes)
    # unseen by this seat: not its own, not played, not known discards or its own discards
    pool = ALL_CARDS & ~hands[seat] & ~seen & ~known_out & ~kn[KN_DISCARDS + seat]
    if seat == dealer:
        pool &= ~stock_left
    kn[KN_POOL] = pool
    return pimc_choose(hands, seat, leader, n_played, legal, q, cpts, tv, ws, gen,
                       pols[P_WORLDS], nodes, prng)


@njit_on_first_call(SIM_SIG, parallel=True)
def simulate_kernel(seed, indices, chunk, rp, pols, sc, rec, hands_out):
    """``_pedro_engine.simulate_kernel`` with dd and pimc seats."""
    n = indices.shape[0]
    for ci in prange((n + chunk - 1) // chunk):
        play_range(seed, indices, ci * chunk, min(n, ci * chunk + chunk), rp, pols, sc, rec,
                   hands_out, search_card)


@njit_on_first_call(LOG_SIG)
def log_kernel(seed, indices, rp, pols, sc, rec, li, lu):
    """``_pedro_engine.log_kernel`` with dd and pimc seats."""
    play_logged(seed, indices, rp, pols, sc, rec, li, lu, search_card)


@njit_on_first_call(GAME_SIG, parallel=True)
def games_kernel(seed, first_game, n, rp, pols, sc, out):
    """``_pedro_games.games_kernel`` with dd and pimc seats."""
    for i in prange(n):
        play_game(seed, first_game + i, rp, pols, sc, out[i], search_card)
