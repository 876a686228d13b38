"""King: deals played in batches, the engine's public face. It validates input and
turns kernel output into DataFrames (one row a deal) and trick-by-trick logs; the package
(``analyzer.games.king``) hands out every name here on first use, so that its rules and
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
    chunk_for,
    deal_indices,
    game_rules,
    kernels,
    known_by_seat,
    output_arrays,
    parse_policies,
    policy_vector,
    provenance,
    simulate_batches,
)
from . import engine
from .rules import (
    CONTRACT_CODES,
    POSITIVE,
    PRESET_NAMES,
    PRESETS,
    Rules,
    contract_name,
    kernel_params,
    parse_contract,
    parse_rules,
)

__all__ = [  # the package's face: analyzer.games.king hands these out (lazy_member)
    "parse_policies", "CONTRACT_CODES", "PRESET_NAMES", "Scenario", "NO_SCENARIO",
    "TRUMP_NAMES", "run_batch", "run_deals", "run_games", "records_frame", "games_frame",
    "simulate", "play_logged", "play_game_logged",
]


DEFAULT_CHUNK = 1024
GAMES_CHUNK = 256  # whole games a chunk: each is ten hands
TRUMP_NAMES = (*SUITS, "N")
OUTCOMES = (None, "sell", "decline", "play")


@dataclass(frozen=True)
class Scenario:
    """What single hands are conditioned on: ``hand`` (13 cards) at ``seat`` (offset from the
    dealer), cards ``known`` at other seats, and in a positive hand who names trump:
    ``chooser="self"`` (``trump`` 0..4, or None for its policy's) or ``"other"`` (each of the
    other seats in turn, by its policy), skipping the auction; ``None``: the auction."""

    hand: int = 0
    seat: int = 0
    known: tuple[tuple[int, int], ...] = ()
    chooser: str | None = None
    trump: int | None = None

    def vector(self) -> np.ndarray:
        by_seat = known_by_seat(self.hand, self.seat, self.known, 13)
        choose = {None: engine.CHOOSE_AUCTION, "self": engine.CHOOSE_SELF,
                  "other": engine.CHOOSE_OTHER}[self.chooser]
        seat = self.seat + 1 if self.hand or self.chooser else 0
        trump = engine.TRUMP_BY_POLICY if self.trump is None else self.trump
        return np.array([seat, *by_seat, choose, trump], dtype=np.uint64)


NO_SCENARIO = Scenario()


def run_batch(rules: Rules, first: int, n: int, seed: int, pols: np.ndarray,
              chunk: int | None = None, contract: int | str = "no-tricks",
              scenario: Scenario = NO_SCENARIO, out: tuple[np.ndarray, np.ndarray] | None = None,
              ) -> tuple[np.ndarray, np.ndarray]:
    """Single hands first .. first+n-1 of a contract: (records int16[n, NREC], hands u64[n, 4]),
    in the first n rows of ``out`` when given (see ``common.output_arrays``)."""
    if n < 0 or first < 0:
        raise ValueError(f"need n >= 0 and first >= 0; got {n}, {first}")
    return run_deals(rules, np.arange(first, first + n, dtype=np.int64), seed, pols, chunk,
                     contract, scenario, out)


def run_deals(rules: Rules, indices: np.ndarray, seed: int, pols: np.ndarray,
              chunk: int | None = None, contract: int | str = "no-tricks",
              scenario: Scenario = NO_SCENARIO, out: tuple[np.ndarray, np.ndarray] | None = None,
              ) -> tuple[np.ndarray, np.ndarray]:
    """Like run_batch for any hand indices (records and hands in the order given)."""
    code = parse_contract(contract) if isinstance(contract, str) else int(contract)
    chunk = chunk_for(pols, chunk, DEFAULT_CHUNK)
    idx = np.ascontiguousarray(indices, dtype=np.int64)
    rec, hands = output_arrays(len(idx), engine.NREC, np.int16, 4, out)
    if len(idx):
        kernels(pols, engine).hands_kernel(
            seed, idx, chunk, code, kernel_params(rules), pols, scenario.vector(), rec, hands)
    return rec, hands


def run_games(rules: Rules, first: int, n: int, seed: int, pols: np.ndarray,
              chunk: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Whole games first .. first+n-1: (records int16[n, len(GAME_COLUMNS)], no hands)."""
    if n < 0 or first < 0:
        raise ValueError(f"need n >= 0 and first >= 0; got {n}, {first}")
    chunk = chunk_for(pols, chunk, GAMES_CHUNK)
    out = np.empty((n, len(engine.GAME_COLUMNS)), dtype=np.int16)
    if n:
        kernels(pols, engine).games_kernel(seed, first, n, chunk, kernel_params(rules), pols,
                                           out)
    return out, np.empty((n, 0), dtype=np.uint64)


def records_frame(rec: np.ndarray, hands: np.ndarray, first: int) -> pd.DataFrame:
    """Per-hand rows (single-contract runs)."""
    cols = {"deal": np.arange(first, first + len(rec), dtype=np.int64)}
    for j, name in enumerate(engine.REC_COLUMNS):
        cols[name] = rec[:, j]
    for s in range(4):
        cols[f"hand{s}"] = hands[:, s]
    return pd.DataFrame(cols)


def games_frame(out: np.ndarray, first: int) -> pd.DataFrame:
    """Per-game rows: first dealer, final totals, each hand's points per seat and its trump
    auction (outcome and price), the seat dealt the K♥."""
    df = pd.DataFrame(out, columns=list(engine.GAME_COLUMNS))
    df.insert(0, "game", np.arange(first, first + len(out), dtype=np.int64))
    return df


def simulate(rules: Rules, n_deals: int, seed: int = 1, policies: str | np.ndarray = "heuristic",
             first: int = 0, batch: int = 200_000,
             progress: Callable[[int], None] | None = None,
             contract: str | None = None) -> pd.DataFrame:
    """Whole games (``contract=None``) or single hands of one contract; one row each.
    ``rules``: a Rules of King, or a variant string (``"king(allow_no_trump=True)"``).

    Game or hand ``i`` is the same whatever ``batch``, the thread count or the
    machine. The frame's ``attrs`` carry the provenance, and ``contract``.
    """
    rules = game_rules(rules, PRESETS, parse_rules)  # a variant string, or a clear refusal
    pols = policy_vector(policies)
    if contract is None:
        out, _ = simulate_batches(run_games, rules, n_deals, seed, pols, first, batch, progress,
                                  (len(engine.GAME_COLUMNS), np.int16), 0)
        df = games_frame(out, first)
        what = "games"
    else:
        code = parse_contract(contract)

        def run(r, lo, k, s, p):
            return run_batch(r, lo, k, s, p, contract=code)

        rec, hands = simulate_batches(run, rules, n_deals, seed, pols, first, batch, progress,
                                      (engine.NREC, np.int16), 4)
        df = records_frame(rec, hands, first)
        what = contract_name(code)
    df.attrs.update(provenance(rules, seed, pols, first), contract=what)
    return df


# ---- logged hands --------------------------------------------------------------------------


def _cards(mask: int) -> list[str]:
    return [format_card(c) for c in cards_of(int(mask))]


def _logs(rules, seed, indices, slots, dealers, contracts, pols, hand_nos) -> list[dict]:
    n = len(indices)
    rec = np.empty((n, engine.NREC), dtype=np.int16)
    hands = np.empty((n, 4), dtype=np.uint64)
    li = np.empty((n, engine.NLOGI), dtype=np.int16)
    arr = [np.asarray(x, dtype=np.int64) for x in (indices, slots, dealers, contracts)]
    kernels(pols, engine).log_kernel(seed, *arr, kernel_params(rules), pols, rec, hands, li)
    return [_log_dict(rules, rec[k], hands[k], li[k], int(arr[0][k]), hand_nos[k])
            for k in range(n)]


def play_logged(rules: Rules, seed: int, indices: Sequence[int] | np.ndarray,
                policies: str | np.ndarray = "heuristic",
                contract: str = "no-tricks") -> list[dict]:
    """Trick-by-trick logs of single hands (format: tests/reference/KING_LOG_FORMAT.md)."""
    rules = game_rules(rules, PRESETS, parse_rules)  # a variant string, or a clear refusal
    pols = policy_vector(policies)
    idx = [int(i) for i in deal_indices(indices)]
    code = parse_contract(contract)
    return _logs(rules, seed, idx, [0] * len(idx), [i % 4 for i in idx], [code] * len(idx),
                 pols, [0] * len(idx))


def play_game_logged(rules: Rules, seed: int, game: int,
                     policies: str | np.ndarray = "heuristic") -> list[dict]:
    """The hand logs of whole game ``game``: the same hands as ``simulate``'s game row."""
    rules = game_rules(rules, PRESETS, parse_rules)  # a variant string, or a clear refusal
    pols = policy_vector(policies)
    params = kernel_params(rules)
    d0, finder = engine.first_dealer(seed, game, params, pols)
    contracts = rules.contracts
    k = len(contracts)
    logs = _logs(rules, seed, [game] * k, list(range(k)), [(d0 + j) % 4 for j in range(k)],
                 list(contracts), pols, list(range(1, k + 1)))
    logs[0]["kh_finder"] = int(finder)  # who found the first dealer (the game's, not a hand's)
    return logs


def _log_dict(rules: Rules, r: np.ndarray, hands: np.ndarray, li: np.ndarray, index: int,
              hand_no: int) -> dict:
    positive = int(r[engine.R_CONTRACT]) == POSITIVE
    auction = []
    for j in range(min(int(r[engine.R_NCALLS]), engine.MAX_CALLS)):
        seat, act = int(li[2 * j]), int(li[2 * j + 1])
        auction.append([seat, {engine.ACCEPT: "accept", engine.REFUSE: "refuse"}.get(act, act)])
    outcome = OUTCOMES[int(r[engine.R_OUTCOME])]
    tricks = []
    if outcome != "decline":
        for t in range(13):
            base = engine.L_TRICKS + 10 * t
            plays = [[int(li[base + 2 + 2 * j]), format_card(int(li[base + 3 + 2 * j]))]
                     for j in range(4)]
            tricks.append({"leader": int(li[base]), "plays": plays, "winner": int(li[base + 1])})
    trump = int(r[engine.R_TRUMP])
    return {
        "index": index,
        "hand_no": hand_no,
        "rules": rules.as_dict(),
        "contract": contract_name(int(r[engine.R_CONTRACT])),
        "dealer": int(r[engine.R_DEALER]),
        "hands": [_cards(hands[s]) for s in range(4)],
        "auction": auction if positive else [],
        "outcome": outcome,
        "buyer": None if r[engine.R_BUYER] < 0 else int(r[engine.R_BUYER]),
        "price": int(r[engine.R_PRICE]),
        "trump": TRUMP_NAMES[trump] if trump >= 0 else None,
        "chooser": None if r[engine.R_CHOOSER] < 0 else int(r[engine.R_CHOOSER]),
        "leader": None if r[engine.R_LEADER] < 0 else int(r[engine.R_LEADER]),
        "tricks": tricks,
        "result": {
            "tricks": [int(r[engine.R_TRICKS + s]) for s in range(4)],
            "points": [int(r[engine.R_POINTS + s]) for s in range(4)],
        },
    }

