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
  parameters (callers bump the generation when those change); the key is made only when
  the sure bounds (next) leave the node open: it was a sixth of the search's time, and a
  trick start those bounds decide had made it for nothing (pimc:20 Pedro deals 5% faster
  than making it first and loading the row while the bounds were found);
* bounds at every trick start from the scoring trumps no trick can take from
  their side (above every trump the other side holds), kept through the trick; where
  tricks score (King's positive hand), also from the sure tricks: the winners the leader
  can cash before anything else, and a hand's trumps above every trump of the other side
  (King positive nodes at 10 cards a hand: 569,806 -> 129,850, -77%);
* equivalent cards: touching cards of one suit in one hand (no card of another
  hand or of the current trick between them) with the same point value are
  searched once, found for a whole hand at once (a carry along the dead cards);
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

This module holds the recursion (``_node`` and the two steps it inlines at a trick's end)
and the entry points for a position's value; what works on one position (values, bounds,
the table, ordering, playing a card) is in :mod:`.dd_moves`, and the values of each card of
the seat to move (``solve_moves``, pimc's ``solve_among``) in :mod:`.dd_cards`.

May import: :mod:`analyzer.bits`, :mod:`.params` and :mod:`.dd_moves`; never a game.
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
    popcount,
    store_word,
)
from .dd_moves import (
    BY_HISTORY,
    _ab,
    _bounds,
    _count_node,
    _finish,
    _holds,
    _key,
    _narrow,
    _next_seat,
    _order,
    _play,
    _points,
    _pop,
    _pop_by_history,
    _record,
    _rotate,
    _sure_bounds,
    _trick_value,
    power,
)
from .params import (
    INF,
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
    P_SEARCHES,
    P_SPECIALS,
    P_TT,
    P_TT_MASK,
    P_TV1,
    P_TV2,
    P_TVA,
    P_VALUED,
    PLANES,
    Q_ACE,
    Q_SIDE,
    Q_TM,
    RES_MOVER,
    RES_NODES,
    RES_SOLVED,
    RES_VALUE,
    TT_MIN_K,
    WEIGHTS,
    suit_mask,
)


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
        lo, hi = _sure_bounds(a0, a1, a2, a3, sd, k, par)
        if k >= TT_MIN_K and lo < beta and hi > alpha and lo < hi:  # else no key is needed
            key, h = _key(a0, a1, a2, a3, sd, par)
            row = np.int64(h & load_word(par, P_TT_MASK)) * NT
            if _holds(tt, row, key):
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
    par[P_SEARCHES] = ZERO
    for c in range(64):
        par[P_HISTORY + c] = ZERO


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
    bisect_value(hands, leader, trick_cards, trick_seats, n_played, cpts, tv, par, res, guess)


@njit(cache=True)
def bisect_value(hands, leader, trick_cards, trick_seats, n_played, cpts, tv, par, res, guess):
    """:func:`solve_value`'s searches with ``par`` prepared; its node count and budget go on
    from where they are."""
    need, k_max = trick_state(hands, leader, trick_cards, trick_seats, n_played, par[Q_TM],
                              cpts)[:2]
    lo, hi = _range_of(hands, trick_cards, n_played, k_max, cpts, tv)
    bisect_within(hands, leader, trick_cards, trick_seats, n_played, cpts, tv, par, res, lo, hi,
                  guess, 0)
    res[RES_MOVER] = first_to_play(need, leader)


@njit(cache=True)
def value_range(hands, leader, trick_cards, trick_seats, n_played, cpts, tv, par):
    """(lo, hi): every value the position can have, from nothing to everything left."""
    k_max = trick_state(hands, leader, trick_cards, trick_seats, n_played, par[Q_TM], cpts)[1]
    return _range_of(hands, trick_cards, n_played, k_max, cpts, tv)


@njit(cache=True, inline="always")
def _range_of(hands, trick_cards, n_played, k_max, cpts, tv):
    rem = remaining(hands, trick_cards, n_played, k_max, cpts, tv)
    return min(rem, 0), max(rem, 0)


@njit(cache=True)
def bisect_within(hands, leader, trick_cards, trick_seats, n_played, cpts, tv, par, res, lo, hi,
                  guess, probes):
    """:func:`bisect_value` from a value known to lie in [lo, hi], ``probes`` of the guess's
    two already asked (``res``'s mover is not set)."""
    solved = 1
    g = value_step(cpts, tv)
    while lo < hi:
        t = lo + g * (((hi - lo) // g + 1) // 2)  # values are multiples of g: bisect on them
        if guess != NO_GUESS and probes < 2:
            if probes == 0:
                t = min(max(guess, lo + g), hi)
            else:
                t = lo + g if lo >= guess else hi  # the guess held: one above; else at hi
        probes += 1
        par[P_SEARCHES] += ONE
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
