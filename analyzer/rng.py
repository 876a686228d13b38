"""Counter-based randomness: deal ``i`` of seed ``s`` is a pure function of (s, i).

Every random number a kernel uses comes from a *stream* keyed by
``(seed, deal index, stream id)``; output ``k`` of a stream is
``mix64(key + (k + 1) * GOLDEN)``, the SplitMix64 finaliser applied to a
counter. Nothing depends on thread count, chunk size, machine or the order in
which deals are simulated, so runs split across threads, processes or cluster
workers reproduce a single-threaded run bit for bit.

Stream ids keep independent purposes apart so that changing one never shifts
another: the cards of a deal come from ``DEAL_STREAM + attempt`` (attempt > 0
only after a redeal) and are therefore identical under every rule variant and
policy; decisions of the ``random`` policy come from ``POLICY_STREAM``.

State is a single uint64 (the counter), held by the caller in a one-slot
array so that helpers can advance it without returning tuples.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

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


@njit(types.void(types.uint64[:], types.int64[:], types.int64, types.int64), cache=True)
def shuffle_range(state, a, lo, hi):
    """Forward Fisher-Yates shuffle of ``a[lo:hi]`` in place, exactly uniform.

    Step i swaps a[i] with a[i + j], j uniform in [0, hi - i). Each 64-bit output
    feeds four steps with 16-bit Lemire draws; a draw in the (at most n/65536)
    biased zone takes a fresh 64-bit output instead, so the permutation is
    exactly uniform while costing about a quarter of a hash per card. Positions
    are final in order, so a[lo:lo + k] is settled after k steps. Taking bounds
    rather than a slice keeps array views (and their reference counts) off the
    per-deal path.
    """
    ctr = state[0]
    i = lo
    while i < hi - 1:
        ctr += GOLDEN
        r = mix64(ctr)
        for q in range(4):
            if i >= hi - 1:
                break
            n = np.uint64(hi - i)
            m = ((r >> np.uint64(16 * q)) & _MASK16) * n
            if (m & _MASK16) < n:  # maybe in the biased zone: reject below the threshold
                threshold = (np.uint64(65536) - n) % n
                while (m & _MASK16) < threshold:
                    ctr += GOLDEN
                    m = (mix64(ctr) & _MASK16) * n
            j = i + np.int64(m >> np.uint64(16))
            tmp = a[i]
            a[i] = a[j]
            a[j] = tmp
            i += 1
    state[0] = ctr


@njit(types.void(types.uint64[:], types.int64[:]), cache=True)
def shuffle(state, a):
    """Shuffle all of ``a`` (see shuffle_range)."""
    shuffle_range(state, a, 0, a.shape[0])
