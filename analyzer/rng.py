"""Counter-based randomness: deal ``i`` of seed ``s`` is a pure function of (s, i).

Every random number a kernel uses comes from a *stream* keyed by
``(seed, deal index, stream id)``; output ``k`` of a stream is
``mix64(key + (k + 1) * GOLDEN)``, the SplitMix64 finaliser applied to a
counter. Nothing depends on thread count, chunk size, machine or the order in
which deals are simulated, so runs split across threads, processes or cluster
workers reproduce a single-threaded run bit for bit.

Stream ids keep independent purposes apart so that changing one never shifts
another: the cards of a deal come from ``DEAL_STREAM + attempt`` (attempt > 0
only after a redeal) and are therefore identical under every rule variant of
one deck and every policy; decisions of the ``random`` policy come from ``POLICY_STREAM``.

State is a single uint64 (the counter), held by the caller in a one-slot
array so that helpers can advance it without returning tuples.

May import: :mod:`.bits`, numpy and numba.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

from .bits import ONE, ZERO, lsb, nth_bit, popcount

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_SEED_SALT = np.uint64(0x5EED_B1D1_AB00_0001)
_STREAM_SALT = np.uint64(0xD1B54A32D192ED03)
_MASK32 = np.uint64(0xFFFF_FFFF)
_MASK16 = np.uint64(0xFFFF)

POLICY_STREAM = 1
DEAL_STREAM = 1 << 16  # + attempt number


@njit(types.uint64(types.uint64), cache=True)
def mix64(z):
    """SplitMix64 finaliser: a bijective, well-avalanched 64-bit hash."""
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@njit(types.uint64(types.int64, types.int64, types.int64), cache=True)
def stream_key(seed, index, stream):
    """Starting counter of stream ``stream`` of deal ``index`` under ``seed``."""
    k = mix64(np.uint64(seed) ^ _SEED_SALT)
    k = mix64(k + np.uint64(index) * GOLDEN)
    return mix64(k ^ (np.uint64(stream) * _STREAM_SALT))


@njit(types.uint64(types.uint64[:]), cache=True)
def next64(state):
    """Next 64 random bits of the stream whose counter is ``state[0]``."""
    state[0] += GOLDEN
    return mix64(state[0])


@njit(types.int64(types.uint64[:], types.int64), cache=True)
def uniform_int(state, n):
    """Unbiased integer in [0, n) for 1 <= n < 2**32 (Lemire's method with rejection)."""
    un = np.uint64(n)
    while True:
        m = (next64(state) >> np.uint64(32)) * un
        low = m & _MASK32
        if low >= un:
            return np.int64(m >> np.uint64(32))
        threshold = ((_MASK32 + np.uint64(1)) - un) % un
        if low >= threshold:
            return np.int64(m >> np.uint64(32))


@njit(cache=True, inline="always")
def _draw16(chunk, n, ctr):
    """An exactly uniform integer in [0, n), n <= 65536, from a 16-bit random ``chunk``.

    Lemire's multiply-shift; a draw in the (at most n/65536) biased zone takes
    fresh hashes of the counter ``ctr`` instead. Returns (the integer, ctr).
    """
    un = np.uint64(n)
    m = chunk * un
    if (m & _MASK16) < un:  # maybe in the biased zone: reject below the threshold
        threshold = (np.uint64(65536) - un) % un
        while (m & _MASK16) < threshold:
            ctr += GOLDEN
            m = (mix64(ctr) & _MASK16) * un
    return np.int64(m >> np.uint64(16)), ctr


@njit(types.int64(types.uint64[:], types.uint64, types.int64[:], types.int64), cache=True)
def shuffle_cards(state, pool, a, lo):
    """The cards (bit indices) of mask ``pool`` in a uniformly random order, into ``a[lo:]``.

    Returns how many (the popcount of ``pool``). This is a forward Fisher-Yates
    shuffle over a bit mask: step i puts the j-th lowest card still in the pool
    at a[lo + i], j uniform in [0, n - i), and takes it out of the pool (one
    PDEP where the CPU has a fast one, see ``bits.nth_bit``). Each 64-bit hash
    feeds four steps with 16-bit draws (:func:`_draw16`), so a card costs about
    a quarter of a hash. Positions are final in order, so a[lo:lo + k] is
    settled after k steps, and the last card costs no draw. Working on the mask
    keeps the deck array out of the dependency chain: only the pool is carried
    from step to step.
    """
    n = popcount(pool)
    ctr = state[0]
    i = 0
    while i < n - 1:
        ctr += GOLDEN
        r = mix64(ctr)
        for q in range(4):
            if i >= n - 1:
                break
            j, ctr = _draw16((r >> np.uint64(16 * q)) & _MASK16, n - i, ctr)
            card = nth_bit(pool, j)
            pool ^= card
            a[lo + i] = lsb(card)
            i += 1
    if n > 0:
        a[lo + n - 1] = lsb(pool)
    state[0] = ctr
    return n


@njit(types.uint64(types.uint64[:], types.uint64, types.int64, types.uint64[:]), cache=True)
def deal_hands(state, pool, hand_size, hands):
    """Deal ``hand_size`` cards of mask ``pool`` to each of hands[0..3]; returns the rest.

    Each hand is drawn like :func:`shuffle_cards` draws, from fresh hashes (so a
    hand of 13 leaves three 16-bit chunks unused), straight into a mask: no
    array, and the only value carried from card to card is the pool.
    """
    n = popcount(pool)
    ctr = state[0]
    for s in range(4):
        h = ZERO
        k = 0
        while k < hand_size:
            ctr += GOLDEN
            r = mix64(ctr)
            for q in range(4):
                if k >= hand_size:
                    break
                j, ctr = _draw16((r >> np.uint64(16 * q)) & _MASK16, n, ctr)
                card = nth_bit(pool, j)
                pool ^= card
                h |= card
                n -= 1
                k += 1
        hands[s] = h
    state[0] = ctr
    return pool


@njit(types.void(types.uint64[:], types.int64[:]), cache=True)
def shuffle(state, a):
    """Shuffle all of ``a`` (at most 64 items) in place: ``a`` permuted by the order in
    which :func:`shuffle_cards` deals the positions 0..n-1."""
    n = a.shape[0]
    order = np.empty(n, dtype=np.int64)
    pool = (ONE << np.uint64(n)) - ONE if n < 64 else ~ZERO
    shuffle_cards(state, pool, order, 0)
    b = a.copy()
    for k in range(n):
        a[k] = b[order[k]]
