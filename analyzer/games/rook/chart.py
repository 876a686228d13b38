"""The Rook bid chart's features and bidding ladder (:mod:`analyzer.bidchart` does the
rest): every seat's 13 dealt cards, classed by their longest suit.

Rook features (of the longest suit, ties to the higher cards):

=========  ====================================================
trumps     cards of that suit held, the Rook included (<=4, 5, 6, 7, 8+)
counters   counter points held (<=25, 30-45, 50-65, 70+)
aces       aces held (0, 1, 2, 3+)
rook       holds the Rook
seat, dealer   as for Pedro
=========  ====================================================

May import: the generic bid chart, this game's rules and outcomes.
"""

from __future__ import annotations

import numpy as np

from ...chart_features import (
    DEALER_FEATURE,
    SEAT_FEATURE,
    YES_NO,
    ChartGame,
    Feature,
    bin_index,
    bit_of,
)
from .outcomes import rook_seat_batch
from .rules import POINT_SCHEMES

ROOK_FEATURES: dict[str, Feature] = {
    "trumps": Feature(("<=4", "5", "6", "7", "8+"), "cards of the longest suit, the Rook "
                      "included"),
    "counters": Feature(("<=25", "30-45", "50-65", "70+"), "counter points held in every "
                        "suit, the Rook's included"),
    "aces": Feature(("0", "1", "2", "3+"), "aces held", unclear=("counters",)),
    "rook": Feature(YES_NO, "holds the Rook", implies=("trumps",), unclear=("counters",)),
    "seat": SEAT_FEATURE,
    "dealer": DEALER_FEATURE,
}


ROOK_FEATURE_NAMES = tuple(ROOK_FEATURES)


ROOK_DEFAULT_BY = ("trumps", "counters", "rook", "seat")


def longest_suit(hands: np.ndarray) -> np.ndarray:
    """The longest suit of each hand, ties to the one with the higher cards (Rook's best
    suit: what its heuristic calls from these cards)."""
    lanes = (np.asarray(hands, dtype=np.uint64)[:, None] >> (np.arange(4, dtype=np.uint64)
                                                             * np.uint64(16))) \
        & np.uint64(0x1FFF)
    score = (np.bitwise_count(lanes).astype(np.int64) << 13) | lanes.astype(np.int64)
    return np.argmax(score, axis=1)


def rook_codes(hands: np.ndarray, offsets: np.ndarray, rules) -> dict:
    """Bin codes of every Rook feature for hands of 13 dealt cards."""
    hands = np.asarray(hands, dtype=np.uint64)
    rook = bit_of(hands, 63)
    suit = longest_suit(hands).astype(np.uint64)
    lane = (hands >> (np.uint64(16) * suit)) & np.uint64(0x1FFF)
    ranks, rook_pts, _, _ = POINT_SCHEMES[rules.points]
    points = rook * rook_pts
    aces = np.zeros(len(hands), dtype=np.int64)
    for s in range(4):
        aces += bit_of(hands, 16 * s + 12)
        for r, p in enumerate(ranks):
            if p:
                points = points + p * bit_of(hands, 16 * s + r)
    offsets = np.asarray(offsets, dtype=np.int64)
    return {"trumps": bin_index(np.bitwise_count(lane).astype(np.int64) + rook, [5, 6, 7, 8]),
            "counters": bin_index(points, [30, 50, 70]), "aces": bin_index(aces, [1, 2, 3]),
            "rook": rook, "seat": offsets, "dealer": (offsets == 0).astype(np.int64)}



def chart_game(rules) -> ChartGame:
    """The chart's view of Rook under ``rules``: "bid up to b" for every b of the rules."""
    bids = tuple(rules.bids)

    def batch(seed, pols, first, n):
        hands, sole, values = rook_seat_batch(rules, seed, pols, first, n)
        return rook_codes(hands.ravel(), np.tile(np.arange(4), n), rules), sole, values

    return ChartGame(ROOK_FEATURES, ROOK_DEFAULT_BY, bids,
                     ("pass", *(f"bid up to {b}" for b in bids)), rules.total_points, 5, batch)
