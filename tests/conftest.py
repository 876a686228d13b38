"""Shared fixtures: the reference lives in tests/reference and is imported as a package.

Under pytest-xdist (``make test`` runs it on up to four cores) the controller compiles the numba
kernels before any worker starts, the engines side by side in subprocesses, so that the
workers load them from numba's on-disk cache instead of each compiling all of them at
collection (from a fresh clone that compilation is most of the run: about nineteen
minutes on one core here).
"""

import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

# Two chains of about equal length, compiled side by side (one core each here, from an empty
# cache): the search (``_dd``, 70 s at import) and the kernels with it, Pedro's 276 s (the
# first to compile the searching players) and Rook's 178 s; the engines' kernels without the
# search, Pedro 138 s, its whole-game kernel 88 s, Rook 168 s, King 106 s, then King's with
# the search, 127 s, by when the first chain has cached the players it shares.
_CHAINS = (("analyzer.games._dd", "analyzer.games._pedro_search", "analyzer.games._rook_search"),
           ("analyzer.games._pedro_engine", "analyzer.games._pedro_games",
            "analyzer.games._rook_engine", "analyzer.games._king_engine",
            "analyzer.games._king_search"))


def _compile(modules: tuple[str, ...]) -> None:
    """Import ``modules`` in a subprocess, compiling their kernels, the ones compiled on first
    call (the engines' log kernels) too."""
    code = ["import importlib", "from analyzer._jit_cache import compile_first_call_kernels"]
    code += [f"compile_first_call_kernels(importlib.import_module({m!r}))" for m in modules]
    done = subprocess.run([sys.executable, "-c", "; ".join(code)], capture_output=True,
                          text=True)
    if done.returncode != 0:
        raise RuntimeError(f"compiling {', '.join(modules)} failed:\n{done.stderr}")


def pytest_configure(config):
    workers = getattr(config.option, "numprocesses", None)
    if not workers or hasattr(config, "workerinput"):  # not xdist, or a worker
        return
    if not isinstance(workers, int):  # "auto" and the like
        workers = os.cpu_count() or 1
    __import__("analyzer")  # refreshes the cache when a kernel source changed, before the chains
    with ThreadPoolExecutor(max_workers=max(1, min(workers, len(_CHAINS)))) as pool:
        list(pool.map(_compile, _CHAINS))
