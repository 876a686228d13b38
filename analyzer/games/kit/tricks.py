"""The bookkeeping of a trick that every game's kernel does the same way: the forced card,
the log of each card and of each trick, and the partnerships' won cards.

A trick's log is ten int16 slots from ``base``: its leader, its winner, then (seat, card)
for each of the four plays (``tests/reference/*_LOG_FORMAT.md``).

May import: :mod:`analyzer.bits`; never a game.
"""

from __future__ import annotations

from numba import njit

from ...bits import ONE, ZERO, lsb


@njit(cache=True, inline="always")
def forced_card(legal):
    """The one legal card, or -1 when there is a choice to make."""
    if legal & (legal - ONE) == ZERO:
        return lsb(legal)
    return -1


@njit(cache=True, inline="always")
def log_card(li, base, pos, seat, card):
    """Play ``pos`` of the trick logged from ``base``: ``seat`` played ``card``."""
    li[base + 2 + 2 * pos] = seat
    li[base + 3 + 2 * pos] = card


@njit(cache=True, inline="always")
def log_trick(li, base, leader, winner):
    li[base] = leader
    li[base + 1] = winner


@njit(cache=True, inline="always")
def credit_team(won0, won1, seat, cards):
    """The two partnerships' masks after ``seat``'s side gets ``cards`` (seats 0, 2 are team 0):
    the tricks it wins, the cards it discards dead."""
    if seat & 1:
        return won0, won1 | cards
    return won0 | cards, won1
