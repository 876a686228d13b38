"""Counter-based randomness (analyzer.rng): determinism, independence and uniformity.

Statistical tests use fixed seeds and chi-square critical values at a small alpha,
computed with the Wilson-Hilferty normal approximation (scipy is not a dependency).
"""

import itertools
import math
from statistics import NormalDist

import numpy as np
import pytest

from analyzer import rng
from analyzer.rng import (
    DEAL_STREAM,
    GOLDEN,
    POLICY_STREAM,
    deal_hands,
    mix64,
    next64,
    shuffle,
    shuffle_cards,
    stream_key,
    uniform_int,
)

ALPHA = 1e-4
U64 = 2**64


def chi2_critical(df: int, alpha: float = ALPHA) -> float:
    """Upper-alpha critical value of chi-square(df), Wilson-Hilferty approximation."""
    z = NormalDist().inv_cdf(1 - alpha)
    h = 2 / (9 * df)
    return df * (1 - h + z * math.sqrt(h)) ** 3


def chi2_stat(counts, expected) -> float:
    counts = np.asarray(counts, dtype=float)
    expected = np.broadcast_to(np.asarray(expected, dtype=float), counts.shape)
    return float(((counts - expected) ** 2 / expected).sum())


def test_chi2_critical_is_sane():
    # chi-square(2) has the closed form -2 ln(alpha); Wilson-Hilferty is close and a bit high
    exact = -2 * math.log(ALPHA)
    assert exact <= chi2_critical(2) <= 1.1 * exact
    # large df: mean df, sd sqrt(2 df), so the critical value is about df + z sqrt(2 df)
    z = NormalDist().inv_cdf(1 - ALPHA)
    assert chi2_critical(10_000) == pytest.approx(10_000 + z * math.sqrt(20_000), rel=2e-3)


def _state(seed, index, stream):
    return np.array([stream_key(seed, index, stream)], dtype=np.uint64)


def _outputs(seed, index, stream, k):
    s = _state(seed, index, stream)
    return [int(next64(s)) for _ in range(k)]


# ---- determinism -----------------------------------------------------------------------


def test_stream_key_is_a_pure_function_of_pinned_values():
    """The same key in any order of calls (no hidden state), and the very keys of the
    version whose deals the golden digests pin: a changed key changes every deal."""
    pinned = {(0, 0, 0): 0xC4484194E98C17BA, (1, 2, 3): 0x32F491F62CB517E1,
              (2**62, 10**12, DEAL_STREAM + 5): 0x5FC2498A563C538E,
              (-7, 3, POLICY_STREAM): 0xF4EA14AB1C5AECFC}
    for args in [*pinned, *reversed(pinned)]:
        assert int(stream_key(*args)) == pinned[args], args


def test_next64_is_deterministic_and_counter_based():
    a = _outputs(42, 17, DEAL_STREAM, 50)
    assert a == _outputs(42, 17, DEAL_STREAM, 50)
    # documented form: output k of a stream is mix64(key + (k + 1) * GOLDEN)
    key = int(stream_key(42, 17, DEAL_STREAM))
    want = [int(mix64(np.uint64((key + (k + 1) * int(GOLDEN)) % U64))) for k in range(50)]
    assert a == want
    s = _state(42, 17, DEAL_STREAM)
    next64(s)
    assert int(s[0]) == (key + int(GOLDEN)) % U64


def test_next64_resumes_from_saved_state():
    s = _state(3, 4, 5)
    first = [int(next64(s)) for _ in range(10)]
    saved = s.copy()
    rest = [int(next64(s)) for _ in range(10)]
    assert [int(next64(saved)) for _ in range(10)] == rest
    assert first + rest == _outputs(3, 4, 5, 20)


def test_uniform_int_and_shuffle_are_deterministic():
    s1, s2 = _state(9, 99, POLICY_STREAM), _state(9, 99, POLICY_STREAM)
    assert [uniform_int(s1, 52) for _ in range(200)] == [uniform_int(s2, 52) for _ in range(200)]
    a, b = np.arange(52, dtype=np.int64), np.arange(52, dtype=np.int64)
    shuffle(_state(9, 99, DEAL_STREAM), a)
    shuffle(_state(9, 99, DEAL_STREAM), b)
    assert np.array_equal(a, b)


def test_mix64_is_a_bijection_on_a_sample():
    xs = np.random.default_rng(1).integers(0, U64, size=20_000, dtype=np.uint64)
    xs = np.unique(np.concatenate([xs, np.arange(100, dtype=np.uint64)]))
    assert len({int(mix64(x)) for x in xs}) == len(xs)


# ---- different deals and streams differ --------------------------------------------------


def test_keys_differ_across_seeds_deals_and_streams():
    combos = list(
        itertools.product(
            range(5), range(200), [POLICY_STREAM, DEAL_STREAM, DEAL_STREAM + 1, DEAL_STREAM + 2]
        )
    )
    keys = {int(stream_key(s, i, t)) for s, i, t in combos}
    assert len(keys) == len(combos)


def test_neighbouring_streams_do_not_overlap():
    # a stream is a walk key + k * GOLDEN; neighbours must not share outputs
    outs = [set(_outputs(7, i, t, 64)) for i in range(20) for t in (POLICY_STREAM, DEAL_STREAM)]
    union = set().union(*outs)
    assert len(union) == 64 * len(outs)


def test_different_deals_shuffle_differently():
    decks = set()
    for i in range(500):
        a = np.arange(52, dtype=np.int64)
        shuffle(_state(1, i, DEAL_STREAM), a)
        decks.add(a.tobytes())
    assert len(decks) == 500
    a, b = np.arange(52, dtype=np.int64), np.arange(52, dtype=np.int64)
    shuffle(_state(1, 0, DEAL_STREAM), a)
    shuffle(_state(2, 0, DEAL_STREAM), b)
    assert not np.array_equal(a, b)


def test_next64_bits_are_balanced():
    # each of the 64 output bits is set about half the time (3 SE per bit at alpha ~1e-4 overall)
    n = 20_000
    s = _state(5, 0, POLICY_STREAM)
    xs = np.array([next64(s) for _ in range(n)], dtype=np.uint64)
    ones = np.array([int(((xs >> np.uint64(b)) & np.uint64(1)).sum()) for b in range(64)])
    z = (ones - n / 2) / math.sqrt(n / 4)
    zmax = NormalDist().inv_cdf(1 - ALPHA / 128)  # Bonferroni over 64 two-sided tests
    assert np.abs(z).max() < zmax


# ---- uniform_int -------------------------------------------------------------------------


@pytest.mark.parametrize("n", [1, 2, 3, 7, 52, 1000, 2**31 + 11, 2**32 - 1])
def test_uniform_int_range(n):
    s = _state(11, n % 1000, POLICY_STREAM)
    vals = [uniform_int(s, n) for _ in range(2000)]
    assert min(vals) >= 0 and max(vals) < n
    if n == 1:
        assert set(vals) == {0}
    if 2 <= n <= 52:
        assert set(vals) == set(range(n))


@pytest.mark.parametrize("n,draws", [(2, 20_000), (3, 30_000), (7, 70_000), (52, 104_000)])
def test_uniform_int_chi_square(n, draws):
    s = _state(2024, n, POLICY_STREAM)
    counts = np.bincount([uniform_int(s, n) for _ in range(draws)], minlength=n)
    assert len(counts) == n
    assert chi2_stat(counts, draws / n) < chi2_critical(n - 1)


def test_uniform_int_large_n_is_unbiased():
    # With n = 3 * 2**30 a plain multiply-shift of 32 random bits maps two inputs to every
    # value divisible by 3 and one to the others (P(v % 3 == 0) = 1/2); Lemire's rejection
    # step must restore 1/3 each.
    n, draws = 3 * 2**30, 60_000
    s = _state(77, 0, POLICY_STREAM)
    counts = np.bincount([uniform_int(s, n) % 3 for _ in range(draws)], minlength=3)
    assert chi2_stat(counts, draws / 3) < chi2_critical(2)


# ---- shuffle -----------------------------------------------------------------------------


@pytest.mark.parametrize("size", [0, 1, 2, 5, 52, 53])
def test_shuffle_is_a_permutation(size):
    for i in range(50):
        base = np.arange(100, 100 + size, dtype=np.int64)
        a = base.copy()
        shuffle(_state(3, i, DEAL_STREAM), a)
        assert sorted(a.tolist()) == base.tolist()


def test_shuffle_small_permutations_uniform():
    # all 3! = 6 orders of a 3-card array equally likely
    draws = 60_000
    counts = {}
    for i in range(draws):
        a = np.arange(3, dtype=np.int64)
        shuffle(_state(4, i, DEAL_STREAM), a)
        key = tuple(a.tolist())
        counts[key] = counts.get(key, 0) + 1
    assert len(counts) == 6
    assert chi2_stat(list(counts.values()), draws / 6) < chi2_critical(5)


@pytest.fixture(scope="module")
def positions():
    """pos[t, c] = position of card c after shuffle t, over 50k shuffles of one deal each."""
    n = 50_000
    pos = np.empty((n, 52), dtype=np.int64)
    for t in range(n):
        a = np.arange(52, dtype=np.int64)
        shuffle(_state(2718, t, DEAL_STREAM), a)
        pos[t, a] = np.arange(52)
    return pos


def test_shuffle_each_card_position_uniform(positions):
    n = len(positions)
    crit = chi2_critical(51, ALPHA / 52)  # Bonferroni over the 52 cards
    worst = 0.0
    for c in range(52):
        counts = np.bincount(positions[:, c], minlength=52)
        worst = max(worst, chi2_stat(counts, n / 52))
    assert worst < crit


def test_shuffle_each_position_holds_every_card_uniformly(positions):
    n = len(positions)
    crit = chi2_critical(51, ALPHA / 52)
    order = np.argsort(positions, axis=1)  # order[t, p] = card at position p
    worst = max(chi2_stat(np.bincount(order[:, p], minlength=52), n / 52) for p in range(52))
    assert worst < crit


def test_shuffle_pairs_of_positions_uniform(positions):
    # joint position of two cards (catches correlations between neighbouring 16-bit draws)
    n = len(positions)
    for c1, c2 in [(0, 1), (50, 51), (0, 51)]:
        cell = positions[:, c1] * 52 + positions[:, c2]
        counts = np.bincount(cell, minlength=52 * 52).reshape(52, 52)
        assert np.all(np.diag(counts) == 0)
        off = counts[~np.eye(52, dtype=bool)]
        assert chi2_stat(off, n / (52 * 51)) < chi2_critical(52 * 51 - 1, ALPHA / 3)


# ---- shuffling a mask and dealing hands ----------------------------------------------------

DECK_52 = 0x1FFF_1FFF_1FFF_1FFF
ROOK_DECK = DECK_52 | 1 << 63
NO_LOW = ROOK_DECK & ~(0x7 * 0x1_0001_0001_0001)  # Rook without the 2s, 3s and 4s


def _bits(m: int) -> list[int]:
    return [i for i in range(64) if m >> i & 1]


@pytest.mark.parametrize("pool", [0, 1 << 63, 0b1011, ROOK_DECK, NO_LOW])
def test_shuffle_cards_orders_exactly_the_pool(pool):
    a = np.full(130, -7, dtype=np.int64)
    for i in range(30):
        n = shuffle_cards(_state(5, i, DEAL_STREAM), np.uint64(pool), a, 60)
        assert n == len(_bits(pool))
        assert sorted(a[60:60 + n].tolist()) == _bits(pool)
        assert (a[:60] == -7).all() and (a[60 + n:] == -7).all()  # nothing else written


@pytest.mark.parametrize(("pool", "size"), [(ROOK_DECK, 13), (DECK_52, 9), (NO_LOW, 10), (0xFF, 2)])
def test_deal_hands_partitions_the_pool(pool, size):
    hands = np.zeros(4, dtype=np.uint64)
    for i in range(200):
        s = _state(6, i, DEAL_STREAM)
        before = int(s[0])
        rest = int(deal_hands(s, np.uint64(pool), size, hands))
        assert int(s[0]) != before  # the stream advanced
        hs = [int(h) for h in hands]
        assert [len(_bits(h)) for h in hs] == [size] * 4
        assert hs[0] | hs[1] | hs[2] | hs[3] | rest == pool
        assert sum(len(_bits(h)) for h in hs) + len(_bits(rest)) == len(_bits(pool))


@pytest.fixture(scope="module")
def rook_deals():
    """seat[t, c] = where card c of the 53 went in deal t (0-3 a hand, 4 the widow)."""
    n = 40_000
    cards = _bits(ROOK_DECK)
    where = np.empty((n, 53), dtype=np.int64)
    hands = np.zeros(4, dtype=np.uint64)
    for t in range(n):
        rest = int(deal_hands(_state(31, t, DEAL_STREAM), np.uint64(ROOK_DECK), 13, hands))
        owner = {c: 4 for c in _bits(rest)}
        for k in range(4):
            owner.update({c: k for c in _bits(int(hands[k]))})
        where[t] = [owner[c] for c in cards]
    return where


def test_deal_hands_sends_each_card_to_each_place_uniformly(rook_deals):
    n = len(rook_deals)
    expected = np.array([13, 13, 13, 13, 1]) / 53 * n
    crit = chi2_critical(4, ALPHA / 53)  # Bonferroni over the cards
    worst = max(chi2_stat(np.bincount(rook_deals[:, c], minlength=5), expected)
                for c in range(53))
    assert worst < crit


def test_deal_hands_pairs_of_cards_are_independent_as_in_a_shuffle(rook_deals):
    # P(two given cards in the same hand) = 4 * (13/53)(12/52); neighbouring cards in the
    # mask and cards drawn from the same 64-bit hash must show no correlation
    n = len(rook_deals)
    p = 4 * 13 * 12 / (53 * 52)
    for c1, c2 in [(0, 1), (12, 13), (0, 52), (25, 26)]:
        same = np.sum((rook_deals[:, c1] == rook_deals[:, c2]) & (rook_deals[:, c1] < 4))
        se = math.sqrt(n * p * (1 - p))
        assert abs(same - n * p) < 4.5 * se, (c1, c2, same, n * p)


def test_deal_stream_constants():
    # stream ids are disjoint purposes: policy decisions never shift the cards
    assert POLICY_STREAM != DEAL_STREAM
    assert DEAL_STREAM > POLICY_STREAM
    assert rng.DEAL_STREAM == 1 << 16
