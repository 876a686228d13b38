"""Throughput of the full pipeline: deal, bid, discard/draw/rob or widow/pass, play, score, record.

Deals/s are measured inside one process for 1 thread and for every thread, with
the kernel compiled (or loaded from cache) and warmed first; each figure is the
best of ``repeats`` timed runs, which is the steadiest statistic on a shared
machine. The two-thread figure is reported as a ratio to the one-thread figure
measured in the same run.

The records go into one pair of output arrays allocated and written once before
the timing, as a streaming run reuses its buffers: fresh arrays would add the
operating system's page faults for every record (72 MB per million Pedro deals),
which threads take in turn, so the thread scaling would measure the allocator.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numba

from .games import family, parse_game
from .games.common import parse_policies
from .limits import Pace, require_memory


@dataclass(frozen=True)
class BenchRow:
    game: str
    policy: str
    threads: int
    deals: int
    seconds: float

    @property
    def deals_per_s(self) -> float:
        return self.deals / self.seconds


def time_game(rules, policy: str, deals: int, threads: int, repeats: int = 3,
              seed: int = 1, contract: str | None = None) -> BenchRow:
    """Best of ``repeats`` runs of ``deals`` complete deals (Rook, King: hands) of any game;
    King hands are of ``contract``."""
    engine = family(rules)
    pols = parse_policies(policy)
    extra = {} if contract is None else {"contract": contract}
    require_memory(deals, 160, "--deals")
    previous = numba.get_num_threads()
    numba.set_num_threads(threads)
    try:
        # compile or load, then time a small run: a size beyond the time limit stops here
        probe = min(deals, 20_000)
        engine.run_batch(rules, 0, probe, seed, pols, **extra)
        pace = Pace((repeats + 1) * deals, "--deals x (--repeats + 1) =")
        pace.start = time.perf_counter()
        engine.run_batch(rules, 0, probe, seed, pols, **extra)
        pace.step(probe)
        out = engine.run_batch(rules, 0, deals, seed, pols, **extra)  # warm up
        best = float("inf")
        for _ in range(repeats):
            t0 = time.perf_counter()
            engine.run_batch(rules, 0, deals, seed, pols, out=out, **extra)
            best = min(best, time.perf_counter() - t0)
    finally:
        numba.set_num_threads(previous)
    name = str(rules) if contract is None else f"{rules} {contract}"
    return BenchRow(name, policy, threads, deals, best)


def run(games=("pedro", "rook"), policies=("random", "heuristic"), deals: int = 1_000_000,
        repeats: int = 3) -> list[BenchRow]:
    """Rows for each game x policy x {1 thread, all threads}; King: each contract's hands."""
    all_threads = numba.config.NUMBA_NUM_THREADS
    thread_counts = sorted({1, all_threads})
    rows = []
    for game in games:
        rules = parse_game(game)
        contracts = KING_CONTRACTS if rules.game == "king" else (None,)
        for contract in contracts:
            for policy in policies:
                for th in thread_counts:
                    rows.append(time_game(rules, policy, deals, th, repeats, contract=contract))
    return rows


KING_CONTRACTS = ("no-tricks", "no-hearts", "no-kings-jacks", "no-queens", "no-king-of-hearts",
                  "last-two", "positive")
