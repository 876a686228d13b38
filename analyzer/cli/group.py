"""The ``bidlab`` command group and its one way of failing.

Input is checked by click parameter types before any work starts (:mod:`.options`).
Whatever is still wrong surfaces as one line on stderr, ``bidlab: error: <problem and the
allowed values>``, with exit status 2: :class:`BidlabGroup` is the single place that turns
click's usage errors and bidlab's own input errors into that line, so commands never catch
errors.

May import: click and the package's foundations (errors of parsing, rules, games, io,
limits, solver), those of errors only once a command has failed; a command module only by
its name in :data:`COMMANDS`, when that command is asked for.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import re
import signal
import sys
import threading
import traceback
from typing import NoReturn

import click

from .. import __version__
from ..parsing import QUOTE_LIMIT

# command -> (module of this package that defines it, its one-line help). ``bidlab --help``
# lists the commands from here, and a command's module is imported only when it is asked
# for, so the listing answers without loading numba or pandas (a second and a half). The
# helps are the first sentences of the commands' own: tests/test_cli_help.py checks them.
COMMANDS = {
    "bench": ("bench", "Deals per second for each game x policy on 1 thread and on all threads."),
    "bid-chart": ("chart", "Bid-value chart: what each bidding action is worth to a seat, by its "
                           "class of hand."),
    "cards": ("info", "Read a hand string the way bidlab does and print it sorted, by suit."),
    "compare": ("play", "What a rule change does: variants A and B on identical deals, paired "
                        "differences."),
    "deal": ("play", "Show one deal trick by trick: hands, bids, draw, tricks, points, "
                     "settlement."),
    "games": ("info", "List the games and presets with their canonical rules strings."),
    "hand": ("hand", "What HAND is worth at SEAT: points, P(make), EV per bid and trump, "
                     "EV(pass)."),
    "ladder": ("ladder", "How much the card player moves each bid's value: the policy ladder."),
    "merge": ("play", "One summary of the runs kept in DIR... (simulate --run-dir)."),
    "match": ("play", "Play whole games to the target score (Pedro 51, Rook 500); who wins, "
                      "how fast."),
    "report": ("report", "Write a strategy report (HTML, Markdown, figures, data, manifest) "
                         "from a scenario file."),
    "resume": ("play", "Go on with the run kept in DIR (simulate --run-dir DIR): its missing "
                       "chunks, and more."),
    "rules": ("info", "Every rule flag of GAME: value, preset default, allowed values and "
                      "meaning."),
    "simulate": ("play", "Simulate DEALS deals of GAME; print a summary with n and 95% intervals."),
    "solve": ("solve", "Double-dummy value of a position and of every legal card (the "
                       "SolveBoard)."),
    "warmup": ("bench", "Compile the kernels of GAME (default: every game) now, and say how long "
                        "it took."),
}


def input_errors() -> tuple[type[Exception], ...]:
    """The errors of bad input, each said as one line: imported when a command has failed,
    by which time the modules that raise them are loaded anyway."""
    from .. import io
    from ..cards import CardParseError
    from ..games import common
    from ..games.protocol import NotOffered
    from ..limits import ArgumentError, SizeError
    from ..parsing import NumberError
    from ..report.scenario import ScenarioFileError
    from ..rollout import HandError
    from ..runs import ExecutorError, RunStoreError
    from ..solver import PositionError, SolveBudgetError
    from ..twolevel import TwoLevelError
    from ..variants import RuleError
    return (RuleError, TwoLevelError, ScenarioFileError, common.PolicyError, common.ScenarioError,
            CardParseError, HandError, io.TableFormatError, PositionError, SolveBudgetError,
            NumberError, SizeError, ArgumentError, NotOffered, RunStoreError, ExecutorError)


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
        if sys.stdout is None:  # started with stdout closed (`>&-`): click would print nothing
            fail("standard output is closed: send it to a file or to /dev/null")
        outcome: dict = {}

        def work():
            try:
                outcome["rv"] = super(BidlabGroup, self).main(
                    args, prog_name, complete_var, standalone_mode=False, **extra)
            except BaseException as e:  # noqa: BLE001 - handed to the main thread
                outcome["error"] = e

        worker = threading.Thread(target=work, name="bidlab-command", daemon=True)
        # `timeout`, a scheduler or a shutdown sends SIGTERM: end as Ctrl-C does, removing
        # the hidden half-written outputs (Python's default would leave them, hundreds of MB)
        try:
            signal.signal(signal.SIGTERM, lambda *_: abort_now(TERMINATED, "Terminated"))
            worker.start()
            while worker.is_alive():
                worker.join(0.05)
        except KeyboardInterrupt:
            abort_now()
        self._finish(outcome)

    def list_commands(self, ctx):
        return sorted(set(COMMANDS) | set(self.commands))

    def get_command(self, ctx, name):
        if name not in self.commands and name in COMMANDS:
            importlib.import_module(f"{__package__}.{COMMANDS[name][0]}")
        return super().get_command(ctx, name)

    def resolve_command(self, ctx, args):
        try:
            return super().resolve_command(ctx, args)
        except click.UsageError as e:
            if not e.message.startswith("No such command"):
                raise
            names = ", ".join(self.list_commands(ctx))
            raise click.UsageError(f"{e.message.rstrip('.')}; the commands: {names}", ctx) from None

    def format_commands(self, ctx, formatter):
        """The command list from :data:`COMMANDS`, importing no command module."""
        names = self.list_commands(ctx)
        limit = formatter.width - 6 - max(map(len, names))
        stand_in = {name: click.Command(name, help=first) for name, (_, first) in COMMANDS.items()}
        rows = [(name, self.commands.get(name, stand_in.get(name)).get_short_help_str(limit))
                for name in names]
        with formatter.section("Commands"):
            formatter.write_dl(rows)

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
        except input_errors() as e:
            fail(e)
        except BrokenPipeError:  # `bidlab rules pedro | head`: stop quietly
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            sys.exit(1)
        except OSError as e:
            where = f" {e.filename}" if e.filename else (
                " to standard output" if _raised_by_echo(e) else "")
            fail(f"cannot write{where}: {e.strerror or e}")
        except (click.Abort, KeyboardInterrupt):
            click.echo("Aborted!", err=True)
            sys.exit(INTERRUPTED)
        except MemoryError:
            fail("out of memory: ask for fewer deals (or games) at once")
        sys.exit(rv if isinstance(rv, int) else 0)


def _raised_by_echo(e: BaseException) -> bool:
    """Whether ``e`` came from click.echo: a command's output to stdout (a full disk or a
    closed pipe there names no file; stderr failing could not be reported anyway)."""
    return any(frame.name == "echo" and f"{os.sep}click{os.sep}" in frame.filename
               for frame in traceback.extract_tb(e.__traceback__))


INTERRUPTED, TERMINATED = 130, 143  # the shell's statuses: 128 + SIGINT, 128 + SIGTERM
ABORT_NOTES: list[str] = []  # what a stop leaves behind to go on from (a run store's chunks)


def abort_now(status: int = INTERRUPTED, said: str = "Aborted!") -> NoReturn:
    """Ctrl-C (or SIGTERM): say so and end the process now, whatever the worker thread is
    computing, with the shell's status for the signal."""
    with contextlib.suppress(Exception):
        sys.stdout.flush()
    atomic = sys.modules.get("analyzer.atomic")  # loaded by any command that writes
    if atomic is not None:
        with contextlib.suppress(Exception):
            atomic.remove_in_flight(ending=True)  # no finally runs after os._exit
    if sys.stderr.isatty():
        sys.stderr.write("\x1b[?25h")  # the progress bar hid the cursor
    sys.stderr.write("".join(f"\n{line}" for line in (said, *ABORT_NOTES)) + "\n")
    sys.stderr.flush()
    os._exit(status)


@click.group(cls=BidlabGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="bidlab")
def main() -> None:
    """bidlab: Monte Carlo strategy analyzer for trick-taking card games.

    Games: Pedro and Cinch, Rook (Princeton rules, standard deck + joker) and
    King (the Brazilian 10-hand game). GAME is a preset (`bidlab games`) or a
    canonical variant string such as "pedro(low_to=holder,scoring=2)". Deal i
    of seed s is the same deal under every variant (of one deck), policy,
    thread count and machine.

    \b
    Examples:
      bidlab games
      bidlab rules cinch
      bidlab simulate pedro --deals 1000000 --seed 7 --out run.parquet
      bidlab deal pedro --seed 7 --index 42
      bidlab hand pedro "AS KS 5S 5C 2S 9H 3D JC 7H" --seat eldest
      bidlab bid-chart pedro --deals 200000 --out-dir pedro-chart
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
