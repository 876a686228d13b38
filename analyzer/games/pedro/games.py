"""Whole Pedro/Cinch games to the target (docs/rules.md §1.10), one game per row, in chunks
of games on threads.

May import: the foundations, ``games.kit``, ``games.search`` and Pedro's rules, core,
adapter, policies (and engine); never another game.

Game ``g`` plays deal indices :func:`game_deal` ``(g, k)`` = ``g * 2**24 + 4k + (g + k)
% 4`` for k = 0, 1, ...: the deal index fixes the dealer (index % 4), so the first dealer
is ``g % 4`` and the deal passes to the left each hand; every deal of every game is a
reproducible deal of the seed, and game g's deals are the same whatever the cap on its
length. Scores are settled by the rules' method after each deal:

* exactly one side at or past the target wins;
* method 1, both sides there after a contract: the bidding side wins (it can
  only get there by making its bid);
* both there after a no-contract deal: ``higher_total_then_dealer`` gives it to
  the higher total, the dealer's side on a tie; ``play_on`` plays another deal;
* a game not decided within ``max_deals`` deals is recorded as unfinished (-1).
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

from ..search.setup import workspace_for
from ..kit.kernels import no_search, serial_chunk_kernel
from ..kit.threads import run_chunks
from .engine import NREC, R_BID, R_BIDDER, R_DEALER, R_S1, R_S2, play_deal
from .rules import P_NO_CONTRACT_TIE, P_SCORING, P_TARGET

SEARCH_KERNELS = ".search"  # these kernels with the search behind dd/pimc seats

GAME_BLOCK = 1 << 24  # deal indices each game owns
MAX_DEALS = GAME_BLOCK // 4  # the most deals a game can play inside its block
MAX_GAMES = (2**63 - 1) // GAME_BLOCK  # games whose blocks fit the int64 deal indices
GAME_COLUMNS = ("winner", "deals", "score0", "score1", "first_dealer")


@njit(cache=True)
def game_deal(g, k):
    """The deal index of deal ``k`` of game ``g``: its dealer, index % 4, is (g + k) % 4."""
    return g * GAME_BLOCK + 4 * k + (g + k) % 4


@njit(cache=True)
def game_winner(s0, s1, target, rec, tie_rule):
    """Team that has won after this deal, or -1 to play on (docs/rules.md §1.10)."""
    over0, over1 = s0 >= target, s1 >= target
    if over0 != over1:
        return 0 if over0 else 1
    if not over0:
        return -1
    if rec[R_BID] > 0:  # both there after a contract: the bidding side wins
        return rec[R_BIDDER] & 1
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


# games first_game + lo .. first_game + hi - 1: (seed, first_game, lo, hi, max_deals, rp, pols,
# sc, out)
GAMES_CHUNK_SIG = types.void(types.int64, types.int64, types.int64, types.int64, types.int64,
                             types.int64[:], types.int64[:], types.uint64[:], types.int64[:, :])
GAMES_A_CHUNK = 256  # a few milliseconds of fast play; a thread takes the next chunk when free


# serial, run on threads, like the engine's chunk kernel
@serial_chunk_kernel(GAMES_CHUNK_SIG)
def games_chunk(seed, first_game, lo, hi, max_deals, rp, pols, sc, out):
    """Games ``first_game + lo`` .. ``first_game + hi - 1`` into rows lo .. hi-1 of ``out``;
    no seat searches."""
    for i in range(lo, hi):
        play_game(seed, first_game + i, rp, pols, sc, out[i], no_search, max_deals)


def threaded_games(games_chunk, chunk: int):
    """``games_kernel(seed, first_game, n, max_deals, rp, pols, sc, out)``: games first_game ..
    first_game+n-1 into out[n, 5] (see GAME_COLUMNS), each at most ``max_deals`` deals,
    ``chunk`` games a call of ``games_chunk`` (this module's, or ``pedro.search``'s), on
    threads (``kit.threads.run_chunks``)."""

    def games_kernel(seed, first_game, n, max_deals, rp, pols, sc, out):
        run_chunks(lambda lo, hi: games_chunk(seed, first_game, lo, hi, max_deals, rp, pols,
                                              sc, out), n, chunk)

    return games_kernel


games_kernel = threaded_games(games_chunk, GAMES_A_CHUNK)
