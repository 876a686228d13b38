"""``bidlab report``: a strategy report from a scenario file.

May import: :mod:`.group`, :mod:`.options`, :mod:`analyzer.report` and
:mod:`analyzer.runs`; never another command module.
"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import click

from .group import main
from .options import OUT_DIR, executor_options


@main.command()
@click.argument("scenario", type=click.Path(dir_okay=True, path_type=Path), metavar="SCENARIO")
@click.option("--out", type=OUT_DIR, default=None,
              help="The report folder (replaced whole when the report is done; an earlier "
                   "report there stays until then).  [default: reports/<scenario name>]")
@click.option("--quick", is_flag=True,
              help="Cut every size to its quick size (simulations/README.md): a check of "
                   "the scenario in seconds, not numbers to quote.")
@click.option("--progress/--no-progress", default=None,
              help="Progress bars on stderr [default: when stderr is a terminal]; a line per "
                   "section is said either way.")
@executor_options
def report(scenario, out, quick, progress, executor, scheduler, workers) -> None:
    """Write a strategy report (HTML, Markdown, figures, data, manifest) from a scenario file.

    SCENARIO is a TOML file: the game and rules, seed, policy, and one table per section
    wanted ([bids], [seats], [bid_chart], [hands], [[variants]], [ladder], [games]).
    Every key and its default: simulations/README.md. The file is checked whole before
    any deal is played; the folder gets index.html, report.md, figures/, data/ (Parquet
    and CSV) and manifest.json.

    Run from a clone's folder, the scenarios are in simulations/; `make report` builds
    the four full game reports into reports/ (minutes each). With --executor the deals
    are played on a Dask cluster: the data files are the same.

    \b
    Examples:
      bidlab report simulations/quick-pedro.toml --out quick-pedro
      bidlab report simulations/cinch-min-bid.toml --quick --out cinch-min-bid
      bidlab report simulations/quick-pedro.toml --executor dask-local --workers 2
    """
    from ..report.build import build_report
    from ..report.scenario import load_scenario

    s = load_scenario(scenario, quick=quick)
    out = out if out is not None else Path("reports") / s.name
    show = sys.stderr.isatty() if progress is None else progress
    bars = []

    def bar(total: int, label: str):
        if not show:
            return None
        while bars:
            bars.pop().__exit__(None, None, None)
        b = click.progressbar(length=total, label=label, file=sys.stderr)
        bars.append(b)
        return b.__enter__().update

    def say(line: str) -> None:
        while bars:
            bars.pop().__exit__(None, None, None)
        click.echo(f"bidlab report: {line}", err=True)

    # the command as parsed (sys.argv is another program's when bidlab runs in-process)
    where = {"--executor": executor, "--scheduler": scheduler, "--workers": workers}
    command = shlex.join(["bidlab", "report", str(scenario), "--out", str(out),
                          *(["--quick"] if quick else []),
                          *(f"{k}={v}" for k, v in where.items() if v and v != "local")])
    from .. import runs

    ex = runs.executor(executor, scheduler, workers)
    try:
        folder = build_report(s, out, command, say, bar,
                              None if executor == "local" else ex)
    finally:
        ex.close()
    click.echo(f"{folder}/index.html")
    click.echo(f"wrote {folder}/ (index.html, report.md, figures/, data/, manifest.json)",
               err=True)
