"""Each engine has kernels without the card search and the same kernels with it.

A seat that does not search must play the same deal either way: which kernel plays a
run is chosen from its policies (``common.kernels``), and a deal must not depend on that
choice. And a run whose seats never search must not import the search at all, which is
the point of the split (the search compiles for a minute or two).
"""

import importlib
import subprocess
import sys

import numpy as np
import pytest

from analyzer.games import common, king, parse_game, pedro, rook
from analyzer.games.common import parse_policies

SEED = 424242
POLICIES = ("heuristic", "random,heuristic,random,heuristic")


def _with_search_kernels(monkeypatch, fam):
    """Make ``fam`` run its search module's kernels whatever the policies."""
    monkeypatch.setattr(fam, "kernels",
                        lambda pols, engine: importlib.import_module(
                            engine.SEARCH_KERNELS, engine.__package__))


@pytest.mark.parametrize("engine, search", [
    ("pedro.engine", "pedro.search"), ("pedro.games", "pedro.search"),
    ("rook.engine", "rook.search"), ("king.engine", "king.search")])
def test_kernels_chooses_the_search_module_only_for_searching_seats(engine, search):
    engine = importlib.import_module(f"analyzer.games.{engine}")
    assert common.kernels(parse_policies("heuristic"), engine) is engine
    chosen = common.kernels(parse_policies("heuristic,dd,heuristic,heuristic"), engine)
    assert chosen.__name__ == f"analyzer.games.{search}"


@pytest.mark.parametrize("fam, game", [(pedro, "cinch"), (rook, "rook"), (king, "king")])
@pytest.mark.parametrize("policy", POLICIES)
def test_the_search_kernels_play_non_searching_seats_alike(monkeypatch, fam, game, policy):
    rules = parse_game(game)
    pols = parse_policies(policy)
    plain = fam.run_batch(rules, 0, 600, SEED, pols, chunk=64)
    logged = fam.play_logged(rules, SEED, [3, 77, 500], pols)
    _with_search_kernels(monkeypatch, fam)
    searched = fam.run_batch(rules, 0, 600, SEED, pols, chunk=64)
    for a, b in zip(plain, searched, strict=True):
        np.testing.assert_array_equal(a, b)
    assert fam.play_logged(rules, SEED, [3, 77, 500], pols) == logged


def test_whole_games_alike(monkeypatch):
    pols = parse_policies("heuristic")
    pedro_games = pedro.simulate_games(parse_game("pedro"), 40, SEED, pols)
    king_games = king.run_games(parse_game("king"), 0, 8, SEED, pols)[0]
    _with_search_kernels(monkeypatch, pedro)
    _with_search_kernels(monkeypatch, king)
    assert pedro.simulate_games(parse_game("pedro"), 40, SEED, pols).equals(pedro_games)
    np.testing.assert_array_equal(king.run_games(parse_game("king"), 0, 8, SEED, pols)[0],
                                  king_games)


SEARCH_MODULES = tuple(f"analyzer.games.{m}" for m in (
    "search.dd", "search.pimc", "pedro.search", "rook.search", "king.search"))


def _search_modules_loaded_after(code: str) -> tuple[str, list[str]]:
    """Run ``code`` in a fresh interpreter: (what it printed, the search modules it loaded)."""
    code += ("\nimport sys\nprint(','.join(sorted(m for m in sys.modules\n"
             f"                     if m in {SEARCH_MODULES!r})))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    *printed, loaded = done.stdout.split("\n")[:-1]  # each print ends its line
    return "\n".join(printed), [m for m in loaded.split(",") if m]


def test_a_heuristic_run_and_the_help_never_import_the_search():
    assert _search_modules_loaded_after("import analyzer.games.pedro.search")[1] == [
        "analyzer.games.pedro.search", "analyzer.games.search.dd",
        "analyzer.games.search.pimc"]  # the check sees them when they are there
    _, loaded = _search_modules_loaded_after(
        "from analyzer import cli\n"
        "from analyzer.games import king, parse_game, pedro, rook\n"
        "pedro.simulate(parse_game('pedro'), 200, 1, 'heuristic')\n"
        "rook.simulate(parse_game('rook'), 200, 1, 'random')\n"
        "king.simulate(parse_game('king'), 20, 1, 'heuristic')\n"
    )
    assert loaded == []


def test_an_illegal_card_in_a_position_is_refused_without_the_search():
    """The solver checks the trick's cards before it imports the search, so that its error
    line does not wait a minute for the search to compile."""
    printed, loaded = _search_modules_loaded_after(
        "from analyzer import solve\n"
        "from analyzer.solver import PositionError\n"
        "try:\n"
        "    solve('king', 'AS KD/KS/5H/QH QC', leader='E', played='2H 3C',\n"
        "          contract='no-tricks')\n"
        "except PositionError as e:\n"
        "    print(e)\n"
    )
    assert "could not play 3C" in printed
    assert loaded == []
