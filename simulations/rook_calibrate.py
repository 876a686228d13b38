"""Question: how many points does a Rook hand take as declarer, from what a bidder can see?

The heuristic bids from a linear valuation of its 13 cards (see
``analyzer/games/rook/policies.py``: _BASE, _PER_POINT, _PER_TRUMP, _PER_ACE,
_PER_TOP). This run fits those weights: eldest is made declarer at 70 on
200,000 hands (seed 7, heuristic policy for every seat, rules ``rook``), calls
its policy's trump, and the side's points are regressed on the declarer's
dealt hand: counter points held, trump length (the Rook included), side aces
and top trumps (Q K A). It prints the coefficients, the residual spread and
the mean points by trump length.

    python simulations/rook_calibrate.py [hands]
"""

from __future__ import annotations

import sys

import numpy as np

from analyzer.games import rook
from analyzer.games.common import parse_policies
from analyzer.games.rook.rules import POINT_SCHEMES

SEED = 7


def features(hands: np.ndarray, trump: np.ndarray) -> np.ndarray:
    """Columns: 1, counter points held, trump length with the Rook, side aces, top trumps."""
    ranks, rook_pts, _, _ = POINT_SCHEMES["princeton"]
    has_rook = (hands >> np.uint64(63)).astype(np.int64)
    points = rook_pts * has_rook
    aces = np.zeros(len(hands), dtype=np.int64)
    for s in range(4):
        suit = hands >> np.uint64(16 * s)
        for r, p in enumerate(ranks):
            points = points + p * ((suit >> np.uint64(r)) & np.uint64(1)).astype(np.int64)
        aces += (((suit >> np.uint64(12)) & np.uint64(1)).astype(np.int64) * (trump != s))
    lane = (hands >> (np.uint64(16) * trump.astype(np.uint64))) & np.uint64(0x1FFF)
    length = np.bitwise_count(lane).astype(np.int64) + has_rook
    top = np.bitwise_count(lane >> np.uint64(10)).astype(np.int64)
    return np.column_stack([np.ones(len(hands)), points, length, aces, top])


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 200_000
    rules = rook.PRESETS["rook"]
    scenario = rook.Scenario(seat=1, force="declarer", bid=70)
    rec, hands = rook.run_batch(rules, 0, n, SEED, parse_policies("heuristic"), scenario=scenario)
    df = rook.records_frame(rec, hands, 0)
    seat = ((df["dealer"] + 1) % 4).to_numpy()
    x = features(hands[np.arange(n), seat], df["trump"].to_numpy().astype(np.int64))
    y = df["bid_points"].to_numpy().astype(float)
    coef, *_ = np.linalg.lstsq(x, y, rcond=None)
    resid = y - x @ coef
    print(f"rook, heuristic, seed {SEED}, n={n:,}: eldest declares at 70 and calls its trump")
    for name, c in zip(["base", "per counter point", "per trump", "per side ace",
                        "per top trump"], coef, strict=True):
        print(f"  {name:18} {c:7.2f}")
    print(f"  residual sd        {resid.std():7.1f} points; mean points {y.mean():.1f}")
    print(df.groupby(x[:, 2].astype(int))["bid_points"].agg(["count", "mean"]).to_string())


if __name__ == "__main__":
    main()
