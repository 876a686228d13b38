"""The ``bidlab`` command (and ``python -m analyzer``): checks what must hold before numba
loads, then imports the command line, so that Ctrl-C during those seconds of imports says
``Aborted!`` instead of a traceback.

May import: :mod:`.cli`, imported late so that Ctrl-C is caught during the imports.
"""

from __future__ import annotations

import os
import re
import sys


def environment_problem() -> str | None:
    """What in the environment would make numba fail at import, said in one line."""
    threads = os.environ.get("NUMBA_NUM_THREADS")
    if threads is not None and not (threads.isascii() and threads.isdigit()
                                    and 1 <= int(threads) <= 4096):
        return (f"NUMBA_NUM_THREADS={threads[:40]!r}: give a whole number of threads from 1 "
                f"to 4096, or unset it (all cores)")
    others = sorted(k for k in os.environ if k.startswith("NUMBA_") and k != "NUMBA_NUM_THREADS")
    if others:  # rare: worth loading numba early to read them (--help included)
        import warnings

        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            import numba
        # a value numba cannot parse was a warning with a traceback in it, then ignored
        for w in caught:
            bad = re.match(r"Environment variable '(\w+)' is defined but its associated "
                           r"value '(.*)' could not be parsed", str(w.message), re.S)
            if bad:
                return (f"{bad[1]}={bad[2][:40]!r}: numba cannot read this value and would "
                        f"ignore it; give one numba documents for {bad[1]} (a flag takes 0 "
                        "or 1), or unset it")
    layer = os.environ.get("NUMBA_THREADING_LAYER")
    if layer is not None:
        import numba

        try:
            numba.get_num_threads()  # starts the threading layer
        except ValueError as e:
            reason = str(e).strip().splitlines()[0]
            return (f"NUMBA_THREADING_LAYER={layer[:40]!r}: {reason[:120]} Give one that "
                    "this installation has (workqueue always is), or unset it")
    return None


def main(prog_name: str | None = None) -> None:
    try:
        problem = environment_problem()
        if problem:
            sys.stderr.write(f"bidlab: error: {problem}\n")
            sys.exit(2)
        from .cli import main as cli

        # click's own start, up to the command line's handler (cli.group), is caught here too:
        # a Ctrl-C 0.1 s in once landed there and printed a traceback
        cli(prog_name=prog_name or "bidlab")
    except KeyboardInterrupt:
        sys.stderr.write("\nAborted!\n")
        sys.exit(130)  # the shell's status for Ctrl-C, as the command line's (cli.group)
