"""``bidlab solve``: the double-dummy value of a position and of every legal card.

May import: :mod:`.group`, :mod:`.options`, :mod:`analyzer.solver` and
:mod:`analyzer.solve_view`; never another command module.
"""

from __future__ import annotations

import json

import click

from ..limits import SOLVE_MAX_NODES as DEFAULT_MAX_NODES  # here: the solver loads numba
from .group import main
from .options import (
    INDEX,
    Count,
    contract_option,
    game_argument,
    policy_option,
    resolve_rules,
    rule_option,
    seed_option,
)


@main.command()
@game_argument
@click.option("--hands", default=None, metavar="N/E/S/W",
              help="The four hands, seats N E S W separated by '/', '-' for an empty hand.")
@click.option("--trump", default=None, metavar="SUIT", help="C, D, H, S, or NT (Rook with "
              "allow_no_trump, King positive at no trump); King negatives take none.")
@click.option("--leader", default="N", show_default=True, metavar="SEAT",
              help="Seat that leads (or led) the current trick: N, E, S, W.")
@click.option("--played", default="", metavar="CARDS",
              help="Cards already played to the current trick, from the leader on "
                   "(\"N:AS E:KS\" names the seats).")
@click.option("--side", default=None, metavar="SEAT",
              help="Whose value to report (its partnership; in King the seat alone). "
                   "Default: the seat to move.")
@contract_option("King only: the contract.")
@rule_option
@click.option("--from-deal", "from_deal", type=INDEX, default=None, metavar="INDEX",
              help="Solve the start of play of simulated deal INDEX (with --seed, --policy) "
                   "instead of --hands. Pedro's 6-card hands solve in seconds; a whole "
                   "13-card Rook or King deal often exceeds --max-nodes.")
@seed_option
@policy_option
@click.option("--max-nodes", "max_nodes", type=Count(1),
              default=DEFAULT_MAX_NODES, metavar="N",
              help="Node budget: a position not solved within it is an error rather than a "
                   "wait of unknown length (about 20 M nodes a second). Six-trick Pedro "
                   "positions need thousands; Rook and King needs grow steeply with the "
                   "cards left: 0.3-8 M with ten cards a hand; Rook about 80 M with eleven "
                   "and 1.6 billion with twelve, so whole 13-card deals are out of reach "
                   "but for King's positive hand and some no-king-of-hearts hands.  "
                   f"[default: {DEFAULT_MAX_NODES:,}]")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
def solve(game, hands, trump, leader, played, side, contract, rule_pairs, from_deal, seed,
          policy, max_nodes, as_json) -> None:
    """Double-dummy value of a position and of every legal card (the SolveBoard).

    Every seat sees every card and plays perfectly. The value is what SIDE
    takes in the remaining tricks, the current trick included: trick points of
    its partnership in Pedro (Right, Left 5; J, 10 of trump 1; Low 1 when it
    goes to the winner) and Rook (card points and the last-trick bonus); in
    King a paranoid search: the seat's own contract points with the other
    three playing against it. Hands format: "N/E/S/W", cards like "AS 10H TD
    5c", JK for the Rook, '-' for an empty hand.

    \b
    Examples:
      bidlab solve pedro --hands "AS 5S/KS 2S/5C JS/QS 3S" --trump S --leader N
      bidlab solve pedro --hands "5S/KS 2S/5C JS/QS 3S" --trump S --leader N --played AS
      bidlab solve pedro --from-deal 3 --seed 1
      bidlab solve rook --hands "AS 5S/KS 2S/5C JS/QS JK" --trump S --leader E
      bidlab solve king --contract no-hearts --hands "AS 5S KH/KS 2S TH/5C JS QH/QS 3S 5H"
      bidlab solve pedro --from-deal 3 --seed 1 --max-nodes 1000000
    """
    from ..cards import CardSet
    from ..solve_view import render_solution, solution_dict
    from ..solver import SolveBudgetError, deal_position
    from ..solver import solve as solve_position

    rules = resolve_rules(game, rule_pairs)
    if from_deal is not None:
        if hands is not None:
            raise click.UsageError("give --hands or --from-deal, not both")
        pos = deal_position(rules, seed, from_deal, policy, contract)
        trump, leader = pos["trump"], pos["leader"]
        # each hand in display order, as `bidlab deal` shows the same deal
        hands = "/".join(str(CardSet(h)) if h != "-" else h for h in pos["hands"].split("/"))
        side = pos["side"] if side is None else side
        contract = pos["contract"]
    elif hands is None:
        raise click.UsageError("give the position with --hands \"N/E/S/W\" (or --from-deal)")
    try:
        sol = solve_position(rules, hands, trump=trump, leader=leader, played=played,
                             side=side, contract=contract, max_nodes=max_nodes)
    except SolveBudgetError as e:
        fewer = "" if from_deal is not None else ", or give fewer cards a hand (--hands, --played)"
        raise SolveBudgetError(f"{e}; raise --max-nodes{fewer}") from None
    source = None if from_deal is None else {"deal": from_deal, "seed": seed, "policy": policy}
    if as_json:
        click.echo(json.dumps({**solution_dict(sol), **({"from_deal": source} if source else {})},
                              indent=2))
    else:
        from ..solver import parse_seat

        click.echo(render_solution(sol, hands, parse_seat(leader), played, source))
