"""How much narrower a two-level interval can get, from how well cheap players predict pimc.

    python benchmarks/control_ceiling.py [--hand "..."] [--deals 400] [--policy pimc:20]

Plays one Pedro hand (at eldest) on the same deals under the heuristic, dd and ``--policy``,
keeps every action's net score deal by deal, and for the searching player's four best
actions prints the share of its variance that cheaper outcomes of the same deals explain
(R^2 of a least-squares fit), with the heuristic alone (what ``--base heuristic`` uses),
with dd as well, and with both players' points under every trump too. With R^2 explained
and cheap deals free, a control variate's interval is 1 / sqrt(1 - R^2) times narrower
than the searching player's alone at equal time: the ceiling of any two-level estimate
built on those controls. ``--base heuristic`` fits the slope on the heuristic alone, so
it reaches the ``R2 h`` ceiling (up to the noise of fitting); the plain difference (s - h,
slope 1) reaches a little less (``diff`` column: Var(s) / Var(s - h)). A 4x narrower
interval needs R^2 >= 15/16. ``h+``: the heuristic's other cheap outcomes too (every bid of
the same trump, the pass, its side's points as maker under each trump), R^2 on held-out
deals: 2026-12-05, 800 deals, 0.49 to 0.64 against 0.49 to 0.58 for the action's own
result, a ceiling 1.40 to 1.67 times against 1.40 to 1.54: too little for a many-slope fit
(a bias of order controls / n), so ``--base`` keeps one slope.

It then plays the searching player again on the same deals with its worlds drawn from
another stream (``setup.resampled``). Half the mean squared difference of the two plays is
the share of the per-deal variance that pimc's own sampling decides (``noise``): no
function of the deal, however costly, explains it, so no control variate that does not
share pimc's worlds narrows the interval more than 1 / sqrt(noise) (``any control``).

Last, two ways past a straight line in the heuristic's result, on groups of deals by that
result (adjacent values merged until each group holds 6% of the deals): ``strata``, pimc's
mean within each group weighted by the group's share (post-stratification: E[pimc | the
heuristic's result] however curved, Var / sum W S^2), and ``neyman``, which also plays pimc
on each group's deals in proportion to its spread there (Var / (sum W S)^2, with the
spreads known; a pilot would estimate them). 2026-12-06, a pool of 2,100 deals, the
estimators drawn 4,000 times at n = 150: the regression 1.45 to 1.55 times narrower than
pimc alone, post-stratified 1.45 to 1.63, with Neyman's allocation 1.54 to 1.76. A few
hundredths to a tenth or two more, far short of four times: not built. This script, same
day, 1,000 deals, seed 3, the four best bids: ``strata`` 1.48 to 1.72, ``neyman`` 1.55 to
1.82, against ``diff`` 1.30 to 1.56.
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np

from analyzer.cards import SUIT_NAMES
from analyzer.games import pedro
from analyzer.games.pedro import evaluate
from analyzer.games.search.setup import resampled

CONTROLS = ("heuristic", "dd")
REPLICATE_SALT = 0x5A17  # any nonzero stream: the replicate's worlds


def outcomes(policy: str, mask: int, deals: int, seed: int, rules, salt: int = 0):
    """(nets [K, deals], points [4, deals]) of the hand at eldest under ``policy``: each
    action's net score, and its side's points net of the other side's as maker per trump;
    ``salt``: pimc's worlds from that stream instead of the deal's."""
    model = evaluate._model(rules)
    batch = model.batch()
    pols = pedro.parse_policies(policy)
    model.simulate(batch, rules, mask, pedro.SEAT_OFFSETS["eldest"], (),
                   resampled(pols, salt) if salt else pols, seed, 0, deals)
    nets = np.array(model.nets(batch, rules), dtype=np.float64)
    points = np.array([np.concatenate(batch.maker_b[t]) - np.concatenate(batch.maker_o[t])
                       for t in range(4)], dtype=np.float64)
    return nets, points


def r_squared(y: np.ndarray, controls: list[np.ndarray]) -> float:
    x = np.column_stack([np.ones(len(y)), *controls])
    beta, *_ = np.linalg.lstsq(x, y, rcond=None)
    return 1 - (y - x @ beta).var() / y.var()


def r_squared_held_out(y: np.ndarray, controls: list[np.ndarray], folds: int = 10) -> float:
    """R^2 of the fit on deals it was not fitted on (``folds``-fold cross-validation): with
    many controls the in-sample R^2 flatters them by about their number over the deals."""
    x = np.column_stack([np.ones(len(y)), *controls])
    fold = np.arange(len(y)) % folds
    residual = np.empty_like(y)
    for f in range(folds):
        beta, *_ = np.linalg.lstsq(x[fold != f], y[fold != f], rcond=None)
        residual[fold == f] = y[fold == f] - x[fold == f] @ beta
    return 1 - (residual ** 2).mean() / y.var()


def heuristic_groups(x: np.ndarray, min_share: float = 0.06) -> np.ndarray:
    """Each deal's group: adjacent values of the heuristic's result ``x``, merged until a
    group holds ``min_share`` of the deals (the last remainder joins the group before)."""
    values, counts = np.unique(x, return_counts=True)
    group_of_value, group, held = np.empty(len(values), dtype=np.int64), 0, 0
    for i, count in enumerate(counts):
        group_of_value[i], held = group, held + count
        if held >= min_share * len(x):
            group, held = group + 1, 0
    if held and group:  # a remainder too small for a group of its own
        group_of_value[group_of_value == group] = group - 1
    return group_of_value[np.searchsorted(values, x)]


def stratified_gains(y: np.ndarray, groups: np.ndarray) -> tuple[float, float]:
    """(post-stratified, Neyman-allocated) variance of pimc's mean, each as a factor below
    a plain mean's of the same n: Var / sum W S^2 and Var / (sum W S)^2."""
    share = np.bincount(groups) / len(y)
    spread = np.array([y[groups == g].std() if share[g] else 0.0 for g in range(len(share))])
    return y.var() / (share * spread ** 2).sum(), y.var() / (share * spread).sum() ** 2


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hand", default="AS KS 5S 5C 2S 9H 3D JC 7H")
    parser.add_argument("--deals", type=int, default=400)
    parser.add_argument("--policy", default="pimc:20")
    parser.add_argument("--seed", type=int, default=1)
    a = parser.parse_args()
    rules = pedro.Rules()
    mask = evaluate.parse_hand(a.hand)
    played, seconds = {}, {}
    for policy in (*CONTROLS, a.policy):
        outcomes(policy, mask, 2, a.seed, rules)  # compile outside the timing
        t0 = time.perf_counter()
        played[policy] = outcomes(policy, mask, a.deals, a.seed, rules)
        seconds[policy] = time.perf_counter() - t0
    (h, hp), (d, dp), (s, sp) = (played[p] for p in (*CONTROLS, a.policy))
    again, _ = outcomes(a.policy, mask, a.deals, a.seed, rules, salt=REPLICATE_SALT)
    labels = evaluate._action_list(rules)
    print(f"pedro hand {a.hand} at eldest, {a.deals:,} deals, seed {a.seed} "
          f"({time.strftime('%Y-%m-%d')})")
    print("seconds a deal: " + ", ".join(f"{p} {seconds[p] / a.deals * 1e3:.2f} ms"
                                         for p in played))
    print(f"{'action':<18} {'EV':>6} {'diff':>6} {'R2 h':>6} {'h+':>6} {'+dd':>6} "
          f"{'+points':>8} {'ceiling':>8} {'noise':>6} {'any control':>12} {'strata':>7} "
          f"{'neyman':>7}")
    for k in np.argsort(-s.mean(axis=1))[:4]:
        trump, bid = labels[k]
        name = "pass" if trump < 0 else f"bid {bid} {SUIT_NAMES[trump]}"
        y = s[k]
        diff = y.var() / (y - h[k]).var()
        same_trump = [h[j] for j, (t, _) in enumerate(labels) if t in (trump, -1)]
        fits = [r_squared(y, [h[k]]), r_squared(y, [h[k], d[k]]),
                r_squared(y, [h[k], d[k], *hp, *dp])]
        cheap_more = r_squared_held_out(y, [*same_trump, *hp])
        noise = ((y - again[k]) ** 2).mean() / 2 / y.var()
        strata, neyman = stratified_gains(y, heuristic_groups(h[k]))
        print(f"{name:<18} {y.mean():>6.2f} {math.sqrt(diff):>5.2f}x {fits[0]:>6.2f} "
              f"{cheap_more:>6.2f} {fits[1]:>6.2f} {fits[2]:>8.2f} "
              f"{1 / math.sqrt(1 - fits[-1]):>7.2f}x "
              f"{noise:>6.3f} {1 / math.sqrt(noise):>11.2f}x "
              f"{math.sqrt(strata):>6.2f}x {math.sqrt(neyman):>6.2f}x")


if __name__ == "__main__":
    main()
