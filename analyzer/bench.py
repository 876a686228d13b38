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

May import: the games' registry and protocol, :mod:`.games.common` and :mod:`.limits`; never
a game by name.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numba

from .games import family, game, parse_game
from .games.common import parse_policies
from .games.protocol import BenchCase
from .limits import Pace, require_memory

SEED = 1  # the seed of every timed run's deals


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
              seed: int = SEED, case: BenchCase | None = None) -> BenchRow:
    """Best of ``repeats`` runs of ``deals`` complete deals (Rook, King: hands) of any game;
    ``case`` is one of the game's bench cases (King: a contract's hands)."""
    engine = family(rules)
    pols = parse_policies(policy)
    extra = case.options if case is not None else {}
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
    name = str(rules) if case is None or not case.label else f"{rules} {case.label}"
    return BenchRow(name, policy, threads, deals, best)


def plan(games=("pedro", "rook"), policies=("random", "heuristic")) -> list[tuple]:
    """The timed runs, in order: (rules, bench case, policy, threads) for each game x its
    bench cases (King: each contract's hands) x policy x {1 thread, all threads}."""
    thread_counts = sorted({1, numba.config.NUMBA_NUM_THREADS})
    return [(rules, case, policy, th)
            for rules in map(parse_game, games) for case in game(rules).bench_cases
            for policy in policies for th in thread_counts]


def run(games=("pedro", "rook"), policies=("random", "heuristic"), deals: int = 1_000_000,
        repeats: int = 3, progress=None) -> list[BenchRow]:
    """A row for each run of :func:`plan`; ``progress(1)`` after each."""
    rows = []
    for rules, case, policy, th in plan(games, policies):
        rows.append(time_game(rules, policy, deals, th, repeats, case=case))
        if progress:
            progress(1)
    return rows
