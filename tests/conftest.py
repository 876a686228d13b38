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

# Two chains of about equal length, compiled side by side (seconds on one core each here, from
# an empty cache, both running): the search (``search.dd``, 82 s at import) and the search
# modules' serial kernels, Pedro's 178 s (the first to compile the searching players),
# Rook's 107 s and King's, then Pedro's whole-game kernel, 106 s; the engines' parallel
# kernels without the search, Pedro 176 s, Rook 238 s, King 158 s.
_CHAINS = (("analyzer.games.search.dd", "analyzer.games.pedro.search",
            "analyzer.games.rook.search", "analyzer.games.king.search",
            "analyzer.games.pedro.games"),
           ("analyzer.games.pedro.engine", "analyzer.games.rook.engine",
            "analyzer.games.king.engine"))


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
