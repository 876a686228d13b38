"""The shared card layout (analyzer.cards) and the bit helpers (analyzer.bits).

Layout: card index = 16 * suit + rank - 2 with suits C D H S, the joker at bit 63.
The bit helpers must agree between plain Python and numba-compiled code.
"""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from numba import njit

from analyzer import bits
from analyzer.bits import lsb, msb, nth_bit, popcount
from analyzer.cards import (
    CLUBS,
    DECK_52,
    DECK_53,
    DIAMONDS,
    HEARTS,
    JOKER,
    RANKS,
    SPADES,
    SUIT_MASKS,
    SUITS,
    CardParseError,
    CardSet,
    card,
    cards_of,
    display_order,
    format_card,
    mask_of,
    parse_card,
    parse_cards,
    rank_of,
    suit_of,
)

ALL_CARDS = [16 * s + r for s in range(4) for r in range(13)] + [JOKER]
masks53 = st.sets(st.sampled_from(ALL_CARDS)).map(mask_of)


# ---- layout -------------------------------------------------------------------------------


def test_suit_order_and_constants():
    assert SUITS == "CDHS"
    assert (CLUBS, DIAMONDS, HEARTS, SPADES) == (0, 1, 2, 3)
    assert RANKS == "23456789TJQKA"
    assert JOKER == 63
    assert SUIT_MASKS == (0x1FFF, 0x1FFF << 16, 0x1FFF << 32, 0x1FFF << 48)
    assert DECK_52 == 0x1FFF_1FFF_1FFF_1FFF
    assert DECK_53 == DECK_52 | 1 << 63
    assert DECK_52.bit_count() == 52


@pytest.mark.parametrize("suit", range(4))
@pytest.mark.parametrize("rank", range(2, 15))
def test_card_index_is_16_suit_plus_rank_minus_2(rank, suit):
    c = card(rank, suit)
    assert c == 16 * suit + rank - 2
    assert (suit_of(c), rank_of(c)) == (suit, rank)
    assert SUIT_MASKS[suit] >> c & 1


def test_named_cards():
    assert card(14, SPADES) == 60
    assert card(2, CLUBS) == 0
    assert card(10, HEARTS) == 40
    assert card(5, DIAMONDS) == 19
    assert suit_of(JOKER) == 3  # the joker lives in the spade lane's spare bits


@pytest.mark.parametrize("rank,suit", [(1, 0), (15, 0), (2, -1), (2, 4), (0, 0)])
def test_card_rejects_out_of_range(rank, suit):
    with pytest.raises(ValueError):
        card(rank, suit)


def test_ranks_rise_with_the_bit_inside_each_lane():
    for s in range(4):
        lane = [card(r, s) for r in range(2, 15)]
        assert lane == sorted(lane)
        assert cards_of(SUIT_MASKS[s]) == lane
        # "highest card of a suit" is the most significant bit of its lane
        assert msb(SUIT_MASKS[s]) == card(14, s)


# ---- parsing ------------------------------------------------------------------------------


def test_parse_cards_example():
    assert parse_cards("AS KS 10H TD 5C 2h") == [
        card(14, SPADES),
        card(13, SPADES),
        card(10, HEARTS),
        card(10, DIAMONDS),
        card(5, CLUBS),
        card(2, HEARTS),
    ]


@pytest.mark.parametrize(
    "token,expected",
    [
        ("AS", 60),
        ("as", 60),
        ("aS", 60),
        ("10H", 40),
        ("10h", 40),
        ("TH", 40),
        ("th", 40),
        ("tH", 40),
        ("2C", 0),
        ("9d", 23),
        ("JD", 25),
        ("qc", 10),
        ("Kh", 43),
        (" KS ", 59),
        ("JK", JOKER),
        ("jk", JOKER),
        ("ROOK", JOKER),
        ("rook", JOKER),
        ("Joker", JOKER),
        ("JOKER", JOKER),
    ],
)
def test_parse_card_tokens(token, expected):
    assert parse_card(token) == expected


def test_parse_cards_separators():
    want = [60, 59, 40]
    for text in ("AS KS 10H", "AS,KS,10H", "AS, KS, 10H", " AS\tKS\n10H ", "as,,ks  ,th,"):
        assert parse_cards(text) == want, text
    assert parse_cards("") == []
    assert parse_cards("  , ") == []
    assert parse_cards("JK AS") == [JOKER, 60]


@pytest.mark.parametrize(
    "text,token,position",
    [
        ("ZZ", "ZZ", 1),
        ("AS KS 1H", "1H", 3),
        ("AS, 11H", "11H", 2),
        ("AS KS QS JS XS", "XS", 5),
        ("AX", "AX", 1),
        ("A", "A", 1),
        ("S", "S", 1),
        ("AS 10", "10", 2),
        ("AS TEN", "TEN", 2),
        ("AS 100H", "100H", 2),
        ("AS 0H", "0H", 2),
        ("AS 1S", "1S", 2),
        ("AS JKR", "JKR", 2),
        ("23S", "23S", 1),  # two ranks run together: a substring of the rank order
        ("AS JQH", "JQH", 2),
        ("AS KAD", "KAD", 2),
    ],
)
def test_bad_token_names_token_and_position(text, token, position):
    with pytest.raises(CardParseError) as info:
        parse_cards(text)
    err = info.value
    assert isinstance(err, ValueError)
    assert err.token == token
    assert err.position == position
    assert repr(token) in str(err)
    assert f"position {position}" in str(err)


@pytest.mark.parametrize(
    "text,token,position,first",
    [
        ("AS KS as", "as", 3, 1),
        ("10H TH", "TH", 2, 1),
        ("2C 3C 4C 2c", "2c", 4, 1),
        ("QD, KD, qd", "qd", 3, 1),
        ("AS JK ROOK", "ROOK", 3, 2),
    ],
)
def test_duplicate_names_token_and_both_positions(text, token, position, first):
    with pytest.raises(CardParseError) as info:
        parse_cards(text)
    err = info.value
    assert (err.token, err.position) == (token, position)
    msg = str(err)
    assert repr(token) in msg
    assert f"position {position}" in msg
    assert str(first) in msg.split(f"position {position}", 1)[1]


def test_parse_card_reports_given_position():
    with pytest.raises(CardParseError) as info:
        parse_card("ZZ", 7)
    assert info.value.position == 7
    assert "position 7" in str(info.value)


# ---- printing -----------------------------------------------------------------------------


@pytest.mark.parametrize("c", ALL_CARDS)
def test_format_parse_round_trip_all_53(c):
    text = format_card(c)
    assert parse_card(text) == c
    assert parse_card(text.lower()) == c
    assert text == ("JK" if c == JOKER else RANKS[rank_of(c) - 2] + SUITS[suit_of(c)])


def test_format_card_examples():
    assert format_card(60) == "AS"
    assert format_card(40) == "TH"
    assert format_card(0) == "2C"
    assert format_card(JOKER) == "JK"
    assert len({format_card(c) for c in ALL_CARDS}) == 53


def test_parse_cards_of_formatted_deck():
    text = " ".join(format_card(c) for c in ALL_CARDS)
    assert parse_cards(text) == ALL_CARDS
    assert mask_of(parse_cards(text)) == DECK_53


# ---- masks and CardSet --------------------------------------------------------------------


def test_mask_of_and_cards_of():
    assert mask_of([]) == 0
    assert mask_of([0, 63]) == 1 | 1 << 63
    assert cards_of(0) == []
    assert cards_of(np.uint64(1 << 63 | 5)) == [0, 2, 63]
    assert cards_of(DECK_52) == sorted(ALL_CARDS[:-1])


@given(masks53)
def test_cards_of_mask_of_inverse(m):
    cs = cards_of(m)
    assert cs == sorted(cs)
    assert mask_of(cs) == m
    assert len(cs) == m.bit_count()


def test_display_order_spades_first_high_to_low():
    assert [format_card(c) for c in display_order(mask_of(parse_cards("2C AC 5H KS 3S TD")))] == [
        "KS",
        "3S",
        "5H",
        "TD",
        "AC",
        "2C",
    ]


def test_cardset_basics():
    hand = CardSet("AS KS 10h")
    assert str(hand) == "AS KS TH"
    assert repr(hand) == "CardSet('AS KS TH')"
    assert len(hand) == 3
    assert CardSet("KS") <= hand
    assert not hand <= CardSet("KS")
    assert "AS" in hand and "as" in hand and 60 in hand and np.int64(60) in hand
    assert "QS" not in hand and 58 not in hand
    assert 3.5 not in hand and None not in hand
    assert bool(hand) and not CardSet()
    assert len(CardSet()) == 0 and str(CardSet()) == ""
    assert hand.u64 == np.uint64(hand.mask) and isinstance(hand.u64, np.uint64)
    assert hand.suit(SPADES) == CardSet("AS KS")
    assert hand.suit(CLUBS) == CardSet()


def test_cardset_constructors_agree():
    m = mask_of(parse_cards("AS 2C JK"))
    sets = [
        CardSet("AS 2C JK"),
        CardSet(m),
        CardSet(np.uint64(m)),
        CardSet([60, 0, 63]),
        CardSet(iter([63, 60, 0])),
        CardSet(CardSet(m)),
    ]
    assert all(s == sets[0] for s in sets)
    assert len({hash(s) for s in sets}) == 1
    assert sets[0] != m  # a CardSet is not equal to its raw mask


def test_cardset_rejects_bad_input():
    with pytest.raises(ValueError):
        CardSet(1 << 64)
    with pytest.raises(ValueError):
        CardSet(-1)
    with pytest.raises(CardParseError):
        CardSet("AS AS")
    with pytest.raises(CardParseError):
        CardSet("AS XX")


def test_cardset_iteration_and_sorting():
    hand = CardSet("2C AC 5H KS 3S TD JK")
    assert [format_card(c) for c in hand] == ["JK", "KS", "3S", "5H", "TD", "AC", "2C"]
    assert str(CardSet(DECK_52)).split()[:3] == ["AS", "KS", "QS"]
    assert str(CardSet(DECK_52)).split()[-1] == "2C"
    # sorting a list of sets by size then mask works because len and mask are plain ints
    sets = [CardSet("AS KS"), CardSet("2C"), CardSet(DECK_52)]
    assert [len(s) for s in sorted(sets, key=len)] == [1, 2, 52]


@given(masks53, masks53)
def test_cardset_algebra_matches_python_sets(a, b):
    A, B = CardSet(a), CardSet(b)
    sa, sb = set(cards_of(a)), set(cards_of(b))
    assert set(A | B) == sa | sb
    assert set(A & B) == sa & sb
    assert set(A - B) == sa - sb
    assert set(A ^ B) == sa ^ sb
    assert (A <= B) == (sa <= sb)
    assert len(A) == len(sa)
    assert bool(A) == bool(sa)
    assert all(c in A for c in sa)
    assert all(c not in A for c in set(ALL_CARDS) - sa)
    assert (A == B) == (sa == sb)


@given(masks53)
def test_cardset_str_round_trip(m):
    s = CardSet(m)
    assert CardSet(str(s)) == s
    assert list(s) == display_order(m)
    assert str(s).split() == [format_card(c) for c in s]


# ---- bit helpers --------------------------------------------------------------------------


def _naive_bits(m: int) -> list[int]:
    return [i for i in range(64) if m >> i & 1]


def _random_masks(n: int, seed: int) -> np.ndarray:
    g = np.random.default_rng(seed)
    dense = g.integers(0, 2**64, size=n, dtype=np.uint64, endpoint=False)
    sparse = (
        dense
        & g.integers(0, 2**64, size=n, dtype=np.uint64)
        & g.integers(0, 2**64, size=n, dtype=np.uint64)
    )
    single = np.left_shift(np.uint64(1), g.integers(0, 64, size=n).astype(np.uint64))
    edge = np.array([0, 1, 1 << 63, 2**64 - 1, DECK_52, DECK_53, 1 << 63 | 1], dtype=np.uint64)
    return np.concatenate([edge, dense, sparse, single])


MASKS = _random_masks(2000, seed=20240611)


def test_pure_python_helpers_edge_cases():
    assert popcount(0) == 0 and lsb(0) == 64 and msb(0) == -1
    assert popcount(2**64 - 1) == 64 and lsb(2**64 - 1) == 0 and msb(2**64 - 1) == 63
    assert (popcount(1 << 63), lsb(1 << 63), msb(1 << 63)) == (1, 63, 63)
    assert popcount(np.uint64(DECK_52)) == 52
    assert lsb(np.uint64(1 << 40)) == 40


@given(st.integers(min_value=0, max_value=2**64 - 1))
def test_pure_python_helpers_match_naive(m):
    idx = _naive_bits(m)
    assert popcount(m) == len(idx)
    assert lsb(m) == (idx[0] if idx else 64)
    assert msb(m) == (idx[-1] if idx else -1)


NTH = (0, 1, 5, 31, 63)  # which set bit nth_bit is asked for


@njit
def _jit_helpers(masks, out):
    """The helpers called from compiled code, where they become single instructions."""
    for i in range(masks.shape[0]):
        m = masks[i]
        out[i, 0] = popcount(m)
        out[i, 1] = lsb(m)
        out[i, 2] = msb(m)
        for j, k in enumerate(NTH):
            b = nth_bit(m, k)
            out[i, 3 + j] = lsb(b) if b else -1


def test_jit_helpers_agree_with_python():
    out = np.empty((len(MASKS), 3 + len(NTH)), dtype=np.int64)
    _jit_helpers(MASKS, out)
    for i, m in enumerate(MASKS.tolist()):
        idx = _naive_bits(m)
        assert (out[i, 0], out[i, 1], out[i, 2]) == (popcount(m), lsb(m), msb(m)), hex(m)
        nth = [idx[k] if k < len(idx) else -1 for k in NTH]
        assert out[i, 3:].tolist() == nth, hex(m)


@njit
def _jit_nth_bit(m, k):
    return nth_bit(m, k)


def test_nth_bit_everywhere_matches_naive(monkeypatch):
    """nth_bit in Python, compiled (PDEP or the loop, whichever this CPU gets) and the loop
    itself, run as Python, all give the k-th lowest set bit, or 0 past the last one."""
    monkeypatch.setattr(bits, "FAST_PEXT", False)
    loop = bits._nth_bit_jit(None, None)
    # uint64 wrap-around (m - 1 at 0, ~m + 1) is intended; numpy scalars warn about it
    with np.errstate(over="ignore"):
        for m in MASKS[:300].tolist():
            idx = _naive_bits(m)
            for k in (*range(0, 64, 3), 63):
                want = 1 << idx[k] if k < len(idx) else 0
                assert nth_bit(m, k) == want, (hex(m), k)
                assert int(_jit_nth_bit(np.uint64(m), k)) == want, (hex(m), k)
                assert int(loop(np.uint64(m), k)) == want, (hex(m), k)


def test_bit():
    for i in range(64):
        assert int(bits.bit(i)) == 1 << i
        assert int(bits.bit.py_func(i)) == 1 << i


def _naive_pext(x: int, m: int) -> int:
    return sum(1 << k for k, i in enumerate(_naive_bits(m)) if x >> i & 1)


@njit
def _jit_pext(xs, ms, out):
    for i in range(xs.shape[0]):
        out[i] = bits.pext(xs[i], ms[i])


def test_pext_everywhere_matches_naive(monkeypatch):
    """pext in Python, compiled (PEXT or the loop, whichever this CPU gets) and the loop
    itself, run as Python, all pack the bits of x under m in order."""
    xs, ms = MASKS, np.roll(MASKS, 7)
    out = np.empty(len(xs), dtype=np.uint64)
    _jit_pext(xs, ms, out)
    monkeypatch.setattr(bits, "FAST_PEXT", False)
    loop = bits._pext_jit(None, None)
    with np.errstate(over="ignore"):
        for i, (x, m) in enumerate(zip(xs.tolist(), ms.tolist(), strict=True)):
            want = _naive_pext(x, m)
            assert bits.pext(x, m) == want, (hex(x), hex(m))
            assert int(out[i]) == want, (hex(x), hex(m))
            assert int(loop(np.uint64(x), np.uint64(m))) == want, (hex(x), hex(m))


@njit
def _jit_pext_planned(xs, ms, out):
    for i in range(xs.shape[0]):
        out[i] = bits.pext_planned(xs[i], ms[i], bits.pext_plan(ms[i]))


def test_pext_planned_everywhere_matches_naive(monkeypatch):
    """pext_planned under pext_plan's plan packs the bits of x under m as pext does: in Python,
    compiled (PEXT or the branch-free compress, whichever this CPU gets) and the compress
    itself, run as Python, including the full and the empty mask."""
    xs = np.concatenate([MASKS, np.array([2**64 - 1, 2**64 - 1, 0x8000_0000_0000_0001],
                                         dtype=np.uint64)])
    ms = np.concatenate([np.roll(MASKS, 5), np.array([2**64 - 1, 0, 2**64 - 1],
                                                     dtype=np.uint64)])
    out = np.empty(len(xs), dtype=np.uint64)
    _jit_pext_planned(xs, ms, out)
    monkeypatch.setattr(bits, "FAST_PEXT", False)
    for helper in ("_plan_stage", "_shift_moved"):  # the compress's steps, run as Python too
        monkeypatch.setattr(bits, helper, getattr(bits, helper).py_func)
    plan_loop = bits._pext_plan_jit(None)
    compress = bits._pext_planned_jit(None, None, None)
    with np.errstate(over="ignore"):
        for i, (x, m) in enumerate(zip(xs.tolist(), ms.tolist(), strict=True)):
            want = _naive_pext(x, m)
            assert bits.pext_planned(x, m, bits.pext_plan(m)) == want, (hex(x), hex(m))
            assert int(out[i]) == want, (hex(x), hex(m))
            plan = plan_loop(np.uint64(m))
            assert tuple(int(v) for v in plan) == bits.pext_plan(m), hex(m)
            assert int(compress(np.uint64(x), np.uint64(m), plan)) == want, (hex(x), hex(m))


@njit
def _words_by_address(table, i, value):
    addr = np.uint64(table.ctypes.data)
    before = bits.load_word(addr, i)
    bits.store_word(addr, i, value)
    return before, bits.word(addr, i), bits.word(table, i)


def test_words_by_address_compiled_and_in_python():
    """load_word/store_word reach an array's words through its address, compiled and in
    Python; word reads an array or an address alike."""
    table = np.arange(16, dtype=np.uint64) * np.uint64(3)
    assert [int(v) for v in _words_by_address(table, 5, np.uint64(2**63 + 1))] == [
        15, 2**63 + 1, 2**63 + 1]
    assert int(table[5]) == 2**63 + 1 and int(table[4]) == 12 and int(table[6]) == 18
    addr = table.ctypes.data
    assert bits.load_word(addr, 7) == 21
    bits.store_word(addr, 7, 2**64 - 1)
    assert int(table[7]) == 2**64 - 1
    assert bits.word(addr, 7) == bits.word(table, 7) == 2**64 - 1


def test_the_suit_symbols_bidlab_prints_are_read_back():
    """King's tables print K♥; `bidlab cards "A♠ K♥"` answered "bad card 'A♠'"."""
    from analyzer.cards import parse_cards

    assert parse_cards("A♠ K♥ 10♦ 2♣ Q♡ J♤ 9♢ 8♧ 7♥\ufe0f") == parse_cards(
        "AS KH TD 2C QH JS 9D 8C 7H")
    for bad in ("A♠♠", "♠", "1♠", "Aſ"):
        with pytest.raises(CardParseError):
            parse_cards(bad)
