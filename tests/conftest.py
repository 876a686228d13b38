"""Shared fixtures: the reference lives in tests/reference and is imported as a package.

Under pytest-xdist (``make test`` runs ``pytest -n 2``) the controller compiles the numba
kernels before any worker starts, the engines side by side in subprocesses, so that the
workers load them from numba's on-disk cache instead of each compiling all of them at
collection (from a fresh clone that compilation is most of the run: about eleven minutes
on one core here).
"""

import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

# Every engine imports the solver module, so it is compiled first, here; then the engines,
# the slowest first (their compile times on one core: about 220, 300 and 140 s).
_SHARED_KERNELS = "analyzer.games._dd"
_ENGINES = ("analyzer.games._rook_engine", "analyzer.games._pedro_engine",
            "analyzer.games._king_engine")


def _compile(module: str) -> None:
    done = subprocess.run([sys.executable, "-c", f"import {module}"], capture_output=True,
                          text=True)
    if done.returncode != 0:
        raise RuntimeError(f"compiling {module} failed:\n{done.stderr}")


def pytest_configure(config):
    workers = getattr(config.option, "numprocesses", None)
    if not workers or hasattr(config, "workerinput"):  # not xdist, or a worker
        return
    if not isinstance(workers, int):  # "auto" and the like
        workers = os.cpu_count() or 1
    __import__(_SHARED_KERNELS)  # also refreshes the cache when a kernel source changed
    with ThreadPoolExecutor(max_workers=max(1, min(workers, len(_ENGINES)))) as pool:
        list(pool.map(_compile, _ENGINES))
