"""The compiled kernels against the same code run as plain Python (NUMBA_DISABLE_JIT=1).

numba silently changes integer semantics in places (signed/unsigned mixes become
float64, shifts wrap), so the same kernel source interpreted by Python must give
the same records. This is not an independent reference of the rules (that is
tests/reference); it guards the compiled code against the compiler.
"""

import os
import subprocess
import sys

import numpy as np

from analyzer.games import pedro

CASES = [("pedro", "heuristic"), ("pedro", "random"), ("cinch", "heuristic"),
         ("pedro(excess_trumps=keep_all_dump_on_trick1,stock_short=play_short_hand)", "random")]
N = 40

SCRIPT = """
import sys, numpy as np
from analyzer.games import pedro
out = []
for spec, pol in {cases!r}:
    rec, hands = pedro.run_batch(pedro.parse_rules(spec), 0, {n}, 7, pedro.parse_policies(pol))
    out.append(rec.astype(np.int64))
np.save(sys.argv[1], np.stack(out))
"""


def test_compiled_kernels_match_the_interpreted_source(tmp_path):
    path = tmp_path / "interpreted.npy"
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1", "PYTHONWARNINGS": "ignore"}
    subprocess.run([sys.executable, "-c", SCRIPT.format(cases=CASES, n=N), str(path)],
                   env=env, check=True, timeout=600)
    interpreted = np.load(path)
    for k, (spec, pol) in enumerate(CASES):
        rec, _ = pedro.run_batch(pedro.parse_rules(spec), 0, N, 7, pedro.parse_policies(pol))
        assert np.array_equal(rec.astype(np.int64), interpreted[k]), (spec, pol)
