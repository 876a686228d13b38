"""Compile time of every kernel entry point, each in a fresh process with an empty cache.

    python benchmarks/compile_times.py [--top N] [ENTRY ...]

An entry point is a kernel a command calls first: each game's chunk (or batch) kernel, its
logged kernel, its whole-game kernel, and the kernels with the search behind ``dd`` and
``pimc`` seats. Each is compiled in a process of its own whose numba cache is a new empty
folder (``NUMBA_CACHE_DIR``), so nothing is loaded from disk and nothing compiled by one
entry helps another. numba's compiler events (``numba.core.event``) attribute the time to
functions: for each function, how many times it was compiled (type specialisations and
repeats), the time inside its compilations (inclusive of the functions it compiled on
the way) and the time of its own (without them). The size after inlining is the length of
the entry's optimised LLVM IR, in lines.

The figures vary with the machine's load; compare entries measured in the same run.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

# (label, module, kernel attribute or None for the module's import-time kernels)
ENTRIES = (
    ("pedro chunk (plain + logged)", "analyzer.games.pedro.engine", "chunk_kernel"),
    ("pedro whole games", "analyzer.games.pedro.games", "games_chunk"),
    ("rook chunk (plain + logged)", "analyzer.games.rook.engine", "chunk_kernel"),
    ("rook whole games", "analyzer.games.rook.games", "games_chunk"),
    ("king hands (one contract, no log)", "analyzer.games.king.engine", "hands_chunk"),
    ("king chunk (plain + logged)", "analyzer.games.king.engine", "chunk_kernel"),
    ("king games", "analyzer.games.king.engine", "games_chunk"),
    ("search (dd, at import)", "analyzer.games.search.dd", None),
    ("pedro chunk with search", "analyzer.games.pedro.search", "deals_chunk"),
    ("pedro games with search", "analyzer.games.pedro.search", "games_chunk"),
    ("rook chunk with search", "analyzer.games.rook.search", "hands_chunk"),
    ("rook games with search", "analyzer.games.rook.search", "games_chunk"),
    ("king hands with search", "analyzer.games.king.search", "hands_chunk"),
    ("king games with search", "analyzer.games.king.search", "games_chunk"),
)

_CHILD = r"""
import importlib, json, sys, time
from numba.core import event

module, attr = sys.argv[1], (sys.argv[2] or None)
starts, rows, stack = {}, {}, []
class Recorder(event.Listener):
    def on_start(self, ev):
        stack.append([ev.data["dispatcher"].py_func, time.perf_counter(), 0.0])
    def on_end(self, ev):
        fn, t0, inner = stack.pop()
        took = time.perf_counter() - t0
        if stack:
            stack[-1][2] += took
        name = f"{fn.__module__}.{fn.__qualname__}"
        row = rows.setdefault(name, [0, 0.0, 0.0])
        row[0] += 1; row[1] += took; row[2] += took - inner

t0 = time.perf_counter()
with event.install_listener("numba:compile", Recorder()):
    mod = importlib.import_module(module)
    kernel = getattr(mod, attr) if attr else None
    disp = kernel.compile() if hasattr(kernel, "compile") else kernel
    if disp is not None and not getattr(disp, "signatures", None):
        raise SystemExit(f"{module}.{attr} has no explicit signature to compile")
total = time.perf_counter() - t0
ir_lines = 0
if disp is not None:
    ir_lines = sum(len(ir.splitlines()) for ir in disp.inspect_llvm().values())
print(json.dumps({"total": total, "ir_lines": ir_lines, "functions": rows}))
"""


def measure(module: str, attr: str | None) -> dict:
    """One entry compiled in a fresh process with an empty numba cache."""
    with tempfile.TemporaryDirectory(prefix="bidlab-compile-") as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        t0 = time.perf_counter()
        done = subprocess.run([sys.executable, "-c", _CHILD, module, attr or ""], env=env,
                              capture_output=True, text=True)
        wall = time.perf_counter() - t0
    if done.returncode != 0:
        raise SystemExit(f"{module}.{attr}: {done.stderr.strip().splitlines()[-1]}")
    out = json.loads(done.stdout.strip().splitlines()[-1])
    out["wall"] = wall
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("entries", nargs="*", help="labels (or parts of them) to measure")
    parser.add_argument("--top", type=int, default=5, help="functions shown per entry")
    parser.add_argument("--json", dest="as_json", action="store_true")
    args = parser.parse_args()
    chosen = [e for e in ENTRIES if not args.entries or any(w in e[0] for w in args.entries)]
    results = []
    for label, module, attr in chosen:
        r = measure(module, attr)
        results.append({"entry": label, **r})
        if args.as_json:
            continue
        fns = sorted(r["functions"].items(), key=lambda kv: -kv[1][2])
        print(f"{label:28} {r['total']:6.1f} s compiling ({r['wall']:5.1f} s process), "
              f"{len(fns)} functions, {sum(v[0] for _, v in fns)} compilations, "
              f"IR {r['ir_lines']:,} lines", flush=True)
        for name, (count, incl, own) in fns[:args.top]:
            short = name.replace("analyzer.games.", "")
            print(f"    {short:48} x{count:<3} own {own:6.1f} s   inclusive {incl:6.1f} s")
    if args.as_json:
        print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
