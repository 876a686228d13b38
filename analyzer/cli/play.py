"""Commands that play deals: ``simulate``, ``compare``, ``match`` and ``deal``.

Each parses its options, asks GAME's :class:`~analyzer.games.protocol.Game` for the work,
and prints; a capability GAME lacks (contracts, games to a target) is refused by the game
in one line.

May import: :mod:`.group`, :mod:`.options`, the games' registry and protocol, and the
analysis layers (summary, compare, stats, estimate_text, io, text); never another command module.
"""

from __future__ import annotations

import time

import click

from .. import atomic, io, runs
from ..documents import dumps, provenance, records
from ..games import game as game_of
from ..games.common import policy_label
from ..limits import GAME_MAX_DEALS, GAME_MAX_GAMES
from ..text import render_table
from .group import main
from .jobs import require_apart, run_job, show
from .options import (
    GAME,
    INDEX,
    MAX_INDEX,
    Count,
    base_options,
    check_base,
    check_games,
    chunk_option,
    clock_bar,
    contract_option,
    executor_options,
    game_argument,
    json_option,
    out_option,
    policy_option,
    progress_option,
    resolve_rules,
    rule_option,
    rules_option,
    run_dir_option,
    search_sized,
    seed_option,
    size_option,
    with_progress,
)


@main.command()
@game_argument
@size_option("simulate", "--deals", 100_000, "Number of deals to simulate.")
@seed_option
@policy_option
@rule_option
@click.option("--first", type=INDEX, default=0, show_default=True,
              help="Index of the first deal; extend a run with --first N_DONE.")
@out_option("one row per deal (cards, suits and seats also as text: hand0_text ...)")
@json_option
@progress_option
@contract_option("King only: simulate single hands of this contract (no-tricks, no-hearts, "
                 "no-kings-jacks, no-queens, no-king-of-hearts, last-two, positive) instead "
                 "of whole 10-hand games.")
@run_dir_option(merges=True)
@chunk_option(writes_rows=True)
@executor_options
@click.pass_context
def simulate(ctx, game, deals, seed, policy, rule_pairs, first, out, as_json, progress,
             contract, run_dir, chunk, executor, scheduler, workers) -> None:
    """Simulate DEALS deals of GAME; print a summary with n and 95% intervals.

    The summary gives the points of the bidding side and the other side, the
    bidder's make rate by bid, the share of no-contract deals and the dealer's
    advantage under both settlement methods. Everything is checked before the
    first deal is played; --out is written only when the run succeeds.

    \b
    Examples:
      bidlab simulate pedro --deals 1000000 --seed 7
      bidlab simulate "pedro(low_to=holder)" --policy heuristic,random,heuristic,random
      bidlab simulate cinch --rule m2_diff_to=bidder_only --out cinch.parquet
      bidlab simulate pedro --deals 1000000 --first 1000000 --out more.parquet
      bidlab simulate rook --deals 1000000 --seed 3 --rule pass_cycle=left
      bidlab simulate king --deals 200000 --seed 5
      bidlab simulate king --deals 1000000 --contract no-hearts
      bidlab simulate pedro --deals 2000 --json --out deals.csv
      bidlab simulate pedro --deals 1000000 --run-dir pedro-run --out pedro-run.parquet
      bidlab simulate pedro --deals 1000000 --executor dask-local --workers 2
    """
    rules = resolve_rules(game, rule_pairs)
    g = game_of(rules)
    g.check_contract(contract, rules)
    deals = search_sized(ctx, "deals", deals, policy)
    if first + deals - 1 > MAX_INDEX:
        raise click.UsageError(
            f"--first + --deals must not pass the last deal index 2**63-1; got --first {first} "
            f"--deals {deals}"
        )
    if run_dir is not None and out is not None:
        require_apart(run_dir, out, "--out", "the table would go among the run's chunks, or "
                      "the run where the table goes; write the table outside the run's folder")
    job = runs.Job.of(rules, seed, policy, contract, rows=out is not None)
    show(job, run_job(job, first, deals, run_dir, chunk, (executor, scheduler, workers), out,
                      progress), as_json, out)


@main.command()
@click.argument("run_dir", metavar="DIR", type=click.Path(file_okay=False))
@click.option("--extend", type=Count(1), default=None,
              help="Add this many deals after the run's last, continuing its stream: the "
                   "numbers are those of one run of the combined size.")
@out_option("the rows of the whole run [default: the --out it was started with; only a run "
            "started with --out keeps its rows]")
@json_option
@progress_option
@executor_options
def resume(run_dir, extend, out, as_json, progress, executor, scheduler, workers) -> None:
    """Go on with the run kept in DIR (simulate --run-dir DIR): its missing chunks, and more.

    After a kill or a crash it plays the chunks the run is missing; --extend N adds N
    deals. It prints the summary of the whole run: the same numbers as one uninterrupted
    run, bit for bit, and writes the rows (--out) or the chart's folder (bid-chart
    --out-dir) the run was started with.

    The examples' run comes from simulate's: bidlab simulate pedro --deals 1000000
    --run-dir pedro-run --out pedro-run.parquet.

    \b
    Examples:
      bidlab resume pedro-run
      bidlab resume pedro-run --extend 1000000
      bidlab resume pedro-run --executor dask-local --workers 2
    """
    store = runs.RunStore(run_dir)
    if out is None and store.out is not None:
        out = check_recorded(store.out, run_dir, "--out", io.check_out_table)
    if store.out_dir is not None:
        check_recorded(store.out_dir, run_dir, "--out-dir", atomic.check_out_dir)
    if out is not None and not store.job.rows:
        raise runs.RunStoreError(f"{run_dir} kept no rows (its run had no --out): start "
                                 "the run again with --out and a new --run-dir to have them")
    result = run_job(store.job, store.first, store.deals, run_dir, None,
                     (executor, scheduler, workers), out, progress, extend or 0)
    show(store.job, result, as_json, out, store.out_dir)  # a chart's folder, as first asked


def check_recorded(path: str, run_dir: str, option: str, check):
    """``path``, the ``option`` a run was started with, checked as the option itself is and
    before any chunk is played: a user's own file put there since is refused, not replaced,
    and a table's folder moved away is found now, not after the run (a chart's folder is
    made again, as --out-dir makes it)."""
    try:
        return check(path)
    except (OSError, io.TableFormatError) as e:
        why = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
        raise runs.RunStoreError(f"cannot write {path}, the {option} {run_dir} was started "
                                 f"with: {why}") from None


@main.command("merge")
@click.argument("run_dirs", nargs=-1, required=True, metavar="DIR...",
                type=click.Path(file_okay=False))
@out_option("the rows of all the runs (runs started with --out keep them), by seed and "
            "deal; with a seed column when there are several seeds")
@json_option
def merge_runs(run_dirs, out, as_json) -> None:
    """One summary of the runs kept in DIR... (simulate --run-dir).

    The runs must share their game, rules, policy and contract, and their deals must not
    overlap (other seeds, or other ranges of one seed); others are refused with one line.
    A run not finished counts with the chunks it has, and says so on stderr.

    The examples' runs come from: bidlab simulate pedro --seed 1 --run-dir pedro-seed1
    --out seed1.parquet, and the same with --seed 2 and pedro-seed2.

    \b
    Examples:
      bidlab merge pedro-seed1 pedro-seed2
      bidlab merge pedro-seed1 pedro-seed2 --out both.parquet
    """
    stores = runs.merged_stores(list(run_dirs))  # the chunks now: a run may play into one
    summary = runs.merged_summary(stores)
    rows = runs.merged_row_parts(stores, summary) if out is not None else None
    # after the checks: a refusal (a run with no finished chunk) is the one line on stderr
    for folder, store in zip(run_dirs, stores, strict=True):
        if not store.complete():
            click.echo(f"bidlab: {folder} is not finished: {store.n_done:,} of "
                       f"{store.deals:,} deals (bidlab resume {folder})", err=True)
    click.echo(dumps(summary.to_document()) if as_json else summary.to_text())
    if rows is not None:
        meta, parts = rows
        io.write_table_parts(parts, out, meta)
        click.echo(f"wrote {out} ({meta['n']} rows)", err=True)


@main.command()
@click.argument("variant_a", type=GAME, metavar="A")
@click.argument("variant_b", type=GAME, metavar="B")
@size_option("compare", "--deals", 1_000_000, "Deals played under both variants (the same "
             "deals).", least=2)
@seed_option
@policy_option
@rules_option("both A and B, after their own flags")
@base_options("each figure", "the first measure's B − A")
@out_option("the table, one row per measure (A, B, the paired B − A, their 95% bounds and n)")
@json_option
@progress_option
@contract_option("King only: compare single hands of this contract (no-tricks, no-hearts, "
                 "no-kings-jacks, no-queens, no-king-of-hearts, last-two, positive), hand i "
                 "the same cards under A and B, instead of whole 10-hand games: a rule of "
                 "one hand measured on that hand alone.")
@click.option("--games", "n_games", type=Count(2, GAME_MAX_GAMES), default=None,
              help="Pedro, Cinch and Rook: compare this many whole games to the target "
                   "instead of single deals, game i the same deals under A and B: who wins "
                   "and how long games last, for a rule of whole games (target, "
                   "no_contract_tie) or any other.")
@click.option("--max-deals", type=Count(1, GAME_MAX_DEALS), default=None,
              help="With --games: a game not decided after this many deals is counted "
                   "undecided.  [default: the more of A's and B's own: 1,000, or twice the "
                   "target when that is more]")
@executor_options
@click.pass_context
def compare(ctx, variant_a, variant_b, deals, seed, policy, base, base_deals, budget,
            rule_pairs, out, as_json, progress, contract, n_games, max_deals, executor,
            scheduler, workers) -> None:
    """What a rule change does: variants A and B on identical deals, paired differences.

    Deal i of the seed is the same deal under every variant of one deck (Rook's
    points=parker_adapt deals 41 cards: the table says so), so each measure's
    difference B − A is taken deal by deal, with a 95% interval far narrower
    than two independent runs would give. A deal that a redeal flag throws in
    counts as its redeal (the next cards of that deal's stream), so the rule's
    effect shows, with a row of how often each variant threw deals in. --rule
    sets a flag in both A and B (the same flag in A's or B's own string is
    overridden).

    Each measure's verdict says "B higher" or "B lower" only where its paired
    interval excludes zero, with a star where it still does with the 95% shared
    by all the measures (Bonferroni); otherwise "no difference beyond the
    noise". A note under the table counts how many would look beyond the noise
    by chance.

    With --base, every figure is a two-level estimate of --policy's: the cheap
    --base policy plays --base-deals deals (N) under both variants, --policy the
    first --deals of them (n) too, and each figure is the cheap mean plus the
    searching player's correction fitted on the n, with an interval from both parts.
    The header says so; the table adds the correction of each difference.
    --budget SECONDS chooses N and n instead (a pilot measures both players'
    costs and the spread of the first measure's B − A, then the split that
    makes that interval narrowest in the time).

    \b
    Examples:
      bidlab compare pedro "pedro(low_to=holder)"
      bidlab compare pedro cinch --deals 2000000
      bidlab compare "pedro(min_bid=7)" "pedro(min_bid=7,all_pass=dealer_forced_min_bid)"
      bidlab compare rook "rook(pass_cycle=none)" --deals 500000
      bidlab compare pedro "pedro(low_to=holder)" --deals 5000 --rule min_bid=7 --out cmp.csv
      bidlab compare pedro cinch --deals 2000000 --executor dask-local --workers 2
      bidlab compare pedro "pedro(low_to=holder)" --policy pimc:20 --base heuristic \\
          --deals 40 --base-deals 100000
      bidlab compare king "king(max_offer=1)" --contract positive --deals 100000
      bidlab compare pedro "pedro(target=21)" --games 20000
      bidlab compare rook "rook(target=300)" --games 5000
    """
    from ..compare import compare_variants

    variant_a, variant_b = (resolve_rules(v, rule_pairs) for v in (variant_a, variant_b))
    check_base(ctx, base, budget)
    check_games(ctx, n_games, max_deals)
    if str(variant_a) == str(variant_b):  # legitimate (an A/A check), but rarely meant
        click.echo(f"note: A and B are the same rules ({variant_a}), so every difference is "
                   "0; give B a flag that differs (bidlab rules lists them)", err=True)
    whole_games = {} if n_games is None else {"games": n_games, "max_deals": max_deals}
    if n_games is not None:
        deals = n_games
    elif budget is None:  # a budget sizes the run itself
        deals = search_sized(ctx, "deals", deals, policy)
    two_level = {} if base is None else {"base": base, "base_deals": base_deals,
                                         "budget": budget}
    work = 2 * (deals + (base_deals if base is not None else 0))
    label = "simulating A and B"
    if budget is not None:  # the bar follows the clock, in tenths of a second
        work, label = max(1, round(10 * budget)), f"simulating A and B (about {budget:g} s)"
    started = time.perf_counter()
    ex = runs.executor(executor, scheduler, workers)
    try:
        c = with_progress(progress, work, lambda bar: compare_variants(
            variant_a, variant_b, deals if budget is None and not whole_games else None, seed,
            policy, progress=bar if bar is None or budget is None else clock_bar(bar, started),
            executor=None if executor == "local" else ex, contract=contract, **two_level,
            **whole_games), label)
    finally:
        ex.close()
    p = {**c.provenance, "rule": ",".join(f"{k}={v}" for k, v in rule_pairs)}
    if as_json:
        click.echo(dumps({"provenance": provenance(p), "measures": records(c.table)}))
    else:
        click.echo(c.text())
    if n_games is not None:  # as match says it: a game cut short is in the lengths
        row = c.table[c.table["measure"].str.startswith("undecided after")].iloc[0]
        cut = [round(row.a * row.n_a), round(row.b * row.n_b)]
        if any(cut):
            click.echo(f"{cut[0]:,} game(s) under A and {cut[1]:,} under B undecided after "
                       f"{c.provenance['max_deals']:,} {game_of(variant_a).deal_unit}; "
                       "--max-deals plays them longer", err=True)
    if out is not None:
        io.write_table(c.table, out, p)
        click.echo(f"wrote {out} ({len(c.table)} measures)", err=True)


@main.command()
@game_argument
@size_option("match", "--games", 10_000, "Number of whole games to the target.",
             name="n_games", most=GAME_MAX_GAMES)
@seed_option
@policy_option
@rule_option
@click.option("--max-deals", type=Count(1, GAME_MAX_DEALS), default=None,
              help="A game not decided after this many deals is counted undecided.  "
                   "[default: 1,000, or twice the target when that is more]")
@out_option("one row per game (its first dealer also as text: first_dealer_text)")
@json_option
@progress_option
@click.pass_context
def match(ctx, game, n_games, seed, policy, rule_pairs, max_deals, out, as_json,
          progress) -> None:
    """Play whole games to the target score (Pedro 51, Rook 500); who wins, how fast.

    Each game starts with dealer g % 4 and passes the deal to the left; scores
    settle by the rules' method; a game ends when one side reaches the target
    (both: the bidding side, or the no_contract_tie rule; in Rook the higher
    total, then the declarer's team), or is counted undecided after
    --max-deals deals. With per-seat policies, team 0 is seats
    0 and 2. King's game is its ten hands, which bidlab simulate king plays
    whole; match refuses it. Two rules strings on the same games, paired game
    by game: bidlab compare A B --games N.

    \b
    Examples:
      bidlab match pedro --games 20000
      bidlab match cinch --policy heuristic,random,heuristic,random
      bidlab match "pedro(target=62)" --rule no_contract_tie=play_on --out games.parquet
      bidlab match "pedro(target=1000)" --games 2000 --max-deals 5000
      bidlab match rook --games 2000 --rule pass_cycle=right_left_none
    """
    from ..estimate_text import interval_text
    from ..stats import bounded, mean_ci, wilson

    rules = resolve_rules(game, rule_pairs)
    g = game_of(rules)
    g.require("whole_games", "match (games to a target score)")
    n_games = search_sized(ctx, "n_games", n_games, policy)
    df = with_progress(progress, n_games, lambda bar: g.simulate_games(
        rules, n_games, seed, policy, max_deals=max_deals, progress=bar), "playing games")
    max_deals = df.attrs["max_deals"]
    decided = df[df["winner"] >= 0]
    rows, rates = [], []
    for label, k, n in (
        ("team 0 (seats 0, 2) wins", int((decided["winner"] == 0).sum()), len(decided)),
        ("first dealer's team wins",
         int((decided["winner"] == decided["first_dealer"] % 2).sum()), len(decided)),
        (f"undecided after {max_deals:,} {g.deal_unit}", int((df["winner"] < 0).sum()),
         len(df)),
    ):
        p = wilson(k, n) if n else None
        rows.append([label, n, k, f"{100 * p.p:.2f}%" if p else "-",
                     f"[{100 * p.lo:.2f}%, {100 * p.hi:.2f}%]" if p else "-"])
        rates.append({"row": label, "n": n, "k": k, "rate": p.p if p else None,
                      "lo": p.lo if p else None, "hi": p.hi if p else None})
    # a game lasts 1 to max_deals deals: where every game lasted alike, that range bounds
    # the games a run may have missed (stats.bounded), not 0 ± 0
    length = bounded(mean_ci(df["deals"]), 1, max_deals)
    if as_json:
        click.echo(dumps({
            "provenance": provenance({**df.attrs, "games": n_games, "target": rules.target}),
            "rates": rates, "deals_per_game": {"n": length.n, "mean": length.mean,
                                               "se": length.se, "lo": length.lo,
                                               "hi": length.hi}}))
    else:
        click.echo(f"{df.attrs['rules']}: {n_games:,} games to {rules.target} (seed {seed}), "
                   f"policy {policy_label(df.attrs['policy'])}\n")
        click.echo(render_table(["", "n", "k", "rate", "95% CI"], rows, align="lrrrl"))
        click.echo(f"\n{g.deal_unit} per game: "
                   f"{interval_text(length.mean, length.lo, length.hi, 3)} (n={length.n:,})")
    if (df["winner"] < 0).any():
        click.echo(f"{int((df['winner'] < 0).sum()):,} game(s) undecided after {max_deals:,} "
                   f"{g.deal_unit}; --max-deals plays them longer", err=True)
    if out is not None:
        io.write_table(g.readable(df), out, dict(df.attrs))
        click.echo(f"wrote {out} ({len(df)} games)", err=True)


@main.command()
@game_argument
@seed_option
@click.option("--index", type=INDEX, default=0, show_default=True, help="Deal index.")
@policy_option
@rule_option
@click.option("--labels/--no-labels", default=True, show_default=True,
              help="Name seats N, E, S, W beside their numbers 0..3.")
@contract_option("King only: show single hand INDEX of this contract instead of whole game "
                 "INDEX.")
def deal(game, seed, index, policy, rule_pairs, labels, contract) -> None:
    """Show one deal trick by trick: hands, bids, draw, tricks, points, settlement.

    Seats are 0..3 clockwise (N, E, S, W); team 0 is seats 0 and 2, team 1
    seats 1 and 3. It is deal INDEX of `bidlab simulate` with the same seed.

    \b
    Examples:
      bidlab deal pedro --seed 1 --index 3
      bidlab deal cinch --seed 7 --index 0 --policy random
      bidlab deal pedro --rule excess_trumps=keep_all_dump_on_trick1 --no-labels
      bidlab deal rook --seed 3 --index 5
      bidlab deal king --seed 5 --index 0
      bidlab deal king --index 12 --contract positive
    """
    rules = resolve_rules(game, rule_pairs)
    click.echo(game_of(rules).render_deal(rules, seed, index, policy, labels, contract))
