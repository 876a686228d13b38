"""The kernel cache is dropped when, and only when, a kernel source changes (on a copy of a
package, never the real cache); a compilation, and only a compilation, is announced;
kernels marked to compile on first call do so, and not at import."""

import importlib.util
import subprocess
import sys

from analyzer._jit_cache import (
    COMPILING_NOTICE,
    compile_first_call_kernels,
    ensure_fresh_cache,
    kernel_sources,
)


def _package(tmp_path):
    pkg = tmp_path / "pkg"
    (pkg / "__pycache__").mkdir(parents=True)
    (pkg / "kernels.py").write_text("from numba import njit\n\n@njit\ndef f():\n    pass\n")
    (pkg / "plain.py").write_text("X = 1\n")
    return pkg


def _cached(pkg):
    for name in ("kernels.f-1.py311.nbi", "kernels.f-1.py311.1.nbc"):
        (pkg / "__pycache__" / name).write_text("compiled")


def _run(pkg):
    dropped = ensure_fresh_cache(pkg)
    return dropped, sorted(f.name for f in (pkg / "__pycache__").glob("*.nb?"))


def test_a_first_use_makes_the_stamp_and_a_matching_cache_is_kept(tmp_path):
    pkg = _package(tmp_path)
    assert _run(pkg)[0] is True
    _cached(pkg)
    dropped, left = _run(pkg)
    assert dropped is False
    assert len(left) == 2


def test_a_kernel_source_edit_drops_the_cache(tmp_path):
    pkg = _package(tmp_path)
    _run(pkg)
    _cached(pkg)
    (pkg / "kernels.py").write_text("from numba import njit\n\n@njit\ndef f():\n    return 1\n")
    assert _run(pkg) == (True, [])


def test_an_edit_outside_the_kernels_keeps_the_cache(tmp_path):
    pkg = _package(tmp_path)
    _run(pkg)
    _cached(pkg)
    (pkg / "plain.py").write_text("X = 2  # numba is only named here, not imported\n")
    dropped, left = _run(pkg)
    assert (dropped, len(left)) == (False, 2)


def test_a_compilation_is_announced_once_and_a_cached_kernel_is_not(tmp_path):
    """The notice was printed only when the cache was dropped (the first command after
    installing): a first `bidlab solve` later compiled for 20 s with nothing on stderr. It
    now follows numba's compile event: one line at the first compilation of a process,
    however many kernels it compiles, and none where they all load from the cache."""
    (tmp_path / "kernels.py").write_text(
        "from numba import njit\n\n@njit(cache=True)\ndef f(x):\n    return x + 1\n\n"
        "@njit(cache=True)\ndef g(x):\n    return f(x) * 2\n")
    script = "import analyzer.bits, kernels; print(kernels.g(1), kernels.f(2.5))"

    def stderr() -> str:
        done = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, text=True,
                              capture_output=True, check=True)
        assert done.stdout == "4 3.5\n"
        return done.stderr

    assert stderr() == COMPILING_NOTICE + "\n"
    assert stderr() == ""


def test_an_edit_to_what_a_kernel_imports_drops_the_cache(tmp_path):
    """A constant a kernel imports is frozen into the compiled code: its module counts,
    through packages and function-level imports alike; what a plain module imports does
    not."""
    pkg = _package(tmp_path)
    (pkg / "sub").mkdir()
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "sub" / "consts.py").write_text("from ..helper import H\nN = 1\n")
    (pkg / "helper.py").write_text("H = 1\n")
    (pkg / "kernels.py").write_text("from numba import njit\nfrom .sub import consts\n"
                                    "@njit\ndef f():\n    from .plain import X\n")
    assert {p.name for p in kernel_sources(pkg)} == {"kernels.py", "__init__.py", "consts.py",
                                                     "plain.py"}
    _run(pkg)
    _cached(pkg)
    (pkg / "sub" / "consts.py").write_text("N = 2\n")
    assert _run(pkg) == (True, [])


def test_the_real_package_hashes_its_kernels_and_their_imports_only():
    from pathlib import Path

    import analyzer

    root = Path(analyzer.__file__).parent
    names = {str(p.relative_to(root)) for p in kernel_sources(root)}
    assert {"games/pedro/engine.py", "cards.py", "games/pedro/rules.py", "rng.py"} <= names
    assert not names & {"cli/__init__.py", "cli/play.py", "games/pedro/__init__.py",
                        "games/pedro/deals.py", "games/king/deals.py",
                        "bidchart.py", "hand_view.py", "bench.py", "games/common.py"}


_FIRST_CALL_MODULE = """
from numba import types
from analyzer._jit_cache import njit_on_first_call

@njit_on_first_call(types.int64(types.int64))
def plus_one(x):
    return x + 1
"""


def _load(tmp_path, name):
    """The module above, written to tmp_path (so numba caches it there) and imported."""
    path = tmp_path / f"{name}.py"
    path.write_text(_FIRST_CALL_MODULE)
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_first_call_kernel_compiles_on_its_first_call_not_at_import(tmp_path):
    module = _load(tmp_path, "first_call_a")
    kernel = module.plus_one
    assert kernel._dispatcher is None and kernel.__name__ == "plus_one"
    assert kernel(41) == 42
    assert [str(s) for s in kernel.compile().signatures] == ["(int64,)"]


def test_the_warm_up_compiles_every_first_call_kernel_of_a_module(tmp_path):
    module = _load(tmp_path, "first_call_b")
    compile_first_call_kernels(module)
    assert module.plus_one._dispatcher is not None
    assert module.plus_one._dispatcher.signatures  # compiled, not only wrapped


_COMPILE_ONE = """
import importlib, os, sys
sys.path.insert(0, os.path.dirname(sys.argv[1]))  # importable by name: the cache needs it
module = importlib.import_module("first_call_race")
module.plus_one.compile()
print(module.plus_one.compiled_now)
"""


def test_two_processes_never_both_compile_a_kernel(tmp_path):
    """Both wait on the kernel's lock (held here); once it is free, one compiles and writes
    the cache, and the other loads it."""
    import fcntl
    import subprocess
    import sys

    path = tmp_path / "first_call_race.py"
    path.write_text(_FIRST_CALL_MODULE)
    (tmp_path / "__pycache__").mkdir()
    with open(tmp_path / "__pycache__" / "first_call_race.plus_one.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        procs = [subprocess.Popen([sys.executable, "-c", _COMPILE_ONE, str(path)],
                                  stdout=subprocess.PIPE, text=True) for _ in range(2)]
        import time

        time.sleep(3)  # both are started and waiting on the lock
        assert all(p.poll() is None for p in procs), "a process compiled without the lock"
        fcntl.flock(lock, fcntl.LOCK_UN)
    outs = sorted(p.communicate(timeout=120)[0].strip() for p in procs)
    assert outs == ["False", "True"]
