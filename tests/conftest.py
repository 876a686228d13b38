"""Shared fixtures: the reference lives in tests/reference and is imported as a package.

Under pytest-xdist (``make test`` runs it on up to four cores) the controller compiles the numba
kernels before any worker starts, the engines side by side in subprocesses, so that the
workers load them from numba's on-disk cache instead of each compiling all of them at
collection (from a fresh clone that compilation is most of the run: about thirteen
minutes on one core here).
"""

import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

# Every engine imports the solver module, so it is compiled first, here; then the engines in
# two chains of about equal length (one core here: Rook 220 s then King 140 s; Pedro's deal
# engine 200 s then its whole-game kernel, which builds on it, 95 s).
_SHARED_KERNELS = "analyzer.games._dd"
_CHAINS = (("analyzer.games._rook_engine", "analyzer.games._king_engine"),
           ("analyzer.games._pedro_engine", "analyzer.games._pedro_games"))


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
    __import__(_SHARED_KERNELS)  # also refreshes the cache when a kernel source changed
    with ThreadPoolExecutor(max_workers=max(1, min(workers, len(_CHAINS)))) as pool:
        list(pool.map(_compile, _CHAINS))
