"""Every example a user reads runs, as written: the package's doctests, the README's Python
and shell blocks, and the Examples section of every command's --help.

An example that cannot run here may be marked ``# doctest: +SKIP``, but then it must not
show a value (a skipped example's output goes stale unseen).
"""

from __future__ import annotations

import doctest
import importlib
import itertools
import pkgutil
import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

import analyzer
from analyzer.cli import main

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()
MODULES = sorted(m.name for m in pkgutil.walk_packages(analyzer.__path__, "analyzer.")
                 if not m.name.endswith("__main__"))
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def _doctests(name: str) -> list[doctest.DocTest]:
    return [t for t in doctest.DocTestFinder().find(importlib.import_module(name), name)
            if t.examples]


# the old module warns on import, as it should (test_evaluate checks that): here it is one
# module among all whose examples run
MOVED = pytest.mark.filterwarnings("ignore:analyzer.evaluate moved:DeprecationWarning")


@MOVED
@pytest.mark.parametrize("name", MODULES)
def test_doctests_pass(name, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # examples that write files write them here
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    for test in _doctests(name):
        runner.run(test)
    assert runner.failures == 0, f"{runner.failures} doctest failure(s) in {name}"


@MOVED
def test_skipped_examples_show_no_value():
    stale = [f"{t.name}: {ex.source.strip()} -> {ex.want.strip()}"
             for name in MODULES for t in _doctests(name) for ex in t.examples
             if ex.options.get(doctest.SKIP) and ex.want.strip()]
    assert not stale, "\n".join(stale)


def _blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", README, re.S)


def _command_lines(text: str) -> list[str]:
    """The ``bidlab ...`` commands of a block: continuations joined, comments and output
    redirections dropped."""
    out = []
    for line in text.replace("\\\n", " ").splitlines():
        line = re.sub(r"\s+#\s.*$", "", line).strip()
        line = re.sub(r"\s*>\s*\S+$", "", line)
        if line.startswith("python -m analyzer "):
            line = "bidlab " + line[len("python -m analyzer "):]
        if line.startswith("bidlab "):
            out.append(line)
    return out


README_COMMANDS = [c for block in _blocks("sh") for c in _command_lines(block)]
# every command, its module imported (``bidlab`` loads a command's module when it is asked for)
COMMANDS = {name: main.get_command(None, name) for name in main.list_commands(None)}
HELP_COMMANDS = [c for cmd in [main, *COMMANDS.values()]
                 for c in _command_lines((cmd.help or "").partition("Examples:")[2])]


def _run(command: str, tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    # the examples are written from a clone's folder, where simulations/ holds the scenarios
    args = [str(ROOT / a) if a.startswith("simulations/") else a
            for a in shlex.split(command)[1:]]
    if args[0] in ("resume", "merge"):  # their run stores: a small run each, its own seed
        folders = list(itertools.takewhile(lambda a: not a.startswith("-"), args[1:]))
        for seed, folder in enumerate(folders, 1):
            made = CliRunner().invoke(main, ["simulate", "pedro", "--deals", "20000", "--seed",
                                             str(seed), "--run-dir", folder, "--out",
                                             f"{folder}.parquet"])
            assert made.exit_code == 0, made.output
    result = CliRunner().invoke(main, args, catch_exceptions=False)
    assert result.exit_code == 0, f"{command}\n{result.output}"


def test_the_examples_are_found():
    assert len(README_COMMANDS) > 20 and len(_blocks("python")) >= 1
    for name, cmd in COMMANDS.items():
        examples = _command_lines((cmd.help or "").partition("Examples:")[2])
        assert examples, f"bidlab {name} --help has no examples"
        assert all(e.split()[1] == name for e in examples), examples


# a README command that is also a --help example runs once, as the help example
@pytest.mark.parametrize("command", [c for c in README_COMMANDS if c not in HELP_COMMANDS])
def test_readme_command_runs(command, tmp_path, monkeypatch):
    _run(command, tmp_path, monkeypatch)


@pytest.mark.parametrize("command", HELP_COMMANDS)
def test_help_example_runs(command, tmp_path, monkeypatch):
    _run(command, tmp_path, monkeypatch)


@pytest.mark.parametrize("block", _blocks("python"))
def test_readme_python_runs(block, tmp_path, monkeypatch, capsys):
    """The block runs, and a value a ``print(...)  # {...}`` line shows is what it prints
    ("..." standing for the rest, as in the README; a comment in words is not a value)."""
    monkeypatch.chdir(tmp_path)
    exec(compile(block, "README.md", "exec"), {"__name__": "readme"})
    printed = capsys.readouterr().out
    shown = re.findall(r"^print\(.*\)\s+#\s+([{\[(].*)$", block, re.M)
    for text in shown:
        parts = [p.strip(" ,") for p in text.strip("{}").split("...") if p.strip(" ,")]
        assert parts and all(p in printed for p in parts), (text, printed[:500])
    assert len(shown) >= 1


def test_readme_python_uses_only_what_import_analyzer_gives():
    """``analyzer.plotting`` after ``import analyzer``: the README's snippet once failed
    with AttributeError there."""
    for name in ("plotting", "evaluate_hand", "bid_chart", "solve"):
        assert getattr(analyzer, name) is not None
    with pytest.raises(AttributeError):
        analyzer.no_such_thing  # noqa: B018

