"""pimc draws its worlds uniformly among those its seat's knowledge allows (session of
2026-12-07, eighteenth), each test failing on the sampler before: it dealt the seats one
after another, the one with the least to spare first, and a seat known to hold at least m
cards of a set got m of them first and then the rest from everything. Both weigh some
worlds above others: the minimum over-weights hands with more of the set than it asks, and
the seat dealt first takes cards that a seat dealt later needed.

Each case is small enough to list every world the constraints allow by brute force (pure
Python); the sampler's draws from a fixed seed are then held to the uniform distribution
over that list by a chi-square test (p above 0.001), and the mean count of the set's cards
in the constrained seat to its uniform mean within 4 standard errors.
"""

from __future__ import annotations

import math
from collections import Counter
from itertools import combinations

import numpy as np
import pytest

from analyzer.games.search.pimc import sample_world
from analyzer.games.search.setup import KN_FORBID, KN_KNOWN, KN_MIN, KN_MIN_MASK, KN_POOL, NKN


def mask(*cards: int) -> np.uint64:
    return np.uint64(sum(1 << c for c in cards))


def cards_of(m) -> list[int]:
    return [c for c in range(64) if int(m) >> c & 1]


def all_worlds(hands, seat, kn, relax=0) -> list[tuple[int, int, int]]:
    """Every world ``kn`` allows (the hands of seat + 1, + 2, + 3), by brute force."""
    others = [(seat + k) & 3 for k in (1, 2, 3)]
    known = {t: int(kn[KN_KNOWN + t]) for t in others}
    pool = int(kn[KN_POOL])
    for t in others:
        pool &= ~known[t]
    need = {t: bin(int(hands[t])).count("1") - bin(known[t]).count("1") for t in others}
    sets = int(kn[KN_MIN_MASK])
    out = []

    def fill(k, left, got):
        if k == 3:
            out.append(tuple(got))
            return
        t = others[k]
        allowed = left if relax >= 2 else left & ~int(kn[KN_FORBID + t])
        for pick in combinations(cards_of(allowed), need[t]):
            hand = known[t] | sum(1 << c for c in pick)
            if relax < 1 and bin(hand & sets).count("1") < int(kn[KN_MIN + t]):
                continue
            fill(k + 1, left & ~hand, got + [hand])

    fill(0, pool, [])
    return out


def draws(hands, seat, kn, n, relax=0, seed=20261207) -> list[tuple[int, int, int] | None]:
    """``n`` worlds drawn from a fixed seed (None: the draw failed), a failed draw redrawn
    up to 40 times as pimc did before it counted the worlds (its MAX_ATTEMPTS): the worlds
    pimc played are the draws that succeeded."""
    prng = np.array([seed], dtype=np.uint64)
    world = np.zeros(4, dtype=np.uint64)
    out = []
    for _ in range(n):
        ok = False
        for _ in range(40):
            ok = sample_world(hands, seat, kn, relax, prng, world)
            if ok:
                break
        assert not ok or world[seat] == hands[seat]
        out.append(tuple(int(world[(seat + k) & 3]) for k in (1, 2, 3)) if ok else None)
    return out


def chi2_sf(x: float, df: int) -> float:
    """P(chi-square with ``df`` degrees of freedom > x): the regularized upper incomplete
    gamma Q(df/2, x/2), by its series below a + 1 and its continued fraction above."""
    a, z = df / 2.0, x / 2.0
    if z <= 0.0:
        return 1.0
    log_front = a * math.log(z) - z - math.lgamma(a)
    if z < a + 1.0:
        term = total = 1.0 / a
        k = a
        while abs(term) > 1e-15 * abs(total):
            k += 1.0
            term *= z / k
            total += term
        return 1.0 - total * math.exp(log_front)
    tiny = 1e-300
    b = z + 1.0 - a
    c, d = 1.0 / tiny, 1.0 / b
    h = d
    i = 1
    while True:
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1.0 / d
        step = d * c
        h *= step
        if abs(step - 1.0) < 1e-15:
            break
        i += 1
    return math.exp(log_front) * h


def test_the_chi_square_tail_is_right():
    # chi-square's 0.999 quantiles (tables): 10.828 (1 df), 29.588 (10 df), 86.661 (50 df)
    for q, df in ((10.828, 1), (29.588, 10), (86.661, 50)):
        assert chi2_sf(q, df) == pytest.approx(0.001, rel=2e-3)
    assert chi2_sf(2.0, 2) == pytest.approx(math.exp(-1.0))


def uniform_p(worlds, drawn) -> float:
    """The chi-square p-value of ``drawn`` (every one a world of ``worlds``) against the
    uniform distribution over ``worlds``."""
    assert len(set(worlds)) == len(worlds)
    allowed = set(worlds)
    assert all(w in allowed for w in drawn), "a drawn world breaks the constraints"
    counts = Counter(drawn)
    expected = len(drawn) / len(worlds)
    assert expected >= 5  # the chi-square approximation holds
    stat = sum((counts[w] - expected) ** 2 / expected for w in worlds)
    return chi2_sf(stat, len(worlds) - 1)


def knowledge(pool, forbid=None, known=None, minimum=None, sets=()):
    kn = np.zeros(NKN, dtype=np.uint64)
    kn[KN_POOL] = mask(*pool)
    for t, cards in (forbid or {}).items():
        kn[KN_FORBID + t] = mask(*cards)
    for t, cards in (known or {}).items():
        kn[KN_KNOWN + t] = mask(*cards)
    for t, m in (minimum or {}).items():
        kn[KN_MIN + t] = np.uint64(m)
    kn[KN_MIN_MASK] = mask(*sets)
    return kn


def seat_hands(sizes, own=(50, 51, 52)) -> np.ndarray:
    """Hands of the sizes given; seat 0 holds ``own``, the others placeholders (only their
    sizes count)."""
    hands = np.zeros(4, dtype=np.uint64)
    hands[0] = mask(*own)
    for t in (1, 2, 3):
        hands[t] = mask(*range(40 + 3 * t, 40 + 3 * t + sizes[t]))
    return hands


# Trumps 0..3 (the set), plain cards 10..14 in two suits, as Pedro would: seat 1 kept 2
# trumps, seat 3 showed a void in the suit of cards 10..12.
TRUMPS = (0, 1, 2, 3)
MIN_CASE = dict(pool=(*TRUMPS, 10, 11, 12, 13, 14), forbid={3: (10, 11, 12)}, minimum={1: 2},
                sets=TRUMPS)


def test_a_minimum_count_and_a_void_are_drawn_uniformly():
    hands = seat_hands({1: 3, 2: 3, 3: 3})
    kn = knowledge(**MIN_CASE)
    worlds = all_worlds(hands, 0, kn)
    drawn = draws(hands, 0, kn, 60 * len(worlds))
    assert uniform_p(worlds, drawn) > 0.001


def test_the_minimum_does_not_over_weight_the_sets_cards():
    """Seat 1 is known to hold 2 of the 6 trumps; the others are dealt from a larger pool
    with undealt cards (Pedro's stock): its mean count of trumps is the uniform one."""
    trumps = tuple(range(6))
    pool = (*trumps, *range(10, 16))
    hands = seat_hands({1: 4, 2: 3, 3: 3})
    kn = knowledge(pool, minimum={1: 2}, sets=trumps)
    worlds = all_worlds(hands, 0, kn)
    counts = [bin(w[0] & int(mask(*trumps))).count("1") for w in worlds]
    mean = sum(counts) / len(counts)
    sd = math.sqrt(sum((x - mean) ** 2 for x in counts) / len(counts))
    n = 20_000
    got = [bin(w[0] & int(mask(*trumps))).count("1") for w in draws(hands, 0, kn, n)]
    assert abs(sum(got) / n - mean) < 4 * sd / math.sqrt(n), (sum(got) / n, mean)


def test_voids_a_known_card_and_undealt_cards_are_drawn_uniformly():
    """Seats 2 and 3 are void in one suit each, seat 3 is known to hold card 20 (Rook's
    passed card), and two pool cards stay undealt: the seats' order of dealing must not
    weigh the worlds."""
    pool = (0, 1, 2, 3, 10, 11, 12, 13, 20, 21)
    hands = seat_hands({1: 3, 2: 2, 3: 3})
    kn = knowledge(pool, forbid={2: (0, 1, 2, 3), 3: (10, 11, 12, 13)}, known={3: (20,)})
    worlds = all_worlds(hands, 0, kn)
    drawn = draws(hands, 0, kn, 40 * len(worlds))
    assert uniform_p(worlds, drawn) > 0.001


@pytest.mark.parametrize("seat", [1, 2, 3])
def test_every_seat_may_be_the_one_searching(seat):
    pool = [c for c in (0, 1, 2, 3, 10, 11, 12, 13, 14)]
    sizes = {t: 3 for t in range(4)}
    hands = seat_hands(sizes)
    hands[seat], hands[0] = hands[0], hands[seat]
    a, b = (seat + 1) & 3, (seat + 2) & 3
    kn = knowledge(pool, forbid={a: (10, 11, 12)}, minimum={b: 2}, sets=(0, 1, 2, 3))
    worlds = all_worlds(hands, seat, kn)
    assert uniform_p(worlds, draws(hands, seat, kn, 50 * len(worlds))) > 0.001


def test_no_world_fails_the_draw_and_relaxing_draws_uniformly():
    """Seat 1 must hold 3 trumps, but its void in the trumps' suit leaves it none: no world.
    relax=1 drops the minimum (the void stays), relax=2 the void as well; each is uniform over
    its own worlds."""
    hands = seat_hands({1: 3, 2: 2, 3: 2})
    kn = knowledge((0, 1, 2, 10, 11, 12, 13, 14), forbid={1: (0, 1, 2)}, minimum={1: 3},
                   sets=(0, 1, 2))
    assert all_worlds(hands, 0, kn) == []
    assert all(w is None for w in draws(hands, 0, kn, 20))
    for relax in (1, 2):
        worlds = all_worlds(hands, 0, kn, relax)
        assert worlds
        drawn = draws(hands, 0, kn, 30 * len(worlds), relax=relax)
        assert uniform_p(worlds, drawn) > 0.001


def test_the_tables_count_the_worlds():
    """The number of worlds the tables hold is the brute-force one; none: no draw."""
    from analyzer.games.search.pimc import count_worlds, draw_world, world_count

    hands = seat_hands({1: 3, 2: 2, 3: 2})
    kn = knowledge((0, 1, 2, 10, 11, 12, 13, 14), forbid={1: (0, 1, 2)}, minimum={1: 3},
                   sets=(0, 1, 2))
    counted = count_worlds(hands, 0, kn, 0)
    assert world_count(counted[3]) == 0
    world = np.zeros(4, dtype=np.uint64)
    assert not draw_world(hands, 0, kn, *counted, np.array([1], dtype=np.uint64), world)
    for relax in (1, 2):
        assert world_count(count_worlds(hands, 0, kn, relax)[3]) == len(all_worlds(
            hands, 0, kn, relax))
    for case in (MIN_CASE, dict(pool=range(12), forbid={2: (0, 1, 2, 3)}, known={1: (5,)},
                                minimum={3: 2}, sets=(0, 1, 2, 3, 4))):
        kn = knowledge(**case)
        hands = seat_hands({1: 3, 2: 3, 3: 3})
        assert world_count(count_worlds(hands, 0, kn, 0)[3]) == len(all_worlds(hands, 0, kn))


def test_the_count_is_exact_for_full_hands():
    """13 cards to each of three seats from 39 (King's deal seen by one seat): 39! / 13!^3
    worlds, about 8.4e16, past a float's 53 bits but held to a part in 1e15."""
    from analyzer.games.search.pimc import count_worlds, world_count

    hands = np.zeros(4, dtype=np.uint64)
    for t in range(4):
        hands[t] = mask(*range(13 * t, 13 * t + 13))
    kn = knowledge(range(13, 52))
    count = world_count(count_worlds(hands, 0, kn, 0)[3])
    exact = math.factorial(39) // math.factorial(13) ** 3
    assert count == pytest.approx(exact, rel=1e-14)
    world = np.zeros(4, dtype=np.uint64)
    prng = np.array([7], dtype=np.uint64)
    assert sample_world(hands, 0, kn, 0, prng, world)
    assert [bin(int(world[t])).count("1") for t in range(4)] == [13] * 4
    assert int(world[1] | world[2] | world[3]) == int(kn[KN_POOL])
