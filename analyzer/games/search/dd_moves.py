"""The pieces of the double-dummy search (:mod:`.dd`) that work on one position: card power
and trick values, equivalent cards, the sure bounds, the transposition table's key and
entries, move ordering, and playing a card. :mod:`.dd` holds the recursion that puts them
together; see its docstring for the layout and the techniques.

The larger pieces (equivalent cards, the bounds, the table's key and entries, finishing a
trick and ``_above``) are compiled once each and called, not inlined into ``_node`` by
numba: inlining them all made numba type one very large function, 45 s of compiling
``search.dd`` against 12.6 s then. What runs at every node is inlined all the same:
ordering the moves, popping one, rotating the seats. Called, they cost 13% of the solve
time (Pedro positions, 0.76 s against 0.66 s, same nodes); inlined, 2 s more compiling of
``search.dd`` (6.3 s to 8.5 s) and 3 s more of a game's kernels with the search, for 4%
of the time left (2026-12-04; everything inlined: 11 s more compiling for the last 4%).

May import: :mod:`analyzer.bits` and :mod:`.params`; never a game.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...bits import (
    ONE,
    ZERO,
    bit,
    load_word,
    lsb,
    msb,
    pext_plan,
    pext_planned,
    popcount,
    store_word,
    word,
)
from .params import (
    BIAS,
    GEN_MASK,
    LANE,
    P_CASH,
    P_GEN,
    P_HISTORY,
    P_NEG,
    P_NODES,
    P_SPECIALS,
    P_TV1,
    P_TV2,
    P_TVA,
    P_V0,
    P_V1,
    P_V2,
    P_V3,
    P_VALUED,
    PLANES,
    Q_BAN,
    Q_FREE,
    Q_TM,
    Q_TRUMP_ANY,
    T_BOUNDS,
    WEIGHTS,
    legal,
    suit_mask,
)

BY_HISTORY = 4  # ``_order``'s ``down`` for leads ordered by history score (``_pop_by_history``)


@njit(cache=True, inline="always")
def power(c, led, tm):
    b = bit(c)
    if b & tm:
        return 100 + c
    if b & led:
        return c
    return -1


@njit(cache=True, inline="always")
def between(a, b, suit):
    """Cards of ``suit`` strictly between indices a < b."""
    return ((ONE << np.uint64(b)) - (ONE << np.uint64(a + 1))) & suit


@njit(cache=True, inline="always")
def _int(par, i):
    return np.int64(load_word(par, i))


@njit(cache=True, inline="always")
def _points(cards, par):
    """The points of ``cards``: a popcount a value plane."""
    total = 0
    for j in range(4):
        total += popcount(cards & load_word(par, PLANES[j])) * _int(par, WEIGHTS[j])
    return total


@njit(cache=True, inline="always")
def _trick_value(k, par):
    """tv[k]: what winning the trick started with ``k`` cards in the longest hand adds."""
    v = _int(par, P_TVA)
    if k == 1:
        v += _int(par, P_TV1)
    elif k == 2:
        v += _int(par, P_TV2)
    return v


@njit(cache=True, inline="always")
def _tricks_value(k, par):
    """tv[1] + ... + tv[k]."""
    v = k * _int(par, P_TVA) + _int(par, P_TV1)
    if k >= 2:
        v += _int(par, P_TV2)
    return v


@njit(cache=True, inline="always")
def _low_bit(m):
    return m & (~m + ONE)


@njit(cache=True, inline="always")
def _next_live(cards, live):
    """For each card of ``cards`` (live ones), the next live card above it, for all at once:
    shifted up one, a card that lands on a dead bit is carried along the run of dead bits
    to the live card that ends it (each run starts just above a live card, so it carries at
    most one; a card with nothing live above it falls off the top)."""
    up = cards << ONE
    dead = ~live
    return (up & live) | ((dead + (up & dead)) & live)


@njit(cache=True)
def distinct_moves(moves, outside, par):
    """``moves`` less the cards equivalent to the next lower one: same suit, same points and
    no card of ``outside`` (the other hands and the trick) between them. In ranks relative to
    the cards still live a card is merged when the card just below it is also a move, of the
    same value and suit. ``par``: the parameter block or its address.

    Found with :func:`_next_live` rather than by packing the ranks with ``pext``: this runs
    at every node, and where PEXT is a loop (AMD before Zen 3) packing was 140 ns a call
    against 11 now."""
    live = moves | outside
    merged = moves & _next_live(moves, live)  # moves whose next lower live card is a move
    if merged == ZERO:
        return moves
    for j in range(4):  # ... of the same value: in a plane exactly when that card is
        plane = live & word(par, PLANES[j])
        merged &= ~(plane ^ _next_live(moves & plane, live))
    tm = word(par, Q_TM)
    starts = _low_bit(live & tm)  # the lowest live card of each suit starts a new group
    for lane in range(4):
        starts |= _low_bit(live & (LANE << np.uint64(16 * lane)) & ~tm)
    return moves & ~(merged & ~starts)


@njit(cache=True, inline="always")
def _seat(a0, a1, a2, a3, r):
    """Hand ``r`` of four."""
    if r == 0:
        return a0
    if r == 1:
        return a1
    if r == 2:
        return a2
    return a3


@njit(cache=True, inline="always")
def _rotate(a0, a1, a2, a3, sd, w):
    """The hands and side bits seen from relative seat ``w``."""
    sd = ((sd >> w) | (sd << (4 - w))) & 15
    if w == 0:
        return a0, a1, a2, a3, sd
    if w == 1:
        return a1, a2, a3, a0, sd
    if w == 2:
        return a2, a3, a0, a1, sd
    return a3, a0, a1, a2, sd


@njit(cache=True)
def _finish(a0, a1, a2, a3, sd, k, trick, led, bw, bp, r, par):
    """The value of the rest of a last trick: each seat from ``r`` on holds at most one card,
    so it plays itself."""
    tm = load_word(par, Q_TM)
    for j in range(r, 4):
        h = _seat(a0, a1, a2, a3, j)
        if h != ZERO:
            c = lsb(h)
            if led == ZERO:
                led = suit_mask(c, tm)
            pw = power(c, led, tm)
            if pw > bp:
                bw, bp = j, pw
            trick |= h
    if (sd >> bw) & 1:
        return _points(trick, par) + _trick_value(k, par)
    return 0


@njit(cache=True)
def _above(c):
    """The cards above index ``c`` (every card when c is -1)."""
    if c < 0:
        return ~ZERO
    if c >= 63:
        return ZERO
    return ~((ONE << np.uint64(c + 1)) - ONE)


@njit(cache=True)
def _sure_bounds(a0, a1, a2, a3, sd, k, par):
    """Bounds (lo, hi) on a trick start's value from the cards no trick can take from their
    side: scoring trumps above every trump the other side holds (whoever plays what, a trick
    holding one goes to its side). Where every trick scores for its winner (King's positive
    hand), also from the tricks each side is sure of: the leader's cashable winners
    (``_cash_count``), and one hand's trumps above every trump of the other side, each a
    trick of its own."""
    tm = load_word(par, Q_TM)
    valued = load_word(par, P_VALUED)
    mine = ZERO
    theirs = ZERO
    for r in range(4):
        h = _seat(a0, a1, a2, a3, r)
        if (sd >> r) & 1:
            mine |= h
        else:
            theirs |= h
    rem = _tricks_value(k, par) + _points((mine | theirs) & valued, par)
    over_theirs = tm & _above(msb(theirs & tm))  # trumps above every trump they hold
    over_mine = tm & _above(msb(mine & tm))
    sure_mine = _points(mine & over_theirs & valued, par)
    sure_theirs = _points(theirs & over_mine & valued, par)
    if load_word(par, P_NEG):
        return rem - sure_theirs, sure_mine
    tva = _int(par, P_TVA)
    if tva > 0:  # tricks score: each side takes its sure tricks' values
        m = _cash_count(a0, a1, a2, a3, par)
        cashed = _tricks_value(k, par) - (_tricks_value(k - m, par) if m < k else 0)
        # tricks won with trumps above every trump of the other side: one hand's are distinct
        tv_min = tva + min(0, _int(par, P_TV1), _int(par, P_TV2))
        n_mine = 0
        n_theirs = 0
        for r in range(4):
            h = _seat(a0, a1, a2, a3, r)
            if (sd >> r) & 1:
                n_mine = max(n_mine, popcount(h & over_theirs))
            else:
                n_theirs = max(n_theirs, popcount(h & over_mine))
        if sd & 1:
            return sure_mine + max(cashed, tv_min * n_mine), rem - sure_theirs - tv_min * n_theirs
        return sure_mine + tv_min * n_mine, rem - sure_theirs - max(cashed, tv_min * n_theirs)
    return sure_mine, rem - sure_theirs


@njit(cache=True)
def _cash_count(a0, a1, a2, a3, par):
    """How many tricks the leader takes for certain by cashing winners before anything else:
    first its trumps above every other trump (each seat must follow), then in each side suit
    its cards above every other card of the suit, for as many rounds as no other seat can
    ruff."""
    tm = load_word(par, Q_TM)
    ban = load_word(par, Q_BAN)  # cards it may not lead (while it holds others) are left out
    others = a1 | a2 | a3
    nt = popcount(a0 & tm & ~ban & _above(msb(others & tm)))
    m = nt
    free = load_word(par, Q_FREE)
    any_time = load_word(par, Q_TRUMP_ANY) != ZERO
    for lane in range(4):
        suit = (LANE << np.uint64(16 * lane)) & ~tm & ~ban
        rounds = popcount(a0 & suit & _above(msb(others & suit)))
        for j in range(1, 4):
            if rounds == 0:
                break
            h = _seat(a0, a1, a2, a3, j)
            if h & free:
                rounds = 0
            elif popcount(h & tm) > nt:  # it still holds a trump after the trump rounds
                rounds = 0 if any_time else min(rounds, popcount(h & suit))
        m += rounds
    return m


@njit(cache=True)
def _key(a0, a1, a2, a3, sd, par):
    """The position's key (see the table's comment) and its hash."""
    out = a0 | a1 | a2 | a3
    plan = pext_plan(out)  # six pexts under one mask
    s1 = pext_planned(a1 | a3, out, plan)
    s2 = pext_planned(a2 | a3, out, plan)
    v0 = pext_planned(load_word(par, P_V0), out, plan)
    v1 = pext_planned(load_word(par, P_V1), out, plan)
    v2 = pext_planned(load_word(par, P_V2), out, plan)
    v3 = pext_planned(load_word(par, P_V3), out, plan)
    counts = ZERO
    for lane in range(4):
        counts |= np.uint64(popcount(out & (LANE << np.uint64(16 * lane)))) << np.uint64(5 * lane)
    meta = (np.uint64(sd) | (counts << np.uint64(4))
            | (np.uint64(popcount(out & load_word(par, P_SPECIALS))) << np.uint64(24))
            | ((load_word(par, P_GEN) & GEN_MASK) << np.uint64(26)))
    x = s1 * np.uint64(0x9E3779B97F4A7C15)
    x ^= s2 * np.uint64(0xC2B2AE3D27D4EB4F) + (x >> np.uint64(29))
    x ^= (v0 ^ (v1 << np.uint64(7))) * np.uint64(0x165667B19E3779F9) + (x >> np.uint64(31))
    x ^= (v2 ^ (v3 << np.uint64(11))) * np.uint64(0xD6E8FEB86659FD93) + (x >> np.uint64(27))
    x ^= meta * np.uint64(0xFF51AFD7ED558CCD)
    x ^= x >> np.uint64(33)
    return (s1, s2, v0, v1, v2, v3, meta), x


@njit(cache=True)
def _holds(tt, row, key):
    """True when table row ``row`` (its first word's index) holds the position of ``key``."""
    for w in range(7):
        if load_word(tt, row + w) != key[w]:
            return False
    return True


@njit(cache=True)
def _bounds(tt, row):
    b = load_word(tt, row + T_BOUNDS)
    return np.int64(b >> np.uint64(32)) - BIAS, np.int64(b & np.uint64(0xFFFFFFFF)) - BIAS


@njit(cache=True)
def _record(tt, row, key, v, a0, b0):
    """Record ``v`` found with window (a0, b0) as bounds, merged with the row's own when the
    row holds the same position; otherwise the row is replaced."""
    lo = -BIAS + 1
    hi = BIAS - 1
    if v <= a0:
        hi = v
    elif v >= b0:
        lo = v
    else:
        lo = v
        hi = v
    if _holds(tt, row, key):
        old_lo, old_hi = _bounds(tt, row)
        lo = max(lo, old_lo)
        hi = min(hi, old_hi)
    else:
        for w in range(7):
            store_word(tt, row + w, key[w])
    store_word(tt, row + T_BOUNDS, (np.uint64(lo + BIAS) << np.uint64(32)) | np.uint64(hi + BIAS))


@njit(cache=True)
def _cash_first(a0, a1, a2, a3, sd, moves, tm):
    """The leader's side-suit leads split in two: its *winners*, each the top card still
    out in its suit where no opponent can ruff it (each holds the suit or no trump), and
    the rest."""
    live = a0 | a1 | a2 | a3
    tops = ZERO
    for lane in range(4):
        suit = live & (LANE << np.uint64(16 * lane)) & ~tm
        if suit == ZERO:
            continue
        safe = True
        for j in range(1, 4):
            h = _seat(a0, a1, a2, a3, j)
            if ((sd >> j) & 1) != (sd & 1) and h & suit == ZERO and h & tm:
                safe = False
        if safe:
            tops |= bit(msb(suit))
    return moves & tops, moves & ~tm & ~tops


@njit(cache=True, inline="always")
def _order(a0, a1, a2, a3, sd, k, trick, led, bw, bp, r, par):
    """Seat ``r``'s distinct legal cards in up to four tiers tried in turn, each lowest card
    first unless its bit is set in ``down``, or all by history score when ``down`` is
    ``BY_HISTORY`` (see the module doc for the order)."""
    tm = load_word(par, Q_TM)
    valued = load_word(par, P_VALUED)
    h = _seat(a0, a1, a2, a3, r)
    moves = distinct_moves(legal(h, led, trick, par), (a0 | a1 | a2 | a3 | trick) & ~h, par)
    want = load_word(par, P_NEG) == ZERO
    if led == ZERO:
        if not want:
            return moves, ZERO, ZERO, ZERO, BY_HISTORY
        if load_word(par, P_CASH) == ZERO:
            return moves & tm, moves & ~tm, ZERO, ZERO, 1
        winners, rest = _cash_first(a0, a1, a2, a3, sd, moves, tm)
        return winners, moves & tm, rest, ZERO, 3
    if bp >= 100:
        beat = moves & tm & _above(bp - 100)
    else:
        beat = (moves & tm) | (moves & led & _above(bp))
    keep = moves & ~beat
    if not want:  # penalties: shed the dearest card that loses, else win as low as possible
        return keep & valued, keep & ~valued, beat & ~tm, beat & tm, 3
    if ((sd >> bw) & 1) == ((sd >> r) & 1):
        return keep & valued, keep & ~valued, beat & ~tm, beat & tm, 1
    if r == 1 and led & valued == ZERO and _trick_value(k, par) == 0 and a3 != ZERO:
        # second hand low: nothing to win in this trick but the lead, and the partner plays last
        return keep & ~valued, beat & ~tm, beat & tm, keep & valued, 0
    return beat & ~tm, beat & tm, keep & ~valued, keep & valued, 0


@njit(cache=True, inline="always")
def _pop(m1, m2, m3, m4, down):
    """The next card of the tiers, and the tiers without it."""
    if m1:
        c = msb(m1) if down & 1 else lsb(m1)
        m1 ^= bit(c)
    elif m2:
        c = msb(m2) if down & 2 else lsb(m2)
        m2 ^= bit(c)
    elif m3:
        c = lsb(m3)
        m3 ^= bit(c)
    else:
        c = lsb(m4)
        m4 ^= bit(c)
    return c, m1, m2, m3, m4


@njit(cache=True)
def _pop_by_history(m1, m2, m3, m4, par):
    """``_pop`` for a lead of a penalty contract, whose order is one tier: the card with the
    best history score first (the lowest among equals)."""
    m = m1 | m2 | m3 | m4
    best = lsb(m)
    top = load_word(par, P_HISTORY + best)
    rest = m & (m - ONE)
    while rest:
        c = lsb(rest)
        rest &= rest - ONE
        h = load_word(par, P_HISTORY + c)
        if h > top:
            best, top = c, h
    b = ~bit(best)
    return best, m1 & b, m2 & b, m3 & b, m4 & b


@njit(cache=True, inline="always")
def _play(a0, a1, a2, a3, trick, led, bw, bp, r, c, tm):
    """Seat ``r`` plays ``c``: the hands and the trick's state after it."""
    b = bit(c)
    if r == 0:
        a0 ^= b
    elif r == 1:
        a1 ^= b
    elif r == 2:
        a2 ^= b
    else:
        a3 ^= b
    if led == ZERO:
        led = suit_mask(c, tm)
    pw = power(c, led, tm)
    if pw > bp:
        bw, bp = r, pw
    return a0, a1, a2, a3, trick | b, led, bw, bp


@njit(cache=True, inline="always")
def _next_seat(a0, a1, a2, a3, r):
    """The seat after ``r`` still to play to the trick (4: none)."""
    r += 1
    while r < 4 and _seat(a0, a1, a2, a3, r) == ZERO:
        r += 1
    return r


@njit(cache=True, inline="always")
def _ab(v, best, alpha, beta, maxi):
    """One child's value into a node's (best, alpha, beta)."""
    if maxi:
        if v > best:
            best = v
            if v > alpha:
                alpha = v
    else:
        if v < best:
            best = v
            if v < beta:
                beta = v
    return best, alpha, beta


@njit(cache=True, inline="always")
def _narrow(lo, hi, alpha, beta):
    """The node's value lies in [lo, hi]: (True, that value) when the bounds decide the
    node, else (False, 0) and the window narrowed to them."""
    if lo >= beta or lo == hi:
        return True, lo, alpha, beta
    if hi <= alpha:
        return True, hi, alpha, beta
    return False, 0, max(alpha, lo), min(beta, hi)


@njit(cache=True, inline="always")
def _count_node(par):
    n = load_word(par, P_NODES) + ONE
    store_word(par, P_NODES, n)
    return n
