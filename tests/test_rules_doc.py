"""docs/rules.md, the rules in words, keeps up with the code: every flag of every preset
is in it with its default and its allowed values, every "docs/rules.md §N" the package
cites is a heading there, and the package no longer points at the old RULES.md or at
the folder the spec came from (OLD_FOLDER)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import analyzer
from analyzer.games import family, presets
from analyzer.variants import allowed_values, flag_fields

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "rules.md"
PACKAGE = Path(analyzer.__file__).parent
SOURCES = sorted(p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts)
_NUM = r"(\d+(?:\.\d+)*)"
# "docs/rules.md §1.9", "``docs/rules.md`` §1 (Pedro), §2 (Cinch), §7 (flags)", "§4 and §7"
_FIRST = re.compile(r"docs/rules\.md`{0,2}\s*§" + _NUM)
_MORE = re.compile(r"(?:\s*\([^()]*\))?\s*(?:,|and|/)\s*§" + _NUM)


def doc_text() -> str:
    return DOC.read_text(encoding="utf-8")


def doc_sections() -> set[str]:
    """The numbers of the headings of docs/rules.md: "1", "1.10", "3.5", ..."""
    return set(re.findall(r"^#{2,4}\s+(\d+(?:\.\d+)*)\.?\s", doc_text(), re.M))


def table_rows() -> list[str]:
    return [line for line in doc_text().splitlines() if line.startswith("|")]


def cited_sections(text: str) -> list[str]:
    out = []
    for m in _FIRST.finditer(text):
        out.append(m.group(1))
        pos = m.end()
        while more := _MORE.match(text, pos):
            out.append(more.group(1))
            pos = more.end()
    return out


def test_the_doc_exists_with_the_specs_top_level_sections():
    assert DOC.is_file()
    assert {"0", "1", "2", "3", "4", "5", "6", "7", "8"} <= doc_sections()
    assert {"1.10", "1.9", "3.5", "4.9", "4.10"} <= doc_sections()


@pytest.mark.parametrize("preset", list(presets()))
def test_every_flag_is_in_a_table_row_with_its_default(preset):
    rules = presets()[preset]
    rows = table_rows()
    for f in flag_fields(type(rules)):
        default = f"`{getattr(rules, f.name)}`"
        assert any(f"`{f.name}`" in row and default in row for row in rows), (
            f"{preset}: no table row of docs/rules.md gives flag {f.name} with its "
            f"default {default}")


@pytest.mark.parametrize("preset", list(presets()))
def test_every_allowed_value_of_every_flag_is_named(preset):
    rules = presets()[preset]
    text = doc_text()
    for f in flag_fields(type(rules)):
        allowed = allowed_values(f, preset, type(rules))
        if isinstance(allowed, range):
            continue
        for value in allowed:
            assert f"`{value}`" in text, f"{preset}: value {value} of {f.name} not in the doc"


def test_every_preset_names_its_section_and_it_exists():
    sections = doc_sections()
    for name, rules in presets().items():
        source = family(rules).GAME.sources[name]
        cited = cited_sections(source)
        assert cited, f"{name}'s source names no docs/rules.md section: {source!r}"
        assert set(cited) <= sections, (name, cited)


def test_every_citation_in_the_package_is_a_heading():
    sections = doc_sections()
    bad = []
    n = 0
    for path in SOURCES:
        for sec in cited_sections(path.read_text(encoding="utf-8")):
            n += 1
            if sec not in sections:
                bad.append(f"{path.relative_to(PACKAGE.parent)}: §{sec}")
    assert n > 10, "the citation pattern found almost nothing; is it still right?"
    assert not bad, "docs/rules.md has no such section: " + "; ".join(bad)


def test_the_citation_pattern_reads_lists():
    assert cited_sections("``docs/rules.md`` §3 (King), §5 (invariants), §7 (flags); every") \
        == ["3", "5", "7"]
    assert cited_sections("flags of docs/rules.md §4 and §7.") == ["4", "7"]
    assert cited_sections("(docs/rules.md\n§0.1: dealing") == ["0.1"]


# spelt in two halves, so that `grep -rn` for it over analyzer/ and tests/ finds nothing,
# this file included
OLD_FOLDER = "shared" + "/"


@pytest.mark.parametrize("needle", ["RULES.md", OLD_FOLDER])
def test_the_package_no_longer_names_old_paths(needle):
    hits = [f"{p.relative_to(PACKAGE.parent)}:{i}"
            for p in SOURCES
            for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
            if needle in line]
    assert not hits, f"{needle!r} still named in " + ", ".join(hits)


def test_shared_is_not_named_in_the_tests():
    here = Path(__file__).resolve()
    hits = [str(p.relative_to(ROOT))
            for p in (ROOT / "tests").rglob("*")
            if p.suffix in (".py", ".md") and "__pycache__" not in p.parts and p != here
            and OLD_FOLDER in p.read_text(encoding="utf-8")]
    assert not hits, hits


def test_bidlab_rules_says_where_the_rules_are_written():
    from cli_helpers import run

    for name in presets():
        r = run("rules", name)
        assert r.exit_code == 0, r.stderr
        last = r.stdout.rstrip("\n").splitlines()[-1]
        assert last.startswith("The rules in words: docs/rules.md §"), last
        assert cited_sections(last)[0] in doc_sections()
