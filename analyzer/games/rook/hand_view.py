"""A Rook hand evaluation as aligned text: points per trump as declarer, P(points >= b)
and EV(b) every ten points, EV of bidding up to b with the auction, EV(pass), the ranking
and the advice. May import: the generic hand view and the game's package (its rules and
names).
"""

from __future__ import annotations

from ...hand_view import (
    DECISION_NOTE,
    STOPPED,
    _by_bid,
    _pct,
    _pm,
    _ranking,
    _trumps,
    header,
)
from ...rollout import HandEvaluation
from ...text import render_table
from . import DIRECTIONS
from .rules import PASS_CYCLES, parse_rules

ROOK_MODEL_NOTE = (
    "Per trump: the seat declares at b with nobody else bidding and calls that trump; "
    "EV(b) is the settlement (B if B >= b, else -b; the opponents score theirs). Bid up to b: "
    "the seat raises by the minimum while that stays at most b, the others bid by their "
    "policies and may outbid it, and as declarer it calls trump by its policy after the widow "
    "and the pass (analyzer/games/rook/evaluate.py). bidlab's heuristic bidders raise by 5 "
    "while their valuation of the hand covers the bid: with them an auction ends at 105 or "
    "more in 99% of hands (100,000 hands, seed 3), so a ceiling below that rarely declares.")


def best_trump_clause(ev) -> str:
    """The trump the seat's side makes most with as declarer, as the advice ends with it
    (the ceilings' advice names no trump: its policy calls one after the widow)."""
    best_trump = ev.points.loc[ev.points["points"].idxmax(), "trump"]
    return f" (best trump as declarer: {best_trump})"


def passing_note(rules: str) -> str | None:
    """Which way the three cards go in the evaluated deals, where the rules' cycle has more
    than one direction (the deal's index picks it, so the figures average over them)."""
    cycle = parse_rules(rules).pass_cycle
    if len(PASS_CYCLES[cycle]) < 2:
        return None
    names = [DIRECTIONS[d] for d in PASS_CYCLES[cycle]]
    turns = ", ".join(names[:-1]) + " and " + names[-1]
    return (f"passing: {turns} in turn by the deal's index (pass_cycle={cycle}), so every "
            f"figure averages over them; --rule pass_cycle=left (or right, none) fixes one")


def render_hand(ev: HandEvaluation) -> str:
    """A Rook evaluation as aligned text: points per trump, P(points >= b) and EV(b) per
    trump every 10 points, EV(bid up to b) with the auction, EV(pass) and the ranking."""
    trumps = _trumps(ev)
    total = int(ev.distribution.columns[-1])
    out = [header(ev), f"stop rule: {STOPPED.get(ev.stopped_by, ev.stopped_by)}"]
    out += [note for note in [passing_note(ev.rules)] if note] + [""]
    out.append(f"The side's points (of {total}) when {ev.seat} declares and calls the trump, "
               f"mean ± 95% CI; declaring beats passing to = the highest b at which "
               f"declaring (nobody else bidding) beats passing beyond the noise, 0 = none "
               f"(not the advice, which ranks bidding up to b with the auction below)")
    out.append(render_table(
        ["trump", "points", "declaring beats passing to"],
        [[r["trump"], _pm(r["points"], r["points_lo"], r["points_hi"], 1),
          int(r["beats_passing_to"])] for _, r in ev.points.iterrows()], "lrr"))
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
    # every 10, and every ceiling the ranking below names, so its advice can be read here
    named = set(ev.actions["bid"].dropna().astype(int))
    out += ["", "Bid up to b, the auction included: P(the seat declares) and EV, net (every "
                "10, and the ceilings ranked below; all in --json)"]
    out.append(render_table(
        ["up to", "P(declares) %", "EV net", "EV own"],
        [[int(r["bid"]), _pct(r["p_declarer"], r["p_declarer_lo"], r["p_declarer_hi"]),
          _pm(r["ev_net"], r["ev_net_lo"], r["ev_net_hi"], 1),
          _pm(r["ev_own"], r["ev_own_lo"], r["ev_own_hi"], 1)]
         for _, r in ev.ceilings.iterrows()
         if r["bid"] % 10 == 0 or r["bid"] == 75 or int(r["bid"]) in named],
        "rrrr"))
    p = ev.pass_ev.iloc[0]
    out += ["", f"EV(pass): net {_pm(p['ev_net'], p['ev_net_lo'], p['ev_net_hi'], 1)}, "
                f"own {_pm(p['ev_own'], p['ev_own_lo'], p['ev_own_hi'], 1)}"]
    out += ["", "Best alternatives, net (same deals for all; P(best) from their joint normal "
                "law, each action on its own; actions alike on every deal count as one)"]
    out.append(_ranking(ev, 1))
    out += ["", f"recommended: {ev.advice}{best_trump_clause(ev)}",
            DECISION_NOTE + " Going up from passing, a higher ceiling (bid up to b) replaces "
            "the one recommended so far only when it beats it so; a ceiling that no higher "
            "one beats beyond the noise stays recommended, though a higher one may read a "
            f"little higher. Ceilings that play out alike on every deal (no seat ever bids "
            f"between them) count as one, named by the lowest: {ev.decision.compared} of "
            f"the {len(parse_rules(ev.provenance['rules']).bids)} here.", ROOK_MODEL_NOTE,
            "Every bid, own-only EVs, the ceilings and the points distribution: --json "
            "(--csv: the per-trump bids table)."]
    return "\n".join(out)

