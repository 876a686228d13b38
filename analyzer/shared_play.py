"""Playing each auction outcome of a deal once: what every game's hand evaluation and bid
chart share.

``bidlab hand`` compares every bid and the pass on common deals, and ``bid-chart`` does
so for every seat. Played one by one that is some 60 simulations of every deal, yet the
play of a deal depends only on the deal, the maker (declarer) and the trump: never on
the amount bid. So each deal's auctions are run alone (the kernels' stop-after-the-
auction scenario), the distinct (maker, trump) outcomes are played once each (here), and
every action is settled from those points as the kernel settles. With policies that draw
no random numbers before the play the result is the very result of playing every action,
which the tests check. Each game's ``outcomes`` module runs its auctions and settles.
May import: the games' common helpers and search setup; never a game.
"""

from __future__ import annotations

import numpy as np

from .games.common import POLICY_NAMES
from .games.search.setup import P_PLAY_ONLY

RANDOM = POLICY_NAMES.index("random")


def play_outcomes(points, outcomes, play) -> None:
    """Fill ``points[i, m, t]`` (the maker's side's and the other side's points of deal i
    played with the seat m places after the dealer as maker calling trump t; -1 while not
    played) for every outcome of ``outcomes``, a list of (m, t) array pairs with one entry
    per deal. The deals that need an unplayed (m, t) are one ``play(deals, m, t)`` call,
    which returns their points as an array [len(deals), 2]."""
    n, n_makers, n_trumps = points.shape[:3]
    if not points.flags.c_contiguous:
        raise ValueError("points must be C-contiguous: it is filled through a flat view")
    flat = points.reshape(n, n_makers * n_trumps, 2)
    rows = np.arange(n)
    need = np.zeros((n, n_makers * n_trumps), dtype=bool)
    for m, t in outcomes:
        need[rows, m * n_trumps + t] = True
    need &= flat[:, :, 0] < 0
    for key in np.flatnonzero(need.any(axis=0)):
        deals = np.flatnonzero(need[:, key])
        flat[deals, key] = play(deals, key // n_trumps, key % n_trumps)


def outcome_points(points, m, t) -> np.ndarray:
    """[n, 2]: ``points[i, m[i], t[i]]`` for every deal i (see :func:`play_outcomes`)."""
    n, n_makers, n_trumps = points.shape[:3]
    at = 2 * ((np.arange(n) * n_makers + m) * n_trumps + t)  # a flat take: far faster than
    flat = points.ravel()                                     # indexing three axes
    return np.stack([flat.take(at), flat.take(at + 1)], axis=1)


def side_points(rec, m, dealer_col, pts_col):
    """[n, 2]: the points of the side of the seat m places after the dealer, then the
    other side's (``rec`` a game's records, with the dealer and team points at those
    columns)."""
    team = (rec[:, dealer_col].astype(np.int64) + m) & 1
    p0 = rec[:, pts_col].astype(np.int64)
    p1 = rec[:, pts_col + 1].astype(np.int64)
    return np.stack([np.where(team == 0, p0, p1), np.where(team == 0, p1, p0)], axis=1)


def stop(vec: np.ndarray) -> np.ndarray:
    """A scenario vector that stops once trump is named (SC_STOP): the auction's outcome."""
    return np.append(vec, np.uint64(1))


# ---- Pedro / Cinch ----------------------------------------------------------------------


# ---- Rook -------------------------------------------------------------------------------


def deterministic(pols: np.ndarray) -> bool:
    """Whether no seat draws random numbers before the play (every policy but ``random``
    decides its bids and discards alike every time, and the play-only flag makes them all
    heuristic): then a deal's actions may share their plays."""
    return bool((pols[:4] != RANDOM).all()) or (pols.shape[0] > P_PLAY_ONLY
                                                and pols[P_PLAY_ONLY] == 1)
