"""What a King simulation says (``bidlab simulate king``), whole games or single hands of
one contract, and the measures ``bidlab compare`` pairs between two variants; each figure
with its n and 95% interval. May import: the generic summary, stats.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...summary import _RATE_COLS, Section, Summary, _Estimates, _frame, _provenance


def summarize(df: pd.DataFrame) -> Summary:
    """Whole games (``attrs["contract"] == "games"``): final score by seat position from the
    first dealer and each hand's mean points; single hands: points per seat and, for
    positive hands, the auction's outcomes."""
    if len(df) == 0:
        raise ValueError("cannot summarize an empty simulation (0 rows)")
    e = _Estimates()
    hand, game = _ranges()  # where every row read the same, the interval these allow
    what = df.attrs.get("contract", "games")
    n = len(df)
    if what == "games":
        d0 = df["first_dealer"].to_numpy()
        totals = np.stack([df[f"total{s}"].to_numpy(np.float64) for s in range(4)], axis=1)
        by_pos = {f"first dealer + {k}": (f"score_pos{k}", totals[np.arange(n), (d0 + k) % 4])
                  for k in range(4)}
        by_pos["sum of the four (always 0)"] = ("score_sum", totals.sum(axis=1), None)
        hands = e.means({f"hand {k + 1}, dealer's points": (
            f"hand{k + 1}_dealer", df[[f"h{k + 1}_p{s}" for s in range(4)]].to_numpy(np.float64)[
                np.arange(n), (d0 + k) % 4]) for k in range(10) if f"h{k + 1}_p0" in df
            and (df[[f"h{k + 1}_p{s}" for s in range(4)]].to_numpy() != 0).any()}, hand)
        sections = [
            Section("points", "Final score by seat, counted from the first dealer",
                    e.means(by_pos, game), "mean"),
            Section("hands", "Each hand: the dealer's points", hands, "mean"),
        ]
        auctions = game_auctions(df)
        if auctions:  # records written before they kept each hand's auction have none
            n_pos = _positive_hands(df)
            spans = _auction_spans(n_pos)
            rows = {label.removesuffix(" a game"): (key, auctions[label], spans[label])
                    for label, key in _AUCTIONS}
            sections.append(Section(
                "auctions", f"Trump auctions a game, of its {n_pos} positive hands",
                e.means(rows), "mean"))
        return Summary(_provenance(df), sections, e.est, unit="games", stats=e.stats,
                       spans=e.spans)
    rows = {f"seat {s}": (f"points_seat{s}", df[f"points{s}"]) for s in range(4)}
    d = df["dealer"].to_numpy()
    pts = np.stack([df[f"points{s}"].to_numpy(np.float64) for s in range(4)], axis=1)
    for k, name in enumerate(("dealer", "eldest (dealer + 1)", "second (dealer + 2)",
                              "third (dealer + 3)")):
        rows[name] = (f"points_pos{k}", pts[np.arange(n), (d + k) % 4])
    title = f"Points per hand ({what.replace('_', '-')})"  # the contract as --contract takes it
    sections = [Section("points", title, e.means(rows, hand), "mean")]
    if what == "positive":
        out = df["outcome"].to_numpy()
        shares = _frame({label: e.rate(key, int((out == code).sum()), n) for label, key, code in
                         (("sold (the buyer names trump)", "sold", 1),
                          ("declined (4-3-3-3, not played)", "declined", 2),
                          ("played with the dealer's trump", "played", 3))}, _RATE_COLS)
        sections.append(Section("shares", "Trump auction outcomes", shares, "rate"))
    return Summary(_provenance(df), sections, e.est, unit="hands", stats=e.stats,
                   spans=e.spans)


FINDER_SCORE = "final score, the seat dealt the K♥ (it deals first, or names who does)"
_AUCTIONS = (  # (compare's measure, simulate's key): a game's trump auctions
    ("trump rights sold a game", "auction_sold"),
    ("trump rights declined (4-3-3-3) a game", "auction_declined"),
    ("tricks offered for the rights sold a game", "auction_price"),
)


def _positive_hands(df: pd.DataFrame) -> int:
    """How many hands of each game are positive: those whose auction ever has an outcome."""
    return sum(int((df[f"h{k + 1}_outcome"].to_numpy() != 0).any())
               for k in range(10) if f"h{k + 1}_outcome" in df)


def game_auctions(df: pd.DataFrame) -> dict[str, np.ndarray]:
    """Per game: its positive hands whose trump right was sold, declined (4-3-3-3), and the
    tricks offered for the rights sold (the price; with payment_floor=zero a buyer pays at
    most the tricks he takes). Empty for records that keep no auction."""
    outcome_cols = [f"h{k + 1}_outcome" for k in range(10) if f"h{k + 1}_outcome" in df]
    if not outcome_cols:
        return {}
    from .engine import OUT_DECLINE, OUT_SELL

    outcome = df[outcome_cols].to_numpy()
    price = df[[c.replace("_outcome", "_price") for c in outcome_cols]].to_numpy(np.float64)
    sold = outcome == OUT_SELL
    values = (sold.sum(axis=1), (outcome == OUT_DECLINE).sum(axis=1), (price * sold).sum(axis=1))
    return {label: v.astype(np.float64) for (label, _), v in zip(_AUCTIONS, values, strict=True)}


def _auction_spans(n_positive: int) -> dict[str, tuple[float, float]]:
    """The range of each of :func:`game_auctions` in a game of ``n_positive`` positive hands
    (a price is at most 13 tricks)."""
    return {label: (0.0, n_positive * (13.0 if key == "auction_price" else 1.0))
            for label, key in _AUCTIONS}


def compare_measures(df: pd.DataFrame, rules, pair=None) -> dict[str, np.ndarray]:
    """Per-game King quantities: final scores by seat position, each hand's dealer points,
    and where either of the ``pair`` compared names the first dealer by the K♥ finder, the
    finder's final score (elsewhere it is the first dealer's, shown once). A hand is named
    by its contract too: variants that order the hands otherwise (``neg_order``,
    ``combined_negatives``) pair only the hands they play alike."""
    if df.attrs.get("contract", "games") != "games":
        return _hand_measures(df)
    n = len(df)
    d0 = df["first_dealer"].to_numpy().astype(np.int64)
    totals = np.stack([df[f"total{s}"].to_numpy(float) for s in range(4)], axis=1)
    out = {f"final score, first dealer + {k}": totals[np.arange(n), (d0 + k) % 4]
           for k in range(4)}
    chooses = pair is not None and any(r.first_dealer == "kh_finder_chooses" for r in pair)
    if chooses and "kh_finder" in df:  # what the finder gains by naming the first dealer
        finder = df["kh_finder"].to_numpy().astype(np.int64)
        out[FINDER_SCORE] = totals[np.arange(n), finder]
    for k, name in enumerate(_hand_names(rules)):
        pts = df[[f"h{k + 1}_p{s}" for s in range(4)]].to_numpy(float)
        out[name] = pts[np.arange(n), (d0 + k) % 4]
    out.update(game_auctions(df))
    return out


# single hands of one contract (compare --contract): each seat's points by its place
HAND_PLACES = ("dealer's points", "eldest's points (dealer + 1)",
               "second's points (dealer + 2)", "third's points (dealer + 3)")
KH_HOLDER = "the K♥ holder's points"
_HAND_AUCTION = ("trump right sold", "trump right declined (4-3-3-3)",
                 "price (tricks; hands sold)")


def _hand_measures(df: pd.DataFrame) -> dict[str, np.ndarray]:
    """Per hand of one contract: each place's points from the dealer; where the contract
    counts the K♥, its holder's points (what kh_force changes); a positive hand's auction:
    sold, declined, and the price of a right sold (undefined where none was)."""
    from .engine import OUT_DECLINE, OUT_SELL
    from .rules import NO_KING_OF_HEARTS, POSITIVE

    n = len(df)
    rows = np.arange(n)
    pts = df[[f"points{s}" for s in range(4)]].to_numpy(np.float64)
    d = df["dealer"].to_numpy().astype(np.int64)
    out = {name: pts[rows, (d + k) % 4] for k, name in enumerate(HAND_PLACES)}
    contract = int(df["contract"].iat[0]) if n else 0
    if contract & NO_KING_OF_HEARTS:
        out[KH_HOLDER] = pts[rows, df["kh_seat"].to_numpy().astype(np.int64)]
    if contract == POSITIVE:
        outcome = df["outcome"].to_numpy()
        sold = outcome == OUT_SELL
        out[_HAND_AUCTION[0]] = sold.astype(np.float64)
        out[_HAND_AUCTION[1]] = (outcome == OUT_DECLINE).astype(np.float64)
        out[_HAND_AUCTION[2]] = np.where(sold, df["price"].to_numpy(np.float64), np.nan)
    return out


def _hand_names(rules) -> list[str]:
    from .rules import contract_name

    return [f"hand {k + 1} ({contract_name(code)}): its dealer's points"
            for k, code in enumerate(rules.contracts)]


def _ranges() -> tuple[tuple[float, float], tuple[float, float]]:
    """A seat's points in a hand and in a game, at most (see :func:`compare_bounds`)."""
    from .rules import HAND_TOTALS, POSITIVE

    positive = HAND_TOTALS[POSITIVE]
    penalties = sorted(t for t in HAND_TOTALS.values() if t < 0)
    hand = (float(min(penalties[0] + penalties[1], -positive)), 2.0 * positive)
    return hand, (float(sum(penalties) - 4 * positive), 4 * hand[1])


def compare_bounds(rules) -> dict[str, tuple[float, float]]:
    """Each compare measure's range. In a positive hand (325 points, 25 a trick) a seat
    takes at most every trick, and as the benefited a trump right's price of up to 13
    tricks more; a buyer who pays 13 may end 13 tricks below zero. A negative hand, two
    played together included, costs a seat at most its whole penalty. A game: the four
    positive hands and every penalty."""
    hand, game = _ranges()
    out = {f"final score, first dealer + {k}": game for k in range(4)}
    out[FINDER_SCORE] = game
    out.update(dict.fromkeys(_hand_names(rules), hand))
    from .rules import POSITIVE

    out.update(_auction_spans(sum(code == POSITIVE for code in rules.contracts)))
    out.update(dict.fromkeys((*HAND_PLACES, KH_HOLDER), hand))  # compare --contract
    out.update(dict.fromkeys(_HAND_AUCTION[:2], (0.0, 1.0)))
    out[_HAND_AUCTION[2]] = (1.0, 13.0)
    return out
