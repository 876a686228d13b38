"""The two-level estimate against the searching player alone, at equal wall time.

    python benchmarks/bench_twolevel.py [--seconds 60] [--policy pimc:20] [--hand "..."]

Evaluates a Pedro hand twice for about ``--seconds`` each: ``--policy`` alone (a
``--time-budget`` run: 50 deals a batch until the time is spent), and two-level
(``--base heuristic --budget``: the heuristic on N deals, the searching policy on the first
n, split to make the leading EV's interval narrowest). For EV(best bid) (the plain run's
best non-pass action) and EV(pass) it prints each run's n, N, wall time and 95% half-width,
and the efficiency: how many times narrower the two-level interval is, at equal time
(half-widths scaled by the square root of the wall times, as a sample twice as long narrows
an interval by sqrt 2). It also prints the per-deal correlation of the two policies'
outcomes, which bounds the gain: the half-width can shrink by at most about
1 / sqrt(1 - rho^2) when the cheap deals are free. The two runs are back to back, so the
ratio holds on a noisy machine where an absolute time would not.
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np

from analyzer import evaluate_hand
from analyzer.games import parse_game, pedro
from analyzer.games.pedro import evaluate as pedro_evaluate

HAND = "AS KS 5S 5C 2S 9H 3D JC 7H"


def interval(ev, action) -> tuple[float, float]:
    """(EV, 95% half-width) of ``action`` (a row of ``ev.actions``), method 1 net."""
    if action["action"] == "pass":
        row = ev.pass_ev.iloc[0]
    else:
        row = ev.bids[(ev.bids["trump"] == action["trump"])
                      & (ev.bids["bid"] == action["bid"])].iloc[0]
    return row["ev1_net"], (row["ev1_net_hi"] - row["ev1_net_lo"]) / 2


def correlation(hand: str, policy: str, action, deals: int) -> float:
    """Per-deal correlation of ``policy``'s and the heuristic's net score for ``action``."""
    rules = parse_game("pedro")
    mask = pedro_evaluate.parse_hand(hand)
    actions = pedro_evaluate._action_list(rules)
    k = actions.index((-1, 0) if action["action"] == "pass" else
                      (["clubs", "diamonds", "hearts", "spades"].index(action["trump"]),
                       int(action["bid"])))
    values = []
    for pol in (policy, "heuristic"):
        batch = pedro_evaluate._Samples(len(actions))
        pedro_evaluate._simulate_batch(batch, rules, mask, 1, (), pedro.parse_policies(pol),
                                       1, 0, deals)
        values.append(np.subtract(*batch.action(1, k)))
    return float(np.corrcoef(*values)[0, 1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--policy", default="pimc:20")
    parser.add_argument("--hand", default=HAND)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rho-deals", type=int, default=200)
    a = parser.parse_args()
    evaluate_hand("pedro", a.hand, deals=2, policy=a.policy)  # compile outside the timing
    t0 = time.perf_counter()
    plain = evaluate_hand("pedro", a.hand, policy=a.policy, time_budget=a.seconds,
                          max_deals=10**6, seed=a.seed)
    t_plain = time.perf_counter() - t0
    t0 = time.perf_counter()
    two = evaluate_hand("pedro", a.hand, policy=a.policy, base="heuristic", budget=a.seconds,
                        seed=a.seed)
    t_two = time.perf_counter() - t0
    best = plain.actions[plain.actions["action"] != "pass"].iloc[0]
    passing = plain.actions[plain.actions["action"] == "pass"].iloc[0]
    print(f"hand {a.hand} at eldest, policy {a.policy}, about {a.seconds:g} s each "
          f"({time.strftime('%Y-%m-%d')})")
    print(f"plain:     n = {plain.n:,} in {t_plain:.1f} s")
    print(f"two-level: N = {two.n_base:,} heuristic, n = {two.n:,} {a.policy} in {t_two:.1f} s")
    print(f"{'EV of':<22} {'plain':>16} {'two-level':>16} {'narrower':>9} "
          f"{'at equal time':>14} {'rho':>6}")
    for action in (best, passing):
        (m1, h1), (m2, h2) = interval(plain, action), interval(two, action)
        rho = correlation(a.hand, a.policy, action, a.rho_deals)
        print(f"{action['action']:<22} {m1:>8.2f} ± {h1:<5.2f} {m2:>8.2f} ± {h2:<5.2f} "
              f"{h1 / h2:>8.2f}x {h1 / h2 * math.sqrt(t_plain / t_two):>13.2f}x {rho:>6.2f}")


if __name__ == "__main__":
    main()
