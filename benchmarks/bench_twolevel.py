"""The two-level estimate against the searching player alone, at equal wall time.

    python benchmarks/bench_twolevel.py [--game pedro] [--hand "..."] [--seconds 60]
                                        [--policy pimc:20] [--difference]
    python benchmarks/bench_twolevel.py --game king [--contract no-hearts] [--seconds 60]

Evaluates a hand twice for about ``--seconds`` each: ``--policy`` alone (a
``--time-budget`` run: 50 deals a batch until the time is spent), and two-level
(``--base heuristic --budget``: the heuristic on N deals, the searching policy on the first
n, split to make the leading EV's interval narrowest). For the best bid (the plain run's
best action other than the pass) and the pass it prints each run's EV and 95% half-width,
and the efficiency: how many times narrower the two-level interval is, as run and at equal
time (half-widths scaled by the square root of the wall times: a sample twice as long
narrows an interval by sqrt 2). ``rho`` is the per-deal correlation of the two policies'
outcomes on the paired deals, which bounds the gain: 1 / sqrt(1 - rho^2) at most, when the
cheap deals are free; ``beta`` the slope the estimate fitted. ``--difference`` also runs the
difference estimator (every slope 1, what bidlab used before it fitted them) for as long.
The runs are back to back, so the ratio holds on a noisy machine where an absolute time
would not. King (one contract): the seat's mean penalty, the plain run sized by the
searching policy's pace on a pilot to take about as long.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import time

from analyzer import evaluate_hand, twolevel
from analyzer.games import parse_game

HANDS = {"pedro": "AS KS 5S 5C 2S 9H 3D JC 7H", "cinch": "AH KH QH 5D 2H 9C 3S JS 7C",
         "rook": "AS KS QS JS 9S 5S JK AH KH 5D 2D 3C 4C",
         "king": "AH KH QH JH 2C 3C 4C 5D 6D 7D 8S 9S TS"}


def interval(ev, action: str, scoring: int) -> tuple[float, float]:
    """(EV, 95% half-width) of ``action`` (a label of ``ev.actions``) under the rules'
    scoring method (Pedro 1, Cinch 2): what the tables that rank it show, and the one a
    two-level evaluation estimates two-level (the other method's is the searching
    player's own over its n deals)."""
    col = f"ev{scoring}_net"
    if action == "pass":
        row, col = ev.pass_ev.iloc[0], col if col in ev.pass_ev else "ev_net"
    elif ev.ceilings is not None:  # Rook: bid up to b
        row, col = ev.ceilings[ev.ceilings["bid"] == int(action.split()[-1])].iloc[0], "ev_net"
    else:
        bid, trump = action.split()[1], action.split()[-1]
        row = ev.bids[(ev.bids["trump"] == trump) & (ev.bids["bid"] == int(bid))].iloc[0]
    return row[col], (row[f"{col}_hi"] - row[f"{col}_lo"]) / 2


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="pedro", choices=sorted(HANDS))
    parser.add_argument("--hand", default=None)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--policy", default="pimc:20")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--contract", default="no-hearts", help="King: the contract")
    parser.add_argument("--difference", action="store_true",
                        help="also the difference estimator (every slope 1), as before")
    a = parser.parse_args()
    hand = a.hand or HANDS[a.game]
    if a.game == "king":
        king(hand, a)
        return
    evaluate_hand(a.game, hand, deals=2, policy=a.policy)  # compile outside the timing
    t0 = time.perf_counter()
    plain = evaluate_hand(a.game, hand, policy=a.policy, time_budget=a.seconds,
                          max_deals=10**6, seed=a.seed)
    t_plain = time.perf_counter() - t0
    t0 = time.perf_counter()
    two = evaluate_hand(a.game, hand, policy=a.policy, base="heuristic", budget=a.seconds,
                        seed=a.seed)
    t_two = time.perf_counter() - t0
    runs = [("two-level", two, t_two)]
    if a.difference:
        t0 = time.perf_counter()
        with slope_one():
            diff = evaluate_hand(a.game, hand, policy=a.policy, base="heuristic",
                                 budget=a.seconds, seed=a.seed)
        runs.append(("difference", diff, time.perf_counter() - t0))
    print(f"{a.game} hand {hand} at eldest, policy {a.policy}, about {a.seconds:g} s each "
          f"({time.strftime('%Y-%m-%d')})")
    print(f"plain:     n = {plain.n:,} in {t_plain:.1f} s")
    for name, ev, seconds in runs:
        print(f"{name + ':':<11}N = {ev.n_base:,} heuristic, n = {ev.n:,} {a.policy} in "
              f"{seconds:.1f} s")
    print(f"{'EV of':<22} {'estimator':<11} {'plain':>16} {'two-level':>16} {'narrower':>9} "
          f"{'at equal time':>14} {'rho':>6} {'beta':>6}")
    best = plain.actions[plain.actions["action"] != "pass"]["action"].iloc[0]
    scoring = getattr(parse_game(a.game), "scoring", 1)
    for action in (best, "pass"):
        m1, h1 = interval(plain, action, scoring)
        for name, ev, seconds in runs:
            m2, h2 = interval(ev, action, scoring)
            row = ev.actions[ev.actions["action"] == action]
            rho, beta = (row[c].iloc[0] if len(row) else math.nan for c in ("rho", "beta"))
            print(f"{action:<22} {name:<11} {m1:>8.2f} ± {h1:<5.2f} {m2:>8.2f} ± {h2:<5.2f} "
                  f"{h1 / h2:>8.2f}x {h1 / h2 * math.sqrt(t_plain / seconds):>13.2f}x "
                  f"{rho:>6.2f} {beta:>6.2f}")


@contextlib.contextmanager
def slope_one():
    """Two-level estimates with every slope 1 (the difference estimator, which
    bidlab used before it fitted the slope), for a side-by-side figure."""
    saved = twolevel.MIN_FITTED
    twolevel.MIN_FITTED = 2 ** 62  # no run pairs this many deals: every slope stays 1
    try:
        yield
    finally:
        twolevel.MIN_FITTED = saved


def king(hand: str, a) -> None:
    """One King contract: the seat's mean penalty, plain against two-level."""
    def run(**options):
        t0 = time.perf_counter()
        ev = evaluate_hand("king", hand, contract=a.contract, policy=a.policy, seed=a.seed,
                           **options)
        return ev, time.perf_counter() - t0

    _, pilot = run(deals=20)
    _, pilot = run(deals=20)  # compiled now
    plain, t_plain = run(deals=max(2, int(20 * a.seconds / pilot)))
    runs = [("two-level", *run(base="heuristic", budget=a.seconds))]
    if a.difference:
        with slope_one():
            runs.append(("difference", *run(base="heuristic", budget=a.seconds)))
    (r1,) = plain.negative.itertuples()
    h1 = (r1.points_hi - r1.points_lo) / 2
    print(f"king hand {hand} at eldest, {a.contract}, policy {a.policy}, about "
          f"{a.seconds:g} s each ({time.strftime('%Y-%m-%d')})")
    print(f"plain:      n = {plain.n:,} in {t_plain:.1f} s: {r1.points:.2f} ± {h1:.2f}")
    for name, two, t_two in runs:
        (r2,) = two.negative.itertuples()
        h2 = (r2.points_hi - r2.points_lo) / 2
        print(f"{name + ':':<11} N = {two.n_base:,} heuristic, n = {two.n:,} {a.policy} in "
              f"{t_two:.1f} s: {r2.points:.2f} ± {h2:.2f}, narrower {h1 / h2:.2f}x, at equal "
              f"time {h1 / h2 * math.sqrt(t_plain / t_two):.2f}x (rho {r2.rho:.2f}, beta "
              f"{r2.beta:.2f})")


if __name__ == "__main__":
    main()
