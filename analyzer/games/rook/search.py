"""Rook's ``dd`` and ``pimc`` seats (numba): their card choice, with the engine's hands moved
into the search layout, and the engine's and whole games' kernels with it (``rook.engine``'s
and ``rook.games``' own play every seat without the search and never compile it). The
search's kernels are serial and release the GIL, one for hands (plain and logged) and one
for whole games; the functions named as the engine's kernels run their chunks on threads
(``kit.threads``).

May import: the foundations, ``games.kit``, ``games.search`` and Rook's rules, core,
adapter, policies (and engine); never another game.

What a Rook seat knows beyond its hand, for pimc: the cards it passed are in
the receiver's hand until played, revealed voids (kept by the engine in ``kn``),
and, for the declarer, the dropped card, which no one holds.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..._jit_cache import njit_on_first_call
from ...bits import ONE, ZERO, bit, lsb
from ..kit.games import GAMES_CHUNK_SIG, threaded_games
from ..kit.threads import threaded_kernels
from ..search.pimc import dd_choose, pimc_seat
from ..search.setup import (
    KN_KNOWN,
    KN_POOL,
    POLICY_DD,
    WS_CPTS,
    WS_KN,
    WS_Q,
    WS_TV,
    node_budget,
)
from .adapter import rook_from_search, rook_to_search
from .engine import CHUNK_SIG, NLOGI, NLOGU, play_chunk
from .games import play_game


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
        c = pimc_seat(sh, seat, leader, n_played, legal_s, q, cpts, tv, ws, gen, pols, nodes, prng)
    if c < 0:
        return -1
    return lsb(rook_from_search(ONE << c, trump, rook_pos))


@njit_on_first_call(CHUNK_SIG, nogil=True)
def hands_chunk(seed, indices, lo, hi, rp, pols, sc, rec, hands_out, li, lu, log):
    """Hands ``indices[lo:hi]`` with dd and pimc seats, with their logs when ``log``."""
    play_chunk(seed, indices, lo, hi, rp, pols, sc, rec, hands_out, li, lu, log, search_card)


@njit_on_first_call(GAMES_CHUNK_SIG, nogil=True)
def games_chunk(seed, first_game, lo, hi, max_deals, rp, pols, sc, out):
    """Games ``first_game + lo`` .. ``first_game + hi - 1`` with dd and pimc seats."""
    for i in range(lo, hi):
        play_game(seed, first_game + i, rp, pols, sc, out[i], search_card, max_deals)


# the engine's kernels with the search: a thread a chunk, and a thread a logged hand
simulate_kernel, log_kernel = threaded_kernels(hands_chunk, NLOGI, NLOGU, log_chunk=1)


# ``rook.games.games_kernel`` with dd and pimc seats: a thread a game
games_kernel = threaded_games(games_chunk, 1)
