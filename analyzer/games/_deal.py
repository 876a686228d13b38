"""Dealing from the counter-based deal stream, shared by every game's kernel.

A deal is a shuffled array of card indices sliced into hands (RULES.md §0.1:
slicing a uniform shuffle deals like any uniform partition). When some cards'
holders are known, the rest of the deck is shuffled and filled in around them.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..bits import ONE, ZERO, lsb
from ..rng import shuffle_range


@njit(cache=True)
def deal_known(known, dealer, drng, deck, cards, n_cards, hand_size):
    """Deal ``cards[:n_cards]`` with some holders known: the rest uniformly, from ``drng``.

    ``known[k]`` is the mask of cards known to be held by the seat k places after
    the dealer. The unknown cards are shuffled in ``deck[n_cards:]`` in canonical
    order, so the fill is a pure function of the deal stream; each seat (in seat
    order) gets its known cards and is filled up to ``hand_size``, and
    ``deck[4 * hand_size:n_cards]`` takes what is left. ``deck`` needs room for
    twice ``n_cards``.
    """
    all_known = ZERO
    for k in range(4):
        all_known |= known[k]
    n_rest = n_cards
    for i in range(n_cards):
        c = cards[i]
        if not (all_known >> np.uint64(c)) & ONE:
            deck[n_rest] = c
            n_rest += 1
    shuffle_range(drng, deck, n_cards, n_rest)
    src = n_cards
    for s in range(4):
        m = known[(s - dealer) % 4]
        j = hand_size * s
        while m != ZERO:
            deck[j] = lsb(m)
            m &= m - ONE
            j += 1
        while j < hand_size * s + hand_size:
            deck[j] = deck[src]
            src += 1
            j += 1
    for j in range(4 * hand_size, n_cards):
        deck[j] = deck[src]
        src += 1
