"""Rook: deals played in batches, the engine's public face. It validates input and
turns kernel output into DataFrames (one row a deal) and trick-by-trick logs; the package
(``analyzer.games.rook``) hands out every name here on first use, so that its rules and
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
    policy_vector,
    provenance,
    record_rows,
    simulate_frame,
)
from . import engine
from .rules import PRESETS, Rules, kernel_params, parse_rules

__all__ = [  # the package's face: analyzer.games.rook hands these out (lazy_member)
    "parse_policies", "Scenario", "NO_SCENARIO", "TRUMP_NAMES", "run_batch", "run_deals",
    "records_frame", "simulate", "simulate_games", "play_logged",
]


DEFAULT_CHUNK = 1024
TRUMP_NAMES = (*SUITS, "N")  # trump codes 0..3 are the suits C D H S, 4 is no trump
DIRECTIONS = {1: "left", -1: "right", 0: "none"}


@dataclass(frozen=True)
class Scenario:
    """What the hands are conditioned on: known cards, and how one seat takes part in the auction.

    Seats count clockwise from the dealer (0 dealer, 1 eldest, 2 second, 3 third).
    ``hand`` is the 13 cards of ``seat``; ``known`` maps other seats to cards they
    are known to hold. ``force`` is ``"declarer"`` (``seat`` is declarer at
    ``bid``; nobody else bids), ``"pass"`` (``seat`` passes, the others bid by
    their policies) or ``"ceiling"`` (``seat`` raises by the minimum while that
    is at most ``bid``). As declarer the seat calls ``trump`` (0..3, 4 = no
    trump; None: its policy chooses). ``direction`` fixes the passing direction
    (``"left"``, ``"right"``, ``"none"``) instead of the hand index's.
    """

    hand: int = 0
    seat: int = 0
    force: str = "none"
    trump: int | None = None
    known: tuple[tuple[int, int], ...] = ()
    bid: int = 0
    direction: str | None = None

    def vector(self, hand_size: int = 13) -> np.ndarray:
        by_seat = known_by_seat(self.hand, self.seat, self.known, hand_size)
        force = ("none", "declarer", "pass", "ceiling").index(self.force)
        seat = self.seat + 1 if self.hand or self.force != "none" else 0
        trump = engine.TRUMP_BY_POLICY if self.trump is None else self.trump
        direction = 0 if self.direction is None else 1 + ("left", "right", "none").index(
            self.direction)
        return np.array([seat, force, trump, *by_seat, self.bid, direction], dtype=np.uint64)


NO_SCENARIO = Scenario()


def run_batch(rules: Rules, first: int, n: int, seed: int, pols: np.ndarray,
              chunk: int | None = None, scenario: Scenario = NO_SCENARIO,
              out: tuple[np.ndarray, np.ndarray] | None = None,
              ) -> tuple[np.ndarray, np.ndarray]:
    """Raw kernel output for hands first .. first+n-1: (records int16[n, NREC], hands u64[n, 5]),
    in the first n rows of ``out`` when given (see ``common.output_arrays``)."""
    return run_deals(rules, deal_range(first, n), seed, pols, chunk,
                     scenario.vector(rules.hand_size), out)


def run_deals(rules: Rules, indices: np.ndarray, seed: int, pols: np.ndarray,
              chunk: int | None = None, scenario: np.ndarray | None = None,
              out: tuple[np.ndarray, np.ndarray] | None = None,
              ) -> tuple[np.ndarray, np.ndarray]:
    """Like run_batch for any hand indices (records and hands in the order given);
    ``scenario`` is a scenario vector (``Scenario.vector``), none by default."""
    chunk = chunk_for(pols, chunk, DEFAULT_CHUNK)
    idx = np.ascontiguousarray(indices, dtype=np.int64)
    rec, hands = output_arrays(len(idx), engine.NREC, np.int16, engine.N_HANDS_OUT, out)
    if scenario is None:
        scenario = NO_SCENARIO.vector(rules.hand_size)
    if len(idx):
        kernels(pols, engine).simulate_kernel(
            seed, idx, chunk, kernel_params(rules), pols, scenario, rec, hands)
    return rec, hands


def records_frame(rec: np.ndarray, hands: np.ndarray, first: int) -> pd.DataFrame:
    """Per-hand rows with derived declarer-side columns (``bid_points``, ``opp_points``,
    ``score_bid``, ``score_opp``)."""
    df = record_rows(rec, engine.REC_COLUMNS, hands, first)
    team = df["declarer"].to_numpy() & 1
    df["bid_points"], df["opp_points"] = by_side(df, team, "points0", "points1", np.int16)
    df["score_bid"], df["score_opp"] = by_side(df, team, "score0", "score1", np.int16)
    return df


def simulate(rules: Rules, n_deals: int, seed: int = 1, policies: str | np.ndarray = "heuristic",
             first: int = 0, batch: int = 1_000_000,
             progress: Callable[[int], None] | None = None) -> pd.DataFrame:
    """One row per hand, for hands ``first`` to ``first + n_deals - 1`` of ``seed`` (``rules``:
    a Rules of Rook, or a variant string), with the
    run's provenance (game, rules string, seed, policies, first hand) in ``attrs``. Hand ``i``
    is the same hand whatever ``batch``, the threads or the machine; ``progress(k)`` follows
    each batch of k hands."""
    rules = game_rules(rules, PRESETS, parse_rules)  # a variant string, or a clear refusal
    return simulate_frame(run_batch, records_frame, rules, n_deals, seed, policies, first, batch,
                          progress, (engine.NREC, np.int16), engine.N_HANDS_OUT)


def default_max_deals(rules: Rules) -> int:
    """The hands a game may last by default: 1,000, or twice the target when that is more
    (``kit.games.default_max_deals``)."""
    from ..kit.games import default_max_deals as by_target

    return by_target(rules.target)


def game_deal(game: int, k: int) -> int:
    """The hand index of hand ``k`` of whole game ``game`` (``kit.games.game_deal``)."""
    from ..kit.games import game_deal as kernel_game_deal

    return int(kernel_game_deal(game, k))


def simulate_games(rules: Rules, n_games: int, seed: int = 1,
                   policies: str | np.ndarray = "heuristic", first: int = 0,
                   max_deals: int | None = None, progress=None) -> pd.DataFrame:
    """Whole games to ``rules.target``, one row per game (``rook.games`` says which hands).

    Columns: winner (team 0 or 1, -1 if not decided within ``max_deals`` hands, by default
    :func:`default_max_deals`), deals (hands played), score0, score1 (final totals),
    first_dealer. Game g's hands do not depend on ``max_deals``, the threads or ``n_games``.
    """
    from ..kit.games import GAME_COLUMNS, check_games, run_games
    from . import games as games_engine  # here: single hands need not load it

    rules = game_rules(rules, PRESETS, parse_rules)  # a variant string, or a clear refusal
    max_deals = default_max_deals(rules) if max_deals is None else max_deals
    check_games(n_games, first, max_deals)
    pols = policy_vector(policies)
    out = run_games(kernels(pols, games_engine).games_kernel, seed, first, n_games, max_deals,
                    kernel_params(rules), pols, NO_SCENARIO.vector(rules.hand_size),
                    first_batch(pols) // 10, progress)
    df = pd.DataFrame(out, columns=list(GAME_COLUMNS))
    df.insert(0, "game", np.arange(first, first + n_games, dtype=np.int64))
    df.attrs.update(provenance(rules, seed, pols, first), max_deals=max_deals)
    return df


# ---- logged hands ------------------------------------------------------------------------


def _cards(mask: int) -> list[str]:
    return [format_card(c) for c in cards_of(int(mask))]


def play_logged(rules: Rules, seed: int, indices: Sequence[int] | np.ndarray,
                policies: str | np.ndarray = "heuristic",
                scenario: Scenario = NO_SCENARIO) -> list[dict]:
    """Trick-by-trick logs of the chosen hands (format: tests/reference/ROOK_LOG_FORMAT.md)."""
    rules = game_rules(rules, PRESETS, parse_rules)  # a variant string, or a clear refusal
    pols = policy_vector(policies)
    idx = deal_indices(indices)
    n = len(idx)
    rec = np.empty((n, engine.NREC), dtype=np.int16)
    hands = np.empty((n, engine.N_HANDS_OUT), dtype=np.uint64)
    li = np.empty((n, engine.NLOGI), dtype=np.int16)
    lu = np.zeros((n, engine.NLOGU), dtype=np.uint64)
    kernels(pols, engine).log_kernel(seed, idx, kernel_params(rules), pols,
                                     scenario.vector(rules.hand_size), rec, hands, li, lu)
    return [_log_dict(rules, rec[k], hands[k], li[k], lu[k], int(idx[k])) for k in range(n)]


def _log_dict(rules: Rules, r: np.ndarray, hands: np.ndarray, li: np.ndarray, lu: np.ndarray,
              index: int) -> dict:
    calls = [[int(li[engine.L_CALLS + 2 * j]), int(li[engine.L_CALLS + 2 * j + 1])]
             for j in range(min(int(r[engine.R_NCALLS]), engine.MAX_CALLS))]
    tricks = []
    for t in range(rules.hand_size):
        base = engine.L_TRICKS + 10 * t
        plays = [[int(li[base + 2 + 2 * j]), format_card(int(li[base + 3 + 2 * j]))]
                 for j in range(4)]
        tricks.append({"leader": int(li[base]), "plays": plays, "winner": int(li[base + 1])})
    return {
        "index": index,
        "rules": rules.as_dict(),
        "dealer": int(r[engine.R_DEALER]),
        "hand_index": index,
        "redeals": int(r[engine.R_REDEALS]),
        "hands": [_cards(hands[s]) for s in range(4)],
        "widow": format_card(int(r[engine.R_WIDOW])),
        "auction": calls,
        "declarer": int(r[engine.R_DECLARER]),
        "bid": int(r[engine.R_BID]),
        "forced": bool(r[engine.R_FORCED]),
        "drop": format_card(int(r[engine.R_DROP])),
        "direction": DIRECTIONS[int(r[engine.R_DIRECTION])],
        "passed": [_cards(lu[engine.U_PASSED + s]) for s in range(4)],
        "trump": TRUMP_NAMES[int(r[engine.R_TRUMP])],
        "leader": int(r[engine.R_LEADER]),
        "start_hands": [_cards(lu[engine.U_START + s]) for s in range(4)],
        "tricks": tricks,
        "result": {
            "points": [int(r[engine.R_PTS]), int(r[engine.R_PTS + 1])],
            "drop_team": int(r[engine.R_DROP_TEAM]),
            "last_trick_team": int(r[engine.R_LAST_TEAM]),
            "made": bool(r[engine.R_MADE]),
            "score": [int(r[engine.R_SCORE]), int(r[engine.R_SCORE + 1])],
        },
    }


