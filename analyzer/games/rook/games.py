"""Whole Rook games to the target (docs/rules.md §4.10), one game per row, in chunks of
games on threads.

May import: the foundations, ``games.kit``, ``games.search`` and Rook's rules, core,
adapter, policies (and engine); never another game.

Game ``g`` plays hand indices ``kit.games.game_deal(g, k)`` for k = 0, 1, ...: the first
dealer is ``g % 4`` and the deal passes to the left each hand; game g's hands are the same
whatever the cap on its length. Hand k of a game passes cards in the direction
``cycle[k % len(cycle)]`` of ``pass_cycle`` (docs/rules.md §4.5: the hand's number within
its game, not its index), set through the scenario's passing direction (``engine.SC_DIR``).
Each hand settles by docs/rules.md §4.9 and adds to the totals; after it:

* exactly one team at or past the target wins;
* both there (they crossed it in the same hand): the higher total wins, the declarer's
  team on equal totals (``tie = higher_then_declarer``);
* a game not decided within ``max_deals`` hands is recorded as unfinished (-1).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..kit.games import GAMES_A_CHUNK, GAMES_CHUNK_SIG, game_deal, threaded_games
from ..kit.kernels import no_log_row, no_search, serial_chunk_kernel
from ..search.setup import workspace_for
from .engine import N_HANDS_OUT, NREC, R_DECLARER, R_SCORE, SC_DIR, _scratch, play_hand
from .rules import P_CYCLE, P_NCYCLE, P_TARGET

SEARCH_KERNELS = ".search"  # these kernels with the search behind dd/pimc seats


@njit(cache=True)
def direction_code(direction):
    """The scenario's code (``engine.SC_DIR``) of a passing direction: +1 left, -1 right,
    0 none."""
    if direction == 1:
        return 1
    return 2 if direction == -1 else 3


@njit(cache=True)
def game_winner(s0, s1, target, rec):
    """Team that has won after this hand, or -1 to play on (docs/rules.md §4.10)."""
    over0, over1 = s0 >= target, s1 >= target
    if over0 != over1:
        return 0 if over0 else 1
    if not over0:
        return -1
    if s0 != s1:  # both crossed the target in this hand: the higher total ...
        return 0 if s0 > s1 else 1
    return rec[R_DECLARER] & 1  # ... then the declarer's team


@njit(cache=True, inline="always")
def play_game(seed, g, rp, pols, sc, out_row, search_card, max_deals):
    """Game ``g`` into ``out_row`` (see ``kit.games.GAME_COLUMNS``), with scratch of its own;
    undecided (-1) after ``max_deals`` hands. ``sc`` is a scenario without one (its passing
    direction is set here, hand by hand)."""
    target = rp[P_TARGET]
    cpts, deck, hands, values, given, prng, drng = _scratch(rp)
    hsc = sc.copy()
    rec = np.empty(NREC, dtype=np.int16)
    dealt = np.empty(N_HANDS_OUT, dtype=np.uint64)
    li, lu = no_log_row()
    ws = workspace_for(pols)
    s0, s1, winner, k = 0, 0, -1, 0
    while k < max_deals and winner < 0:
        hsc[SC_DIR] = direction_code(rp[P_CYCLE + k % rp[P_NCYCLE]])
        play_hand(seed, game_deal(g, k), rp, pols, hsc, cpts, deck, hands, values, given, prng,
                  drng, rec, dealt, li, lu, False, ws, search_card)
        s0 += rec[R_SCORE]
        s1 += rec[R_SCORE + 1]
        winner = game_winner(s0, s1, target, rec)
        k += 1
    out_row[0] = winner
    out_row[1] = k
    out_row[2] = s0
    out_row[3] = s1
    out_row[4] = g % 4


# serial, run on threads, like the engine's chunk kernel
@serial_chunk_kernel(GAMES_CHUNK_SIG)
def games_chunk(seed, first_game, lo, hi, max_deals, rp, pols, sc, out):
    """Games ``first_game + lo`` .. ``first_game + hi - 1`` into rows lo .. hi-1 of ``out``;
    no seat searches."""
    for i in range(lo, hi):
        play_game(seed, first_game + i, rp, pols, sc, out[i], no_search, max_deals)


games_kernel = threaded_games(games_chunk, GAMES_A_CHUNK)
