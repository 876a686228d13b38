"""Whole games to a target, as every game that has them plays them: which deals a game
plays, the games kernels' type, and the driver that runs chunks of games on threads.

May import: numpy, numba and the foundations (``limits``); never a game, nor
``games.search``.

Game ``g`` plays deal indices :func:`game_deal` ``(g, k)`` = ``g * 2**24 + 4k + (g + k)
% 4`` for k = 0, 1, ...: the deal index fixes the dealer (index % 4), so the first dealer
is ``g % 4`` and the deal passes to the left each hand; every deal of every game is a
reproducible deal of the seed, and game g's deals are the same whatever the cap on its
length, the chunks, the threads or the number of games. A game's kernel writes one row
per game (:data:`GAME_COLUMNS`); a game not decided within ``max_deals`` deals has
winner -1. How a deal settles and who has won is the game's own (``<game>.games``).
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

from ...limits import ArgumentError, Pace, require_memory
from .threads import run_chunks

GAME_BLOCK = 1 << 24  # deal indices each game owns
MAX_DEALS = GAME_BLOCK // 4  # the most deals a game can play inside its block
MAX_GAMES = (2**63 - 1) // GAME_BLOCK  # games whose blocks fit the int64 deal indices
GAME_COLUMNS = ("winner", "deals", "score0", "score1", "first_dealer")
GAMES_A_CHUNK = 256  # a few milliseconds of fast play; a thread takes the next chunk when free
LATER_BATCH = 200_000  # games a call of the driver after the first, timed, one

# games first_game + lo .. first_game + hi - 1: (seed, first_game, lo, hi, max_deals, rp, pols,
# sc, out)
GAMES_CHUNK_SIG = types.void(types.int64, types.int64, types.int64, types.int64, types.int64,
                             types.int64[:], types.int64[:], types.uint64[:], types.int64[:, :])


@njit(cache=True)
def game_deal(g, k):
    """The deal index of deal ``k`` of game ``g``: its dealer, index % 4, is (g + k) % 4."""
    return g * GAME_BLOCK + 4 * k + (g + k) % 4


def default_max_deals(target: int) -> int:
    """The deals a game may last by default: 1,000, or twice the target when that is more
    (a side gains points most deals, so games end far sooner)."""
    return max(1_000, 2 * target)


def threaded_games(games_chunk, chunk: int):
    """``games_kernel(seed, first_game, n, max_deals, rp, pols, sc, out)``: games first_game ..
    first_game+n-1 into out[n, 5] (see GAME_COLUMNS), each at most ``max_deals`` deals,
    ``chunk`` games a call of ``games_chunk`` (a ``<game>.games`` kernel, or the same with
    the search in ``<game>.search``), on threads (``kit.threads.run_chunks``)."""

    def games_kernel(seed, first_game, n, max_deals, rp, pols, sc, out):
        run_chunks(lambda lo, hi: games_chunk(seed, first_game, lo, hi, max_deals, rp, pols,
                                              sc, out), n, chunk)

    return games_kernel


def check_games(n_games: int, first: int, max_deals: int) -> None:
    """Refuse a run of games that does not fit the deal indices: ArgumentError, a caller's
    bad input said in one line (a plain ValueError reached the command line a traceback)."""
    if n_games < 0 or first < 0 or first + n_games > MAX_GAMES:
        raise ArgumentError(f"need n_games >= 0 and 0 <= first, first + n_games <= "
                            f"{MAX_GAMES:,}; got {n_games}, {first}")
    if not 1 <= max_deals <= MAX_DEALS:
        raise ArgumentError(f"max_deals must be 1 to {MAX_DEALS:,}; got {max_deals}")


def run_games(games_kernel, seed: int, first: int, n_games: int, max_deals: int,
              rp: np.ndarray, pols: np.ndarray, sc: np.ndarray, first_n: int,
              progress=None) -> np.ndarray:
    """Games ``first`` .. ``first + n_games - 1`` by ``games_kernel`` (:func:`threaded_games`)
    as int64 rows of GAME_COLUMNS, after a check of memory, in batches: ``first_n`` games
    first, whose pace decides whether the run can finish in time (``limits.Pace``), then
    up to LATER_BATCH a call; ``progress(k)`` hears each batch's k games. Game g's row does
    not depend on the batches."""
    check_games(n_games, first, max_deals)
    width = len(GAME_COLUMNS)
    require_memory(n_games, 3 * 8 * (width + 1), "--games", "games")
    pace = Pace(n_games, "--games", "games")
    out = np.empty((n_games, width), dtype=np.int64)
    done = 0
    while done < n_games:
        n = min(n_games - done, first_n if done == 0 else LATER_BATCH)
        games_kernel(seed, first + done, n, max_deals, rp, pols, sc, out[done:done + n])
        done += n
        pace.step(done)
        if progress:
            progress(n)
    return out
