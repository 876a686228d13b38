"""Unit tests of the pure-Python King reference (tests/reference/king_ref.py).

Every expected value was worked out by hand from docs/spec.md (§0.1,
§3, §5, §7) and tests/reference/KING_LOG_FORMAT.md ("LOG §n" = its numbered
decisions).  Nothing here imports the analyzer package.
"""

import copy
import random

import pytest

try:
    from tests.reference import king_ref as ref
except ImportError:  # pytest run with tests/ itself on sys.path
    from reference import king_ref as ref

C = ref.parse_card
NEGATIVES = ref.NEG_SEED + ref.COMBINED
ACE_RULE = {"kh_force": "when_void_or_ace_already_played"}
BAN = ("no_hearts", "no_king_of_hearts", "no_hearts+no_king_of_hearts")
KH_CONTRACTS = ("no_king_of_hearts", "no_hearts+no_king_of_hearts")


def cards(text):
    """'KH 2S' -> [(13, 'H'), (2, 'S')]."""
    return [C(t) for t in text.split()]


def legal(hand, led, contract, trump=None, rules=None):
    return set(ref.legal_plays(cards(hand), cards(led), contract, trump, rules))


def winner(text, trump=None, first_seat=0):
    plays = [((first_seat + i) % 4, c) for i, c in enumerate(cards(text))]
    return ref.trick_winner(plays, trump)


def random_rules(rng):
    """Every flag drawn uniformly from its allowed values; max_offer 13 or less."""
    rules = {name: rng.choice(values) for name, values in ref.FLAG_VALUES.items()}
    rules["max_offer"] = rng.choice([13, 13, 6, 2, 0])
    return rules


def detected(log):
    """True when the reference rejects the log or disagrees with it."""
    try:
        return bool(ref.result_mismatches(log))
    except ref.IllegalAction:
        return True


def holdings_before_each_trick(log):
    held = [list(map(C, h)) for h in log["hands"]]
    out = []
    for trick in log["tricks"]:
        out.append([list(h) for h in held])
        for seat, text in trick["plays"]:
            held[seat].remove(C(text))
    return out


# ---------------------------------------------------------------------------
# Cards, game order, dealers (§3.1, §3.3, LOG §1)
# ---------------------------------------------------------------------------


def test_parse_card_round_trip_and_rejects_garbage():
    assert C("KH") == (13, "H")
    assert C("TS") == (10, "S")
    assert C("2C") == (2, "C")
    deck = ref.make_deck()
    assert len(deck) == len(set(deck)) == 52
    for card in deck:
        assert C(ref.card_str(card)) == card
    for bad in ("10S", "1S", "AX", "", "kh", None, "KHX", "JK"):
        with pytest.raises(ValueError):
            C(bad)


def test_contract_list_seed_pt_and_combined():
    pos = ["positive"] * 4
    assert ref.contract_list() == ["no_tricks", "no_hearts", "no_kings_jacks", "no_queens",
                                   "no_king_of_hearts", "last_two"] + pos
    assert ref.contract_list({"neg_order": "pt"}) == [
        "no_tricks", "no_hearts", "no_queens", "no_kings_jacks",
        "no_king_of_hearts", "last_two"] + pos
    combined = ["no_tricks+last_two", "no_hearts+no_king_of_hearts",
                "no_kings_jacks+no_queens"] + pos
    assert ref.contract_list({"combined_negatives": True}) == combined
    assert ref.contract_list({"combined_negatives": True, "neg_order": "pt"}) == combined


def test_hand_totals():
    expected = {"no_tricks": -260, "no_hearts": -260, "no_kings_jacks": -240,
                "no_queens": -200, "no_king_of_hearts": -160, "last_two": -180,
                "no_tricks+last_two": -440, "no_hearts+no_king_of_hearts": -420,
                "no_kings_jacks+no_queens": -440, "positive": 325}
    for contract, total in expected.items():
        assert ref.hand_total(contract) == total
    for rules in ({}, {"combined_negatives": True}, {"neg_order": "pt"}):
        assert sum(ref.hand_total(c) for c in ref.contract_list(rules)) == 0
    for bad in ("no_spades", "no_tricks+no_tricks", "", None):
        with pytest.raises(ValueError):
            ref.members(bad)


def test_dealer_rotation():
    assert [ref.dealer_of(3, k) for k in range(1, 11)] == [3, 0, 1, 2, 3, 0, 1, 2, 3, 0]
    assert ref.dealer_of(0, 1) == 0
    for d0 in range(4):  # positive hands 7-10 (4-7 combined): four different dealers
        assert sorted(ref.dealer_of(d0, k) for k in range(7, 11)) == [0, 1, 2, 3]
        assert sorted(ref.dealer_of(d0, k) for k in range(4, 8)) == [0, 1, 2, 3]


# ---------------------------------------------------------------------------
# Following (§3.2, LOG §4)
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("contract", NEGATIVES + ("positive",))
def test_follow_suit(contract):
    trump = "H" if contract == "positive" else None
    assert legal("AS 2S 3D 4C", "5S", contract, trump) == set(cards("AS 2S"))
    assert legal("3D 4C 9C", "5S", contract, trump) == set(cards("3D 4C 9C"))
    assert legal("3D 4C 9C", "5S 2S AS", contract, trump) == set(cards("3D 4C 9C"))
    # Only the led card's suit counts, not the suit of the current winner.
    assert legal("AS 3D", "5D 2S", contract, trump) == {C("3D")}


@pytest.mark.parametrize("contract", BAN)
def test_heart_lead_ban(contract):
    assert legal("AH 2H 3C 9S", "", contract) == set(cards("3C 9S"))
    assert legal("KH 3C", "", contract) == {C("3C")}
    # A hand of nothing but hearts may lead any heart.
    assert legal("AH 2H KH", "", contract) == set(cards("AH 2H KH"))
    assert legal("7H", "", contract) == {C("7H")}
    # A void player may still play a heart on another suit.
    assert legal("AH 3C", "5D", "no_hearts") == set(cards("AH 3C"))


@pytest.mark.parametrize("contract", ["no_tricks", "no_kings_jacks", "no_queens", "last_two",
                                      "no_tricks+last_two", "no_kings_jacks+no_queens"])
def test_no_heart_lead_ban_elsewhere(contract):
    assert legal("AH 2H 3C", "", contract) == set(cards("AH 2H 3C"))
    assert legal("KH 3C", "5D", contract) == set(cards("KH 3C"))  # no forced K♥ either


def test_no_heart_lead_ban_in_positive_hands():
    assert legal("AH 2H 3C", "", "positive", "H") == set(cards("AH 2H 3C"))
    assert legal("AH 2H 3C", "", "positive", "S") == set(cards("AH 2H 3C"))


@pytest.mark.parametrize("contract", KH_CONTRACTS)
def test_forced_king_of_hearts_when_void(contract):
    for rules in ({}, ACE_RULE):
        assert legal("KH 2H 3C", "5D", contract, rules=rules) == {C("KH")}
        assert legal("KH 2H 3C", "5D AD", contract, rules=rules) == {C("KH")}
        assert legal("KH", "5D", contract, rules=rules) == {C("KH")}
        # Holding the led suit: a normal follow, K♥ not forced.
        assert legal("KH 2D 3C", "5D", contract, rules=rules) == {C("2D")}
        # On the lead nothing is forced (only the heart ban applies).
        assert legal("KH 3C", "", contract, rules=rules) == {C("3C")}
    # Hearts led, holding K♥ and other hearts: any heart under when_void.
    assert legal("KH 2H 3C", "5H", contract) == set(cards("KH 2H"))
    assert legal("KH 2H 3C", "5H AH", contract) == set(cards("KH 2H"))


def test_forced_king_not_in_no_hearts():
    assert legal("KH 2H 3C", "5D", "no_hearts") == set(cards("KH 2H 3C"))
    assert legal("KH 2H 3C", "5H AH", "no_hearts", rules=ACE_RULE) == set(cards("KH 2H"))


@pytest.mark.parametrize("contract", KH_CONTRACTS)
def test_forced_king_when_ace_already_played(contract):
    assert legal("KH 2H 3C", "5H AH", contract, rules=ACE_RULE) == {C("KH")}
    assert legal("KH 2H 3C", "AH", contract, rules=ACE_RULE) == {C("KH")}  # A♥ led
    assert legal("KH 2H 3C", "5H 9H QH", contract, rules=ACE_RULE) == set(cards("KH 2H"))
    # A♥ discarded on another suit: the ace rule needs a heart lead.
    assert legal("KH 2D", "5D AH", contract, rules=ACE_RULE) == {C("2D")}
    # No K♥ in hand: nothing forced.
    assert legal("QH 2H", "5H AH", contract, rules=ACE_RULE) == set(cards("QH 2H"))


# ---------------------------------------------------------------------------
# Trick winner and the positive trump rule (§3.2, §3.4, LOG §4, §5)
# ---------------------------------------------------------------------------


def test_trick_winner_negative():
    assert winner("9H AC KH 2H") == 2  # an off-suit ace does not win
    assert winner("9H AC KH 2H", first_seat=2) == 0
    assert winner("2D AS AC AH") == 0  # nobody followed
    assert winner("TC JC 9C QC", first_seat=3) == 2


def test_trick_winner_positive_trump():
    assert winner("9H AC 2S KH", "S") == 2  # the only trump wins
    assert winner("9H 3S 2S KH", "S") == 1  # the highest trump wins
    assert winner("9H 3S AH 2S", "S") == 1
    assert winner("9H AC KH 2D", "S") == 2  # no trump played: the led suit
    assert winner("4S AH KH QH", "S") == 0  # trump led
    assert winner("9H AS KH 2H", "N") == 2  # no trump: the led suit always wins
    assert winner("2C AD AH AS", "N") == 0


def test_positive_trump_only_when_void_and_never_obliged():
    # Holding the led suit: no trumping.
    assert legal("AS 2S KH 3D", "5S", "positive", "H") == set(cards("AS 2S"))
    # Void: trump or discard, no obligation to trump or to overtrump.
    assert legal("KH 2H 3D", "5S", "positive", "H") == set(cards("KH 2H 3D"))
    assert legal("2H 3D", "5S AH", "positive", "H") == set(cards("2H 3D"))
    # Trump led: follow with trump when able.
    assert legal("2H 3D AS", "5H", "positive", "H") == {C("2H")}


# ---------------------------------------------------------------------------
# Penalties (§3.3, LOG §6)
# ---------------------------------------------------------------------------

# Trick n (1..13) holds the four cards of rank n + 1 and is won by seat n % 4:
# seat 1 wins tricks 1 5 9 13, seat 2 2 6 10 (the jacks), seat 3 3 7 11 (the
# queens), seat 0 4 8 12 (the kings, K♥ included).
RANK_TRICKS = [([(n + 1, s) for s in "CDHS"], n % 4) for n in range(1, 14)]


@pytest.mark.parametrize("contract, points", [
    ("no_tricks", [-60, -80, -60, -60]),
    ("no_hearts", [-60, -80, -60, -60]),
    ("no_kings_jacks", [-120, 0, -120, 0]),
    ("no_queens", [0, 0, 0, -200]),
    ("no_king_of_hearts", [-160, 0, 0, 0]),
    ("last_two", [-90, -90, 0, 0]),
    ("no_tricks+last_two", [-150, -170, -60, -60]),
    ("no_hearts+no_king_of_hearts", [-220, -80, -60, -60]),
    ("no_kings_jacks+no_queens", [-120, 0, -120, -200]),
])
def test_penalty_by_hand(contract, points):
    assert ref.penalty(contract, RANK_TRICKS) == points
    assert sum(points) == ref.hand_total(contract)


def test_penalty_is_per_card():
    trick = [(cards("QS QH 2C 3C"), 2)]
    assert ref.penalty("no_queens", trick) == [0, 0, -100, 0]
    assert ref.penalty("no_kings_jacks", [(cards("KS JH JC KD"), 1)]) == [0, -120, 0, 0]
    assert ref.penalty("no_hearts", [(cards("2H 3H 4H 5H"), 3)]) == [0, 0, 0, -80]
    with pytest.raises(ValueError):
        ref.penalty("positive", trick)


def test_last_two_same_player():
    tricks = [(c, 0 if n < 11 else 3) for n, (c, _) in enumerate(RANK_TRICKS)]
    assert ref.penalty("last_two", tricks) == [0, 0, 0, -180]


@pytest.mark.parametrize("contract", NEGATIVES)
def test_penalty_totals_on_random_hands(contract):
    """§5.1-5.5 on 40 random hands per negative contract (360 in all)."""
    rng = random.Random(NEGATIVES.index(contract))
    names = ref.members(contract)
    for i in range(40):
        rules = random_rules(rng)
        rules["combined_negatives"] = "+" in contract
        log = ref.play_random_hand(rng, rules, contract, dealer=i % 4, index=i)
        assert not ref.result_mismatches(log)
        points = log["result"]["points"]
        assert sum(points) == ref.hand_total(contract)
        assert all(p <= 0 for p in points)
        assert sum(log["result"]["tricks"]) == 13 and len(log["tricks"]) == 13
        if names == ("no_king_of_hearts",):
            assert sorted(points) == [-160, 0, 0, 0]
        if names == ("last_two",):
            assert sorted(points) in ([-180, 0, 0, 0], [-90, -90, 0, 0])
        held_by_trick = holdings_before_each_trick(log)
        for trick, held in zip(log["tricks"], held_by_trick, strict=True):
            lead_seat, lead = trick["plays"][0]
            if contract in BAN and lead[1] == "H":  # §5.4
                assert all(c[1] == "H" for c in held[lead_seat])
            if "no_king_of_hearts" in names:  # §5.5
                led_suit = lead[1]
                for seat, text in trick["plays"][1:]:
                    hand = held[seat]
                    if C("KH") in hand and not any(c[1] == led_suit for c in hand):
                        assert text == "KH"


# ---------------------------------------------------------------------------
# Positive hands: settlement (§3.4, §3.5, LOG §7)
# ---------------------------------------------------------------------------


def test_settle_positive_play_and_decline():
    assert ref.settle_positive([5, 3, 3, 2], 0, "play") == [125, 75, 75, 50]
    assert ref.settle_positive([0, 0, 0, 0], 2, "decline") == [75, 75, 100, 75]
    assert ref.settle_positive([13, 0, 0, 0], 3, "decline") == [75, 75, 75, 100]
    with pytest.raises(ValueError):
        ref.settle_positive([5, 3, 3, 3], 0, "play")


def test_settle_positive_sale_payments():
    assert ref.settle_positive([1, 3, 6, 3], 0, "sell", 2, 4) == [125, 75, 50, 75]
    none = {"payment_floor": "none"}
    zero = {"payment_floor": "zero"}
    # The buyer (seat 2) took 6 tricks but pays 8.
    assert ref.settle_positive([1, 3, 6, 3], 0, "sell", 2, 8, none) == [225, 75, -50, 75]
    assert ref.settle_positive([1, 3, 6, 3], 0, "sell", 2, 8, zero) == [175, 75, 0, 75]
    # Enough tricks: the floor changes nothing.
    assert ref.settle_positive([1, 3, 6, 3], 0, "sell", 2, 6, zero) == [175, 75, 0, 75]
    assert ref.settle_positive([2, 9, 1, 1], 3, "sell", 1, 13, zero) == [50, 0, 25, 250]
    assert ref.settle_positive([2, 9, 1, 1], 3, "sell", 1, 13, none) == [50, -100, 25, 350]


def test_positive_totals_on_random_hands():
    """§5.6 on 400 random positive hands: 325 each, decline 4-3-3-3, sales."""
    rng = random.Random(7)
    seen = {"sell": 0, "decline": 0, "play": 0, "negative buyer": 0, "sell at 1": 0}
    for i in range(400):
        rules = random_rules(rng)
        log = ref.play_random_hand(rng, rules, "positive", dealer=i % 4, index=i,
                                   p_pass=rng.choice([0.3, 0.6, 0.9]),
                                   p_lowest=rng.choice([0.0, 0.7]))
        got = ref.replay(log)
        assert not ref.result_mismatches(log, got)
        points, dealer = log["result"]["points"], log["dealer"]
        assert sum(points) == 325 == got["total"]
        assert all(p % 25 == 0 for p in points)
        outcome = log["outcome"]
        seen[outcome] += 1
        if outcome == "decline":
            assert got["high"] <= 1
            assert points == [100 if s == dealer else 75 for s in range(4)]
            assert log["tricks"] == [] and log["trump"] is None and log["leader"] is None
            continue
        assert sum(log["result"]["tricks"]) == 13
        assert log["trump"] in ("CDHSN" if rules["allow_no_trump"] else "CDHS")
        if outcome == "sell":
            buyer, price = log["buyer"], log["price"]
            assert price >= 1 and buyer != dealer and log["chooser"] == buyer
            assert got["last_answer"] == "accept"
            seen["sell at 1"] += price == 1
            taken = log["result"]["tricks"][buyer]
            pay = min(price, taken) if rules["payment_floor"] == "zero" else price
            assert points[buyer] == 25 * (taken - pay)
            assert points[dealer] == 25 * (log["result"]["tricks"][dealer] + pay)
            seen["negative buyer"] += points[buyer] < 0
            if rules["payment_floor"] == "zero":
                assert points[buyer] >= 0
        else:
            assert log["buyer"] is None and log["price"] == 0 and log["chooser"] == dealer
            assert points == [25 * t for t in log["result"]["tricks"]]
    assert min(seen.values()) >= 1 and seen["sell"] >= 20 and seen["decline"] >= 20, seen


# ---------------------------------------------------------------------------
# Auction (§3.5, LOG §7)
# ---------------------------------------------------------------------------

ENDS = [[1, 0], [2, 0], [3, 0]]  # a round with no new offer (dealer 0)


def test_outcome_options():
    assert ref.outcome_options(0, None) == ["decline", "play"]
    assert ref.outcome_options(1, "accept") == ["sell"]
    assert ref.outcome_options(1, "refuse") == ["decline", "play"]
    assert ref.outcome_options(2, "refuse") == ["play"]
    assert ref.outcome_options(13, "accept") == ["sell"]


def test_legal_offers():
    assert ref.legal_offers(1, 0, None, 0, 0) == list(range(1, 14))
    assert ref.legal_offers(1, 3, 3, 0, 0) == list(range(3, 14))  # pela mão
    assert ref.legal_offers(3, 3, 1, 0, 0) == list(range(4, 14))  # no priority
    assert ref.legal_offers(1, 3, 3, 3, 0) == list(range(4, 14))  # refused 3
    assert ref.legal_offers(1, 3, 2, 5, 0) == list(range(6, 14))
    assert ref.legal_offers(2, 3, 2, 0, 0) == list(range(4, 14))  # the holder himself
    assert ref.legal_offers(2, 5, 3, 0, 0, {"max_offer": 5}) == [5]
    assert ref.legal_offers(3, 5, 2, 0, 0, {"max_offer": 5}) == []
    assert ref.legal_offers(0, 0, None, 0, 2) == list(range(1, 14))  # dealer 2: 3, 0, 1
    assert ref.legal_offers(0, 4, 1, 0, 2) == list(range(4, 14))
    assert ref.legal_offers(3, 4, 0, 0, 2) == list(range(4, 14))
    with pytest.raises(ValueError):
        ref.legal_offers(0, 0, None, 0, 0)


def test_all_pass():
    assert ref.run_auction(ENDS, 0) == (["decline", "play"], 0, None, None)


def test_plain_raise_and_sale():
    calls = [[1, 2], [2, 3], [3, 0], [0, "accept"]] + ENDS
    assert ref.run_auction(calls, 0) == (["sell"], 3, 2, "accept")
    calls = [[1, 2], [2, 3], [3, 0], [0, "refuse"]] + ENDS
    assert ref.run_auction(calls, 0) == (["play"], 3, 2, "refuse")
    calls = [[1, 1], [2, 0], [3, 0], [0, "refuse"]] + ENDS
    assert ref.run_auction(calls, 0) == (["decline", "play"], 1, 1, "refuse")


def test_pela_mao_seed_example():
    """§3.5 item 6: A deals (0); B (1) passes, C (2) offers 2, D (3) offers 3, A
    accepts; B offers 3 "for the hand"; A refuses; then only 4 or more."""
    base = [[1, 0], [2, 2], [3, 3], [0, "accept"], [1, 3], [2, 0], [3, 0], [0, "refuse"]]
    assert ref.run_auction(base + ENDS, 0) == (["play"], 3, 1, "refuse")
    for seat in (2, 3):
        calls = base + [[1, 0]] + ([[2, 3]] if seat == 2 else [[2, 0], [3, 3]])
        with pytest.raises(ref.IllegalAction, match="illegal offer") as info:
            ref.run_auction(calls, 0)
        assert info.value.seat == seat and info.value.action == 3
    calls = base + [[1, 0], [2, 4], [3, 0], [0, "accept"], [1, 4], [2, 0], [3, 0],
                    [0, "accept"]] + ENDS
    assert ref.run_auction(calls, 0) == (["sell"], 4, 1, "accept")


def test_equal_offer_only_by_a_higher_priority_seat():
    with pytest.raises(ref.IllegalAction, match="illegal offer") as info:
        ref.run_auction([[1, 2], [2, 2]], 0)
    assert info.value.phase == "auction" and info.value.seat == 2
    with pytest.raises(ref.IllegalAction, match="illegal offer"):
        ref.run_auction([[1, 0], [2, 3], [3, 3]], 0)
    # The holder cannot repeat his own offer.
    with pytest.raises(ref.IllegalAction, match="illegal offer"):
        ref.run_auction([[1, 2], [2, 0], [3, 0], [0, "accept"], [1, 2]], 0)
    # D+1 and D+2 may equal D+3's offer, in the next round.
    calls = [[1, 0], [2, 0], [3, 2], [0, "accept"], [1, 0], [2, 2], [3, 0], [0, "accept"]]
    assert ref.run_auction(calls + ENDS, 0) == (["sell"], 2, 2, "accept")
    # An offer below the high is never legal.
    with pytest.raises(ref.IllegalAction, match="illegal offer"):
        ref.run_auction([[1, 0], [2, 0], [3, 2], [0, "accept"], [1, 1]], 0)


def test_floor_after_refusal():
    accepted = [[1, 0], [2, 0], [3, 2], [0, "accept"], [1, 2], [2, 0], [3, 0], [0, "accept"]]
    assert ref.run_auction(accepted + ENDS, 0) == (["sell"], 2, 1, "accept")
    refused = [[1, 0], [2, 0], [3, 2], [0, "refuse"], [1, 2]]
    with pytest.raises(ref.IllegalAction, match="floor 2"):
        ref.run_auction(refused, 0)
    refused[-1] = [1, 3]
    calls = refused + [[2, 0], [3, 0], [0, "accept"]] + ENDS
    assert ref.run_auction(calls, 0) == (["sell"], 3, 1, "accept")


def test_dealer_rotation_in_the_auction():
    # Dealer 2: order 3, 0, 1.
    with pytest.raises(ref.IllegalAction, match="out of turn"):
        ref.run_auction([[1, 0], [2, 0], [3, 0]], 2)
    with pytest.raises(ref.IllegalAction, match="illegal offer"):
        ref.run_auction([[3, 0], [0, 1], [1, 1]], 2)
    calls = [[3, 0], [0, 1], [1, 2], [2, "accept"], [3, 2], [0, 0], [1, 0], [2, "accept"],
             [3, 0], [0, 0], [1, 0]]
    assert ref.run_auction(calls, 2) == (["sell"], 2, 3, "accept")


def test_max_offer():
    five = {"max_offer": 5}
    assert ref.run_auction([[1, 5], [2, 0], [3, 0], [0, "refuse"]] + ENDS, 0, five)[1] == 5
    with pytest.raises(ref.IllegalAction, match="max_offer"):
        ref.run_auction([[1, 6]], 0, five)
    with pytest.raises(ref.IllegalAction, match="max_offer"):
        ref.run_auction([[1, 14]], 0)
    # Pela mão at the cap is still possible.
    calls = [[1, 0], [2, 13], [3, 0], [0, "accept"], [1, 13], [2, 0], [3, 0], [0, "accept"]]
    assert ref.run_auction(calls + ENDS, 0) == (["sell"], 13, 1, "accept")
    with pytest.raises(ref.IllegalAction):
        ref.run_auction([[1, 1]], 0, {"max_offer": 0})
    assert ref.run_auction(ENDS, 0, {"max_offer": 0})[0] == ["decline", "play"]


def test_auction_ending_and_form():
    with pytest.raises(ref.IllegalAction, match="after the auction ended"):
        ref.run_auction(ENDS + [[1, 0]], 0)
    with pytest.raises(ref.IllegalAction, match="after the auction ended"):
        ref.run_auction(ENDS + [[0, "accept"]], 0)
    with pytest.raises(ref.IllegalAction, match="unfinished"):
        ref.run_auction([[1, 2], [2, 0], [3, 0]], 0)  # no answer
    with pytest.raises(ref.IllegalAction, match="unfinished"):
        ref.run_auction([[1, 2], [2, 0], [3, 0], [0, "accept"], [1, 0]], 0)
    with pytest.raises(ref.IllegalAction, match="unfinished"):
        ref.run_auction([], 0)
    with pytest.raises(ref.IllegalAction, match="the benefited"):
        ref.run_auction([[1, 2], [2, 0], [3, 0], [1, "accept"]], 0)
    with pytest.raises(ref.IllegalAction, match="accept"):
        ref.run_auction([[1, 2], [2, 0], [3, 0], [0, "yes"]], 0)
    with pytest.raises(ref.IllegalAction, match="out of turn"):
        ref.run_auction([[0, 2]], 0)
    for bad in ("2", True, 1.0, -1, "accept"):
        with pytest.raises(ref.IllegalAction):
            ref.run_auction([[1, bad], [2, 0], [3, 0]], 0)


def test_random_auctions_always_end():
    rng = random.Random(5)
    for i in range(300):
        rules = {"max_offer": rng.choice([13, 4])}
        calls, high, holder, last = ref._random_auction(rng, i % 4, ref.full_rules(rules),
                                                        p_pass=rng.choice([0.0, 0.5]),
                                                        p_lowest=rng.choice([0.0, 1.0]))
        assert ref.run_auction(calls, i % 4, rules)[1:] == (high, holder, last)
        assert calls[-3:] == [[(i % 4 + k) % 4, 0] for k in (1, 2, 3)]


def test_valuation_shortcut_auction():
    vs = {"auction_model": "valuation_shortcut"}
    assert ref.run_auction([[1, 3], [2, 5], [3, 5], [0, "accept"]], 0, vs) == (
        ["sell"], 5, 2, "accept")
    assert ref.run_auction([[1, 1], [2, 0], [3, 1], [0, "refuse"]], 0, vs) == (
        ["decline", "play"], 1, 1, "refuse")
    assert ref.run_auction([[1, 4], [2, 0], [3, 1], [0, "refuse"]], 0, vs)[0] == ["play"]
    assert ref.run_auction(ENDS, 0, vs) == (["decline", "play"], 0, None, None)
    assert ref.run_auction(ENDS + [[0, "refuse"]], 0, vs)[0] == ["decline", "play"]
    with pytest.raises(ref.IllegalAction, match="unfinished"):
        ref.run_auction([[1, 2], [2, 0], [3, 0]], 0, vs)
    with pytest.raises(ref.IllegalAction, match="max_offer"):
        ref.run_auction([[1, 14], [2, 0], [3, 0], [0, "accept"]], 0, vs)
    with pytest.raises(ref.IllegalAction, match="after the auction ended"):
        ref.run_auction([[1, 2], [2, 0], [3, 0], [0, "accept"], [1, 3]], 0, vs)
    with pytest.raises(ref.IllegalAction, match="out of turn"):
        ref.run_auction([[2, 2], [1, 0], [3, 0], [0, "accept"]], 0, vs)


def test_the_valuation_shortcut_sells_where_the_ascending_auction_would_end():
    """RULES §3.5: the price is about the second-highest valuation, rounded up, or equal to
    it when the winner has priority; it had been the winner's own offer."""
    assert ref.shortcut_price([[1, 1], [2, 4], [3, 1]], 0) == 2  # S 1, W 4, N 1: W pays 2
    assert ref.shortcut_price([[1, 4], [2, 1], [3, 3]], 0) == 3  # D+1 has priority over D+3
    assert ref.shortcut_price([[1, 2], [2, 5], [3, 2]], 0) == 3  # D+2 after D+1's 2: one more
    assert ref.shortcut_price([[1, 0], [2, 2], [3, 0]], 0) == 1  # nobody else: the least
    assert ref.shortcut_price([[1, 3], [2, 3], [3, 0]], 0) == 3  # equal: the earlier seat


# ---------------------------------------------------------------------------
# Whole games (§3.6, §5.2, §5.7, LOG §1, §2, §8)
# ---------------------------------------------------------------------------


def test_random_games_sum_to_zero_and_each_seat_benefited_once():
    rng = random.Random(11)
    for g in range(40):
        rules = random_rules(rng)
        logs = ref.play_random_game(rng, rules, index=g)
        assert ref.check_game(logs) == []
        n = 7 if rules["combined_negatives"] else 10
        assert [log["hand_no"] for log in logs] == list(range(1, n + 1))
        assert sum(sum(log["result"]["points"]) for log in logs) == 0
        assert sorted(log["dealer"] for log in logs if log["contract"] == "positive") == [
            0, 1, 2, 3]
        d0 = logs[0]["dealer"]
        assert [log["dealer"] for log in logs] == [(d0 + k) % 4 for k in range(n)]


@pytest.fixture(scope="module")
def game():
    return ref.play_random_game(random.Random(3), {})


def test_check_game_detects_bad_structure(game):
    assert ref.check_game(game) == []
    logs = copy.deepcopy(game)
    logs[1], logs[2] = logs[2], logs[1]
    problems = ref.check_game(logs, replay_hands=False)
    assert any("hand_no" in p for p in problems)
    assert any("contract" in p for p in problems)
    assert any("dealer" in p for p in problems)
    assert ref.check_game(game[:-1], replay_hands=False) == [
        "game: 9 hands, expected 10",
        f"game: the positive hands' dealers (benefited) are "
        f"{[log['dealer'] for log in game[6:9]]}, expected each seat once",
        f"game: points sum to {-sum(game[-1]['result']['points'])}, expected 0"]
    logs = copy.deepcopy(game)
    logs[8]["dealer"] = logs[7]["dealer"]
    problems = ref.check_game(logs, replay_hands=False)
    assert any(p.startswith("hand 9: dealer") for p in problems)
    assert any("benefited" in p for p in problems)
    logs = copy.deepcopy(game)
    logs[4]["rules"] = {**logs[4]["rules"], "kh_force": "when_void_or_ace_already_played"}
    assert "hand 5: rules differ from hand 1" in ref.check_game(logs, replay_hands=False)
    assert ref.check_game([]) == ["game: no hands"]


def test_check_game_detects_wrong_totals(game):
    logs = copy.deepcopy(game)
    logs[2]["result"]["points"][0] -= 30
    problems = ref.check_game(logs)
    assert any(p.startswith("hand 3: points") for p in problems)
    assert any(p.startswith("hand 3: result.points") for p in problems)
    assert "game: points sum to -30, expected 0" in problems
    # Points moved between seats keep the totals but not the replay.
    logs = copy.deepcopy(game)
    logs[7]["result"]["points"][0] += 25
    logs[7]["result"]["points"][1] -= 25
    assert [p.split(":")[0] + ":" + p.split(":")[1] for p in ref.check_game(logs)] == [
        "hand 8: result.points"]


# ---------------------------------------------------------------------------
# Tampered logs must be detected
# ---------------------------------------------------------------------------


def _find(contract, predicate, rules=None, tries=400):
    """The first random log (seeds 0..) with a position where predicate(log,
    trick index, play index, held cards, cards so far) returns a card."""
    rules = {**(rules or {}), "combined_negatives": "+" in contract}
    for seed in range(tries):
        log = ref.play_random_hand(random.Random(seed), rules, contract, dealer=seed % 4,
                                   index=seed)
        for t, (trick, held) in enumerate(zip(log["tricks"], holdings_before_each_trick(log),
                                              strict=True)):
            so_far = []
            for k, (seat, text) in enumerate(trick["plays"]):
                card = predicate(log, held[seat], so_far, C(text))
                if card is not None:
                    return log, t, k, card
                so_far.append(C(text))
    raise AssertionError("no such position")


def _substitute(log, t, k, card):
    log = copy.deepcopy(log)
    seat = log["tricks"][t]["plays"][k][0]
    log["tricks"][t]["plays"][k][1] = ref.card_str(card)
    return log, seat


@pytest.mark.parametrize("contract", ["no_tricks", "positive"])
def test_illegal_play_is_detected(contract):
    def renege(log, hand, so_far, played):
        ok = ref.legal_plays(hand, so_far, log["contract"], log["trump"], log["rules"])
        bad = [c for c in hand if c not in ok]
        return bad[0] if bad else None

    log, t, k, card = _find(contract, renege)
    bad_log, seat = _substitute(log, t, k, card)
    with pytest.raises(ref.IllegalAction, match="illegal play") as info:
        ref.replay(bad_log)
    assert info.value.phase == f"trick {t + 1}" and info.value.seat == seat
    assert ref.card_str(card) in str(info.value)


@pytest.mark.parametrize("contract", BAN)
def test_heart_lead_with_other_suits_is_detected(contract):
    def heart_lead(log, hand, so_far, played):
        if so_far or played[1] == "H":
            return None
        hearts = [c for c in hand if c[1] == "H"]
        return hearts[0] if hearts else None

    log, t, k, card = _find(contract, heart_lead)
    bad_log, seat = _substitute(log, t, k, card)
    with pytest.raises(ref.IllegalAction, match="illegal play") as info:
        ref.replay(bad_log)
    assert info.value.seat == seat and info.value.action == ref.card_str(card)
    # The same lead is fine in a contract without the ban.
    assert card in ref.legal_plays(holdings_before_each_trick(log)[t][seat], [], "no_tricks")


@pytest.mark.parametrize("contract", KH_CONTRACTS)
def test_king_of_hearts_withheld_when_void_is_detected(contract):
    def forced_king(log, hand, so_far, played):
        if not so_far or played != C("KH") or any(c[1] == so_far[0][1] for c in hand):
            return None
        return next(c for c in hand if c != C("KH")) if len(hand) > 1 else None

    log, t, k, card = _find(contract, forced_king)
    bad_log, seat = _substitute(log, t, k, card)
    with pytest.raises(ref.IllegalAction, match="illegal play") as info:
        ref.replay(bad_log)
    assert info.value.seat == seat and "KH" in str(info.value)


def test_king_of_hearts_withheld_on_the_ace_is_detected():
    def ace_then_other(log, hand, so_far, played):
        if so_far and so_far[0][1] == "H" and C("AH") in so_far and played == C("KH"):
            others = [c for c in hand if c[1] == "H" and c != C("KH")]
            return others[0] if others else None
        return None

    log, t, k, card = _find("no_king_of_hearts", ace_then_other, rules=ACE_RULE, tries=3000)
    bad_log, seat = _substitute(log, t, k, card)
    with pytest.raises(ref.IllegalAction, match="illegal play"):
        ref.replay(bad_log)
    # Under when_void the same play is legal: only a later play (the K♥ still held,
    # the substituted heart played twice) can fail, not this one.
    bad_log["rules"]["kh_force"] = "when_void"
    try:
        ref.replay(bad_log)
    except ref.IllegalAction as exc:
        assert (exc.phase, exc.seat) != (f"trick {t + 1}", seat)


@pytest.fixture(scope="module")
def positive_logs():
    rng = random.Random(99)
    return [ref.play_random_hand(rng, {}, "positive", dealer=i % 4, index=i, p_pass=0.5)
            for i in range(120)]


def test_wrong_winner_is_detected(positive_logs):
    log = copy.deepcopy(next(lg for lg in positive_logs if lg["tricks"]))
    last = log["tricks"][-1]
    last["winner"] = (last["winner"] + 1) % 4
    assert [m.split(":")[0] for m in ref.result_mismatches(log)] == ["winners"]
    log = copy.deepcopy(next(lg for lg in positive_logs if lg["tricks"]))
    wrong = (log["tricks"][4]["winner"] + 1) % 4
    log["tricks"][4]["winner"] = log["tricks"][5]["leader"] = wrong
    with pytest.raises(ref.IllegalAction, match="must lead"):
        ref.replay(log)


@pytest.mark.parametrize("key", ["points", "tricks"])
def test_wrong_result_is_detected(positive_logs, game, key):
    for base in (positive_logs[0], game[0], game[5]):
        log = copy.deepcopy(base)
        value = log["result"][key]
        log["result"][key] = [value[0] + 1, value[1] - 1, value[2], value[3]]
        assert ref.result_mismatches(log) == [
            f"result.{key}: reference {value!r}, log {log['result'][key]!r}"]


def test_wrong_buyer_price_chooser_are_detected(positive_logs):
    log = next(lg for lg in positive_logs if lg["outcome"] == "sell")
    for key, new in [("buyer", log["dealer"]), ("price", log["price"] + 1),
                     ("chooser", log["dealer"])]:
        bad = copy.deepcopy(log)
        bad[key] = new
        assert [m.split(":")[0] for m in ref.result_mismatches(bad)] == [key]


def test_illegal_offer_is_detected(positive_logs):
    log = copy.deepcopy(next(lg for lg in positive_logs
                             if any(a == 13 for _, a in lg["auction"])))
    i = next(i for i, (_, a) in enumerate(log["auction"]) if a == 13)
    log["auction"][i][1] = 14
    with pytest.raises(ref.IllegalAction, match="illegal offer") as info:
        ref.replay(log)
    assert info.value.phase == "auction" and info.value.action == 14
    # An equal offer by a seat without priority.
    log = copy.deepcopy(positive_logs[0])
    d = log["dealer"]
    log["auction"] = [[(d + 1) % 4, 2], [(d + 2) % 4, 2], [(d + 3) % 4, 0], [d, "accept"]]
    with pytest.raises(ref.IllegalAction, match="illegal offer") as info:
        ref.replay(log)
    assert info.value.seat == (d + 2) % 4


def _declined(log, auction):
    log = copy.deepcopy(log)
    log.update(auction=auction, outcome="decline", buyer=None, price=0, trump=None,
               chooser=None, leader=None, tricks=[])
    d = log["dealer"]
    log["result"] = {"tricks": [0] * 4, "points": [100 if s == d else 75 for s in range(4)]}
    return log


def test_decline_needs_high_at_most_one(positive_logs):
    base = positive_logs[0]
    d = base["dealer"]
    o = [(d + k) % 4 for k in (1, 2, 3)]
    ok = _declined(base, [[o[0], 1], [o[1], 0], [o[2], 0], [d, "refuse"],
                          [o[0], 0], [o[1], 0], [o[2], 0]])
    assert ref.result_mismatches(ok) == []
    assert ref.result_mismatches(_declined(base, [[o[0], 0], [o[1], 0], [o[2], 0]])) == []
    bad = _declined(base, [[o[0], 0], [o[1], 2], [o[2], 0], [d, "refuse"],
                           [o[0], 0], [o[1], 0], [o[2], 0]])
    got = ref.replay(bad)
    assert got["outcome_allowed"] is False and got["outcome_options"] == ["play"]
    problems = ref.result_mismatches(bad)
    assert len(problems) == 1 and problems[0].startswith("outcome: 'decline' not allowed")
    # An accepted offer of 1 must be sold, not declined.
    bad = _declined(base, [[o[0], 1], [o[1], 0], [o[2], 0], [d, "accept"],
                           [o[0], 0], [o[1], 0], [o[2], 0]])
    assert detected(bad)


def test_sale_and_play_against_the_last_answer_are_detected(positive_logs):
    sold = next(lg for lg in positive_logs if lg["outcome"] == "sell")
    log = copy.deepcopy(sold)
    refuse_at = max(i for i, (s, a) in enumerate(log["auction"]) if a == "accept")
    log["auction"][refuse_at][1] = "refuse"
    # A refusal raises the floor, so a later offer may turn illegal: either way detected.
    assert detected(log)
    # The dealer accepted, yet the hand is logged as played with his own trump.
    log = copy.deepcopy(sold)
    assert log["rules"]["pos_leader"] == "dealer"  # so the play itself stays legal
    log.update(outcome="play", buyer=None, price=0, chooser=log["dealer"])
    log["result"]["points"] = [25 * t for t in log["result"]["tricks"]]
    got = ref.replay(log)
    assert got["outcome_options"] == ["sell"] and got["outcome_allowed"] is False
    assert [m.split(":")[0] for m in ref.result_mismatches(log)] == ["outcome"]


def test_trump_and_leader_restrictions(positive_logs):
    log = copy.deepcopy(next(lg for lg in positive_logs if lg["outcome"] != "decline"))
    log["trump"] = "N"
    with pytest.raises(ref.IllegalAction, match="trump must be"):
        ref.replay(log)
    log = copy.deepcopy(next(lg for lg in positive_logs if lg["outcome"] == "sell"))
    log["rules"]["pos_leader"] = "trump_chooser"
    with pytest.raises(ref.IllegalAction, match="pos_leader"):
        ref.replay(log)
    log = copy.deepcopy(positive_logs[0])
    log["trump"] = "X"
    with pytest.raises(ref.IllegalAction, match="trump"):
        ref.replay(log)


def test_negative_hand_leader_and_trump(game):
    log = copy.deepcopy(game[0])
    log["rules"]["first_lead"] = "left_of_dealer"
    with pytest.raises(ref.IllegalAction, match="first_lead") as info:
        ref.replay(log)
    assert info.value.phase == "lead"
    log = copy.deepcopy(game[0])
    log["trump"] = "S"
    with pytest.raises(ref.IllegalAction, match="no trump"):
        ref.replay(log)
    log = copy.deepcopy(game[0])
    log["auction"] = [[1, 0]]
    with pytest.raises(ref.IllegalAction, match="no auction"):
        ref.replay(log)


def test_bad_deal_and_contract_are_detected(game):
    log = copy.deepcopy(game[0])
    log["hands"][0][0] = log["hands"][1][0]
    with pytest.raises(ref.IllegalAction, match="twice"):
        ref.replay(log)
    log = copy.deepcopy(game[0])
    log["hands"][0] = log["hands"][0][1:]
    with pytest.raises(ref.IllegalAction, match="expected 13"):
        ref.replay(log)
    log = copy.deepcopy(game[0])
    log["contract"] = "no_tricks+last_two"  # combined_negatives is off
    with pytest.raises(ref.IllegalAction, match="not a contract"):
        ref.replay(log)
    log = copy.deepcopy(game[0])
    log["tricks"][0]["plays"][1], log["tricks"][0]["plays"][2] = (
        log["tricks"][0]["plays"][2], log["tricks"][0]["plays"][1])
    with pytest.raises(ref.IllegalAction, match="out of turn"):
        ref.replay(log)


def test_single_hand_dealer_follows_the_index():
    log = ref.play_random_hand(random.Random(4), {}, "no_queens", dealer=2, index=6)
    assert ref.result_mismatches(log) == []
    log["index"] = 7
    assert [m.split(":")[0] for m in ref.result_mismatches(log)] == ["dealer"]


def test_bad_rules_are_rejected(game):
    for name, value in [("kh_force", "always"), ("allow_no_trump", 1), ("max_offer", 14),
                        ("max_offer", True), ("game", "rook")]:
        log = copy.deepcopy(game[0])
        log["rules"][name] = value
        with pytest.raises(ValueError):
            ref.replay(log)
    log = copy.deepcopy(game[0])
    del log["rules"]["pos_leader"]
    with pytest.raises(ValueError, match="lack"):
        ref.replay(log)


def test_replay_returns_the_documented_fields(game):
    for log in (game[0], game[-1]):
        got = ref.replay(log)
        for key in ("winners", "tricks", "points", "leader", "outcome_allowed", "total"):
            assert key in got
        assert got["total"] == ref.hand_total(log["contract"]) == sum(got["points"])
        assert got["winners"] == [t["winner"] for t in log["tricks"]]
        assert got["outcome_allowed"] is True
