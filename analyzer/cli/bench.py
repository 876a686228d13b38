"""``bidlab bench``: deals per second for each game and policy, one thread against all;
``bidlab warmup``: compile the kernels ahead of time.

May import: :mod:`.group`, :mod:`.options`, :mod:`analyzer.bench`, :mod:`analyzer.warmup`,
documents and text; never another command module.
"""

from __future__ import annotations

import dataclasses

import click

from ..documents import dumps, provenance
from ..text import render_table
from .group import main
from .options import GAME, POLICY, Count, json_listing, json_option, progress_option, with_progress


@main.command()
@click.option("--game", "games_", type=GAME, multiple=True, default=("pedro", "rook"),
              show_default=True, help="Game or variant to time (repeatable).")
@click.option("--policy", "policies", type=POLICY, multiple=True,
              default=("random", "heuristic"), show_default=True,
              help="Policy to time (repeatable).")
@click.option("--deals", type=Count(1), default=1_000_000,
              help="Deals per timed run. Refused with one line when they would not fit in free "
                   "memory, or when the runs would take over 24 hours at the pace of a small "
                   "first run.  [default: 1,000,000]")
@click.option("--repeats", type=Count(1, 1_000), default=3, show_default=True,
              help="Timed runs per figure; the best is reported.")
@json_option
@progress_option
def bench(games_, policies, deals, repeats, as_json, progress) -> None:
    """Deals per second for each game x policy on 1 thread and on all threads.

    A deal is complete: deal, auction, discard/draw/rob (Pedro) or widow, drop
    and passing (Rook), play, score and record; for Rook a deal is one hand.
    The speed-up column is the all-threads figure over the 1-thread figure
    measured in the same run.

    \b
    Examples:
      bidlab bench --deals 200000
      bidlab bench --deals 200000 --policy heuristic
      bidlab bench --game cinch --policy random --deals 200000 --repeats 5
      bidlab bench --game rook --policy heuristic --deals 200000
      bidlab bench --game pedro --policy random --deals 2000 --repeats 1 --json
    """
    from .. import bench as bench_mod  # loads the thread pool only when timing

    # a game or policy given twice is timed once (its rows were listed twice)
    games_ = tuple(dict.fromkeys(str(g) for g in games_))
    policies = tuple(dict.fromkeys(policies))
    total = len(bench_mod.plan(games_, policies))
    rows = with_progress(progress, total, lambda bar: bench_mod.run(
        games=games_, policies=policies, deals=deals, repeats=repeats, progress=bar),
        "timing")
    one = {(r.game, r.policy): r.deals_per_s for r in rows if r.threads == 1}
    speed_up = [r.deals_per_s / one[(r.game, r.policy)] if (r.game, r.policy) in one else None
                for r in rows]
    if as_json:
        click.echo(dumps({
            "provenance": provenance({
                "games": list(games_), "policies": list(policies), "deals": deals,
                "repeats": repeats, "seed": bench_mod.SEED,
                "threads": sorted({r.threads for r in rows}),
                "statistic": "best of --repeats timed runs; speed_up over 1 thread"}),
            "rows": [{"game": r.game, "policy": r.policy, "threads": r.threads,
                      "deals": r.deals, "seconds": r.seconds, "deals_per_s": r.deals_per_s,
                      "speed_up": up} for r, up in zip(rows, speed_up, strict=True)]}))
        return
    table = [[r.game, r.policy, r.threads, r.deals, f"{r.seconds:.3f}", f"{r.deals_per_s:,.0f}",
              "-" if up is None else f"{up:.2f}x"] for r, up in zip(rows, speed_up, strict=True)]
    click.echo(render_table(["game", "policy", "threads", "deals", "seconds", "deals/s",
                             "speed-up"], table, "llrrrrr"))


@main.command()
@click.argument("games_", metavar="[GAME]...", nargs=-1, type=GAME)
@click.option("--search", is_flag=True,
              help="Also compile the kernels with the search behind dd and pimc seats (a "
                   "few minutes more).")
@json_listing("each game's compile time")
def warmup(games_, search, as_json) -> None:
    """Compile the kernels of GAME (default: every game) now, and say how long it took.

    Each kernel compiles once per installation (minutes on a small machine) and loads from
    numba's cache afterwards; warm up before a timed run, after an upgrade, or on each
    machine of a cluster. Two processes warming up at once do not both compile: the
    second waits for the first and loads its work. The cache is invalidated by an edit to
    a kernel module (or one it imports), another numba or Python version, or another CPU.
    With --json the module lines go to stderr as they come, and stdout gets one document.

    \b
    Examples:
      bidlab warmup
      bidlab warmup pedro
      bidlab warmup rook king --search
      bidlab warmup pedro --json
    """
    from ..games import PRESET_NAMES
    from ..warmup import warm

    presets = list(dict.fromkeys(str(g) for g in games_)) or list(PRESET_NAMES)

    def say(row) -> None:
        click.echo(f"{row.module.removeprefix('analyzer.games.'):16} {row.seconds:7.1f} s  "
                   f"{how(row)}", err=as_json)

    rows = warm(presets, search=search, progress=say)
    total = sum(r.seconds for r in rows)
    if as_json:
        click.echo(dumps({
            "provenance": provenance({"games": presets, "search": search}),
            "modules": [{**dataclasses.asdict(r), "how": how(r)} for r in rows],
            "seconds": total}))
    else:
        click.echo(f"{'in all':16} {total:7.1f} s")


def how(row) -> str:
    """Where a module's kernels came from, as warmup words it."""
    return (f"compiled {row.compiled} of {row.kernels} kernels" if row.compiled
            else "from the cache" if row.kernels else "compiled at import or cached")
