"""Compile every kernel a game's commands may need, ahead of time, and say how long it took.

A fresh install, or each worker of a cluster, compiles the kernels once (minutes on a small
machine) and loads them from numba's on-disk cache afterwards (well under a second a
kernel). ``bidlab warmup`` does that first compile at a moment of the user's choosing.
Two processes that warm up at once do not both compile a kernel: the second waits for the
first and loads what it wrote (:mod:`analyzer._jit_cache`).

What invalidates the cache: an edit to a module that defines a kernel or to a module
those import (bidlab drops the cached kernels and recompiles), another numba or Python
version, or another CPU model (numba keys its cache by them).

May import: the games' registry and :mod:`._jit_cache`; never a game by name.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from importlib import import_module

from ._jit_cache import FirstCallKernel
from .games import game


@dataclass(frozen=True)
class Warmed:
    module: str  # the kernel module, e.g. analyzer.games.pedro.engine
    kernels: int  # first-call kernels in it
    compiled: int  # of those, compiled by this call (the rest came from the cache or were
    # already loaded)
    seconds: float  # importing the module (its import-time kernels too) and the kernels


def modules_of(presets, search: bool) -> list[str]:
    """The kernel modules of the games of ``presets``, each once, in order."""
    out: list[str] = []
    for preset in presets:
        g = game(preset)
        names = g.kernel_modules + (g.search_modules if search else ())
        out += [f"analyzer.games.{g.name}.{m}" for m in names]
    return list(dict.fromkeys(out))


def warm_module(name: str) -> Warmed:
    """Import ``name`` and compile (or load) each of its first-call kernels."""
    t0 = time.perf_counter()
    module = import_module(name)
    kernels = [v for v in vars(module).values() if isinstance(v, FirstCallKernel)]
    compiled = 0
    for k in kernels:
        fresh = k._dispatcher is None  # not yet compiled or loaded by this process
        k.compile()
        compiled += fresh and k.compiled_now
    return Warmed(name, len(kernels), compiled, time.perf_counter() - t0)


def warm(presets, search: bool = False,
         progress: Callable[[Warmed], None] | None = None) -> list[Warmed]:
    """Warm the kernels of ``presets`` (and of their searching seats with ``search``)."""
    rows = []
    for name in modules_of(presets, search):
        rows.append(warm_module(name))
        if progress:
            progress(rows[-1])
    return rows
