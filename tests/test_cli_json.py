"""``--json`` of ladder, bench, warmup, rules, games and cards, and King's ``hand --json``:
one strict JSON document (no NaN or Infinity) on stdout, with the provenance, whose numbers
are the ones the table prints (or the Python API gives)."""

from __future__ import annotations

import json
import math
import re

import numpy as np
import pandas as pd
import pytest
from cli_helpers import run

from analyzer import __version__
from analyzer import bench as bench_mod
from analyzer import ladder as lad
from analyzer.bench import BenchRow
from analyzer.games import common, family, parse_game, presets
from analyzer.games.king.evaluate import KingEvaluation, king_hand_json
from analyzer.variants import allowed_values, coerce, describe_allowed, flag_fields
from analyzer.warmup import Warmed, modules_of


def _refuse(name: str):
    raise ValueError(f"not strict JSON: {name}")


def strict(text: str) -> dict:
    """``text`` as one JSON document, refusing NaN, Infinity and -Infinity."""
    return json.loads(text, parse_constant=_refuse)


def ok(*args: str):
    r = run(*args)
    assert r.exit_code == 0, (args, r.stdout, r.stderr)
    return r


def test_the_strict_parser_refuses_nan():
    with pytest.raises(ValueError, match="NaN"):
        strict('{"x": NaN}')


# ---- ladder ---------------------------------------------------------------------------------

LADDER = ("ladder", "pedro", "--deals", "60", "--seed", "3", "--rungs", "random,heuristic")


@pytest.fixture(scope="module")
def ladder_run():
    text = ok(*LADDER, "--duplicate").stdout
    doc = strict(ok(*LADDER, "--duplicate", "--json").stdout)
    return text, doc


def test_ladder_json_has_the_provenance(ladder_run):
    _, doc = ladder_run
    p = doc["provenance"]
    assert (p["rules"], p["seed"], p["n"], p["deals"], p["opponents"]) == (
        "pedro", 3, 60, 60, "heuristic")
    assert p["rungs"] == ["random", "heuristic"] and p["bidlab_version"] == __version__
    assert doc["measure"] == "bid-side points"


def test_ladder_json_agrees_with_the_api_and_the_table(ladder_run):
    text, doc = ladder_run
    result = lad.ladder("pedro", 60, 3, ("random", "heuristic"))
    want = result.summary().drop(columns="seconds")
    got = pd.DataFrame(doc["summary"])
    assert list(got["rung"]) == ["random", "heuristic"]
    for col in want.columns:
        assert got[col].tolist() == pytest.approx(want[col].tolist()), col
    for row in doc["summary"]:
        line = next(ln for ln in text.splitlines() if ln.startswith(row["rung"] + " "))
        assert f" {row['n']} " in line
        assert f"{row['points']:.3f}" in line
        assert f"[{row['points_lo']:.3f}, {row['points_hi']:.3f}]" in line
        assert f"{100 * row['p_make']:.1f}%" in line
        assert (f"{row['diff']:+.3f} [{row['diff_lo']:+.3f}, {row['diff_hi']:+.3f}]" in line
                if row["rung"] != "heuristic" else "baseline" in line)


def test_ladder_json_by_bid_has_bounds_and_null_for_one_deal(ladder_run):
    _, doc = ladder_run
    want = lad.ladder("pedro", 60, 3, ("random", "heuristic")).by_bid()
    got = pd.DataFrame(doc["by_bid"])
    assert got[["bid", "rung", "n"]].values.tolist() == want[["bid", "rung", "n"]].values.tolist()
    assert got["points"].tolist() == pytest.approx(want["points"].tolist())
    for row in doc["by_bid"]:
        assert {"n", "points_lo", "points_hi", "p_make_lo", "p_make_hi"} <= set(row)
        if row["n"] == 1:  # no interval from one deal: null, not NaN
            assert row["points_lo"] is None and row["points_hi"] is None
        else:  # within the 14 points a deal holds
            assert 0 <= row["points_lo"] <= row["points"] <= row["points_hi"] <= 14


def test_ladder_json_duplicate_agrees_with_the_text(ladder_run):
    text, doc = ladder_run
    [d] = doc["duplicate"]
    assert (d["a"], d["b"], d["n"]) == ("heuristic", "random", 60)
    line = next(ln for ln in text.splitlines() if ln.strip().startswith("heuristic vs random"))
    assert f"{d['points']:.3f}" in line and f"{d['score']:.3f}" in line


def test_ladder_json_of_a_negative_king_contract_has_no_bid_levels(tmp_path):
    out = tmp_path / "lad"
    r = ok("ladder", "king", "--deals", "20", "--contract", "no-hearts", "--rungs",
           "random,heuristic", "--json", "--out-dir", str(out))
    doc = strict(r.stdout)  # the "wrote" line goes to stderr
    assert doc["by_bid"] == [] and doc["provenance"]["contract"] == "no-hearts"
    assert all(row["p_make"] is None for row in doc["summary"])  # n/a: no contracts
    assert "wrote" in r.stderr and (out / "summary.csv").exists()


# ---- bench ----------------------------------------------------------------------------------

ROWS = [BenchRow("pedro", "random", 1, 2000, 0.002), BenchRow("pedro", "random", 2, 2000, 0.0015),
        BenchRow("rook", "random", 1, 2000, 0.004), BenchRow("rook", "random", 2, 2000, 0.003)]


def test_bench_json_agrees_with_the_table(monkeypatch):
    monkeypatch.setattr(bench_mod, "run", lambda **kw: ROWS)
    args = ("bench", "--game", "pedro", "--game", "rook", "--policy", "random", "--deals",
            "2000", "--repeats", "1")
    text, doc = ok(*args).stdout, strict(ok(*args, "--json").stdout)
    p = doc["provenance"]
    assert (p["games"], p["policies"], p["deals"], p["repeats"], p["seed"]) == (
        ["pedro", "rook"], ["random"], 2000, 1, 1)
    assert p["bidlab_version"] == __version__
    lines = text.splitlines()[2:]
    assert len(doc["rows"]) == len(lines) == 4
    for row, line in zip(doc["rows"], lines, strict=True):
        cells = line.split()
        assert cells[:4] == [row["game"], row["policy"], str(row["threads"]), str(row["deals"])]
        assert cells[4] == f"{row['seconds']:.3f}"
        assert cells[5] == f"{row['deals_per_s']:,.0f}"
        assert cells[6] == f"{row['speed_up']:.2f}x"
    assert doc["rows"][1]["speed_up"] == pytest.approx(0.002 / 0.0015)


def test_bench_json_times_for_real():
    doc = strict(ok("bench", "--game", "pedro", "--policy", "random", "--deals", "2000",
                    "--repeats", "1", "--json").stdout)
    rows = doc["rows"]
    assert rows[0]["threads"] == 1 and rows[0]["speed_up"] == 1.0
    for row in rows:
        assert row["deals"] == 2000 and row["seconds"] > 0
        assert row["deals_per_s"] == pytest.approx(row["deals"] / row["seconds"])


# ---- warmup ---------------------------------------------------------------------------------


def test_warmup_json_lists_each_module():
    r = ok("warmup", "rook", "--json")
    doc = strict(r.stdout)
    assert doc["provenance"]["games"] == ["rook"] and doc["provenance"]["search"] is False
    assert [m["module"] for m in doc["modules"]] == modules_of(["rook"], search=False)
    for m in doc["modules"]:
        assert m["kernels"] == 1 and m["compiled"] in (0, 1) and m["seconds"] > 0
    assert doc["seconds"] == pytest.approx(sum(m["seconds"] for m in doc["modules"]))
    assert "rook.engine" in r.stderr  # the lines, as they come, on stderr


def test_warmup_json_agrees_with_the_lines(monkeypatch):
    import analyzer.warmup

    rows = [Warmed("analyzer.games.pedro.engine", 1, 1, 12.25),
            Warmed("analyzer.games.pedro.games", 1, 0, 0.5)]

    def warm(presets, search=False, progress=None):
        for row in rows:
            progress(row)
        return rows

    monkeypatch.setattr(analyzer.warmup, "warm", warm)
    text, doc = ok("warmup", "pedro").stdout, strict(ok("warmup", "pedro", "--json").stdout)
    lines = text.splitlines()
    for m, line in zip(doc["modules"], lines, strict=False):
        assert line.startswith(m["module"].removeprefix("analyzer.games."))
        assert f"{m['seconds']:7.1f} s  {m['how']}" in line
    assert doc["modules"][0]["how"] == "compiled 1 of 1 kernels"
    assert lines[-1] == f"{'in all':16} {doc['seconds']:7.1f} s"


# ---- rules, games, cards --------------------------------------------------------------------


@pytest.mark.parametrize("game", ["pedro", "cinch", "rook", "king"])
def test_rules_json_lists_every_flag(game):
    text, doc = ok("rules", game).stdout, strict(ok("rules", game, "--json").stdout)
    rules = parse_game(game)
    assert doc["provenance"]["rules"] == str(rules) == text.splitlines()[0].split()[0]
    assert doc["provenance"]["bidlab_version"] == __version__
    fields = flag_fields(type(rules))
    assert [f["flag"] for f in doc["flags"]] == [f.name for f in fields]
    for f, row in zip(fields, doc["flags"], strict=True):
        assert row["value"] == getattr(rules, f.name) and row["differs"] is False
        allowed = allowed_values(f, rules.game, type(rules))
        if isinstance(allowed, range):  # a program reads the ends, not a sentence
            assert row["allowed"] == {"min": allowed.start, "max": allowed.stop - 1}
            ends = [row["allowed"]["min"], row["allowed"]["max"]]
        else:
            assert row["allowed"] == list(allowed)
            ends = row["allowed"]
        assert all(coerce(type(rules), f.name, str(v), game) == v for v in ends)
        assert row["meaning"] == f.metadata["doc"]
        line = next(x for x in text.splitlines() if x.startswith(f.name + " "))
        assert str(row["value"]) in line and row["meaning"] in line
        assert describe_allowed(f, rules.game, type(rules)) in line
    assert doc["in_words"] == text.splitlines()[-1]


def test_rules_json_marks_a_changed_flag():
    doc = strict(ok("rules", "pedro", "--rule", "low_to=holder", "--json").stdout)
    assert doc["provenance"]["rules"] == "pedro(low_to=holder)"
    assert doc["provenance"]["rule"] == "low_to=holder"
    [row] = [f for f in doc["flags"] if f["differs"]]
    assert (row["flag"], row["value"], row["default"]) == ("low_to", "holder", "winner")


def test_games_json_lists_every_preset():
    text, doc = ok("games").stdout, strict(ok("games", "--json").stdout)
    assert doc["provenance"] == {"bidlab_version": __version__}
    assert [g["game"] for g in doc["games"]] == list(presets())
    for g in doc["games"]:
        rules = presets()[g["game"]]
        assert g["rules"] == str(rules)
        assert g["engine"] == family(rules).__name__.rsplit(".", 1)[-1]
        diffs = ", ".join(f"{k}={v}" for k, v in g["flags_unlike_engine_first"].items()) or "-"
        if g["unlike_engine_first_beyond_flags"]:  # a rule no flag names (Cinch's dealer)
            diffs += f"; and {g['unlike_engine_first_beyond_flags']}"
        assert re.search(rf"^{g['game']}\s+{g['engine']}\s+{re.escape(g['rules'])}\s+"
                         rf"{re.escape(diffs)}\s", text, re.M)
    assert doc["games"][1]["flags_unlike_engine_first"] == {"scoring": 2}  # cinch
    assert doc["policies"] == list(common.POLICY_NAMES)


@pytest.mark.parametrize("hand", ["AS KS 10H TD 5C 2h", "JK AH 2C"])
def test_cards_json_agrees_with_the_text(hand):
    text, doc = ok("cards", hand).stdout, strict(ok("cards", hand, "--json").stdout)
    assert doc["provenance"] == {"bidlab_version": __version__}
    assert f"hand:  {doc['hand']}" in text and f"count: {doc['count']}" in text
    assert f"mask:  {doc['mask']}" in text
    assert sum(s["n"] for s in doc["suits"]) == doc["count"]
    for s in doc["suits"]:
        assert len(s["cards"]) == s["n"]
        assert re.search(rf"^{s['suit']}\s+{s['n']}\s+{' '.join(s['cards']) or '-'}$", text,
                         re.M)


# ---- King's hand --json ---------------------------------------------------------------------


def test_king_hand_json_is_strict_with_nan():
    nan = math.nan
    ev = KingEvaluation(
        hand="AH KH", seat="eldest", rules="king", policy="heuristic", seed=np.int64(1), n=1,
        negative=pd.DataFrame([{"contract": "no_hearts", "n": 1, "points": -20.0,
                                "points_se": nan, "points_lo": nan, "points_hi": nan,
                                "p_zero": 0.0, "p_zero_lo": 0.0, "p_zero_hi": 0.79}]),
        distribution=pd.DataFrame([{"contract": "no_hearts", "points": -20, "share": 1.0}]),
        positive=pd.DataFrame([{"choice": "I name hearts", "n": 1, "tricks": 5.0,
                                "tricks_se": nan, "tricks_lo": nan, "tricks_hi": nan}]),
        trump_right={"value": 1.0, "value_lo": nan, "value_hi": nan, "n": 1,
                     "offer_up_to": None, "accept_offers_above": None})
    doc = strict(king_hand_json(ev))
    assert list(doc) == ["provenance", "advice", "negative", "distribution", "positive",
                         "trump_right"]
    assert doc["provenance"]["seed"] == 1
    assert doc["negative"][0]["points_lo"] is None and doc["negative"][0]["points"] == -20
    assert doc["positive"][0]["tricks_se"] is None
    assert doc["trump_right"]["value_lo"] is None


def test_king_hand_json_from_the_cli_keeps_its_keys():
    r = ok("hand", "king", "AH KH QH JH TH 9H 8H 2C 3C 4D 5D 6S 7S", "--contract",
           "no-hearts", "--deals", "50", "--json")
    doc = strict(r.stdout)
    assert list(doc) == ["provenance", "advice", "negative", "distribution", "positive",
                         "trump_right"]
    assert doc["provenance"]["n"] == 50 and doc["negative"][0]["n"] == 50
    assert doc["positive"] == [] and doc["trump_right"] == {}


def test_a_hand_s_json_advice_is_the_text_s_whole_sentence():
    """--json dropped the text's "naming spades beats passing beyond the noise up to a bid
    of 12"; a program reading the advice got less than a player reading the text."""
    args = ("hand", "pedro", "AS KS 5S 5C 2S 9H 3D JC 7H", "--deals", "3000")
    doc = strict(ok(*args, "--json").stdout)
    line = next(x for x in ok(*args).stdout.splitlines() if x.startswith("recommended: "))
    assert line == f"recommended: {doc['advice']}" and "beats passing beyond the noise up to" \
        in doc["advice"]
