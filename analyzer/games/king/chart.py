"""King hand charts: how dangerous a hand is in each negative contract, what the trump right
is worth to the benefited, and what the seat order is worth over a whole game.

Every deal is played out by the policy (docs/rules.md §3), one single hand per contract and
deal (hand ``i``: dealer ``i % 4``, as :func:`analyzer.games.king.run_batch`), and the
charts are built from per-class sums added batch by batch, so memory does not grow with
the number of deals and the chart does not depend on ``batch``.

* **Danger charts**, one per negative contract: all four seats' dealt hands of every
  deal are classified (4 hands per deal) and for each class the chart gives the seat's
  mean *penalty* (points lost, a positive number: −points) with a 95% interval. Each
  contract is charted by the two features that decide it (``DANGER_BY``).
* **Trump right by hand class** (positive hands): every seat's dealt hand of every deal
  (4 hands a deal, whether or not the auction would give it the right), by its longest
  suit, high cards and seat: the tricks it takes when it names trump itself (its
  policy's suit) and when another seat names it (each other seat in turn, by its
  policy), both on the same deals, so their difference is the trump right's value in
  tricks with a paired interval. From it, advice that respects the noise
  (:func:`analyzer.games.king.evaluate.trump_right_advice`): offer up to k tricks only while
  the value exceeds k beyond the noise, and as the benefited accept only offers above its
  upper bound (an offer of 1 only where it also beats the decline it forgoes). This is
  the model of ``bidlab hand king``, charted.
* **The benefited in the auction** (positive hands, secondary): the dealer's dealt hand,
  every deal, by its longest suit and high cards: its score in tricks after the auction
  the heuristic plays (points / 25: tricks taken, plus the price when it sold, or the 4 of
  a 4-3-3-3 decline), the tricks it took when it played its own trump, the mean price
  when it sold, and how often the auction ended sold / declined / played (Wilson
  intervals). It describes that auction's results, not what the right is worth.
* **Seat positions** over whole games: the mean final score of each seat counted from
  the first dealer (D0 deals hands 1, 5, 9; D0+1 hands 2, 6, 10; ...), with the share of
  games it finished first (ties count for every seat sharing the top).

Features (of one seat's 13 dealt cards):

============  ================================================================
hearts        hearts held (0-1, 2-3, 4-5, 6+)
high_hearts   A K Q J of hearts held (0 .. 4)
kh_guard      K♥ and the other hearts beside it (no K♥; K♥ with 0-1, 2-3, 4+)
high_cards    A K Q held over all suits (0-2, 3-4, 5-6, 7+)
voids         suits not held (0, 1, 2+)
queens        queens held (0, 1, 2, 3+)
queen_guard   cards below the worst-guarded queen in its suit (no Q; 0-1, 2-3, 4+)
kings_jacks   kings and jacks held (0, 1, 2, 3, 4+)
longest       length of the longest suit (<=4, 5, 6, 7+)
seat          seat relative to the dealer (dealer, eldest, second, third)
============  ================================================================

How the danger features were chosen (``DANGER_BY``; ``danger_by=`` overrides them): each
chart crosses the holding its contract penalises with the feature that, over 400,000
heuristic hands, explains most of the rest of the penalty's variance, which is nearly
always ``high_cards`` (trick-taking power takes other seats' penalty cards). Share of the
variance explained (R²): no_tricks high_cards x voids 0.235; no_hearts hearts x
high_cards 0.137 (hearts x high_hearts only 0.053); no_kings_jacks kings_jacks x
high_cards 0.233 (x voids 0.150); no_queens queen_guard x high_cards 0.173 (queens x
queen_guard 0.119); no_king_of_hearts kh_guard x high_cards 0.095 (x voids 0.060);
last_two high_cards x longest 0.140 (x voids 0.135). Note that in no_hearts *more*
hearts mean a *smaller* penalty (your own hearts mostly fall on other seats' tricks, and
long hearts leave you void elsewhere to discard them); high hearts at a given length, and
high cards, raise it.

>>> chart = king_chart(king.parse_rules("king"), deals=2_000, games=200)
>>> int(chart.right["n"].sum()), int(chart.danger_of("no-hearts")["n"].sum())
(8000, 8000)

Their text and figures are in :mod:`.chart_view`.

May import: the foundations, the generic analyses and views, ``games.common`` and
``games.protocol``, and King's own modules; never another game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ...chart_features import RARE_HALF_WIDTH, RARE_MIN_N, ChartError
from ...documents import stamp
from ...limits import Pace
from ...stats import Z95, PairedMoments, est_cols, held, interval, wilson
from ...text import ShownAsText
from .. import king
from ..common import (
    SEATS,
    first_batch,
    one_policy_for_every_seat,
    policy_string,
    policy_vector,
    provenance,
)
from . import engine
from .evaluate import trump_right_advice
from .rules import CONTRACT_CODES, CONTRACT_NAMES, HAND_TOTALS, POSITIVE

NEGATIVE = tuple(name for code, name in CONTRACT_NAMES.items() if code != POSITIVE)


# Feature -> (bin edges, labels): ``labels[k]`` for raw values below ``edges[k]``, the last
# label for everything above (the rule of _binned, below).
FEATURE_BINS: dict[str, tuple[list[int], list[str]]] = {
    "hearts": ([2, 4, 6], ["0-1", "2-3", "4-5", "6+"]),
    "high_hearts": ([1, 2, 3, 4], ["0", "1", "2", "3", "4"]),
    "kh_guard": ([0, 2, 4], ["no K♥", "K♥ with 0-1", "K♥ with 2-3", "K♥ with 4+"]),
    "high_cards": ([3, 5, 7], ["0-2", "3-4", "5-6", "7+"]),
    "voids": ([1, 2], ["0", "1", "2+"]),
    "queens": ([1, 2, 3], ["0", "1", "2", "3+"]),
    "queen_guard": ([0, 2, 4], ["no Q", "0-1", "2-3", "4+"]),
    "kings_jacks": ([1, 2, 3, 4], ["0", "1", "2", "3", "4+"]),
    "longest": ([5, 6, 7], ["<=4", "5", "6", "7+"]),
    "seat": ([1, 2, 3], list(SEATS)),
}
FEATURES = tuple(FEATURE_BINS)
FEATURE_TITLES = {
    "hearts": "hearts held", "high_hearts": "A K Q J of hearts held",
    "kh_guard": "K♥ and the hearts beside it", "high_cards": "high cards (A K Q held)",
    "voids": "void suits", "queens": "queens held",
    "queen_guard": "cards below the worst-guarded queen", "kings_jacks": "kings and jacks held",
    "longest": "longest suit", "seat": "seat from the dealer",
}
# Each contract's penalised holding (rows) against the feature that explains most of the
# rest of the penalty's variance (columns); see the module docstring.
DANGER_BY: dict[str, tuple[str, ...]] = {
    "no_tricks": ("high_cards", "voids"),
    "no_hearts": ("hearts", "high_cards"),
    "no_kings_jacks": ("kings_jacks", "high_cards"),
    "no_queens": ("queen_guard", "high_cards"),
    "no_king_of_hearts": ("kh_guard", "high_cards"),
    "last_two": ("high_cards", "longest"),
}
TRUMP_BY = ("longest", "high_cards")
RIGHT_BY = ("longest", "high_cards", "seat")
POSITION_NAMES = ("D0 (first dealer)", "D0+1 (left of D0)", "D0+2 (opposite D0)",
                  "D0+3 (right of D0)")

_HEARTS = 2
TRICKS = 13  # a seat's tricks in a hand: the range of the trump right's figures
_JQKA, _QKA, _KJ, _BELOW_Q = 0x1E00, 0x1C00, 0xA00, 0x3FF  # bits in a 13-bit suit lane
_Q_BIT, _K_BIT = 10, 11


# ---- features ------------------------------------------------------------------------------


def _binned(values: np.ndarray, edges: list[int], labels: list[str]) -> pd.Categorical:
    """``labels[k]`` for values below ``edges[k]`` (the last label: everything above)."""
    return pd.Categorical(np.array(labels)[np.searchsorted(edges, values, side="right")],
                          categories=labels, ordered=True)


def _label(cls: dict, by: tuple[str, ...]) -> str:
    return ", ".join(f"{f}={cls[f]}" for f in by)


def _mean_se(total: float, total_sq: float, n: int) -> tuple[float, float]:
    """Mean and standard error from a sum and a sum of squares (small integers: exact enough)."""
    mean = total / n
    if n < 2:
        return mean, float("nan")
    var = max(0.0, (total_sq - n * mean * mean) / (n - 1))
    return mean, float(np.sqrt(var / n))


def _lanes(hands: np.ndarray) -> np.ndarray:
    """(m, 4) int64 suit lanes (C D H S, rank 2 at bit 0) of m hand masks."""
    h = np.asarray(hands, dtype=np.uint64).reshape(-1, 1)
    shifts = np.arange(4, dtype=np.uint64) * np.uint64(16)
    return ((h >> shifts) & np.uint64(0x1FFF)).astype(np.int64)


def _count(x: np.ndarray) -> np.ndarray:
    return np.bitwise_count(x).astype(np.int64)


def _raw_feature(name: str, lanes: np.ndarray, offset: np.ndarray | None) -> np.ndarray:
    """The integer a feature bins, for every hand (row of ``lanes``)."""
    hearts = lanes[:, _HEARTS]
    if name == "hearts":
        return _count(hearts)
    if name == "high_hearts":
        return _count(hearts & _JQKA)
    if name == "kh_guard":  # other hearts beside K♥, -1 without it
        return np.where((hearts >> _K_BIT) & 1, _count(hearts) - 1, -1)
    if name == "high_cards":
        return _count(lanes & _QKA).sum(axis=1)
    if name == "voids":
        return (lanes == 0).sum(axis=1)
    if name == "queens":
        return ((lanes >> _Q_BIT) & 1).sum(axis=1)
    if name == "queen_guard":  # fewest cards below a held queen in its suit, -1 without one
        guard = np.where((lanes >> _Q_BIT) & 1, _count(lanes & _BELOW_Q), 99).min(axis=1)
        return np.where(guard == 99, -1, guard)
    if name == "kings_jacks":
        return _count(lanes & _KJ).sum(axis=1)
    if name == "longest":
        return _count(lanes).max(axis=1)
    if name == "seat":
        if offset is None:
            raise ChartError("the seat feature needs the dealer")
        return offset
    raise ChartError(f"unknown feature {name!r}; features: {', '.join(FEATURES)}")


def _codes(name: str, lanes: np.ndarray, offset: np.ndarray | None) -> np.ndarray:
    """Bin index of a feature for every hand (``FEATURE_BINS[name]``'s labels)."""
    return np.searchsorted(FEATURE_BINS[name][0], _raw_feature(name, lanes, offset),
                           side="right")


def _seat_hands(hands: np.ndarray, dealer) -> tuple[np.ndarray, np.ndarray | None]:
    """Every seat's hand of (n, 4) ``hands`` in row order (deal 0 seats 0..3, deal 1, ...),
    and each one's offset from the dealer."""
    hands = np.asarray(hands, dtype=np.uint64)
    if hands.ndim == 1:
        return hands, None if dealer is None else np.asarray(dealer, dtype=np.int64)
    offset = None
    if dealer is not None:
        offset = ((np.arange(4) - np.asarray(dealer, dtype=np.int64)[:, None]) % 4).ravel()
    return hands.ravel(), offset


def king_hand_features(hands: np.ndarray, dealer=None) -> pd.DataFrame:
    """Features of King hands as ordered categoricals, one row per hand.

    ``hands`` is a (n, 4) array of dealt hands (``run_batch``'s second result; rows
    come out deal by deal, seats 0..3, with ``deal`` and ``seat`` columns) or a flat
    array of hand masks. ``dealer`` (one per deal, or per hand for a flat array)
    gives the ``seat`` feature; without it that column is left out.
    """
    flat, offset = _seat_hands(hands, dealer)
    lanes = _lanes(flat)
    out: dict[str, object] = {}
    if np.asarray(hands).ndim == 2:
        out["deal"] = np.repeat(np.arange(len(hands)), 4)
        out["seat"] = np.tile(np.arange(4), len(hands))
    for name, (edges, labels) in FEATURE_BINS.items():
        if name == "seat":
            continue
        out[name] = _binned(_raw_feature(name, lanes, None), edges, labels)
    if offset is not None:
        out["position"] = _binned(offset, *FEATURE_BINS["seat"])
    return pd.DataFrame(out)


def _check_by(by, what: str) -> tuple[str, ...]:
    by = tuple(by)
    bad = [f for f in by if f not in FEATURE_BINS]
    if bad or not by:
        raise ChartError(f"bad feature(s) {', '.join(bad) or '(none)'} for {what}; "
                         f"features: {', '.join(FEATURES)}")
    return by


# ---- per-class sums ------------------------------------------------------------------------


class _ClassSums:
    """Dense per-class sums over the product of a few features' bins."""

    def __init__(self, by: tuple[str, ...], n_values: int):
        self.by = by
        self.sizes = tuple(len(FEATURE_BINS[f][1]) for f in by)
        self.count = np.zeros(int(np.prod(self.sizes)), dtype=np.int64)
        self.sums = np.zeros((len(self.count), n_values))

    def add(self, lanes: np.ndarray, offset: np.ndarray | None, values: np.ndarray) -> None:
        code = np.zeros(len(lanes), dtype=np.int64)
        for f, k in zip(self.by, self.sizes, strict=True):
            code = code * k + _codes(f, lanes, offset)
        size = len(self.count)
        self.count += np.bincount(code, minlength=size)
        for j in range(values.shape[1]):
            self.sums[:, j] += np.bincount(code, weights=values[:, j], minlength=size)

    def classes(self):
        """(class labels by feature, n, sums) of every class seen, in bin order."""
        for code in np.flatnonzero(self.count):
            idx = np.unravel_index(code, self.sizes)
            cls = {f: FEATURE_BINS[f][1][i] for f, i in zip(self.by, idx, strict=True)}
            yield cls, int(self.count[code]), self.sums[code]


def _estimate(prefix: str, total: float, total_sq: float, n: int,
              span: tuple[float, float] | None = None) -> dict:
    """The mean's columns; where every hand read the same, the interval ``span`` (the
    value's range) allows (:func:`~analyzer.stats.bounded`): a rare capture unseen in 2,000
    hands is not known to be 0; and an interval past the range (a penalty below 0) is cut
    there."""
    mean, se = _mean_se(total, total_sq, n)
    e = interval(mean, se, n)
    return est_cols(prefix, e if span is None else held(e, *span))


def _price(total: float, total_sq: float | None, n_sold: int, complete: bool) -> dict:
    """The mean price of the hands sold, with its interval where every chunk kept the sum
    of its squares (a run store from before it did not: the mean alone)."""
    if not n_sold:
        return dict.fromkeys(["price", "price_se", "price_lo", "price_hi"], float("nan"))
    if not complete or total_sq is None:
        return {"price": total / n_sold, **dict.fromkeys(["price_se", "price_lo", "price_hi"],
                                                         float("nan"))}
    return _estimate("price", total, total_sq, n_sold, (0, TRICKS))


def _share(prefix: str, k: float, n: int) -> dict:
    p = wilson(int(round(k)), n)
    return {prefix: p.p, f"{prefix}_lo": p.lo, f"{prefix}_hi": p.hi}


def _rare(n: int, se: float, scale: float) -> bool:
    """Too few hands, or an interval too wide to read (bidchart's rule: ±1/14 of the hand)."""
    return n < RARE_MIN_N or not (Z95 * se <= RARE_HALF_WIDTH * scale)


@dataclass(repr=False)
class KingChart(ShownAsText):
    """King danger charts, the trump-right chart and the seat-position table."""

    danger: pd.DataFrame  # contract, by, label, feature columns, n, penalty (+se, lo, hi), rare
    right: pd.DataFrame  # every seat's hand class: tricks naming trump or not, value, advice
    trump: pd.DataFrame  # the benefited's hand class: score, own_tricks, price, p_sold ...
    seats: pd.DataFrame  # position, seat, hands, n, score (+se, lo, hi), p_first (+lo, hi)
    danger_by: dict[str, tuple[str, ...]]
    trump_by: tuple[str, ...]
    provenance: dict

    def __post_init__(self):
        stamp(self, self.provenance)  # a table taken out still says how it was made

    def text(self) -> str:
        """As ``bidlab bid-chart king`` prints it (its view is found through the registry:
        the view imports this module)."""
        from .. import game

        return game(self.provenance["rules"]).render_chart(self)

    def danger_of(self, contract: str) -> pd.DataFrame:
        """One contract's danger rows, with only its own feature columns."""
        key = contract.replace("-", "_")
        if key not in self.danger_by:
            raise ChartError(f"no danger chart for {contract!r}; contracts: "
                             f"{', '.join(self.danger_by)}")
        rows = self.danger[self.danger["contract"] == key]
        drop = [f for f in FEATURES if f in rows.columns and f not in self.danger_by[key]]
        return rows.drop(columns=drop).reset_index(drop=True)


class KingChartAccumulator:
    """Per-class sums of the three King charts, added batch by batch."""

    def __init__(self, rules, policy: str | np.ndarray = "heuristic", seed: int = 1,
                 danger_by: Mapping[str, tuple[str, ...]] | None = None,
                 trump_by: tuple[str, ...] | None = None):
        self.rules, self.seed = rules, int(seed)
        self.pols = policy_vector(policy)
        one_policy_for_every_seat(self.pols, "a bid chart")
        danger_by = {**DANGER_BY, **{k.replace("-", "_"): v for k, v in
                                     (danger_by or {}).items()}}
        unknown = [k for k in danger_by if k not in NEGATIVE]
        if unknown:
            raise ChartError(f"unknown contract(s) {', '.join(unknown)}; negative contracts: "
                             f"{', '.join(NEGATIVE)}")
        self.danger_by = {c: _check_by(danger_by[c], c) for c in NEGATIVE}
        self.trump_by = _check_by(trump_by or TRUMP_BY, "the trump right")
        self.danger = {c: _ClassSums(by, 2) for c, by in self.danger_by.items()}
        # score, score², sold, declined, played, own tricks, own tricks², price when sold
        self.trump = _ClassSums(self.trump_by, 8)
        # price² when sold, for the price's interval: apart from the 8, so that a run store
        # written before it still reads (its price then has no interval)
        self.price_sq = _ClassSums(self.trump_by, 1)
        self.price_sq_complete = True
        # tricks naming trump s, tricks when another seat names it o: s, o, s², o², s·o
        self.right = _ClassSums(RIGHT_BY, 5)
        self.n_hands = dict.fromkeys([*NEGATIVE, "positive"], 0)
        self.n_games = 0
        self.seat_sums = np.zeros((4, 3))  # Σscore, Σscore², first places

    # -- batches of records -----------------------------------------------------------------

    def add_negative(self, contract: str, rec: np.ndarray, hands: np.ndarray) -> None:
        """One contract's single hands: every seat's hand against its penalty."""
        flat, offset = _seat_hands(hands, rec[:, engine.R_DEALER])
        penalty = -rec[:, engine.R_POINTS:engine.R_POINTS + 4].astype(np.int64).ravel()
        self.danger[contract].add(_lanes(flat), offset,
                                  np.stack([penalty, penalty * penalty], axis=1))
        self.n_hands[contract] += len(rec)

    def add_positive(self, rec: np.ndarray, hands: np.ndarray) -> None:
        """Positive single hands: the benefited's (dealer's) hand against the auction."""
        dealer = rec[:, engine.R_DEALER].astype(np.int64)
        rows = np.arange(len(rec))
        hand = np.asarray(hands, dtype=np.uint64)[rows, dealer]
        score = rec[rows, engine.R_POINTS + dealer].astype(np.int64) / 25
        taken = rec[rows, engine.R_TRICKS + dealer].astype(np.int64)
        outcome = rec[:, engine.R_OUTCOME]
        sold, declined = outcome == engine.OUT_SELL, outcome == engine.OUT_DECLINE
        played = outcome == engine.OUT_PLAY
        price = rec[:, engine.R_PRICE].astype(np.int64)
        values = np.stack([score, score * score, sold, declined, played, taken * played,
                           taken * taken * played, price * sold], axis=1).astype(np.float64)
        lanes, offset = _lanes(hand), np.zeros(len(rec), dtype=np.int64)
        self.trump.add(lanes, offset, values)
        self.price_sq.add(lanes, offset, (price * price * sold).astype(np.float64)[:, None])
        self.n_hands["positive"] += len(rec)

    def add_right(self, offset: int, hands: np.ndarray, own: np.ndarray,
                  other: np.ndarray) -> None:
        """Positive single hands played twice for the seat ``offset`` places after the
        dealer: its tricks when it names trump (``own``) and when another seat does."""
        s, o = own.astype(np.float64), other.astype(np.float64)
        self.right.add(_lanes(hands), np.full(len(hands), offset),
                       np.stack([s, o, s * s, o * o, s * o], axis=1))

    def add_games(self, out: np.ndarray) -> None:
        """Whole games (``run_games`` records): final score by seat position from D0."""
        d0 = out[:, engine.G_D0].astype(np.int64)
        totals = out[:, engine.G_TOTAL:engine.G_TOTAL + 4].astype(np.int64)
        first = totals == totals.max(axis=1, keepdims=True)
        seat = (d0[:, None] + np.arange(4)) % 4  # the seat at each position
        rows = np.arange(len(out))[:, None]
        score, top = totals[rows, seat], first[rows, seat]
        self.seat_sums += np.stack([score.sum(0), (score * score).sum(0), top.sum(0)], axis=1)
        self.n_games += len(out)

    def run(self, first: int, n: int) -> None:
        """Simulate single hands ``first .. first+n-1`` of every contract and add them."""
        for contract in NEGATIVE:
            rec, hands = king.run_batch(self.rules, first, n, self.seed, self.pols,
                                        contract=CONTRACT_CODES[contract])
            self.add_negative(contract, rec, hands)
        rec, hands = king.run_batch(self.rules, first, n, self.seed, self.pols,
                                    contract=POSITIVE)
        self.add_positive(rec, hands)
        rows = np.arange(n)
        for offset in range(4):
            tricks = []
            for chooser in ("self", "other"):
                rec, hands = king.run_batch(
                    self.rules, first, n, self.seed, self.pols, contract=POSITIVE,
                    scenario=king.Scenario(seat=offset, chooser=chooser))
                seat = (rec[:, engine.R_DEALER].astype(np.int64) + offset) % 4
                tricks.append(rec[rows, engine.R_TRICKS + seat].astype(np.int64))
            self.add_right(offset, hands[rows, seat], *tricks)

    def run_games(self, first: int, n: int) -> None:
        """Simulate whole games ``first .. first+n-1`` and add them."""
        out, _ = king.run_games(self.rules, first, n, self.seed, self.pols)
        self.add_games(out)

    # -- a run in chunks (analyzer.runs): the sums of single hands and games first .. +n-1 -------

    def play(self, first: int, n: int) -> None:
        """Single hands and whole games ``first .. first+n-1``, as a batch of
        :func:`king_chart` (which plays as many games as hands)."""
        self.run(first, n)
        self.run_games(first, n)

    def _class_sums(self) -> dict[str, _ClassSums]:
        """Every chart's per-class sums, by a name a state keeps them under."""
        return {**{f"danger:{c}": s for c, s in self.danger.items()}, "trump": self.trump,
                "right": self.right, "trump:price_sq": self.price_sq}

    def to_state(self) -> dict:
        """The sums as JSON-ready lists (whole numbers in float64: exact, in any order of
        adding); :meth:`add_state` adds them back."""
        return {"sums": {k: {"count": s.count.tolist(), "sums": s.sums.tolist()}
                         for k, s in self._class_sums().items()},
                "n_hands": dict(self.n_hands), "n_games": self.n_games,
                "seat_sums": self.seat_sums.tolist()}

    def add_state(self, state: dict) -> None:
        for key, s in self._class_sums().items():
            if key == "trump:price_sq" and key not in state["sums"]:  # an older store's
                self.price_sq_complete = False
                continue
            s.count += np.array(state["sums"][key]["count"], dtype=np.int64)
            s.sums += np.array(state["sums"][key]["sums"], dtype=np.float64).reshape(
                s.sums.shape)
        for k, v in state["n_hands"].items():
            self.n_hands[k] += v
        self.n_games += state["n_games"]
        self.seat_sums += np.array(state["seat_sums"])

    def result(self) -> KingChart:
        return self.chart()

    # -- the chart ---------------------------------------------------------------------------

    def chart(self) -> KingChart:
        danger_rows = []
        for contract, sums in self.danger.items():
            by = self.danger_by[contract]
            scale = abs(HAND_TOTALS[CONTRACT_CODES[contract]])
            for cls, n, s in sums.classes():
                est = _estimate("penalty", s[0], s[1], n, (0.0, scale))
                danger_rows.append({"contract": contract, "by": ",".join(by),
                                    "label": _label(cls, by), **cls, "n": n,
                                    "share": n / (4 * self.n_hands[contract]), **est,
                                    "rare": _rare(n, est["penalty_se"], scale)})
        danger = pd.DataFrame(danger_rows)
        used = [f for f in FEATURES if f in danger.columns]
        danger = danger[["contract", "by", "label", *used,
                         *[c for c in danger.columns if c not in ("contract", "by", "label",
                                                                  *used)]]]
        trump_rows = []
        squares = {tuple(cls.values()): sq[0] for cls, _, sq in self.price_sq.classes()}
        for cls, n, s in self.trump.classes():
            est = _estimate("score", s[0], s[1], n, (0, 2 * TRICKS))  # tricks + a price
            n_play, n_sold = int(round(s[4])), int(round(s[2]))
            own = (_estimate("own_tricks", s[5], s[6], n_play, (0, TRICKS)) if n_play else
                   dict.fromkeys(["own_tricks", "own_tricks_se", "own_tricks_lo",
                                  "own_tricks_hi"], float("nan")))
            trump_rows.append({**cls, "label": _label(cls, self.trump_by), "n": n,
                               **est, **_share("p_sold", s[2], n),
                               **_share("p_declined", s[3], n), **_share("p_played", s[4], n),
                               "n_played": n_play, **own,
                               **_price(s[7], squares.get(tuple(cls.values())), n_sold,
                                        self.price_sq_complete),
                               "rare": _rare(n, est["score_se"], TRICKS)})
        right_rows = []
        for cls, n, s in self.right.classes():
            m = PairedMoments(2)
            m.add_sums(n, s[:2], np.array([[s[2], s[4]], [s[4], s[3]]]))
            # no spread in a class's few hands is not certainty: the tricks' range bounds it
            own, other = (held(e, 0, TRICKS) for e in (m.estimate(0), m.estimate(1)))
            value = held(m.diff(0, 1), -TRICKS, TRICKS)
            advice = trump_right_advice(value, own, other)
            if cls.get("seat") == "dealer":  # the benefited answers offers, never makes one
                advice["offer_up_to"] = None
            elif "seat" in cls:  # an opponent offers, never accepts or declines
                advice["accept_offers_above"], advice["decline"] = None, "-"
            right_rows.append({**cls, "label": _label(cls, RIGHT_BY), "n": n,
                               **est_cols("own_tricks", own), **est_cols("other_tricks", other),
                               **est_cols("value", value),
                               **{k: advice[k] for k in ("offer_up_to", "accept_offers_above",
                                                         "decline")},
                               "rare": _rare(n, value.se, TRICKS)})
        seat_rows = []
        n_hands = len(self.rules.contracts)
        for pos in range(4):
            total, total_sq, top = self.seat_sums[pos]
            est = (_estimate("score", total, total_sq, self.n_games) if self.n_games else
                   dict.fromkeys(["score", "score_se", "score_lo", "score_hi"], float("nan")))
            dealt = ", ".join(str(k + 1) for k in range(n_hands) if k % 4 == pos)
            seat_rows.append({"position": pos, "seat": POSITION_NAMES[pos], "deals_hands": dealt,
                              "n": self.n_games, **est,
                              **(_share("p_first", top, self.n_games) if self.n_games else {})})
        prov = {**provenance(self.rules, self.seed, self.pols, 0),
                "n": int(self.n_hands["positive"]), "games": int(self.n_games),
                "danger_by": ";".join(f"{c}={','.join(b)}" for c, b in self.danger_by.items()),
                "trump_by": ",".join(self.trump_by),
                "model": ("Every seat's hand of every deal counts, all seats playing "
                          f"{policy_string(self.pols)}; the trump right's advice stands only "
                          "where its 95% interval clears what it is weighed against: an "
                          "offer of k tricks only while the right is worth more than k, a "
                          "decline only while naming trump takes fewer than the decline's 4 "
                          "tricks.")}
        return KingChart(danger, pd.DataFrame(right_rows), pd.DataFrame(trump_rows),
                         pd.DataFrame(seat_rows), dict(self.danger_by), self.trump_by, prov)


def king_chart(rules, deals: int = 1_000_000, seed: int = 1, policy: str = "heuristic",
               progress: Callable[[int], None] | None = None, batch: int = 200_000,
               games: int | None = None,
               danger_by: Mapping[str, tuple[str, ...]] | None = None,
               trump_by: tuple[str, ...] | None = None) -> KingChart:
    """Simulate ``deals`` single hands of every contract and ``games`` whole games
    (default: as many as ``deals``) in batches, and chart them.

    ``rules`` is a :class:`~analyzer.games.king.rules.Rules` or a rules string.
    ``danger_by`` replaces the features of some contracts (``{"no_hearts": ("hearts",
    "voids")}``), ``trump_by`` those of the trump-right chart. ``progress(k)`` follows
    each batch; its total is ``max(deals, games)``. Only per-class sums are kept
    between batches; the chart does not depend on ``batch``.
    """
    rules = king.parse_rules(rules) if isinstance(rules, str) else rules
    games = deals if games is None else games
    if deals < 1 or games < 0 or batch < 1:
        raise ChartError(f"need deals >= 1, games >= 0 and batch >= 1; got {deals}, {games}, "
                         f"{batch}")
    acc = KingChartAccumulator(rules, policy, seed, danger_by, trump_by)
    total = max(deals, games)
    pace = Pace(total, "--deals")
    lo = 0
    while lo < total:
        # a small first batch measures the pace (analyzer.limits); batches change nothing
        n = min(batch if lo else min(batch, first_batch(acc.pols)), total - lo)
        if lo < deals:
            acc.run(lo, min(n, deals - lo))
        if lo < games:
            acc.run_games(lo, min(n, games - lo))
        lo += n
        pace.step(lo)
        if progress:
            progress(n)
    return acc.chart()
