"""The Pedro/Cinch bid chart's features and bidding ladder (:mod:`analyzer.bidchart` does
the rest): every seat's dealt hand, classed by the suit its policy names.

Pedro/Cinch features (of the suit the seat's policy names):

=========  ====================================================
trumps     trumps held, counting the Left Pedro (<=2, 3, 4, 5, 6+)
counters   how many of the six counting cards (A J 10 2 5 5')
pedros     how many Pedros (0, 1, 2)
ace, king, queen, jack, ten, two, right, left   holds that trump
seat       seat relative to the dealer (dealer, eldest, second, third)
dealer     the seat is the dealer (it robs the stock)
=========  ====================================================

May import: the generic bid chart, this game's outcomes and rules.
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
from .outcomes import pedro_seat_batch
from .rules import DEAL_POINTS

# Ranks in a suit lane of the shared layout (rank 2 at bit 0).
_RANK_BIT = {"ace": 12, "king": 11, "queen": 10, "jack": 9, "ten": 8, "two": 0, "right": 3}


_COUNTING = ("ace", "jack", "ten", "two", "right", "left", "pedros")


PEDRO_FEATURES: dict[str, Feature] = {
    "trumps": Feature(("<=2", "3", "4", "5", "6+"), "trumps held in the suit the seat "
                      "would name (its policy's pick), the Left Pedro counted"),
    "counters": Feature(tuple("0123456"), "counting trumps held (A J 10 2 5 5')",
                        implies=("trumps",), unclear=_COUNTING),
    "pedros": Feature(("0", "1", "2"), "Pedros held", implies=("trumps", "counters"),
                      unclear=("right", "left")),
    **{name: Feature(YES_NO, f"holds the {name} of trumps",
                     implies=("trumps", "counters") if name in _COUNTING else ("trumps",))
       for name in ("ace", "king", "queen", "jack", "ten", "two")},
    **{name: Feature(YES_NO, f"holds the {name.title()} Pedro",
                     implies=("trumps", "counters", "pedros")) for name in ("right", "left")},
    "seat": SEAT_FEATURE,
    "dealer": DEALER_FEATURE,
}


FEATURES = tuple(PEDRO_FEATURES)


DEFAULT_BY = ("trumps", "pedros", "ace", "seat")


def pedro_codes(hands: np.ndarray, trumps: np.ndarray, offsets: np.ndarray) -> dict:
    """Bin codes of every Pedro feature for hands (shared-layout masks) in trumps."""
    hands, t = np.asarray(hands, dtype=np.uint64), np.asarray(trumps, dtype=np.uint64)
    lane = (hands >> (np.uint64(16) * t)) & np.uint64(0x1FFF)
    out = {name: bit_of(lane, b) for name, b in _RANK_BIT.items()}
    out["left"] = bit_of(hands, (np.uint64(3) - t) * np.uint64(16) + np.uint64(3))
    out["trumps"] = bin_index(np.bitwise_count(lane).astype(np.int64) + out["left"], [3, 4, 5, 6])
    out["pedros"] = out["right"] + out["left"]
    out["counters"] = out["pedros"] + out["ace"] + out["jack"] + out["ten"] + out["two"]
    out["seat"] = np.asarray(offsets, dtype=np.int64)
    out["dealer"] = (out["seat"] == 0).astype(np.int64)
    return out



def chart_game(rules) -> ChartGame:
    """The chart's view of Pedro/Cinch under ``rules``: bids min_bid .. 14 in the seat's
    turn, naming its policy's trump."""
    bids = tuple(range(rules.min_bid, 15))

    def batch(seed, pols, first, n):
        hands, trumps, sole, values = pedro_seat_batch(rules, seed, pols, first, n)
        return (pedro_codes(hands.ravel(), trumps.ravel(), np.tile(np.arange(4), n)), sole,
                values)

    return ChartGame(PEDRO_FEATURES, DEFAULT_BY, bids, ("pass", *(f"bid {b}" for b in bids)),
                     DEAL_POINTS, 1, batch)
