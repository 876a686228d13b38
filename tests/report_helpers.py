"""Report parts built by hand for the findings' tests: a section's tables and provenance
without playing its deals."""

from __future__ import annotations

import pandas as pd

from analyzer.report.findings import key_findings
from analyzer.report.parts import Part


def make_part(key: str, tables: dict, unit: str = "deals", n: int = 1000,
              **provenance) -> Part:
    """A part ``key`` whose tables are ``tables`` (name -> rows) and whose provenance says
    ``n`` ``unit`` and ``provenance``."""
    p = Part(key, f"Section {key}", "what it assumes")
    p.tables = {name: pd.DataFrame(rows) for name, rows in tables.items()}
    p.provenance = {"n": n, "unit": unit, **provenance}
    return p


def findings_of(part: Part) -> list[str]:
    """The key findings' sentences that ``part`` gives."""
    return [sentence for _, sentence in key_findings([part])]
