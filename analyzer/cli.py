"""The ``bidlab`` command line for Pedro/Cinch, Rook and King: games, rules, simulate,
deal, hand, bid-chart, match, compare, solve, ladder, cards, bench.

Input is checked by click parameter types before any work starts (game and
variant strings, ``--rule flag=value``, policies, hand strings, the ``--out``
path). Whatever is still wrong surfaces as one line on stderr,
``bidlab: error: <problem and the allowed values>``, with exit status 2:
:class:`BidlabGroup` is the single place that turns click's usage errors and
bidlab's own input errors into that line, so commands never catch errors.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import sys
import threading
import time
from pathlib import Path
from typing import NoReturn

import click
import numpy as np

from . import __version__, io
from .cards import JOKER, RANKS, SUIT_NAMES, CardParseError, CardSet, parse_cards
from .games import common, family, parse_game, pedro, presets
from .games.common import policy_label
from .games.pedro.evaluate import HandError, evaluate_hand, parse_hand
from .games.pedro.view import render_deal
from .ladder import RUNGS
from .limits import SizeError
from .parsing import QUOTE_LIMIT, NumberError, parse_float, parse_int
from .solver import DEFAULT_MAX_NODES, PositionError, SolveBudgetError
from .summary import summarize
from .text import render_table
from .variants import RuleError, describe_allowed, flag_fields, pairs_once, parse_rule_option

MAX_INDEX = 2**63 - 1  # seeds and deal indices are int64 in the kernels
INPUT_ERRORS = (RuleError, common.PolicyError, common.ScenarioError, CardParseError, HandError,
                io.TableFormatError, PositionError, SolveBudgetError, NumberError, SizeError)
GAME_SOURCES = {  # where each preset's rules come from (../shared/RULES.md)
    "pedro": "Pedro, seed 000 (Hoyle), RULES.md §1",
    "cinch": "Cinch / Double Pedro, seed 002 (Foster's Hoyle), RULES.md §2",
    "rook": "Rook, standard deck + joker, Princeton rules, seed 004, RULES.md §4",
    "king": "King (Brazilian 10-hand game), seed 003, RULES.md §3",
}


def fail(message: object) -> NoReturn:
    """Print the one-line error and exit with status 2; a quoted input longer than about 80
    characters is cut (a pasted page stays one readable line)."""
    line = " ".join(str(message).split())
    line = re.sub(rf"""(['"])([^'"]{{{QUOTE_LIMIT - 1},}})\1""",
                  lambda m: f"{m[1]}{m[2][:QUOTE_LIMIT - 6]}...{m[1]}", line)
    click.echo(f"bidlab: error: {line}", err=True)
    sys.exit(2)


class BidlabGroup(click.Group):
    """A click group whose errors are one line on stderr and exit status 2, never a traceback.

    The command runs in a worker thread while the main thread waits, so that Ctrl-C stops
    it at once even inside a long numba call (which checks for no signal): the main thread
    says ``Aborted!`` and ends the process. A file being written is left as its hidden
    temporary, never at its own name, and the next write there removes it.
    """

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode, **extra)
        outcome: dict = {}

        def work():
            try:
                outcome["rv"] = super(BidlabGroup, self).main(
                    args, prog_name, complete_var, standalone_mode=False, **extra)
            except BaseException as e:  # noqa: BLE001 - handed to the main thread
                outcome["error"] = e

        worker = threading.Thread(target=work, name="bidlab-command", daemon=True)
        try:
            worker.start()
            while worker.is_alive():
                worker.join(0.05)
        except KeyboardInterrupt:
            abort_now()
        self._finish(outcome)

    @staticmethod
    def _finish(outcome: dict) -> NoReturn:
        """The worker's result as an exit status, its error as one line."""
        no_args_help = getattr(click.exceptions, "NoArgsIsHelpError", ())
        try:
            if "error" in outcome:
                raise outcome["error"]
            rv = outcome.get("rv")
        except no_args_help as e:  # bare `bidlab`: the help, as with --help
            click.echo(e.ctx.get_help())
            sys.exit(0)
        except click.ClickException as e:
            fail(e.format_message())
        except INPUT_ERRORS as e:
            fail(e)
        except BrokenPipeError:  # `bidlab rules pedro | head`: stop quietly
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            sys.exit(1)
        except OSError as e:
            where = f" {e.filename}" if e.filename else ""
            fail(f"cannot write{where}: {e.strerror or e}")
        except (click.Abort, KeyboardInterrupt):
            click.echo("Aborted!", err=True)
            sys.exit(1)
        except MemoryError:
            fail("out of memory: ask for fewer deals (or games) at once")
        sys.exit(rv if isinstance(rv, int) else 0)


def abort_now() -> NoReturn:
    """Ctrl-C: say so and end the process now, whatever the worker thread is computing."""
    with contextlib.suppress(Exception):
        sys.stdout.flush()
    sys.stderr.write("\nAborted!\n")
    sys.stderr.flush()
    os._exit(1)


# ---- parameter types: each validates its text once, with the allowed values in the message ----


class GameType(click.ParamType):
    """A preset or canonical variant string such as ``pedro(low_to=holder)``."""

    name = "game"

    def convert(self, value, param, ctx):
        if not isinstance(value, str):  # a Rules object already
            return value
        try:
            return parse_game(value)
        except RuleError as e:
            self.fail(str(e), param, ctx)


class RuleOptionType(click.ParamType):
    """One ``flag=value``; checked against GAME's flags and allowed values when the
    rules are resolved (:func:`resolve_rules`), since each game has its own."""

    name = "flag=value"

    def convert(self, value, param, ctx):
        if isinstance(value, tuple):
            return value
        try:
            return parse_rule_option(value)
        except RuleError as e:
            self.fail(str(e), param, ctx)


class PolicyType(click.ParamType):
    """One policy name for every seat, or four separated by commas; canonical text out."""

    name = "policy"

    def convert(self, value, param, ctx):
        try:
            return common.policy_string(common.parse_policies(value))
        except common.PolicyError as e:
            self.fail(str(e), param, ctx)


class _WritablePathType(click.ParamType):
    """A file to write in an existing, writable directory, checked before any work."""

    name = "path"

    def check(self, value):  # returns the Path; raises a format error or OSError
        raise NotImplementedError

    format_errors: tuple[type[Exception], ...] = ()

    def convert(self, value, param, ctx):
        try:
            return self.check(value)
        except self.format_errors as e:
            self.fail(str(e), param, ctx)
        except OSError as e:
            self.fail(f"cannot write {value!r}: {e.strerror} ({e.filename})", param, ctx)


class OutPathType(_WritablePathType):
    """A table to write: .parquet or .csv."""

    format_errors = (io.TableFormatError,)

    def check(self, value):
        return io.check_writable(value)


class PlotPathType(_WritablePathType):
    """A chart to write: .png, .svg or .pdf."""

    @property
    def format_errors(self):
        from . import plotting  # matplotlib loads only when a chart is asked for

        return (plotting.FigureFormatError,)

    def check(self, value):
        from . import plotting

        return plotting.check_figure_path(value)


class OutDirType(_WritablePathType):
    """A folder of outputs, created when they are written."""

    name = "directory"

    def check(self, value):
        return io.check_out_dir(value)


class Count(click.ParamType):
    """A whole number from ``lo`` to ``hi`` in plain ASCII digits (analyzer.parsing): click's
    INT reads '٣' as 3 and lets 4,301 digits raise."""

    name = "integer"

    def __init__(self, lo: int, hi: int = MAX_INDEX):
        self.lo, self.hi = lo, hi

    def convert(self, value, param, ctx):
        try:
            return parse_int(value, self.lo, self.hi, "value")
        except NumberError as e:
            self.fail(str(e), param, ctx)

    def get_metavar(self, param, *args, **kwargs) -> str:
        return f"INTEGER {self.lo:,}..{self.hi:,}" if self.hi < MAX_INDEX else "INTEGER"


class Real(click.ParamType):
    """A finite number above ``lo`` (never NaN: it would switch a stop rule off)."""

    name = "number"

    def __init__(self, lo: float = 0.0, hi: float | None = None):
        self.lo, self.hi = lo, hi

    def convert(self, value, param, ctx):
        try:
            return parse_float(value, self.lo, self.hi, "value", low_open=True)
        except NumberError as e:
            self.fail(str(e), param, ctx)


GAME = GameType()
RULE = RuleOptionType()
POLICY = PolicyType()
OUT_PATH = OutPathType()
PLOT_PATH = PlotPathType()
OUT_DIR = OutDirType()
SEED = Count(0)
INDEX = Count(0)

# ---- options defined once, shared by the commands ----------------------------------------

game_argument = click.argument("game", type=GAME, metavar="GAME")
rule_option = click.option(
    "--rule", "rule_pairs", type=RULE, multiple=True, metavar="FLAG=VALUE",
    help="Set one rule flag on top of GAME (repeatable); see `bidlab rules GAME`.",
)
policy_option = click.option(
    "--policy", type=POLICY, default="heuristic", show_default=True,
    help=f"Seat policy: {common.POLICY_HELP}; one for all seats, or four separated by "
         "commas (seats 0,1,2,3).",
)
progress_option = click.option(
    "--progress/--no-progress", default=None,
    help="Progress bar on stderr, with the time left [default: when stderr is a terminal].")
seed_option = click.option(
    "--seed", type=SEED, default=1, show_default=True,
    help="Random seed (0 .. 2**63-1); deal i of a seed is the same on every machine.")


def with_progress(show: bool | None, total: int, work, label: str = "simulating"):
    """Run ``work(progress)``; progress is a bar's update on stderr (by default only when
    stderr is a terminal), or None."""
    if not (sys.stderr.isatty() if show is None else show):
        return work(None)
    with click.progressbar(length=total, label=label, file=sys.stderr) as bar:
        return work(bar.update)


# A searching seat (dd, pimc) costs tens of milliseconds a deal where the other policies cost
# microseconds, so a size option left at its default then plays a run of about a minute here
# (pimc:20 on two cores: Pedro simulate 1,000 deals 18 s, hand 500 52 s, match 200 games 23 s,
# bid-chart 5,000 76 s; Rook hand 500 80 s; King hand 500 35 s, simulate 1,000 games 78 s).
SEARCH_SIZES = {"simulate": 1_000, "compare": 1_000, "match": 200, "hand": 500,
                "bid-chart": 5_000}
KING_SEARCH_SIZES = {"bid-chart": 500}  # whole 10-hand games: 500 take 65 s
SEARCH_MAX_DEALS = 5_000  # hand --target-ci's cap when a seat searches: about ten minutes
GAME_MAX_DEALS = 2**22  # pedro.games.MAX_DEALS, without importing the kernels for --help


def size_option(command: str, flag: str, default: int, text: str, least: int = 1,
                name: str | None = None):
    """A size option of ``command`` whose help shows both of its defaults (click's
    show_default knows only one); the command applies them with ``search_sized``."""
    args = (flag, name) if name else (flag,)
    king = (f", King {KING_SEARCH_SIZES[command]:,} games" if command in KING_SEARCH_SIZES
            else "")
    return click.option(*args, type=Count(least), default=default,
                        help=f"{text} A size that would not fit in free memory, or would take "
                             f"over 24 hours at the pace its first seconds measure, is refused "
                             f"with one line.  [default: {default:,}; "
                             f"{SEARCH_SIZES[command]:,} when a seat searches (dd, pimc){king}]")


def search_sized(ctx: click.Context, name: str, value: int, policy: str,
                 small: int | None = None) -> int:
    """The size option ``name``: as given, else its default, or when a seat searches
    ``small``, by default the command's SEARCH_SIZES (KING_SEARCH_SIZES for a King GAME)
    entry; that choice is said on stderr, since it changes n."""
    if ctx.get_parameter_source(name) is not click.core.ParameterSource.DEFAULT:
        return value
    if not common.searches(common.parse_policies(policy)):
        return value
    if small is None:
        small = SEARCH_SIZES[ctx.info_name]
        if getattr(ctx.params.get("game"), "game", "") == "king":
            small = KING_SEARCH_SIZES.get(ctx.info_name, small)
    flag = next(opt for p in ctx.command.params if p.name == name for opt in p.opts)
    click.echo(f"policy {policy_label(policy)} searches (milliseconds a card): {flag} "
               f"defaults to {small:,} rather than {value:,}; set {flag} for more", err=True)
    return small


def resolve_rules(game, pairs: tuple[tuple[str, str], ...]):
    """GAME with the --rule flags applied (RuleError names the flag and its allowed values)."""
    if not pairs:
        return game
    return family(game).parse_rules(str(game), pairs_once(pairs, "by --rule"))


def require_pedro_family(rules, command: str) -> None:
    if not isinstance(rules, pedro.Rules):
        hint = {"king": "; whole King games: bidlab simulate king",
                "rook": "; Rook games to 500 are not built yet"}.get(rules.game, "")
        raise click.UsageError(f"{command} supports {', '.join(pedro.PRESET_NAMES)} so far; "
                               f"got {rules.game}{hint}")


@click.group(cls=BidlabGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="bidlab")
def main() -> None:
    """bidlab: Monte Carlo strategy analyzer for trick-taking card games.

    Games: Pedro and Cinch, Rook (Princeton rules, standard deck + joker) and
    King (the Brazilian 10-hand game). GAME is a preset (`bidlab games`) or a
    canonical variant string such as "pedro(low_to=holder,scoring=2)". Deal i
    of seed s is the same deal under every variant, policy, thread count and
    machine.

    \b
    Examples:
      bidlab games
      bidlab rules cinch
      bidlab simulate pedro --deals 1000000 --seed 7 --out run.parquet
      bidlab deal pedro --seed 7 --index 42
      bidlab hand pedro "AS KS 5S 5C 2S 9H 3D JC 7H" --seat eldest
      bidlab bid-chart pedro --deals 500000 --out-dir reports/pedro-chart
      bidlab match cinch --games 20000
      bidlab compare pedro "pedro(low_to=holder)"
      bidlab simulate rook --deals 1000000 --seed 3
      bidlab hand rook "AS KS QS JS 9S 5S JK AH KH 5D 2D 3C 4C" --seat dealer
      bidlab simulate king --deals 200000 --seed 5
      bidlab hand king "AH KH QH JH 2C 3C 4C 5D 6D 7D 8S 9S TS" --contract all
      bidlab solve pedro --hands "AS 5S/KS 2S/5C JS/QS 3S" --trump S --leader N
      bidlab ladder pedro --deals 40 --duplicate
      bidlab cards "AS KS 10H TD 5C 2h"
      bidlab bench --deals 200000
    """


@main.command()
def games() -> None:
    """List the games and presets with their canonical rules strings.

    \b
    Examples:
      bidlab games
    """
    rows = []
    for name, rules in presets().items():
        engine = family(rules)
        base = engine.PRESETS[engine.PRESET_NAMES[0]]  # the family's first preset
        diffs = [f"{f.name}={getattr(rules, f.name)}" for f in flag_fields(type(rules))
                 if getattr(rules, f.name) != getattr(base, f.name)]
        rows.append([name, engine.__name__.rsplit(".", 1)[-1], str(rules),
                     ", ".join(diffs) or "-", GAME_SOURCES.get(name, "")])
    click.echo(render_table(["game", "engine", "rules string", "flags unlike the engine's first",
                             "source"], rows))
    click.echo("")
    click.echo(f"policies: {', '.join(common.POLICY_NAMES)}")
    click.echo('variants: name(flag=value,...), e.g. "pedro(low_to=holder)"; '
               "flags: `bidlab rules GAME`")


@main.command("rules")
@game_argument
@rule_option
def rules_cmd(game, rule_pairs) -> None:
    """Every rule flag of GAME: value, preset default, allowed values and meaning.

    \b
    Examples:
      bidlab rules pedro
      bidlab rules "pedro(low_to=holder)"
      bidlab rules cinch --rule scoring=1
      bidlab rules rook
    """
    rules = resolve_rules(game, rule_pairs)
    preset = family(rules).PRESETS[rules.game]
    rows = []
    for f in flag_fields(type(rules)):
        value, default = getattr(rules, f.name), getattr(preset, f.name)
        mark = " *" if value != default else ""
        rows.append([f.name, f"{value}{mark}", default,
                     describe_allowed(f, rules.game, type(rules)), f.metadata["doc"]])
    click.echo(f"{rules}   (preset {rules.game}; * marks a value that differs from it)")
    click.echo(render_table(["flag", "value", "default", "allowed", "meaning"], rows, "lllll"))


@main.command()
@game_argument
@size_option("simulate", "--deals", 100_000, "Number of deals to simulate.")
@seed_option
@policy_option
@rule_option
@click.option("--first", type=INDEX, default=0, show_default=True,
              help="Index of the first deal; extend a run with --first N_DONE.")
@click.option("--out", type=OUT_PATH, default=None,
              help="Write one row per deal to this .parquet or .csv file (atomically).")
@progress_option
@click.option("--contract", default=None, metavar="NAME",
              help="King only: simulate single hands of this contract (no-tricks, no-hearts, "
                   "no-kings-jacks, no-queens, no-king-of-hearts, last-two, positive) instead "
                   "of whole 10-hand games.")
@click.pass_context
def simulate(ctx, game, deals, seed, policy, rule_pairs, first, out, progress,
             contract) -> None:
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
    """
    rules = resolve_rules(game, rule_pairs)
    deals = search_sized(ctx, "deals", deals, policy)
    if first + deals - 1 > MAX_INDEX:
        raise click.UsageError(
            f"--first + --deals must not pass the last deal index 2**63-1; got --first {first} "
            f"--deals {deals}"
        )
    if common.searches(common.parse_policies(policy)):  # seconds a batch, for the progress
        batch = max(common.SEARCH_BATCH, -(-deals // 100))
    else:
        batch = min(1_000_000, max(20_000, -(-deals // 100)))
    extra = {}
    if rules.game == "king":
        from .games.king.rules import parse_contract

        if contract is not None:
            parse_contract(contract)  # RuleError names the contracts
        extra = {"contract": contract}
    elif contract is not None:
        raise click.UsageError(f"--contract applies to king only; got {rules.game}")
    df = with_progress(progress, deals, lambda bar: family(rules).simulate(
        rules, deals, seed, policy, first, batch=batch, progress=bar, **extra))
    click.echo(summarize(df).to_text())
    if out is not None:
        io.write_table(df, out, dict(df.attrs))
        click.echo(f"wrote {out} ({len(df)} rows)", err=True)


@main.command()
@click.argument("variant_a", type=GAME, metavar="A")
@click.argument("variant_b", type=GAME, metavar="B")
@size_option("compare", "--deals", 1_000_000, "Deals played under both variants (the same "
             "deals).", least=2)
@seed_option
@policy_option
@click.pass_context
def compare(ctx, variant_a, variant_b, deals, seed, policy) -> None:
    """What a rule change does: variants A and B on identical deals, paired differences.

    Deal i of the seed is the same deal under every variant, so each measure's
    difference B − A is taken deal by deal, with a 95% interval far narrower
    than two independent runs would give. Deals a redeal flag threw in under
    either variant are left out of both.

    \b
    Examples:
      bidlab compare pedro "pedro(low_to=holder)"
      bidlab compare pedro cinch --deals 2000000
      bidlab compare "pedro(min_bid=7)" "pedro(min_bid=7,all_pass=dealer_forced_min_bid)"
      bidlab compare rook "rook(pass_cycle=none)" --deals 500000
    """
    from .compare import compare_variants

    deals = search_sized(ctx, "deals", deals, policy)
    c = compare_variants(variant_a, variant_b, deals, seed, policy)
    p = c.provenance
    click.echo(f"A = {p['a']}   B = {p['b']}   policy {policy_label(p['policy'])}, "
               f"seed {p['seed']}, {p['shared_deals']:,} of {p['deals']:,} deals shared\n")

    def fmt(v, hw):
        return "-" if np.isnan(v) else f"{v:.3f} ± {hw:.3f}"

    rows = [[r.measure, fmt(r.a, r.a_hw), fmt(r.b, r.b_hw),
             "-" if np.isnan(r.b_minus_a) else f"{r.b_minus_a:+.4f}",
             "-" if np.isnan(r.diff_lo) else f"[{r.diff_lo:+.4f}, {r.diff_hi:+.4f}]",
             r.n_paired] for r in c.table.itertuples()]
    click.echo(render_table(["measure (per deal)", "A", "B", "B − A", "95% CI (paired)", "n"],
                            rows, align="lrrrrr"))


@main.command()
@game_argument
@size_option("match", "--games", 10_000, "Number of whole games to the target.",
             name="n_games")
@seed_option
@policy_option
@rule_option
@click.option("--max-deals", type=Count(1, GAME_MAX_DEALS), default=None,
              help="A game not decided after this many deals is counted undecided.  "
                   "[default: 1,000, or twice the target when that is more]")
@click.option("--out", type=OUT_PATH, default=None,
              help="Write one row per game to this .parquet or .csv file (atomically).")
@click.pass_context
def match(ctx, game, n_games, seed, policy, rule_pairs, max_deals, out) -> None:
    """Play whole games to the target (rule flag target, default 51); who wins, how fast.

    Each game starts with dealer g % 4 and passes the deal to the left; scores
    settle by the rules' method; a game ends when one side reaches the target
    (both: the bidding side, or the no_contract_tie rule), or is counted
    undecided after --max-deals deals. With per-seat policies, team 0 is seats
    0 and 2.

    \b
    Examples:
      bidlab match pedro --games 20000
      bidlab match cinch --policy heuristic,random,heuristic,random
      bidlab match "pedro(target=62)" --rule no_contract_tie=play_on --out games.parquet
      bidlab match "pedro(target=1000)" --games 2000 --max-deals 5000
    """
    from .stats import mean_ci, wilson

    rules = resolve_rules(game, rule_pairs)
    require_pedro_family(rules, "match")
    n_games = search_sized(ctx, "n_games", n_games, policy)
    df = pedro.simulate_games(rules, n_games, seed, policy, max_deals=max_deals)
    max_deals = df.attrs["max_deals"]
    decided = df[df["winner"] >= 0]
    rows = []
    for label, k, n in (
        ("team 0 (seats 0, 2) wins", int((decided["winner"] == 0).sum()), len(decided)),
        ("first dealer's team wins",
         int((decided["winner"] == decided["first_dealer"] % 2).sum()), len(decided)),
        (f"undecided after {max_deals:,} deals", int((df["winner"] < 0).sum()), len(df)),
    ):
        p = wilson(k, n) if n else None
        rows.append([label, n, k, f"{100 * p.p:.2f}%" if p else "-",
                     f"[{100 * p.lo:.2f}%, {100 * p.hi:.2f}%]" if p else "-"])
    length = mean_ci(df["deals"])
    click.echo(f"{df.attrs['rules']}: {n_games:,} games to {rules.target} (seed {seed}), "
               f"policy {policy_label(df.attrs['policy'])}\n")
    click.echo(render_table(["", "n", "k", "rate", "95% CI"], rows, align="lrrrl"))
    click.echo(f"\ndeals per game: {length}")
    if (df["winner"] < 0).any():
        click.echo(f"{int((df['winner'] < 0).sum()):,} game(s) undecided after {max_deals:,} "
                   f"deals; --max-deals plays them longer", err=True)
    if out is not None:
        io.write_table(df, out, dict(df.attrs))
        click.echo(f"wrote {out} ({len(df)} games)", err=True)


@main.command()
@game_argument
@seed_option
@click.option("--index", type=INDEX, default=0, show_default=True, help="Deal index.")
@policy_option
@rule_option
@click.option("--labels/--no-labels", default=True, show_default=True,
              help="Name seats N, E, S, W beside their numbers 0..3.")
@click.option("--contract", default=None, metavar="NAME",
              help="King only: show single hand INDEX of this contract instead of whole game "
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
    if rules.game == "king":
        from .games import king
        from .games.king import view as king_view

        if contract is None:
            logs = king.play_game_logged(rules, seed, index, policy)
            click.echo(king_view.render_game(logs, seed=seed, policy=policy, rules=str(rules),
                                             labels=labels))
        else:
            log = king.play_logged(rules, seed, [index], policy, contract=contract)[0]
            click.echo(king_view.render_hand(log, seed=seed, policy=policy, rules=str(rules),
                                             labels=labels))
        return
    if contract is not None:
        raise click.UsageError(f"--contract applies to king only; got {rules.game}")
    log = family(rules).play_logged(rules, seed, [index], policy)[0]
    if rules.game == "rook":
        from .games.rook.view import render_hand

        click.echo(render_hand(log, seed=seed, policy=policy, rules=str(rules), labels=labels))
    else:
        click.echo(render_deal(log, seed=seed, policy=policy, rules=str(rules), labels=labels))


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
@click.option("--contract", default=None, metavar="NAME", help="King only: the contract.")
@rule_option
@click.option("--from-deal", "from_deal", type=INDEX, default=None, metavar="INDEX",
              help="Solve the start of play of simulated deal INDEX (with --seed, --policy) "
                   "instead of --hands.")
@seed_option
@policy_option
@click.option("--max-nodes", "max_nodes", type=Count(1),
              default=DEFAULT_MAX_NODES, show_default=True, metavar="N",
              help="Node budget: a position not solved within it is an error rather than a "
                   "wait of unknown length (about 20 M nodes a second). Six-trick Pedro "
                   "positions need thousands; Rook and King needs grow steeply with the "
                   "cards left: 0.3-8 M with ten cards a hand; Rook about 80 M with eleven "
                   "and 1.6 billion with twelve, so whole 13-card deals are out of reach "
                   "but for King's positive hand and some no-king-of-hearts hands.")
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
    from .solve_view import render_solution, solution_dict
    from .solver import deal_position
    from .solver import solve as solve_position

    rules = resolve_rules(game, rule_pairs)
    if from_deal is not None:
        if hands is not None:
            raise click.UsageError("give --hands or --from-deal, not both")
        pos = deal_position(rules, seed, from_deal, policy, contract)
        hands, trump, leader = pos["hands"], pos["trump"], pos["leader"]
        side = pos["side"] if side is None else side
        contract = pos["contract"]
    elif hands is None:
        raise click.UsageError("give the position with --hands \"N/E/S/W\" (or --from-deal)")
    try:
        sol = solve_position(rules, hands, trump=trump, leader=leader, played=played,
                             side=side, contract=contract, max_nodes=max_nodes)
    except SolveBudgetError as e:
        raise SolveBudgetError(f"{e}; --max-nodes raises the budget") from None
    if as_json:
        click.echo(json.dumps(solution_dict(sol), indent=2))
    else:
        from .solver import parse_seat

        click.echo(render_solution(sol, hands, parse_seat(leader), played))


@main.command()
@game_argument
@click.option("--deals", type=Count(1), default=2000, show_default=True,
              help="Deals, the same ones for every rung. Refused with one line when they would "
                   "not fit in free memory or finish within 24 hours.")
@seed_option
@rule_option
@click.option("--rungs", default=",".join(RUNGS), show_default=True, metavar="P,P,...",
              help="Card players of the trump maker's side, weakest first.")
@click.option("--opponents", type=POLICY, default="heuristic", show_default=True,
              help="Card player of the other side.")
@click.option("--worlds", type=Count(1, common.MAX_WORLDS), default=common.DEFAULT_WORLDS,
              show_default=True,
              help="Worlds per pimc decision for a bare pimc (pimc:W keeps its W).")
@click.option("--duplicate", "dup", is_flag=True,
              help="Also play each pair of neighbouring rungs as a duplicate match.")
@click.option("--contract", default=None, metavar="NAME",
              help="King only: the contract's single hands (default positive; a negative "
                   "one, e.g. no-hearts, ladders one seat's penalty).")
@click.option("--out-dir", type=OUT_DIR, default=None,
              help="Write deals.parquet, summary.csv, by_bid.csv and by_bid.png here.")
@progress_option
def ladder(game, deals, seed, rule_pairs, rungs, opponents, worlds, dup, contract, out_dir,
           progress) -> None:
    """How much the card player moves each bid's value: the policy ladder.

    The same deals are played with the trump maker's side choosing cards by
    each rung against fixed opponents. Everyone bids, names trump and
    discards (Rook: drops and passes) by the heuristic, so every rung plays
    the same contracts. The table gives the mean bidding-side points and
    P(make) per bid level, and each rung's paired difference from the
    heuristic. In King the rung plays the positive hand's trump chooser (its
    bid is the price paid in tricks, its measure the tricks it takes; hands
    declined 4-3-3-3 are not played), or with a negative --contract one seat
    in turn, measured by its penalty. dd is clairvoyant (it sees every hand):
    an upper bound, not a legal player. pimc solves WORLDS sampled deals per
    decision; it is slow (seconds per deal), so size --deals with that in
    mind.

    \b
    Examples:
      bidlab ladder pedro --deals 200 --rungs random,heuristic,dd
      bidlab ladder pedro --deals 40 --worlds 20 --duplicate
      bidlab ladder cinch --deals 200 --rungs heuristic,dd --out-dir reports/ladder
      bidlab ladder rook --deals 2000 --rungs random,heuristic --duplicate
      bidlab ladder king --deals 300 --rungs random,heuristic,dd
      bidlab ladder king --deals 2000 --contract no-hearts --rungs random,heuristic
    """
    from . import ladder as lad
    from . import plotting

    rules = resolve_rules(game, rule_pairs)
    names = lad.check_rungs(rungs.split(","))
    if rules.game != "king" and contract is not None:
        raise click.UsageError(f"--contract applies to king only; got {rules.game}")
    if rules.game == "king":
        from .games.king.rules import parse_contract

        parse_contract(contract or "positive")  # RuleError names the contracts
        if dup:
            raise click.UsageError("--duplicate needs partnerships: pedro, cinch or rook")
    result = with_progress(progress, len(names), lambda bar: lad.ladder(
        rules, deals, seed, names, opponents, worlds, progress=bar, contract=contract),
        "playing the rungs")
    summ = result.summary()
    what = f"  contract {result.provenance['contract']}" if "contract" in result.provenance else ""
    click.echo(f"bidlab ladder  {rules}{what}  seed {seed}  deals {deals:,}  opponents "
               f"{opponents}  pimc worlds {worlds}")
    click.echo("auction: heuristic for every seat and rung; rungs differ in card play only")
    if "declined" in result.provenance:
        click.echo(f"{result.provenance['declined']:,} hands declined 4-3-3-3 (not played) "
                   "are left out")
    click.echo("")
    rows = [[r.rung, r.n, f"{r.points:.3f}", f"[{r.points_lo:.3f}, {r.points_hi:.3f}]",
             *((f"{100 * r.p_make:.1f}%", f"[{100 * r.p_make_lo:.1f}, {100 * r.p_make_hi:.1f}]")
               if r.contracts else ("n/a", "")),
             f"{r.diff:+.3f} [{r.diff_lo:+.3f}, {r.diff_hi:+.3f}]" if "diff" in summ else "",
             f"{r.seconds:.1f}"] for r in summ.itertuples()]
    click.echo(render_table(["rung", "n", result.measure, "95% CI", "P(make)", "95% CI",
                             "vs heuristic (paired)", "s"], rows))
    by_bid = result.by_bid()
    if len(by_bid):
        click.echo("")
        click.echo(f"by bid level: {result.measure} (± 95% half-width) and P(make)")
        table = by_bid.pivot(index="bid", columns="rung", values="points")
        rows = []
        for b in table.index:
            g = by_bid[by_bid["bid"] == b].set_index("rung")
            rows.append([int(b), int(g["n"].iloc[0])] + [
                _points_cell(g.loc[lad.label(r)]) for r in names])
        click.echo(render_table(["bid", "n", *[lad.label(r) for r in names]], rows))
    dups = []
    if dup:
        click.echo("")
        click.echo("duplicate matches (same deals, partnerships swapped; whole players, "
                   "bidding included): A's edge per deal")
        for lo, hi in zip(names, names[1:], strict=False):
            d = lad.duplicate(rules, hi, lo, deals, seed, worlds=worlds)
            dups.append(d.row())
            click.echo(f"  {lad.label(hi)} vs {lad.label(lo)}: points {d.net_points.format(3)}"
                       f"; score {d.net_score.format(3)}  ({d.seconds:.1f} s)")
    if out_dir is not None:
        meta = {k: str(v) for k, v in result.provenance.items()}
        with io.atomic_dir(out_dir) as tmp:
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
        click.echo(f"wrote {out_dir}/{', '.join(p.name for p in files)}")


def _report_time(n: int, seconds: float, policy: str) -> None:
    """The run time on stderr, with sizing advice when a searching player made it slow."""
    per = 1000 * seconds / max(n, 1)
    line = f"{n:,} deals in {seconds:.1f} s ({per:.2f} ms a deal, policy {policy_label(policy)})"
    if "pimc" in policy or "dd" in policy:
        per_minute = int(60 / max(seconds / max(n, 1), 1e-9))
        line += (f"; searching players cost milliseconds per card: about {per_minute:,} deals "
                 "a minute here, so size --deals (or --time-budget) to your time, or search "
                 "for one side only (pimc:20,heuristic,pimc:20,heuristic) or with fewer worlds")
    click.echo(line, err=True)


def _points_cell(row) -> str:
    """Points ± half-width and P(make), fixed widths so that the columns line up."""
    hw = "n/a" if np.isnan(row["points_hw"]) else f"{row['points_hw']:.2f}"
    return f"{row['points']:6.2f} ± {hw:>5}  {100 * row['p_make']:3.0f}%"


def _hand(ctx, param, value: tuple[str, ...]) -> CardSet:
    text = " ".join(value)
    try:
        cards = parse_cards(text)
    except CardParseError as e:
        raise click.BadParameter(str(e), ctx, param) from None
    if not cards:
        raise click.BadParameter("no cards given; e.g. \"AS KS 10H TD 5C 2h\"", ctx, param)
    return CardSet(cards)


def _hand_text(ctx, param, value: tuple[str, ...]) -> str:
    return str(_hand(ctx, param, value))  # malformed or repeated cards; the count is GAME's


def check_game_hand(hand: str, rules) -> None:
    """HAND for GAME: 9 cards of 52 for Pedro/Cinch, 13 of 53 (one Rook) for Rook."""
    try:
        if rules.game == "rook":
            from .games.rook.evaluate import parse_rook_hand

            parse_rook_hand(hand, rules)
        elif rules.game == "king":
            from .games.king.evaluate import parse_king_hand

            parse_king_hand(hand)
        else:
            if JOKER in parse_cards(hand):
                raise HandError("the joker is not in the 52-card Pedro deck")
            parse_hand(hand)
    except HandError as e:
        raise click.BadParameter(str(e), param_hint="'HAND'") from None


@main.command()
@game_argument
@click.argument("hand", nargs=-1, required=True, callback=_hand_text, metavar="HAND")
@click.option("--seat", type=click.Choice(list(pedro.SEAT_OFFSETS)), default="eldest",
              show_default=True, help="Where HAND sits, counted from the dealer.")
@size_option("hand", "--deals", 20_000,
             "Fixed number of deals (without --target-ci or --time-budget).")
@seed_option
@policy_option
@rule_option
@click.option("--target-ci", type=Real(), default=None,
              help="Play batches of 10,000 deals (50 when a seat searches) until the "
                   "leading alternatives' 95% half-widths are at most this (points per deal).")
@click.option("--time-budget", type=Real(), default=None,
              metavar="SECONDS",
              help="Play batches of 10,000 deals (50 when a seat searches) for about this long.")
@click.option("--until-decided", is_flag=True,
              help="Play batches until the recommendation is clear (it beats its strongest "
                   "rival beyond the noise), within --time-budget and --max-deals; the "
                   "header says which ended the run.")
@click.option("--max-deals", type=Count(1), default=1_000_000,
              help=f"Most deals --target-ci, --time-budget or --until-decided may play.  "
                   f"[default: 1,000,000; {SEARCH_MAX_DEALS:,} when a seat searches (dd, pimc)]")
@click.option("--json", "as_json", is_flag=True,
              help="Print one JSON document: provenance and every table.")
@click.option("--csv", "as_csv", is_flag=True,
              help="Print the bids table as CSV with provenance columns.")
@click.option("--plot", type=PLOT_PATH, default=None,
              help="Also write the EV-by-bid chart to this .png, .svg or .pdf (atomically).")
@click.option("--known", "known_pairs", multiple=True, metavar="SEAT=CARDS",
              help='Cards another seat is known to hold, e.g. --known second="AH KH" '
                   "(repeatable); the rest of the deck is dealt around them.")
@click.option("--contract", default=None, metavar="NAME",
              help="King only: one contract (no-tricks, no-hearts, no-kings-jacks, no-queens, "
                   "no-king-of-hearts, last-two, positive) or all [default: all].")
@progress_option
@click.pass_context
def hand(ctx, game, hand, seat, deals, seed, policy, rule_pairs, target_ci, time_budget,
         until_decided, max_deals, as_json, as_csv, plot, known_pairs, contract,
         progress) -> None:
    """What HAND is worth at SEAT: points, P(make), EV per bid and trump, EV(pass).

    Pedro/Cinch: the 9 cards of HAND are held at --seat and the other 43 dealt at random;
    every trump, every bid and the pass are played on the same deals, so their
    differences are paired. EV(bid b): the seat bids b in its turn, the others
    bid by their policies and may outbid it, and it names the trump if it
    wins; for the pass it passes. P(points >= b) is for the seat as the sole
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

    \b
    Examples:
      bidlab hand pedro "AS KS 5S 5C 2S 9H 3D JC 7H" --seat eldest --deals 20000
      bidlab hand cinch "AH KH QH 5D 2H 9C 3S JS 7C" --seat dealer --seed 7
      bidlab hand pedro "AS KS 5S 5C 2S 9H 3D JC 7H" --target-ci 0.05 --max-deals 500000
      bidlab hand pedro "2H 3D 4C 6S 7H 8D 9C 3S 4D" --seat dealer --until-decided \
          --time-budget 60
      bidlab hand pedro "AS KS 5S 5C 2S 9H 3D JC 7H" --json > hand.json
      bidlab hand pedro "AS KS 5S 5C 2S 9H 3D JC 7H" --csv --plot hand.png
      bidlab hand pedro "AS KS 5S 5C 2S 9H 3D JC 7H" --known third="AH KH"
      bidlab hand rook "AS KS QS JS 9S 5S JK AH KH 5D 2D 3C 4C" --seat dealer
      bidlab hand king "AH KH QH JH 2C 3C 4C 5D 6D 7D 8S 9S TS" --contract no-hearts
    """
    from . import hand_view

    if as_json and as_csv:
        raise click.UsageError("--json and --csv are exclusive; choose one")
    adaptive = target_ci is not None or time_budget is not None or until_decided
    given = {name for name in ("deals", "max_deals")
             if ctx.get_parameter_source(name) is not click.core.ParameterSource.DEFAULT}
    if adaptive and "deals" in given:
        raise click.UsageError("--deals is a fixed count; with --target-ci, --time-budget "
                               "or --until-decided the run stops by the rule or at "
                               "--max-deals")
    if not adaptive and "max_deals" in given:
        raise click.UsageError("--max-deals applies to --target-ci, --time-budget or "
                               "--until-decided; use --deals for a fixed count")
    rules = resolve_rules(game, rule_pairs)
    check_game_hand(hand, rules)
    if not adaptive:
        deals = search_sized(ctx, "deals", deals, policy)
    else:  # a million searched deals would take a day or more
        max_deals = search_sized(ctx, "max_deals", max_deals, policy, SEARCH_MAX_DEALS)
    if (contract is not None) != (rules.game == "king") and contract is not None:
        raise click.UsageError(f"--contract applies to king only; got {rules.game}")
    known: dict[str, str] = {}
    for pair in known_pairs:
        where, _, cards_text = pair.partition("=")
        if not cards_text.strip():
            raise click.BadParameter(f"bad --known {pair!r}; expected SEAT=CARDS with SEAT one "
                                     f"of {', '.join(pedro.SEAT_OFFSETS)}")
        known[where.strip().lower()] = " ".join(filter(None, [known.get(where.strip().lower()),
                                                               cards_text]))
    if rules.game == "king":
        from .games.king.evaluate import (
            evaluate_king_hand,
            king_hand_json,
            king_hand_work,
            render_king_hand,
        )

        if adaptive or as_csv or plot is not None:
            raise click.UsageError("king hands take --deals and --json; --target-ci, "
                                   "--time-budget, --until-decided, --csv and --plot are for "
                                   "pedro, cinch, rook")
        kev = with_progress(progress, king_hand_work(rules, contract or "all", deals),
                            lambda bar: evaluate_king_hand(rules, hand, seat, contract or "all",
                                                           deals, seed, policy, known, bar))
        click.echo(king_hand_json(kev) if as_json else render_king_hand(kev))
        return
    started = time.perf_counter()
    ev = with_progress(progress, max_deals if adaptive else deals, lambda bar: evaluate_hand(
        rules, hand, seat=seat, deals=deals, seed=seed, policy=policy, target_ci=target_ci,
        max_deals=max_deals, time_budget=time_budget, known=known, progress=bar,
        until_decided=until_decided),
        "simulating (until the stop rule, at most --max-deals)" if adaptive else "simulating")
    if as_json:
        click.echo(hand_view.hand_json(ev))
    elif as_csv:
        click.echo(hand_view.hand_csv(ev), nl=False)
    else:
        click.echo(hand_view.render_hand(ev))
    _report_time(ev.n, time.perf_counter() - started, policy)
    if plot is not None:
        from . import plotting

        rook_game = ev.ceilings is not None
        fig = plotting.ev_by_bid(
            ev.bids, ev.pass_ev, method=None if rook_game else rules.scoring, net=True,
            title=f"{ev.hand} at {ev.seat}: EV by bid\n{ev.rules}, "
                  f"policy {policy_label(ev.policy)}, "
                  f"seed {ev.seed}, n={ev.n:,}, stopped by {ev.stopped_by}",
            xlabel="bid b (as declarer at b, calling the trump of the line)" if rook_game
            else None)
        plotting.save_figure(fig, plot)
        click.echo(f"wrote {plot}", err=True)


def _features(ctx, param, value: str | None) -> tuple[str, ...] | None:
    """--by as a tuple of names; checked against GAME's features in the command, since
    click may process --by before GAME."""
    if value is None:
        return None
    return tuple(f.strip().lower() for f in value.split(",") if f.strip())


def _game_features(by: tuple[str, ...] | None, game: str) -> tuple[str, ...]:
    from .bidchart import ChartError, check_features, features_of

    try:
        return check_features(by if by is not None else features_of(game)[1], game)
    except ChartError as e:
        raise click.BadParameter(str(e), param_hint="'--by'") from None


@main.command("bid-chart")
@game_argument
@size_option("bid-chart", "--deals", 2_000_000,
             "Deals to play; every seat's hand of each is charted (4 hands a deal).")
@seed_option
@policy_option
@rule_option
@click.option("--by", default=None, callback=_features, metavar="FEATURE,...",
              help="Hand features that define a class [default: trumps,pedros,ace,seat; "
                   "rook: trumps,counters,rook,seat].")
@click.option("--out-dir", type=OUT_DIR, default=None,
              help="Write chart.parquet, chart.csv, classes.csv, guide.csv, violations.csv, "
                   "heatmap.png and manifest.json here (created if missing; files replaced "
                   "atomically).")
@progress_option
@click.pass_context
def bid_chart_cmd(ctx, game, deals, seed, policy, rule_pairs, by, out_dir, progress) -> None:
    """Bid-value chart: what each bidding action is worth to a seat, by its class of hand.

    Every hand dealt to every seat counts (4 per deal), whether or not it would
    win the auction. Each is played once per action on the same cards: pass,
    and bid b in its turn for every legal b (Rook: raise by the minimum up to
    b) while the others bid by their policy and may outbid it; if it wins it
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

    \b
    Examples:
      bidlab bid-chart pedro --deals 500000
      bidlab bid-chart cinch --deals 200000 --by trumps,counters,seat --out-dir cinch-chart
      bidlab bid-chart "pedro(low_to=holder)" --deals 200000 --by trumps,two,pedros,seat
      bidlab bid-chart rook --deals 100000 --by trumps,counters,aces,seat
      bidlab bid-chart king --deals 100000 --out-dir reports/king-chart
    """
    from .bidchart import bid_chart
    from .bidchart_view import render_bid_chart, write_bid_chart

    rules = resolve_rules(game, rule_pairs)
    deals = search_sized(ctx, "deals", deals, policy)
    if rules.game == "king":
        from .games.king.chart import king_chart, render_king_chart, write_king_chart

        if by is not None:
            raise click.UsageError("king charts choose their features per contract; "
                                   "--by is for pedro, cinch and rook")
        kchart = with_progress(progress, deals, lambda bar: king_chart(
            rules, deals, seed, policy, progress=bar))
        click.echo(render_king_chart(kchart))
        if out_dir is not None:
            write_king_chart(kchart, Path(out_dir))
            click.echo(f"wrote {out_dir}/", err=True)
        return
    by = _game_features(by, rules.game)
    chart = with_progress(progress, deals,
                          lambda bar: bid_chart(rules, deals, seed, policy, by, progress=bar))
    click.echo(render_bid_chart(chart))
    if out_dir is not None:
        write_bid_chart(chart, Path(out_dir))
        click.echo(f"wrote {out_dir}/", err=True)


@main.command()
@click.argument("hand", nargs=-1, required=True, callback=_hand)
def cards(hand: CardSet) -> None:
    """Read a hand string the way bidlab does and print it sorted, by suit.

    Cards are a rank (2-9, 10 or T, J, Q, K, A) and a suit (C, D, H, S), any
    case, separated by spaces or commas; JK, JOKER or ROOK is the joker. The
    hand may be one quoted argument or several.

    \b
    Examples:
      bidlab cards "AS KS 10H TD 5C 2h"
      bidlab cards AS,KS,QS
    """
    click.echo(f"hand:  {hand}")
    click.echo(f"count: {len(hand)}")
    click.echo(f"mask:  0x{hand.mask:016x}")
    rows = []
    for s in (3, 2, 1, 0):
        held = [RANKS[c % 16] for c in hand.suit(s)]
        rows.append([SUIT_NAMES[s], len(held), " ".join(held) or "-"])
    if JOKER in hand:
        rows.append(["joker", 1, "JK"])
    click.echo(render_table(["suit", "n", "cards"], rows, "lrl"))


@main.command()
@click.option("--game", "games_", type=GAME, multiple=True, default=("pedro", "rook"),
              show_default=True, help="Game or variant to time (repeatable).")
@click.option("--policy", "policies", type=POLICY, multiple=True,
              default=("random", "heuristic"), show_default=True,
              help="Policy to time (repeatable).")
@click.option("--deals", type=Count(1), default=1_000_000, show_default=True,
              help="Deals per timed run. Refused with one line when they would not fit in free "
                   "memory, or when the runs would take over 24 hours at the pace of a small "
                   "first run.")
@click.option("--repeats", type=Count(1, 1_000), default=3, show_default=True,
              help="Timed runs per figure; the best is reported.")
def bench(games_, policies, deals, repeats) -> None:
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
    """
    from . import bench as bench_mod  # loads the thread pool only when timing

    rows = bench_mod.run(games=tuple(str(g) for g in games_), policies=tuple(policies),
                         deals=deals, repeats=repeats)
    one = {(r.game, r.policy): r.deals_per_s for r in rows if r.threads == 1}
    table = [[r.game, r.policy, r.threads, r.deals, f"{r.seconds:.3f}", f"{r.deals_per_s:,.0f}",
              f"{r.deals_per_s / one[(r.game, r.policy)]:.2f}x"
              if (r.game, r.policy) in one else "-"]
             for r in rows]
    click.echo(render_table(["game", "policy", "threads", "deals", "seconds", "deals/s",
                             "speed-up"], table, "llrrrrr"))
