"""The double-dummy search's words: its game parameters, parameter block, table rows and
results, and its notions of a card's suit and of a legal card.

They live apart from the search (``search.dd``) so that an engine can lay out a searching
player's workspace and read a trick's suit without importing the search, whose recursive
``_node`` compiles when its module is imported (about a minute here): a kernel whose seats
never search must not wait for it, nor a position solver's error for a card that could not
have been played.

May import: :mod:`analyzer.bits`; never a game.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...bits import ZERO, bit, word

# ---- game parameters (uint64 vector q) ----------------------------------------------------
# Q_TM trump suit mask; Q_FREE cards legal at any time (Rook's free Rook); Q_TRUMP_ANY 1 when
# a trump may be played while able to follow (Pedro); Q_BAN cards that may not be led while
# the hand holds others (King's hearts); Q_FORCE the card that must be played when void in
# the led suit (King's K♥), Q_ACE the card whose presence in a trick of Q_FORCE's suit also
# forces it (A♥ under kh_force=when_void_or_ace_already_played, else 0); Q_SIDE the seat mask
# of the maximising side.
Q_TM, Q_FREE, Q_TRUMP_ANY, Q_BAN, Q_FORCE, Q_ACE, Q_SIDE = range(7)
NQ = 7

# ---- the search's parameter block (uint64 words; int64 values stored as their bits) --------
# Words 0..NQ-1 are q itself, so the rules (``legal``) read either. Then: P_V0..P_V3 the value
# planes and P_W0..P_W3 their values; P_VALUED every card that scores; the table's address and
# row mask; P_SPECIALS the cards rules name rather than rank (A♥, the Rook), whose presence the
# key records; the trick values as tv[k] = P_TVA plus P_TV1 (k = 1) or P_TV2 (k = 2); the
# table generation; P_NEG 1 when values are negative (King's penalties); P_CASH 1 when side-suit
# cards or tricks score and values are positive (Rook, King's positive hand: leads cash side-suit
# winners first); the node counter, its budget and the flag set when the budget runs out; the
# null-window searches run (the pimc benchmark's count); and from P_HISTORY, 64 words: each
# card's history score as a lead (the cutoffs it caused).
(P_V0, P_V1, P_V2, P_V3, P_W0, P_W1, P_W2, P_W3, P_VALUED, P_TT, P_TT_MASK, P_SPECIALS, P_TVA,
 P_TV1, P_TV2, P_GEN, P_NEG, P_CASH, P_NODES, P_BUDGET, P_ABORT, P_SEARCHES,
 P_HISTORY) = range(NQ, NQ + 23)  # fmt: skip
NPAR = P_HISTORY + 64
PLANES = (P_V0, P_V1, P_V2, P_V3)
WEIGHTS = (P_W0, P_W1, P_W2, P_W3)
INF = 1 << 30
NO_GUESS = -(1 << 40)
GEN_MASK = np.uint64((1 << 38) - 1)  # the generation's bits in the key's meta word

# ---- transposition table rows (uint64): the key (seven words) and the packed bounds ----------
# The key is the position in *relative ranks*: the cards still out are numbered 0, 1, ... in
# index order, and two words give each number's seat (seat bit 0, seat bit 1, seats relative to
# the trick's leader), so positions that differ only in which lower cards are gone share an
# entry. With them: each value plane in the same numbering, and a meta word (side, cards out
# per lane, how many special cards are out, generation). Equal keys are positions equal up to
# renaming cards within a suit, with the same values and rules, hence of equal value.
T_BOUNDS = 7
NT = 8
BIAS = 1 << 20  # bounds are stored biased so they pack as unsigned
TT_MIN_K = 2  # the table is used from two cards a hand up (the last trick plays itself)

# ---- results (int64 vector res) --------------------------------------------------------------
RES_VALUE, RES_NODES, RES_SOLVED, RES_MOVER = 0, 1, 2, 3
NRES = 4
LANE = np.uint64(0xFFFF)


@njit(cache=True, inline="always")
def suit_mask(c, tm):
    """The suit ``c`` follows as: the trump suit, or its lane without the trumps."""
    b = bit(c)
    if b & tm:
        return tm
    return (LANE << np.uint64(16 * (c >> 4))) & ~tm


@njit(cache=True, inline="always")
def legal(hand, led, trick, q):
    """Cards of ``hand`` playable when the led suit's mask is ``led`` (0: on the lead); ``q``
    is the game's parameter vector or the search's block."""
    if led == ZERO:
        ban = word(q, Q_BAN)
        if hand & ban and hand & ~ban:
            return hand & ~ban
        return hand
    follow = hand & led
    force = word(q, Q_FORCE)
    if follow == ZERO:
        if hand & force:
            return force
        return hand
    if hand & force and force & led and trick & word(q, Q_ACE):
        return force
    tm = word(q, Q_TM)
    if word(q, Q_TRUMP_ANY) and led != tm:
        follow |= hand & tm
    return follow | (hand & word(q, Q_FREE))


@njit(cache=True)
def first_illegal(hands, trick_cards, trick_seats, n_played, q):
    """Index of the first card of the current trick its seat could not have played holding
    its present hand plus that card (-1: all legal)."""
    tm = q[Q_TM]
    trick = ZERO
    for j in range(n_played):
        c = trick_cards[j]
        led = ZERO if j == 0 else suit_mask(trick_cards[0], tm)
        if not legal(hands[trick_seats[j]] | bit(c), led, trick, q) & bit(c):
            return j
        trick |= bit(c)
    return -1

NTV = 14  # tv[k] for k = 1..13 cards in the longest hand when a trick starts
LANE13 = np.uint64(0x1FFF)  # one suit's 13 ranks
