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

May import: :mod:`analyzer.bits`, ``games.kit``, :mod:`.params`, :mod:`.setup` and
:mod:`.dd`; never a game.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...bits import ONE, ZERO, lsb, popcount
from ..kit.choice import random_subset
from .dd import solve_moves
from .params import INF, Q_SIDE, RES_SOLVED
from .setup import (
    KN_FORBID,
    KN_KNOWN,
    KN_MIN,
    KN_MIN_MASK,
    KN_POOL,
    WS_ACC,
    WS_KN,
    WS_PAR,
    WS_RES,
    WS_TCARDS,
    WS_TSEATS,
    WS_TT,
    WS_VALS,
    WS_WORLD,
)

MAX_ATTEMPTS = 40  # worlds that break a soft constraint are redrawn this often, then relaxed


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
