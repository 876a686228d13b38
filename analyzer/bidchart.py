"""Bid-value charts: what bidding b is worth for each class of hand players recognise.

How the auction is modelled: every deal is played out in full by the policy,
auction included, and the hand classified is the one of the seat that named
trump (the winning bidder, or the dealer when all passed), in the suit it
named. For each class the chart asks, of the deals where such a hand named
trump: had the contract been b, how often would the side have made it and what
would the settlement have been (RULES.md §1.9, net of the opponents' score)?
The play does not depend on the bid, so one set of deals answers every b.
Hands that lose the auction are not classified, so a class describes hands
*that win the bid* under this policy; passing is not simulated per class.

Rook works the same way: the classified hand is the declarer's 13 dealt cards
(before the widow and the pass) in the trump it called, settled by RULES.md
§4.9 for every bid 70..200.

Pedro/Cinch features (all about the trump suit the seat named):

=========  ====================================================
trumps     trumps held, counting the Left Pedro (<=2, 3, 4, 5, 6+)
counters   how many of the six counting cards (A J 10 2 5 5')
pedros     how many Pedros (0, 1, 2)
ace, king, queen, jack, ten, two, right, left   holds that trump
seat       seat relative to the dealer (dealer, eldest, second, third)
dealer     the seat is the dealer (it robs the stock)
=========  ====================================================

Rook features:

=========  ====================================================
trumps     cards of the called suit held, the Rook included (<=4, 5, 6, 7, 8+)
counters   counter points held (<=25, 30-45, 50-65, 70+)
aces       aces held (0, 1, 2, 3+)
rook       holds the Rook
seat, dealer   as for Pedro
=========  ====================================================

>>> chart = bid_chart("pedro", deals=200_000)              # doctest: +SKIP
>>> chart.classes.head()                                   # doctest: +SKIP
>>> analyzer.plotting.bid_heatmap(chart.table, chart.classes)   # doctest: +SKIP
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from .evaluate import settle
from .evaluate_rook import settle as rook_settle
from .games import family
from .games.common import SEATS
from .stats import Z95, wilson

# Ranks in a suit lane of the shared layout (rank 2 at bit 0).
_RANK_BIT = {"two": 0, "right": 3, "ten": 8, "jack": 9, "queen": 10, "king": 11, "ace": 12}
FEATURES = ("trumps", "counters", "pedros", "ace", "king", "queen", "jack", "ten", "two",
            "right", "left", "seat", "dealer")
DEFAULT_BY = ("trumps", "pedros", "ace", "dealer")
ROOK_FEATURES = ("trumps", "counters", "aces", "rook", "seat", "dealer")
ROOK_DEFAULT_BY = ("trumps", "counters", "rook")
RARE_HALF_WIDTH = 1.0 / 14  # too wide to read: EV interval at the ceiling (or lowest bid)
RARE_MIN_N = 100  # over ±1/14 of the points in a deal (±1 in Pedro, ±14 in Rook), or n < 100


class ChartError(ValueError):
    """Bad bid-chart options, such as an unknown feature."""


def _seat_features(out: dict, maker: np.ndarray, df: pd.DataFrame) -> None:
    offset = (maker - df["dealer"].to_numpy()) % 4
    out["seat"] = pd.Categorical(np.array(SEATS)[offset], categories=SEATS, ordered=True)
    out["dealer"] = offset == 0


def _binned(values: np.ndarray, edges: list[int], labels: list[str]) -> pd.Categorical:
    """``labels[k]`` for values below ``edges[k]`` (the last label: everything above)."""
    return pd.Categorical(np.array(labels)[np.searchsorted(edges, values, side="right")],
                          categories=labels, ordered=True)


def rook_hand_features(df: pd.DataFrame) -> pd.DataFrame:
    """Features of the Rook declarer's dealt hand in the trump it called, one row per hand."""
    from .games.rook_rules import POINT_SCHEMES, parse_rules

    rules = parse_rules(df.attrs.get("rules", "rook"))
    maker = df["declarer"].to_numpy().astype(np.int64)
    hands = np.stack([df[f"hand{s}"].to_numpy() for s in range(4)], axis=1).astype(np.uint64)
    hand = hands[np.arange(len(df)), maker]
    trump = df["trump"].to_numpy().astype(np.uint64)
    has_rook = (hand >> np.uint64(63)).astype(bool)
    lane = np.where(trump < 4, (hand >> (np.uint64(16) * (trump % np.uint64(4))))
                    & np.uint64(0x1FFF), np.uint64(0))
    n_trumps = np.bitwise_count(lane).astype(np.int64) + has_rook
    ranks, rook_pts, _, _ = POINT_SCHEMES[rules.points]
    points = has_rook * rook_pts
    aces = np.zeros(len(df), dtype=np.int64)
    for s in range(4):
        suit = hand >> np.uint64(16 * s)
        aces += ((suit >> np.uint64(12)) & np.uint64(1)).astype(np.int64)
        for r, p in enumerate(ranks):
            if p:
                points = points + p * ((suit >> np.uint64(r)) & np.uint64(1)).astype(np.int64)
    out = {
        "trumps": _binned(n_trumps, [5, 6, 7, 8], ["<=4", "5", "6", "7", "8+"]),
        "counters": _binned(points, [30, 50, 70], ["<=25", "30-45", "50-65", "70+"]),
        "aces": _binned(aces, [1, 2, 3], ["0", "1", "2", "3+"]),
        "rook": has_rook,
    }
    _seat_features(out, maker, df)
    return pd.DataFrame(out, index=df.index)


def hand_features(df: pd.DataFrame) -> pd.DataFrame:
    """Features of the trump maker's dealt hand in the suit it named, one row per deal."""
    if df.attrs.get("game") == "rook":
        return rook_hand_features(df)
    maker = df["maker"].to_numpy().astype(np.int64)
    hands = np.stack([df[f"hand{s}"].to_numpy() for s in range(4)], axis=1).astype(np.uint64)
    hand = hands[np.arange(len(df)), maker]
    trump = df["trump"].to_numpy().astype(np.uint64)
    lane = (hand >> (np.uint64(16) * trump)) & np.uint64(0x1FFF)
    left = (hand >> ((np.uint64(3) - trump) * np.uint64(16) + np.uint64(3))) & np.uint64(1)
    out = {name: ((lane >> np.uint64(b)) & np.uint64(1)).astype(bool)
           for name, b in _RANK_BIT.items()}
    out["left"] = left.astype(bool)
    n_trumps = np.bitwise_count(lane).astype(np.int64) + left.astype(np.int64)
    out["trumps"] = pd.Categorical(
        np.select([n_trumps <= 2, n_trumps >= 6], ["<=2", "6+"], n_trumps.astype(str)),
        categories=["<=2", "3", "4", "5", "6+"], ordered=True)
    pedros = out["right"].astype(np.int64) + out["left"]
    out["pedros"] = pedros
    out["counters"] = pedros + out["ace"] + out["jack"] + out["ten"] + out["two"]
    _seat_features(out, maker, df)
    return pd.DataFrame(out, index=df.index)


@dataclass
class BidChart:
    """A bid chart: one row per (class, bid) in ``table``, one per class in ``classes``."""

    table: pd.DataFrame  # class features, bid, n, p_make (+CI), ev (+CI), optimal
    classes: pd.DataFrame  # class features, n, points (+CI), bid_ceiling, rare
    guide: pd.DataFrame  # per bid: the weakest class whose ceiling reaches it
    by: tuple[str, ...]
    provenance: dict


def _label(row: pd.Series, by: tuple[str, ...]) -> str:
    parts = []
    for f in by:
        v = row[f]
        if isinstance(v, (bool, np.bool_)):
            parts.append(f if v else f"no {f}")
        else:
            parts.append(f"{f}={v}")
    return ", ".join(parts)


def features_of(game: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(every feature, the default --by) of a game's charts."""
    return (ROOK_FEATURES, ROOK_DEFAULT_BY) if game == "rook" else (FEATURES, DEFAULT_BY)


def check_features(by, game: str = "pedro") -> tuple[str, ...]:
    """The --by features as a tuple; ChartError names the known ones."""
    by = tuple(by)
    known = features_of(game)[0]
    bad = [f for f in by if f not in known]
    if bad or not by:
        raise ChartError(f"bad --by feature(s) {', '.join(bad) or '(none)'} for {game}; "
                         f"features: {', '.join(known)}")
    return by


def _settle(b, o, bid, rules):
    if rules.game == "rook":
        return rook_settle(b, o, bid, rules)
    return settle(b, o, bid, rules.scoring, rules.m2_diff_to)


class ChartAccumulator:
    """Per-class sums that a chart needs, added batch by batch so memory stays bounded.

    For each class: n, the sum and sum of squares of the side's points, and per bid
    the number of made contracts and the sum and sum of squares of the net score.
    """

    def __init__(self, rules, by=None):
        self.rules, self.by = rules, check_features(by or features_of(rules.game)[1], rules.game)
        rook_game = rules.game == "rook"
        self.bids = np.array(rules.bids) if rook_game else np.arange(rules.min_bid, 15)
        self.total_points = rules.total_points if rook_game else 14
        self.sums: dict[tuple, np.ndarray] = {}  # class -> [n, Σb, Σb², made..., Σv..., Σv²...]
        self.n_deals = 0
        self.attrs: dict = {}

    def add(self, df: pd.DataFrame) -> None:
        self.n_deals += len(df)
        self.attrs = dict(df.attrs)
        feats = hand_features(df)[list(self.by)]
        b_pts = df["bid_points"].to_numpy().astype(np.int64)
        o_pts = df["opp_points"].to_numpy().astype(np.int64)
        nb = len(self.bids)
        for key, idx in feats.groupby(list(self.by), observed=True).indices.items():
            key = key if isinstance(key, tuple) else (key,)
            b, o = b_pts[idx], o_pts[idx]
            row = np.zeros(3 + 3 * nb)
            row[:3] = len(idx), b.sum(), (b * b).sum()
            for j, bid in enumerate(self.bids):
                own, opp = _settle(b, o, int(bid), self.rules)
                v = own - opp
                row[3 + j], row[3 + nb + j], row[3 + 2 * nb + j] = (b >= bid).sum(), v.sum(), \
                    (v * v).sum()
            self.sums[key] = self.sums.get(key, 0) + row

    def chart(self) -> BidChart:
        rules, by, nb = self.rules, self.by, len(self.bids)
        rows, class_rows = [], []
        for key, sums in self.sums.items():
            cls = dict(zip(by, key, strict=True))
            n = int(sums[0])
            pts = _mean_se(sums[1], sums[2], n)
            ceiling, ceiling_hw = 0, np.inf
            for j, bid in enumerate(self.bids):
                made = wilson(int(sums[3 + j]), n)
                ev, se = _mean_se(sums[3 + nb + j], sums[3 + 2 * nb + j], n)
                rows.append({**cls, "bid": int(bid), "n": n, "p_make": made.p,
                             "p_make_lo": made.lo, "p_make_hi": made.hi, "ev": ev, "ev_se": se,
                             "ev_lo": ev - Z95 * se, "ev_hi": ev + Z95 * se})
                if bid == self.bids[0] or ev > 0:  # the interval that decides the ceiling
                    ceiling_hw = Z95 * se
                if ev > 0:
                    ceiling = int(bid)
            rare = n < RARE_MIN_N or not (ceiling_hw <= RARE_HALF_WIDTH * self.total_points)
            class_rows.append({**cls, "label": _label(pd.Series(cls), by), "n": n,
                               "points": pts[0], "points_lo": pts[0] - Z95 * pts[1],
                               "points_hi": pts[0] + Z95 * pts[1], "bid_ceiling": ceiling,
                               "rare": rare})
        table = pd.DataFrame(rows).sort_values([*by, "bid"], kind="stable").reset_index(drop=True)
        classes = (pd.DataFrame(class_rows).sort_values(["points", "label"], kind="stable")
                   .reset_index(drop=True))
        ceil = dict(zip(classes["label"], classes["bid_ceiling"], strict=True))
        table["label"] = [_label(r, by) for _, r in table[list(by)].iterrows()]
        table["optimal"] = table["bid"] == table["label"].map(ceil)
        guide_rows = []
        readable = classes[~classes["rare"]]
        for bid in self.bids:
            ok = readable[readable["bid_ceiling"] >= bid]
            if len(ok):
                weakest = ok.iloc[0]  # classes are sorted by mean points, weakest first
                line = table[(table["label"] == weakest["label"]) & (table["bid"] == bid)].iloc[0]
                guide_rows.append({"bid": int(bid), "minimum holding": weakest["label"],
                                   "n": int(weakest["n"]), "p_make": line["p_make"],
                                   "ev": line["ev"]})
        provenance = {**self.attrs, "by": ",".join(by), "n": self.n_deals,
                      "method": getattr(rules, "scoring", "rook")}
        return BidChart(table, classes, pd.DataFrame(guide_rows), by, provenance)


def _mean_se(total: float, total_sq: float, n: int) -> tuple[float, float]:
    """Mean and standard error from a sum and a sum of squares (small integers: exact enough)."""
    mean = total / n
    if n < 2:
        return mean, float("nan")
    var = max(0.0, (total_sq - n * mean * mean) / (n - 1))
    return mean, float(np.sqrt(var / n))


def chart_from_deals(df: pd.DataFrame, rules, by=None) -> BidChart:
    """Build the chart from one simulation frame (a game module's simulate output)."""
    acc = ChartAccumulator(rules, by)
    acc.add(df)
    return acc.chart()


def bid_chart(game, deals: int = 2_000_000, seed: int = 1, policy: str = "heuristic", by=None,
              progress=None, batch: int = 250_000) -> BidChart:
    """Simulate ``deals`` deals in batches and chart them by the features in ``by``.

    Only per-class sums are kept between batches, so memory does not grow with
    ``deals``; the deals, and so the chart, do not depend on ``batch``.
    """
    engine = family(game)
    rules = engine.parse_rules(game) if isinstance(game, str) else game
    acc = ChartAccumulator(rules, by)
    for first in range(0, deals, batch):
        n = min(batch, deals - first)
        acc.add(engine.simulate(rules, n, seed=seed, policies=policy, first=first))
        if progress:
            progress(n)
    acc.attrs.update(first=0)
    return acc.chart()
