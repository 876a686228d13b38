"""``bidlab hand``: what a hand is worth at a seat, and what to bid.

May import: :mod:`.group`, :mod:`.options`, the games' registry and protocol, and the
plotting layer; never another command module.
"""

from __future__ import annotations

import functools
import time

import click

from .. import runs
from ..games import game as game_of
from ..games.common import POLICY_NAMES, SEATS, parse_policies, policy_label
from ..limits import SEARCH_MAX_DEALS
from .group import main
from .options import (
    PLOT_PATH,
    REPLACED,
    Count,
    Real,
    base_options,
    check_base,
    check_game_hand,
    clock_bar,
    contract_option,
    executor_options,
    explicit,
    game_argument,
    hand_text,
    json_option,
    policy_option,
    progress_option,
    resolve_rules,
    rule_option,
    search_sized,
    seed_option,
    size_option,
    with_progress,
)


@main.command()
@game_argument
@click.argument("hand", nargs=-1, required=True, callback=hand_text, metavar="HAND")
@click.option("--seat", type=click.Choice(list(SEATS), case_sensitive=False), default="eldest",
              show_default=True, help="Where HAND sits, counted from the dealer.")
@size_option("hand", "--deals", 20_000,
             "Fixed number of deals (without --target-ci or --time-budget).")
@seed_option
@policy_option
@rule_option
@click.option("--target-ci", type=Real(), default=None,
              help="Play batches of 10,000 deals (50 when a seat searches) until the "
                   "leading alternatives' 95% half-widths are at most this (points per "
                   "deal), from 500 deals on (a first small batch's spread may be low by "
                   "chance). Not King.")
@click.option("--time-budget", type=Real(), default=None,
              metavar="SECONDS",
              help="Play batches of 10,000 deals (50 when a seat searches) for about this "
                   "long. Not King.")
@click.option("--until-decided", is_flag=True,
              help="Play batches until the recommendation is clear (it beats its strongest "
                   "rival beyond the noise), within --time-budget and --max-deals; the "
                   "header says which ended the run.  It asks at the first batch, then "
                   "each time the deals double, and those looks share the 95%, as the "
                   "advice then says. Not King.")
@click.option("--max-deals", type=Count(1), default=1_000_000,
              help=f"Most deals --target-ci, --time-budget or --until-decided may play.  "
                   f"[default: 1,000,000; {SEARCH_MAX_DEALS:,} when a seat searches (dd, pimc)]")
@base_options("each EV", "the leading EV's interval")
@json_option
@click.option("--csv", "as_csv", is_flag=True,
              help="Print the bids table as CSV with provenance columns. Not King.")
@click.option("--plot", type=PLOT_PATH, default=None,
              help="Also write the EV-by-bid chart to this .png, .svg or .pdf, atomically. "
                   f"{REPLACED} Not King.")
@click.option("--known", "known_pairs", multiple=True, metavar="SEAT=CARDS",
              help='Cards another seat is known to hold, e.g. --known second="AH KH" '
                   "(repeatable); the rest of the deck is dealt around them.")
@contract_option("King only: one contract (no-tricks, no-hearts, no-kings-jacks, no-queens, "
                 "no-king-of-hearts, last-two, positive) or all [default: all]; under "
                 "combined_negatives=true the negatives are played joined, e.g. "
                 "no-hearts+no-king-of-hearts.")
@progress_option
@executor_options
@click.pass_context
def hand(ctx, game, hand, seat, deals, seed, policy, rule_pairs, target_ci, time_budget,
         until_decided, max_deals, base, base_deals, budget, as_json, as_csv, plot, known_pairs,
         contract, progress, executor, scheduler, workers) -> None:
    """What HAND is worth at SEAT: points, P(make), EV per bid and trump, EV(pass).

    Pedro/Cinch: the 9 cards of HAND are held at --seat and the other 43 dealt at random;
    every trump, every bid and the pass are played on the same deals, so their
    differences are paired. EV(bid b): the seat bids b in its turn, the others
    bid by their policies and may outbid it, and it names the trump if it
    wins (the dealer, who bids last, bids the lowest legal amount up to b);
    for the pass it passes. P(points >= b) is for the seat as the sole
    bidder. EVs are settlement deltas under both methods, net (own
    minus opponents) and own. Alternatives are ranked under the rules' method
    with P(best), as in a backgammon rollout.

    King: for each negative contract, the distribution and mean of the seat's
    penalty; for the positive hand, its tricks when it names each trump or
    another seat does, and so the trump right's value in tricks: how much to
    offer, when to accept as the benefited, whether the 4-3-3-3 decline pays.

    Rook: the 13 cards of HAND are held at --seat; the widow and the cards
    passed in are sampled. Per trump: the side's points as declarer, P(points
    >= b) and EV(b) for b = 70..200; then EV of bidding up to b with the auction
    played out, EV(pass), the recommended action and P(best).

    The recommendation respects the noise: a bid is recommended over passing, or
    over a lower bid, only when its paired gain is above zero beyond the noise
    (95% lower bound); otherwise it says pass and shows the margin. "Bid up to b"
    is the highest bid that beats passing so.

    By default --deals deals are played; --target-ci, --time-budget or
    --until-decided play batches until met or --max-deals, and the header says
    which rule stopped.

    With --base, the EVs that rank and decide (King: the means) are two-level
    estimates: the cheap --base policy plays --base-deals deals (N), --policy the
    first --deals of them as well (n), and EV = cheap mean over N + mean of
    (searching − cheap) over n, its interval from both parts; --budget SECONDS
    chooses N and n. The ranking shows the cheap mean and the correction; the
    other tables are the searching player's own over its n deals.

    \b
    Examples:
      bidlab hand pedro "AS KS 5S 5C 2S 9H 3D JC 7H" --seat eldest --deals 20000
      bidlab hand cinch "AH KH QH 5D 2H 9C 3S JS 7C" --seat dealer --seed 7
      bidlab hand pedro "AS KS 5S 5C 2S 9H 3D JC 7H" --target-ci 0.05 --max-deals 500000
      bidlab hand pedro "2H 3D 4C 6S 7H 8D 9C 3S 4D" --seat dealer --until-decided \\
          --time-budget 60
      bidlab hand pedro "AS KS 5S 5C 2S 9H 3D JC 7H" --json > hand.json
      bidlab hand pedro "AS KS 5S 5C 2S 9H 3D JC 7H" --csv --plot hand.png
      bidlab hand pedro "AS KS 5S 5C 2S 9H 3D JC 7H" --known third="AH KH"
      bidlab hand rook "AS KS QS JS 9S 5S JK AH KH 5D 2D 3C 4C" --seat dealer
      bidlab hand king "AH KH QH JH 2C 3C 4C 5D 6D 7D 8S 9S TS" --contract no-hearts
      bidlab hand pedro "AS KS 5S 5C 2S 9H 3D JC 7H" --executor dask-local --workers 2
      bidlab hand pedro "AS KS 5S 5C 2S 9H 3D JC 7H" --policy pimc:20 --base heuristic \\
          --deals 40 --base-deals 100000
    """
    if as_json and as_csv:
        raise click.UsageError("--json and --csv are exclusive; choose one")
    adaptive = target_ci is not None or time_budget is not None or until_decided
    given = explicit(ctx) & {"deals", "max_deals"}
    if adaptive and "deals" in given:
        raise click.UsageError("--deals is a fixed count; with --target-ci, --time-budget "
                               "or --until-decided the run stops by the rule or at "
                               "--max-deals")
    if not adaptive and "max_deals" in given:
        raise click.UsageError("--max-deals applies to --target-ci, --time-budget or "
                               "--until-decided; use --deals for a fixed count")
    rules = resolve_rules(game, rule_pairs)
    g = game_of(rules)
    check_game_hand(hand, rules)
    g.check_contract(contract, rules)
    if adaptive:
        g.require("adaptive_hands", "--target-ci, --time-budget and --until-decided")
    two_level = base is not None
    check_base(ctx, base, budget)
    if two_level:
        if adaptive:
            raise click.UsageError("--base plays --deals and --base-deals, or splits "
                                   "--budget; not --target-ci, --time-budget or "
                                   "--until-decided")
    if as_csv:
        g.require("bid_tables", "--csv")
    if plot is not None:
        g.require("bid_tables", "--plot")
    options = {"deals": deals, "seed": seed, "policy": policy, "known": known_cards(known_pairs)}
    if contract is not None:
        options["contract"] = contract
    if adaptive:  # a million searched deals would take a day or more
        max_deals = search_sized(ctx, "max_deals", max_deals, policy, SEARCH_MAX_DEALS)
        options.update(target_ci=target_ci, time_budget=time_budget, max_deals=max_deals,
                       until_decided=until_decided)
        work, label = max_deals, "simulating (until the stop rule, at most --max-deals)"
    elif budget is None:  # a --budget chooses n itself
        options["deals"] = deals = search_sized(ctx, "deals", deals, policy)
        work, label = g.hand_work(rules, deals, contract), "simulating"
    if two_level:
        options.update(base=base, base_deals=base_deals, budget=budget)
        if budget is not None:
            work, label = max(1, round(10 * budget)), f"simulating (about {budget:g} s)"
    started = time.perf_counter()
    if adaptive and time_budget is not None:
        # the budget, not --max-deals, is what ends such a run: the bar (and its time left)
        # follows the clock, in tenths of a second
        work, label = max(1, round(10 * time_budget)), f"simulating (at most {time_budget:g} s)"
    ex = runs.executor(executor, scheduler, workers)
    if executor != "local":  # the deals grow on the cluster's workers, with the same result
        options["spread_with"] = functools.partial(runs.spreader, ex)
    try:
        ev = with_progress(progress, work, lambda bar: g.evaluate_hand(
            rules, hand, seat, progress=bar if bar is None or (time_budget is None
                                                               and budget is None)
            else clock_bar(bar, started), **options), label)
    finally:
        ex.close()
    if as_json:
        click.echo(g.hand_json(ev))
    elif as_csv:
        click.echo(g.hand_csv(ev), nl=False)
    else:
        click.echo(g.render_hand(ev))
    report_time(ev.n, time.perf_counter() - started, policy,
                None if base is None else ev.n_base, g.hand_work(rules, ev.n, contract))
    if plot is not None:
        from .. import plotting

        plotting.save_figure(g.hand_figure(ev), plot)
        click.echo(f"wrote {plot}", err=True)


def known_cards(pairs: tuple[str, ...]) -> dict[str, str]:
    """--known SEAT=CARDS options as {seat: cards}; a seat given twice holds both sets (the
    evaluation checks the seats and the cards)."""
    known: dict[str, str] = {}
    for pair in pairs:
        where, _, cards_text = pair.partition("=")
        if not cards_text.strip():
            raise click.BadParameter(f"bad --known {pair!r}; expected SEAT=CARDS with SEAT one "
                                     f"of {', '.join(SEATS)}")
        seat = where.strip().lower()
        known[seat] = " ".join(filter(None, [known.get(seat), cards_text]))
    return known


def _fewer_worlds(policy: str) -> str:
    """The hint "search with fewer worlds (pimc:W/4), " where that is 2 or more worlds: it
    named pimc:5 to a run of pimc:2."""
    pols = parse_policies(policy)
    if POLICY_NAMES.index("pimc") not in pols[:4] or pols[4] // 4 < 2:
        return ""
    return f"search with fewer worlds (pimc:{pols[4] // 4}), "


def report_time(n: int, seconds: float, policy: str, n_base: int | None = None,
                played: int | None = None) -> None:
    """The run time of ``n`` deals (--deals counts them) on stderr, with sizing advice when a
    searching player made it slow (a two-level run, ``n_base`` cheap deals beside, is sized
    by --budget instead); ``played``: the hands that took, when not one a deal (King plays
    each deal under each contract asked, the positive one under each choice of trump)."""
    per = 1000 * seconds / max(n, 1)
    hands = f" ({played:,} hands played in all)" if played and played != n else ""
    line = (f"{n:,} deal{'s' * (n != 1)}{hands} in {seconds:.1f} s ({per:.2f} ms a deal, policy "
            f"{policy_label(policy)})")
    if n_base is not None:
        line = (f"{n:,} searched deals and {n_base:,} cheap ones in {seconds:.1f} s; size the "
                "run with --deals and --base-deals, or --budget SECONDS")
    elif "pimc" in policy or "dd" in policy:
        per_minute = int(60 / max(seconds / max(n, 1), 1e-9))
        line += (f"; searching players cost milliseconds per card: about {per_minute:,} deals "
                 f"a minute here, so size --deals (or --time-budget) to your time, "
                 f"{_fewer_worlds(policy)}or use --base heuristic with a few searched deals")
    click.echo(line, err=True)
