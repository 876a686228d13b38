"""Peak memory of big runs, and the Dask executor's throughput against the local one.

    python benchmarks/bench_runs.py memory [--deals 10000000 100000000] [--out-too] [--hand]
    python benchmarks/bench_runs.py dask [--deals 10000000] [--pimc-deals 200] [--workers 2]

``memory`` runs ``bidlab simulate pedro --deals N`` in a child process for each N, with a
summary only and (``--out-too``) with ``--out FILE.parquet`` as well, and reports the
child's peak resident memory (``ru_maxrss``) and its wall time. The run holds one chunk at
a time, so the peak should not grow with N. ``--hand`` measures ``bidlab hand pedro HAND
--deals N`` the same way (no ``--out`` there): it folds each batch into sums and
histograms, so its peak should not grow with N either.

``dask`` times the same run on the local executor and on ``--executor dask-local`` (a
LocalCluster of ``--workers`` processes on 127.0.0.1), the start of the cluster included,
for a heuristic run and a pimc run, and reports dask/local as deals a second (the goal:
0.9 for heuristic runs, 0.95 for pimc). Both runs print the same summary, checked here.
Each pair runs back to back (the order alternates between repetitions), so the ratio holds
on a noisy machine when an absolute figure would not.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

BIDLAB = [sys.executable, "-m", "analyzer"]


def child(args: list[str]) -> tuple[float, float, str]:
    """Run ``bidlab ARGS``: (seconds, its peak RSS in MB, its stdout)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        t0 = time.perf_counter()
        p = subprocess.Popen([*BIDLAB, *args], stdout=out, stderr=err)
        _, status, usage = os.wait4(p.pid, 0)  # this child's own peak, not the largest yet
        seconds = time.perf_counter() - t0
        p.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        if p.returncode != 0:
            raise SystemExit(f"bidlab {' '.join(args)} failed:\n{err.read().decode()}")
        return seconds, usage.ru_maxrss / 1024, out.read().decode()


HAND = "AS KS 5S 5C 2S 9H 3D JC 7H"


def memory(deals: list[int], out_too: bool, hand: bool) -> None:
    print(f"{'command':>8} {'deals':>13} {'--out':>6} {'seconds':>8} {'peak RSS MB':>12}")
    with tempfile.TemporaryDirectory() as tmp:
        for n in deals:
            runs = [("simulate", ["simulate", "pedro"], False)]
            if out_too:
                runs.append(("simulate", ["simulate", "pedro"], True))
            if hand:
                runs.append(("hand", ["hand", "pedro", HAND], False))
            for name, args, with_out in runs:
                args = [*args, "--deals", str(n), "--no-progress"]
                if with_out:
                    args += ["--out", os.path.join(tmp, "rows.parquet")]
                seconds, peak, _ = child(args)
                print(f"{name:>8} {n:>13,} {'yes' if with_out else 'no':>6} {seconds:>8.1f} "
                      f"{peak:>12.0f}", flush=True)


def dask(deals: int, pimc_deals: int, workers: int, repeats: int) -> None:
    cases = [("heuristic", ["simulate", "pedro", "--deals", str(deals)]),
             ("pimc:20", ["simulate", "pedro", "--deals", str(pimc_deals), "--policy",
                          "pimc:20"])]
    print(f"{'policy':>10} {'deals':>11} {'local s':>8} {'dask s':>8} {'dask/local':>10}")
    for name, args in cases:
        ratios = []
        for k in range(repeats):
            order = ("local", "dask") if k % 2 == 0 else ("dask", "local")
            times, outputs = {}, {}
            for where in order:
                extra = [] if where == "local" else ["--executor", "dask-local", "--workers",
                                                     str(workers)]
                times[where], _, outputs[where] = child([*args, "--no-progress", *extra])
            if outputs["local"] != outputs["dask"]:
                raise SystemExit(f"{name}: the dask summary differs from the local one")
            ratios.append(times["local"] / times["dask"])
            n = deals if name == "heuristic" else pimc_deals
            print(f"{name:>10} {n:>11,} {times['local']:>8.1f} {times['dask']:>8.1f} "
                  f"{ratios[-1]:>10.2f}", flush=True)
        print(f"{name:>10} median dask/local throughput: {statistics.median(ratios):.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="what", required=True)
    m = sub.add_parser("memory")
    m.add_argument("--deals", type=int, nargs="+", default=[10_000_000, 100_000_000])
    m.add_argument("--out-too", action="store_true")
    m.add_argument("--hand", action="store_true")
    d = sub.add_parser("dask")
    d.add_argument("--deals", type=int, default=10_000_000)
    d.add_argument("--pimc-deals", type=int, default=200)
    d.add_argument("--workers", type=int, default=2)
    d.add_argument("--repeats", type=int, default=3)
    a = parser.parse_args()
    if a.what == "memory":
        memory(sorted(a.deals), a.out_too, a.hand)
    else:
        dask(a.deals, a.pimc_deals, a.workers, a.repeats)


if __name__ == "__main__":
    main()
