"""``bidlab bid-chart``: what each bidding action is worth, by class of hand.

May import: :mod:`.group`, :mod:`.options`, :mod:`.jobs`, the games' registry and protocol,
the runs package, :mod:`analyzer.bidchart` for its features and :mod:`analyzer.twolevel`
for its checks; never another command module.
"""

from __future__ import annotations

import time
from pathlib import Path

import click

from .. import runs
from ..games import game as game_of
from ..twolevel import check_request
from .group import main
from .jobs import require_apart, run_job, show
from .options import (
    OUT_DIR,
    REPLACED_FOLDER,
    base_options,
    check_base,
    chunk_option,
    clock_bar,
    executor_options,
    game_argument,
    json_option,
    policy_option,
    progress_option,
    resolve_rules,
    rule_option,
    run_dir_option,
    search_sized,
    seed_option,
    size_option,
    with_progress,
)


def feature_names(ctx, param, value: str | None) -> tuple[str, ...] | None:
    """--by as a tuple of names; checked against GAME's features in the command, since
    click may process --by before GAME."""
    if value is None:
        return None
    return tuple(f.strip().lower() for f in value.split(",") if f.strip())


def chart_features(by: tuple[str, ...] | None, rules) -> tuple[str, ...] | None:
    """The classes' features: --by (or GAME's default) checked against GAME's; None for a
    game whose charts choose their own (refusing --by there)."""
    from ..chart_features import ChartError, check_features

    g = game_of(rules)
    if g.chart_by is None:
        if by is not None:
            raise g.refuse("--by", "chart_by")
        return None
    try:
        return check_features(by if by is not None else g.chart_by[1], rules)
    except ChartError as e:
        raise click.BadParameter(str(e), param_hint="'--by'") from None


@main.command("bid-chart")
@game_argument
@size_option("bid-chart", "--deals", 2_000_000,
             "Deals to play; every seat's hand of each is charted (4 hands a deal).")
@seed_option
@policy_option
@rule_option
@click.option("--by", default=None, callback=feature_names, metavar="FEATURE,...",
              help="Hand features that define a class [default: trumps,pedros,ace,seat; "
                   "rook: trumps,counters,rook,seat]. Not King (its classes are fixed).")
@click.option("--out-dir", type=OUT_DIR, default=None,
              help="Write chart.parquet, chart.csv, classes.csv, guide.csv, violations.csv "
                   "(each CSV with its provenance in NAME.csv.json), heatmap.png and "
                   "manifest.json into this folder, created if missing, atomically. "
                   f"{REPLACED_FOLDER}")
@base_options("each EV", "the classes' leading EVs' interval (on average over the hands dealt)",
              " Not King.")
@json_option
@progress_option
@run_dir_option(merges=False)
@chunk_option(writes_rows=False)
@executor_options
@click.pass_context
def bid_chart_cmd(ctx, game, deals, seed, policy, rule_pairs, by, base, base_deals, budget,
                  out_dir, as_json, progress, run_dir, chunk, executor, scheduler, workers) -> None:
    """Bid-value chart: what each bidding action is worth to a seat, by its class of hand.

    Every hand dealt to every seat counts (4 per deal), whether or not it would
    win the auction. Each is played once per action on the same cards: pass,
    and bid b in its turn for every legal b (Rook, and Pedro's dealer: raise
    by the minimum up to b) while the others bid by their policy and may outbid it; if it wins it
    names its best trump (its policy's suit). The hands are classed by
    features of that suit (Rook: the longest suit): trumps held, counters, top
    trumps, seat. For each class: n, the side's points as sole bidder,
    EV(pass), EV(b) and the paired gain over passing with 95% intervals,
    P(make b) as sole bidder, and the recommended action: a bid only where it
    beats passing, and every lower bid, beyond the noise (otherwise pass, with
    the margin shown). Then a guide per seat (the weakest class recommended to
    bid at least b) and a check that adding a card never lowers the
    recommended bid, each exception printed with its interval. Features:
    trumps, counters, pedros, ace, king, queen, jack, ten, two, right, left,
    seat, dealer; Rook: trumps, counters, aces, rook, seat, dealer. King gives
    danger charts (each seat's penalty by its hand's features, per negative
    contract), the trump right's value by hand class for every seat, and a
    seat-position table over whole games.

    With --base (Pedro, Cinch, Rook), the EVs, gains and recommendations are
    two-level estimates of --policy's: the cheap --base policy plays
    --base-deals deals (N), --policy the first --deals of them (n) too, and each
    EV is the cheap mean plus the searching player's correction fitted on n.
    The header says so; the points as sole bidder and P(make) are the searching
    player's own over its n deals. --budget SECONDS chooses N and n instead: a
    pilot measures both players' costs and variances, and the split makes the
    classes' leading EVs narrowest on average over the hands dealt. With
    --run-dir, --chunk or --executor its chunks are played there like a plain
    chart's (the first n deals in a searching run's chunks), and bidlab resume
    goes on with it.

    \b
    Examples:
      bidlab bid-chart pedro --deals 200000
      bidlab bid-chart cinch --deals 100000 --by trumps,counters,seat --out-dir cinch-chart
      bidlab bid-chart "pedro(low_to=holder)" --deals 100000 --by trumps,two,pedros,seat
      bidlab bid-chart rook --deals 50000 --by trumps,counters,aces,seat
      bidlab bid-chart king --deals 50000 --out-dir king-chart
      bidlab bid-chart pedro --deals 2000 --json --out-dir small-chart
      bidlab bid-chart rook --deals 100000 --run-dir rook-chart-run
      bidlab bid-chart pedro --policy pimc:20 --base heuristic --deals 10 \\
          --base-deals 50000 --by trumps,seat
    """
    rules = resolve_rules(game, rule_pairs)
    g = game_of(rules)
    by = chart_features(by, rules)
    check_base(ctx, base, budget)
    if budget is None:  # a budget sizes the run itself
        deals = search_sized(ctx, "deals", deals, policy)
    two_level = {} if base is None else {"base": base, "base_deals": base_deals,
                                         "budget": budget}
    if run_dir is not None or chunk is not None or executor != "local":
        if budget is not None:
            raise click.UsageError("--budget splits a run in this process: not with "
                                   "--run-dir, --chunk or --executor (give --deals and "
                                   "--base-deals)")
        if run_dir is not None and out_dir is not None:
            require_apart(run_dir, out_dir, "--out-dir", "the chart would replace the run's "
                          "chunks, or the run the chart's folder; give two separate folders")
        # a two-level chart's run is its N cheap deals, the first n of them searched too
        job = runs.Job.of(rules, seed, policy, kind="bid-chart", by=by, base=base,
                          search_deals=deals)
        if base is not None:
            check_request(job.policy, job.base, deals, base_deals)
        show(job, run_job(job, 0, deals if base is None else base_deals, run_dir, chunk,
                          (executor, scheduler, workers), None, progress, out_dir=out_dir),
             as_json, out_dir=out_dir)
        return
    work, label = deals + (base_deals if base is not None else 0), "simulating"
    if budget is not None:  # the bar follows the clock, in tenths of a second
        work, label = max(1, round(10 * budget)), f"simulating (about {budget:g} s)"
    started = time.perf_counter()
    chart = with_progress(progress, work, lambda bar: g.bid_chart(  # a budget chooses deals
        rules, deals if budget is None else None, seed, policy, by, **two_level,
        progress=bar if bar is None or budget is None else clock_bar(bar, started)), label)
    if as_json:
        from ..documents import dumps, frames, provenance

        click.echo(dumps({**frames(chart), "provenance": provenance(chart.provenance)}))
    else:
        click.echo(g.render_chart(chart))
    if out_dir is not None:
        g.write_chart(chart, Path(out_dir))
        click.echo(f"wrote {out_dir}/", err=True)
