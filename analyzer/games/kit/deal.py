"""Dealing from the counter-based deal stream, shared by every game's kernel.

A deal draws each hand's cards in turn, uniformly from those left (docs/rules.md
§0.1: dealing a uniform shuffle in slices deals like any uniform partition).
When some cards' holders are known, the rest of the deck is shuffled and filled
in around them.

May import: :mod:`analyzer.bits` and :mod:`analyzer.rng`; never a game.
"""

from __future__ import annotations

from numba import njit

from ...bits import ZERO, bit, popcount
from ...rng import deal_hands, shuffle_cards


@njit(cache=True, inline="always")
def deal(known, off, dealer, drng, deck, pool, hand_size, hands):
    """Deal ``hand_size`` cards of mask ``pool`` to each seat into ``hands``, from ``drng``.

    ``known[off + k]`` is the mask of cards known to be held by the seat k places
    after the dealer (all zero: a plain deal, :func:`rng.deal_hands`). Otherwise the
    unknown cards are shuffled into ``deck[n_cards:]``, so the fill is a pure
    function of the deal stream, and each seat (in seat order) gets its known
    cards and is filled up to ``hand_size``. Either way the cards left over
    (Pedro's stock, Rook's widow) are dealt in random order to
    ``deck[4 * hand_size:n_cards]``; ``deck`` needs room for twice ``n_cards``.
    """
    all_known = known[off] | known[off + 1] | known[off + 2] | known[off + 3]
    n_cards = popcount(pool)
    if all_known == ZERO:
        rest = deal_hands(drng, pool, hand_size, hands)
        if rest != ZERO:
            shuffle_cards(drng, rest, deck, 4 * hand_size)
        return
    shuffle_cards(drng, pool & ~all_known, deck, n_cards)
    src = n_cards
    for s in range(4):
        h = known[off + (s - dealer) % 4]
        for _ in range(hand_size - popcount(h)):
            h |= bit(deck[src])
            src += 1
        hands[s] = h
    for j in range(4 * hand_size, n_cards):
        deck[j] = deck[src]
        src += 1
