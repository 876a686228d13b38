"""Whole Pedro/Cinch games to the target (docs/rules.md §1.10), one game per row, in chunks
of games on threads.

May import: the foundations, ``games.kit``, ``games.search`` and Pedro's rules, core,
adapter, policies (and engine); never another game.

Game ``g`` plays deal indices ``kit.games.game_deal(g, k)`` for k = 0, 1, ...: the first
dealer is ``g % 4`` and the deal passes to the left each hand; game g's deals are the same
whatever the cap on its length. Scores are settled by the rules' method after each deal:

* exactly one side at or past the target wins;
* method 1, both sides there after a contract: the bidding side wins (it can
  only get there by making its bid);
* both there after a no-contract deal: ``higher_total_then_dealer`` gives it to
  the higher total, the dealer's side on a tie; ``play_on`` plays another deal;
* a game not decided within ``max_deals`` deals is recorded as unfinished (-1).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..kit.games import (  # noqa: F401 - MAX_DEALS, MAX_GAMES, GAME_COLUMNS: this module's too
    GAME_COLUMNS,
    GAMES_A_CHUNK,
    GAMES_CHUNK_SIG,
    MAX_DEALS,
    MAX_GAMES,
    game_deal,
    threaded_games,
)
from ..kit.kernels import no_search, serial_chunk_kernel
from ..search.setup import workspace_for
from .engine import NREC, R_BID, R_BIDDER, R_DEALER, R_MADE, R_S1, R_S2, play_deal
from .rules import P_NO_CONTRACT_TIE, P_SCORING, P_TARGET

SEARCH_KERNELS = ".search"  # these kernels with the search behind dd/pimc seats


@njit(cache=True)
def game_winner(s0, s1, target, rec, tie_rule):
    """Team that has won after this deal, or -1 to play on (docs/rules.md §1.10)."""
    over0, over1 = s0 >= target, s1 >= target
    if over0 != over1:
        return 0 if over0 else 1
    if not over0:
        return -1
    if rec[R_BID] > 0:  # both there after a contract: the bidding side, if it made it
        # (both can be there already, after a no_contract_tie played on: a side set then
        # does not go out, and the side that set it does)
        return rec[R_BIDDER] & 1 if rec[R_MADE] else 1 - (rec[R_BIDDER] & 1)
    if tie_rule == 1:  # play_on
        return -1
    if s0 != s1:
        return 0 if s0 > s1 else 1
    return rec[R_DEALER] & 1


@njit(cache=True, inline="always")
def play_game(seed, g, rp, pols, sc, out_row, search_card, max_deals):
    """Game ``g`` into ``out_row`` (see GAME_COLUMNS), with scratch of its own; undecided
    (-1) after ``max_deals`` deals."""
    target = rp[P_TARGET]
    method = rp[P_SCORING]
    tie_rule = rp[P_NO_CONTRACT_TIE]
    deck = np.empty(104, dtype=np.int64)  # twice the deck: ``kit.deal``
    hands = np.empty(4, dtype=np.uint64)
    prng = np.empty(1, dtype=np.uint64)
    drng = np.empty(1, dtype=np.uint64)
    rec = np.empty(NREC, dtype=np.int8)
    dealt = np.empty(4, dtype=np.uint64)
    li = np.empty(1, dtype=np.int16)
    lu = np.empty(1, dtype=np.uint64)
    ws = workspace_for(pols)
    s0, s1, winner, k = 0, 0, -1, 0
    while k < max_deals and winner < 0:
        play_deal(seed, game_deal(g, k), rp, pols, sc, deck, hands, prng, drng, rec, dealt, li,
                  lu, False, ws, search_card)
        col = R_S1 if method == 1 else R_S2
        s0 += rec[col]
        s1 += rec[col + 1]
        winner = game_winner(s0, s1, target, rec, tie_rule)
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
