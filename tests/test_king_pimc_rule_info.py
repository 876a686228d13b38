"""King's pimc reads the rules' forced plays (session of 2026-12-07, eighteenth): a card a
rule would have forced, and that a seat did not play, is one it lacks, and pimc's worlds no
longer deal it that card. The tests of each inference fail on the code before (voids only);
the others check that no play shows more than the rules force.

- The heart-lead ban (no hearts, no K♥, docs/rules.md §3.3, never lifted in the hand): a
  seat that led a heart held hearts only.
- The K♥ rule (no K♥): a seat that could not follow and did not throw the K♥ lacks it; under
  ``kh_force=when_void_or_ace_already_played`` so does one that followed a heart lead with
  another heart once the A♥ was in the trick.

The plays go through ``king.knowledge.record_card``, what the engine calls for every card of a
hand with a searching seat, and the worlds through ``search.pimc.sample_world``.
"""

from __future__ import annotations

import numpy as np
import pytest

from analyzer.bits import popcount
from analyzer.cards import DECK_52, parse_card
from analyzer.games import king
from analyzer.games.king.engine import legal_moves
from analyzer.games.king.knowledge import record_card, shown_lacking
from analyzer.games.king.rules import (
    NO_HEARTS,
    NO_KING_OF_HEARTS,
    NO_QUEENS,
    NO_TRICKS,
    POSITIVE,
)
from analyzer.games.search.pimc import sample_world
from analyzer.games.search.setup import KN_FORBID, KN_POOL, WS_KN, make_workspace

HEARTS = np.uint64(0x1FFF << 32)
KH, AH = parse_card("KH"), parse_card("AH")
ACE_RULE = "king(kh_force=when_void_or_ace_already_played)"


def mask(*cards: str) -> np.uint64:
    return np.uint64(sum(1 << parse_card(c) for c in cards))


def play(hands, plays, contract, ace=False):
    """The workspace after ``plays`` (seat, card) of one trick, each through the engine's
    ``record_card``, the cards taken from ``hands`` (changed in place)."""
    ws = make_workspace(0)
    trick, led = np.uint64(0), -1
    for pos, (seat, name) in enumerate(plays):
        c = parse_card(name)
        record_card(ws, pos, seat, c, led, trick, contract, ace)
        hands[seat] &= ~np.uint64(1 << c)
        trick |= np.uint64(1 << c)
        if led < 0:
            led = c >> 4
    return ws, trick


def worlds(hands, seat, ws, trick, draws=300):
    """``draws`` worlds of ``seat``'s knowledge: the other three hands' cards dealt again."""
    kn = ws[WS_KN]
    kn[KN_POOL] = np.bitwise_or.reduce(np.delete(hands, seat))
    prng = np.array([2026], dtype=np.uint64)
    world = np.zeros(4, dtype=np.uint64)
    out = []
    for _ in range(draws):
        assert sample_world(hands, seat, kn, 0, prng, world)
        out.append(world.copy())
    return out


def deal(*hands: str) -> np.ndarray:
    return np.array([mask(*h.split()) for h in hands], dtype=np.uint64)


# seat 1 holds hearts only and leads one; seat 2 (pimc) sees it; 6 hearts among 11 unseen cards
LEAD = ("2S 2D 5C JH", "2H 3H 4H 5H", "AS KS AD KD", "2C 3C 9H TH")


@pytest.mark.parametrize("contract", [NO_HEARTS, NO_KING_OF_HEARTS, NO_HEARTS | NO_KING_OF_HEARTS])
def test_a_heart_led_under_the_ban_leaves_its_leader_only_hearts(contract):
    hands = deal(*LEAD)
    ws, trick = play(hands, [(1, "2H")], contract)
    for w in worlds(hands, 2, ws, trick):
        assert w[1] & ~HEARTS == 0 and popcount(w[1]) == 3


@pytest.mark.parametrize("contract", [NO_TRICKS, NO_QUEENS, POSITIVE])
def test_without_the_ban_a_heart_lead_shows_nothing(contract):
    hands = deal(*LEAD)
    ws, trick = play(hands, [(1, "2H")], contract)
    assert sum(bool(w[1] & ~HEARTS) for w in worlds(hands, 2, ws, trick)) > 200


# seat 1 cannot follow spades and throws a diamond; the K♥ lies with seat 0 or 2
VOID = ("2S 3S KH 4C", "3D 4D 5D 6D", "7D 8D 2H 5C", "AS KS 3H 6C")


def test_a_void_seat_that_keeps_back_the_kh_lacks_it():
    hands = deal(*VOID)
    ws, trick = play(hands, [(0, "2S"), (1, "3D"), (2, "7D")], NO_KING_OF_HEARTS)
    drawn = worlds(hands, 3, ws, trick)
    assert not any(w[s] & mask("KH") for w in drawn for s in (1, 2))
    assert all(w[0] & mask("KH") for w in drawn)  # the only seat that may hold it


def test_in_the_no_hearts_hand_a_void_seat_need_not_throw_a_heart():
    """No rule forces a heart (or the K♥) out of a void seat in hand 2: the K♥ may still lie
    with seats 1 and 2."""
    hands = deal(*VOID)
    ws, trick = play(hands, [(0, "2S"), (1, "3D"), (2, "7D")], NO_HEARTS)
    drawn = worlds(hands, 3, ws, trick)
    assert all(any(w[s] & mask("KH") for w in drawn) for s in (0, 1, 2))


@pytest.mark.parametrize("ace", [True, False])
def test_a_heart_under_the_ace_shows_no_kh_only_under_the_ace_rule(ace):
    hands = deal("AH 2C 3C 4C", "5H 6H 2D 3D", "KH 7H 4D 5D", "8H 9H 6D 7D")
    ws, trick = play(hands, [(0, "AH"), (1, "5H")], NO_KING_OF_HEARTS, ace)
    drawn = worlds(hands, 0, ws, trick)
    has = [sum(bool(w[s] & mask("KH")) for w in drawn) for s in (1, 2, 3)]
    assert (has[0] == 0) == ace and has[1] > 0 and has[2] > 0


def _replay(log, ace):
    """Each play of a logged hand as (hand before it, card, led suit, trick before it),
    through ``record_card`` too: the knowledge never forbids a card a seat still holds."""
    contract = king.parse_contract(log["contract"].replace("_", "-"))
    hands = np.array([mask(*h) for h in log["hands"]], dtype=np.uint64)
    ws = make_workspace(0)
    out = []
    for trick_log in log["tricks"]:
        trick, led = np.uint64(0), -1
        for pos, (seat, name) in enumerate(trick_log["plays"]):
            c = parse_card(name)
            out.append((hands[seat], c, led, trick, contract))
            record_card(ws, pos, seat, c, led, trick, contract, ace)
            hands[seat] &= ~np.uint64(1 << c)
            trick |= np.uint64(1 << c)
            if led < 0:
                led = c >> 4
            for s in range(4):
                assert ws[WS_KN][KN_FORBID + s] & hands[s] == 0, (log["index"], s)
    return out


@pytest.mark.parametrize("rules,contract", [("king", "no-hearts"), ("king", "no-king-of-hearts"),
                                            (ACE_RULE, "no-king-of-hearts")])
def test_the_inference_is_exactly_what_legal_moves_forces(rules, contract):
    """On random play's logged hands: a card is shown lacking exactly when holding it too
    would have made the card played illegal (``legal_moves``), the led suit's void aside.
    Each inference of the contract arises, and a seat's knowledge never contradicts its
    hand."""
    ace = rules == ACE_RULE
    logs = king.play_logged(rules, 5, range(300), "random", contract)
    shown = {"lead": 0, "void": 0, "ace": 0}  # a heart lead, a void without the K♥, under the A♥
    for log in logs:
        for hand, c, led, trick, code in _replay(log, ace):
            lacking = shown_lacking(c, led, trick, code, ace)
            void = np.uint64(0x1FFF << (16 * led)) if led >= 0 and c >> 4 != led else 0
            for x in range(64):
                if not (np.uint64(DECK_52) >> np.uint64(x)) & 1 or hand >> np.uint64(x) & 1:
                    continue
                legal = legal_moves(hand | np.uint64(1 << x), led, trick, code, ace)
                forced = not legal >> np.uint64(c) & 1
                assert forced == bool((lacking | void) >> np.uint64(x) & 1), (log["index"], c, x)
            if lacking:
                shown["lead" if led < 0 else ("void" if c >> 4 != led else "ace")] += 1
    kh = contract == "no-king-of-hearts"
    assert shown["lead"] > 100 and (shown["void"] > 100) == kh and (shown["ace"] > 50) == ace
