"""Full-pipeline throughput of the Pedro engine: `python benchmarks/bench_pedro.py [deals]`.

Same numbers as `bidlab bench`: deals/s for each policy on one thread and on all
threads, each the best of three timed runs after a warm-up, with the speed-up
measured against the one-thread run of the same process.
"""

import sys

from analyzer import bench

deals = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
rows = bench.run(deals=deals)
base = {(r.game, r.policy): r.deals_per_s for r in rows if r.threads == 1}
for r in rows:
    ratio = r.deals_per_s / base[(r.game, r.policy)]
    print(f"{r.game:8} {r.policy:10} threads={r.threads}  {r.deals_per_s / 1e6:6.3f} M deals/s"
          f"  x{ratio:4.2f} vs 1 thread")
