"""Full-pipeline throughput of the Rook engine, with a C baseline timed in the same run.

    python benchmarks/bench_rook.py [hands]

Prints hands/s of the ``rook`` preset for each policy on one thread and on all
threads (best of three timed runs after a warm-up, as `bidlab bench`), the
speed-up against one thread, and, when a C compiler is available, the hands/s of
``c/rook_playout.c``: the same work as the kernel's ``random`` policy written in
plain C (it draws from the same random streams, so it plays the very same hands).
The ratio numba/C on one thread is the figure to watch; absolute numbers drift
with the load of the machine.
"""

from pathlib import Path

import numba
from bench_pedro import c_baseline, count_argument  # this folder is on sys.path as a script

from analyzer import bench
from analyzer.games import rook

C_SOURCE = Path(__file__).parent / "c" / "rook_playout.c"


def main() -> None:
    parser = count_argument("hands")
    parser.description = __doc__.splitlines()[0]
    hands = parser.parse_args().hands
    rules = rook.PRESETS["rook"]
    thread_counts = sorted({1, numba.config.NUMBA_NUM_THREADS})
    base = {}
    for policy in ("random", "heuristic"):
        for th in thread_counts:
            r = bench.time_game(rules, policy, hands, th)
            base.setdefault(policy, r.deals_per_s)
            print(f"{r.game:8} {policy:10} threads={th}  {r.deals_per_s / 1e6:6.3f} M hands/s"
                  f"  x{r.deals_per_s / base[policy]:4.2f} vs 1 thread")
    c = c_baseline(C_SOURCE, hands, unit="hands")
    if c is None:
        print("C baseline: no C compiler found")
        return
    print(f"C baseline (random policy, 1 core)   {c / 1e6:6.3f} M hands/s;"
          f" numba random / C = {base['random'] / c:4.2f}")


if __name__ == "__main__":
    main()
