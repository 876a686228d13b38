"""What every game's hand evaluation shows alike: the provenance line, the stop rule, the
ranking of alternatives with their paired gains over passing, one JSON document and CSV.

Every figure carries its 95% interval; every output carries the provenance (hand, seat,
rules, policy, seed, n and the rule that stopped the run). The tables are
:class:`analyzer.rollout.HandEvaluation`'s DataFrames; nothing is recomputed here. Each
game renders its own tables with these pieces (``analyzer/games/<game>/hand_view.py``).
May import: rollout, estimate_text, text, documents and :mod:`.games.common` (policy
labels).
"""

from __future__ import annotations

import math

import pandas as pd

from . import __version__
from .documents import dumps, records
from .estimate_text import interval_text, pct, visible_digits
from .games.common import policy_label
from .rollout import HandEvaluation
from .text import render_table

STOPPED = {"deals": "fixed count (--deals)", "target-ci": "target CI reached (--target-ci)",
           "time-budget": "time budget spent (--time-budget)",
           "max-deals": "deal limit reached (--max-deals)",
           "decided": "the recommendation is clear, 95% over the rule's looks (--until-decided)",
           "budget": "time budget split between N and n (--budget)"}
# the winner's curse: a statistician's audit measured the top row of 500 deals reading
# +0.11 above the chosen bid's true EV on a hand whose top rows were close (coverage 90%)
SELECTION_NOTE = ("The rows are ranked by these same deals: where the top ones are close "
                  "(P(best) under 95%), the first is the highest of several noisy estimates "
                  "and its EV tends to read a little high; each interval is for its action "
                  "as if chosen in advance. More deals shrink both.")
# the ranking's P(best) and the advice answer two questions at two levels of noise: a
# user read "P(best) 99.7%" on bid 7 beside the advice to bid 6 as a contradiction
RANK_NOTE = ("The first row, {first}, is not the advice: the ranking and P(best) take each "
             "action on its own, while the advice below holds all the bids compared to 95% "
             "together, and keeps {recommended} unless another action beats it beyond that "
             "noise.")
DECISION_NOTE = ("A bid is recommended over passing, or over a lower bid, only when its "
                 "paired gain (the same deals for every action) is above zero beyond the "
                 "noise: its lower bound, at 95% for all the bids compared together "
                 "(Bonferroni), on 30 deals or more (of a two-level estimate, 30 searched "
                 "deals: analyzer/advice.py).")


def _p_best(p: float) -> str:
    return "n/a" if math.isnan(p) else f"{100 * p:.1f}%"  # NaN: one deal tells nothing


def _num(x: float, digits: int = 2) -> str:
    return "n/a" if x is None or math.isnan(x) else f"{x:z.{digits}f}"  # z: no "-0.00"


def _pm(mean: float, lo: float, hi: float, digits: int = 2) -> str:
    """``mean ± half-width``, or ``mean [lo, hi]`` where the interval is not symmetric (held
    to what a deal can score), with digits enough to show it (:func:`interval_text`); the
    half-width is n/a when one deal leaves it unknown."""
    if math.isnan(hi - lo):
        return f"{_num(mean, digits)} ± n/a"
    return interval_text(mean, lo, hi, digits)


def _pct(p: float, lo: float, hi: float) -> str:
    """A rate and its interval in per cent under a "%" header: "0.0 [0.0, 0.0]" read as
    certain (:func:`analyzer.estimate_text.pct`)."""
    return pct(p, lo, hi, unit="")


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
    line = (f"hand {ev.hand} | seat {ev.seat}{known} | rules {ev.rules} | "
            f"policy {policy_label(ev.policy)} | "
            f"seed {ev.seed} | n {ev.n:,} | stopped by {ev.stopped_by}")
    if ev.base_policy is None:
        return line
    return (f"{line}\nestimator: {ev.estimator}: {policy_label(ev.base_policy)} on "
            f"N = {ev.n_base:,} deals, plus the correction ({ev.policy} minus it) fitted on "
            f"the first n = {ev.n:,} of them. The net EVs under the rules' "
            f"method, the ranking and the advice are these; the other figures are "
            f"{ev.policy}'s own over its n deals.")


def _ranking(ev: HandEvaluation, digits: int) -> str:
    """The leading alternatives: EV, its CI, the paired gain over passing, P(best); and
    where the top rows are close, why the first one's EV reads a little high."""
    two_level = "correction" in ev.actions.columns
    notes = [SELECTION_NOTE] if ev.actions["p_best"].iloc[0] < 0.95 else []
    first = ev.actions["action"].iloc[0]
    ranked = set(ev.actions["action"])
    if ev.decision is not None and ev.recommended in ranked and first != ev.recommended:
        notes.append(RANK_NOTE.format(first=first, recommended=ev.recommended))
    return "\n".join([_table_ranked(ev, digits, two_level), *notes])


def _gain(mean: float, lo: float, hi: float, digits: int) -> str:
    """``+m ± hw``, signed, with the digits that keep a narrow interval visible: a gain of
    "+0.00 ± 0.00" would read as certain where the advice says 0.000 ± 0.004."""
    d = visible_digits(mean, lo, hi, digits)
    return f"{mean:+z.{d}f} ± {_num((hi - lo) / 2, d)}"


def _table_ranked(ev: HandEvaluation, digits: int, two_level: bool) -> str:
    def num(x):
        return _num(x, digits)

    return render_table(
        ["rank", "action", "EV", "95% CI", "vs pass (paired 95%, one comparison)", "P(best)",
         "n",
         *(["cheap (N)", "correction (n)", "n paired"] if two_level else [])],
        [[k + 1, r["action"], num(r["ev"]), f"[{num(r['ev_lo'])}, {num(r['ev_hi'])}]",
          "-" if r["action"] == "pass" else _gain(r["gain"], r["gain_lo"], r["gain_hi"], digits),
          _p_best(r["p_best"]), int(r["n"]),
          *([_pm(r["base"], r["base_lo"], r["base_hi"], digits),
             _gain(r["correction"], r["correction_lo"], r["correction_hi"], digits),
             int(r["n_paired"])]
            if two_level else [])]
         for k, r in ev.actions.iterrows()],
        "rlrrrrr" + ("rrr" if two_level else ""))


def provenance(ev: HandEvaluation) -> dict:
    return {**ev.provenance, "bidlab_version": __version__}


def hand_document(ev: HandEvaluation, model: str, reach: str = "") -> dict:
    """Provenance, the recommendation, ``model`` (what the numbers assume, in a sentence)
    and every table as lists of records; ``reach`` ends the advice as the text's does."""
    return {
        "provenance": provenance(ev),
        "recommended": ev.recommended,
        "advice": ev.advice + reach,
        "decision_rule": DECISION_NOTE,
        "model": model,
        "points": records(ev.points),
        "distribution": records(ev.distribution),
        "bids": records(ev.bids),
        "pass_ev": records(ev.pass_ev),
        "actions": records(ev.actions),
        **({"ceilings": records(ev.ceilings)} if ev.ceilings is not None else {}),
    }


def hand_json(ev: HandEvaluation, model: str, reach: str = "") -> str:
    """:func:`hand_document` as strict JSON (no NaN)."""
    return dumps(hand_document(ev, model, reach))


def hand_csv(ev: HandEvaluation) -> str:
    """The bids table as CSV, each row led by the provenance columns."""
    prov = {k: v for k, v in provenance(ev).items() if k not in ev.bids.columns}
    df = pd.concat([pd.DataFrame([prov] * len(ev.bids)), ev.bids.reset_index(drop=True)], axis=1)
    return df.to_csv(index=False, lineterminator="\n")
