"""Double-dummy (perfect-information) alpha-beta search for every game, in numba.

One search serves Pedro/Cinch, Rook and King because each game is handed to
it in a *search layout* where a card's bit index orders it inside its suit:

* Pedro: the trump-normalised layout of ``pedro.core`` (trumps in lane 3);
* Rook: the shared layout with the Rook moved into its place in the trump
  lane (ranks at or above ``rook_pos`` shift up one bit, see ``rook_layout``);
  at no trump the Rook stays at bit 63 and is the whole trump suit;
* King: the shared layout.

With ``TM`` the trump-suit mask, a card's *suit* is ``TM`` when it is a trump,
else its lane without ``TM``, and its power in a trick is ``100 + index`` for
trumps, its index for the led suit and -1 otherwise. A position's *value* is
what the maximising side (a seat mask: a partnership, or in King's paranoid
search one seat) takes in the remaining tricks: ``cpts[card]`` for every card
of a trick it wins plus ``tv[k]`` for winning the trick started when the
longest hand held ``k`` cards (Rook's last-trick bonus, King's per-trick and
last-two penalties). Every value of one position has one sign, so
``[0, remaining]`` (or ``[remaining, 0]``) bounds it.

The search (``_node``) is a recursive function of scalars only: the four hands
seen from the trick's leader, the side, the window and the trick so far. It
passes no arrays (numba counts references to every array handed to a call, and
there is a call for most cards played); the game's parameters, the counters and
the transposition table are read by address from a parameter block ``par``
(``P_*`` words, filled by ``prepare``). Card values reach it as up to four
*value planes* (the cards worth each distinct value), so the points of a trick
are four popcounts. Techniques:

* a transposition table probed and stored at trick starts with lower and upper
  bounds; its key is the position in relative ranks (below), the side and the
  cards out per suit, so its entries stay valid across solves with the same game
  parameters (callers bump the generation when those change);
* bounds at every trick start from the scoring trumps no trick can take from
  their side (above every trump the other side holds), kept through the trick; where
  tricks score (King's positive hand), also from the sure tricks: the winners the leader
  can cash before anything else, and a hand's trumps above every trump of the other side
  (King positive nodes at 10 cards a hand: 569,806 -> 129,850, -77%);
* equivalent cards: touching cards of one suit in one hand (no card of another
  hand or of the current trick between them) with the same point value are
  searched once, found for a whole hand at once in relative ranks (``pext``);
* move ordering by tiers of cards: leads of high trumps, then low side cards, but where
  side suits or tricks score (Rook, King's positive hand) side-suit winners come first
  (Rook nodes: 8 cards a hand -35%, 10 cards -32%; King positive 9 cards -30%); in
  King's penalty contracts, with no such rule to go by, leads go by a history score, the
  cutoffs each card caused as a lead in this solve weighted by the cards left (nodes at
  10 cards a hand: -12% to -34% by contract);
  a follower whose partner is winning smears points, one facing a winning
  opponent beats it as cheaply as it can, else plays its cheapest card; but the
  second seat plays low when the trick is worth nothing by itself and its led
  suit holds no points (Pedro's side suits), leaving the trick to its partner,
  who plays last (Pedro post-draw positions: 15,815 nodes against 18,058;
  Rook and King, where tricks or every suit score, keep the first order);
* the trick's last seat is searched inside its predecessor's loop, and the last
  trick plays itself, so most cards cost no call; what runs once a trick start (the key,
  the table's store, the sure bounds) is a call of its own rather than inlined: inlined,
  the recursive search took 112 s to compile here instead of 68, for no speed measurable
  (paired runs, 0.995);
* a node budget, so a pathological position returns "unsolved" instead of
  hanging.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

from ...bits import (
    ONE,
    ZERO,
    bit,
    load_word,
    lsb,
    msb,
    pdep,
    pext,
    popcount,
    prefetch_word,
    store_word,
    word,
)
from .params import (
    BIAS,
    GEN_MASK,
    INF,
    LANE,
    NO_GUESS,
    NQ,
    NT,
    P_ABORT,
    P_BUDGET,
    P_CASH,
    P_GEN,
    P_HISTORY,
    P_NEG,
    P_NODES,
    P_SPECIALS,
    P_TT,
    P_TT_MASK,
    P_TV1,
    P_TV2,
    P_TVA,
    P_V0,
    P_V1,
    P_V2,
    P_V3,
    P_VALUED,
    PLANES,
    Q_ACE,
    Q_BAN,
    Q_FREE,
    Q_SIDE,
    Q_TM,
    Q_TRUMP_ANY,
    RES_MOVER,
    RES_NODES,
    RES_SOLVED,
    RES_VALUE,
    T_BOUNDS,
    TT_MIN_K,
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
def distinct_moves(moves, outside, par):
    """``moves`` less the cards equivalent to the next lower one: same suit, same points and
    no card of ``outside`` (the other hands and the trick) between them. In ranks relative to
    the cards still live a card is merged when the card just below it is also a move, of the
    same value and suit. ``par``: the parameter block or its address."""
    live = moves | outside
    ours = pext(moves, live)
    merged = ours & (ours << ONE)
    if merged == ZERO:
        return moves
    for j in range(4):
        x = pext(live & word(par, PLANES[j]), live)
        merged &= ~(x ^ (x << ONE))
    tm = word(par, Q_TM)
    starts = _low_bit(live & tm)  # the lowest live card of each suit starts a new group
    for lane in range(4):
        starts |= _low_bit(live & (LANE << np.uint64(16 * lane)) & ~tm)
    return moves & ~(pdep(merged, live) & ~starts)


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


@njit(cache=True, inline="always")
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


@njit(cache=True, inline="always")
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
    s1 = pext(a1 | a3, out)
    s2 = pext(a2 | a3, out)
    v0 = pext(out & load_word(par, P_V0), out)
    v1 = pext(out & load_word(par, P_V1), out)
    v2 = pext(out & load_word(par, P_V2), out)
    v3 = pext(out & load_word(par, P_V3), out)
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


@njit(cache=True, inline="always")
def _holds(tt, row, key):
    """True when table row ``row`` (its first word's index) holds the position of ``key``."""
    for w in range(7):
        if load_word(tt, row + w) != key[w]:
            return False
    return True


@njit(cache=True, inline="always")
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


@njit(cache=True, inline="always")
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


@njit(cache=True, inline="always")
def _trick_done(a0, a1, a2, a3, sd, k, alpha, beta, trick, bw, par):
    """The value once the trick's last card is down: its reward and the tricks after it."""
    reward = 0
    if (sd >> bw) & 1:
        reward = _points(trick, par) + _trick_value(k, par)
    a0, a1, a2, a3, sd = _rotate(a0, a1, a2, a3, sd, bw)
    if k == 2:
        while a0 == ZERO:
            a0, a1, a2, a3, sd = _rotate(a0, a1, a2, a3, sd, 1)
        return reward + _finish(a0, a1, a2, a3, sd, 1, ZERO, ZERO, -1, -1, 0, par)
    none = np.int64(-1)  # typed, not literal, arguments: a call with literals would compile
    zero = np.int64(0)   # a second signature that the on-disk cache cannot link
    return reward + _node(a0, a1, a2, a3, sd, k - 1, alpha - reward, beta - reward, zero, zero,
                          ZERO, ZERO, none, none, zero, par)


@njit(cache=True, inline="always")
def _last_seat(a0, a1, a2, a3, sd, k, alpha, beta, lo, hi, trick, led, bw, bp, r, par):
    """``_node`` for the trick's last seat, written into its caller's loop: each of its cards
    ends the trick."""
    _count_node(par)
    decided, v, alpha, beta = _narrow(lo, hi, alpha, beta)
    if decided:
        return v
    tm = load_word(par, Q_TM)
    m1, m2, m3, m4, down = _order(a0, a1, a2, a3, sd, k, trick, led, bw, bp, r, par)
    maxi = (sd >> r) & 1
    best = -INF if maxi else INF
    while m1 | m2 | m3 | m4:
        c, m1, m2, m3, m4 = _pop(m1, m2, m3, m4, down)
        n0, n1, n2, n3, nt, nl, nbw, nbp = _play(a0, a1, a2, a3, trick, led, bw, bp, r, c, tm)
        v = _trick_done(n0, n1, n2, n3, sd, k, alpha, beta, nt, nbw, par)
        if load_word(par, P_ABORT):
            return 0
        best, alpha, beta = _ab(v, best, alpha, beta, maxi)
        if alpha >= beta:
            break
    return best


_u, _i = types.uint64, types.int64
_NODE_SIG = types.int64(_u, _u, _u, _u, _i, _i, _i, _i, _i, _i, _u, _u, _i, _i, _i, _u)


@njit(_NODE_SIG, cache=True)
def _node(a0, a1, a2, a3, sd, k, alpha, beta, lo, hi, trick, led, bw, bp, r, par):
    """Fail-soft value in (alpha, beta) of the rest of the deal for the side ``sd``.

    Seats are relative to the trick's leader (seat 0): ``a0..a3`` their hands, ``sd`` bit r
    set when seat r is on the maximising side, ``k`` (at least 2) the longest hand when the
    trick began: the last trick is played by its predecessor (``_trick_done``), or at the root
    by ``_last_trick``. The trick so far: its cards ``trick``, the led suit's mask ``led``
    (0: none yet), the winning seat ``bw`` and that card's power ``bp``; seat ``r`` is to
    play. ``lo``/``hi`` bound the value through a trick (ignored at its start, where they are
    found).
    """
    n = _count_node(par)
    tm = load_word(par, Q_TM)
    tt = load_word(par, P_TT)
    row = -1
    key = (ZERO, ZERO, ZERO, ZERO, ZERO, ZERO, ZERO)
    if trick == ZERO:  # a trick starts
        if n > load_word(par, P_BUDGET):
            store_word(par, P_ABORT, ONE)
            return 0
        while a0 == ZERO:  # the lead passes to the next seat holding cards
            a0, a1, a2, a3, sd = _rotate(a0, a1, a2, a3, sd, 1)
        if k >= TT_MIN_K:  # the row starts loading while the bounds are found
            key, h = _key(a0, a1, a2, a3, sd, par)
            row = np.int64(h & load_word(par, P_TT_MASK)) * NT
            prefetch_word(tt, row)
        lo, hi = _sure_bounds(a0, a1, a2, a3, sd, k, par)
        if row >= 0 and lo < beta and hi > alpha and lo < hi and _holds(tt, row, key):
            t_lo, t_hi = _bounds(tt, row)
            lo = max(lo, t_lo)
            hi = min(hi, t_hi)
    decided, v, alpha, beta = _narrow(lo, hi, alpha, beta)
    if decided:
        return v
    a_in, b_in = alpha, beta
    nr = _next_seat(a0, a1, a2, a3, r)
    last = _next_seat(a0, a1, a2, a3, nr) == 4  # the next seat ends the trick
    m1, m2, m3, m4, down = _order(a0, a1, a2, a3, sd, k, trick, led, bw, bp, r, par)
    maxi = (sd >> r) & 1
    best = -INF if maxi else INF
    history = down == BY_HISTORY
    while m1 | m2 | m3 | m4:
        if history:
            c, m1, m2, m3, m4 = _pop_by_history(m1, m2, m3, m4, par)
        else:
            c, m1, m2, m3, m4 = _pop(m1, m2, m3, m4, down)
        n0, n1, n2, n3, nt, nl, nbw, nbp = _play(a0, a1, a2, a3, trick, led, bw, bp, r, c, tm)
        if nr == 4:
            v = _trick_done(n0, n1, n2, n3, sd, k, alpha, beta, nt, nbw, par)
        elif last:
            v = _last_seat(n0, n1, n2, n3, sd, k, alpha, beta, lo, hi, nt, nl, nbw, nbp, nr,
                           par)
        else:
            v = _node(n0, n1, n2, n3, sd, k, alpha, beta, lo, hi, nt, nl, nbw, nbp, nr, par)
        if load_word(par, P_ABORT):
            return 0
        best, alpha, beta = _ab(v, best, alpha, beta, maxi)
        if alpha >= beta:
            if history:  # a cutoff higher up (more cards left) weighs more
                store_word(par, P_HISTORY + c, load_word(par, P_HISTORY + c) + np.uint64(k * k))
            break
    if row >= 0:
        _record(tt, row, key, best, a_in, b_in)
    return best


@njit(cache=True)
def prepare(q, cpts, tv, tt, gen, max_nodes, par):
    """Fill the parameter block ``par`` for a search of the game (``q``, ``cpts``, ``tv``)
    with table ``tt`` (kept alive by the caller) and reset its counters. Card values must
    take at most four distinct values, and tv[k] must be one value for every k >= 3; every
    game here meets both."""
    for j in range(NQ):
        par[j] = q[j]
    for j in range(4):
        par[PLANES[j]] = ZERO
        par[WEIGHTS[j]] = ZERO
    n_values = 0
    negative = False
    valued = ZERO
    for c in range(64):
        v = cpts[c]
        if v == 0:
            continue
        negative |= v < 0
        valued |= bit(c)
        j = 0
        while j < n_values and np.int64(par[WEIGHTS[j]]) != v:
            j += 1
        if j == n_values:
            if n_values == 4:
                raise ValueError("card values: more than four distinct values")
            par[WEIGHTS[j]] = np.uint64(v)
            n_values += 1
        par[PLANES[j]] |= bit(c)
    tva = tv[3]
    tricks_score = False
    for k in range(1, tv.shape[0]):
        negative |= tv[k] < 0
        tricks_score |= tv[k] != 0
        if k >= 3 and tv[k] != tva:
            raise ValueError("trick values: tv[k] differs between k >= 3")
    par[P_VALUED] = valued
    par[P_TT] = np.uint64(tt.ctypes.data)
    par[P_TT_MASK] = np.uint64(tt.shape[0] - 1)
    par[P_SPECIALS] = q[Q_ACE] | (ONE << np.uint64(63))  # A♥ and Rook: rules name them
    par[P_TVA] = np.uint64(tva)
    par[P_TV1] = np.uint64(tv[1] - tva)
    par[P_TV2] = np.uint64(tv[2] - tva)
    par[P_GEN] = np.uint64(gen)
    par[P_NEG] = ONE if negative else ZERO
    par[P_CASH] = ONE if not negative and (valued & ~q[Q_TM] or tricks_score) else ZERO
    par[P_NODES] = ZERO
    par[P_BUDGET] = np.uint64(max(max_nodes, 0))
    par[P_ABORT] = ZERO
    for c in range(64):
        par[P_HISTORY + c] = ZERO


@njit(cache=True)
def _fill_equivalents(hands, seat, trick_cards, n_played, q, cpts, out_vals):
    """Give the root's cards skipped as equivalent the value of the card they touch."""
    tm = q[Q_TM]
    trick = ZERO
    for j in range(n_played):
        trick |= bit(trick_cards[j])
    led = ZERO if n_played == 0 else suit_mask(trick_cards[0], tm)
    h = hands[seat]
    moves = legal(h, led, trick, q)
    outside = (hands[0] | hands[1] | hands[2] | hands[3] | trick) & ~h
    rest = moves
    while rest != ZERO:
        c = lsb(rest)
        rest &= rest - ONE
        if out_vals[c] > -INF:
            continue
        below = moves & suit_mask(c, tm) & ((ONE << np.uint64(c)) - ONE)
        x = msb(below)
        if x >= 0 and cpts[x] == cpts[c] and between(x, c, suit_mask(c, tm)) & outside == ZERO:
            out_vals[c] = out_vals[x]


@njit(cache=True, inline="always")
def holders(hands):
    """(the seats holding cards, as a mask; the most cards any seat holds)."""
    need = ZERO
    k_max = 0
    for s in range(4):
        n = popcount(hands[s])
        if n > 0:
            need |= bit(s)
        k_max = max(k_max, n)
    return need, k_max


@njit(cache=True)
def trick_state(hands, leader, trick_cards, trick_seats, n_played, tm, cpts):
    """The current trick replayed: (seats still to play, longest hand when it began, lead card,
    winning seat, its power, points in it)."""
    need, k_max = holders(hands)
    pts = 0
    lead = -1
    bseat, bpow = -1, -1
    for j in range(n_played):
        c = trick_cards[j]
        seat = trick_seats[j]
        if j == 0:
            lead = c
        pw = power(c, suit_mask(lead, tm), tm)
        if pw > bpow:
            bseat, bpow = seat, pw
        pts += cpts[c]
        need &= ~bit(seat)
        k_max = max(k_max, popcount(hands[seat]) + 1)  # it held one more when the trick began
    return need, k_max, lead, bseat, bpow, pts


@njit(cache=True)
def first_to_play(need, leader):
    """The seat to move: the first seat still to play, clockwise from the leader (-1: none)."""
    for j in range(4):
        seat = (leader + j) & 3
        if need & bit(seat):
            return seat
    return -1


@njit(cache=True)
def remaining(hands, trick_cards, n_played, k_max, cpts, tv):
    """Everything still to be won: the cards in hands and trick, and the tricks' own values."""
    total = 0
    for k in range(1, k_max + 1):
        total += tv[k]
    for j in range(n_played):
        total += cpts[trick_cards[j]]
    cards = hands[0] | hands[1] | hands[2] | hands[3]
    while cards != ZERO:
        total += cpts[lsb(cards)]
        cards &= cards - ONE
    return total


@njit(cache=True)
def _last_trick(a0, a1, a2, a3, sd, trick, led, bw, bp, r, par):
    """The value of a position with at most one card a hand (``_node``'s arguments)."""
    if a0 | a1 | a2 | a3 == ZERO:
        return 0
    if trick == ZERO:
        while a0 == ZERO:
            a0, a1, a2, a3, sd = _rotate(a0, a1, a2, a3, sd, 1)
    return _finish(a0, a1, a2, a3, sd, 1, trick, led, bw, bp, r, par)


@njit(cache=True)
def search(hands, leader, trick_cards, trick_seats, n_played, cpts, tv, par, alpha0, beta0, res):
    """Alpha-beta value of the position inside the window (alpha0, beta0), fail-soft, with
    ``par`` filled by :func:`prepare` (its node count goes on from there).

    The position is ``hands`` (four masks), the current trick's leader and its first
    ``n_played`` cards and their seats in play order. ``res`` gets the value, the node count
    so far, 1 when solved within the budget and the seat to move.
    """
    tm = par[Q_TM]
    side = par[Q_SIDE]
    need, k_max, lead, bseat, bpow, pts = trick_state(hands, leader, trick_cards, trick_seats,
                                                      n_played, tm, cpts)
    mover = first_to_play(need, leader)
    res[RES_MOVER] = mover
    sd = 0
    for r in range(4):
        sd |= np.int64((side >> np.uint64((leader + r) & 3)) & ONE) << r
    a0, a1, a2, a3 = (hands[leader], hands[(leader + 1) & 3], hands[(leader + 2) & 3],
                      hands[(leader + 3) & 3])
    address = np.uint64(par.ctypes.data)
    trick = ZERO
    for j in range(n_played):
        trick |= bit(trick_cards[j])
    led = ZERO if n_played == 0 else suit_mask(lead, tm)
    bw = np.int64(-1) if n_played == 0 else np.int64((bseat - leader) & 3)
    r = np.int64(0) if n_played == 0 else np.int64((mover - leader) & 3)
    if n_played > 0 and mover < 0:  # the trick is complete and the rest starts from its winner
        v = 0
    elif k_max <= 1:  # nothing to search: ``_node`` starts at two cards a hand
        v = _last_trick(a0, a1, a2, a3, np.int64(sd), trick, led, bw, np.int64(bpow), r,
                        address)
    else:  # lo/hi bound a trick under way (a trick start finds its own)
        rem = remaining(hands, trick_cards, n_played, k_max, cpts, tv)
        v = _node(a0, a1, a2, a3, np.int64(sd), np.int64(k_max), np.int64(alpha0),
                  np.int64(beta0), np.int64(min(rem, 0)), np.int64(max(rem, 0)), trick, led,
                  bw, np.int64(bpow), r, address)
    res[RES_VALUE] = v
    res[RES_NODES] = np.int64(par[P_NODES])
    # the budget is checked at trick starts, so a search may end a few nodes over it
    res[RES_SOLVED] = 1 if par[P_ABORT] == ZERO and par[P_NODES] <= par[P_BUDGET] else 0


@njit(cache=True)
def value_step(cpts, tv):
    """The greatest common divisor of every card and trick value (Rook's are all multiples
    of 5, King's of 10 or 25), so a bisection of the value range needs fewer steps."""
    g = 0
    for c in range(64):
        a, b = abs(cpts[c]), g
        while b:
            a, b = b, a % b
        g = a
    for k in range(tv.shape[0]):
        a, b = abs(tv[k]), g
        while b:
            a, b = b, a % b
        g = a
    return max(g, 1)


@njit(cache=True, nogil=True)  # without the GIL: a long solve does not hold off Ctrl-C
def solve_value(hands, leader, trick_cards, trick_seats, n_played, q, cpts, tv, tt, gen, par,
                max_nodes, res, guess=NO_GUESS):
    """The exact value, by null-window searches (MTD-style): each search only asks "at least
    t?", which cuts far more than one wide window, and the bounds they leave in the table
    carry over to the next. With a ``guess`` (a sibling's value) the first two ask "at least
    the guess?" and then one step beyond it, which settles a good guess in two searches;
    otherwise, and after those, t bisects the range still open."""
    prepare(q, cpts, tv, tt, gen, max_nodes, par)
    _bisect(hands, leader, trick_cards, trick_seats, n_played, cpts, tv, par, res, guess)


@njit(cache=True)
def _bisect(hands, leader, trick_cards, trick_seats, n_played, cpts, tv, par, res, guess):
    """:func:`solve_value`'s searches with ``par`` prepared; its node count and budget go on
    from where they are."""
    need, k_max, lead, bseat, bpow, pts = trick_state(hands, leader, trick_cards, trick_seats,
                                                      n_played, par[Q_TM], cpts)
    rem = remaining(hands, trick_cards, n_played, k_max, cpts, tv)
    lo = min(rem, 0)
    hi = max(rem, 0)
    solved = 1
    mover = first_to_play(need, leader)
    g = value_step(cpts, tv)
    probes = 0
    while lo < hi:
        t = lo + g * (((hi - lo) // g + 1) // 2)  # values are multiples of g: bisect on them
        if guess != NO_GUESS and probes < 2:
            if probes == 0:
                t = min(max(guess, lo + g), hi)
            else:
                t = lo + g if lo >= guess else hi  # the guess held: one above; else at hi
        probes += 1
        search(hands, leader, trick_cards, trick_seats, n_played, cpts, tv, par, t - 1, t, res)
        if res[RES_SOLVED] == 0:
            solved = 0
            break
        v = res[RES_VALUE]
        if v >= t:
            lo = v
        else:
            hi = v
    res[RES_VALUE] = lo
    res[RES_NODES] = np.int64(par[P_NODES])
    res[RES_SOLVED] = solved
    res[RES_MOVER] = mover


@njit(cache=True, nogil=True)
def solve_moves(hands, leader, trick_cards, trick_seats, n_played, q, cpts, tv, tt, gen, par,
                max_nodes, res, out_vals):
    """The exact value after each legal card of the seat to move, in ``out_vals[card]``
    (-INF for cards it may not play); ``res`` as for :func:`solve_value`, with the best of
    them as the value. ``trick_cards``/``trick_seats`` need room for one more card."""
    tm = q[Q_TM]
    side = q[Q_SIDE]
    for c in range(64):
        out_vals[c] = -INF
    need, k_max, lead, bseat, bpow, pts = trick_state(hands, leader, trick_cards, trick_seats,
                                                      n_played, tm, cpts)
    seat = first_to_play(need, leader)
    if seat < 0:
        res[RES_VALUE] = 0
        res[RES_NODES] = 0
        res[RES_SOLVED] = 1
        res[RES_MOVER] = -1
        return
    trick = ZERO
    for j in range(n_played):
        trick |= bit(trick_cards[j])
    h = hands[seat]
    led = ZERO if lead < 0 else suit_mask(lead, tm)
    legal_set = legal(h, led, trick, q)
    outside = (hands[0] | hands[1] | hands[2] | hands[3] | trick) & ~h
    prepare(q, cpts, tv, tt, gen, max_nodes, par)  # once: every move's searches share it
    moves = distinct_moves(legal_set, outside, par)
    maximise = (side >> np.uint64(seat)) & ONE
    best = -INF if maximise else INF
    solved = 1
    guess = 0
    have = False
    while moves != ZERO:
        c = lsb(moves)
        moves &= moves - ONE
        hands[seat] = h & ~bit(c)
        trick_cards[n_played] = c
        trick_seats[n_played] = seat
        if need & ~bit(seat) == ZERO:  # the card completes the trick
            lc = c if lead < 0 else lead
            pw = power(c, suit_mask(lc, tm), tm)
            win = seat if pw > bpow else bseat
            reward = pts + cpts[c] + tv[k_max] if (side >> np.uint64(win)) & ONE else 0
            _bisect(hands, win, trick_cards, trick_seats, 0, cpts, tv, par, res,
                    guess - reward if have else NO_GUESS)
        else:
            reward = 0
            _bisect(hands, leader, trick_cards, trick_seats, n_played + 1, cpts, tv, par, res,
                    guess if have else NO_GUESS)
        hands[seat] = h
        if res[RES_SOLVED] == 0:
            solved = 0
            break
        v = res[RES_VALUE] + reward
        out_vals[c] = v
        best = max(best, v) if maximise else min(best, v)
        guess = best  # siblings are close: the best so far guesses the next
        have = True
    if solved:
        _fill_equivalents(hands, seat, trick_cards, n_played, q, cpts, out_vals)
    res[RES_VALUE] = best
    res[RES_NODES] = np.int64(par[P_NODES])
    res[RES_SOLVED] = solved
    res[RES_MOVER] = seat
