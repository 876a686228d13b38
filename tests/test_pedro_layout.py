"""The trump-normalised layout (analyzer.games.pedro.core) against its card tables."""

import numpy as np
import pytest
from numba import njit

from analyzer.games.pedro.core import NORM, denormalise, highest_plain, lowest_plain, normalise

RNG = np.random.default_rng(3)
DECK = 0x1FFF_1FFF_1FFF_1FFF
MASKS = [int(x) & DECK for x in RNG.integers(0, 2**63, size=2000, dtype=np.uint64)]
MASKS += [1 << (16 * s + r) for s in range(4) for r in range(13)] + [0, DECK]


@njit
def _both(masks, trump, out):
    for i in range(masks.shape[0]):
        out[i, 0] = normalise(masks[i], trump)
        out[i, 1] = denormalise(out[i, 0], trump)


def test_normalise_moves_every_card_as_the_table_says_and_denormalise_undoes_it():
    masks = np.array(MASKS, dtype=np.uint64)
    out = np.empty((len(masks), 2), dtype=np.uint64)
    for trump in range(4):
        _both(masks, trump, out)
        for i, m in enumerate(MASKS):
            want = sum(1 << int(NORM[trump, c]) for c in range(64) if m >> c & 1)
            assert int(out[i, 0]) == want, (trump, hex(m))
            assert int(out[i, 1]) == m, (trump, hex(m))


@njit
def _lowest_plain_all(masks, out):
    for i in range(masks.shape[0]):
        out[i] = lowest_plain(masks[i])


def test_lowest_plain_is_the_lowest_rank_then_the_lowest_suit():
    plain_lanes = 0x1FFF_1FFF_1FFF
    masks = [m & plain_lanes for m in MASKS if m & plain_lanes]
    out = np.empty(len(masks), dtype=np.int64)
    _lowest_plain_all(np.array(masks, dtype=np.uint64), out)
    for m, got in zip(masks, out, strict=True):
        cards = [c for c in range(48) if m >> c & 1]
        want = min(cards, key=lambda c: (c % 16, c // 16))
        assert got == want, hex(m)
        assert lowest_plain(np.uint64(m)) == want  # through the dispatcher too


@njit
def _highest_plain_all(masks, k, out):
    for i in range(masks.shape[0]):
        out[i] = highest_plain(masks[i], k)


@pytest.mark.parametrize("k", [0, 1, 2, 3, 5, 13, 40])
def test_highest_plain_takes_the_top_ranks_then_the_higher_suits(k):
    plain_lanes = 0x1FFF_1FFF_1FFF
    masks = [m & plain_lanes for m in MASKS]
    out = np.empty(len(masks), dtype=np.uint64)
    _highest_plain_all(np.array(masks, dtype=np.uint64), k, out)
    for m, got in zip(masks, out, strict=True):
        cards = sorted((c for c in range(48) if m >> c & 1), key=lambda c: (c % 16, c // 16))
        want = sum(1 << c for c in cards[::-1][:k])
        assert int(got) == want, (hex(m), k)
