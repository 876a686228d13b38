"""pimc plays on what its seat may know, in worlds that could be the deal: what an audit of
every game's pimc knowledge found (session of 2026-12-07, seventeenth), each test failing
on the code before its fix.

- Rook: a card a seat passed stayed in the pool, so another seat could be dealt it too (a
  third of Rook's worlds were not deals).
- The seat dealt last got what the others left: a seat whose voids left it just the cards
  it needs found them taken in most draws, and its voids were broken.
- Pedro: the trump-normalised layout's 52-card mask counted the place the Left Pedro
  leaves in its plain lane, a card that does not exist (in a quarter of worlds); only a
  seat's own discards left the pool, though every discard lies face up; trumps dumped on
  trick 1 did not lower the count a seat is known to hold; and under
  high_low_def=highest_lowest_in_play pimc valued the Low as the deal holds it.
"""

from __future__ import annotations

import numpy as np

from analyzer.bits import popcount
from analyzer.games.search.pimc import sample_world
from analyzer.games.search.setup import (
    KN_DISCARDS,
    KN_FORBID,
    KN_KNOWN,
    KN_MIN,
    KN_POOL,
    NKN,
    note_lost,
)

ONE = np.uint64(1)


def mask(*cards: int) -> np.uint64:
    return np.uint64(sum(1 << c for c in cards))


def worlds(hands, seat, kn, draws=300, relax=0):
    """``draws`` sampled worlds (None for a draw that failed) of seat ``seat``'s knowledge."""
    prng = np.array([12345], dtype=np.uint64)
    world = np.zeros(4, dtype=np.uint64)
    out = []
    for _ in range(draws):
        ok = sample_world(hands, seat, kn, relax, prng, world)
        out.append(world.copy() if ok else None)
    return out


def test_a_card_known_in_one_hand_is_dealt_to_no_other():
    """Seat 0 passed card 5 to seat 3 (Rook): every world holds it in seat 3 alone, and
    every hand its size."""
    hands = np.array([mask(0, 1, 2), mask(10, 11, 12), mask(20, 21, 22), mask(5, 30, 31)],
                     dtype=np.uint64)
    kn = np.zeros(NKN, dtype=np.uint64)
    kn[KN_POOL] = mask(5, 10, 11, 12, 20, 21, 22, 30, 31, 40, 41)  # two cards in no hand
    kn[KN_KNOWN + 3] = mask(5)
    drawn = worlds(hands, 0, kn)
    assert all(w is not None for w in drawn)
    for w in drawn:
        assert w[3] & mask(5) and not (w[1] | w[2]) & mask(5)
        assert [popcount(w[s]) for s in range(4)] == [3, 3, 3, 3]
        assert (w[1] & w[2]) == 0 and (w[1] | w[2]) & w[3] == 0


def test_a_seat_left_only_the_cards_it_needs_gets_them_first():
    """Seat 3 may hold only the 4 pool cards of one suit (void in the others) and needs 4:
    dealt last, seats 1 and 2 took some of them in nearly every draw (a King endgame drew a
    sound world 3 times in 100, then broke the voids)."""
    suit = [16 * 2 + r for r in range(4)]
    others = [r for r in range(12)] + [16 + r for r in range(4)]
    hands = np.array([mask(50, 51, 52, 53), mask(*others[:4]), mask(*others[4:8]),
                      mask(*suit)], dtype=np.uint64)
    kn = np.zeros(NKN, dtype=np.uint64)
    kn[KN_POOL] = mask(*suit, *others[:8], *others[8:12])
    kn[KN_FORBID + 3] = ~mask(*suit)  # void in every other suit
    drawn = worlds(hands, 0, kn)
    assert all(w is not None and w[3] == mask(*suit) for w in drawn)


def test_a_minimum_the_hand_cannot_hold_fails_the_draw():
    """A count the knowledge overstates (more trumps than the hand has cards) is a failed
    draw, to be relaxed, never an oversized hand."""
    hands = np.array([mask(0), mask(10, 11), mask(20), mask(30)], dtype=np.uint64)
    kn = np.zeros(NKN, dtype=np.uint64)
    kn[KN_POOL] = mask(10, 11, 20, 30, 48, 49, 50)
    kn[KN_MIN + 1] = np.uint64(3)
    from analyzer.games.search.setup import KN_MIN_MASK

    kn[KN_MIN_MASK] = mask(48, 49, 50)
    assert all(w is None for w in worlds(hands, 0, kn, draws=20))
    relaxed = worlds(hands, 0, kn, draws=20, relax=1)
    assert all(w is not None and popcount(w[1]) == 2 for w in relaxed)


def test_dumped_trumps_lower_the_count_a_seat_is_known_to_hold():
    kn = np.zeros(NKN, dtype=np.uint64)
    kn[KN_MIN + 2] = np.uint64(7)
    note_lost(kn, 2, 2)
    assert kn[KN_MIN + 2] == 5
    note_lost(kn, 2, 9)
    assert kn[KN_MIN + 2] == 0


def test_the_left_pedros_gap_is_no_card_of_the_normalised_deck():
    from analyzer.games.pedro.core import left_pedro_gap, normalise
    from analyzer.games.pedro.search import ALL_CARDS

    deck = np.uint64(0x1FFF_1FFF_1FFF_1FFF)
    for trump in range(4):
        dealt = normalise(deck, trump)
        assert popcount(dealt) == 52
        assert dealt | left_pedro_gap(trump) == ALL_CARDS
        assert not dealt & left_pedro_gap(trump)


def test_every_seats_discards_are_seen_by_all():
    from analyzer.games.pedro.search import ALL_CARDS, unseen_by

    kn = np.zeros(NKN, dtype=np.uint64)
    for s in range(4):
        kn[KN_DISCARDS + s] = mask(4 * s, 4 * s + 1)
    own = mask(48, 49)
    pool = unseen_by(own, False, mask(50), mask(51), kn, mask(52))
    discarded = mask(*(c for s in range(4) for c in (4 * s, 4 * s + 1)))
    assert pool == ALL_CARDS & ~discarded & ~mask(48, 49, 50, 51)
    assert unseen_by(own, True, mask(50), mask(51), kn, mask(52)) == pool & ~mask(52)


def test_pimc_values_the_low_as_its_seat_can_know_it():
    """Under highest_lowest_in_play the Low is the lowest trump in play. A pimc seat cannot
    tell a trump left in the stock from one in an opponent's hand, so it takes the lowest
    it has not seen out of play: what it may think in play is its own trumps, those played
    and those not known out, whatever the other hands hold."""
    from analyzer.games.pedro.core import TRUMPS
    from analyzer.games.pedro.engine import _possible_trumps

    trumps = [48 + r for r in range(14)]
    hand, seen, dead, robbed = mask(trumps[5]), mask(trumps[7]), mask(trumps[0]), mask(trumps[1])
    possible = _possible_trumps(hand, seen, dead, False, robbed)
    assert possible == TRUMPS & ~dead  # the stock's trump may be in a hand, for all it knows
    assert _possible_trumps(hand, seen, dead, True, robbed) == TRUMPS & ~dead & ~robbed
