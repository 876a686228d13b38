"""The searching card players every game shares (numba): ``dd`` and ``pimc``.

``dd`` is clairvoyant: it solves the true deal (all four hands) double dummy
and plays the card with the best value. It is an upper bound on play, not a
legal player.

``pimc`` (Perfect Information Monte Carlo, as GIB and Kermit play) only uses
what its seat knows. The engine describes that knowledge as *constraints* in
``kn``: the cards the seat cannot see that may lie in other hands (``KN_POOL``),
per seat the cards it cannot hold (revealed voids, ``KN_FORBID``), cards it is
known to hold (Rook's passed cards, ``KN_KNOWN``), and a minimum count of cards
of one set it must hold (Pedro's kept trumps, ``KN_MIN_MASK``/``KN_MIN``).
Each of W *worlds* deals the pool to the other seats consistently with these,
every legal card is solved double dummy in every world, and the card with the
best total wins. All moves are compared on the same worlds.

Values are for the search's maximising side (``q[Q_SIDE]``); a seat outside it
minimises.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..bits import ONE, ZERO, bit, lsb, popcount
from ._choice import random_subset
from ._dd import (
    INF,
    NPAR,
    NQ,
    NRES,
    NT,
    Q_FREE,
    Q_SIDE,
    Q_TM,
    Q_TRUMP_ANY,
    RES_SOLVED,
    solve_moves,
)
from ._dd_games import NTV

# the searching players' workspace (``make_workspace``), by position in its tuple
(WS_TT, WS_PAR, WS_RES, WS_VALS, WS_ACC, WS_WORLD, WS_TCARDS, WS_TSEATS, WS_KN, WS_Q, WS_CPTS,
 WS_TV) = range(12)  # fmt: skip
KN_POOL, KN_FORBID, KN_KNOWN, KN_MIN, KN_MIN_MASK, KN_DISCARDS = 0, 1, 5, 9, 13, 14
NKN = 18  # KN_DISCARDS + seat: the seat's own discards (Pedro), which only it has seen
POLICY_DD, POLICY_PIMC = 2, 3
# the policy vector after the four seat codes: pimc worlds, node budget per solve (0: the
# default), and 1 when the policies choose cards only (every seat bids, names trump, discards
# and in Rook drops and passes by the heuristic: the policy ladder compares card play on one
# auction)
# and the search depth: dd and pimc search once every hand holds at most this many cards and
# play the heuristic before (0: the game's default; Pedro always searches its 6 tricks)
P_WORLDS, P_NODES, P_PLAY_ONLY, P_DEPTH = 4, 5, 6, 7
DEFAULT_DEPTH = 6  # Rook and King: a 13-trick points solve takes seconds here
DEFAULT_NODES = 2_000_000
MAX_ATTEMPTS = 40  # worlds that break a soft constraint are redrawn this often, then relaxed


@njit(cache=True)
def search_depth(pols):
    """Cards a hand at most before dd and pimc search (Rook, King)."""
    if pols.shape[0] > P_DEPTH and pols[P_DEPTH] > 0:
        return pols[P_DEPTH]
    return DEFAULT_DEPTH


@njit(cache=True)
def node_budget(pols):
    if pols.shape[0] > P_NODES and pols[P_NODES] > 0:
        return pols[P_NODES]
    return DEFAULT_NODES


@njit(cache=True)
def search_tt_bits(pols):
    """Transposition-table size (log2 rows) for these seat policies; 0 when none searches.

    2**14 rows of 64 bytes (1 MB, about one core's L2 cache): the searching players
    solve positions of at most six tricks, and for those a larger table saves few nodes
    and no time (Pedro post-draw solves, 2,000 positions: 0.36 ms with 2**14 rows, 0.35
    to 0.37 with 2**15 and 0.36 with 2**16, for 2 to 3% fewer nodes)."""
    for s in range(4):
        if pols[s] >= POLICY_DD:
            return 14
    return 0


@njit(cache=True)
def make_workspace(tt_bits):
    """Scratch for the searching players: (tt, par, res, vals, acc, world, tcards, tseats, kn,
    q, cpts, tv), see WS_*. Allocated once per chunk; ``tt_bits`` 0 gives a small one for
    kernels whose seats do not search."""
    rows = 1 << tt_bits if tt_bits > 0 else 1
    return (np.zeros((rows, NT), dtype=np.uint64), np.zeros(NPAR, dtype=np.uint64),
            np.zeros(NRES, dtype=np.int64), np.zeros(64, dtype=np.int64),
            np.zeros(64, dtype=np.int64), np.zeros(4, dtype=np.uint64),
            np.zeros(4, dtype=np.int64), np.zeros(4, dtype=np.int64),
            np.zeros(NKN, dtype=np.uint64), np.zeros(NQ, dtype=np.uint64),
            np.zeros(64, dtype=np.int64), np.zeros(NTV, dtype=np.int64))


@njit(cache=True)
def _best(vals, legal_set, maximise):
    """The legal card with the best value (ties: the lowest index); -1 if none valued."""
    best_c = -1
    best_v = 0
    rest = legal_set
    while rest != ZERO:
        c = lsb(rest)
        rest &= rest - ONE
        v = vals[c]
        if v <= -INF:
            continue
        if best_c < 0 or (v > best_v if maximise else v < best_v):
            best_c, best_v = c, v
    return best_c


@njit(cache=True)
def dd_choose(hands, seat, leader, n_played, legal_set, q, cpts, tv, ws, gen, max_nodes):
    """The clairvoyant card: best double-dummy value on the true hands (-1: over budget)."""
    tt, par, res, vals, tcards, tseats = (ws[WS_TT], ws[WS_PAR], ws[WS_RES], ws[WS_VALS],
                                          ws[WS_TCARDS], ws[WS_TSEATS])
    solve_moves(hands, leader, tcards, tseats, n_played, q, cpts, tv, tt, gen, par, max_nodes,
                res, vals)
    if res[RES_SOLVED] == 0:
        return -1
    return _best(vals, legal_set, (q[Q_SIDE] >> np.uint64(seat)) & ONE)


@njit(cache=True)
def sample_world(hands, seat, kn, relax, prng, world):
    """Deal ``kn``'s pool to the seats other than ``seat`` (as many cards as each holds now),
    keeping known cards, revealed voids and minimum counts; False if it failed ``relax``
    allows breaking the minimum counts, then the voids."""
    rest = kn[KN_POOL]
    world[seat] = hands[seat]
    for t in range(4):
        if t == seat:
            continue
        need = popcount(hands[t]) - popcount(kn[KN_KNOWN + t])
        allowed = rest & (~kn[KN_FORBID + t] if relax < 2 else ~ZERO)
        got = kn[KN_KNOWN + t]
        m = np.int64(kn[KN_MIN + t]) - popcount(got & kn[KN_MIN_MASK]) if relax < 1 else 0
        if m > 0:
            some = allowed & kn[KN_MIN_MASK]
            if popcount(some) < m:
                return False
            pick = random_subset(some, m, prng)
            got |= pick
            allowed &= ~pick
            need -= m
        if need > 0:
            if popcount(allowed) < need:
                return False
            got |= random_subset(allowed, need, prng)
        world[t] = got
        rest &= ~got
    return True


@njit(cache=True)
def pimc_choose(hands, seat, leader, n_played, legal_set, q, cpts, tv, ws, gen, worlds,
                max_nodes, prng):
    """The card with the best total double-dummy value over ``worlds`` sampled deals of the
    unseen cards (see the module doc); -1 when no world could be solved."""
    tt, par, res, vals, acc = ws[WS_TT], ws[WS_PAR], ws[WS_RES], ws[WS_VALS], ws[WS_ACC]
    world, tcards, tseats, kn = ws[WS_WORLD], ws[WS_TCARDS], ws[WS_TSEATS], ws[WS_KN]
    for c in range(64):
        acc[c] = 0
    solved = 0
    for _ in range(worlds):
        relax = 0
        ok = sample_world(hands, seat, kn, relax, prng, world)
        attempts = 1
        while not ok:
            attempts += 1
            relax = 0 if attempts < MAX_ATTEMPTS else (1 if attempts < 2 * MAX_ATTEMPTS else 2)
            ok = sample_world(hands, seat, kn, relax, prng, world)
        solve_moves(world, leader, tcards, tseats, n_played, q, cpts, tv, tt, gen, par,
                    max_nodes, res, vals)
        if res[RES_SOLVED] == 0:
            continue
        solved += 1
        rest = legal_set
        while rest != ZERO:
            c = lsb(rest)
            rest &= rest - ONE
            acc[c] += vals[c]
    if solved == 0:
        return -1
    return _best(acc, legal_set, (q[Q_SIDE] >> np.uint64(seat)) & ONE)


@njit(cache=True)
def note_play(voids, c, led, q):
    """A seat's known voids after it plays ``c`` to a trick whose led suit is ``led`` (0: it
    leads): not following shows a void, unless the card could be played anyway (a trump where
    trumping is free, Rook's free Rook)."""
    if led == ZERO or bit(c) & led or bit(c) & q[Q_FREE]:
        return voids
    if bit(c) & q[Q_TM] and q[Q_TRUMP_ANY]:
        return voids
    return voids | led
