"""The Rook heuristic smears the Rook and its other counting trumps onto a trick its
partner is sure to win, as its docstring says it smears counters: the Rook is the
lowest trump by default, so a trick partner wins for certain is its safest home."""

import numpy as np

from analyzer.cards import JOKER
from analyzer.games.kit.lanes import COLUMN, LANE
from analyzer.games.rook.core import ROOK, TRUMP_POWER, power, trump_suit
from analyzer.games.rook.policies import heuristic_play

SPADES = 3
TMASK = trump_suit(SPADES)
# Princeton counters: the 5s, 10s, kings and aces of every suit, and the Rook.
COUNTERS = ((COLUMN << np.uint64(3)) | (COLUMN << np.uint64(8)) | (COLUMN << np.uint64(11))
            | (COLUMN << np.uint64(12)) | ROOK)
RANK = {"2": 0, "3": 1, "4": 2, "5": 3, "6": 4, "7": 5, "8": 6, "9": 7, "T": 8, "J": 9,
        "Q": 10, "K": 11, "A": 12}
SUIT = {"C": 0, "D": 1, "H": 2, "S": 3}


def card(text):
    return JOKER if text == "JK" else 16 * SUIT[text[1]] + RANK[text[0]]


def mask(text):
    out = np.uint64(0)
    for t in text.split():
        out |= np.uint64(1) << np.uint64(card(t))
    return out


def follow_partners_lead(hand, partner_card, unseen, rook_pos=0, second="2D"):
    """Seat 0's card, third to play: partner (seat 2) led ``partner_card``, seat 3 played
    ``second``; seat 0 holds ``hand`` (all trumps here, so all of it is legal)."""
    h = mask(hand)
    best = card(partner_card)
    led = TMASK if np.uint64(1) << np.uint64(best) & TMASK else mask(partner_card)
    pw = power(best, led, TMASK, rook_pos)
    assert pw >= TRUMP_POWER
    return heuristic_play(h, h, led, 2, best, pw, 15, 2, 0, 0, TMASK, rook_pos,
                          mask(unseen), 10, COUNTERS)


def test_the_rook_goes_onto_partners_trump_ace():
    # Partner's ace of trumps wins for certain; the Rook (20) is the lowest trump and
    # would otherwise fall to the next trump lead.
    assert follow_partners_lead("3S JK", "AS", "KS QS 9S 4S") == JOKER


def test_a_counting_trump_goes_onto_partners_sure_trick():
    # No Rook here: the 10 of trumps (10 points, beaten by the unseen K) goes onto the ace.
    assert follow_partners_lead("3S TS", "AS", "KS QS 9S 4S JK") == card("TS")


def test_a_top_trump_is_kept_for_a_trick_of_its_own():
    # With rook_rank=highest_trump the Rook tops the suit: it wins a trick by itself.
    assert follow_partners_lead("3S JK", "AS", "KS QS 9S 4S", rook_pos=13) == card("3S")
    # The king of trumps is top once the ace is out: it is kept, the 3 thrown.
    assert follow_partners_lead("3S KS", "AS", "QS 9S 4S JK") == card("3S")


def lead(hand, unseen, seat=1, declarer=0):
    """Seat ``seat``'s lead to a fresh trick (spades trump), holding ``hand``."""
    h = mask(hand)
    return heuristic_play(h, h, np.uint64(0), -1, -1, -1, 0, 0, seat, declarer, TMASK, 0,
                          mask(unseen), 8, COUNTERS)


def test_a_defender_cashes_his_ace_while_trumps_are_out():
    # The declarer still has trumps to draw; the ace of hearts held back would be ruffed or
    # thrown later, so the defender cashes it rather than lead low from his long clubs.
    unseen = "KH QH 5H 2H KC AC 5D 6D AS KS 9S 4S JK"
    assert lead("AH 4H 7C 8C 9C 3D", unseen) == card("AH")
    # Without a sure winner he still leads low from his longest side suit.
    assert lead("QH 4H 7C 8C 9C 3D", unseen + " AH") == card("7C")


def second_hand(hand, led_card, unseen, trick_pts=10):
    """Seat 1's card, second to play: seat 0 (the declarer's side) led ``led_card``."""
    h = mask(hand)
    best = card(led_card)
    led = LANE[best >> 4]
    legal = h & led if h & led else h
    return heuristic_play(h, legal, led, 0, best, power(best, led, TMASK, 0), trick_pts, 1, 1,
                          0, TMASK, 0, mask(unseen), 8, COUNTERS)


def test_second_hand_takes_a_counting_trick_with_its_sure_ace():
    # The queen would win the 10 only if the unseen king is not behind; the ace must be
    # cashed some time anyway, and here it wins the trick for certain.
    unseen = "KH JH 5H 2H 9C 6D AS KS 9S 4S JK"
    assert second_hand("QH AH 3C 4C", "TH", unseen) == card("AH")
    # With the king gone the queen is top of the suit: the cheapest winner is sure.
    assert second_hand("QH AH 3C 4C", "TH", "JH 5H 2H 9C 6D AS KS 9S 4S JK") == card("QH")


def third_hand(hand, partner_card, unseen):
    """Seat 0's card, third to play: partner (seat 2) led ``partner_card`` in a side suit,
    seat 3 followed low; seat 0 holds ``hand``."""
    h = mask(hand)
    best = card(partner_card)
    led = LANE[best >> 4]
    legal = h & led if h & led else h
    return heuristic_play(h, legal, led, 2, best, power(best, led, TMASK, 0), 0, 2, 0, 0,
                          TMASK, 0, mask(unseen), 8, COUNTERS)


def test_third_hand_takes_over_partners_queen_with_the_ace():
    # The last hand may hold the king over partner's queen: the ace wins for certain.
    unseen = "KH 5H 2H 9C 6D AS KS 9S 4S JK"
    assert third_hand("AH 3H 4C", "QH", unseen) == card("AH")
    # No unseen heart beats the queen: partner keeps the trick and the 3 goes under it.
    assert third_hand("AH 3H 4C", "QH", "5H 2H 9C 6D AS KS 9S 4S JK") == card("3H")


def test_third_hand_gives_a_counter_to_partners_top_card():
    # Partner's ace of hearts is top of the suit, so only a ruff by the last hand beats it:
    # the 10 goes onto it rather than to a later trick the declarer's side takes.
    unseen = "KH 5H 2H 9C 6D AS KS 9S 4S JK"
    assert third_hand("TH 3H 4C", "AH", unseen) == card("TH")
    # The king is top of hearts once the ace is played: it is kept for a trick of its own.
    assert third_hand("KH 3H 4C", "AH", "5H 2H 9C 6D AS KS 9S 4S JK") == card("3H")


def test_second_hand_contests_a_trick_with_a_five_in_it():
    # The queen may lose to the unseen king, but a trick with a 5 in it is worth the try.
    unseen = "KH JH 2H 9C 6D AS KS 9S 4S JK"
    assert second_hand("QH 3H 4C", "5H", unseen, trick_pts=5) == card("QH")
    # A pointless trick is not: the 3 goes.
    assert second_hand("QH 3H 4C", "4H", unseen + " 5H", trick_pts=0) == card("3H")


def rook_second(hand, legal, lead, trick_pts, free_play, pos=1):
    """Seat 0's card after the opponent at seat 3 led ``lead`` (spades trump, the Rook the
    lowest trump; the ace, king and 2 of trumps unseen, so a later hand may overtrump)."""
    best = card(lead)
    led = LANE[best >> 4]
    pw = power(best, led, TMASK, 0)
    return heuristic_play(mask(hand), mask(legal), led, 3, best, pw, trick_pts, pos, 0, 1,
                          TMASK, 0, mask("AS KS 2S 9D"), 10, COUNTERS, free_play)


def test_a_free_rook_does_not_take_a_cheap_trick_a_later_hand_may_overtrump():
    # rook(rook_free_play=True): the Rook may be played while able to follow. Second in
    # hand on a 7 led, the Rook would win only until a later hand trumps: the 4 follows.
    assert rook_second("4D 9C JK", "4D JK", "7D", 0, True) == card("4D")
    # ... a void hand keeps it too, for a trick its partner wins (measured with the rule)
    assert rook_second("9C JK", "9C JK", "7D", 0, True) == card("9C")
    # a trick worth 10 or more is still taken with it, and last in hand it is sure to win
    assert rook_second("4D 9C JK", "4D JK", "KD", 10, True) == JOKER
    assert rook_second("4D 3S JK", "4D JK", "7D", 0, True, pos=3) == JOKER
    # without free play a void hand still ruffs (not ruffing so lost 0.66 net points a hand)
    assert rook_second("9C 3S JK", "9C 3S JK", "7D", 0, False) == JOKER


def test_second_hand_follows_suit_rather_than_giving_the_rook_to_an_overtrump():
    # The reviewer's case, seed 1 hand 166: trick 4, W leads the J♥ and N, holding 8♥ 9♥,
    # played the Rook (the lowest trump) second in hand; E trumped over it with the 2♦ and
    # took its 20 points. N now follows with the 8♥.
    from analyzer.games import rook

    log = rook.play_logged("rook(rook_free_play=True)", 1, [166])[0]
    assert log["trump"] == "D"
    assert log["tricks"][3]["plays"][:2] == [[3, "JH"], [0, "8H"]]


def test_a_last_trump_ruffs_a_trick_worth_ten():
    # Void in hearts with one low trump left, second in hand on the K♥ (10 points): it ruffs.
    # It used to keep its last trump for the last trick unless a trick was worth 20, and let
    # tricks of 10 and 15 go by (floor 10 over 20: +1.23 net points a hand, duplicate).
    unseen = "AH QH 5H 2H 9C 6D AS KS 9S 4S JK"
    assert second_hand("3S 4C 9D", "KH", unseen, trick_pts=10) == card("3S")
    # a trick worth 5 still does not get it: the low club goes
    assert second_hand("3S 4C 9D", "5H", unseen + " KH", trick_pts=5) == card("4C")


def test_the_declarer_draws_trumps_with_a_low_one_when_his_top_is_beaten():
    # Four trumps under the unseen ace: he leads his lowest trump that does not count, not
    # the king into the ace (it used to lead the top trump from four whatever beat it).
    unseen = "AS QS 8S 2S JK KH 5H 9C 6D"
    assert lead("KS 9S 7S 3S 4C 8D", unseen, seat=0) == card("3S")
    assert lead("KS 9S 7S 5S 4C 8D", unseen, seat=0) == card("7S")  # the 5 counts: kept
    # Three trumps against two unseen: he draws with the lowest too (he used to lead a side
    # card and keep three trumps the ace and 9 could overruff).
    unseen = "AS 9S KH 5H 2H 9C 6D 7D"
    assert lead("QS 8S 4S 4C 8C 3D", unseen, seat=0) == card("4S")
    # ... but not three against four: the side suits come first
    assert lead("QS 8S 4S 4C 8C 3D", unseen + " 2S 3S", seat=0) == card("4C")


def test_the_declarers_partner_leaves_the_trumps_to_him():
    # The declarer's partner (seat 2, declarer seat 0) holds the top trump: he used to draw
    # with it; he leads low from his long side suit now (+0.61 net points a hand, duplicate).
    unseen = "KS QS 2S JK AC KC 5H AH KH AD"
    assert lead("AS 4S 7C 8C 9C 3D", unseen, seat=2, declarer=0) == card("7C")
    # the declarer himself, with the same cards, draws with it
    assert lead("AS 4S 7C 8C 9C 3D", unseen, seat=0, declarer=0) == card("AS")


def test_second_hand_void_gives_partner_a_counter_that_would_fall_later():
    # Void in hearts and without a trump, second in hand on the 7♥: a card still out beats it,
    # so partner, last, may win the trick. The K♣ (the A♣ is out) would fall to it later:
    # it goes now (it used to throw the 4♣ and keep the king).
    unseen = "AH QH 8H 2H AC 9C 6D AS KS 9S 4S JK"
    assert second_hand("KC 4C 9D", "7H", unseen, trick_pts=0) == card("KC")
    # the ace of hearts led wins unless ruffed: nothing is given
    assert second_hand("KC 4C 9D", "AH", unseen.replace("AH", "7H"), trick_pts=15) == card("4C")
    # a king that is top of clubs wins a trick of its own: kept
    assert second_hand("KC 4C 9D", "7H", unseen.replace("AC ", ""), trick_pts=0) == card("4C")


def void_second(hand, led_card, unseen, trick_pts, last_pts):
    """Seat 1's card, second in hand and void in the suit of ``led_card`` (spades trump),
    under a last-trick bonus of ``last_pts``."""
    h = mask(hand)
    best = card(led_card)
    led = LANE[best >> 4]
    return heuristic_play(h, h, led, 0, best, power(best, led, TMASK, 0), trick_pts, 1, 1, 0,
                          TMASK, 0, mask(unseen), 8, COUNTERS, False, last_pts)


def test_a_last_trump_sure_of_the_last_trick_waits_for_fifteen_points():
    # Its last trump, the Q♠, is top of the trumps left (the A and K are out): it wins the
    # last trick and its 20 points for certain, so a trick of 10 goes by (it used to ruff
    # anything worth 10 with it; 15 over 10: +0.295 net points a hand, duplicate) ...
    unseen = "AH QH 5H 2H 9C 6D 9S 4S JK"
    assert void_second("QS 4C 9D", "KH", unseen, 10, 20) == card("4C")
    # ... a trick of 15 does not
    assert void_second("QS 4C 9D", "AH", unseen.replace("AH", "KH"), 15, 20) == card("QS")
    # without a last-trick bonus the floor stays 10
    assert void_second("QS 4C 9D", "KH", unseen, 10, 0) == card("QS")
    # and a last trump the unseen K♠ beats ruffs the 10 (test_a_last_trump_ruffs_a_trick_worth_ten)
    assert void_second("QS 4C 9D", "KH", unseen + " KS", 10, 20) == card("QS")
