"""What every game's public module shares: seat names, policy lists and input errors."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

POLICY_NAMES = ("random", "heuristic")  # the codes every game's kernels use: 0 and 1
SEAT_OFFSETS = {"dealer": 0, "eldest": 1, "second": 2, "third": 3}  # seats after the dealer
SEATS = tuple(SEAT_OFFSETS)


class PolicyError(ValueError):
    """A policy name or per-seat policy list the engine does not know."""


class ScenarioError(ValueError):
    """Known cards that cannot be dealt (too many for a seat, or one card at two seats)."""


def parse_policies(spec: str | Sequence[str]) -> np.ndarray:
    """Seat policies: one name for all four seats, or four comma-separated names.

    >>> parse_policies("heuristic,random,heuristic,random").tolist()
    [1, 0, 1, 0]
    """
    given = spec.split(",") if isinstance(spec, str) else list(spec)
    names = [n.strip().lower() for n in given]
    if len(names) == 1:
        names = names * 4
    if len(names) != 4 or any(n not in POLICY_NAMES for n in names):
        raise PolicyError(
            f"bad policy {','.join(given)!r}; give one of {', '.join(POLICY_NAMES)} "
            f"or four of them separated by commas (seats 0,1,2,3)"
        )
    return np.array([POLICY_NAMES.index(n) for n in names], dtype=np.int64)


def policy_string(pols: np.ndarray) -> str:
    names = [POLICY_NAMES[p] for p in pols]
    return names[0] if len(set(names)) == 1 else ",".join(names)


def known_by_seat(hand: int, seat: int, known: tuple[tuple[int, int], ...],
                  hand_size: int) -> list[int]:
    """Masks of known cards by seat offset; ScenarioError when they cannot be dealt."""
    from ..cards import cards_of, format_card

    by_seat = [0, 0, 0, 0]
    if hand:
        by_seat[seat] = hand
    for off, mask in known:
        if off == seat and hand:
            raise ScenarioError(f"seat {SEATS[off]} holds the evaluated hand; its other "
                                "cards cannot be known")
        if by_seat[off] & mask:
            raise ScenarioError(f"a card is given twice for {SEATS[off]}")
        by_seat[off] |= mask
    total = 0
    for off, mask in enumerate(by_seat):
        if mask.bit_count() > hand_size:
            raise ScenarioError(f"{SEATS[off]} can hold {hand_size} cards, "
                                f"{mask.bit_count()} given")
        if total & mask:
            raise ScenarioError(f"{' '.join(format_card(c) for c in cards_of(total & mask))}"
                                " given to two seats")
        total |= mask
    return by_seat


def simulate_batches(run_batch: Callable, rules, n_deals: int, seed: int, pols: np.ndarray,
                     first: int, batch: int, progress: Callable[[int], None] | None,
                     rec_shape: tuple[int, np.dtype], n_hands: int):
    """Deals ``first .. first + n_deals - 1`` in batches of ``batch``: (records, hands).

    ``run_batch(rules, first, n, seed, pols)`` is a game's kernel driver; the
    result does not depend on ``batch``. ``progress(k)`` follows each batch.
    """
    if n_deals < 0:
        raise ValueError(f"n_deals must be >= 0, got {n_deals}")
    recs, hands = [], []
    for lo in range(first, first + n_deals, batch):
        k = min(batch, first + n_deals - lo)
        r, h = run_batch(rules, lo, k, seed, pols)
        recs.append(r)
        hands.append(h)
        if progress:
            progress(k)
    width, dtype = rec_shape
    rec = np.concatenate(recs) if recs else np.empty((0, width), dtype)
    hnd = np.concatenate(hands) if hands else np.empty((0, n_hands), np.uint64)
    return rec, hnd


def provenance(rules, seed: int, pols: np.ndarray, first: int) -> dict:
    """The ``attrs`` every simulation frame carries."""
    return {"game": rules.game, "rules": str(rules), "seed": int(seed),
            "policy": policy_string(pols), "first": int(first)}
