"""What the commands write and print for programs: CSVs any tool reads as they are, with
their provenance beside them, text columns for cards, suits and seats, ``--json`` that
agrees with the tables, ``compare --out/--rule``, and the one line that says an output
was replaced."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from cli_helpers import run

from analyzer import io
from analyzer.cards import CardSet
from analyzer.games import PRESET_NAMES, game, offering, parse_game
from analyzer.games.common import SEAT_NAMES, SUIT_TEXT
from analyzer.summary import summarize

SIZES = {"king": 30}  # whole King games of ten hands each


def _simulate_args(preset: str, out) -> list[str]:
    return ["simulate", preset, "--deals", str(SIZES.get(preset, 300)), "--seed", "2",
            "--out", str(out)]


def _check_text_columns(df: pd.DataFrame, preset: str) -> None:
    """Every declared column the table has gets its text beside it, and the text says the
    same cards, suits and seats as the numbers."""
    g = game(preset)
    declared = [c for c in g.text_columns if c in df.columns]
    assert declared, "no text column at all"
    for name in declared:
        text = df[f"{name}_text"]
        assert list(df.columns).index(f"{name}_text") == list(df.columns).index(name) + 1
        kind = g.text_columns[name]
        for v, t in zip(df[name], text, strict=True):
            t = "" if pd.isna(t) else t
            if kind == "cards":
                assert t == str(CardSet(int(np.uint64(v)))), (name, v, t)
            elif kind == "seat":
                assert t == (SEAT_NAMES[v] if 0 <= v < 4 else ""), (name, v, t)
            elif kind == "suit":
                assert t == (SUIT_TEXT[v] if 0 <= v < 5 else ""), (name, v, t)
            elif kind == "card":
                assert t == str(CardSet(1 << int(v))), (name, v, t)
            else:
                assert t == (kind[v] if 0 <= v < len(kind) else ""), (name, v, t)


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_simulate_csv_reads_as_it_is_with_text_columns(preset, tmp_path):
    out = tmp_path / "rows.csv"
    r = run(*_simulate_args(preset, out))
    assert r.exit_code == 0, r.stderr
    df = pd.read_csv(out)  # no options: the header is the first line
    expected = game(preset).simulate(parse_game(preset), SIZES.get(preset, 300), 2, "heuristic")
    assert set(expected.columns) <= set(df.columns)
    for c in expected.columns:  # the numbers as the library makes them (uint64 masks too)
        assert df[c].astype(expected[c].dtype).tolist() == expected[c].tolist(), c
    _check_text_columns(df, preset)
    back = io.read_table(out)  # the provenance from the sidecar
    assert back.attrs["seed"] == 2 and back.attrs["rules"] == str(parse_game(preset))
    assert back.attrs["n"] == len(expected)


def test_king_contract_rows_name_their_cards_and_seats(tmp_path):
    out = tmp_path / "hands.parquet"
    r = run("simulate", "king", "--contract", "positive", "--deals", "200", "--out", str(out))
    assert r.exit_code == 0, r.stderr
    df = pd.read_parquet(out)
    assert {"hand0_text", "trump_text", "chooser_text", "kh_seat_text"} <= set(df.columns)
    _check_text_columns(df, "king")


@pytest.mark.parametrize("preset", offering("whole_games"))
def test_match_csv_reads_as_it_is(preset, tmp_path):
    out = tmp_path / "games.csv"
    r = run("match", preset, "--games", "40", "--out", str(out))
    assert r.exit_code == 0, r.stderr
    df = pd.read_csv(out)
    assert {"game", "winner", "first_dealer", "first_dealer_text"} <= set(df.columns)
    assert len(df) == 40
    _check_text_columns(df, preset)
    assert io.read_table(out).attrs["max_deals"] > 0


@pytest.mark.parametrize("preset", ["pedro", "rook", "king"])
def test_bid_chart_folder_csvs_read_as_they_are(preset, tmp_path):
    out = tmp_path / "chart"
    deals = {"king": "300"}.get(preset, "2000")
    r = run("bid-chart", preset, "--deals", deals, "--out-dir", str(out))
    assert r.exit_code == 0, r.stderr
    csvs = sorted(out.glob("*.csv"))
    assert csvs
    manifest = json.loads((out / "manifest.json").read_text())
    assert set(manifest["files"]) | {"manifest.json"} == {p.name for p in out.iterdir()}
    for path in csvs:
        df = pd.read_csv(path)
        assert len(df.columns) > 2 and not any(c.startswith("#") for c in df.columns), path
        assert not any(c.startswith("Unnamed") for c in df.columns), path
        assert io.read_table(path).attrs["seed"] == 1, path
        assert path.with_name(path.name + ".json").name in manifest["files"]


def test_an_empty_guide_keeps_its_header(tmp_path):
    out = tmp_path / "chart"
    r = run("bid-chart", "pedro", "--deals", "200", "--by", "trumps,seat", "--out-dir", str(out))
    assert r.exit_code == 0, r.stderr
    guide = pd.read_csv(out / "guide.csv")
    assert {"bid_from", "bid_to", "minimum holding"} <= set(guide.columns)


# ---- --json ---------------------------------------------------------------------------------


def test_simulate_json_agrees_with_the_summary(tmp_path):
    r = run("simulate", "pedro", "--deals", "1500", "--seed", "4", "--json")
    assert r.exit_code == 0, r.stderr
    doc = json.loads(r.stdout)
    p = doc["provenance"]
    assert (p["rules"], p["seed"], p["policy"], p["n"]) == ("pedro", 4, "heuristic", 1500)
    s = summarize(game("pedro").simulate(parse_game("pedro"), 1500, 4, "heuristic"))
    assert [d["key"] for d in doc["sections"]] == [x.key for x in s.sections]
    for section, ours in zip(doc["sections"], s.sections, strict=True):
        assert [row["row"] for row in section["rows"]] == list(ours.table.index)
        for row, (_, want) in zip(section["rows"], ours.table.iterrows(), strict=True):
            for col in want.index:
                assert row[col] == pytest.approx(want[col], nan_ok=True), (row["row"], col)
            assert "lo" in row and "hi" in row and row["n"] > 0


def test_match_json_agrees_with_the_table():
    args = ("match", "pedro", "--games", "200", "--seed", "3")
    text, doc = run(*args).stdout, json.loads(run(*args, "--json").stdout)
    assert doc["provenance"]["seed"] == 3 and doc["provenance"]["games"] == 200
    for row in doc["rates"]:
        line = next(ln for ln in text.splitlines() if ln.startswith(row["row"]))
        assert f"{100 * row['rate']:.2f}%" in line and f"{100 * row['lo']:.2f}%" in line
        assert f" {row['n']} " in line and f" {row['k']} " in line
    assert f"{doc['deals_per_game']['mean']:.3f}" in text


def test_bid_chart_json_agrees_with_the_files(tmp_path):
    out = tmp_path / "chart"
    r = run("bid-chart", "pedro", "--deals", "2000", "--json", "--out-dir", str(out))
    assert r.exit_code == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["provenance"]["n"] == 8000 and doc["provenance"]["policy"] == "heuristic"
    classes = pd.read_csv(out / "classes.csv")
    assert len(doc["classes"]) == len(classes)
    assert [c["points"] for c in doc["classes"]] == pytest.approx(classes["points"].tolist())
    got = [np.nan if c["rec_gain_lo"] is None else c["rec_gain_lo"] for c in doc["classes"]]
    assert got == pytest.approx(classes["rec_gain_lo"].tolist(), nan_ok=True)  # NaN: null


# ---- compare --out, --rule ------------------------------------------------------------------


def test_compare_out_rule_json(tmp_path):
    out = tmp_path / "cmp.parquet"
    r = run("compare", "pedro", "pedro(low_to=holder)", "--deals", "3000", "--rule",
            "min_bid=7", "--out", str(out), "--json")
    assert r.exit_code == 0, r.stderr
    doc = json.loads(r.stdout)
    p = doc["provenance"]
    assert (p["a"], p["b"], p["rule"]) == ("pedro(min_bid=7)", "pedro(min_bid=7,low_to=holder)",
                                           "min_bid=7")
    table = io.read_table(out)
    assert table.attrs["a"] == p["a"] and table.attrs["deals"] == 3000
    assert list(table["measure"]) == [m["measure"] for m in doc["measures"]]
    for m, (_, row) in zip(doc["measures"], table.iterrows(), strict=True):
        for col in ("a", "a_lo", "a_hi", "b", "b_minus_a", "diff_lo", "diff_hi", "n_paired"):
            assert m[col] == pytest.approx(row[col], nan_ok=True), col
    text = run("compare", "pedro", "pedro(low_to=holder)", "--deals", "3000", "--rule",
               "min_bid=7").stdout
    first = doc["measures"][0]
    assert f"{first['a']:.3f} ± {first['a_hw']:.3f}" in text
    assert "A = pedro(min_bid=7)" in text


def test_compare_rule_is_checked_and_progress_goes_to_stderr(tmp_path):
    r = run("compare", "pedro", "cinch", "--deals", "2000", "--rule", "min_bid=99",
            "--out", str(tmp_path / "c.csv"))
    assert r.exit_code == 2 and "min_bid" in r.stderr and not (tmp_path / "c.csv").exists()
    r = run("compare", "pedro", "cinch", "--deals", "2000", "--progress")
    assert r.exit_code == 0 and "simulating A and B" in r.stderr
    assert "simulating" not in r.stdout


# ---- one overwrite rule ------------------------------------------------------------------------


@pytest.mark.parametrize("args,target", [
    (("simulate", "pedro", "--deals", "200", "--out"), "rows.parquet"),
    (("match", "pedro", "--games", "20", "--out"), "games.csv"),
    (("compare", "pedro", "cinch", "--deals", "500", "--out"), "cmp.csv"),
    (("bid-chart", "pedro", "--deals", "500", "--out-dir"), "chart"),
])
def test_replaced_is_said_on_the_second_write_only(args, target, tmp_path):
    path = str(tmp_path / target)
    first = run(*args, path)
    assert first.exit_code == 0, first.stderr
    assert "bidlab: replaced" not in first.stderr
    second = run(*args, path)
    assert second.exit_code == 0, second.stderr
    lines = [ln for ln in second.stderr.splitlines() if "bidlab: replaced" in ln]
    assert lines == [f"bidlab: replaced {path}"]
