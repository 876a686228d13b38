"""A hand evaluation for people and for programs: terminal tables, one JSON document, CSV.

Every figure carries its 95% interval; every output carries the provenance
(hand, seat, rules, policy, seed, n and the rule that stopped the run). The
tables are :class:`analyzer.games.pedro.evaluate.HandEvaluation`'s DataFrames; nothing is
recomputed here.

>>> from analyzer.games.pedro.evaluate import evaluate_hand
>>> ev = evaluate_hand("pedro", "AS KS 5S 5C 2S 9H 3D JC 7H", deals=2_000)
>>> render_hand(ev).splitlines()[0].split(" | ")
['hand AS KS 5S 2S 9H 7H 3D JC 5C', 'seat eldest', 'rules pedro', 'policy heuristic', 'seed 1',
 'n 2,000', 'stopped by deals']
"""

from __future__ import annotations

import json
import math

import pandas as pd

from . import __version__
from .games import pedro
from .games.common import policy_label
from .rollout import HandEvaluation
from .text import render_table

METHOD_NAMES = {1: "set-back", 2: "difference"}
STOPPED = {"deals": "fixed count (--deals)", "target-ci": "target CI reached (--target-ci)",
           "time-budget": "time budget spent (--time-budget)",
           "max-deals": "deal limit reached (--max-deals)",
           "decided": "the recommendation is clear (--until-decided)"}
DECISION_NOTE = ("A bid is recommended over passing, or over a lower bid, only when its "
                 "paired gain (the same deals for every action) is above zero beyond the "
                 "noise: its lower bound, at 95% for all the bids compared together "
                 "(Bonferroni); bid up to = the highest bid that beats passing so "
                 "(analyzer/advice.py).")
MODEL_NOTE = ("EV(bid b): the seat bids b in its turn (passing if b is no longer legal), the "
              "others bid by their policies and may outbid it, and it names the trump if it "
              "wins; EV(pass): the seat passes. P(points >= b) is for the seat as sole bidder "
              "(analyzer/games/pedro/evaluate.py).")


def _num(x: float, digits: int = 2) -> str:
    return "n/a" if x is None or math.isnan(x) else f"{x:.{digits}f}"


def _pm(mean: float, lo: float, hi: float, digits: int = 2) -> str:
    """``mean ± half-width``; the half-width is n/a when one deal leaves it unknown."""
    return f"{_num(mean, digits)} ± {_num((hi - lo) / 2, digits)}"


def _pct(p: float, lo: float, hi: float) -> str:
    return f"{100 * p:.1f} [{100 * lo:.1f}, {100 * hi:.1f}]"


def _trumps(ev: HandEvaluation) -> list[str]:
    return list(dict.fromkeys(ev.bids["trump"]))


def _by_bid(ev: HandEvaluation, cell) -> list[list]:
    """Rows bid, columns trump: ``cell(row)`` for each (bid, trump) of ``ev.bids``."""
    trumps = _trumps(ev)
    rows = []
    for bid, group in ev.bids.groupby("bid", sort=True):
        by_trump = {r["trump"]: r for _, r in group.iterrows()}
        rows.append([int(bid), *(cell(by_trump[t]) for t in trumps)])
    return rows


def header(ev: HandEvaluation) -> str:
    """The provenance line: hand, seat, rules, policy, seed, n and the stop rule."""
    known = "".join(f" | {seat} holds {cards}" for seat, cards in ev.known.items())
    return (f"hand {ev.hand} | seat {ev.seat}{known} | rules {ev.rules} | "
            f"policy {policy_label(ev.policy)} | "
            f"seed {ev.seed} | n {ev.n:,} | stopped by {ev.stopped_by}")


def render_hand(ev: HandEvaluation) -> str:
    """Every table of ``ev`` as aligned text.

    Net EVs (own − opponents) are shown for both methods; own-only EVs are in
    :func:`hand_document` and :func:`hand_csv`.
    """
    if ev.ceilings is not None:
        return render_rook_hand(ev)
    trumps = _trumps(ev)
    scoring = pedro.parse_rules(ev.rules).scoring  # the method the ranking and bid_up_to use
    out = [header(ev), f"stop rule: {STOPPED.get(ev.stopped_by, ev.stopped_by)}", ""]

    out.append(f"The side's points (of 14) when {ev.seat} names trump, mean ± 95% CI; "
               f"bid up to = highest bid whose EV (method {scoring}, net) beats passing "
               f"beyond the noise, 0 = none")
    out.append(render_table(
        ["trump", "points", "bid up to"],
        [[r["trump"], _pm(r["points"], r["points_lo"], r["points_hi"]), int(r["bid_up_to"])]
         for _, r in ev.points.iterrows()], "lrr"))

    out += ["", "P(points ≥ b), % with 95% Wilson interval"]
    out.append(render_table(
        ["bid", *trumps],
        _by_bid(ev, lambda r: _pct(r["p_make"], r["p_make_lo"], r["p_make_hi"])),
        "r" * (len(trumps) + 1)))

    # Net of a made bid is B − O and of a set −b − O under both methods unless method 2
    # gives the difference to the bidder only; one table then says it for both.
    same = ev.bids["ev1_net"].equals(ev.bids["ev2_net"])
    for m in (1,) if same else (1, 2):
        which = ("methods 1 and 2 (the same under these rules: B − O if made, −b − O if set)"
                 if same else f"method {m} ({METHOD_NAMES[m]})")
        out += ["", f"EV(bid b naming trump), net = own − opponents, ± 95% half-width, {which}"]
        col = f"ev{m}_net"
        out.append(render_table(
            ["bid", *trumps],
            _by_bid(ev, lambda r, c=col: _pm(r[c], r[f"{c}_lo"], r[f"{c}_hi"])),
            "r" * (len(trumps) + 1)))

    p = ev.pass_ev.iloc[0]
    out += ["", "EV(pass), ± 95% half-width"]
    out.append(render_table(
        ["method", "net", "own"],
        [[f"{m} ({METHOD_NAMES[m]})",
          _pm(p[f"ev{m}_net"], p[f"ev{m}_net_lo"], p[f"ev{m}_net_hi"]),
          _pm(p[f"ev{m}_own"], p[f"ev{m}_own_lo"], p[f"ev{m}_own_hi"])] for m in (1, 2)],
        "lrr"))

    out += ["", f"Best alternatives, method {scoring}, net (same deals for all; "
                f"P(best) from their joint normal law)"]
    out.append(_ranking(ev, 2))
    out += ["", f"recommended: {ev.advice}{_reach(ev)}", DECISION_NOTE, MODEL_NOTE,
            "Own-only EVs and the points distribution: --json or --csv."]
    return "\n".join(out)


def _ranking(ev: HandEvaluation, digits: int) -> str:
    """The leading alternatives: EV, its CI, the paired gain over passing, P(best)."""
    def num(x):
        return _num(x, digits)

    return render_table(
        ["rank", "action", "EV", "95% CI", "vs pass (paired)", "P(best)", "n"],
        [[k + 1, r["action"], num(r["ev"]), f"[{num(r['ev_lo'])}, {num(r['ev_hi'])}]",
          "-" if r["action"] == "pass" else f"{r['gain']:+.{digits}f} ± "
          f"{num((r['gain_hi'] - r['gain_lo']) / 2)}",
          f"{100 * r['p_best']:.1f}%", int(r["n"])] for k, r in ev.actions.iterrows()],
        "rlrrrrr")


ROOK_MODEL_NOTE = (
    "Per trump: the seat declares at b with nobody else bidding and calls that trump; "
    "EV(b) is the settlement (B if B >= b, else -b; the opponents score theirs). Bid up to b: "
    "the seat raises by the minimum while that stays at most b, the others bid by their "
    "policies and may outbid it, and as declarer it calls trump by its policy after the widow "
    "and the pass (analyzer/games/rook/evaluate.py).")


def render_rook_hand(ev: HandEvaluation) -> str:
    """A Rook evaluation as aligned text: points per trump, P(points >= b) and EV(b) per
    trump every 10 points, EV(bid up to b) with the auction, EV(pass) and the ranking."""
    trumps = _trumps(ev)
    total = int(ev.distribution.columns[-1])
    out = [header(ev), f"stop rule: {STOPPED.get(ev.stopped_by, ev.stopped_by)}", ""]
    out.append(f"The side's points (of {total}) when {ev.seat} declares and calls the trump, "
               f"mean ± 95% CI; bid up to = highest b whose EV as declarer beats passing")
    out.append(render_table(
        ["trump", "points", "bid up to"],
        [[r["trump"], _pm(r["points"], r["points_lo"], r["points_hi"], 1), int(r["bid_up_to"])]
         for _, r in ev.points.iterrows()], "lrr"))
    shown = ev.bids[ev.bids["bid"] % 10 == 0]  # every other bid keeps the table readable
    view = HandEvaluation(**{**ev.__dict__, "bids": shown})
    out += ["", "P(points ≥ b) as declarer, % with 95% Wilson interval (every 10; all in --csv)"]
    out.append(render_table(
        ["bid", *trumps],
        _by_bid(view, lambda r: _pct(r["p_make"], r["p_make_lo"], r["p_make_hi"])),
        "r" * (len(trumps) + 1)))
    out += ["", "EV(b) as declarer, net = own − opponents, ± 95% half-width"]
    out.append(render_table(
        ["bid", *trumps],
        _by_bid(view, lambda r: _pm(r["ev_net"], r["ev_net_lo"], r["ev_net_hi"], 1)),
        "r" * (len(trumps) + 1)))
    out += ["", "Bid up to b, the auction included: P(the seat declares) and EV, net"]
    out.append(render_table(
        ["up to", "P(declares) %", "EV net", "EV own"],
        [[int(r["bid"]), _pct(r["p_declarer"], r["p_declarer_lo"], r["p_declarer_hi"]),
          _pm(r["ev_net"], r["ev_net_lo"], r["ev_net_hi"], 1),
          _pm(r["ev_own"], r["ev_own_lo"], r["ev_own_hi"], 1)]
         for _, r in ev.ceilings.iterrows() if r["bid"] % 10 == 0 or r["bid"] == 75],
        "rrrr"))
    p = ev.pass_ev.iloc[0]
    out += ["", f"EV(pass): net {_pm(p['ev_net'], p['ev_net_lo'], p['ev_net_hi'], 1)}, "
                f"own {_pm(p['ev_own'], p['ev_own_lo'], p['ev_own_hi'], 1)}"]
    out += ["", "Best alternatives, net (same deals for all; P(best) from their joint normal "
                "law; equal EVs share it)"]
    out.append(_ranking(ev, 1))
    best_trump = ev.points.loc[ev.points["points"].idxmax(), "trump"]
    out += ["", f"recommended: {ev.advice} (best trump as declarer: {best_trump})",
            DECISION_NOTE, ROOK_MODEL_NOTE,
            "Every bid, own-only EVs and the points distribution: --json or --csv."]
    return "\n".join(out)


def _reach(ev: HandEvaluation) -> str:
    """How far the recommended trump carries beyond the noise, the figure a bidder needs."""
    if ev.decision is None or ev.decision.index == 0:
        return ""
    trump = ev.recommended.rsplit(" ", 1)[-1]  # "bid 7 naming spades"
    up_to = ev.points.set_index("trump").loc[trump, "bid_up_to"]
    return f"; naming {trump} beats passing beyond the noise up to a bid of {int(up_to)}"


def _records(df: pd.DataFrame) -> list[dict]:
    """Rows as dicts of plain Python values; NaN (an unknown error at n=1) becomes null."""
    return [{k: (None if isinstance(v, float) and math.isnan(v) else v) for k, v in r.items()}
            for r in df.to_dict(orient="records")]


def provenance(ev: HandEvaluation) -> dict:
    return {**ev.provenance, "bidlab_version": __version__}


def hand_document(ev: HandEvaluation) -> dict:
    """Provenance, the recommendation and every table as lists of records."""
    return {
        "provenance": provenance(ev),
        "recommended": ev.recommended,
        "advice": ev.advice,
        "decision_rule": DECISION_NOTE,
        "model": MODEL_NOTE,
        "points": _records(ev.points),
        "distribution": _records(ev.distribution),
        "bids": _records(ev.bids),
        "pass_ev": _records(ev.pass_ev),
        "actions": _records(ev.actions),
        **({"ceilings": _records(ev.ceilings), "model": ROOK_MODEL_NOTE}
           if ev.ceilings is not None else {}),
    }


def hand_json(ev: HandEvaluation) -> str:
    """:func:`hand_document` as strict JSON (no NaN)."""
    return json.dumps(hand_document(ev), indent=2, allow_nan=False)


def hand_csv(ev: HandEvaluation) -> str:
    """The bids table as CSV, each row led by the provenance columns."""
    prov = {k: v for k, v in provenance(ev).items() if k not in ev.bids.columns}
    df = pd.concat([pd.DataFrame([prov] * len(ev.bids)), ev.bids.reset_index(drop=True)], axis=1)
    return df.to_csv(index=False, lineterminator="\n")
