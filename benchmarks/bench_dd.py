"""Double-dummy solver timing: Pedro post-draw positions, and Rook and King by cards a hand.

Pedro: the start of play of ``--positions`` simulated deals (heuristic bidding and draw),
solved for the trump maker's side, one call each from Python. Each solve is timed alone,
so the report has the mean, p50, p99 and max, and the time a node (total over total);
the cost of one call into numba (a one-card position) is measured in the same run and
reported beside them. Where a C compiler is found, ``c/pedro_dd.c`` (a plain C
alpha-beta with a small table, the yardstick of the issue) solves the same positions in
the same run: its times, node counts and the ratio, and a check that every value agrees
with the numba solver's. Rook and King: random deals of k cards a hand (k up to 13),
value only, with a node budget so a run ends.

    python benchmarks/bench_dd.py --positions 5000
    python benchmarks/bench_dd.py --positions 1000 --deep 6,8,10 --deep-positions 10
    python benchmarks/bench_dd.py --positions 0 --deep 13 --king-contracts all
"""

from __future__ import annotations

import argparse
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np
from bench_pedro import compile_c  # this folder is on sys.path when run as a script

from analyzer.cards import format_card
from analyzer.games import game, pedro
from analyzer.games.pedro import engine
from analyzer.games.pedro.adapter import pedro_low_card, pedro_setup
from analyzer.games.pedro.core import normalise
from analyzer.games.pedro.rules import P_HIGH_LOW, kernel_params
from analyzer.games.search import dd
from analyzer.games.search import params as ddp
from analyzer.solver import Scratch, _prepare

EMPTY = np.zeros(4, dtype=np.int64)
C_SOLVER = Path(__file__).parent / "c" / "pedro_dd.c"
C_WORDS = 72  # a position in pedro_dd.c's input: hands, trump mask, side, leader, rule, values


def _timed(sc: Scratch, hands, leader, q, cpts, tv, budget) -> tuple[float, int, bool]:
    t0 = time.perf_counter()
    dd.solve_value(hands, leader, EMPTY, EMPTY, 0, q, cpts, tv, sc.tt, sc.next_gen(), sc.par,
                   budget, sc.res)
    return time.perf_counter() - t0, int(sc.res[ddp.RES_NODES]), bool(sc.res[ddp.RES_SOLVED])


def _report(name: str, secs: list[float], nodes: list[int], unsolved: int) -> None:
    ms = np.array(secs) * 1e3
    nd = np.array(nodes)
    print(f"{name}: n={len(ms)}  mean {ms.mean():.3f} ms  p50 {np.median(ms):.3f}  "
          f"p99 {np.percentile(ms, 99):.3f}  max {ms.max():.3f}  |  nodes mean {nd.mean():,.0f}"
          f"  p99 {np.percentile(nd, 99):,.0f}  max {nd.max():,}  |  over budget {unsolved}"
          f"  |  {ms.sum() * 1e6 / max(nd.sum(), 1):.1f} ns a node")


def pedro_start_positions(n: int, seed: int, variant: str = "pedro") -> np.ndarray:
    """[n, C_WORDS]: the start of play of deals 0..n-1 (heuristic bidding and draw), for
    the trump maker's side, in ``pedro_dd.c``'s input layout: the four hands (search
    layout), the trump mask, the side's seat mask, the leader, the trump-any rule, the 64
    card values."""
    rules = pedro.parse_rules(variant)
    rp = kernel_params(rules)
    idx = np.arange(n, dtype=np.int64)
    rec = np.empty((n, engine.NREC), dtype=np.int8)
    li = np.empty((n, engine.NLOGI), dtype=np.int16)
    lu = np.zeros((n, engine.NLOGU), dtype=np.uint64)
    pols = pedro.parse_policies("heuristic")
    dealt = np.empty((n, 4), dtype=np.uint64)
    engine.log_kernel(seed, idx, rp, pols, pedro.NO_SCENARIO.vector(), rec, dealt, li, lu)
    q = np.zeros(ddp.NQ, np.uint64)
    cpts = np.zeros(64, np.int64)
    tv = np.zeros(14, np.int64)
    hands = np.zeros(4, np.uint64)
    positions = np.zeros((n, C_WORDS), dtype=np.int64)
    for k in range(n):
        trump = int(li[k, engine.L_TRUMP])
        bidder = int(rec[k, engine.R_BIDDER])
        maker = bidder if bidder >= 0 else int(li[k, engine.L_DEALER])
        for s in range(4):
            hands[s] = normalise(lu[k, engine.U_START + s], trump)
        every = hands[0] | hands[1] | hands[2] | hands[3]
        pedro_setup(rp, pedro_low_card(every, rp[P_HIGH_LOW]), maker, q, cpts, tv)
        assert not tv.any() and not q[[ddp.Q_FREE, ddp.Q_BAN, ddp.Q_FORCE, ddp.Q_ACE]].any()
        positions[k] = np.concatenate([hands.view(np.int64), q[[ddp.Q_TM, ddp.Q_SIDE]].view(
            np.int64), [maker, int(q[ddp.Q_TRUMP_ANY])], cpts])
    return positions


def search_problem(row: np.ndarray):
    """One row of ``pedro_start_positions`` as the numba solver takes it: (hands, leader,
    q, cpts, tv)."""
    q = np.zeros(ddp.NQ, np.uint64)
    q[ddp.Q_TM], q[ddp.Q_SIDE] = row[4:6].view(np.uint64)
    q[ddp.Q_TRUMP_ANY] = row[7]
    return (row[:4].view(np.uint64).copy(), int(row[6]), q, row[8:].copy(),
            np.zeros(14, np.int64))


def c_solve(positions: np.ndarray) -> np.ndarray | None:
    """[n, 3]: value, nodes and nanoseconds of each position solved by the plain C
    alpha-beta, or None without a C compiler."""
    with tempfile.TemporaryDirectory() as tmp:
        exe = compile_c(C_SOLVER, tmp)
        if exe is None:
            return None
        src, out = Path(tmp) / "positions.bin", Path(tmp) / "values.bin"
        with src.open("wb") as f:
            np.array([len(positions)], dtype=np.int64).tofile(f)
            positions.tofile(f)
        subprocess.run([str(exe), str(src), str(out)], check=True)
        return np.fromfile(out, dtype=np.int64).reshape(-1, 3)


def pedro_positions(n: int, seed: int, budget: int) -> None:
    positions = pedro_start_positions(n, seed)
    sc = Scratch(14)  # as the searching players and `bidlab solve` use for six tricks
    one = np.array([1, 2, 4, 8], dtype=np.uint64)
    _, _, q, cpts, tv = search_problem(positions[0])
    _timed(sc, one, 0, q, cpts, tv, budget)  # compiles (or loads) the solver before timing
    secs, nodes, values, unsolved = [], [], [], 0
    for row in positions:
        hands, maker, q, cpts, tv = search_problem(row)
        t, nd, ok = _timed(sc, hands, maker, q, cpts, tv, budget)
        secs.append(t)
        nodes.append(nd)
        values.append(int(sc.res[ddp.RES_VALUE]))
        unsolved += not ok
    call = min(_timed(sc, one, 0, q, cpts, tv, budget)[0] for _ in range(2000))
    _report("pedro post-draw (6 tricks)", secs, nodes, unsolved)
    print(f"  one call into numba (a one-card position): {call * 1e6:.1f} us, included above")
    got = c_solve(positions)
    if got is None:
        print("C alpha-beta: no C compiler found")
        return
    _report("C plain alpha-beta, same positions", list(got[:, 2] / 1e9), list(got[:, 1]), 0)
    differ = int((got[:, 0] != np.array(values)).sum())
    print(f"  numba mean / C mean = {np.mean(secs) / (got[:, 2].mean() / 1e9):.3f};"
          f" values that differ: {differ} of {len(values)}")


KING_CONTRACTS = game("king").contracts


def deep(game: str, k: int, n: int, seed: int, budget: int, contract: str | None = None,
         quiet: bool = False) -> None:
    """``n`` random deals of ``k`` cards a hand (the same deals for every King contract)."""
    rng = np.random.default_rng(seed + k)
    sc = Scratch(20)
    secs, nodes, unsolved = [], [], 0
    for _ in range(n):
        deck = [16 * s + r for s in range(4) for r in range(13)] + ([63] if game == "rook" else [])
        rng.shuffle(deck)
        text = "/".join(" ".join(format_card(c) for c in deck[j * k:(j + 1) * k])
                        for j in range(4))
        trump = "S" if game == "rook" or contract == "positive" else None
        _, _, p, *_ = _prepare(game, text, trump, 0, "", None, contract)
        t, nd, ok = _timed(sc, p.hands, 0, p.q, p.cpts, p.tv, budget)
        secs.append(t)
        nodes.append(nd)
        unsolved += not ok
    what = f"{contract}{' trump S' if contract == 'positive' else ''}" if contract else "trump S"
    if not quiet:
        _report(f"{game} {what} k={k}", secs, nodes, unsolved)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=5000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--budget", type=int, default=50_000_000, help="nodes per solve")
    ap.add_argument("--deep", default="6,8,10,13",
                    help='Rook/King cards a hand, 1 to 13, comma-separated ("": none)')
    ap.add_argument("--deep-positions", type=int, default=5)
    ap.add_argument("--king-contracts", default="no-hearts",
                    help=f"King contracts of the deep deals, comma-separated, or all "
                         f"({', '.join(KING_CONTRACTS)})")
    args = ap.parse_args()
    kings = (KING_CONTRACTS if args.king_contracts == "all"
             else tuple(c for c in args.king_contracts.split(",") if c))
    for c in kings:
        if c not in KING_CONTRACTS:
            ap.error(f"unknown King contract {c!r}; contracts: {', '.join(KING_CONTRACTS)}")
    parts = [x.strip() for x in args.deep.split(",") if x.strip()]
    if not all(x.isdigit() and 1 <= int(x) <= 13 for x in parts):
        ap.error(f"--deep {args.deep!r}: cards a hand, 1 to 13, comma-separated")
    depths = [int(x) for x in parts]
    if args.positions:
        pedro_positions(args.positions, args.seed, args.budget)
    else:  # the first solve loads the compiled code: keep it out of the timings
        deep("rook", 1, 1, args.seed, args.budget, quiet=True)
    for k in depths:
        deep("rook", k, args.deep_positions, args.seed, args.budget)
        for c in kings:
            deep("king", k, args.deep_positions, args.seed, args.budget, c)


if __name__ == "__main__":
    main()
