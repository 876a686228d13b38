"""Is the two-level estimate unbiased? Against the searching player alone, where it is affordable.

    python benchmarks/check_unbiased.py --game pedro [--full 2000] [--paired 300] [--cheap 30000]
    python benchmarks/check_unbiased.py --game king [--full 1000] [--paired 150] [--cheap 20000]
    python benchmarks/check_unbiased.py --game pedro --repeats 10

Pedro: the hand of ``bench_twolevel.py`` at eldest, every action (each bid of each trump,
and the pass) estimated twice: by ``--policy`` alone on ``--full`` deals (seed 1), and
two-level (seed 2, independent deals: the heuristic on ``--cheap`` deals, ``--policy`` on the
first ``--paired``). For each action: whether the two-level 95% interval covers the full
estimate, and the difference in units of its standard error (both estimates' errors
combined: the full one is an estimate too). King: one seat's mean no-hearts penalty, the
same way. Over the actions, about 5% of the intervals may miss by chance; a bias shows as
differences of one sign.

``--repeats R`` makes R two-level estimates (seeds 2 .. R + 1, independent deals each) and
adds, for each action, how many of their intervals cover the full estimate and the z of
their average against it: a bias of the two-level estimate shows in that z, which one
estimate's noise cannot hide.
"""

from __future__ import annotations

import argparse
import math
import time

from bench_twolevel import HANDS  # this folder is on sys.path when run as a script

from analyzer import evaluate_hand


def _rows(ev, game: str):
    """(label, estimate, standard error, lo, hi) of every ranked number."""
    if game == "king":
        for r in ev.negative.itertuples():
            yield r.contract, r.points, r.points_se, r.points_lo, r.points_hi
        return
    for r in ev.actions.itertuples():
        yield r.action, r.ev, r.ev_se, r.ev_lo, r.ev_hi


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="pedro", choices=("pedro", "king"))
    parser.add_argument("--policy", default="pimc:20")
    parser.add_argument("--full", type=int, help="deals of the policy alone "
                        "(default: pedro 2000, king 1000)")
    parser.add_argument("--paired", type=int, help="two-level: deals the policy plays "
                        "(default: pedro 300, king 150)")
    parser.add_argument("--cheap", type=int, help="two-level: heuristic deals "
                        "(default: pedro 30000, king 20000)")
    parser.add_argument("--repeats", type=int, default=1,
                        help="two-level estimates on independent deals (seeds 2 .. R + 1)")
    a = parser.parse_args()
    king = a.game == "king"
    full_n = a.full or (1000 if king else 2000)
    paired = a.paired or (150 if king else 300)
    cheap = a.cheap or (20000 if king else 30000)
    extra = {"contract": "no-hearts"} if king else {}
    hand = HANDS[a.game]
    t0 = time.perf_counter()
    full = evaluate_hand(a.game, hand, policy=a.policy, deals=full_n, seed=1, **extra)
    t_full = time.perf_counter() - t0
    t0 = time.perf_counter()
    two = evaluate_hand(a.game, hand, policy=a.policy, base="heuristic", deals=paired,
                        base_deals=cheap, seed=2, **extra)
    t_two = time.perf_counter() - t0
    print(f"{a.game} hand {hand} at eldest{' (no-hearts)' if king else ''}, {a.policy} "
          f"({time.strftime('%Y-%m-%d')})")
    print(f"full:      n = {full.n:,} (seed 1) in {t_full:.0f} s")
    print(f"two-level: N = {two.n_base:,} heuristic, n = {two.n:,} {a.policy} (seed 2) in "
          f"{t_two:.0f} s")
    print(f"{'estimate of':<24} {'full':>16} {'two-level':>22} {'covers':>7} {'z':>6}")
    got = dict((r[0], r[1:]) for r in _rows(two, a.game))
    covered = total = 0
    zs = []
    for label, m1, se1, _, _ in _rows(full, a.game):
        if label not in got:
            continue
        m2, se2, lo2, hi2 = got[label]
        inside = lo2 <= m1 <= hi2
        z = (m2 - m1) / math.hypot(se1, se2) if se1 or se2 else 0.0
        covered += inside
        total += 1
        zs.append(z)
        print(f"{label:<24} {m1:>8.2f} ± {1.96 * se1:<5.2f} {m2:>8.2f} [{lo2:6.2f}, {hi2:6.2f}]"
              f" {'yes' if inside else 'NO':>7} {z:>+6.2f}")
    print(f"covered {covered} of {total}; mean z {sum(zs) / len(zs):+.2f} "
          f"(the actions share their deals, so their z's move together)")
    if a.repeats > 1:
        runs = [got] + [dict((r[0], r[1:]) for r in _rows(evaluate_hand(
            a.game, hand, policy=a.policy, base="heuristic", deals=paired, base_deals=cheap,
            seed=seed, **extra), a.game)) for seed in range(3, a.repeats + 2)]
        repeated(full, runs, a.game)


def repeated(full, runs: list[dict], game: str) -> None:
    """Each action's R two-level estimates (``runs``: label -> (mean, se, lo, hi)) against
    the full one: how many intervals cover it, and the z of their average (independent
    deals, so its standard error is the root of the summed variances over R)."""
    print(f"{len(runs)} two-level estimates on independent deals (seeds 2 .. {len(runs) + 1})")
    print(f"{'estimate of':<24} {'full':>8} {'mean of R':>10} {'covers':>8} {'z':>6}")
    for label, m1, se1, _, _ in _rows(full, game):
        own = [r[label] for r in runs if label in r]
        if len(own) < len(runs):
            continue
        mean = sum(m for m, *_ in own) / len(own)
        se = math.sqrt(sum(se ** 2 for _, se, *_ in own)) / len(own)
        hits = sum(lo <= m1 <= hi for *_, lo, hi in own)
        z = (mean - m1) / math.hypot(se1, se)
        print(f"{label:<24} {m1:>8.2f} {mean:>10.2f} {hits:>4} of {len(own):<2} {z:>+6.2f}")


if __name__ == "__main__":
    main()
