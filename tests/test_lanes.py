"""Suit-lane helpers (analyzer.games.kit.lanes) against naive loops over the cards."""

import numpy as np
from numba import njit

from analyzer.games.kit.lanes import fold, highest_card, lowest_card, suit_tops

RNG = np.random.default_rng(11)
# random card masks (the joker, bit 63, in some), sparse and dense, and every single card
MASKS = np.concatenate([
    RNG.integers(0, 2**63, size=3000, dtype=np.uint64) & np.uint64(0x9FFF_1FFF_1FFF_1FFF),
    np.array([(1 << c) for s in range(4) for c in range(16 * s, 16 * s + 13)], dtype=np.uint64),
    np.array([int(x) & int(y) for x, y in RNG.integers(0, 2**63, size=(2000, 2),
                                                       dtype=np.uint64)], dtype=np.uint64)
    & np.uint64(0x9FFF_1FFF_1FFF_1FFF),
])


@njit
def _all(masks, out):
    for i in range(masks.shape[0]):
        m = masks[i]
        out[i, 0] = fold(m)
        out[i, 1] = suit_tops(m)
        plain = m & np.uint64(0x1FFF_1FFF_1FFF_1FFF)
        out[i, 2] = lowest_card(plain) if plain else 99
        out[i, 3] = highest_card(plain) if plain else 99


def _cards(m: int) -> list[int]:
    return [c for c in range(63) if m >> c & 1 and (c & 15) < 13]


def test_lane_helpers_match_naive():
    out = np.empty((len(MASKS), 4), dtype=np.uint64)
    _all(MASKS, out)
    for i, m in enumerate(MASKS.tolist()):
        cards = _cards(m)
        ranks = {c & 15 for c in cards}
        assert int(out[i, 0]) == sum(1 << r for r in ranks), hex(m)
        tops = [max((c for c in cards if c >> 4 == s), default=None) for s in range(4)]
        assert int(out[i, 1]) == sum(1 << c for c in tops if c is not None), hex(m)
        if cards:  # ties between suits go to the first suit, C D H S
            low = min(cards, key=lambda c: (c & 15, c >> 4))
            high = min(cards, key=lambda c: (-(c & 15), c >> 4))
            assert (int(out[i, 2]), int(out[i, 3])) == (low, high), hex(m)
