"""The policy ladder on King hands (:mod:`analyzer.ladder` plays the partnership games):
in a positive hand the rung plays the seat holding the trump right, the buyer or the
benefited dealer playing it himself (hands declined 4-3-3-3 are not played and are left
out); its "bid" is the price in tricks and its measure the tricks it takes. In a negative
contract it plays one seat against three fixed players, the seat cycling through the four
positions from the dealer, and the measure is that seat's points. May import: the generic
ladder, this game.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...ladder import Ladder, _play_rungs, _vector


def king_ladder(rules, idx, seed, rungs, opponents, worlds, contract, progress) -> Ladder:
    """The ladder on King hands of ``contract``: the rung plays the trump right's holder
    (positive) or one seat cycling through the positions (negative contracts)."""
    from .. import king
    from . import engine as eng
    from .view import hand_total

    first, asked = int(idx[0]), len(idx)
    code = king.parse_contract(contract or "positive")
    positive = code == king.POSITIVE
    heur = _vector("heuristic", worlds, True)
    probe, _ = king.run_deals(rules, idx, seed, heur, contract=code)
    if positive:
        played = probe[:, eng.R_OUTCOME] != eng.OUT_DECLINE  # a declined hand is not played
        idx, probe = idx[played], probe[played]  # none left: the ladder says so
        maker = probe[:, eng.R_CHOOSER].astype(np.int64)
        bid = np.where(probe[:, eng.R_OUTCOME] == eng.OUT_SELL, probe[:, eng.R_PRICE], 0)
    else:
        maker = (idx + idx // 4) % 4  # dealer idx % 4, then each position in turn
        bid = np.zeros(len(idx), dtype=np.int64)
    out = pd.DataFrame({"deal": idx, "maker": maker, "bid": bid})

    def play(sel, spec, s):
        rec, _ = king.run_deals(rules, idx[sel], seed, _vector(spec, worlds, True),
                                contract=code)
        same = ((rec[:, eng.R_CHOOSER] == probe[sel, eng.R_CHOOSER])
                & (rec[:, eng.R_PRICE] == probe[sel, eng.R_PRICE]))
        pts = rec[:, (eng.R_TRICKS if positive else eng.R_POINTS) + s]
        return pts, (pts >= bid[sel]) & (bid[sel] > 0), same

    seats = [(np.flatnonzero(maker == s), (s,), s) for s in range(4)]
    seconds = _play_rungs(out, rungs, opponents, seats, play, progress, asked)
    name = king.contract_name(code).replace("_", "-")
    measure = "trump chooser's tricks" if positive else f"the seat's {name} points"
    prov = {"game": rules.game, "rules": str(rules), "seed": seed, "first": first,
            "deals": asked, "contract": name, "opponents": opponents, "worlds": worlds,
            "measure": measure,
            "auction": "heuristic for every seat and rung (rungs differ in card play only)"}
    if positive:
        prov["declined"] = int((~played).sum())
        prov["make"] = ("a buyer took at least the tricks it paid for the trump right "
                        "(sold hands; the benefited dealer who plays it pays none)")
    span = (0.0, 13.0) if positive else (float(hand_total(king.contract_name(code))), 0.0)
    return Ladder(out, rungs, prov, seconds, measure, span)

