"""Cards as bits of one uint64, the layout every game in bidlab shares.

Layout (card index = bit position)::

    bit  63 ......... 48 47 ......... 32 31 ......... 16 15 .......... 0
         J..  spades     ...  hearts      ... diamonds     ...  clubs
    lane = suit (C=0, D=1, H=2, S=3), 16 bits each;
    inside a lane, bit r = rank r + 2 (2 -> bit 0 ... A -> bit 12);
    bits 13..15 of each lane are free, except bit 63: the joker (Rook's "Rook").

Ranks rise with the bit, so within a suit "highest card" is the most
significant bit of the lane. Game-specific orders (Pedro's Left Pedro joining
trumps between the 5 and 4, the Rook as lowest trump) are remapped inside each
game module; nothing here knows about trumps.

Text form at the edges only: ``"AS KS 10H TD 5C 2h"`` (10 or T, any case,
separated by spaces or commas), ``"JK"``/``"ROOK"``/``"JOKER"`` for the joker.

May import: :mod:`.bits` and :mod:`.parsing`; pyarrow for a column of masks as text
(:func:`format_masks`).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Iterator

import numpy as np

from .parsing import quoted

SUITS = "CDHS"
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
RANKS = "23456789TJQKA"
CLUBS, DIAMONDS, HEARTS, SPADES = range(4)
LANE_BITS = 16
JOKER = 63

Mask = int  # a set of cards as a plain int (numba kernels use np.uint64)

SUIT_MASKS = tuple(0x1FFF << (LANE_BITS * s) for s in range(4))
DECK_52 = np.uint64(sum(SUIT_MASKS))  # the 52 standard cards, no joker
DECK_52: Mask = sum(SUIT_MASKS)
DECK_53: Mask = DECK_52 | (1 << JOKER)

_JOKER_TOKENS = {"JK", "JOKER", "ROOK"}
_SPLIT = re.compile(r"[\s,]+")


class CardParseError(ValueError):
    """A card token that cannot be read, or a card given twice."""

    def __init__(self, message: str, token: str | None = None, position: int | None = None):
        super().__init__(message)
        self.token = token
        self.position = position


def card(rank: int, suit: int) -> int:
    """Card index of rank 2..14 (A = 14) in suit 0..3. ``card(14, SPADES) == 60``."""
    if not (2 <= rank <= 14 and 0 <= suit <= 3):
        raise ValueError(f"no card with rank {rank} and suit {suit}")
    return suit * LANE_BITS + rank - 2


def suit_of(c: int) -> int:
    """Suit 0..3 of a card index (the joker reports 3, its lane)."""
    return c // LANE_BITS


def rank_of(c: int) -> int:
    """Rank 2..14 of a card index."""
    return c % LANE_BITS + 2


_SUIT_SYMBOLS = {"♣": "C", "♧": "C", "♦": "D", "♢": "D", "♥": "H", "♡": "H", "♠": "S", "♤": "S"}


def parse_card(token: str, position: int = 1) -> int:
    """Card index of one token such as ``"10h"``, ``"AS"`` or ``"K♥"``; raises
    CardParseError.

    >>> parse_card("K♥") == parse_card("KH")
    True
    """
    # the suit symbols bidlab prints (K♥), and their white forms, read as the letters; an
    # emoji's variation selector (♥️) is dropped
    t = token.strip().replace("\ufe0f", "")
    if t and t[-1] in _SUIT_SYMBOLS:
        t = t[:-1] + _SUIT_SYMBOLS[t[-1]]
    # then ASCII only: 'ſ'.upper() is 'S' and 'ı'.upper() is 'I', so a look-alike letter
    # would read as a suit
    t = t.upper() if t.isascii() else ""
    if t in _JOKER_TOKENS:
        return JOKER
    if len(t) >= 2 and t[-1] in SUITS:
        r = t[:-1]
        r = "T" if r == "10" else r
        if len(r) == 1 and r in RANKS:
            return card(RANKS.index(r) + 2, SUITS.index(t[-1]))
    raise CardParseError(
        f"bad card {quoted(token)} at position {position}: expected a rank "
        f"(2-9, 10 or T, J, Q, K, A) then a suit (C, D, H, S or ♣ ♦ ♥ ♠), or JK/ROOK for "
        f"the joker",
        token,
        position,
    )


def parse_cards(text: str) -> list[int]:
    """Card indices of a hand string, in order; duplicates are an error.

    >>> parse_cards("AS 10h")
    [60, 40]
    """
    tokens = [t for t in _SPLIT.split(text.strip()) if t]
    seen: dict[int, int] = {}
    out = []
    for pos, tok in enumerate(tokens, start=1):
        c = parse_card(tok, pos)
        if c in seen:
            what = "the joker (the Rook) is one card" if c == JOKER else "each card is dealt once"
            raise CardParseError(
                f"card {quoted(tok)} at position {pos} repeats position {seen[c]}; {what}", tok,
                pos)
        seen[c] = pos
        out.append(c)
    return out


def format_card(c: int) -> str:
    """``format_card(60) == "AS"``; the joker is ``"JK"``."""
    if c == JOKER:
        return "JK"
    return RANKS[c % LANE_BITS] + SUITS[c // LANE_BITS]


def mask_of(cards: Iterable[int]) -> Mask:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def cards_of(mask: Mask) -> list[int]:
    """Card indices in a mask, ascending."""
    m = int(mask)
    out = []
    while m:
        low = m & -m
        out.append(low.bit_length() - 1)
        m ^= low
    return out


def display_order(mask: Mask) -> list[int]:
    """Cards as people sort them: spades, hearts, diamonds, clubs; high to low."""
    return sorted(cards_of(mask), key=lambda c: (-suit_of(c), -c))


class CardSet:
    """A set of cards for people: parse, print, and set algebra over a uint64 mask.

    >>> hand = CardSet("AS KS 10h")
    >>> str(hand), len(hand), CardSet("KS") <= hand
    ('AS KS TH', 3, True)
    """

    __slots__ = ("mask",)

    def __init__(self, cards: str | int | np.integer | Iterable[int] | CardSet = 0):
        if isinstance(cards, CardSet):
            self.mask = cards.mask
        elif isinstance(cards, str):
            self.mask = mask_of(parse_cards(cards))
        elif isinstance(cards, (int, np.integer)):
            self.mask = int(cards)
        else:
            self.mask = mask_of(cards)
        if self.mask < 0 or self.mask & ~DECK_53:
            raise ValueError(f"a card mask holds only the 52 cards and the joker (bits of "
                             f"0x{DECK_53:016x}); got 0x{self.mask:x}")

    def __iter__(self) -> Iterator[int]:
        return iter(display_order(self.mask))

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __contains__(self, c: object) -> bool:
        if isinstance(c, str):
            c = parse_card(c)
        return isinstance(c, (int, np.integer)) and bool(self.mask >> int(c) & 1)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CardSet) and other.mask == self.mask

    def __hash__(self) -> int:
        return hash(self.mask)

    def __or__(self, o: CardSet) -> CardSet:
        return CardSet(self.mask | o.mask)

    def __and__(self, o: CardSet) -> CardSet:
        return CardSet(self.mask & o.mask)

    def __sub__(self, o: CardSet) -> CardSet:
        return CardSet(self.mask & ~o.mask)

    def __xor__(self, o: CardSet) -> CardSet:
        return CardSet(self.mask ^ o.mask)

    def __le__(self, o: CardSet) -> bool:
        return self.mask & ~o.mask == 0

    def __bool__(self) -> bool:
        return self.mask != 0

    def __str__(self) -> str:
        return " ".join(format_card(c) for c in self)

    def __repr__(self) -> str:
        return f"CardSet({str(self)!r})"

    def suit(self, s: int) -> CardSet:
        return CardSet(self.mask & SUIT_MASKS[s])

    @property
    def u64(self) -> np.uint64:
        return np.uint64(self.mask)



# ---- a column of masks as text, at once ------------------------------------------------------


@functools.cache
def _lane_texts():
    """Per suit, spades first, the text of each of the 8,192 sets of its ranks (None for the
    empty set), as Arrow string arrays: a column's text is a lookup per suit."""
    import pyarrow as pa

    return [(s, pa.array([str(CardSet(v << (LANE_BITS * s))) or None for v in range(1 << 13)],
                         pa.string())) for s in (SPADES, HEARTS, DIAMONDS, CLUBS)]


def format_masks(masks: np.ndarray):
    """The text of each mask, as ``str(CardSet(mask))`` gives it, for a whole column at once:
    an Arrow string array (a lookup per suit, then a join, all in Arrow's C++: about 0.2 s
    for a million hands, where ``str(CardSet(m))`` one by one takes ten seconds).

    >>> format_masks(np.array([CardSet("5C AS JK").mask, 0], dtype=np.uint64)).to_pylist()
    ['JK AS 5C', '']
    """
    import pyarrow as pa
    import pyarrow.compute as pc

    m = np.ascontiguousarray(masks, dtype=np.uint64).ravel()
    # the joker, else nothing (null, skipped by the join); "" where the mask is empty, since
    # a row of nulls alone would be dropped by the join (pyarrow 26)
    joker = pa.array(np.where(m >> np.uint64(JOKER) == 1, format_card(JOKER),
                              np.where(m == 0, "", None)), pa.string())
    lanes = [texts.take(pa.array(((m >> np.uint64(LANE_BITS * s)) & np.uint64(0x1FFF))
                                 .astype(np.int32)))
             for s, texts in _lane_texts()]
    return pc.binary_join_element_wise(joker, *lanes, " ", null_handling="skip")
