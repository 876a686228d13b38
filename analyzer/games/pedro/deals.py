"""Pedro and Cinch: deals played in batches, the engine's public face. It validates input and
turns kernel output into DataFrames (one row a deal) and trick-by-trick logs; the package
(``analyzer.games.pedro``) hands out every name here on first use, so that its rules and
``GAME`` load without numba or pandas.

May import: its engine, games, rules and game modules, the foundations, ``games.common``
and ``games.kit.games``; never another game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ...cards import SUITS, cards_of, format_card
from ..common import (
    POLICY_NAMES,
    SEAT_OFFSETS,
    SEATS,
    PolicyError,
    ScenarioError,
    by_side,
    chunk_for,
    deal_indices,
    deal_range,
    first_batch,
    game_rules,
    kernels,
    known_by_seat,
    output_arrays,
    parse_policies,
    policy_string,
    policy_vector,
    provenance,
    record_rows,
    simulate_frame,
)
from . import engine
from .rules import PRESETS, Rules, kernel_params, parse_rules

__all__ = [  # the package's face: analyzer.games.pedro hands these out (lazy_member)
    "POLICY_NAMES", "SEAT_OFFSETS", "SEATS", "PolicyError", "ScenarioError", "parse_policies",
    "policy_string", "Scenario", "NO_SCENARIO", "ELEMENTS", "run_batch", "run_deals",
    "records_frame", "simulate", "simulate_games", "default_max_deals", "game_deal",
    "play_logged",
]


ELEMENTS = engine.ELEMENTS
DEFAULT_CHUNK = 2048


@dataclass(frozen=True)
class Scenario:
    """What the deals are conditioned on: known cards, and how one seat takes part in the auction.

    Seats count clockwise from the dealer (0 dealer, 1 eldest, 2 second, 3
    third) because the deal rotates with the deal index. ``hand`` is the 9
    cards of ``seat``; ``known`` maps other seats to cards they are known to
    hold. ``force`` is ``"maker"`` (``seat`` names ``trump``; nobody bids),
    ``"pass"`` (``seat`` passes, the others bid by their policies) or ``"bid"``
    (``seat`` bids ``bid`` in its turn when that is legal, else passes; the
    others bid by their policies; if it wins it names ``trump``). The dealer bids last and
    sees what it takes, so a dealer's ``bid`` is a ceiling: he bids the lowest legal amount
    when that is at most ``bid`` (bidding more would only raise his contract).
    """

    hand: int = 0  # shared-layout mask of the scenario seat's 9 cards; 0 = nothing fixed
    seat: int = 0
    force: str = "none"
    trump: int | None = 0  # None: the trump the seat's policy names
    known: tuple[tuple[int, int], ...] = ()  # (seat offset, mask) pairs for other seats
    bid: int = 0  # the bid of force="bid"

    def vector(self) -> np.ndarray:
        by_seat = known_by_seat(self.hand, self.seat, self.known, 9)
        force = ("none", "maker", "pass", "bid").index(self.force)
        seat = self.seat + 1 if self.hand or self.force != "none" else 0
        trump = engine.TRUMP_BY_POLICY if self.trump is None else self.trump
        return np.array([seat, force, trump, *by_seat, self.bid], dtype=np.uint64)


NO_SCENARIO = Scenario()


def run_batch(rules: Rules, first: int, n: int, seed: int, pols: np.ndarray,
              chunk: int | None = None, scenario: Scenario = NO_SCENARIO,
              out: tuple[np.ndarray, np.ndarray] | None = None,
              ) -> tuple[np.ndarray, np.ndarray]:
    """Raw kernel output for deals first .. first+n-1: (records int8[n, NREC], hands u64[n, 4]),
    in the first n rows of ``out`` when given (see ``common.output_arrays``)."""
    return run_deals(rules, deal_range(first, n), seed, pols, chunk, scenario, out)


def run_deals(rules: Rules, indices: np.ndarray, seed: int, pols: np.ndarray,
              chunk: int | None = None, scenario: Scenario | np.ndarray = NO_SCENARIO,
              out: tuple[np.ndarray, np.ndarray] | None = None,
              ) -> tuple[np.ndarray, np.ndarray]:
    """Like run_batch for any deal indices (records and hands in the order given);
    ``scenario`` is a Scenario or its vector (``Scenario.vector``, possibly edited)."""
    chunk = chunk_for(pols, chunk, DEFAULT_CHUNK)
    idx = np.ascontiguousarray(indices, dtype=np.int64)
    rec, hands = output_arrays(len(idx), engine.NREC, np.int8, 4, out)
    vec = scenario if isinstance(scenario, np.ndarray) else scenario.vector()
    if len(idx):
        kernels(pols, engine).simulate_kernel(
            seed, idx, chunk, kernel_params(rules), pols, vec, rec, hands)
    return rec, hands


def records_frame(rec: np.ndarray, hands: np.ndarray, first: int) -> pd.DataFrame:
    """Per-deal rows with derived bidding-side columns.

    ``maker`` is the seat that named trump (the bidder, or the dealer on an all-pass
    deal); ``bid_points``/``opp_points`` are its side's and the other side's points.
    """
    df = record_rows(rec, engine.REC_COLUMNS, hands, first)
    maker = np.where(df["bidder"] >= 0, df["bidder"], df["dealer"]).astype(np.int8)
    team = maker & 1
    df["maker"] = maker
    df["bid_points"], df["opp_points"] = by_side(df, team, "points0", "points1", np.int8)
    for m in (1, 2):
        df[f"score{m}_bid"], df[f"score{m}_opp"] = by_side(
            df, team, f"score{m}_team0", f"score{m}_team1", np.int8)
    return df


def simulate(rules: Rules, n_deals: int, seed: int = 1, policies: str | np.ndarray = "heuristic",
             first: int = 0, batch: int = 1_000_000,
             progress: Callable[[int], None] | None = None) -> pd.DataFrame:
    """Simulate deals ``first .. first + n_deals - 1`` of ``seed``; one row per deal.
    ``rules``: a Rules of Pedro or Cinch, or a variant string (``"cinch(min_bid=7)"``).

    Deal ``i`` is the same whatever ``batch``, the thread count or the machine.
    ``progress(k)`` is called after each batch of k deals. The frame's ``attrs``
    carry the provenance: game, rules string, seed, policies, first deal.
    """
    rules = game_rules(rules, PRESETS, parse_rules)  # a variant string, or a clear refusal
    return simulate_frame(run_batch, records_frame, rules, n_deals, seed, policies, first, batch,
                          progress, (engine.NREC, np.int8), 4)


def default_max_deals(rules: Rules) -> int:
    """The deals a game may last by default: 1,000, or twice the target when that is more
    (a side gains a few points a deal, so games end far sooner)."""
    from ..kit.games import default_max_deals as by_target

    return by_target(rules.target)


def game_deal(game: int, k: int) -> int:
    """The deal index of deal ``k`` of whole game ``game`` (``kit.games.game_deal``)."""
    from ..kit.games import game_deal as kernel_game_deal

    return int(kernel_game_deal(game, k))


def simulate_games(rules: Rules, n_games: int, seed: int = 1,
                   policies: str | np.ndarray = "heuristic", first: int = 0,
                   max_deals: int | None = None, progress=None) -> pd.DataFrame:
    """Whole games to ``rules.target``, one row per game (see its games module for the deals used).

    Columns: winner (team 0 or 1, -1 if not decided within ``max_deals`` deals, by default
    :func:`default_max_deals`), deals, score0, score1 (final totals), first_dealer. Game g's
    deals do not depend on ``max_deals``.
    """
    from ..kit.games import GAME_COLUMNS, check_games, run_games
    from . import games as games_engine  # here: single deals need not load it

    rules = game_rules(rules, PRESETS, parse_rules)  # a variant string, or a clear refusal
    max_deals = default_max_deals(rules) if max_deals is None else max_deals
    check_games(n_games, first, max_deals)
    pols = policy_vector(policies)
    out = run_games(kernels(pols, games_engine).games_kernel, seed, first, n_games, max_deals,
                    kernel_params(rules), pols, NO_SCENARIO.vector(), first_batch(pols) // 10,
                    progress)
    df = pd.DataFrame(out, columns=list(GAME_COLUMNS))
    df.insert(0, "game", np.arange(first, first + n_games, dtype=np.int64))
    df.attrs.update(provenance(rules, seed, pols, first), max_deals=max_deals)
    return df


# ---- logged deals ---------------------------------------------------------------------


def _cards(mask: int) -> list[str]:
    return [format_card(c) for c in cards_of(int(mask))]


def _team(v: int) -> int | None:
    return None if v < 0 else int(v)


def play_logged(rules: Rules, seed: int, indices: Sequence[int] | np.ndarray,
                policies: str | np.ndarray = "heuristic",
                scenario: Scenario = NO_SCENARIO) -> list[dict]:
    """Trick-by-trick logs of the chosen deals (format: tests/reference/PEDRO_LOG_FORMAT.md),
    under ``scenario`` (known cards, a forced seat) as :func:`run_deals` plays them."""
    rules = game_rules(rules, PRESETS, parse_rules)  # a variant string, or a clear refusal
    pols = policy_vector(policies)
    idx = deal_indices(indices)
    n = len(idx)
    rec = np.empty((n, engine.NREC), dtype=np.int8)
    hands = np.empty((n, 4), dtype=np.uint64)
    li = np.empty((n, engine.NLOGI), dtype=np.int16)
    lu = np.zeros((n, engine.NLOGU), dtype=np.uint64)
    kernels(pols, engine).log_kernel(seed, idx, kernel_params(rules), pols,
                                     scenario.vector(), rec, hands, li, lu)
    return [_log_dict(rules, rec[k], li[k], lu[k], int(idx[k])) for k in range(n)]


def _log_dict(rules: Rules, r: np.ndarray, li: np.ndarray, lu: np.ndarray, index: int) -> dict:
    dealer = int(li[engine.L_DEALER])
    stock = [int(c) for c in li[engine.L_STOCK:engine.L_STOCK + 16]]
    drawn = []
    for s in range(4):
        got = int(lu[engine.U_DRAWN + s])
        if s == dealer:
            drawn.append(_cards(got))
        else:  # off the top, in stock order
            drawn.append([format_card(c) for c in stock if got >> c & 1])
    tricks = []
    for t in range(int(li[engine.L_NTRICKS])):
        base = engine.L_TRICKS + 10 * t
        plays = [[int(li[base + 2 + 2 * j]), format_card(int(li[base + 3 + 2 * j]))]
                 for j in range(4) if li[base + 2 + 2 * j] >= 0]
        dumps = []
        if t == 0:
            for s in range(4):
                dumps += [[s, c] for c in _cards(lu[engine.U_DUMPS + s])]
        tricks.append({"leader": int(li[base]), "plays": plays, "dumps": dumps,
                       "winner": int(li[base + 1])})
    bidder = int(li[engine.L_BIDDER])
    made = int(r[engine.R_MADE])
    return {
        "index": index,
        "rules": rules.as_dict(),
        "dealer": dealer,
        "redeals": int(li[engine.L_REDEALS]),
        "hands": [_cards(lu[engine.U_HANDS + s]) for s in range(4)],
        "stock": [format_card(c) for c in stock],
        "bids": [int(b) for b in li[engine.L_BIDS:engine.L_BIDS + 4]],
        "bidder": None if bidder < 0 else bidder,
        "bid": int(li[engine.L_BID]),
        "trump": SUITS[int(li[engine.L_TRUMP])],
        "kept": [_cards(lu[engine.U_KEPT + s]) for s in range(4)],
        "dead": [[s, c] for s in range(4) for c in _cards(lu[engine.U_DEAD + s])],
        "drawn": drawn,
        "stock_left": _cards(lu[engine.U_STOCK_LEFT]),
        "start_hands": [_cards(lu[engine.U_START + s]) for s in range(4)],
        "tricks": tricks,
        "result": {
            **{e: _team(int(r[engine.R_HIGH + k])) for k, e in enumerate(engine.ELEMENTS)},
            "points": [int(r[engine.R_PTS]), int(r[engine.R_PTS + 1])],
            "dead_points": int(r[engine.R_DEAD_PTS]),
            "made": None if made < 0 else bool(made),
            "score1": [int(r[engine.R_S1]), int(r[engine.R_S1 + 1])],
            "score2": [int(r[engine.R_S2]), int(r[engine.R_S2 + 1])],
        },
    }

