"""What every game's deal view shares: seat labels, cards and hands as text, the table of
the four dealt hands.

Seats are 0..3 clockwise, labelled N, E, S, W. Cards print as rank + suit with ``T`` for
the ten, hands in the order people sort them: spades, hearts, diamonds, clubs, high to low
within each suit.

May import: :mod:`analyzer.cards` and :mod:`analyzer.text`; never a game.
"""

from __future__ import annotations

from .cards import RANKS, CardSet, display_order
from .text import render_table

SEAT_LABELS = "NESW"
_DISPLAY_SUITS = (3, 2, 1, 0)  # spades, hearts, diamonds, clubs


def cards_text(cards: list[str]) -> str:
    """A hand or a trick's cards in display order; ``-`` for none."""
    return str(CardSet(" ".join(cards))) if cards else "-"


class Seats:
    """A seat as the views print it: ``0 N`` (or ``0`` without labels); ``short``: ``N``."""

    def __init__(self, labels: bool):
        self.labels = labels

    def __call__(self, s: int) -> str:
        return f"{s} {SEAT_LABELS[s]}" if self.labels else str(s)

    def short(self, s: int) -> str:
        return SEAT_LABELS[s] if self.labels else str(s)


def signed(v: int) -> str:
    return f"{v:+d}"


def _suit_ranks(cards: list[str], suit: int) -> str:
    ranks = [RANKS[c % 16] for c in display_order(CardSet(" ".join(cards)).mask) if c // 16 == suit]
    return " ".join(ranks) if ranks else "-"


def dealt_hands_table(hands: list[list[str]], seat, joker: str | None = None) -> str:
    """The four dealt hands by suit (spades first, high to low); with ``joker`` (its card
    string, e.g. the Rook's ``"JK"``) a last column shows who holds it."""
    head = ["seat", "spades", "hearts", "diamonds", "clubs"] + ([joker_name(joker)] if joker
                                                                 else [])
    rows = []
    for s in range(4):
        plain = [c for c in hands[s] if c != joker]
        row = [seat(s)] + [_suit_ranks(plain, su) for su in _DISPLAY_SUITS]
        if joker:
            row.append(joker if joker in hands[s] else "-")
        rows.append(row)
    return render_table(head, rows, indent="  ")


def joker_name(joker: str) -> str:
    return "rook" if joker == "JK" else "joker"
