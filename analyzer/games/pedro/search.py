"""Pedro's ``dd`` and ``pimc`` seats (numba): their card choice, and the engine's kernels
with it.

May import: the foundations, ``games.kit``, ``games.search`` and Pedro's rules, core,
adapter, policies (and engine); never another game.

``pedro.engine``'s kernels play every seat without the search and never compile it;
these play the same deals (``play_deal``) with :func:`search_card` behind the seats whose
policy is ``dd`` or ``pimc``, so the search compiles only for a run that has such a seat.
They are serial and release the GIL, one for deals (logged or not) and one for whole
games; the functions named as the engine's kernels run their chunks on threads
(``kit.threads``), so the search's kernels compile in about 60% of the time.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..._jit_cache import njit_on_first_call
from ..kit.games import GAMES_CHUNK_SIG, threaded_games
from ..kit.threads import threaded_kernels
from ..search.pimc import dd_choose, pimc_seat
from ..search.setup import (
    KN_DISCARDS,
    KN_POOL,
    POLICY_DD,
    WS_CPTS,
    WS_KN,
    WS_Q,
    WS_TV,
)
from .engine import CHUNK_SIG, NLOGI, NLOGU, play_chunk
from .games import play_game

ALL_CARDS = np.uint64(0x3FFF_1FFF_1FFF_1FFF)  # the 52 cards in the trump-normalised layout


@njit(cache=True)
def unseen_by(hand, is_dealer, seen, known_out, kn, stock_left):
    """The cards a seat holding ``hand`` has not seen: not its own, not played, not known out
    of play (dead, the Left Pedro's gap), not discarded (every seat's discards lie face up,
    docs/rules.md §1.5), and for the dealer not left in the stock he robbed."""
    pool = ALL_CARDS & ~hand & ~seen & ~known_out & ~(
        kn[KN_DISCARDS] | kn[KN_DISCARDS + 1] | kn[KN_DISCARDS + 2] | kn[KN_DISCARDS + 3])
    return pool & ~stock_left if is_dealer else pool


@njit(cache=True)
def search_card(pols, seat, hands, leader, n_played, legal, ws, gen, nodes, prng, seen,
                known_out, dealer, stock_left):
    """The card of a ``dd`` or ``pimc`` seat (-1: the search gave none; use the heuristic)."""
    q, cpts, tv, kn = ws[WS_Q], ws[WS_CPTS], ws[WS_TV], ws[WS_KN]
    if pols[seat] == POLICY_DD:
        return dd_choose(hands, seat, leader, n_played, legal, q, cpts, tv, ws, gen, nodes)
    kn[KN_POOL] = unseen_by(hands[seat], seat == dealer, seen, known_out, kn, stock_left)
    return pimc_seat(hands, seat, leader, n_played, legal, q, cpts, tv, ws, gen, pols, nodes, prng)


@njit_on_first_call(CHUNK_SIG, nogil=True)
def deals_chunk(seed, indices, lo, hi, rp, pols, sc, rec, hands_out, li, lu, log):
    """Deals ``indices[lo:hi]`` with dd and pimc seats, with their logs when ``log``."""
    play_chunk(seed, indices, lo, hi, rp, pols, sc, rec, hands_out, li, lu, log, search_card)


@njit_on_first_call(GAMES_CHUNK_SIG, nogil=True)
def games_chunk(seed, first_game, lo, hi, max_deals, rp, pols, sc, out):
    """Games ``first_game + lo`` .. ``first_game + hi - 1`` with dd and pimc seats."""
    for i in range(lo, hi):
        play_game(seed, first_game + i, rp, pols, sc, out[i], search_card, max_deals)


# the engine's kernels with the search: a thread a chunk, and a thread a logged deal
simulate_kernel, log_kernel = threaded_kernels(deals_chunk, NLOGI, NLOGU, log_chunk=1)


# ``pedro.games.games_kernel`` with dd and pimc seats: a thread a game
games_kernel = threaded_games(games_chunk, 1)
