"""The ``bidlab`` command group and its one way of failing.

Input is checked by click parameter types before any work starts (:mod:`.options`).
Whatever is still wrong surfaces as one line on stderr, ``bidlab: error: <problem and the
allowed values>``, with exit status 2: :class:`BidlabGroup` is the single place that turns
click's usage errors and bidlab's own input errors into that line, so commands never catch
errors.

May import: click and the package's foundations (errors of parsing, rules, games, io,
limits, solver); never a command module.
"""

from __future__ import annotations

import contextlib
import os
import re
import sys
import threading
from typing import NoReturn

import click

from .. import __version__, io
from ..cards import CardParseError
from ..games import common
from ..games.protocol import NotOffered
from ..limits import SizeError
from ..parsing import QUOTE_LIMIT, NumberError
from ..rollout import HandError
from ..solver import PositionError, SolveBudgetError
from ..variants import RuleError

INPUT_ERRORS = (RuleError, common.PolicyError, common.ScenarioError, CardParseError, HandError,
                io.TableFormatError, PositionError, SolveBudgetError, NumberError, SizeError,
                NotOffered)


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
