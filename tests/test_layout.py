"""The layout keeps its promises (docs/architecture.md): generic code never names a game,
the shared kernels and the search import no game, no game imports another, the imports
form no cycle, and every module says what it may import.

The imports are read from the sources (``ast``), relative and absolute alike, so a test
fails the moment someone adds a forbidden one.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import analyzer
from analyzer.games import FAMILIES

ROOT = Path(analyzer.__file__).parent
GAMES = sorted(set(FAMILIES.values()))
MODULES = sorted(p for p in ROOT.rglob("*.py") if "__pycache__" not in p.parts)


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(path: Path) -> set[str]:
    """The analyzer modules ``path`` imports (at any depth of its code), as dotted names;
    ``from . import x`` gives ``package.x``."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names if a.name.startswith("analyzer")}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.startswith("analyzer"):
                out.add(target)
                out |= {f"{target}.{a.name}" for a in node.names}
    return out


def game_of(name: str) -> str | None:
    """The game package a dotted module name lies in, if any."""
    m = re.match(r"analyzer\.games\.(\w+)", name)
    return m.group(1) if m and m.group(1) in GAMES else None


IMPORTS = {module_name(p): imported(p) for p in MODULES}


def test_generic_modules_never_test_a_game_name():
    pattern = re.compile(r'game == "(pedro|cinch|rook|king)"')
    offenders = [str(p.relative_to(ROOT)) for p in MODULES
                 if game_of(module_name(p)) is None and pattern.search(p.read_text())]
    assert offenders == []


@pytest.mark.parametrize("module", sorted(IMPORTS))
def test_imports_respect_the_layers(module):
    """Outside a game's package, only the registry and the deprecated shim import a game;
    inside one, nothing of another game; the shared kernels and the search, no game."""
    mine = game_of(module)
    games_imported = {g for name in IMPORTS[module] if (g := game_of(name))} - {mine}
    allowed = {"analyzer.games", "analyzer.evaluate"}  # registry; Pedro's deprecated alias
    if mine is None and module not in allowed:
        assert games_imported == set(), f"{module} imports {games_imported}"
    if mine is not None:
        assert games_imported == set(), f"{module} imports another game: {games_imported}"


def test_shared_kernels_and_search_import_no_game_and_shared_not_search():
    for module, names in IMPORTS.items():
        if module.startswith(("analyzer.games.kit", "analyzer.games.search")):
            assert not {game_of(n) for n in names} - {None}, module
        if module.startswith("analyzer.games.kit"):
            assert not any(n.startswith("analyzer.games.search") for n in names), module


def test_the_import_graph_has_no_cycle():
    known = set(IMPORTS)
    graph = {m: {n for n in names if n in known and n != m} for m, names in IMPORTS.items()}
    # a package's __init__ importing its own submodules is how a package is built: leave
    # those edges out (a submodule importing its package's face is the other direction)
    for m in graph:
        graph[m] = {n for n in graph[m] if not n.startswith(m + ".")}
    state: dict[str, int] = {}

    def visit(m, path):
        state[m] = 1
        for n in graph[m]:
            if state.get(n) == 1:
                pytest.fail("import cycle: " + " -> ".join([*path, m, n]))
            if n not in state:
                visit(n, [*path, m])
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m, [])


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_module_says_what_it_holds_and_may_import(path):
    doc = ast.get_docstring(ast.parse(path.read_text())) or ""
    assert doc.strip(), "no opening docstring"
    assert "May import" in doc, "the docstring does not say what the module may import"


def test_modules_stay_small():
    sizes = {str(p.relative_to(ROOT)): len(p.read_text().splitlines()) for p in MODULES}
    assert {name: n for name, n in sizes.items() if n > 600} == {}
