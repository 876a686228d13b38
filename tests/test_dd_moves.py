"""The search's equivalent cards (``dd_moves.distinct_moves``) against their definition, card
by card, on random positions of every layout the games give the search.

A move is left out when the next lower live card of its suit (live: in a hand or in the
trick) is also a move and has the same point value: the two are interchangeable, and the
search plays the lower. The kernel finds these for a whole hand at once with bit tricks
(a carry along the dead cards), so this spells the definition out with loops.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from analyzer.games.search import params as ddp
from analyzer.games.search.dd_moves import distinct_moves

LANE = 0xFFFF
TRUMP_LAYOUTS = {  # the trump mask: a full lane, Rook's Rook alone at no trump, King's none
    "trumps in lane 3": LANE << 48,
    "trumps in lane 1": LANE << 16,
    "the Rook alone": 1 << 63,
    "no trump": 0,
}


def _suit(c: int, tm: int) -> int:
    if tm >> c & 1:
        return tm
    return (LANE << 16 * (c // 16)) & ~tm


def _naive_distinct(moves: int, outside: int, values: list[int], tm: int) -> int:
    live = moves | outside
    out = moves
    for c in range(64):
        if not moves >> c & 1:
            continue
        below = [x for x in range(c) if live >> x & 1 and _suit(x, tm) >> c & 1]
        if below and moves >> below[-1] & 1 and values[below[-1]] == values[c]:
            out &= ~(1 << c)
    return out


@pytest.mark.parametrize("layout", sorted(TRUMP_LAYOUTS))
def test_distinct_moves_matches_its_definition(layout):
    tm = TRUMP_LAYOUTS[layout]
    rng = random.Random(f"distinct {layout}")
    par = np.zeros(ddp.NPAR, dtype=np.uint64)
    par[ddp.Q_TM] = np.uint64(tm)
    merged = 0
    for case in range(3000):
        weights = rng.sample([1, 2, 5, 10, -10, -25], rng.randint(1, 4))  # up to 4 values
        values = [rng.choice([0, 0, *weights]) for _ in range(64)]
        for j in range(4):
            plane = sum(1 << c for c in range(64) if j < len(weights) and values[c] == weights[j])
            par[ddp.PLANES[j]] = np.uint64(plane)
        live = [c for c in range(64) if rng.random() < rng.choice([0.2, 0.4, 0.8])]
        moves = outside = 0
        for c in live:
            if rng.random() < 0.4:
                moves |= 1 << c
            else:
                outside |= 1 << c
        got = int(distinct_moves(np.uint64(moves), np.uint64(outside), par))
        want = _naive_distinct(moves, outside, values, tm)
        assert got == want, (case, hex(moves), hex(outside), hex(tm))
        merged += got != moves
    assert merged > 300  # the cases do merge cards, so the check has teeth
