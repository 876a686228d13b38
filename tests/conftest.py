"""Shared fixtures: the reference lives in tests/reference and is imported as a package.

Under pytest-xdist (``make test`` runs it on up to four cores) the controller compiles the numba
kernels before any worker starts, the engines side by side in subprocesses, so that the
workers load them from numba's on-disk cache instead of each compiling all of them at
collection.
"""

import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

# Two chains of about equal length, compiled side by side: the search (``search.dd``, at
# import) and the search modules' serial kernels; the engines' chunk kernels without the
# search, then Pedro's and Rook's whole-game kernels. From an empty cache here (2026-12-03),
# with Pedro's whole games in the first chain, they took 92 s and 60 s; it moved to the second.
# A "bidlab ..." entry runs that command, for the specializations it compiles on first call
# (the charts' and the solver's): the Ctrl-C tests of test_hardening time a process that must
# not be compiling when its signal comes.
_CHAINS = (("analyzer.games.search.dd", "analyzer.games.pedro.search",
            "analyzer.games.rook.search", "analyzer.games.king.search",
            "bidlab solve rook --from-deal 0 --max-nodes 2000"),
           ("analyzer.games.pedro.engine", "analyzer.games.rook.engine",
            "analyzer.games.king.engine", "analyzer.games.pedro.games",
            "analyzer.games.rook.games", "bidlab bid-chart pedro --deals 200",
            "bidlab bid-chart rook --deals 50"))


def _compile(modules: tuple[str, ...]) -> None:
    """Import ``modules`` in a subprocess, compiling their kernels, the ones compiled on first
    call (the engines' log kernels) too; run the ``bidlab`` commands among them."""
    code = ["import contextlib, importlib",
            "from analyzer._jit_cache import compile_first_call_kernels",
            "from analyzer.cli import main"]
    # a command may end in a refusal (the solve's node budget): its kernels are compiled
    code += [f"with contextlib.suppress(Exception): main({m.split()[1:]!r}, "
             "standalone_mode=False)" if m.startswith("bidlab ")
             else f"compile_first_call_kernels(importlib.import_module({m!r}))"
             for m in modules]
    done = subprocess.run([sys.executable, "-c", "\n".join(code)], capture_output=True,
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
