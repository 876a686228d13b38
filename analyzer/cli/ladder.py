"""``bidlab ladder``: how much the card player moves each bid's value.

May import: :mod:`.group`, :mod:`.options`, the games' registry and protocol,
:mod:`analyzer.ladder`, documents, io and plotting; never another command module.
"""

from __future__ import annotations

import click
from click.core import ParameterSource

from .. import atomic, io, runs
from ..documents import dumps, provenance, records
from ..games import common
from ..games import game as game_of
from ..games.common import LADDER_RUNGS as RUNGS  # here: the ladder loads numba
from .group import main
from .options import (
    OUT_DIR,
    POLICY,
    REPLACED_FOLDER,
    Count,
    contract_option,
    executor_options,
    game_argument,
    json_option,
    progress_option,
    resolve_rules,
    rule_option,
    seed_option,
    with_progress,
)


@main.command()
@game_argument
@click.option("--deals", type=Count(1), default=2000,
              help="Deals, the same ones for every rung (a searching rung too: size them by "
                   "its pace). Refused with one line when they would not fit in free memory "
                   "or finish within 24 hours.  [default: 2,000]")
@seed_option
@rule_option
@click.option("--rungs", default=",".join(RUNGS), show_default=True, metavar="P,P,...",
              help="Card players of the trump maker's side, in the table's order; "
                   "--duplicate matches each with the next, so weakest first reads best.")
@click.option("--opponents", type=POLICY, default="heuristic", show_default=True,
              help="Card player of the other side.")
@click.option("--worlds", type=Count(1, common.MAX_WORLDS), default=common.DEFAULT_WORLDS,
              show_default=True,
              help="Worlds per pimc decision for a bare pimc (pimc:W keeps its W).")
@click.option("--duplicate", "dup", is_flag=True,
              help="Also play each pair of neighbouring rungs as a duplicate match "
                   "(partnerships swapped). Not King.")
@contract_option("King only: the contract's single hands (default positive; a negative "
                 "one, e.g. no-hearts, ladders one seat's penalty).")
@click.option("--out-dir", type=OUT_DIR, default=None,
              help="Write deals.parquet, summary.csv, by_bid.csv (each CSV with its provenance "
                   "in NAME.csv.json) and by_bid.png into this folder, atomically. "
                   f"{REPLACED_FOLDER}")
@json_option
@progress_option
@executor_options
def ladder(game, deals, seed, rule_pairs, rungs, opponents, worlds, dup, contract, out_dir,
           as_json, progress, executor, scheduler, workers) -> None:
    """How much the card player moves each bid's value: the policy ladder.

    The same deals are played with the trump maker's side choosing cards by
    each rung against fixed opponents. Everyone bids, names trump and
    discards (Rook: drops and passes) by the heuristic, so every rung plays
    the same contracts. The table gives the mean bidding-side points and
    P(make) per bid level, and each rung's paired difference from the
    heuristic. In King the rung plays the positive hand's trump chooser (its
    bid is the price paid in tricks, its measure the tricks it takes; hands
    declined 4-3-3-3 are not played), or with a negative --contract one seat
    in turn, measured by its penalty. dd is clairvoyant (it sees every hand),
    not a legal player: an upper bound on Pedro's and Cinch's play; Rook and
    King dd and pimc solve the last 6 tricks, after the heuristic's first 7.
    pimc solves WORLDS sampled deals per
    decision: thousands of times the heuristic's time (on two cores about 5 ms
    a Pedro deal, 30-70 ms a Rook or King hand), so size --deals with that in
    mind, or send the deals to a Dask cluster (--executor): the same table.

    \b
    Examples:
      bidlab ladder pedro --deals 200 --rungs random,heuristic,dd
      bidlab ladder pedro --deals 40 --worlds 20 --duplicate
      bidlab ladder cinch --deals 200 --rungs heuristic,dd --out-dir reports/ladder
      bidlab ladder rook --deals 2000 --rungs random,heuristic --duplicate
      bidlab ladder king --deals 300 --rungs random,heuristic,dd
      bidlab ladder king --deals 2000 --contract no-hearts --rungs random,heuristic
      bidlab ladder pedro --deals 20 --rungs random,heuristic --duplicate --json
      bidlab ladder pedro --deals 40 --rungs heuristic,pimc --executor dask-local --workers 2
    """
    from .. import ladder as lad
    from .. import plotting

    rules = resolve_rules(game, rule_pairs)
    names = lad.check_rungs(rungs.split(","))
    given = click.get_current_context().get_parameter_source("worlds")
    if given is not ParameterSource.DEFAULT and "pimc" not in (*names, opponents):
        raise click.UsageError(f"--worlds {worlds} is for a bare pimc rung or --opponents "
                               "pimc, and none plays here (pimc:W names its own worlds)")
    g = game_of(rules)
    g.check_contract(contract, rules)
    if dup:
        g.require("partnerships", "--duplicate")
    ex = runs.executor(executor, scheduler, workers)
    try:
        result = with_progress(progress, deals * len(names), lambda bar: lad.ladder(
            rules, deals, seed, names, opponents, worlds, progress=bar, contract=contract,
            executor=None if executor == "local" else ex), "playing the rungs")
        dups = [lad.duplicate(rules, hi, lo, deals, seed, worlds=worlds,
                              executor=None if executor == "local" else ex)
                for lo, hi in zip(names, names[1:], strict=False)] if dup else []
    finally:
        ex.close()
    summ = result.summary(lad.baseline_of(result.rungs))
    by_bid = result.by_bid()
    what = f"  contract {result.provenance['contract']}" if "contract" in result.provenance else ""

    def echo(text: str) -> None:  # the tables; with --json, one document at the end instead
        if not as_json:
            click.echo(text)

    echo(lad.render_ladder(result, summ, by_bid))  # the tables it also writes and prints
    if dup:
        echo("")
        echo("duplicate matches (same deals, partnerships swapped; whole players, "
             f"bidding included): A's edge per {g.deal_unit[:-1]}")
        for d in dups:
            echo(f"  {lad.label(d.a)} vs {lad.label(d.b)}: points {d.net_points.format(3)}"
                 f"; score {d.net_score.format(3)}  ({d.seconds:.1f} s)")
    dups = [d.row() for d in dups]
    if as_json:
        click.echo(dumps(ladder_document(result, summ, by_bid, dups, names)))
    if out_dir is not None:
        meta = {k: str(v) for k, v in result.provenance.items()}
        with atomic.atomic_dir(out_dir) as tmp:
            files = [io.write_table(result.deals, tmp / "deals.parquet", meta),
                     io.write_table(summ, tmp / "summary.csv", meta)]
            if dups:
                import pandas as pd

                files.append(io.write_table(pd.DataFrame(dups), tmp / "duplicate.csv", meta))
            if len(by_bid):  # a negative King contract has no bid levels
                files.append(io.write_table(by_bid, tmp / "by_bid.csv", meta))
                fig = plotting.ladder_by_bid(by_bid, title=f"policy ladder: {rules}{what}, "
                                                           f"seed {seed}, n={deals:,}",
                                             measure=result.measure)
                files.append(plotting.save_figure(fig, tmp / "by_bid.png"))
            files.append(io.write_manifest(tmp, meta, files))
        click.echo(f"wrote {out_dir}/{', '.join(p.name for p in files)}", err=as_json)


def ladder_document(result, summ, by_bid, dups, names) -> dict:
    """What ``ladder --json`` prints: the provenance, then the tables of the --out-dir files,
    summary (one row a rung), by_bid (each mean with its 95% bounds) and duplicate, every
    number with its n."""
    from ..ladder import label

    return {"provenance": provenance({**result.provenance, "n": result.provenance["deals"],
                                      "rungs": [label(r) for r in names],
                                      "policies": list(names)}),
            "measure": result.measure,
            "interval": "95%: means by Student's t (mean, t se), rates by Wilson; the "
                        "difference from heuristic paired deal by deal",
            "summary": records(summ), "by_bid": records(by_bid), "duplicate": dups}
