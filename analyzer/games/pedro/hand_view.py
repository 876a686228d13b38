"""A Pedro/Cinch hand evaluation as aligned text: points per trump, P(points >= b), EV by
bid and trump under both settlement methods, EV(pass), the ranking and the advice. May
import: the generic hand view, this game's rules.

May import: the foundations, the generic analyses and views, ``games.common`` and
``games.protocol``, and Pedro's own modules; never another game.
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
from .rules import parse_rules

METHOD_NAMES = {1: "set-back", 2: "difference"}


MODEL_NOTE = ("EV(bid b): the seat bids b in its turn (passing if b is no longer legal), the "
              "others bid by their policies and may outbid it, and it names the trump if it "
              "wins; the dealer, who bids last and sees the high bid, bids the lowest legal "
              "amount when that is at most b (bid up to b); EV(pass): the seat passes. "
              "P(points >= b) is for the seat as sole bidder "
              "(analyzer/games/pedro/evaluate.py).")


def bid_verb(seat: str) -> str:
    """How a bid of b reads at ``seat``: "bid up to" at the dealer, who bids last and sees
    the high bid, so takes the lowest legal bid when that is at most b (the engine's
    forced bid); "bid" elsewhere.

    >>> bid_verb("dealer"), bid_verb("eldest")
    ('bid up to', 'bid')
    """
    return "bid up to" if seat == "dealer" else "bid"


def render_hand(ev: HandEvaluation) -> str:
    """Every table of ``ev`` as aligned text.

    Net EVs (own − opponents) are shown for both methods; own-only EVs are in
    :func:`hand_document` and :func:`hand_csv`.
    """
    trumps = _trumps(ev)
    scoring = parse_rules(ev.rules).scoring  # the method the ranking and beats_passing_to use
    out = [header(ev), f"stop rule: {STOPPED.get(ev.stopped_by, ev.stopped_by)}", ""]

    out.append(f"The side's points (of 14) when {ev.seat} names trump, mean ± 95% CI; "
               f"beats passing to = highest bid whose EV (method {scoring}, net) beats "
               f"passing beyond the noise, 0 = none (how far a bid still pays, not the "
               f"advice: that is the bid the ranking below picks)")
    out.append(render_table(
        ["trump", "points", "beats passing to"],
        [[r["trump"], _pm(r["points"], r["points_lo"], r["points_hi"]), int(r["beats_passing_to"])]
         for _, r in ev.points.iterrows()], "lrr"))

    out += ["", "P(points ≥ b), % with 95% Wilson interval"]
    out.append(render_table(
        ["bid", *trumps],
        _by_bid(ev, lambda r: _pct(r["p_make"], r["p_make_lo"], r["p_make_hi"])),
        "r" * (len(trumps) + 1)))

    # Net of a made bid is B − O and of a set −b − O under both methods unless method 2
    # gives the difference to the bidder only; one table then says it for both.
    same = ev.bids["ev1_net"].equals(ev.bids["ev2_net"])
    verb = bid_verb(ev.seat)
    for m in (1,) if same else (1, 2):
        which = ("methods 1 and 2 (the same under these rules: B − O if made, −b − O if set)"
                 if same else f"method {m} ({METHOD_NAMES[m]})")
        out += ["", f"EV({verb} b naming trump), net = own − opponents, ± 95% half-width, "
                    f"{which}"]
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
                f"P(best) from their joint normal law, each action on its own; actions "
                f"alike on every deal count as one)"]
    out.append(_ranking(ev, 2))
    out += ["", f"recommended: {ev.advice}{reach_clause(ev)}", DECISION_NOTE, MODEL_NOTE,
            "Own-only EVs: --json or --csv (the bids table); the points distribution: "
            "--json."]
    return "\n".join(out)


def reach_clause(ev: HandEvaluation) -> str:
    """How far the recommended trump carries beyond the noise, the figure a bidder needs."""
    if ev.decision is None or ev.decision.index == 0:
        return ""
    trump = ev.recommended.rsplit(" ", 1)[-1]  # "bid 7 naming spades", "bid up to 7 .."
    up_to = ev.points.set_index("trump").loc[trump, "beats_passing_to"]
    return f"; naming {trump} beats passing beyond the noise up to a bid of {int(up_to)}"

