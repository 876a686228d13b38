"""The double-dummy solver against an independent one on whole six-trick Pedro positions.

The brute-force minimax (tests/reference/dd_brute.py) only reaches endgames of three
tricks; `benchmarks/c/pedro_dd.c`, a plain alpha-beta written in C that shares no code
with the numba search, solves the start of play of simulated deals. Every value must
agree. Skipped where no C compiler is installed.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
import bench_dd  # noqa: E402

from analyzer.games.search import dd as dd  # noqa: E402
from analyzer.games.search import params as ddp  # noqa: E402
from analyzer.solver import Scratch  # noqa: E402

N = 150
EMPTY = np.zeros(4, dtype=np.int64)


@pytest.mark.parametrize("variant", ["pedro", "cinch", "pedro(trump_while_able_to_follow="
                                     "forbidden,low_to=holder)"])
def test_numba_and_c_solvers_agree_on_whole_post_draw_positions(variant):
    positions = bench_dd.pedro_start_positions(N, seed=3, variant=variant)
    got = bench_dd.c_solve(positions)
    if got is None:
        pytest.skip("no C compiler")
    sc = Scratch(14)
    ours = []
    for row in positions:
        hands, leader, q, cpts, tv = bench_dd.search_problem(row)
        dd.solve_value(hands, leader, EMPTY, EMPTY, 0, q, cpts, tv, sc.tt, sc.next_gen(),
                       sc.par, 50_000_000, sc.res)
        assert sc.res[ddp.RES_SOLVED]
        ours.append(int(sc.res[ddp.RES_VALUE]))
    ours = np.array(ours)
    differ = np.flatnonzero(ours != got[:, 0])
    assert differ.size == 0, (variant, differ[:5], ours[differ[:5]], got[differ[:5], 0])
    # the positions are not trivial: values spread over the range, most of them in play
    assert len(set(ours)) >= 6 and (got[:, 1] > 1000).mean() > 0.5
