"""``bidlab warmup``: the kernels of the games asked for, compiled or loaded, each timed."""

from cli_helpers import assert_bad_input, run

from analyzer.warmup import modules_of, warm


def test_modules_follow_the_games_and_the_search_flag():
    assert modules_of(["pedro", "cinch"], search=False) == [
        "analyzer.games.pedro.engine", "analyzer.games.pedro.games"]
    assert modules_of(["rook"], search=True) == [
        "analyzer.games.rook.engine", "analyzer.games.rook.games", "analyzer.games.rook.search"]


def test_warmup_compiles_or_loads_each_kernel_and_times_it():
    rows = warm(["rook"])  # compiled here, or loaded from the cache
    assert [r.module for r in rows] == ["analyzer.games.rook.engine", "analyzer.games.rook.games"]
    for row in rows:
        assert row.kernels == 1 and row.compiled in (0, 1) and row.seconds > 0
    again = warm(["rook"])  # now in this process: nothing to compile
    assert [row.compiled for row in again] == [0, 0]


def test_the_command_reports_each_module_and_the_total():
    result = run("warmup", "rook")
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("rook.engine") and " s  " in lines[0]
    assert lines[-1].startswith("in all")


def test_a_bad_game_is_one_line():
    assert_bad_input(run("warmup", "spades"), "spades")
