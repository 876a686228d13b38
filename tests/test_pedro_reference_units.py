"""Unit tests of the pure-Python Pedro/Cinch reference (tests/reference/pedro_ref.py).

Every expected value here was worked out by hand from docs/spec.md
(§1, §2, §5) and tests/reference/PEDRO_LOG_FORMAT.md; the hand-made deals
are annotated trick by trick.  Nothing here imports the analyzer package.
"""

import copy
import random

import pytest

try:
    from tests.reference import pedro_ref as ref
except ImportError:  # pytest run with tests/ itself on sys.path
    from reference import pedro_ref as ref

from itertools import product

C = ref.parse_card


def cards(text):
    """'AH 5D 3H' -> [(14,'H'), (5,'D'), (3,'H')]."""
    return [C(t) for t in text.split()]


def strs(text):
    return text.split()


# ---------------------------------------------------------------------------
# Cards, trump membership, effective suit (§1.1, §5.2)
# ---------------------------------------------------------------------------


def test_parse_card_round_trip_and_rejects_garbage():
    assert C("TS") == (10, "S")
    assert C("AH") == (14, "H")
    assert C("2C") == (2, "C")
    assert C("5D") == (5, "D")
    for card in ref.FULL_DECK:
        assert C(ref.card_str(card)) == card
    assert len(set(ref.FULL_DECK)) == 52
    for bad in ("10S", "1S", "AX", "", "as", None, "TSX"):
        with pytest.raises(ValueError):
            C(bad)


def test_partner_suits_are_same_colour():
    assert ref.partner_suit("C") == "S" and ref.partner_suit("S") == "C"
    assert ref.partner_suit("D") == "H" and ref.partner_suit("H") == "D"


@pytest.mark.parametrize("trump", list("CDHS"))
def test_suit_sizes_for_every_trump(trump):
    """§5.2: 14 trumps, 12 in the same-colour suit, 13 in each other suit."""
    partner = ref.partner_suit(trump)
    sizes = {s: 0 for s in "CDHS"}
    for card in ref.FULL_DECK:
        sizes[ref.effective_suit(card, trump)] += 1
    assert sizes[trump] == 14
    assert sizes[partner] == 12
    for other in set("CDHS") - {trump, partner}:
        assert sizes[other] == 13
    assert sum(ref.is_trump(c, trump) for c in ref.FULL_DECK) == 14


def test_five_of_diamonds_is_trump_only_for_red_trumps():
    """§5.2: is_trump(5D) iff trump in {H, D}."""
    assert ref.is_trump(C("5D"), "H") and ref.is_trump(C("5D"), "D")
    assert not ref.is_trump(C("5D"), "C") and not ref.is_trump(C("5D"), "S")
    assert ref.is_trump(C("5C"), "S") and ref.is_trump(C("5C"), "C")
    assert not ref.is_trump(C("5C"), "H")
    # other cards of the partner suit are not trumps
    assert not ref.is_trump(C("4D"), "H") and not ref.is_trump(C("AD"), "H")


def test_left_and_right_pedro():
    assert ref.is_left_pedro(C("5D"), "H") and ref.is_right_pedro(C("5H"), "H")
    assert ref.is_left_pedro(C("5S"), "C") and ref.is_right_pedro(C("5C"), "C")
    assert not ref.is_left_pedro(C("5H"), "H") and not ref.is_left_pedro(C("5C"), "H")


def test_effective_suit_left_pedro_leaves_its_printed_suit():
    assert ref.effective_suit(C("5D"), "H") == "H"
    assert ref.effective_suit(C("5H"), "D") == "D"
    assert ref.effective_suit(C("5C"), "S") == "S"
    assert ref.effective_suit(C("5S"), "C") == "C"
    assert ref.effective_suit(C("5D"), "C") == "D"  # black trumps: 5D is a plain diamond
    assert ref.effective_suit(C("KD"), "H") == "D"
    assert ref.effective_suit(C("KH"), "H") == "H"


# ---------------------------------------------------------------------------
# Trump order (§1.1, §5.3)
# ---------------------------------------------------------------------------


def test_trump_order_hearts_by_hand():
    expected = cards("AH KH QH JH TH 9H 8H 7H 6H 5H 5D 4H 3H 2H")
    assert ref.trump_order("H") == expected


@pytest.mark.parametrize("trump", list("CDHS"))
def test_left_pedro_between_right_pedro_and_four(trump):
    order = ref.trump_order(trump)
    assert len(order) == 14
    right, left, four = (5, trump), (5, ref.partner_suit(trump)), (4, trump)
    assert order.index(right) + 1 == order.index(left) == order.index(four) - 1 == 10
    assert order[0] == (14, trump) and order[-1] == (2, trump)
    rank = lambda c: ref.trump_rank(c, trump)  # noqa: E731
    assert rank(right) > rank(left) > rank(four)
    keys = [rank(c) for c in order]
    assert keys == sorted(keys, reverse=True) and len(set(keys)) == 14


def test_trump_rank_rejects_non_trump():
    with pytest.raises(ValueError):
        ref.trump_rank(C("KD"), "H")
    with pytest.raises(ValueError):
        ref.trump_rank(C("5D"), "S")


# ---------------------------------------------------------------------------
# Legal plays (§1.6, §5.5)
# ---------------------------------------------------------------------------

ALLOWED = {"trump_while_able_to_follow": "allowed"}
FORBIDDEN = {"trump_while_able_to_follow": "forbidden"}


def legal(hand, trick, trump, rules=ALLOWED):
    return sorted(ref.legal_plays(cards(hand), cards(trick), trump, rules))


def test_any_card_may_be_led():
    assert legal("2C KD 5D AH", "", "H") == sorted(cards("2C KD 5D AH"))


def test_plain_lead_follow_or_trump_by_default():
    # Trump H, clubs led; holding 3C 9C: clubs or trumps (5D is a trump), not KD/AS.
    assert legal("3C 9C KD AS 7H 5D", "QC", "H") == sorted(cards("3C 9C 7H 5D"))


def test_plain_lead_forbidden_must_follow():
    assert legal("3C 9C KD AS 7H 5D", "QC", "H", FORBIDDEN) == sorted(cards("3C 9C"))


def test_plain_lead_void_any_card():
    assert legal("KD AS 7H", "QC", "H") == sorted(cards("KD AS 7H"))
    assert legal("KD AS 7H", "QC", "H", FORBIDDEN) == sorted(cards("KD AS 7H"))


def test_trump_lead_must_trump_including_left_pedro():
    # Trump H, 9H led: holding 5D (Left Pedro) and 2H, only those two.
    assert legal("5D 2H KC AD", "9H", "H") == sorted(cards("5D 2H"))
    assert legal("5D KC AD", "9H", "H", FORBIDDEN) == cards("5D")


def test_trump_lead_without_trumps_any_card():
    assert legal("KC AD 4D", "9H", "H") == sorted(cards("KC AD 4D"))


def test_left_pedro_does_not_follow_its_printed_suit():
    # Trump H, 9D led.  5D is a trump, so a hand of 5D 3C KS is void in diamonds.
    assert legal("5D 3C KS", "9D", "H") == sorted(cards("5D 3C KS"))
    assert legal("5D 3C KS", "9D", "H", FORBIDDEN) == sorted(cards("5D 3C KS"))
    # Holding a real diamond: the 2D follows, the 5D only as a trump.
    assert legal("5D 2D 3C", "9D", "H") == sorted(cards("5D 2D"))
    assert legal("5D 2D 3C", "9D", "H", FORBIDDEN) == cards("2D")


def test_left_pedro_led_is_a_trump_lead():
    # Trump H, 5D led: a trump lead, so 2D does not follow and 3H must be played.
    assert legal("2D 3H KC", "5D", "H") == cards("3H")
    assert legal("2D KC", "5D", "H") == sorted(cards("2D KC"))


def test_black_left_pedro_led():
    # Trump C, 5S led = trump lead; AS is a plain spade and may not be played over 4C.
    assert legal("AS 4C", "5S", "C") == cards("4C")


def test_legal_plays_follows_only_the_first_card():
    # Lead 9D, then someone trumped with 6H: the led suit is still diamonds.
    assert legal("2D KC", "9D 6H", "H") == cards("2D")
    assert legal("2D KC 3H", "9D 6H", "H", FORBIDDEN) == cards("2D")
    assert legal("2D KC 3H", "9D 6H", "H") == sorted(cards("2D 3H"))


# ---------------------------------------------------------------------------
# Trick winner (§1.7)
# ---------------------------------------------------------------------------


def plays(spec):
    """'0:9D 1:AD' -> [(0, (9,'D')), (1, (14,'D'))]."""
    out = []
    for item in spec.split():
        seat, card = item.split(":")
        out.append((int(seat), C(card)))
    return out


def test_trick_winner_highest_of_led_suit():
    assert ref.trick_winner(plays("0:9D 1:AD 2:KC 3:2D"), "H") == 1
    # Off-suit higher cards never win: AS on a club lead.
    assert ref.trick_winner(plays("2:3C 3:AS 0:2C 1:KD"), "H") == 2


def test_trick_winner_trump_beats_led_suit():
    assert ref.trick_winner(plays("0:AD 1:2H 2:KD 3:QD"), "H") == 1


def test_trick_winner_highest_trump():
    assert ref.trick_winner(plays("3:9H 0:4H 1:KH 2:2H"), "H") == 1


def test_left_pedro_beats_four_loses_to_right_pedro():
    assert ref.trick_winner(plays("0:4H 1:5D 2:3H 3:2H"), "H") == 1
    assert ref.trick_winner(plays("0:5D 1:5H 2:4H 3:AC"), "H") == 1
    assert ref.trick_winner(plays("0:5H 1:5D"), "H") == 0


def test_left_pedro_wins_a_trick_led_in_its_printed_suit_as_a_trump():
    # Trump H, diamond lead: 5D is a trump and beats the AD.
    assert ref.trick_winner(plays("0:9D 1:AD 2:5D 3:KD"), "H") == 2
    # With black trumps the 5D is an ordinary diamond.
    assert ref.trick_winner(plays("0:9D 1:AD 2:5D 3:KD"), "S") == 1


def test_left_pedro_led_and_higher_printed_suit_card():
    # Trump H, 5D led (a trump): the AD is a plain diamond and cannot win.
    assert ref.trick_winner(plays("0:5D 1:AD 2:KC 3:3C"), "H") == 0


def test_short_trick_winner():
    # play_short_hand: tricks may have fewer than four plays.
    assert ref.trick_winner(plays("1:7C 3:9C"), "D") == 3


# ---------------------------------------------------------------------------
# Bidding (§1.3, LOG §9)
# ---------------------------------------------------------------------------


def test_auction_highest_bidder_in_order_from_eldest():
    # Dealer 3: the order is seats 0, 1, 2, 3.
    assert ref.run_auction([6, 0, 9, 0], 3, {}) == (2, 9)
    # Dealer 1: the order is seats 2, 3, 0, 1; the dealer bids last.
    assert ref.run_auction([0, 7, 0, 8], 1, {}) == (1, 8)
    # Overbidding a partner is allowed: seats 2 and 0 are partners.
    assert ref.run_auction([3, 0, 5, 0], 1, {}) == (0, 5)
    assert ref.run_auction([14, 0, 0, 0], 0, {}) == (1, 14)


@pytest.mark.parametrize(
    "bids", [[6, 0, 6, 0], [6, 0, 5, 0], [0, 15, 0, 0], [14, 0, 0, 14], [-1, 0, 0, 0]]
)
def test_auction_illegal_bids(bids):
    with pytest.raises(ref.IllegalAction) as err:
        ref.run_auction(bids, 3, {})
    assert "bidding" in str(err.value)


def test_auction_min_bid():
    with pytest.raises(ref.IllegalAction):
        ref.run_auction([6, 0, 0, 0], 3, {"min_bid": 7})
    assert ref.run_auction([7, 0, 0, 0], 3, {"min_bid": 7}) == (0, 7)
    assert ref.run_auction([1, 0, 0, 0], 3, {"min_bid": 1}) == (0, 1)


def test_auction_shape_and_types():
    with pytest.raises(ref.IllegalAction):
        ref.run_auction([6, 0, 9], 3, {})
    with pytest.raises(ref.IllegalAction):
        ref.run_auction([True, 0, 0, 0], 3, {})
    with pytest.raises(ref.IllegalAction):
        ref.run_auction([6.0, 0, 0, 0], 3, {})


def test_auction_all_pass_variants():
    passes = [0, 0, 0, 0]
    assert ref.run_auction(passes, 2, {"all_pass": "dealer_names_no_contract"}) == (None, 0)
    assert ref.run_auction(passes, 2, {"all_pass": "dealer_forced_min_bid", "min_bid": 7}) == (2, 7)
    assert ref.run_auction(passes, 2, {"all_pass": "dealer_forced_min_bid"}) == (2, 1)
    with pytest.raises(ref.IllegalAction):
        ref.run_auction(passes, 2, {"all_pass": "redeal"})


def test_unknown_flag_value_is_rejected():
    with pytest.raises(ref.IllegalAction):
        ref.run_auction([6, 0, 0, 0], 3, {"min_bid": 5})


# ---------------------------------------------------------------------------
# Scoring elements (§1.8, LOG §6-§7)
# ---------------------------------------------------------------------------

# Trump S.  Who held each counter at the start of play, and who won its trick.
HOLDERS_S = {C("AS"): 0, C("2S"): 1, C("JS"): 2, C("TS"): 3, C("5S"): 0, C("5C"): 1, C("9H"): 2}
CAPTURED_S = {C("AS"): 0, C("2S"): 0, C("JS"): 3, C("TS"): 2, C("5S"): 1, C("5C"): 2, C("9H"): 3}


def test_score_each_element_low_to_winner():
    got = ref.score_deal(HOLDERS_S, CAPTURED_S, [], "S", 0, {"low_to": "winner"})
    assert got["high"] == 0  # Ace held by seat 0
    assert got["low"] == 0  # 2S held by seat 1 but captured by seat 0
    assert got["jack"] == 1  # captured by seat 3
    assert got["game"] == 0  # ten captured by seat 2
    assert got["right_pedro"] == 1  # captured by seat 1
    assert got["left_pedro"] == 0  # 5C captured by seat 2
    assert got["points"] == [1 + 1 + 1 + 5, 1 + 5] == [8, 6]
    assert got["dead_points"] == 0


def test_score_low_to_holder():
    got = ref.score_deal(HOLDERS_S, CAPTURED_S, [], "S", 0, {"low_to": "holder"})
    assert got["low"] == 1  # seat 1 held the 2S
    assert got["points"] == [7, 7]


def test_cinch_low_always_to_winner():
    """§2.1: in Cinch Low counts to the player winning it, whatever the flag says."""
    got = ref.score_deal(HOLDERS_S, CAPTURED_S, [], "S", 0, {"game": "cinch", "low_to": "holder"})
    assert got["low"] == 0 and got["points"] == [8, 6]


def test_counters_not_in_play_score_nothing():
    # Only the AS and 9H in play (the rest were left in the stock).
    holders = {C("AS"): 1, C("9H"): 2}
    captured = {C("AS"): 1, C("9H"): 1}
    got = ref.score_deal(holders, captured, [], "S", 0, {})
    assert got["high"] == 1
    assert [got[k] for k in ("low", "jack", "game", "right_pedro", "left_pedro")] == [None] * 5
    assert got["points"] == [0, 1] and got["dead_points"] == 13


def test_high_low_highest_lowest_in_play():
    holders = {C("KS"): 1, C("7S"): 2, C("3S"): 3, C("AD"): 0}
    captured = {C("KS"): 0, C("7S"): 0, C("3S"): 0, C("AD"): 0}
    fixed = ref.score_deal(holders, captured, [], "S", 0, {"high_low_def": "fixed_a_and_2"})
    assert fixed["high"] is None and fixed["low"] is None and fixed["points"] == [0, 0]
    assert fixed["dead_points"] == 14
    in_play = ref.score_deal(holders, captured, [], "S", 0,
                             {"high_low_def": "highest_lowest_in_play"})
    assert in_play["high"] == 1  # KS, held by seat 1
    assert in_play["low"] == 0  # 3S, captured by seat 0
    assert in_play["points"] == [1, 1] and in_play["dead_points"] == 12


def test_highest_lowest_left_pedro_counts_as_a_trump():
    # Trump S: the 5C (Left Pedro, 4.5) is lower than the 5S and higher than the 4S.
    holders = {C("5C"): 1, C("5S"): 2}
    captured = {C("5C"): 3, C("5S"): 3}
    got = ref.score_deal(holders, captured, [], "S", 0, {"high_low_def": "highest_lowest_in_play"})
    assert got["high"] == 0  # 5S held by seat 2
    assert got["low"] == 1  # 5C captured by seat 3
    assert got["points"] == [1, 1 + 5 + 5]


def test_one_lone_trump_is_high_and_low():
    holders = {C("7S"): 2, C("KD"): 1}
    captured = {C("7S"): 1, C("KD"): 1}
    rules = {"high_low_def": "highest_lowest_in_play"}
    got = ref.score_deal(holders, captured, [], "S", 0, rules)
    assert (got["high"], got["low"]) == (0, 1)
    got = ref.score_deal(holders, captured, [], "S", 0, dict(rules, low_to="holder"))
    assert (got["high"], got["low"]) == (0, 0)


def test_no_trump_in_play_highest_lowest():
    got = ref.score_deal({C("KD"): 1}, {C("KD"): 1}, [], "S", 0,
                         {"high_low_def": "highest_lowest_in_play"})
    assert got["high"] is None and got["low"] is None and got["points"] == [0, 0]


@pytest.mark.parametrize(
    "rule, discarder, expected_team",
    [
        ("dead", 1, None),
        ("dead", 2, None),
        ("s000_mistake_rule", 1, 0),  # adversary of the trump maker (seat 0): to the maker
        ("s000_mistake_rule", 3, 0),
        ("s000_mistake_rule", 2, None),  # the maker's partner: nobody
        ("s000_mistake_rule", 0, None),
        ("s002_to_trump_maker", 1, 0),  # whoever discarded it
        ("s002_to_trump_maker", 2, 0),
    ],
)
def test_dead_counter_scoring(rule, discarder, expected_team):
    holders = {C("AS"): 0}
    captured = {C("AS"): 0}
    dead = [(discarder, C("JS")), (discarder, C("5C"))]
    got = ref.score_deal(holders, captured, dead, "S", 0, {"discarded_counter_scoring": rule})
    assert got["jack"] == expected_team and got["left_pedro"] == expected_team
    expected_points = [1, 0]
    if expected_team is not None:
        expected_points[expected_team] += 6
    assert got["points"] == expected_points
    assert got["dead_points"] == 14 - sum(expected_points)


def test_dead_counter_scoring_for_trump_maker_on_team_one():
    dead = [(0, C("TS"))]
    got = ref.score_deal({}, {}, dead, "S", 3, {"discarded_counter_scoring": "s000_mistake_rule"})
    assert got["game"] == 1
    got = ref.score_deal({}, {}, dead, "S", 1, {"discarded_counter_scoring": "s002_to_trump_maker"})
    assert got["game"] == 1


def test_dead_ace_and_two_count_only_under_fixed_definition():
    holders = {C("KS"): 2, C("3S"): 3}
    captured = {C("KS"): 2, C("3S"): 2}
    dead = [(1, C("AS")), (1, C("2S"))]
    rules = {"discarded_counter_scoring": "s002_to_trump_maker"}
    fixed = ref.score_deal(holders, captured, dead, "S", 0,
                           dict(rules, high_low_def="fixed_a_and_2"))
    assert (fixed["high"], fixed["low"]) == (0, 0) and fixed["points"] == [2, 0]
    in_play = ref.score_deal(holders, captured, dead, "S", 1,
                             dict(rules, high_low_def="highest_lowest_in_play"))
    # High = KS (held by seat 2, team 0), Low = 3S (captured by seat 2, team 0).
    assert (in_play["high"], in_play["low"]) == (0, 0) and in_play["points"] == [2, 0]


# ---------------------------------------------------------------------------
# Settlement (§1.9, §5.8, §5.9, LOG §8)
# ---------------------------------------------------------------------------


def test_method1_made_and_set():
    assert ref.settle([9, 5], 0, 9, 1) == [9, 5]  # exactly made
    assert ref.settle([10, 4], 0, 7, 1) == [10, 4]
    assert ref.settle([8, 6], 0, 9, 1) == [-9, 6]  # set back the bid
    assert ref.settle([3, 11], 1, 12, 1) == [3, -12]


def test_method2_made_difference_to_side_with_more():
    assert ref.settle([10, 4], 0, 7, 2) == [6, 0]
    assert ref.settle([4, 10], 1, 8, 2) == [0, 6]
    assert ref.settle([7, 7], 0, 7, 2) == [0, 0]  # made on a tie: nobody scores
    # §1.9 AMBIG: bid 3 made with 5 while the opponents took 9.
    assert ref.settle([5, 9], 0, 3, 2, "side_with_more") == [0, 4]
    assert ref.settle([5, 9], 0, 3, 2, "bidder_only") == [0, 0]
    assert ref.settle([10, 4], 0, 7, 2, "bidder_only") == [6, 0]


def test_method2_set_rules_example():
    """§1.9 / §5.9 (PWIN): bid 8, a 7-7 split: the opponents score 7 + 8 = 15."""
    assert ref.settle([7, 7], 0, 8, 2) == [0, 15]
    assert ref.settle([7, 7], 1, 8, 2) == [15, 0]
    assert ref.settle([7, 7], 1, 8, 2, "bidder_only") == [15, 0]
    assert ref.settle([0, 14], 0, 1, 2) == [0, 14 + 1]


def test_no_contract_settlement():
    assert ref.settle([9, 5], None, 0, 1) == [9, 5]
    assert ref.settle([0, 14], None, 0, 1) == [0, 14]
    assert ref.settle([9, 5], None, 0, 2) == [4, 0]
    assert ref.settle([5, 9], None, 0, 2, "bidder_only") == [0, 4]
    assert ref.settle([7, 7], None, 0, 2) == [0, 0]


def test_made_flag():
    assert ref.is_made([8, 6], 0, 9) is False
    assert ref.is_made([8, 6], 0, 8) is True
    assert ref.is_made([8, 6], 1, 6) is True
    assert ref.is_made([8, 6], None, 0) is None


# ---------------------------------------------------------------------------
# Hand-made deal 1: Pedro, dealer 3, seat 2 bids 9 in hearts and is set.
# ---------------------------------------------------------------------------

PEDRO_DEFAULT_RULES = {
    "game": "pedro", "min_bid": 1, "all_pass": "dealer_names_no_contract",
    "low_to": "winner", "high_low_def": "fixed_a_and_2", "scoring": 1,
    "m2_diff_to": "side_with_more", "target": 51, "no_contract_tie": "higher_total_then_dealer",
    "trump_while_able_to_follow": "allowed", "excess_trumps": "discard_dead",
    "discarded_counter_scoring": "dead", "stock_short": "keep_own_nontrumps",
    "cinch_keep_nontrumps": "custom_all_but_trumps", "rob_disclosure": "hidden",
}


def trick(leader, spec, winner, dumps=()):
    return {"leader": leader,
            "plays": [[int(s), c] for s, c in (x.split(":") for x in spec.split())],
            "dumps": [list(d) for d in dumps], "winner": winner}


def deal1():
    """Trump H (Left Pedro 5D).  Eldest is seat 0; the bids in order 0,1,2,3 are 6, pass, 9, pass.

    Discard: seat 0 keeps AH 5D 3H and draws the top 3 (5C 4C 7S); seat 1 keeps KH 2H
    and draws the next 4 (6S 5S 4S JD); seat 2 keeps QH JH TH 9H 5H and draws TD;
    the dealer keeps 4H and robs 8H 7H 6H 9D 8D from the last 8, leaving 7D 6D 3D.

    Start of play:  S0 AH 5D 3H 5C 4C 7S | S1 KH 2H 6S 5S 4S JD
                    S2 QH JH TH 9H 5H TD | S3 4H 8H 7H 6H 9D 8D
    T1 S2 leads TD; S3 trumps 6H though holding diamonds (allowed); S0 is void in
       diamonds (5D is a trump) and drops the 5D; S1 plays 2H though holding JD.
       Trumps 6H > 5D > 2H: seat 3 wins the Left Pedro and Low.
    T2 S3 9D, S0 7S (void), S1 JD, S2 9H: seat 2.
    T3 S2 QH, S3 4H, S0 AH, S1 KH: seat 0.
    T4 S0 3H, S1 4S (no trumps), S2 TH, S3 8H: TH > 8H, seat 2 wins Game.
    T5 S2 JH, S3 7H, S0 4C, S1 5S: seat 2 wins Jack.
    T6 S2 5H, S3 8D, S0 5C, S1 6S: seat 2 wins the Right Pedro.
    Team 0: High 1 + Game 1 + Jack 1 + Right 5 = 8; team 1: Low 1 + Left 5 = 6.
    Bid 9 failed: method 1 [-9, 6]; method 2 [0, 6 + 9 = 15].
    """
    return {
        "rules": dict(PEDRO_DEFAULT_RULES),
        "dealer": 3,
        "redeals": 0,
        "hands": [strs("AH 5D 3H AC KC 2C AS 3S 4D"),
                  strs("KH 2H QC JC 3C KS QS 2S 2D"),
                  strs("QH JH TH 9H 5H TC 9C JS AD"),
                  strs("4H 8C 7C 6C TS 9S 8S KD QD")],
        "stock": strs("5C 4C 7S 6S 5S 4S JD TD 8H 7H 6H 9D 8D 7D 6D 3D"),
        "bids": [6, 0, 9, 0],
        "bidder": 2,
        "bid": 9,
        "trump": "H",
        "kept": [strs("AH 5D 3H"), strs("KH 2H"), strs("QH JH TH 9H 5H"), strs("4H")],
        "dead": [],
        "drawn": [strs("5C 4C 7S"), strs("6S 5S 4S JD"), strs("TD"), strs("8H 7H 6H 9D 8D")],
        "stock_left": strs("7D 6D 3D"),
        "tricks": [
            trick(2, "2:TD 3:6H 0:5D 1:2H", 3),
            trick(3, "3:9D 0:7S 1:JD 2:9H", 2),
            trick(2, "2:QH 3:4H 0:AH 1:KH", 0),
            trick(0, "0:3H 1:4S 2:TH 3:8H", 2),
            trick(2, "2:JH 3:7H 0:4C 1:5S", 2),
            trick(2, "2:5H 3:8D 0:5C 1:6S", 2),
        ],
        "result": {
            "high": 0, "low": 1, "jack": 0, "game": 0, "right_pedro": 0, "left_pedro": 1,
            "points": [8, 6], "dead_points": 0, "made": False,
            "score1": [-9, 6], "score2": [0, 15],
        },
    }


def test_deal1_replays_with_hand_computed_result():
    log = deal1()
    out = ref.replay(log)
    assert out["bidder"] == 2 and out["bid"] == 9
    assert out["winners"] == [3, 2, 0, 2, 2, 2]
    assert out["result"] == log["result"]
    assert ref.result_mismatches(log, out) == []


def test_deal1_made_contract_variants():
    log = deal1()
    log["bids"], log["bid"] = [6, 0, 8, 0], 8  # 8 made exactly
    res = ref.replay(log)["result"]
    assert res["made"] is True and res["score1"] == [8, 6] and res["score2"] == [2, 0]


def test_deal1_low_to_holder_same_team():
    log = deal1()
    log["rules"]["low_to"] = "holder"  # the 2H was held by seat 1: still team 1
    assert ref.replay(log)["result"]["low"] == 1


def test_deal1_result_mismatch_is_reported():
    log = deal1()
    log["result"]["score2"] = [0, 14]
    assert ref.result_mismatches(log) == ["score2: reference [0, 15], log [0, 14]"]


def test_deal1_replay_does_not_mutate_the_log():
    log = deal1()
    before = copy.deepcopy(log)
    ref.replay(log)
    assert log == before


def _mutated(fn):
    log = deal1()
    fn(log)
    return log


def _set_play(log, t, i, card):
    log["tricks"][t]["plays"][i][1] = card


MUTATIONS = {
    # play phase
    "trump_while_able_forbidden": lambda L: L["rules"].update(
        trump_while_able_to_follow="forbidden"),
    "revoke_on_trump_lead": lambda L: _set_play(L, 2, 1, "8D"),  # S3 holds 4H on a trump lead
    "card_not_in_hand": lambda L: _set_play(L, 1, 1, "2C"),  # S0 discarded the 2C
    "card_played_twice": lambda L: _set_play(L, 1, 3, "2H"),  # S2 never had the 2H
    "wrong_winner": lambda L: L["tricks"][1].update(winner=1),
    "wrong_leader": lambda L: L["tricks"][1].update(leader=2),
    "out_of_turn": lambda L: L["tricks"][0].update(
        plays=[[2, "TD"], [0, "5D"], [3, "6H"], [1, "2H"]]),
    "missing_play": lambda L: L["tricks"][0]["plays"].pop(),
    "missing_trick": lambda L: L["tricks"].pop(),
    "extra_trick": lambda L: L["tricks"].append(trick(2, "2:AH", 2)),
    "dump_not_allowed": lambda L: L["tricks"][0].update(dumps=[[0, "3H"]]),
    # draw phase
    "non_top_draw_order": lambda L: L["drawn"].__setitem__(0, strs("4C 5C 7S")),
    "non_top_draw_card": lambda L: L["drawn"].__setitem__(1, strs("6S 5S 4S TD")),
    "too_few_drawn": lambda L: L["drawn"].__setitem__(2, []),
    "rob_card_not_in_stock": lambda L: L["drawn"].__setitem__(3, strs("8H 7H 6H 9D 2C")),
    "rob_card_already_drawn": lambda L: L["drawn"].__setitem__(3, strs("8H 7H 6H 9D 5C")),
    "rob_too_many": lambda L: L["drawn"].__setitem__(3, strs("8H 7H 6H 9D 8D 7D")),
    "stock_left_wrong": lambda L: L.__setitem__("stock_left", strs("7D 6D")),
    # discard phase
    "trump_discarded": lambda L: (L["kept"].__setitem__(0, strs("AH 5D")),
                                  L["drawn"].__setitem__(0, strs("5C 4C 7S 6S"))),
    "nontrump_kept": lambda L: (L["kept"].__setitem__(0, strs("AH 5D 3H AC")),
                                L["drawn"].__setitem__(0, strs("5C 4C"))),
    "kept_foreign_card": lambda L: L["kept"].__setitem__(0, strs("AH 5D 3H KH")),
    "dead_not_excess": lambda L: (L["kept"].__setitem__(0, strs("AH 5D")),
                                  L.__setitem__("dead", [[0, "3H"]])),
    # bidding
    "bid_not_higher": lambda L: L.__setitem__("bids", [6, 0, 6, 0]),
    "bid_over_14": lambda L: L.__setitem__("bids", [6, 0, 15, 0]),
    "wrong_bidder": lambda L: L.__setitem__("bidder", 0),
    "wrong_bid_amount": lambda L: L.__setitem__("bid", 8),
    "all_pass_but_contract": lambda L: L.__setitem__("bids", [0, 0, 0, 0]),
    "min_bid_violated": lambda L: L["rules"].update(min_bid=7),
    "bad_trump": lambda L: L.__setitem__("trump", "N"),
    # deal
    "duplicate_card": lambda L: L["hands"][0].__setitem__(8, "AD"),
    "short_stock": lambda L: L["stock"].pop(),
    "bad_card_text": lambda L: L["hands"][1].__setitem__(0, "KX"),
    "unexplained_redeal": lambda L: L.__setitem__("redeals", 1),
    "unknown_flag": lambda L: L["rules"].update(excess_trumps="whatever"),
}


@pytest.mark.parametrize("name", sorted(MUTATIONS))
def test_deal1_mutations_are_illegal(name):
    log = _mutated(MUTATIONS[name])
    with pytest.raises(ref.IllegalAction):
        ref.replay(log)


def test_illegal_action_message_names_phase_seat_action():
    log = _mutated(MUTATIONS["revoke_on_trump_lead"])
    with pytest.raises(ref.IllegalAction) as err:
        ref.replay(log)
    e = err.value
    assert (e.phase, e.seat, e.action) == ("trick 3", 3, "8D")
    assert "trick 3" in str(e) and "seat 3" in str(e) and "8D" in str(e)
    log = _mutated(MUTATIONS["wrong_winner"])
    with pytest.raises(ref.IllegalAction) as err:
        ref.replay(log)
    assert "rules give seat 2" in str(err.value) and "log says 1" in str(err.value)
    log = _mutated(MUTATIONS["non_top_draw_order"])
    with pytest.raises(ref.IllegalAction) as err:
        ref.replay(log)
    assert err.value.phase == "draw" and err.value.seat == 0


def test_deal1_redeal_count_allowed_with_redeal_flag():
    log = deal1()
    log["redeals"] = 2
    log["rules"]["all_pass"] = "redeal"
    assert ref.replay(log)["winners"] == [3, 2, 0, 2, 2, 2]


# ---------------------------------------------------------------------------
# Hand-made deal 2: excess trumps (§1.5 GAP, LOG §1, §5, §7)
# ---------------------------------------------------------------------------


def deal2(excess="discard_dead", counter_rule="dead"):
    """Trump S (Left Pedro 5C), dealer 0, eldest 1.  Seat 1 is dealt 7 trumps
    (AS KS QS JS TS 5S 5C) and bids 10; the others pass.

    discard_dead: seat 1 keeps AS KS QS TS 5S 5C, the JS is dead (seat 1 is the bidder).
    keep_all_dump_on_trick1: seat 1 keeps all 7 and dumps the JS on trick 1.
    Seat 2 keeps 9S 8S, draws AD KD AC KC; seat 3 keeps 7S, draws QC JC TC 9C 8C;
    the dealer keeps 6S 4S and robs 3S 2S 7C 6C, leaving 4C 3C 2C.
    Start: S1 AS KS QS TS 5S 5C (+JS) | S2 9S 8S AD KD AC KC
           S3 7S QC JC TC 9C 8C       | S0 6S 4S 3S 2S 7C 6C
    Seat 1 leads trumps every trick and wins all six:
    T1 AS 8S 7S 2S; T2 KS 9S 8C 3S; T3 QS KC 9C 4S; T4 TS AC TC 6S; T5 5S AD JC 7C;
    T6 5C KD QC 6C.
    """
    kept1 = strs("AS KS QS TS 5S 5C") + (strs("JS") if excess != "discard_dead" else [])
    dead = [[1, "JS"]] if excess == "discard_dead" else []
    dumps = [[1, "JS"]] if excess != "discard_dead" else []
    rules = dict(PEDRO_DEFAULT_RULES, excess_trumps=excess, discarded_counter_scoring=counter_rule)
    return {
        "rules": rules, "dealer": 0, "redeals": 0,
        "hands": [strs("6S 4S 6D 7D 8D 9D TD JD QD"),
                  strs("AS KS QS JS TS 5S 5C 2H 3H"),
                  strs("9S 8S 4H 5H 6H 7H 8H 9H TH"),
                  strs("7S JH QH KH AH 2D 3D 4D 5D")],
        "stock": strs("AD KD AC KC QC JC TC 9C 8C 7C 6C 4C 3S 2S 3C 2C"),
        "bids": [10, 0, 0, 0], "bidder": 1, "bid": 10, "trump": "S",
        "kept": [strs("6S 4S"), kept1, strs("9S 8S"), strs("7S")],
        "dead": dead,
        "drawn": [strs("3S 2S 7C 6C"), [], strs("AD KD AC KC"), strs("QC JC TC 9C 8C")],
        "stock_left": strs("4C 3C 2C"),
        "tricks": [
            trick(1, "1:AS 2:8S 3:7S 0:2S", 1, dumps),
            trick(1, "1:KS 2:9S 3:8C 0:3S", 1),
            trick(1, "1:QS 2:KC 3:9C 0:4S", 1),
            trick(1, "1:TS 2:AC 3:TC 0:6S", 1),
            trick(1, "1:5S 2:AD 3:JC 0:7C", 1),
            trick(1, "1:5C 2:KD 3:QC 0:6C", 1),
        ],
        "result": {},
    }


@pytest.mark.parametrize(
    "counter_rule, jack, points",
    [
        ("dead", None, [0, 13]),
        ("s000_mistake_rule", None, [0, 13]),  # discarded by the bidder himself: nobody
        ("s002_to_trump_maker", 1, [0, 14]),
    ],
)
def test_deal2_dead_excess_trump(counter_rule, jack, points):
    out = ref.replay(deal2("discard_dead", counter_rule))
    res = out["result"]
    assert out["winners"] == [1] * 6
    assert res["jack"] == jack and res["points"] == points
    assert res["dead_points"] == 14 - sum(points)
    assert (res["high"], res["low"], res["game"], res["right_pedro"], res["left_pedro"]) == (1,) * 5
    assert res["made"] is True and res["score1"] == points and res["score2"] == [0, points[1]]


def test_deal2_keep_all_and_dump_on_trick1():
    out = ref.replay(deal2("keep_all_dump_on_trick1"))
    res = out["result"]
    assert res["jack"] == 1 and res["points"] == [0, 14] and res["dead_points"] == 0


def test_deal2_wrong_number_of_dead_trumps():
    log = deal2("discard_dead")
    log["dead"] = []
    log["kept"][1] = strs("AS KS QS JS TS 5S 5C")
    with pytest.raises(ref.IllegalAction, match="dead"):
        ref.replay(log)
    log = deal2("discard_dead")
    log["dead"] = [[1, "JS"], [1, "TS"]]
    log["kept"][1] = strs("AS KS QS 5S 5C")
    with pytest.raises(ref.IllegalAction):
        ref.replay(log)


def test_deal2_dead_not_allowed_under_keep_all():
    log = deal2("keep_all_dump_on_trick1")
    log["dead"] = [[1, "JS"]]
    log["kept"][1] = strs("AS KS QS TS 5S 5C")
    with pytest.raises(ref.IllegalAction):
        ref.replay(log)


@pytest.mark.parametrize("dumps", [[], [[1, "JS"], [1, "KS"]], [[2, "AD"]], [[1, "2H"]]])
def test_deal2_wrong_dumps(dumps):
    log = deal2("keep_all_dump_on_trick1")
    log["tricks"][0]["dumps"] = dumps
    with pytest.raises(ref.IllegalAction):
        ref.replay(log)


def test_deal2_dump_on_later_trick_is_illegal():
    log = deal2("keep_all_dump_on_trick1")
    log["tricks"][0]["dumps"] = []
    log["tricks"][1]["dumps"] = [[1, "JS"]]
    with pytest.raises(ref.IllegalAction):
        ref.replay(log)


# ---------------------------------------------------------------------------
# Hand-made deal 3: stock too short (§1.5 GAP, LOG §2)
# ---------------------------------------------------------------------------


def autoplay(log):
    """Fill log["tricks"] by always playing the lowest-sorted legal card.

    Play here is generated with the reference's own legal_plays/trick_winner;
    these deals exist to test the discard phase (worked out by hand) and the
    skipping of empty seats, not the play rules.
    """
    trump, rules = log["trump"], log["rules"]
    hands = [sorted(C(c) for c in log["kept"][s] + log["drawn"][s]) for s in range(4)]
    leader = log["bidder"] if log["bidder"] is not None else log["dealer"]
    tricks = []
    first = True
    while any(hands):
        leader = ref.next_leader(leader, hands)
        order = [s for s in ((leader + i) % 4 for i in range(4)) if hands[s]]
        played, dumps = [], []
        sizes = [len(h) for h in hands]
        for s in order:
            card = sorted(ref.legal_plays(hands[s], [c for _, c in played], trump, rules))[0]
            hands[s].remove(card)
            played.append((s, card))
        if first and rules.get("excess_trumps") == "keep_all_dump_on_trick1":
            for s in range(4):
                for _ in range(sizes[s] - 6):
                    dumps.append((s, hands[s].pop()))
        winner = ref.trick_winner(played, trump)
        tricks.append({"leader": leader,
                       "plays": [[s, ref.card_str(c)] for s, c in played],
                       "dumps": [[s, ref.card_str(c)] for s, c in dumps], "winner": winner})
        leader = winner
        first = False
    log["tricks"] = tricks
    return log


def deal3(stock_short="keep_own_nontrumps"):
    """Trump H, dealer 3 bids 9 (others pass).  Seats 0-2 are dealt no trumps.

    Seat 0 draws the top 6, seat 1 the next 6; seat 2 then needs 6 with only 4
    left: under keep_own_nontrumps it keeps its 2 highest non-trumps, AS and then
    KS over KD (same rank, S > D), and takes the last 4.  The dealer keeps his 5
    trumps, finds the stock empty and keeps his highest non-trump, the AD.
    """
    log = {
        "rules": dict(PEDRO_DEFAULT_RULES, stock_short=stock_short), "dealer": 3, "redeals": 0,
        "hands": [strs("AC KC QC JC TC 9C 8C 7C 6C"),
                  strs("5C 4C 3C 2C QS JS TS 9S 8S"),
                  strs("AS KS KD 7S 6S 5S 4S 3S 2S"),
                  strs("AH KH QH JH TH QD JD TD AD")],
        "stock": strs("9H 9D 8H 8D 7H 7D 6H 6D 5H 4D 5D 3D 4H 3H 2H 2D"),
        "bids": [0, 0, 0, 9], "bidder": 3, "bid": 9, "trump": "H",
        "kept": [[], [], strs("AS KS"), strs("AH KH QH JH TH AD")],
        "dead": [],
        "drawn": [strs("9H 9D 8H 8D 7H 7D"), strs("6H 6D 5H 4D 5D 3D"), strs("4H 3H 2H 2D"), []],
        "stock_left": [],
        "result": {},
    }
    if stock_short == "play_short_hand":
        log["kept"][2] = []
        log["kept"][3] = strs("AH KH QH JH TH")
    return autoplay(log)


def test_deal3_discard_phase_by_hand():
    log = deal3()
    hands = [[C(c) for c in h] for h in log["hands"]]
    start = ref.check_discard_and_draw(
        hands, cards(" ".join(log["stock"])), 3, "H",
        [[C(c) for c in k] for k in log["kept"]], [],
        [[C(c) for c in d] for d in log["drawn"]], [], log["rules"])
    assert [len(h) for h in start] == [6, 6, 6, 6]
    assert sorted(start[2]) == sorted(cards("AS KS 4H 3H 2H 2D"))
    assert sorted(start[3]) == sorted(cards("AH KH QH JH TH AD"))


def test_forced_keep_order_rank_then_suit():
    assert ref.forced_nontrump_keep(cards("KD 7S AS KS 2S"), 2) == cards("AS KS")
    assert ref.forced_nontrump_keep(cards("KD KC KH"), 2) == cards("KH KD")
    assert ref.forced_nontrump_keep(cards("9C TD"), 1) == cards("TD")


def test_deal3_replays_under_keep_own_nontrumps():
    out = ref.replay(deal3())
    assert len(out["winners"]) == 6
    res = out["result"]
    assert res["points"][0] + res["points"][1] + res["dead_points"] == 14
    assert res["dead_points"] == 0  # all 14 trumps are in play
    assert res["high"] == 1  # the dealer (seat 3) holds the AH


@pytest.mark.parametrize(
    "seat, kept, drawn",
    [
        (2, "AS KD", "4H 3H 2H 2D"),  # KS beats KD on the suit tie-break
        (2, "AS", "4H 3H 2H 2D"),  # too few kept
        (2, "", "4H 3H 2H 2D"),
        (3, "AH KH QH JH TH QD", ""),  # the dealer must keep his highest, AD
        (3, "AH KH QH JH TH", ""),
    ],
)
def test_deal3_wrong_forced_keep(seat, kept, drawn):
    log = deal3()
    log["kept"][seat] = strs(kept)
    log["drawn"][seat] = strs(drawn)
    with pytest.raises(ref.IllegalAction):
        ref.replay(log)


def test_deal3_play_short_hand():
    log = deal3("play_short_hand")
    out = ref.replay(log)
    # Hands of 6, 6, 4, 5: six tricks, the last ones with fewer players.
    assert len(out["winners"]) == 6
    assert [len(t["plays"]) for t in log["tricks"]][-1] == 2
    assert sum(len(t["plays"]) for t in log["tricks"]) == 21
    # Keeping non-trumps under play_short_hand is not allowed.
    log = deal3("play_short_hand")
    log["kept"][2] = strs("AS KS")
    with pytest.raises(ref.IllegalAction):
        ref.replay(log)


def test_deal3_shortage_under_redeal_is_illegal():
    log = deal3()
    log["rules"]["stock_short"] = "redeal"
    with pytest.raises(ref.IllegalAction, match="redeal"):
        ref.replay(log)


def test_next_leader_skips_empty_seats():
    hands = [[C("2C")], [], [], [C("3C")]]
    assert ref.next_leader(1, hands) == 3
    assert ref.next_leader(0, hands) == 0
    assert ref.next_leader(2, [[], [], [], []]) is None


def test_empty_leader_is_skipped_in_replay():
    """Deal 3 under play_short_hand (hands 6/6/4/5, the dealer leads TH, JH, QH, KH, AH):
    the dealer wins tricks 1-5 and then has no card, so seat 0 leads trick 6 (LOG §4)."""
    log = deal3("play_short_hand")
    out = ref.replay(log)
    assert out["winners"][4] == 3 and log["tricks"][5]["leader"] == 0
    assert [p[0] for p in log["tricks"][5]["plays"]] == [0, 1]
    bad = copy.deepcopy(log)
    bad["tricks"][5]["leader"] = 3  # the trick winner, but he holds no card
    with pytest.raises(ref.IllegalAction, match="wrong leader"):
        ref.replay(bad)


# ---------------------------------------------------------------------------
# Hand-made deal 4: the dealer's trumps plus the stock's exceed 6 (§1.5 GAP, LOG §3)
# ---------------------------------------------------------------------------


def deal4(dealer_trumps=6):
    """Trump H (Left Pedro 5D), dealer 3 bids 9, the others pass; eldest is seat 0.

    Seats 0-2 hold two trumps each (TH 9H | 8H 7H | 6H 5D) and draw 4 cards each
    off the top: AD KD QD 2H | JD TD 9D 8D | 7D 6D 4D 3D.  The stock left for the
    dealer is 5H 3S 2S 2D.

    dealer_trumps=6: the dealer holds AH KH QH JH 4H 3H (+ AC KC QC).  His pool is
    those 6 plus the stock's 5H = 7 > 6, so (LOG §3) his hand is any 6 of them: he
    swaps his 3H for the Right Pedro.  kept AH KH QH JH 4H, drawn 5H, dead [3, 3H],
    stock_left 3S 2S 2D.  (Under the old reading he could take nothing: need = 0.)

    dealer_trumps=5: the 3H and the 3S trade places (the dealer holds 3S, the stock
    left is 5H 3H 2S 2D).  Pool 5 + 2 = 7 > 6: the default keep takes the 5H and
    leaves the 3H, the excess, which is dead (shown with the dealer's discards).

    Either way the hands at the start of play are
        S0 TH 9H 2H AD KD QD | S1 8H 7H JD TD 9D 8D
        S2 6H 5D 7D 6D 4D 3D | S3 AH KH QH JH 4H 5H
    and the dealer leads trumps six times and wins every trick:
    T1 AH 2H 7H 5D (High, Low, Left Pedro); T2 KH 9H 8H 6H; T3 QH TH JD 7D (Game;
    seats 1 and 2 are out of trumps); T4 JH AD TD 6D (Jack); T5 5H KD 9D 4D (Right
    Pedro); T6 4H QD 8D 3D.  Team 1 takes all 14 points; bid 9 made.
    """
    hands = [strs("TH 9H JC TC 9C 8C 7C 6C 5C"),
             strs("8H 7H 4C 3C 2C AS KS QS JS"),
             strs("6H 5D TS 9S 8S 7S 6S 5S 4S"),
             strs("AH KH QH JH 4H 3H AC KC QC")]
    stock = strs("AD KD QD 2H JD TD 9D 8D 7D 6D 4D 3D 5H 3S 2S 2D")
    kept3, dead, stock_left = strs("AH KH QH JH 4H"), [[3, "3H"]], strs("3S 2S 2D")
    if dealer_trumps == 5:
        hands[3][5], stock[13] = "3S", "3H"
        dead, stock_left = [[3, "3H"]], strs("2S 2D")
    return {
        "rules": dict(PEDRO_DEFAULT_RULES), "dealer": 3, "redeals": 0,
        "hands": hands, "stock": stock,
        "bids": [0, 0, 0, 9], "bidder": 3, "bid": 9, "trump": "H",
        "kept": [strs("TH 9H"), strs("8H 7H"), strs("6H 5D"), kept3],
        "dead": dead,
        "drawn": [strs("AD KD QD 2H"), strs("JD TD 9D 8D"), strs("7D 6D 4D 3D"), strs("5H")],
        "stock_left": stock_left,
        "tricks": [
            trick(3, "3:AH 0:2H 1:7H 2:5D", 3),
            trick(3, "3:KH 0:9H 1:8H 2:6H", 3),
            trick(3, "3:QH 0:TH 1:JD 2:7D", 3),
            trick(3, "3:JH 0:AD 1:TD 2:6D", 3),
            trick(3, "3:5H 0:KD 1:9D 2:4D", 3),
            trick(3, "3:4H 0:QD 1:8D 2:3D", 3),
        ],
        "result": {
            "high": 1, "low": 1, "jack": 1, "game": 1, "right_pedro": 1, "left_pedro": 1,
            "points": [0, 14], "dead_points": 0, "made": True,
            "score1": [0, 14], "score2": [0, 14],
        },
    }


@pytest.mark.parametrize("dealer_trumps", [6, 5])
def test_deal4_dealer_swaps_low_trump_for_stock_pedro(dealer_trumps):
    log = deal4(dealer_trumps)
    out = ref.replay(log)
    assert out["winners"] == [3] * 6
    assert out["result"] == log["result"]
    assert ref.result_mismatches(log, out) == []


def test_deal4_discard_phase_by_hand():
    log = deal4()
    start = ref.check_discard_and_draw(
        [[C(c) for c in h] for h in log["hands"]], [C(c) for c in log["stock"]], 3, "H",
        [[C(c) for c in k] for k in log["kept"]], [(3, C("3H"))],
        [[C(c) for c in d] for d in log["drawn"]], cards("3S 2S 2D"), log["rules"])
    assert sorted(start[3]) == sorted(cards("AH KH QH JH 4H 5H"))
    # the pool: the dealer's 6 trumps and the one trump left in the stock
    pool = ref.dealer_trump_pool(cards("AH KH QH JH 4H 3H"), cards("5H 3S 2S 2D"), "H")
    assert pool == set(cards("AH KH QH JH 4H 3H 5H"))


def test_deal4_dealer_may_drop_a_counter_it_is_dead():
    """Any 6 of the pool is legal, not only the best: the dealer keeps KH..3H and the
    5H, so his AH is dead (High goes by DISCARDED_COUNTER_SCORING, LOG §7)."""
    for counter_rule, high in [("dead", None), ("s000_mistake_rule", None),
                               ("s002_to_trump_maker", 1)]:
        log = deal4()
        log["rules"]["discarded_counter_scoring"] = counter_rule
        log["kept"][3] = strs("KH QH JH 4H 3H")
        log["dead"] = [[3, "AH"]]
        res = ref.replay(autoplay(log))["result"]
        assert res["high"] == high
        assert res["dead_points"] == (1 if high is None else 0)


def test_deal4_dealer_may_keep_his_six_and_leave_the_pedro():
    """Also legal: his own 6 trumps, nothing robbed. The 5H he leaves is the excess: it
    is dead, not left in the stock (docs/spec.md §1.5, "he keeps 6 and the excess is
    dead"), and scores by DISCARDED_COUNTER_SCORING like his own discards: the dealer
    is the trump maker here, so only s002_to_trump_maker gives it to his team (1)."""
    for counter_rule, right in [("dead", None), ("s000_mistake_rule", None),
                                ("s002_to_trump_maker", 1)]:
        log = deal4()
        log["rules"]["discarded_counter_scoring"] = counter_rule
        log["kept"][3] = strs("AH KH QH JH 4H 3H")
        log["drawn"][3], log["dead"] = [], [[3, "5H"]]
        log["stock_left"] = strs("3S 2S 2D")
        res = ref.replay(autoplay(log))["result"]
        assert res["right_pedro"] == right
        assert res["dead_points"] == (5 if right is None else 0)
        # leaving it in the stock instead is illegal: the pool's excess is dead
        log["dead"], log["stock_left"] = [], strs("5H 3S 2S 2D")
        with pytest.raises(ref.IllegalAction, match="listed dead"):
            ref.replay(autoplay(log))


@pytest.mark.parametrize(
    "dealer_trumps, kept, dead, drawn, stock_left, match",
    [
        # a stock non-trump while the pool exceeds 6 (legal under the old reading:
        # 5 trumps, need 1, any card)
        (5, "AH KH QH JH 4H", [], "2D", "5H 3H 2S", "only trumps"),
        (6, "AH KH QH JH 4H", [[3, "3H"]], "2D", "5H 3S 2S", "only trumps"),
        # a stock trump left behind, ending with fewer than 6 trumps
        (5, "AH KH QH JH", [[3, "4H"]], "5H", "3H 3S 2S 2D", "exactly 6"),
        (5, "AH KH QH JH 4H", [], "", "5H 3H 2S 2D", "exactly 6"),
        (6, "AH KH QH JH 4H", [[3, "3H"]], "", "5H 3S 2S 2D", "exactly 6"),
        # a stock trump left in the stock rather than dead
        (5, "AH KH QH JH 4H", [], "5H", "3H 2S 2D", "listed dead"),
        # more than 6
        (5, "AH KH QH JH 4H", [], "5H 3H", "2S 2D", "exactly 6"),
        # a kept non-trump
        (5, "AH KH QH JH 4H AC", [], "", "5H 3H 2S 2D", "non-trump"),
        # dead cards that are neither the dealer's own trumps nor the stock's
        (6, "AH KH QH JH 4H 3H", [[3, "AC"]], "", "5H 3S 2S 2D", "own trumps and the stock's"),
        (6, "AH KH QH JH 4H", [[3, "3H"], [3, "2S"]], "5H", "3S 2D",
         "own trumps and the stock's"),
        # a stock trump both robbed and dead
        (6, "AH KH QH JH 4H", [[3, "3H"], [3, "5H"]], "5H", "3S 2S 2D", "also kept"),
        # an own trump neither kept nor dead
        (6, "AH KH QH JH 4H", [], "5H", "3S 2S 2D", "listed dead"),
        # the dealer's dead trump listed under another seat
        (6, "AH KH QH JH 4H", [[0, "3H"]], "5H", "3S 2S 2D", None),
        # stock_left must be what he did not take
        (6, "AH KH QH JH 4H", [[3, "3H"]], "5H", "3S 2S", "stock_left"),
    ],
)
def test_deal4_illegal_dealer_pool_hands(dealer_trumps, kept, dead, drawn, stock_left, match):
    log = deal4(dealer_trumps)
    log["kept"][3], log["dead"], log["drawn"][3] = strs(kept), dead, strs(drawn)
    log["stock_left"] = strs(stock_left)
    with pytest.raises(ref.IllegalAction, match=match):
        ref.replay(log)


def test_deal4_pool_rule_only_under_discard_dead():
    """keep_all_dump_on_trick1: no pool rule; the dealer keeps his trumps and takes every
    trump left in the stock, even past 6 (§1.5, LOG §3): 5H 3H, so 7 cards and one dumped
    on trick 1. Robbing a non-trump instead, or leaving a trump behind, is illegal, and so
    is the discard_dead swap."""
    log = deal4(5)
    log["rules"]["excess_trumps"] = "keep_all_dump_on_trick1"
    log["drawn"][3], log["stock_left"], log["dead"] = strs("5H 3H"), strs("2S 2D"), []
    ref.replay(autoplay(log))
    for drawn, left in (("2D", "5H 3H 2S"), ("5H", "3H 2S 2D"), ("5H 2D", "3H 2S")):
        log["drawn"][3], log["stock_left"] = strs(drawn), strs(left)
        with pytest.raises(ref.IllegalAction, match="every trump left"):
            ref.replay(autoplay(log))
    log = deal4(6)
    log["rules"]["excess_trumps"] = "keep_all_dump_on_trick1"
    with pytest.raises(ref.IllegalAction):
        ref.replay(log)


def test_dealer_pool_at_most_six_unchanged():
    """Deal 1: the dealer's pool is 4H + 8H 7H 6H = 4 trumps, so he keeps his trump and
    robs any 5 cards (two non-trumps among them); swapping his 4H is illegal."""
    log = deal1()
    assert ref.replay(log)["result"] == log["result"]
    log["kept"][3], log["dead"] = [], [[3, "4H"]]
    log["drawn"][3], log["stock_left"] = strs("8H 7H 6H 9D 8D 7D"), strs("6D 3D")
    with pytest.raises(ref.IllegalAction):
        ref.replay(log)


# ---------------------------------------------------------------------------
# Cinch specifics (§2.1)
# ---------------------------------------------------------------------------


def test_cinch_free_may_keep_nontrumps():
    log = deal1()
    log["rules"].update(game="cinch", cinch_keep_nontrumps="free", scoring=2)
    # Seat 0 keeps AC as well: it draws only 5C 4C, so every later draw shifts by one.
    log["kept"][0] = strs("AH 5D 3H AC")
    log["drawn"] = [strs("5C 4C"), strs("7S 6S 5S 4S"), strs("JD"), strs("8H 7H 6H 9D 8D")]
    log["stock_left"] = strs("TD 7D 6D 3D")
    log["tricks"] = []
    out = ref.replay(autoplay(log))
    assert len(out["winners"]) == 6
    # The same keep is illegal in Pedro, where the flag has no effect.
    log["rules"]["game"] = "pedro"
    with pytest.raises(ref.IllegalAction, match="non-trumps"):
        ref.replay(log)


def test_cinch_free_cannot_keep_more_than_six():
    log = deal1()
    log["rules"].update(game="cinch", cinch_keep_nontrumps="free")
    log["kept"][0] = strs("AH 5D 3H AC KC 2C AS")
    log["drawn"][0] = []
    with pytest.raises(ref.IllegalAction):
        ref.replay(log)


def test_cinch_free_still_may_not_drop_trumps():
    log = deal1()
    log["rules"].update(game="cinch", cinch_keep_nontrumps="free")
    log["kept"][0] = strs("AH 5D AC")
    with pytest.raises(ref.IllegalAction, match="trump"):
        ref.replay(log)


# ---------------------------------------------------------------------------
# Random legal deals: invariants of §5 and replay speed
# ---------------------------------------------------------------------------

COUNTER_RANKS = {14, 11, 10, 5, 2}


def _keep_key(trump):
    """Default keep policy of §1.5: counting trumps first, then by rank."""

    def key(text):
        card = C(text)
        return (card[0] in COUNTER_RANKS, ref.trump_rank(card, trump))

    return key


def _rob_order(remaining, trump, rng):
    """The dealer robs trumps first (counters first, then rank), then random cards."""
    keep_key = _keep_key(trump)

    def key(text):
        is_tr = ref.is_trump(C(text), trump)
        return (is_tr, keep_key(text) if is_tr else (False, 0), rng.random())

    return sorted(remaining, key=key, reverse=True)


def random_logged_deal(rng, rules):
    """A random legal deal under ``rules`` (default keep policy of §1.5: counters
    first, then rank), with random legal plays.  The "result" is left empty."""
    deck = [ref.card_str(c) for c in ref.FULL_DECK]
    redeals = 0
    while True:
        rng.shuffle(deck)
        dealer = rng.randrange(4)
        hands = [deck[9 * i: 9 * i + 9] for i in range(4)]
        stock = deck[36:]
        bids, high = [], 0
        for _ in range(4):
            lo = max(high, rules["min_bid"] - 1) + 1
            if lo <= 14 and rng.random() < 0.45:
                high = rng.randint(lo, min(14, lo + 3))
                bids.append(high)
            else:
                bids.append(0)
        bidder, bid = None, 0
        if high:
            bidder = (dealer + 1 + max(i for i, b in enumerate(bids) if b)) % 4
            bid = high
        elif rules["all_pass"] == "dealer_forced_min_bid":
            bidder, bid = dealer, rules["min_bid"]
        elif rules["all_pass"] == "redeal":
            redeals += 1
            continue
        trump = rng.choice("CDHS")

        keep_key = _keep_key(trump)
        remaining = list(stock)
        kept, drawn, dead = [None] * 4, [None] * 4, []
        short = False
        for seat in ref.bidding_order(dealer):
            tr = sorted((c for c in hands[seat] if ref.is_trump(C(c), trump)), key=keep_key,
                        reverse=True)
            nt = [c for c in hands[seat] if not ref.is_trump(C(c), trump)]
            stock_tr = [c for c in remaining if ref.is_trump(C(c), trump)]
            if (seat == dealer and rules["excess_trumps"] == "discard_dead"
                    and len(tr) + len(stock_tr) > 6):
                # LOG §3 exception: the dealer's hand is the best 6 trumps of his own
                # plus the stock's (counters first); the rest of them are dead.
                best = sorted(tr + stock_tr, key=keep_key, reverse=True)[:6]
                kept[seat] = [c for c in tr if c in best]
                dead += [[seat, c] for c in tr + stock_tr if c not in best]
                take = [c for c in stock_tr if c in best]
                rng.shuffle(take)
                drawn[seat] = take
                remaining = [c for c in remaining if c not in stock_tr]
                continue
            if len(tr) > 6 and rules["excess_trumps"] == "discard_dead":
                dead += [[seat, c] for c in tr[6:]]
                tr = tr[:6]
            keep = list(tr)
            free = rules["game"] == "cinch" and rules["cinch_keep_nontrumps"] == "free"
            if free and len(keep) < 6:
                keep += rng.sample(nt, rng.randint(0, 6 - len(keep)))
            need = max(0, 6 - len(keep))
            if need > len(remaining):
                if rules["stock_short"] == "redeal":
                    short = True
                    break
                if rules["stock_short"] == "keep_own_nontrumps":
                    extra = sorted((c for c in nt if c not in keep),
                                   key=lambda c: ref.nontrump_keep_key(C(c)), reverse=True)
                    keep += extra[: need - len(remaining)]
                need = len(remaining)
            if seat != dealer:
                take, remaining = remaining[:need], remaining[need:]
            else:
                pool = _rob_order(remaining, trump, rng)
                if rules["excess_trumps"] == "keep_all_dump_on_trick1":  # every trump left
                    need = max(need, sum(ref.is_trump(C(c), trump) for c in remaining))
                take = pool[:need]
                remaining = [c for c in remaining if c not in take]
                rng.shuffle(take)
            kept[seat], drawn[seat] = keep, take
        if short:
            redeals += 1
            continue
        break
    log = {"rules": rules, "dealer": dealer, "redeals": redeals, "hands": hands, "stock": stock,
           "bids": bids, "bidder": bidder, "bid": bid, "trump": trump, "kept": kept, "dead": dead,
           "drawn": drawn, "stock_left": remaining, "result": {}}
    # random legal play
    hands_p = [[C(c) for c in kept[s] + drawn[s]] for s in range(4)]
    leader = dealer if bidder is None else bidder
    tricks, first = [], True
    while any(hands_p):
        leader = ref.next_leader(leader, hands_p)
        order = [s for s in ((leader + i) % 4 for i in range(4)) if hands_p[s]]
        sizes = [len(h) for h in hands_p]
        played, dumps = [], []
        for s in order:
            card = rng.choice(ref.legal_plays(hands_p[s], [c for _, c in played], trump, rules))
            hands_p[s].remove(card)
            played.append((s, card))
        if first:
            for s in range(4):
                for _ in range(sizes[s] - 6):
                    dumps.append((s, hands_p[s].pop(rng.randrange(len(hands_p[s])))))
        winner = ref.trick_winner(played, trump)
        tricks.append({"leader": leader, "plays": [[s, ref.card_str(c)] for s, c in played],
                       "dumps": [[s, ref.card_str(c)] for s, c in dumps], "winner": winner})
        leader, first = winner, False
    log["tricks"] = tricks
    return log


def _random_rules(rng):
    rules = {name: rng.choice(values) for name, values in ref.FLAG_VALUES.items()}
    rules["target"], rules["no_contract_tie"] = 51, "higher_total_then_dealer"
    return rules


def test_random_deals_replay_and_invariants():
    rng = random.Random(20240601)
    n, contracts, dead_pts_deals = 600, 0, 0
    for _ in range(n):
        rules = _random_rules(rng)
        log = random_logged_deal(rng, rules)
        out = ref.replay(log)
        res = out["result"]
        B_O = res["points"]
        assert B_O[0] + B_O[1] + res["dead_points"] == 14  # §5.7
        assert all(0 <= p <= 14 for p in B_O)
        # §5.6: High goes to the side that held the trump Ace (fixed definition).
        ace = "A" + log["trump"]
        holder = [s for s in range(4) if ace in log["kept"][s] + log["drawn"][s]]
        if rules["high_low_def"] == "fixed_a_and_2" and holder:
            assert res["high"] == holder[0] % 2
        if out["bidder"] is None:
            assert res["made"] is None and min(res["score1"]) >= 0  # §5.8
        else:
            contracts += 1
            bt, b = out["bidder"] % 2, out["bid"]
            assert res["score1"][bt] in ((B_O[bt],) if B_O[bt] >= b else (-b,))  # §5.8
            assert res["score1"][1 - bt] == B_O[1 - bt]
        assert min(res["score2"]) == 0  # §5.9: at most one side scores
        if res["made"] is False and res["dead_points"] == 0:
            assert max(res["score2"]) >= 15  # §5.9
        if res["dead_points"]:
            dead_pts_deals += 1
        # the tricks the generator logged are the ones the replay computed
        assert out["winners"] == [t["winner"] for t in log["tricks"]]
    assert contracts > n // 2


def test_default_keep_policy_all_counters_in_play():
    """§5.7 with default flags: dead_points = 0 in 100 % of deals.  Under LOG §3 a dealer
    whose own trumps plus the remaining stock's exceed 6 takes the best 6 of them
    (counters first), so no counter is ever dead or left in the stock."""
    rng = random.Random(7)
    rules = dict(PEDRO_DEFAULT_RULES)
    pool_deals = 0
    n = 400
    for _ in range(n):
        log = random_logged_deal(rng, rules)
        res = ref.replay(log)["result"]
        assert res["dead_points"] == 0, log
        assert res["points"][0] + res["points"][1] == 14
        if any(seat == log["dealer"] for seat, _ in log["dead"]) or any(
                ref.is_trump(C(c), log["trump"]) for c in log["stock_left"]):
            pool_deals += 1
    assert pool_deals > 0  # the dealer's pool exceeded 6 in some deals


@pytest.mark.parametrize(
    "game, high_low, counter_rule, short",
    list(product(["pedro", "cinch"], ["fixed_a_and_2", "highest_lowest_in_play"],
                 ["dead", "s002_to_trump_maker"], ["keep_own_nontrumps", "play_short_hand"])))
def test_default_keep_policy_no_dead_points_under_other_flags(game, high_low, counter_rule, short):
    """§5.7 holds whatever the other flags, as long as trumps are discarded dead
    (excess_trumps=discard_dead) and non-trumps are never kept by choice."""
    rng = random.Random(f"{game}/{high_low}/{counter_rule}/{short}")
    rules = dict(PEDRO_DEFAULT_RULES, game=game, high_low_def=high_low,
                 discarded_counter_scoring=counter_rule, stock_short=short)
    for _ in range(60):
        assert ref.replay(random_logged_deal(rng, rules))["result"]["dead_points"] == 0


@pytest.mark.parametrize("game, low, free", list(product(["pedro", "cinch"], ["winner", "holder"],
                                                          ["custom_all_but_trumps", "free"])))
def test_random_deals_each_game_flag_combination(game, low, free):
    rng = random.Random(f"{game}/{low}/{free}")
    for _ in range(60):
        rules = dict(PEDRO_DEFAULT_RULES, game=game, low_to=low, cinch_keep_nontrumps=free)
        ref.replay(random_logged_deal(rng, rules))
