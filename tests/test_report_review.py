"""Findings of a reader's review of the generated reports (tests only).

1. Rook counts hands (``RookGame.deal_unit == "hands"``, its summary's unit is hands), yet the
   bid-level section of a Rook report still says "deals" in its introduction and its table
   caption, next to a key finding that says "of N hands": one report, two units for one
   count.
2. The manifest names the commit HEAD points at, even where the code that built the report
   differs from it (the committed reports say ``be27d80`` but carry wording that only
   ``7c991af`` writes): a dirty tree must be told from a clean one.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from cli_helpers import run

ROOT = Path(__file__).resolve().parents[1]


def test_a_rook_bid_level_section_counts_in_hands_as_its_findings_do(tmp_path):
    scenario = tmp_path / "rook.toml"
    scenario.write_text('game = "rook"\nseed = 1\n[bids]\ndeals = 300\n[seats]\ndeals = 300\n')
    out = tmp_path / "rep"
    r = run("report", str(scenario), "--out", str(out), "--no-progress")
    assert r.exit_code == 0, r.stderr
    md = (out / "report.md").read_text()
    findings = md[:md.index("1. [")]
    assert "of 300 hands" in findings  # the finding counts hands
    section = md[md.index('<a id="bids"></a>'):md.index('<a id="seats"></a>')]
    assert " deals" not in section, [ln for ln in section.splitlines() if " deals" in ln]
    # the seats' table: a Rook side declares (and calls trump after the widow)
    assert "| position | declares [95% CI] |" in md[md.index('<a id="seats"></a>'):]


def test_the_manifest_tells_a_dirty_tree_from_the_commit_it_sits_on(tmp_path):
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", "--no-hardlinks", str(ROOT), str(clone)], check=True)
    probe = ("import sys; sys.path.insert(0, sys.argv[1]); "
             "from analyzer.report import build; print(build._git_commit())")

    def identity() -> str:
        r = subprocess.run([sys.executable, "-c", probe, str(clone)], capture_output=True,
                           text=True, check=True, cwd=clone)
        return r.stdout.strip()

    clean = identity()
    assert len(clean) == 40, clean  # the bare commit
    report = next((clone / "reports").glob("*/report.md"))  # a report rewrites its folder:
    report.write_text(report.read_text() + "\nrebuilt\n")  # not a change of the code
    assert identity() == clean
    source = clone / "analyzer" / "report" / "findings.py"
    source.write_text(source.read_text() + "\n# an uncommitted change to the report's code\n")
    assert identity() == clean + "-dirty", "a report built from changed code names the clean commit"
