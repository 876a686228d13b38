"""King's ``dd`` and ``pimc`` seats (numba): their card choice, a paranoid search for the
seat to move, and the engine's kernels with it (``king.engine``'s own play every seat
without the search and never compile it).

May import: the foundations, ``games.kit``, ``games.search`` and King's rules, core,
adapter, policies (and engine); never another game.

The seat maximises its own points in the contract and the other three play
together against it (``the game's adapter.king_setup``), a lower bound on what it can
secure since real opponents do not collude. pimc knows its hand, the cards
played, the voids revealed and the cards the rules' forced plays show a seat lacks (a
heart led under the ban, the K♥ kept back: ``knowledge.shown_lacking``, recorded for every
card by the engine); the trump auction is not used.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..._jit_cache import njit_on_first_call
from ..search.pimc import dd_choose, pimc_seat
from ..search.setup import (
    KN_POOL,
    POLICY_DD,
    WS_CPTS,
    WS_KN,
    WS_Q,
    WS_TV,
    node_budget,
)
from .adapter import king_setup
from .engine import CHUNK_SIG, GAMES_SIG, play_chunk, play_games, threaded_hand_kernels

ALL_CARDS = np.uint64(0x1FFF_1FFF_1FFF_1FFF)


@njit(cache=True)
def search_card(pols, seat, hands, leader, n_played, legal, ws, gen, contract, kh_force_ace,
                trump, seen, prng):
    """The card a dd or pimc seat plays; -1 if the search gave none. ``seen``: every card
    played so far, the current trick's included."""
    q, cpts, tv, kn = ws[WS_Q], ws[WS_CPTS], ws[WS_TV], ws[WS_KN]
    king_setup(contract, kh_force_ace, trump, seat, q, cpts, tv)
    nodes = node_budget(pols)
    if pols[seat] == POLICY_DD:
        return dd_choose(hands, seat, leader, n_played, legal, q, cpts, tv, ws, gen, nodes)
    kn[KN_POOL] = ~seen & ~hands[seat] & ALL_CARDS
    return pimc_seat(hands, seat, leader, n_played, legal, q, cpts, tv, ws, gen, pols, nodes, prng)


@njit_on_first_call(CHUNK_SIG, nogil=True)
def hands_chunk(seed, indices, slots, dealers, contracts, lo, hi, rp, pols, sc, rec, hands_out,
                li, log):
    """Hands ``lo .. hi-1`` with dd and pimc seats, with their logs when ``log``."""
    play_chunk(seed, indices, slots, dealers, contracts, lo, hi, rp, pols, sc, rec, hands_out,
               li, log, search_card)


@njit_on_first_call(GAMES_SIG, nogil=True)
def games_chunk(seed, first, lo, hi, rp, pols, out):
    """Whole games ``first + lo`` .. ``first + hi - 1`` with dd and pimc seats."""
    play_games(seed, first, lo, hi, rp, pols, out, search_card)


# the engine's kernels with dd and pimc seats; a searched hand takes long: a thread a logged hand
hands_kernel, games_kernel, log_kernel = threaded_hand_kernels(hands_chunk, games_chunk,
                                                              log_chunk=1)
