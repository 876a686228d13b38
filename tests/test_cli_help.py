"""`bidlab --help` lists the commands without importing them (issue 33: under a second, not
the second and a half that loading numba and pandas takes), and the list says what the
commands themselves say."""

import importlib
import subprocess
import sys

import pytest
from cli_helpers import assert_bad_input, run

from analyzer.cli import group


def test_the_listing_is_each_commands_own_first_sentence():
    for module in {m for m, _ in group.COMMANDS.values()}:
        importlib.import_module(f"analyzer.cli.{module}")
    registered = group.main.commands
    assert set(registered) == set(group.COMMANDS)
    for name, (module, first) in group.COMMANDS.items():
        command = registered[name]
        assert command.callback.__module__ == f"analyzer.cli.{module}", name
        assert command.help.split("\n\n")[0] == first, name


def heavy_modules_loaded_by(*args: str) -> tuple[str, list[str]]:
    """(stdout, the heavy libraries loaded) of ``bidlab ARGS`` in a fresh interpreter."""
    probe = ("import sys\n"
             "from analyzer.cli import main\n"
             "try:\n"
             f"    main({list(args)!r}, prog_name='bidlab')\n"
             "except SystemExit as e:\n"
             "    assert e.code == 0, e.code\n"
             "heavy = sorted(m for m in ('numba', 'pandas', 'matplotlib') if m in sys.modules)\n"
             "sys.stderr.write(repr(heavy))\n")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout, eval(done.stderr.strip().splitlines()[-1])


def test_help_loads_neither_numba_nor_pandas():
    out, heavy = heavy_modules_loaded_by("--help")
    assert "simulate   Simulate DEALS deals of GAME" in out
    assert heavy == []


@pytest.mark.parametrize("command", sorted(group.COMMANDS))
def test_a_commands_help_loads_neither_numba_nor_pandas(command):
    """A command's --help needs its options, not its work: each loaded the runs (pandas
    through the summary), the solver or the ladder (numba), 0.8 to 1.8 s here."""
    out, heavy = heavy_modules_loaded_by(command, "--help")
    assert f"Usage: bidlab {command}" in out
    assert heavy == [], heavy


@pytest.mark.parametrize("args, said", [
    (("games",), "pedro(low_to=holder)"), (("rules", "rook"), "pass_cycle"),
    (("rules", "king", "--rule", "allow_no_trump=true"), "allow_no_trump"),
    (("cards", "AS", "JK", "10h"), "count: 3"), (("games", "--json"), '"games"'),
    (("rules", "cinch", "--json"), '"flags"'), (("cards", "AS", "--json"), '"suits"'),
])
def test_the_commands_that_describe_load_neither_numba_nor_pandas(args, said):
    """games, rules and cards read the presets and flags, never a kernel or a frame: they
    answered in 1.2 to 1.6 s here, importing numba and pandas through every game package's
    engine; about a third of that now (their JSON too: a document of plain values)."""
    out, heavy = heavy_modules_loaded_by(*args)
    assert said in out
    assert heavy == [], heavy


def test_a_command_is_loaded_when_asked_for():
    result = run("games")
    assert result.exit_code == 0, result.stderr
    assert "pedro" in result.stdout


def test_an_unknown_command_names_the_commands():
    assert_bad_input(run("simulat"), "No such command 'simulat'", "simulate", "bid-chart",
                     "warmup")




@pytest.mark.parametrize("command, option, capability", [
    ("hand", "target_ci", "adaptive_hands"), ("hand", "time_budget", "adaptive_hands"),
    ("hand", "until_decided", "adaptive_hands"),
    ("hand", "as_csv", "bid_tables"), ("hand", "plot", "bid_tables"),
    ("ladder", "dup", "partnerships"), ("bid-chart", "by", "chart_by"),
    ("bid-chart", "base", "chart_by"),
])
def test_an_option_a_game_refuses_says_so_in_its_help(command, option, capability):
    """King refused these with one clear line, but their help never said so."""
    from analyzer.cli import main
    from analyzer.games import PRESET_NAMES, game, offering

    cmd = main.get_command(None, command)
    text = next(p.help for p in cmd.params if p.name == option)
    for name in PRESET_NAMES:
        refused = f"Not {game(name).title}" in text
        assert refused == (name not in offering(capability)), (name, text)
