"""Golden digests: the exact rows of each game's simulation, one bid chart and one hand
evaluation per game, pinned as SHA-256 digests, so that moving code (a new layout, a faster
kernel) that should change nothing provably changes nothing.

Regenerate, when a change is meant to change results, with::

    BIDLAB_REGENERATE_GOLDEN=1 python -m pytest tests/test_golden.py

and say why in the commit; never edit ``tests/golden/digests.json`` by hand.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from cli_helpers import run

import analyzer
from analyzer.games import parse_game

GOLDEN = Path(__file__).parent / "golden" / "digests.json"
REGENERATE = os.environ.get("BIDLAB_REGENERATE_GOLDEN") == "1"
GAMES = ("pedro", "cinch", "rook", "king")
HANDS = {"pedro": "AS KS 5S 5C 2S 9H 3D JC 7H", "cinch": "AH KH QH 5D 2H 9C 3S JS 7C",
         "rook": "AS KS QS JS 9S 5S JK AH KH 5D 2D 3C 4C",
         "king": "AH KH QH JH 2C 3C 4C 5D 6D 7D 8S 9S TS"}


def frame_digest(df: pd.DataFrame) -> str:
    """SHA-256 of a frame's provenance (``attrs``) and columns: names, dtypes and values
    (floats to the bit)."""
    h = hashlib.sha256(json.dumps(df.attrs, sort_keys=True, default=str).encode())
    for name in df.columns:
        col = df[name]
        h.update(f"{name}:{col.dtype}".encode())
        values = col.to_numpy()
        if values.dtype == object or isinstance(col.dtype, pd.CategoricalDtype):
            h.update("\x1f".join(map(str, values)).encode())
        else:
            h.update(np.ascontiguousarray(values).tobytes())
    return h.hexdigest()


def _simulate(game: str) -> str:
    rules = parse_game(game)
    from analyzer.games import family

    return frame_digest(family(rules).simulate(rules, 100_000, seed=1))


def _chart(game: str) -> str:
    if game == "king":
        from analyzer.games.king.chart import king_chart

        chart = king_chart(parse_game(game), deals=5_000, seed=1, games=500)
        frame = pd.concat([chart.danger, chart.right, chart.trump, chart.seats])
    else:
        chart = analyzer.bid_chart(game, deals=20_000 if game != "rook" else 5_000, seed=1)
        frame = pd.concat([chart.table, chart.classes, chart.violations])
    frame.attrs = {k: v for k, v in chart.provenance.items() if k != "model"}
    return frame_digest(frame)


def _hand(game: str) -> str:
    r = run("hand", game, HANDS[game], "--deals", "3000", "--json")
    assert r.exit_code == 0, r.stderr
    doc = json.loads(r.stdout)
    doc["provenance"].pop("bidlab_version", None)
    for prose in ("model", "decision_rule"):  # explanations that name modules, not results
        doc.pop(prose, None)
    return hashlib.sha256(json.dumps(doc, sort_keys=True).encode()).hexdigest()


KINDS = {"simulate": _simulate, "bid-chart": _chart, "hand": _hand}


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("kind", KINDS)
def test_results_match_their_golden_digest(kind, game):
    digest = KINDS[kind](game)
    stored = json.loads(GOLDEN.read_text()) if GOLDEN.exists() else {}
    key = f"{kind} {game}"
    if REGENERATE:
        stored[key] = digest
        GOLDEN.write_text(json.dumps(dict(sorted(stored.items())), indent=2) + "\n")
        return
    assert key in stored, f"no golden digest for {key}: regenerate (see the module doc)"
    assert digest == stored[key], f"{key} changed"
