"""Double-dummy values of the cards of the seat to move (numba): every legal card
(``solve_moves``, the clairvoyant player and ``bidlab solve``) or those pimc still races
(``solve_among``), each by the null-window searches of :mod:`.dd`; pimc's leader exact and
the other cards settled by one search where it can (``_settles``).

May import: :mod:`analyzer.bits`, :mod:`.params`, :mod:`.dd_moves` and :mod:`.dd`; never a
game.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...bits import ONE, ZERO, bit, lsb, msb
from .dd import (
    bisect_value,
    bisect_within,
    first_to_play,
    prepare,
    search,
    trick_state,
    value_range,
    value_step,
)
from .dd_moves import between, distinct_moves, power
from .params import (
    INF,
    NO_GUESS,
    P_NODES,
    P_SEARCHES,
    Q_SIDE,
    Q_TM,
    RES_MOVER,
    RES_NODES,
    RES_SOLVED,
    RES_VALUE,
    legal,
    suit_mask,
)


@njit(cache=True)
def _fill_equivalents(hands, seat, trick_cards, n_played, q, cpts, out_vals, out_exact,
                      bounded):
    """Give the root's cards skipped as equivalent the value of the card they touch (and,
    ``bounded``, its flag in ``out_exact``)."""
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
            if bounded:
                out_exact[c] = out_exact[x]



@njit(cache=True)
def _settles(hands, leader, trick_cards, trick_seats, n_played, cpts, tv, par, res, v_lead,
             maximise, ask_beats):
    """One null-window search of a card against the leader's value ``v_lead`` (same
    position, same reward), from the side of the seat to move, asking whether the card beats
    the leader (``ask_beats``) or whether it is worse. (True, a bound) when the answer
    settles the card (it does not beat the leader; it is worse): a bound between its value
    and ``v_lead`` that flatters it (at or above its value for a maximiser, at or below for
    a minimiser), short of ``v_lead`` when asked whether it is worse. Else (False, the
    bound that shows it is not settled)."""
    g = value_step(cpts, tv)
    t = v_lead + g if ask_beats == maximise else v_lead
    par[P_SEARCHES] += ONE
    search(hands, leader, trick_cards, trick_seats, n_played, cpts, tv, par, t - 1, t, res)
    v = res[RES_VALUE]
    return (v < t) == maximise, v


@njit(cache=True, nogil=True)
def solve_moves(hands, leader, trick_cards, trick_seats, n_played, q, cpts, tv, tt, gen, par,
                max_nodes, res, out_vals):
    """The exact value after each legal card of the seat to move, in ``out_vals[card]``
    (-INF for cards it may not play); ``res`` as for :func:`solve_value`, with the best of
    them as the value. ``trick_cards``/``trick_seats`` need room for one more card."""
    solve_among(hands, leader, trick_cards, trick_seats, n_played, q, cpts, tv, tt, gen, par,
                max_nodes, res, out_vals, ~ZERO, -1, ZERO, out_vals)


@njit(cache=True, nogil=True)
def solve_among(hands, leader, trick_cards, trick_seats, n_played, q, cpts, tv, tt, gen, par,
                max_nodes, res, out_vals, among, lead_card, tied, out_exact):
    """:func:`solve_moves` for the legal cards in the mask ``among`` only (pimc's cards still
    in contention). A card of ``among`` alike to a lower one of ``among`` (touching, of one
    value) is not searched: it is -INF in ``out_vals`` unless :func:`_fill_equivalents`, which
    takes the next lower legal card, gives it that one's value.

    With a ``lead_card`` (-1: none), pimc's leader: it is solved first and exactly, and every
    other card is first asked one question by one search (:func:`_settles`): a card of the
    mask ``tied`` whether it beats the leader, any other whether it is worse. A card the
    answer settles keeps that search's bound, not its value (a value costs two searches or
    more), and gets 0 in ``out_exact[card]``: the bound flatters the card (its value is no
    higher for a maximiser, no lower for a minimiser). The others are solved exactly and get
    1. A leader alike to a lower card here is judged by that card. Without a leader every
    value is exact and ``out_exact`` is not written (it may be ``out_vals`` itself)."""
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
    moves = distinct_moves(legal_set & among, outside, par)
    maximise = (side >> np.uint64(seat)) & ONE
    best = -INF if maximise else INF
    solved = 1
    guess = 0
    have = False
    if lead_card >= 0 and moves & bit(lead_card) == ZERO:  # alike to a lower card here
        lead_card = msb(moves & suit_mask(lead_card, tm) & (bit(lead_card) - ONE))
    bounded = lead_card >= 0
    v_lead = 0
    while moves != ZERO:
        c = lead_card if bounded and not have else lsb(moves)  # the leader first
        moves &= ~bit(c)
        hands[seat] = h & ~bit(c)
        trick_cards[n_played] = c
        trick_seats[n_played] = seat
        if need & ~bit(seat) == ZERO:  # the card completes the trick
            lc = c if lead < 0 else lead
            pw = power(c, suit_mask(lc, tm), tm)
            win = seat if pw > bpow else bseat
            reward = pts + cpts[c] + tv[k_max] if (side >> np.uint64(win)) & ONE else 0
            at, played = win, 0
        else:
            reward = 0
            at, played = leader, n_played + 1
        exact = 1
        if bounded and have:  # the leader's value is known: one search settles most cards
            settled, v = _settles(hands, at, trick_cards, trick_seats, played, cpts, tv, par,
                                  res, v_lead - reward, maximise != ZERO, tied & bit(c) != ZERO)
            if settled:
                res[RES_VALUE] = v
                exact = 0
            elif res[RES_SOLVED]:  # its value, from the bound just found
                lo, hi = value_range(hands, at, trick_cards, trick_seats, played, cpts, tv, par)
                if maximise:
                    lo = v
                else:
                    hi = v
                bisect_within(hands, at, trick_cards, trick_seats, played, cpts, tv, par, res,
                              lo, hi, v_lead - reward, 1)
        else:
            bisect_value(hands, at, trick_cards, trick_seats, played, cpts, tv, par, res,
                         guess - reward if have else NO_GUESS)
        hands[seat] = h
        if res[RES_SOLVED] == 0:
            solved = 0
            break
        v = res[RES_VALUE] + reward
        out_vals[c] = v
        if bounded:
            out_exact[c] = exact
        if exact:
            best = max(best, v) if maximise else min(best, v)
        if not have:
            v_lead = v
        guess = best  # siblings are close: the best so far guesses the next
        have = True
    if solved:
        _fill_equivalents(hands, seat, trick_cards, n_played, q, cpts, out_vals, out_exact,
                          bounded)
    res[RES_VALUE] = best
    res[RES_NODES] = np.int64(par[P_NODES])
    res[RES_SOLVED] = solved
    res[RES_MOVER] = seat
