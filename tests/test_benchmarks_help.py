"""Every benchmark answers --help with its usage, and refuses a bad argument in one line:
the scripts are the measured figures' recipe (README), and one that crashes on --help has
rotted. bench_pedro.py and bench_rook.py read sys.argv by hand and answered --help with a
ValueError's traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = sorted((Path(__file__).resolve().parents[1] / "benchmarks").glob("*.py"))


def _run(script: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(script), *args], capture_output=True, text=True,
                          cwd=script.parent, timeout=120)


@pytest.mark.parametrize("script", BENCHMARKS, ids=lambda p: p.name)
def test_a_benchmark_answers_help(script):
    r = _run(script, "--help")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("usage:") and "Traceback" not in r.stderr


@pytest.mark.parametrize("name", ["bench_pedro.py", "bench_rook.py"])
def test_a_bad_count_is_one_line(name):
    r = _run(BENCHMARKS[0].parent / name, "many")
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "whole number of at least 1; got 'many'" in r.stderr.splitlines()[-1]
