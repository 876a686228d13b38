"""What a report reads off a game's rows: make rate and EV by bid level, each seat
position's share of the contracts and its side's result, and whole games' winners and
lengths. Generic: the game says which columns to read (:class:`~.protocol.Game`).

Seat positions count from the dealer clockwise: "eldest" (dealer + 1, who bids first),
"second" (dealer + 2), "third" (dealer + 3), "dealer": the names of ``bidlab hand
--seat``. Partners sit two apart, so positions 1 and 3, and 2 and 4, share a team's
score; the table shows all four because who names trump differs.

>>> import pandas as pd
>>> rows = pd.DataFrame({"bid": [5, 5, 6, 0], "made": [1, 0, 1, 0],
...                      "ev": [7.0, -5.0, 8.0, 3.0]})
>>> bid_levels(rows, "bid", "made", "ev")[["bid", "n", "made"]].to_dict("list")
{'bid': [5, 6], 'n': [2, 1], 'made': [1, 1]}

May import: numpy, pandas and :mod:`analyzer.stats`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..stats import mean_ci, wilson

POSITIONS = ("eldest (dealer + 1)", "second (dealer + 2)", "third (dealer + 3)", "dealer")


def _rate(k: int, n: int) -> dict:
    p = wilson(k, n) if n else None
    return {"rate": p.p if p else np.nan, "rate_lo": p.lo if p else np.nan,
            "rate_hi": p.hi if p else np.nan}


def _mean(values, name: str, se: bool = False) -> dict:
    """The mean's columns: ``name``, its interval's ends, and with ``se`` its standard error."""
    values = np.asarray(values, dtype=np.float64)
    if len(values) < 2:
        return {name: values.mean() if len(values) else np.nan, f"{name}_lo": np.nan,
                f"{name}_hi": np.nan, **({f"{name}_se": np.nan} if se else {})}
    e = mean_ci(values)
    return {name: e.mean, f"{name}_lo": e.lo, f"{name}_hi": e.hi,
            **({f"{name}_se": e.se} if se else {})}


def bid_levels(df: pd.DataFrame, bid: str, made: str, settlement: str) -> pd.DataFrame:
    """Per bid level of the contract rows (bid > 0): n, contracts made, the make rate
    (Wilson 95%) and the bidding side's mean settlement (EV, normal 95%)."""
    rows = []
    contract = df[df[bid] > 0]
    for b, g in contract.groupby(bid, sort=True):
        k = int((g[made] == 1).sum())
        rows.append({"bid": int(b), "n": len(g), "made": k, **_rate(k, len(g)),
                     **_mean(g[settlement], "ev")})
    return pd.DataFrame(rows, columns=["bid", "n", "made", "rate", "rate_lo", "rate_hi", "ev",
                                       "ev_lo", "ev_hi"])


def seat_positions(df: pd.DataFrame, maker: str, bid: str, made: str, team_scores) -> pd.DataFrame:
    """Per seat position from the dealer: how often it named trump (share of all rows), its
    make rate when it bid, and its team's settlement minus the other team's per row."""
    dealer = df["dealer"].to_numpy()
    who = df[maker].to_numpy()
    contract = df[bid].to_numpy() > 0
    won = df[made].to_numpy() == 1
    s0, s1 = (df[c].to_numpy(dtype=np.float64) for c in team_scores)
    rows = []
    for p, name in enumerate(POSITIONS):
        seat = (dealer + p + 1) % 4
        named = who == seat
        bids = named & contract
        diff = np.where(seat % 2 == 0, s0 - s1, s1 - s0)
        share = _rate(int(named.sum()), len(df))
        make = _rate(int((bids & won).sum()), int(bids.sum()))
        rows.append({"position": name, "n": len(df), "named_trump": int(named.sum()),
                     "share": share["rate"], "share_lo": share["rate_lo"],
                     "share_hi": share["rate_hi"], "contracts": int(bids.sum()),
                     "make_rate": make["rate"], "make_lo": make["rate_lo"],
                     "make_hi": make["rate_hi"], **_mean(diff, "advantage")})
    return pd.DataFrame(rows)


def whole_games(winner: np.ndarray, deals: np.ndarray, scores: np.ndarray,
                sides: tuple[str, ...]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(per side: win share, final score; per length: games that took that many deals).

    ``winner`` is each game's winning side, -1 undecided, -2 a tie at the top; ``scores``
    one column per side. A tie shares the win among the tied sides (King), so the win
    shares of the decided games add up to one. Both are of the n decided games: ``wins``
    (Wilson's interval, as every rate: a normal one read 2.5% [-2.4%, 7.4%] for 1 win in
    40) and the final score (``score_se`` too, for an interval held for all sides)."""
    scores = np.asarray(scores, dtype=np.float64)
    decided = winner != -1
    top = scores.max(axis=1, keepdims=True)
    at_top = scores == top
    share = np.where(at_top, 1.0 / at_top.sum(axis=1, keepdims=True), 0.0)
    rows = []
    for s, name in enumerate(sides):
        won = np.where(winner[decided] >= 0, winner[decided] == s, share[decided, s])
        final = scores[decided, s]
        win = wilson(float(won.sum()), len(won)) if len(won) else None
        rows.append({"side": name, "n": int(decided.sum()),
                     "wins": float(won.sum()), "win": win.p if win else np.nan,
                     "win_lo": win.lo if win else np.nan, "win_hi": win.hi if win else np.nan,
                     **_mean(final, "score", se=True),
                     "score_p10": float(np.percentile(final, 10)) if len(final) else np.nan,
                     "score_median": float(np.median(final)) if len(final) else np.nan,
                     "score_p90": float(np.percentile(final, 90)) if len(final) else np.nan})
    lengths, counts = np.unique(deals, return_counts=True)
    return pd.DataFrame(rows), pd.DataFrame({"deals": lengths, "games": counts})


FIRST_DEALER_WINS = "first dealer's team wins"  # a game's measure: who won, as compare reads it


def game_measures(df: pd.DataFrame, side: str, deal_unit: str, max_deals: int,
                  teams_differ: bool = True) -> dict[str, np.ndarray]:
    """Per whole game to the target (rows of ``simulate_games``), what ``bidlab compare
    --games`` pairs between two variants: whether ``side`` (team 0) won, where the teams
    play otherwise (with the same players, which team wins differs by chance alone, and
    the first dealer's side is the measure of position), and whether the first dealer's
    team won (NaN where the game was not decided), how many deals it lasted, and whether it
    was still undecided after ``max_deals``.

    >>> games = pd.DataFrame({"winner": [0, 1, -1], "first_dealer": [0, 1, 2],
    ...                       "deals": [7, 9, 20]})
    >>> {k: v.tolist() for k, v in game_measures(games, "team 0", "deals", 20).items()}
    ... # doctest: +NORMALIZE_WHITESPACE
    {'team 0 wins': [1.0, 0.0, nan], "first dealer's team wins": [1.0, 1.0, nan],
     'deals per game': [7.0, 9.0, 20.0], 'undecided after 20 deals': [0.0, 0.0, 1.0]}
    >>> list(game_measures(games, "team 0", "deals", 20, teams_differ=False))[0]
    "first dealer's team wins"
    """
    winner = df["winner"].to_numpy()
    decided = winner >= 0
    first_team = df["first_dealer"].to_numpy() % 2
    sides = {f"{side} wins": np.where(decided, (winner == 0).astype(float), np.nan)}
    return {**(sides if teams_differ else {}),
            FIRST_DEALER_WINS: np.where(decided, (winner == first_team).astype(float), np.nan),
            f"{deal_unit} per game": df["deals"].to_numpy(dtype=np.float64),
            f"undecided after {max_deals:,} {deal_unit}": (~decided).astype(float)}


def game_bounds(side: str, deal_unit: str, max_deals: int) -> dict[str, tuple[float, float]]:
    """The range of each of :func:`game_measures`: a share 0 .. 1, a length 1 .. max_deals."""
    share = (0.0, 1.0)
    return {f"{side} wins": share, FIRST_DEALER_WINS: share,
            f"{deal_unit} per game": (1.0, float(max_deals)),
            f"undecided after {max_deals:,} {deal_unit}": share}
