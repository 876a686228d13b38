"""pimc's decisions, measured: where its time goes, and its shortcuts against the full search.

    python benchmarks/bench_pimc.py [--games pedro rook king] [--deals 60] [--worlds 20]
                                    [--rounds 2] [--against REV]

Every seat plays pimc:W on the same deals of each game twice per round, in one process on one
thread: as before its race (``full``: every world solved for every card) and as it plays
now (``now``: no search when every legal card is alike; after six worlds a card leaves the
race once the remaining worlds are unlikely to put it ahead, and the decision ends with one
card left; see ``games/search/pimc.py``). The rounds alternate the two so that a noisy
machine slows both alike. For each, by the cards in the deciding seat's hand: decisions,
the share decided without a search, worlds a decision, null-window searches a world, nodes
a search and milliseconds a decision (the CPU's cycle counter inside the kernel, converted by
the wall clock of the same run), and then the ratio of decisions a second, now over full,
with the deals a second beside it. Rook and King search from six cards a hand (the tricks
before are the heuristic's); King plays single no-hearts hands.

With ``--against REV`` it also times pimc as a git revision of this repository plays it (a
temporary worktree, removed afterwards; its kernels compile on the first pass, which is not
timed): each pass of that revision and of this tree is a fresh process playing the same
deals, alternating, and the table gives deals a second of each and their ratio. The search
of the race's ``full`` baseline is today's, so the ratio to an older revision is the one that
counts what the search itself gained (``--against f3cd52b``: pimc when its issue was
filed).

Whether the shortcuts cost play is the ladder's question, not this one's: ``bidlab ladder
pedro --duplicate`` gives pimc's margin over the heuristic with its interval.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numba
import numpy as np
import pandas as pd

from analyzer.games import family, parse_game
from analyzer.games.common import parse_policies
from analyzer.games.search import probe
from analyzer.games.search.setup import counted

DEALS = {"pedro": 60, "rook": 12, "king": 12}
KING_CONTRACT = "no-hearts"


def run(name: str, deals: int, worlds: int, full: bool, seed: int) -> tuple[float, np.ndarray]:
    """(wall seconds, counter table) of one pass over the deals."""
    table = np.zeros((probe.STAT_ROWS, probe.NSTAT), dtype=np.uint64)
    pols = counted(parse_policies(f"pimc:{worlds}"), table, full)
    rules = parse_game(name)
    extra = {"contract": KING_CONTRACT} if name == "king" else {}
    c0 = probe.cycles()
    t0 = time.perf_counter()
    family(name).simulate(rules, deals, seed, pols, **extra)
    wall = time.perf_counter() - t0
    rate = (probe.cycles() - c0) / wall  # cycles a second, on this run's clock
    out = table.astype(np.float64)
    out[:, probe.ST_CYCLES] /= rate
    return wall, out


REPO = Path(__file__).resolve().parent.parent
# one timed pass in a fresh process, on whichever tree PYTHONPATH names (an old revision's
# analyzer has no counters, so this times the deals alone)
PASS = """
import json, sys, time, numba
numba.set_num_threads(1)
from analyzer.games import family, parse_game
from analyzer.games.common import parse_policies
name, deals, worlds, seed, contract = sys.argv[1:6]
extra = {"contract": contract} if name == "king" else {}
rules, pols = parse_game(name), parse_policies(f"pimc:{worlds}")
family(name).simulate(rules, 2, int(seed) + 1, pols, **extra)  # compiles or loads: untimed
t0 = time.perf_counter()
family(name).simulate(rules, int(deals), int(seed), pols, **extra)
print(json.dumps(time.perf_counter() - t0))
"""


def timed_pass(tree: Path, name: str, deals: int, worlds: int, seed: int) -> float:
    """Seconds of one pass of pimc:W on every seat, in a fresh process on ``tree``'s code."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    out = subprocess.run([sys.executable, "-c", PASS, name, str(deals), str(worlds), str(seed),
                          KING_CONTRACT], cwd=tree, env=env, check=True, capture_output=True,
                         text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def against(rev: str, games: list[str], deals_of, worlds: int, rounds: int, seed: int) -> None:
    """Deals a second of pimc at revision ``rev`` and in this tree, alternating passes."""
    with tempfile.TemporaryDirectory() as tmp:
        old = Path(tmp) / "rev"
        subprocess.run(["git", "-C", str(REPO), "worktree", "add", "--detach", "--quiet",
                        str(old), rev], check=True)
        try:
            rows = []
            for name in games:
                deals = deals_of(name)
                for tree in (old, REPO):  # compiles where needed, untimed
                    timed_pass(tree, name, 2, worlds, seed + 7)
                walls = {old: [], REPO: []}
                for r in range(rounds):
                    for tree in ((old, REPO) if r % 2 == 0 else (REPO, old)):
                        walls[tree].append(timed_pass(tree, name, deals, worlds, seed))
                then, now = statistics.median(walls[old]), statistics.median(walls[REPO])
                rows.append({"game": name, "deals": deals, f"s at {rev}": then, "s now": now,
                             f"deals/s at {rev}": deals / then, "deals/s now": deals / now,
                             "ratio": then / now})
            print(f"\npimc:{worlds} on every seat, at {rev} and now: medians of {rounds} "
                  f"passes each, alternating, one thread, seed {seed}")
            print(pd.DataFrame(rows).set_index("game").to_string())
        finally:
            subprocess.run(["git", "-C", str(REPO), "worktree", "remove", "--force", str(old)],
                           check=False)


def by_cards(table: np.ndarray) -> pd.DataFrame:
    """The counters as a table by cards in hand (rows with decisions only), with a total."""
    rows = [(str(k), table[k]) for k in range(probe.STAT_ROWS) if table[k, 0] > 0]
    rows.append(("all", table.sum(axis=0)))
    recs = []
    for label, t in rows:
        dec, quick, worlds, searches, nodes, secs = (t[probe.ST_DECISIONS], t[probe.ST_UNSEARCHED],
                                                     t[probe.ST_WORLDS], t[probe.ST_SEARCHES],
                                                     t[probe.ST_NODES], t[probe.ST_CYCLES])
        recs.append({"cards": label, "decisions": int(dec),
                     "unsearched": f"{quick / dec:.0%}",
                     "worlds/dec": worlds / dec,
                     "searches/world": searches / max(worlds, 1),
                     "nodes/search": nodes / max(searches, 1),
                     "ms/dec": secs * 1e3 / dec})
    return pd.DataFrame(recs).set_index("cards")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="+", default=list(DEALS), choices=list(DEALS))
    parser.add_argument("--deals", type=int, help="deals a pass (default: pedro 60, else 12)")
    parser.add_argument("--worlds", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--against", metavar="REV",
                        help="also time a git revision's pimc on the same deals (e.g. f3cd52b)")
    args = parser.parse_args()
    numba.set_num_threads(1)  # the counters are plain adds: one thread
    pd.set_option("display.width", 120)
    pd.set_option("display.precision", 2)
    for name in args.games:
        deals = args.deals or DEALS[name]
        run(name, 2, args.worlds, False, args.seed + 1)  # compile outside the timings
        totals = {True: [0.0, 0.0], False: [0.0, 0.0]}  # wall, decisions
        tables = {}
        for r in range(args.rounds):
            for full in ((True, False) if r % 2 == 0 else (False, True)):
                wall, table = run(name, deals, args.worlds, full, args.seed)
                totals[full][0] += wall
                totals[full][1] += table[:, probe.ST_DECISIONS].sum()
                tables[full] = table if full not in tables else tables[full] + table
        what = f"{name}" + (f" ({KING_CONTRACT} hands)" if name == "king" else "")
        print(f"\n{what}: pimc:{args.worlds} on every seat, {deals} deals x {args.rounds} "
              f"rounds, seed {args.seed}, one thread")
        for full in (True, False):
            wall, dec = totals[full]
            print(f"\n{'full (every world)' if full else 'now (the race)'}: {dec:,.0f} decisions "
                  f"in {wall:.1f} s, {dec / wall:,.1f} decisions/s, "
                  f"{deals * args.rounds / wall:.2f} deals/s")
            print(by_cards(tables[full]).to_string())
        (w_full, d_full), (w_now, d_now) = totals[True], totals[False]
        print(f"\n{name}: decisions/s now / full = {(d_now / w_now) / (d_full / w_full):.2f}x; "
              f"deals/s now / full = {w_full / w_now:.2f}x")
    if args.against:
        against(args.against, args.games, lambda name: args.deals or DEALS[name], args.worlds,
                args.rounds, args.seed)


if __name__ == "__main__":
    main()
