"""What a Rook simulation says (``bidlab simulate``), and the measures ``bidlab compare``
pairs between two variants; each figure with its n and 95% interval.

The *declaring side* is the declarer's team; every hand has a declarer (the dealer is
forced at 70 when the first three pass). May import: the generic summary, stats, cards,
games.common (the team measure), this game's rules.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...cards import JOKER
from ...summary import _RATE_COLS, Section, Summary, _dealer_sign, _Estimates, _frame, _provenance
from ..common import TEAM_MARGIN, teams_differ
from .rules import POINT_SCHEMES, PRESETS, parse_rules


def _rook_rules(df: pd.DataFrame):
    """The Rook rules of a frame, from its ``rules`` attribute (the preset when absent)."""
    text = df.attrs.get("rules")
    return PRESETS["rook"] if text is None else parse_rules(str(text))


def rook_card_points(rules) -> np.ndarray:
    """Points of every card index 0..63 under Rook ``rules`` (a Rules object or its string).

    Index ``16 * suit + rank`` with rank 0..12 for 2..A; 63 is the Rook. Ranks a
    scheme removes from the deck score 0 here as they do in play.
    """
    if isinstance(rules, str):
        rules = parse_rules(rules)
    ranks, rook, _last, _low = POINT_SCHEMES[rules.points]
    pts = np.zeros(64, dtype=np.int64)
    for s in range(4):
        pts[16 * s:16 * s + 13] = ranks
    pts[JOKER] = rook
    return pts


def summarize(df: pd.DataFrame) -> Summary:
    """A per-hand frame of :func:`analyzer.games.rook.simulate`: the declaring side's
    points, make rates by bid, shares and the dealer's advantage."""
    if len(df) == 0:
        raise ValueError("cannot summarize an empty simulation (0 hands)")
    e = _Estimates()
    total = float(_rook_rules(df).total_points)  # a side's points in a hand
    points = e.means({
        "declaring side": ("points_declaring_side", df["bid_points"]),
        "other side": ("points_other_side", df["opp_points"]),
        "team 0 (seats 0, 2)": ("points_team0", df["points0"]),
        "team 1 (seats 1, 3)": ("points_team1", df["points1"]),
    }, (0.0, total))

    bid = df["bid"].to_numpy()
    contracts = e.make_rates(bid, df["made"].to_numpy(), np.ones(len(df), dtype=bool),
                             overall="all hands")

    n = len(df)
    dealer_team = df["dealer"].to_numpy() & 1
    declarer_team = df["declarer"].to_numpy() & 1
    rules = _rook_rules(df)
    widow_points = rook_card_points(rules)[df["widow"].to_numpy() & 63]
    srows = {
        "dealer forced at 70 (three passes)": e.rate(
            "dealer_forced", int((df["forced"].to_numpy() != 0).sum()), n),
        "dealer's side declared": e.rate(
            "dealer_declared", int((declarer_team == dealer_team).sum()), n),
        "widow card is a counter": e.rate("widow_counter", int((widow_points > 0).sum()), n),
    }
    if rules.all_pass == "redeal":
        srows["thrown in at least once (all four passed)"] = e.rate(
            "redealt", int((df["redeals"].to_numpy() > 0).sum()), n)
    shares = _frame(srows, _RATE_COLS)

    adv = _dealer_sign(df) * (df["score0"].to_numpy(np.float64)
                              - df["score1"].to_numpy(np.float64))
    dealer = e.means({"score": ("dealer_advantage", adv)}, (-2 * total, 2 * total))
    sections = [
        Section("points", "Points per hand", points, "mean"),
        Section("contracts", "Declarer makes the bid (all hands)", contracts, "rate"),
        Section("shares", "Shares of all hands", shares, "rate"),
        Section("dealer", "Dealer advantage: dealer's team score minus the other team's, "
                "per hand", dealer, "mean"),
    ]
    return Summary(_provenance(df), sections, e.est, unit="hands", stats=e.stats,
                   spans=e.spans)


SHARE = "declaring side's share of the hand's points"


def compare_measures(df: pd.DataFrame, rules=None, pair=None) -> dict[str, np.ndarray]:
    """Per-hand Rook quantities (every hand has a declarer and a bid); where the ``pair``
    compared count the hand's points otherwise (``points=parker_adapt``), the declaring
    side's share of them too: raw points of a 200- and a 120-point hand say little."""
    dealer_team = df["dealer"].to_numpy() & 1
    t0 = df["score0"].to_numpy().astype(float)
    t1 = df["score1"].to_numpy().astype(float)
    out = {
        "declaring side's points": df["bid_points"].to_numpy().astype(float),
        "bid": df["bid"].to_numpy().astype(float),
        "declarer makes": (df["made"] == 1).to_numpy().astype(float),
        "dealer forced at 70": df["forced"].to_numpy().astype(float),
        "dealer's side declares": ((df["declarer"].to_numpy() & 1) == dealer_team)
        .astype(float),
        "dealer's side's score less the other's": np.where(dealer_team == 0, t0 - t1, t1 - t0),
        "declarer's score": df["score_bid"].to_numpy().astype(float),
        # what opp_scores changes: the declarer's score alone does not show it
        "defenders' score": df["score_opp"].to_numpy().astype(float),
    }
    if teams_differ(df.attrs.get("policy", "")):  # a match of players: which gains
        out[TEAM_MARGIN] = t0 - t1
    if pair is not None and len({r.total_points for r in pair}) > 1:
        out[SHARE] = out["declaring side's points"] / rules.total_points
    return out


def compare_bounds(rules) -> dict[str, tuple[float, float]]:
    """Each compare measure's range: the hand's points (200 by default) and bids up to them;
    a side's score is at most the points, at least a set bid; the rest are shares."""
    total = float(rules.total_points)
    share = (0.0, 1.0)
    return {"declaring side's points": (0.0, total), "bid": (0.0, total),
            "declarer makes": share, "dealer forced at 70": share,
            "dealer's side declares": share,
            "dealer's side's score less the other's": (-2 * total, 2 * total),
            "declarer's score": (-total, total), "defenders' score": (0.0, total),
            SHARE: share, TEAM_MARGIN: (-2 * total, 2 * total)}
