"""Keep numba's on-disk cache honest across edits and upgrades.

numba invalidates a cached kernel only when the file *defining* it changes, not
when a helper it calls from another module changes, so an edit to
``pedro.core.py`` would silently keep running the old compiled engine. Before
any kernel is imported we hash the sources the kernels are built from: every module that
defines one, and every module of the package those import (their constants, such as
``cards.DECK_52`` or the rule vectors' indices, are frozen into the compiled code). When
that hash differs from the one recorded beside the cache, the package's cached kernels
are deleted and recompile from the current sources. An edit anywhere else (the CLI, the
views, a game's public module, a docstring there) keeps them.

A compilation (the first use of a kernel after installing, or after such an edit) takes
10-40 s with nothing to show for it, so the first one in a process says so in one line on
stderr (:func:`announce_compiling`, hooked to numba's compile event: a kernel loaded from
the cache says nothing).

May import: the standard library only: it runs before any kernel is imported (numba's event
module once numba is loaded, in :func:`announce_compiling`).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import re
import sys
import threading
from pathlib import Path
from typing import TextIO

_PACKAGE = Path(__file__).resolve().parent
COMPILING_NOTICE = ("bidlab: compiling numba kernels on their first use (10-40 s; cached "
                    "afterwards)")


_DEFINES_KERNELS = re.compile(rb"^[ \t]*@(?:njit|njit_on_first_call)\b", re.M)
_RELATIVE_IMPORT = re.compile(
    rb"^[ \t]*from[ \t]+(\.+)([\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n]*)", re.M)


def _imported(path: Path, text: bytes) -> set[Path]:
    """The package's source files that ``path`` imports relatively (a regular expression,
    not a parse: this runs before every command, and parsing the package takes 0.15 s)."""
    out = set()
    for dots, module, names in _RELATIVE_IMPORT.findall(text):
        base = path.parent
        for _ in range(len(dots) - 1):
            base = base.parent
        target = base.joinpath(*module.decode().split(".")) if module else base
        if target.with_suffix(".py").is_file():
            out.add(target.with_suffix(".py"))
            continue
        if (target / "__init__.py").is_file():
            out.add(target / "__init__.py")
        for name in re.findall(rb"\w+", names):  # ``from .games import _pedro_engine``
            if (target / f"{name.decode()}.py").is_file():
                out.add(target / f"{name.decode()}.py")
    return out


def kernel_sources(package: Path = _PACKAGE) -> list[Path]:
    """The files the kernels are built from: the modules that define them (``@njit``) and
    the modules those import (a constant is frozen where a kernel module imports it from;
    a plain module's own imports, such as the rules modules' parsing, are not followed)."""
    texts = {p: p.read_bytes() for p in package.rglob("*.py")}
    roots = [p for p, t in texts.items() if _DEFINES_KERNELS.search(t)]
    return sorted({*roots, *(q for p in roots for q in _imported(p, texts[p]) if q in texts)})


def sources_digest(package: Path = _PACKAGE) -> str:
    h = hashlib.sha256()
    for path in kernel_sources(package):
        h.update(str(path.relative_to(package)).encode())
        h.update(path.read_bytes())
    return h.hexdigest()


@functools.cache
def build_digest() -> str:
    """This installed package's :func:`sources_digest`, computed once a process: the build of
    the players, which a run store records so that no run is finished by other players than
    the ones that began it."""
    return sources_digest(_PACKAGE)


def ensure_fresh_cache(package: Path = _PACKAGE) -> bool:
    """Drop ``package``'s cached kernels when its kernel sources changed since they were
    cached. True when it dropped them."""
    stamp = package / "__pycache__" / "jit-sources.sha256"
    digest = build_digest() if package == _PACKAGE else sources_digest(package)
    try:
        if stamp.read_text() == digest:
            return False
    except OSError:
        pass
    try:
        for pattern in ("*.nbi", "*.nbc"):
            for f in package.rglob(pattern):
                f.unlink(missing_ok=True)
        stamp.parent.mkdir(exist_ok=True)
        tmp = stamp.with_suffix(".tmp")
        tmp.write_text(digest)
        tmp.replace(stamp)
    except OSError:  # read-only install: numba then caches elsewhere, per file
        return False
    return True


_ANNOUNCED = threading.Lock()  # taken by the first compilation, never given back


def announce_compiling(notice: TextIO | None = None) -> None:
    """Print :data:`COMPILING_NOTICE` on ``notice`` (stderr by default) when numba first
    compiles a kernel in this process; loading one from the cache is not a compilation and
    says nothing. Called once, by :mod:`analyzer.bits`, which every kernel module imports."""
    from numba.core import event

    class FirstCompilation(event.Listener):
        def on_start(self, ev):
            if _ANNOUNCED.acquire(blocking=False):  # threads compiling at once: one line
                print(COMPILING_NOTICE, file=notice or sys.stderr, flush=True)

        def on_end(self, ev):
            pass

    event.register("numba:compile", FirstCompilation())


# one first-call compilation at a time in a process (numba's own lock covers a compilation,
# not the check that a kernel still needs one)
_THREADS_COMPILING = threading.RLock()


class FirstCallKernel:
    """A kernel with an explicit signature, compiled (or loaded from the cache) on its first
    call instead of at import, so a command that never calls it never waits for it: every
    engine's log kernel inlines the whole deal engine again, about 40 s of a first
    ``make simulate`` here, which never logs a trick."""

    def __init__(self, fn, signature, options):
        self.py_func = fn
        self.signature = signature
        self.options = options
        self._dispatcher = None
        functools.update_wrapper(self, fn)

    def compile(self):
        """The numba dispatcher, compiled now (or loaded from the cache) if it is not yet.

        Two processes on one machine never both compile it: the first to get here takes a
        lock file beside the source's cache, compiles and writes the cache; the others wait
        on the lock, then load what it wrote (a cluster's workers starting together, the
        test suite's workers). Threads of one process that call it at once (a chunk each)
        wait for one compilation, under a lock of the process."""
        if self._dispatcher is not None:
            return self._dispatcher
        with _THREADS_COMPILING:
            if self._dispatcher is None:
                self._dispatcher = self._compile()
        return self._dispatcher

    def _compile(self):
        import warnings

        from numba import njit
        from numba.core.errors import NumbaPerformanceWarning

        with _compile_lock(self.py_func), warnings.catch_warnings():
            # a serial kernel compiled with parallel=True on purpose (King's chunk kernels):
            # numba's parallel pipeline makes it faster without a loop to spread, and says so
            warnings.filterwarnings("ignore", category=NumbaPerformanceWarning,
                                    message=".*no transformation for parallel execution")
            return njit(self.signature, cache=True, **self.options)(self.py_func)

    @property
    def compiled_now(self) -> bool:
        """Whether this process compiled the kernel rather than loading it from the cache."""
        stats = self._dispatcher.stats if self._dispatcher is not None else None
        return bool(stats and sum(stats.cache_misses.values()))

    def __call__(self, *args):
        return self.compile()(*args)


@contextlib.contextmanager
def _compile_lock(fn):
    """An exclusive lock on ``<source folder>/__pycache__/<module>.<function>.lock`` while
    ``fn`` compiles (POSIX ``flock``; elsewhere, or where the folder is read-only, no lock:
    two processes may then both compile, as numba alone would)."""
    try:
        import fcntl
    except ImportError:  # not POSIX
        yield
        return
    folder = Path(fn.__code__.co_filename).parent / "__pycache__"
    try:
        folder.mkdir(exist_ok=True)
        handle = open(folder / f"{fn.__module__.rpartition('.')[2]}.{fn.__name__}.lock", "a")
    except OSError:
        yield
        return
    with handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def njit_on_first_call(signature, **options):
    """``njit(signature, cache=True, **options)``, compiled on the first call (see
    :class:`FirstCallKernel`)."""
    return lambda fn: FirstCallKernel(fn, signature, options)


def compile_first_call_kernels(module) -> None:
    """Compile every first-call kernel of ``module`` now (the test warm-up does, so that
    parallel workers find them in the cache)."""
    for value in vars(module).values():
        if isinstance(value, FirstCallKernel):
            value.compile()
