"""Helpers shared by the CLI tests: run `bidlab` in-process and check a bad-input failure."""

from click.testing import CliRunner

from analyzer.cli import main


def run(*args: str):
    try:  # click < 8.2 mixes stderr into output unless told not to
        runner = CliRunner(mix_stderr=False)
    except TypeError:
        runner = CliRunner()
    return runner.invoke(main, list(args), prog_name="bidlab")


def assert_bad_input(result, *expected: str):
    """Exit 2, exactly one line on stderr starting "bidlab: error:", no traceback: the
    line."""
    assert result.exit_code == 2, (result.exit_code, result.stdout, result.stderr)
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("bidlab: error:"), lines[0]
    assert "Traceback" not in result.stderr + result.stdout
    for text in expected:
        assert text in lines[0], lines[0]
    return lines[0]


def report_data(parts: dict, folder) -> dict:
    """The data files of report sections, by run: ``parts`` maps a run's name to its
    sections (``build.run_sections``); each run's files are written under ``folder/name``
    and returned as {file name: bytes}."""
    from analyzer.report import build

    out = {}
    for where, sections in parts.items():
        (folder / where).mkdir()
        for part in sections:
            build._write_data(part, folder / where)
        out[where] = {p.name: p.read_bytes() for p in (folder / where).iterdir()}
    return out
