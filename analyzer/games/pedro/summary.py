"""What a Pedro/Cinch simulation says (``bidlab simulate``), and the measures ``bidlab
compare`` pairs between two variants; each figure with its n and 95% interval.

The *bidding side* is the team of the seat that named trump: the high bidder, or the
dealer on a deal where all passed and nobody holds a contract. May import: the generic
summary, stats, games.common (the team measure).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...summary import _RATE_COLS, Section, Summary, _dealer_sign, _Estimates, _frame, _provenance
from ..common import TEAM_MARGIN, teams_differ

POINTS = (0.0, 14.0)  # a side's points in a deal
SCORE = (-28.0, 28.0)  # a side's settlement less the other's: a set bid of 14, their 14


def summarize(df: pd.DataFrame) -> Summary:
    """A per-deal frame of :func:`analyzer.games.pedro.simulate`: the bidding side's
    points, make rates by bid, shares and the dealer's advantage."""
    if len(df) == 0:
        raise ValueError("cannot summarize an empty simulation (0 deals)")
    e = _Estimates()
    points = e.means({
        "bidding side (named trump)": ("points_bidding_side", df["bid_points"]),
        "other side": ("points_other_side", df["opp_points"]),
        "team 0 (seats 0, 2)": ("points_team0", df["points0"]),
        "team 1 (seats 1, 3)": ("points_team1", df["points1"]),
        "dead (scored by nobody)": ("dead_points", df["dead_points"]),
    }, POINTS)

    bid = df["bid"].to_numpy()
    contract = bid > 0
    contracts = e.make_rates(bid, df["made"].to_numpy(), contract)

    n = len(df)
    dealer_team = df["dealer"].to_numpy() & 1
    maker_team = df["maker"].to_numpy() & 1
    shares = _frame(
        {
            "no contract (all passed)": e.rate("no_contract", int((~contract).sum()), n),
            "dealer's side named trump": e.rate("dealer_named_trump",
                                                int((maker_team == dealer_team).sum()), n),
        },
        _RATE_COLS,
    )

    # Made or set, the *difference* between the teams is the same under method 1 and
    # method 2 with m2_diff_to=side_with_more (only the level differs), hence the note.
    sign = _dealer_sign(df)
    adv = {m: sign * (df[f"score{m}_team0"].to_numpy(np.float64)
                      - df[f"score{m}_team1"].to_numpy(np.float64)) for m in (1, 2)}
    dealer = e.means({f"method {m}": (f"dealer_advantage{m}", adv[m]) for m in (1, 2)}, SCORE)
    agree = bool(np.array_equal(adv[1], adv[2]))
    note = ("  (under these rules the two methods give the same difference on every deal)"
            if agree else None)
    sections = [
        Section("points", "Points per deal", points, "mean"),
        Section("contracts", "Bidder makes the contract (contract deals only)", contracts,
                "rate"),
        Section("shares", "Shares of all deals", shares, "rate"),
        Section("dealer", "Dealer advantage: dealer's team settlement minus the other team's, "
                "per deal", dealer, "mean", note),
    ]
    return Summary(_provenance(df), sections, e.est, methods_agree=agree, stats=e.stats,
                   spans=e.spans)


def compare_measures(df: pd.DataFrame, rules) -> dict[str, np.ndarray]:
    """Per-deal quantities; NaN where a measure does not apply to a deal."""
    method = rules.scoring
    contract = df["bid"].to_numpy() > 0
    dealer_team = df["dealer"].to_numpy() & 1
    maker_team = df["maker"].to_numpy() & 1
    t0 = df[f"score{method}_team0"].to_numpy().astype(float)
    t1 = df[f"score{method}_team1"].to_numpy().astype(float)
    return {
        "bidding side's points": df["bid_points"].to_numpy().astype(float),
        # what a settlement rule changes (who scores method 2's difference) and the points
        # do not: the bidding side's settled score less the other side's
        "bidding side's net score (own method; contract deals)": np.where(
            contract, np.where(maker_team == 0, t0 - t1, t1 - t0), np.nan),
        # each side's own: what the scoring method changes though the net stays (method 2
        # pays the difference where method 1 pays both sides their points)
        "bidding side's own score (own method; contract deals)": np.where(
            contract, df[f"score{method}_bid"], np.nan),
        "other side's score (own method; contract deals)": np.where(
            contract, df[f"score{method}_opp"], np.nan),
        "bid (contract deals)": np.where(contract, df["bid"], np.nan),
        "bidder makes (contract deals)": np.where(contract, df["made"] == 1, np.nan),
        "no contract": (~contract).astype(float),
        "dealer's side names trump": ((df["maker"].to_numpy() & 1) == dealer_team).astype(float),
        "dealer's side's score less the other's (own method)": np.where(
            dealer_team == 0, t0 - t1, t1 - t0),
        "dead points": df["dead_points"].to_numpy().astype(float),
    } | team_margin(df, t0 - t1)


def team_margin(df: pd.DataFrame, margin: np.ndarray) -> dict[str, np.ndarray]:
    """Team 0's score less team 1's (``margin``), where the teams are played otherwise (a
    match of players: which one gains from the rule)."""
    return {TEAM_MARGIN: margin} if teams_differ(df.attrs.get("policy", "")) else {}


def compare_bounds(rules) -> dict[str, tuple[float, float]]:
    """Each compare measure's range: 14 points a deal; a side's settlement is at most its
    points, at least a set bid (14) less the other side's points; the other side's at most
    its points and the set bid (method 2); the rest are shares."""
    points, score, share = POINTS, SCORE, (0.0, 1.0)
    return {"bidding side's points": points,
            "bidding side's net score (own method; contract deals)": score,
            # own: its points, or a set bid lost; other: its points, and a set bid's value
            "bidding side's own score (own method; contract deals)": (-14.0, 14.0),
            "other side's score (own method; contract deals)": (0.0, 28.0),
            "bid (contract deals)": (0.0, 14.0), "bidder makes (contract deals)": share,
            "no contract": share, "dealer's side names trump": share,
            "dealer's side's score less the other's (own method)": score, "dead points": points,
            TEAM_MARGIN: score}
