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
Each of up to W *worlds* deals the pool to the other seats consistently with these,
every legal card is solved double dummy in every world, and the card with the
best total wins. All moves are compared on the same worlds. The cards *race*: after a
few worlds a card leaves once the rest of the W worlds are unlikely to put it ahead of
the best so far, and sampling stops when one is left; a seat whose legal cards are all
alike (touching, of one value) plays the lowest without a search. After the first world
the best card so far is solved exactly and every other card, where one search settles it,
keeps that search's bound, which flatters it (``dd_cards.solve_among``); the best card's bounded
worlds are solved again before the race measures and before the choice (:func:`_leader`),
so the card played is the one the exact values would choose.
``benchmarks/bench_pimc.py`` measures all this against solving all W worlds.

Values are for the search's maximising side (``q[Q_SIDE]``); a seat outside it
minimises.

May import: :mod:`analyzer.bits`, :mod:`analyzer.rng`, ``games.kit``, :mod:`.params`,
:mod:`.setup`, :mod:`.probe`, :mod:`.dd_moves`, :mod:`.dd` and :mod:`.dd_cards`; never a game.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...bits import ONE, ZERO, bit, lsb, msb, popcount
from ...rng import mix64
from ..kit.choice import random_subset
from .dd import prepare
from .dd_cards import solve_among, solve_moves
from .dd_moves import distinct_moves
from .params import INF, P_SEARCHES, Q_SIDE, Q_TM, RES_NODES, RES_SOLVED, suit_mask
from .probe import (
    ST_CYCLES,
    ST_DECISIONS,
    ST_NODES,
    ST_SEARCHES,
    ST_UNSEARCHED,
    ST_WORLDS,
    add_stat,
    cycles,
)
from .setup import (
    KN_FORBID,
    KN_KNOWN,
    KN_MIN,
    KN_MIN_MASK,
    KN_POOL,
    P_WORLDS,
    WS_ACC,
    WS_KN,
    WS_PAR,
    WS_RES,
    WS_TCARDS,
    WS_TSEATS,
    WS_TT,
    WS_VALS,
    WS_WORLD,
    pimc_full,
    stats_address,
    world_salt,
)

MAX_ATTEMPTS = 40  # worlds that break a soft constraint are redrawn this often, then relaxed
MIN_WORLDS = 6  # worlds solved before a card may leave the race
STOP_Z = 1.645  # one-sided 5%: how sure the race must be that a card would end behind (_race)


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
    keeping known cards (dealt to their holder only: a card Rook's seat passed is no other
    seat's), revealed voids and minimum counts; False if it failed. ``relax`` allows
    breaking the minimum counts, then the voids. The seat with the fewest cards to spare
    (the pool cards it may hold less the cards it needs) is dealt first: dealt last, a seat
    whose voids leave it just the cards it needs found them taken in most draws, and the
    voids were then broken (a King endgame drew a sound world 3 times in 100)."""
    rest = kn[KN_POOL]
    for t in range(4):
        if t != seat:
            rest &= ~kn[KN_KNOWN + t]
    world[seat] = hands[seat]
    a, b, c = (seat + 1) & 3, (seat + 2) & 3, (seat + 3) & 3  # sorted by slack below
    sa, sb, sc = _slack(hands, kn, rest, relax, a), _slack(hands, kn, rest, relax, b), \
        _slack(hands, kn, rest, relax, c)
    if sb < sa:
        a, b, sa, sb = b, a, sb, sa
    if sc < sb:
        b, c, sb, sc = c, b, sc, sb
        if sb < sa:
            a, b, sa, sb = b, a, sb, sa
    for k in range(3):
        t = a if k == 0 else (b if k == 1 else c)
        need = popcount(hands[t]) - popcount(kn[KN_KNOWN + t])
        allowed = rest & (~kn[KN_FORBID + t] if relax < 2 else ~ZERO)
        got = kn[KN_KNOWN + t]
        m = np.int64(kn[KN_MIN + t]) - popcount(got & kn[KN_MIN_MASK]) if relax < 1 else 0
        if m > need:  # a minimum the hand cannot hold (a count the knowledge overstates)
            return False
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


@njit(cache=True, inline="always")
def _slack(hands, kn, rest, relax, t):
    """The pool cards seat ``t`` may hold less the cards it needs: 0, it must take them all."""
    allowed = rest & (~kn[KN_FORBID + t] if relax < 2 else ~ZERO)
    return np.int64(popcount(allowed)) - np.int64(popcount(hands[t])) + \
        np.int64(popcount(kn[KN_KNOWN + t]))


@njit(cache=True)
def pimc_choose(hands, seat, leader, n_played, legal_set, q, cpts, tv, ws, gen, worlds,
                max_nodes, prng, full, stats):
    """The card with the best total double-dummy value over at most ``worlds`` sampled deals
    of the unseen cards (see the module doc); -1 when no world could be solved.

    Unless ``full`` (the benchmark's baseline), a race: no world is searched when every legal
    card is alike (touching, of one value, in every world); after each world from the
    MIN_WORLDS-th, a card the best so far beats beyond the noise leaves (:func:`_race`), and
    sampling stops when one card is left. ``stats``: the address of the benchmark's
    counters (``search.probe``; 0: none).
    """
    t0 = cycles() if stats != ZERO else ZERO
    tt, par, res, vals, acc = ws[WS_TT], ws[WS_PAR], ws[WS_RES], ws[WS_VALS], ws[WS_ACC]
    world, tcards, tseats, kn = ws[WS_WORLD], ws[WS_TCARDS], ws[WS_TSEATS], ws[WS_KN]
    held = np.int64(popcount(hands[seat]))
    maximise = (q[Q_SIDE] >> np.uint64(seat)) & ONE
    tm = q[Q_TM]
    alive = legal_set  # the cards in the race (full: every legal card, every world)
    if not full:
        prepare(q, cpts, tv, tt, gen, max_nodes, par)  # the value planes distinct_moves reads
        trick = ZERO
        for j in range(n_played):
            trick |= bit(tcards[j])
        # every world's other hands lie in the pool: cards alike against it are alike in all
        alive = distinct_moves(legal_set, kn[KN_POOL] | trick, par)
        if alive & (alive - ONE) == ZERO:
            if stats != ZERO:
                add_stat(stats, held, ST_DECISIONS, 1)
                add_stat(stats, held, ST_UNSEARCHED, 1)
                add_stat(stats, held, ST_CYCLES, cycles() - t0)
            return lsb(legal_set)
    for c in range(64):
        acc[c] = 0
    seen = np.empty((worlds, 64), dtype=np.int64)  # each world's value of each card in the race
    exact = np.empty((worlds, 64), dtype=np.int64)  # 0 where ``seen`` holds a bound (_leader)
    kept = np.empty((worlds, 4), dtype=np.uint64)  # the worlds solved, to solve a card again
    flags = np.empty(64, dtype=np.int64)
    solved = 0
    for _ in range(worlds):
        relax = 0
        ok = sample_world(hands, seat, kn, relax, prng, world)
        attempts = 1
        while not ok:
            attempts += 1
            relax = 0 if attempts < MAX_ATTEMPTS else (1 if attempts < 2 * MAX_ATTEMPTS else 2)
            ok = sample_world(hands, seat, kn, relax, prng, world)
        lead = -1
        tied = ZERO
        if not full and solved > 0:
            lead = _leader(kept, seen, exact, solved, acc, alive, maximise, leader, n_played, q,
                           cpts, tv, ws, gen, max_nodes, held, stats)
            tied = _tied(seen, solved, alive & ~bit(lead), lead)
        for c in range(64):
            flags[c] = 1
        solve_among(world, leader, tcards, tseats, n_played, q, cpts, tv, tt, gen, par,
                    max_nodes, res, vals, alive, lead, tied, flags)
        if stats != ZERO:
            add_stat(stats, held, ST_SEARCHES, par[P_SEARCHES])
            add_stat(stats, held, ST_NODES, np.uint64(res[RES_NODES]))
        if res[RES_SOLVED] == 0:
            continue
        rest = alive
        while rest != ZERO:  # low to high: a card alike to a lower one in the race takes its value
            c = lsb(rest)
            rest &= rest - ONE
            if vals[c] <= -INF and not full:
                below = msb(alive & suit_mask(c, tm) & ((ONE << np.uint64(c)) - ONE))
                if below >= 0:
                    vals[c] = vals[below]
                    flags[c] = flags[below]
            acc[c] += vals[c]
            seen[solved, c] = vals[c]
            exact[solved, c] = flags[c]
        for s in range(4):
            kept[solved, s] = world[s]
        solved += 1
        if not full and solved >= MIN_WORLDS and solved < worlds:
            _leader(kept, seen, exact, solved, acc, alive, maximise, leader, n_played, q, cpts,
                    tv, ws, gen, max_nodes, held, stats)  # the race measures from exact values
            alive = _race(seen, solved, worlds, acc, alive, maximise)
            if alive & (alive - ONE) == ZERO:
                break
    if not full and solved > 0:  # the card chosen has its exact value in every world
        _leader(kept, seen, exact, solved, acc, alive, maximise, leader, n_played, q, cpts, tv,
                ws, gen, max_nodes, held, stats)
    if stats != ZERO:
        add_stat(stats, held, ST_DECISIONS, 1)
        add_stat(stats, held, ST_WORLDS, solved)
        add_stat(stats, held, ST_CYCLES, cycles() - t0)
    if solved == 0:
        return -1
    return _best(acc, alive, maximise)


@njit(cache=True)
def _tied(seen, n, cards, b):
    """The cards of ``cards`` whose values have equalled card ``b``'s in each of the ``n``
    worlds so far."""
    out = ZERO
    rest = cards
    while rest != ZERO:
        c = lsb(rest)
        rest &= rest - ONE
        w = 0
        while w < n and seen[w, c] == seen[w, b]:
            w += 1
        if w == n:
            out |= bit(c)
    return out


@njit(cache=True)
def _leader(kept, seen, exact, n, acc, alive, maximise, leader, n_played, q, cpts, tv, ws, gen,
            max_nodes, held, stats):
    """The best card of ``alive`` by its total over the ``n`` worlds so far, with its exact
    value in each of them.

    A card that was not the leader when a world was solved may hold only a bound there
    (``solve_among``), one that flatters it: its total is then at least as good as its due.
    So when the best by the totals has a bound somewhere, those worlds are solved again for
    it alone, and the best is taken again, until the best is exact everywhere. Its totals
    then beat every other card's, flattered or not: the card the exact values would choose.
    """
    tt, par, res, vals = ws[WS_TT], ws[WS_PAR], ws[WS_RES], ws[WS_VALS]
    tcards, tseats = ws[WS_TCARDS], ws[WS_TSEATS]
    world = np.empty(4, dtype=np.uint64)
    while True:
        b = _best(acc, alive, maximise)
        redone = False
        for w in range(n):
            if exact[w, b]:
                continue
            for s in range(4):
                world[s] = kept[w, s]
            solve_among(world, leader, tcards, tseats, n_played, q, cpts, tv, tt, gen, par,
                        max_nodes, res, vals, bit(b), -1, ZERO, vals)
            if stats != ZERO:
                add_stat(stats, held, ST_SEARCHES, par[P_SEARCHES])
                add_stat(stats, held, ST_NODES, np.uint64(res[RES_NODES]))
            exact[w, b] = 1  # over the node budget: the bound stands
            if res[RES_SOLVED] and vals[b] > -INF:
                acc[b] += vals[b] - seen[w, b]
                seen[w, b] = vals[b]
                redone = True
        if not redone:
            return b


@njit(cache=True)
def pimc_seat(hands, seat, leader, n_played, legal_set, q, cpts, tv, ws, gen, pols, max_nodes,
              prng):
    """:func:`pimc_choose` as a game's pimc seat calls it: the worlds, and the benchmark's
    words (the full search, the counters' address, the world salt), read from the policy
    vector ``pols`` here, so that no game decodes them."""
    salt = world_salt(pols)
    if salt != ZERO:  # a bijective rehash each decision: never undone by the next one
        prng[0] = mix64(prng[0] ^ salt)
    return pimc_choose(hands, seat, leader, n_played, legal_set, q, cpts, tv, ws, gen,
                       pols[P_WORLDS], max_nodes, prng, pimc_full(pols), stats_address(pols))


@njit(cache=True)
def _race(seen, n, worlds, acc, alive, maximise):
    """The cards of ``alive`` still in the race after ``n`` of ``worlds`` worlds: the best so
    far, ``b``, and every card that could still end the ``worlds`` ahead of it.

    A card ``m`` leaves when, by the margins ``b - m`` of the worlds so far (paired: the same
    worlds), the chance that the total over all ``worlds`` would put ``m`` ahead of ``b`` is
    under 5% (one-sided, STOP_Z): the margins of the worlds still to come predicted as normal
    with the mean and spread of those so far, the uncertainty of that mean included. A card
    that has tied ``b`` in every world so far stays: a rare world can part two cards (a Pedro
    captured), and dropping such cards after a few tied worlds (or ones at most a quarter point
    behind) lost pimc half its duplicate margin over the heuristic (``bench_pimc.py``).
    """
    b = _best(acc, alive, maximise)
    out = alive
    rest = alive & ~bit(b)
    left = worlds - n
    while rest != ZERO:
        m = lsb(rest)
        rest &= rest - ONE
        s1 = 0.0
        s2 = 0.0
        for w in range(n):
            d = np.float64(seen[w, b] - seen[w, m])
            if not maximise:
                d = -d
            s1 += d
            s2 += d * d
        mean = s1 / n
        sd = np.sqrt(max(s2 - s1 * mean, 0.0) / (n - 1))
        # the final total of the margins: s1 + N(left * mean, sd^2 * left * (1 + left / n))
        if s1 > 0.0 and s1 + left * mean > STOP_Z * sd * np.sqrt(left * (1 + left / n)):
            out &= ~bit(m)
    return out
