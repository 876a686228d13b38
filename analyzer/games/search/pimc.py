"""The searching card players every game shares (numba): ``dd`` and ``pimc``.

``dd`` is clairvoyant: it solves the true deal (all four hands) double dummy
and plays the card with the best value. It is an upper bound on play, not a
legal player.

``pimc`` (Perfect Information Monte Carlo, as GIB and Kermit play) only uses
what its seat knows. The engine describes that knowledge as *constraints* in
``kn``: the cards the seat cannot see that may lie in other hands (``KN_POOL``),
per seat the cards it cannot hold (revealed voids; in King also what a forced play not
made shows it lacks: ``KN_FORBID``), cards it is
known to hold (Rook's passed cards, ``KN_KNOWN``), and a minimum count of cards
of one set it must hold (Pedro's kept trumps, ``KN_MIN_MASK``/``KN_MIN``).
Each of up to W *worlds* deals the pool to the other seats consistently with these, drawn
uniformly among all the deals they allow (the worlds are counted once a decision,
:func:`count_worlds`, and each is drawn from those counts, :func:`draw_world`; when none
keeps the knowledge, the minimum counts are dropped, then the voids), every legal card is
solved double dummy in every world, and the card with the best total wins. All moves are
compared on the same worlds. The cards *race*: after a few worlds a card leaves once the
rest of the W worlds are unlikely to put it ahead of the best so far, and sampling stops
when one is left; a seat whose legal cards are all alike (touching, of one value) plays
the lowest without a search. After the first world the best card so far is solved exactly
and every other card, where one search settles it, keeps that search's bound, which
flatters it (``dd_cards.solve_among``); the best card's bounded worlds are solved again
before the race measures and before the choice (:func:`_leader`), so the card played is
the one the exact values would choose. ``benchmarks/bench_pimc.py`` measures all this
against solving all W worlds.

Values are for the search's maximising side (``q[Q_SIDE]``); a seat outside it
minimises.

May import: :mod:`analyzer.bits`, :mod:`analyzer.rng`, ``games.kit``, :mod:`.params`,
:mod:`.setup`, :mod:`.probe`, :mod:`.dd_moves`, :mod:`.dd` and :mod:`.dd_cards`; never a game.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...bits import ONE, ZERO, bit, lsb, msb, popcount
from ...rng import mix64, next64
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

_UNIT = 2.0 ** -53  # a 53-bit random integer times this: uniform in [0, 1)
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
def count_worlds(hands, seat, kn, relax):
    """How many worlds ``kn`` allows, by what is left to deal: the tables
    :func:`draw_world` draws from. Returns (cards, seats, table, split, dims, free).

    The seats other than ``seat``, a, b and c (``seat`` + 1, + 2, + 3), need their cards
    held less their known ones (``dims[0:3]``). ``free`` are the pool cards any of them may
    hold, outside KN_MIN_MASK when a minimum counts (``dims[5]`` of them); ``cards`` the
    other pool cards some of them may hold (``dims[3]``), first those outside the set, then
    those inside; ``seats[i]`` the seats that may hold card i (bits 0, 1, 2: a, b, c). A
    pool card no seat may hold, or that no seat draws, stays undealt. Row i of ``table``
    (``dims[3] + 1`` rows of (needs + 1) cells, cell ``ra * (nb + 1) * (nc + 1) + rb *
    (nc + 1) + rc``) is the number of ways ``cards[i:]`` can fill what a, b and c still
    need, (ra, rb, rc): each card goes to a seat that may hold it and still needs one, or
    nowhere; the set's cards go last, so the row of the first of them is zero where a seat
    would get fewer of them than its minimum. ``split[r]`` adds up, cell by cell, the ways
    the free cards give each seat its need less r (a multinomial, some of them undealt)
    times row 0 at r: the last is the number of worlds, 0 when none exists (``dims[4]`` 0:
    a seat knows more cards than it holds). Counts are float64: 39 unseen cards give up to
    8e16 worlds of 13-card hands and more with undealt cards, past int64 where the pool is
    larger; a float's 53 bits hold them to a part in 1e15, and a draw's odds as closely.
    ``relax``: 1 drops the minimum counts, 2 the voids as well."""
    rest = kn[KN_POOL]
    for t in range(4):
        if t != seat:
            rest &= ~kn[KN_KNOWN + t]
    dims = np.zeros(6, dtype=np.int64)
    mins = np.zeros(3, dtype=np.int64)
    dims[4] = 1
    inside = kn[KN_MIN_MASK] if relax < 1 else ZERO
    for k in range(3):
        t = (seat + 1 + k) & 3
        dims[k] = np.int64(popcount(hands[t])) - np.int64(popcount(kn[KN_KNOWN + t]))
        if dims[k] < 0:
            dims[4] = 0
        if relax < 1:
            m = np.int64(kn[KN_MIN + t]) - np.int64(popcount(kn[KN_KNOWN + t] & inside))
            mins[k] = max(m, 0)
    if dims[4] == 0:
        dims[0] = dims[1] = dims[2] = 0
    if mins[0] == 0 and mins[1] == 0 and mins[2] == 0:
        inside = ZERO
    may = np.zeros(3, dtype=np.uint64)
    for k in range(3):
        t = (seat + 1 + k) & 3
        may[k] = rest & (~kn[KN_FORBID + t] if relax < 2 else ~ZERO)
    free = may[0] & may[1] & may[2] & ~inside
    bound = (may[0] | may[1] | may[2]) & ~free
    n = np.int64(popcount(bound))
    nf = np.int64(popcount(free))
    cards = np.empty(n, dtype=np.int64)
    seats = np.empty(n, dtype=np.int64)
    i = 0
    for part in range(2):  # outside the set, then inside it
        left = bound & ~inside if part == 0 else bound & inside
        while left != ZERO:
            c = lsb(left)
            left &= left - ONE
            cards[i] = c
            s = 0
            for k in range(3):
                if (may[k] >> np.uint64(c)) & ONE:
                    s |= 1 << k
            seats[i] = s
            i += 1
    first_inside = n - np.int64(popcount(bound & inside))
    dims[3] = n
    dims[5] = nf
    na, nb, nc = dims[0], dims[1], dims[2]
    sb = nc + 1
    sa = (nb + 1) * sb
    size = (na + 1) * sa
    table = np.empty((n + 1) * size, dtype=np.float64)
    row = n * size
    for j in range(size):
        table[row + j] = 0.0
    table[row] = 1.0 if dims[4] else 0.0
    if first_inside == n:
        _floor(table, row, na, nb, nc, mins)
    for i in range(n - 1, -1, -1):
        src = (i + 1) * size
        dst = i * size
        s = seats[i]
        for ra in range(na + 1):
            for rb in range(nb + 1):
                j = ra * sa + rb * sb
                for rc in range(nc + 1):
                    v = table[src + j]
                    if s & 1 and ra > 0:
                        v += table[src + j - sa]
                    if s & 2 and rb > 0:
                        v += table[src + j - sb]
                    if s & 4 and rc > 0:
                        v += table[src + j - 1]
                    table[dst + j] = v
                    j += 1
        if i == first_inside:
            _floor(table, dst, na, nb, nc, mins)
    fact = np.empty(nf + 1, dtype=np.float64)  # 64! is 1.3e89: a float holds it
    fact[0] = 1.0
    for k in range(1, nf + 1):
        fact[k] = fact[k - 1] * k
    split = np.empty(size, dtype=np.float64)
    total = 0.0
    j = 0
    for ra in range(na + 1):
        for rb in range(nb + 1):
            for rc in range(nc + 1):
                xa, xb, xc = na - ra, nb - rb, nc - rc
                spare = nf - xa - xb - xc
                if spare >= 0 and table[j] > 0.0:
                    total += fact[nf] / (fact[xa] * fact[xb] * fact[xc] * fact[spare]) * table[j]
                split[j] = total
                j += 1
    return cards, seats, table, split, dims, free


@njit(cache=True)
def _floor(table, row, na, nb, nc, mins):
    """Zero the cells of a row where a seat would end below its minimum count."""
    if mins[0] == 0 and mins[1] == 0 and mins[2] == 0:
        return
    j = row
    for ra in range(na + 1):
        for rb in range(nb + 1):
            for rc in range(nc + 1):
                if ra < mins[0] or rb < mins[1] or rc < mins[2]:
                    table[j] = 0.0
                j += 1


@njit(cache=True, inline="always")
def world_count(split):
    """The number of worlds :func:`count_worlds` found (0: none), from its ``split``."""
    return split[split.shape[0] - 1]


@njit(cache=True)
def draw_world(hands, seat, kn, cards, seats, table, split, dims, free, prng, world):
    """One world drawn uniformly from those :func:`count_worlds` counted, into ``world``;
    False when there is none. First how many of the free cards each seat gets, with the odds
    of the worlds that follow (``split``), and which of them uniformly; then card by card,
    each other card goes to a seat or nowhere with the odds of the worlds that follow: the
    number of ways the cards after it fill what is then left (a draw only where two ways
    are open)."""
    size = split.shape[0]
    total = split[size - 1]
    if total <= 0.0:
        return False
    na, nb, nc, n, nf = dims[0], dims[1], dims[2], dims[3], dims[5]
    sb = nc + 1
    sa = (nb + 1) * sb
    a, b, c = (seat + 1) & 3, (seat + 2) & 3, (seat + 3) & 3
    world[seat] = hands[seat]
    world[a] = kn[KN_KNOWN + a]
    world[b] = kn[KN_KNOWN + b]
    world[c] = kn[KN_KNOWN + c]
    j = size - 1  # the cell of the needs: no free card
    if nf > 0:
        u = np.float64(next64(prng) >> np.uint64(11)) * _UNIT * total
        j = min(np.int64(np.searchsorted(split, u, side="right")), size - 1)
        while j > 0 and split[j] == split[j - 1]:  # rounding onto a cell of no world
            j -= 1
    ra, rb, rc = j // sa, (j % sa) // sb, j % sb
    left = np.uint64(free)  # a mask handed back from Python comes as an int
    for k in range(3):
        x = na - ra if k == 0 else (nb - rb if k == 1 else nc - rc)
        if x > 0:
            pick = random_subset(left, x, prng)
            world[(seat + 1 + k) & 3] |= pick
            left &= ~pick
    for i in range(n):
        if j == 0:
            break
        src = (i + 1) * size + j
        s = seats[i]
        w0 = table[src]
        wa = table[src - sa] if s & 1 and ra > 0 else 0.0
        wb = table[src - sb] if s & 2 and rb > 0 else 0.0
        wc = table[src - 1] if s & 4 and rc > 0 else 0.0
        if wa == 0.0 and wb == 0.0 and wc == 0.0:
            continue  # undealt
        if w0 > 0.0 or (wa > 0.0) + (wb > 0.0) + (wc > 0.0) > 1:
            u = np.float64(next64(prng) >> np.uint64(11)) * _UNIT * (w0 + wa + wb + wc)
            if u < w0:
                continue
            u -= w0
            to = 0 if u < wa else (1 if u < wa + wb or wc == 0.0 else 2)
            if to == 1 and wb == 0.0:  # rounding past the last open seat
                to = 0
        else:  # one seat open: no draw
            to = 0 if wa > 0.0 else (1 if wb > 0.0 else 2)
        card = bit(cards[i])
        if to == 0:
            world[a] |= card
            ra -= 1
            j -= sa
        elif to == 1:
            world[b] |= card
            rb -= 1
            j -= sb
        else:
            world[c] |= card
            rc -= 1
            j -= 1
    return True


@njit(cache=True)
def sample_world(hands, seat, kn, relax, prng, world):
    """Deal ``kn``'s pool to the seats other than ``seat`` (as many cards as each holds now),
    keeping known cards (dealt to their holder only: a card Rook's seat passed is no other
    seat's), revealed voids and minimum counts; False if no such world exists. ``relax``
    drops the minimum counts (1), then the voids as well (2).

    The world is drawn uniformly among all those the constraints allow
    (:func:`count_worlds`, :func:`draw_world`), as Perfect Information Monte Carlo assumes.
    Dealing the seats one after another, as this did before, is not: a seat's minimum
    dealt first and its other cards from everything gave a seat known to hold 2 of 6
    trumps 2.80 of them on average where its worlds hold 2.42 (an audit of Pedro's play
    measured 2.29 against 2.08), and the seat dealt first took cards that a seat bound by
    its voids needed (``tests/test_uniform_worlds.py``). :func:`pimc_choose` counts once a
    decision and draws each of its worlds from the same tables."""
    cards, seats, table, split, dims, free = count_worlds(hands, seat, kn, relax)
    return draw_world(hands, seat, kn, cards, seats, table, split, dims, free, prng, world)


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
    # the worlds the knowledge allows, counted once: none breaks it unless none keeps it,
    # and then the minimum counts go first, then the voids
    cards, wseats, table, split, dims, free = count_worlds(hands, seat, kn, 0)
    for relax in range(1, 3):
        if world_count(split) > 0.0:
            break
        cards, wseats, table, split, dims, free = count_worlds(hands, seat, kn, relax)
    for _ in range(worlds):
        if not draw_world(hands, seat, kn, cards, wseats, table, split, dims, free, prng,
                          world):
            break  # no world at all: hands larger than the pool
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
