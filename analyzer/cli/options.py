"""Option types and the options the commands share, defined once.

Each parameter type validates its text once, with the allowed values in its message: games
and variant strings, ``--rule flag=value``, policies, counts and numbers in plain ASCII,
hand strings, and paths to write (checked before any work). Also here: the size options
whose defaults shrink when a seat searches, the progress bar, the rules a command plays
(GAME with its ``--rule`` flags), ``--out`` and ``--json`` as every command words them, and
the one rule for output files: an existing one is replaced, and stderr says so in one line
(``bidlab: replaced PATH``, set here for every writer of :mod:`analyzer.atomic`).

May import: click, the registry and protocol of the games, and the package's foundations;
never a command module.
"""

from __future__ import annotations

import os
import sys
import time

import click

from .. import atomic, io
from ..cards import CardParseError, CardSet, parse_cards
from ..games import PRESET_NAMES, common, family, game, parse_game
from ..games.common import policy_label
from ..limits import MAX_SEED, SEARCH_SIZES, TIME_LIMIT
from ..parsing import NumberError, parse_float, parse_int
from ..twolevel import check_request
from ..variants import RuleError, pairs_once, parse_rule_option

MAX_INDEX = MAX_SEED  # seeds and deal indices are int64 in the kernels


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
        return io.check_out_table(value)


class PlotPathType(_WritablePathType):
    """A chart to write: .png, .svg or .pdf."""

    @property
    def format_errors(self):
        from .. import plotting  # matplotlib loads only when a chart is asked for

        return (plotting.FigureFormatError,)

    def check(self, value):
        from .. import plotting

        return plotting.check_plot_path(value)


class OutDirType(_WritablePathType):
    """A folder of outputs, created when they are written."""

    name = "directory"

    def check(self, value):
        return atomic.check_out_dir(value)


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

REPLACED = ("An existing file is replaced (only an earlier output of bidlab's; any other file "
            "is refused), and stderr says so.")
REPLACED_FOLDER = ("An existing folder is replaced whole (only an earlier output of bidlab's; "
                   "a folder of other files is refused), and stderr says so.")


def say_replaced(path: str) -> None:
    """The one line every command prints when it replaces an output
    (:func:`analyzer.atomic.on_replace`)."""
    click.echo(f"bidlab: replaced {path}", err=True)


atomic.on_replace(say_replaced)


def out_option(rows: str):
    """``--out FILE``: ``rows`` as a table (:func:`analyzer.io.write_table`)."""
    return click.option(
        "--out", type=OUT_PATH, default=None,
        help=f"Write {rows} to this .parquet or .csv file, atomically (a CSV is header and "
             f"rows only; its provenance goes to FILE.json beside it). {REPLACED}")


json_option = click.option(
    "--json", "as_json", is_flag=True,
    help="Print one JSON document on stdout instead of the tables: the provenance (rules "
         "string, seed, policy, n) and every number the tables show, with its n and 95% "
         "bounds.")


def json_listing(what: str):
    """``--json`` of a command that lists rather than estimates: ``what`` it prints."""
    return click.option("--json", "as_json", is_flag=True,
                        help=f"Print {what} as one JSON document on stdout instead of text.")

game_argument = click.argument("game", type=GAME, metavar="GAME")


def rules_option(on: str = "GAME"):
    """``--rule FLAG=VALUE`` (repeatable): flags set on top of ``on``."""
    return click.option(
        "--rule", "rule_pairs", type=RULE, multiple=True, metavar="FLAG=VALUE",
        help=f"Set one rule flag on top of {on} (repeatable); see `bidlab rules GAME`.")


rule_option = rules_option()
policy_option = click.option(
    "--policy", type=POLICY, default="heuristic", show_default=True,
    help=f"Seat policy: {common.POLICY_HELP}; one for all seats, or four separated by "
         "commas (seats 0,1,2,3).",
)
def run_dir_option(merges: bool):
    """``--run-dir DIR``; ``merges``: whether ``bidlab merge`` joins the command's runs."""
    return click.option(
        "--run-dir", type=click.Path(file_okay=False), default=None, metavar="DIR",
        help="Keep the run chunk by chunk in this folder. A killed run goes on where it "
             "stopped (the same command again, or bidlab resume DIR), bidlab resume DIR "
             "--extend N adds deals" + (", bidlab merge DIR... joins runs" if merges else "")
             + "; the numbers are those of one uninterrupted run.")


def chunk_option(writes_rows: bool):
    """``--chunk N``; ``writes_rows``: whether the command has ``--out`` (smaller chunks)."""
    return click.option(
        "--chunk", type=Count(1), default=None,
        help="Deals a chunk [default: a hundredth of the run, from 20,000 deals (a searching "
             "player's: from a batch) to 1,000,000" + (" (250,000 with --out)" if writes_rows
                                                        else "")
             + "; on a cluster, tasks of about 3 s at the measured pace]. Memory holds one "
               "chunk; the numbers never depend on it.")


MAX_LOCAL_WORKERS = 4 * (os.cpu_count() or 1)  # a LocalCluster is on this machine


def executor_options(command):
    """``--executor``, ``--scheduler``, ``--workers``: where a run's chunks are played."""
    from ..runs import EXECUTORS

    for option in reversed((
        click.option("--executor", type=click.Choice(EXECUTORS), default="local",
                     show_default=True,
                     help="Where the chunks are played: local (this process, every core), "
                          "dask (the Dask cluster at --scheduler), dask-local (a Dask "
                          "LocalCluster of --workers processes on 127.0.0.1). The same seed "
                          "gives the same numbers on each."),
        click.option("--scheduler", default=None, metavar="ADDRESS",
                     help="The scheduler of --executor dask, e.g. tcp://10.0.0.5:8786 (a "
                          "`dask scheduler` with `dask worker`s that have bidlab installed)."),
        click.option("--workers", type=Count(1, MAX_LOCAL_WORKERS), default=None,
                     help="Worker processes of --executor dask-local [default: one a core]; "
                          "at most four a core: each loads its own compiled kernels, and "
                          "more processes than cores play no faster."),
    )):
        command = option(command)
    return command


def base_options(figures: str, narrowest: str | None = None, limits: str = ""):
    """``--base POLICY`` and ``--base-deals N``: a two-level estimate, where ``figures`` says
    which numbers it makes (each EV, each figure); with ``narrowest`` (what a time budget
    makes narrowest), ``--budget SECONDS`` too; ``limits``: a sentence on the games that
    refuse it."""
    def apply(command):
        if narrowest is not None:
            command = click.option(
                "--budget", type=Real(hi=TIME_LIMIT), default=None, metavar="SECONDS",
                help=f"With --base: split about this many seconds between N and n so that "
                     f"{narrowest} is narrowest (a short pilot measures both costs). The split "
                     f"follows this machine's pace; the N and n it chose, shown with the "
                     f"result, replay it exactly as --base-deals and --deals.")(command)
        command = click.option(
            "--base-deals", type=Count(1), default=100_000,
            help="Deals the --base policy plays (N); --deals is n, the searched ones.  "
                 "[default: 100,000]")(command)
        return click.option(
            "--base", type=POLICY, default=None, metavar="POLICY",
            help=f"Two-level estimate: this cheap policy (e.g. heuristic) plays --base-deals "
                 f"deals, --policy the first --deals of them too, and {figures} is the cheap "
                 f"mean plus the searching player's correction fitted on the n, with an "
                 f"interval from both: a searching player's numbers at near the cheap one's "
                 f"cost.{limits}")(command)
    return apply


def explicit(ctx: click.Context) -> set[str]:
    """The options given on the command line (not left to their defaults)."""
    return {name for name in ctx.params
            if ctx.get_parameter_source(name) is not click.core.ParameterSource.DEFAULT}


def check_base(ctx: click.Context, base: str | None, budget: float | None = None) -> None:
    """--base-deals (and --budget) only with --base, and --budget without --deals (it
    chooses them): a usage error otherwise; a --base that is no cheaper than --policy:
    :class:`analyzer.twolevel.TwoLevelError`."""
    given = [f for f, on in (("--budget", budget is not None),
                             ("--base-deals", "base_deals" in explicit(ctx))) if on]
    if base is None and given:  # name only what was given
        flags = " and ".join(given) + (" go" if len(given) > 1 else " goes")
        raise click.UsageError(f"{flags} with --base (a two-level estimate)")
    if budget is not None and "deals" in explicit(ctx):
        raise click.UsageError("--budget chooses the deals; drop --deals")
    if base is not None:  # before any note on stderr: a refusal is the one line there
        check_request(common.policy_string(common.parse_policies(ctx.params["policy"])),
                      common.policy_string(common.parse_policies(base)))


def check_games(ctx: click.Context, n_games: int | None, max_deals: int | None) -> None:
    """--games plays whole games, so not beside the options of single deals (--deals,
    --contract, --base, --budget); --max-deals only with --games: a usage error otherwise.
    A game without games to a target (King) is refused by the game."""
    if n_games is None:
        if max_deals is not None:
            raise click.UsageError("--max-deals goes with --games (whole games to the target)")
        return
    given = [flag for flag, name in (("--deals", "deals"), ("--contract", "contract"),
                                     ("--base", "base"), ("--budget", "budget"))
             if name in explicit(ctx) and ctx.params.get(name) is not None]
    if given:
        raise click.UsageError(f"--games compares whole games to the target; {given[0]} is "
                               "for single deals: give one of them")


progress_option = click.option(
    "--progress/--no-progress", default=None,
    help="Progress bar on stderr, with the time left [default: when stderr is a terminal].")
seed_option = click.option(
    "--seed", type=SEED, default=1, show_default=True,
    help="Random seed (0 .. 2**63-1); deal i of a seed is the same on every machine.")


def contract_option(text: str):
    """``--contract NAME`` for the games with contracts; ``text`` says what it does."""
    return click.option("--contract", default=None, metavar="NAME", help=text)


def with_progress(show: bool | None, total: int, work, label: str = "simulating"):
    """Run ``work(progress)``; progress is a bar's update on stderr (by default only when
    stderr is a terminal; asked for with stderr a file or a pipe, a line now and then), or
    None."""
    if not (sys.stderr.isatty() if show is None else show):
        return work(None)
    if not sys.stderr.isatty():  # click's bar draws nothing there: a log gets lines
        return work(LineProgress(label, total).update)
    with click.progressbar(length=total, label=label, file=sys.stderr) as bar:
        return work(bar.update)


class LineProgress:
    """Progress as a line on stderr every :attr:`EVERY` seconds and at the end: for a log
    (``2> run.log``, ``nohup``), where a bar cannot redraw itself."""

    EVERY = 10.0

    def __init__(self, label: str, total: int):
        self.label, self.total, self.done = label, max(1, total), 0
        self.started = self.said = time.perf_counter()

    def update(self, n: int) -> None:
        was, self.done = self.done, self.done + n
        now = time.perf_counter()
        if now - self.said < self.EVERY and not was < self.total <= self.done:
            return
        self.said, elapsed = now, now - self.started
        left = (f", about {elapsed * (self.total - self.done) / self.done:.0f} s left"
                if 0 < self.done < self.total else "")
        click.echo(f"{self.label}: {min(self.done / self.total, 1):.0%} in {elapsed:.0f} s"
                   f"{left}", err=True)


def clock_bar(update, started: float):
    """A progress callback that moves the bar ``update`` by the tenths of a second gone since
    ``started``, whatever the deals (a --time-budget run ends by the clock)."""
    shown = [0]

    def step(_deals: int) -> None:
        now = int(10 * (time.perf_counter() - started))
        if now > shown[0]:
            update(now - shown[0])
            shown[0] = now

    return step


def resolve_rules(variant, pairs: tuple[tuple[str, str], ...]):
    """GAME with the --rule flags applied (RuleError names the flag and its allowed values)."""
    if not pairs:
        return variant
    return family(variant).parse_rules(str(variant), pairs_once(pairs, "by --rule"))


# ---- sizes: smaller defaults when a seat searches ------------------------------------------

# A size option left at its default when a seat searches: limits.SEARCH_SIZES (the library's
# hand evaluation and comparison take the same), or the game's own (Game.search_sizes).


def size_option(command: str, flag: str, default: int, text: str, least: int = 1,
                name: str | None = None, most: int = MAX_INDEX):
    """A size option of ``command`` whose help shows both of its defaults (click's
    show_default knows only one); the command applies them with ``search_sized``. ``most``:
    the largest the library can index (whole games), refused here rather than there."""
    args = (flag, name) if name else (flag,)
    own = "".join(f", {game(p).title} {game(p).search_sizes[command]:,}"
                  for p in PRESET_NAMES if command in game(p).search_sizes)
    return click.option(*args, type=Count(least, most), default=default,
                        help=f"{text} A size that would not fit in free memory, or would take "
                             f"over 24 hours at the pace its first seconds measure, is refused "
                             f"with one line.  [default: {default:,}; "
                             f"{SEARCH_SIZES[command]:,} when a seat searches (dd, pimc){own}]")


def search_sized(ctx: click.Context, name: str, value: int, policy: str,
                 small: int | None = None) -> int:
    """The size option ``name``: as given, else its default, or when a seat searches
    ``small``, by default the library's (:func:`analyzer.games.common.searching_size`);
    that choice is said on stderr, since it changes n."""
    if ctx.get_parameter_source(name) is not click.core.ParameterSource.DEFAULT:
        return value
    pols = common.parse_policies(policy)
    if not common.searches(pols):
        return value
    if small is None:  # compare: variant A's game
        variant = ctx.params.get("game") or ctx.params["variant_a"]
        small = common.searching_size(game(variant), ctx.info_name, pols, value)
    flag = next(opt for p in ctx.command.params if p.name == name for opt in p.opts)
    click.echo(f"policy {policy_label(policy)} searches (milliseconds a card): {flag} "
               f"defaults to {small:,} rather than {value:,}; set {flag} for more", err=True)
    return small


# ---- hands ------------------------------------------------------------------------------------


def card_set(ctx, param, value: tuple[str, ...]) -> CardSet:
    """HAND as one quoted argument or several: cards of the 53-card deck, none repeated."""
    text = " ".join(value)
    try:
        cards = parse_cards(text)
    except CardParseError as e:
        raise click.BadParameter(str(e), ctx, param) from None
    if not cards:
        raise click.BadParameter("no cards given; e.g. \"AS KS 10H TD 5C 2h\"", ctx, param)
    return CardSet(cards)


def hand_text(ctx, param, value: tuple[str, ...]) -> str:
    return str(card_set(ctx, param, value))  # malformed or repeated cards; the count is GAME's


def check_game_hand(hand: str, rules) -> None:
    """HAND as GAME deals it (its hand size and deck), or a bad-parameter line."""
    from ..rollout import HandError  # the evaluation's module: loaded once a hand is asked

    try:
        game(rules).parse_hand(hand, rules)
    except HandError as e:
        raise click.BadParameter(str(e), param_hint="'HAND'") from None
