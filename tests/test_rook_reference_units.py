"""Unit tests of the pure-Python Rook reference (tests/reference/rook_ref.py).

Every expected value was worked out by hand from docs/spec.md (§0.1,
§4, §5, §7) and tests/reference/ROOK_LOG_FORMAT.md ("LOG §n" = its numbered
decisions).  Nothing here imports the analyzer package.
"""

import copy
import random

import pytest

try:
    from tests.reference import rook_ref as ref
except ImportError:  # pytest run with tests/ itself on sys.path
    from reference import rook_ref as ref

C = ref.parse_card
R = ref.ROOK
SCHEMES = ("princeton", "no_last_trick_bonus", "parker_adapt")
TOTALS = {"princeton": 200, "no_last_trick_bonus": 180, "parker_adapt": 120}


def cards(text):
    """'AH 5D JK' -> [(14, 'H'), (5, 'D'), ROOK]."""
    return [C(t) for t in text.split()]


def plays(text, first_seat=0):
    """'KH JK AH QH' led by seat 0 -> [(0, KH), (1, ROOK), (2, AH), (3, QH)]."""
    return [((first_seat + i) % 4, c) for i, c in enumerate(cards(text))]


def winner(text, trump, rules=None, first_seat=0):
    return ref.trick_winner(plays(text, first_seat), trump, rules)


def legal(hand, led, trump, rules=None):
    return set(ref.legal_plays(cards(hand), cards(led), trump, rules))


def random_rules(rng):
    """Every flag drawn uniformly from its allowed values."""
    return {name: rng.choice(values) for name, values in ref.FLAG_VALUES.items()}


def detected(log):
    """True when the reference rejects the log or disagrees with it."""
    try:
        return bool(ref.result_mismatches(log))
    except ref.IllegalAction:
        return True


# ---------------------------------------------------------------------------
# Cards, deck, points (LOG §1, spec §4.8, §5.7)
# ---------------------------------------------------------------------------


def test_parse_card_round_trip_and_rejects_garbage():
    assert C("TS") == (10, "S")
    assert C("AH") == (14, "H")
    assert C("2C") == (2, "C")
    assert C("JK") == R
    for card in ref.make_deck():
        assert C(ref.card_str(card)) == card
    for bad in ("10S", "1S", "AX", "", "as", None, "TSX", "JR", "KK", "jk", "RK"):
        with pytest.raises(ValueError):
            C(bad)


@pytest.mark.parametrize(
    "scheme, deck_size, size, card_total, total",
    [("princeton", 53, 13, 180, 200),
     ("no_last_trick_bonus", 53, 13, 180, 180),
     ("parker_adapt", 41, 10, 100 + 20, 120)],
)
def test_deck_and_point_totals(scheme, deck_size, size, card_total, total):
    rules = {"points": scheme}
    deck = ref.make_deck(rules)
    assert len(deck) == len(set(deck)) == deck_size
    assert R in deck
    assert ref.hand_size(rules) == size
    assert 4 * size + 1 == deck_size
    assert sum(ref.card_points(c, rules) for c in deck) == card_total
    assert ref.total_points(rules) == total
    has_low = any(c[0] in (2, 3, 4) for c in deck if c != R)
    assert has_low == (scheme != "parker_adapt")


def test_card_points_by_scheme():
    p = {"points": "princeton"}
    q = {"points": "parker_adapt"}
    for text, princeton, parker in [("AS", 15, 10), ("KH", 10, 0), ("TD", 10, 10),
                                    ("5C", 5, 5), ("JK", 20, 20), ("QS", 0, 0),
                                    ("JD", 0, 0), ("9H", 0, 0), ("6C", 0, 0)]:
        assert ref.card_points(C(text), p) == princeton, text
        assert ref.card_points(C(text), {"points": "no_last_trick_bonus"}) == princeton
        assert ref.card_points(C(text), q) == parker, text
    assert ref.card_points(C("2S"), p) == 0
    assert ref.last_trick_bonus(p) == 20
    assert ref.last_trick_bonus({"points": "no_last_trick_bonus"}) == 0
    assert ref.last_trick_bonus(q) == 0


def test_seventeen_counters_in_53_cards():
    """§5.7: P(widow is a counter) = 17/53; mean card value 180/53."""
    deck = ref.make_deck()
    assert sum(ref.is_counter(c) for c in deck) == 17
    assert sum(ref.card_points(c) for c in deck) == 180


# ---------------------------------------------------------------------------
# Trumps and the Rook's rank (§4.1, §5.3, LOG §5, §8)
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("trump", list("CDHS"))
def test_rook_belongs_to_every_trump_suit(trump):
    assert ref.is_trump(R, trump)
    assert ref.effective_suit(R, trump) == trump
    real = [c for c in ref.make_deck() if c != R and ref.is_trump(c, trump)]
    assert len(real) == 13 and all(c[1] == trump for c in real)
    assert not ref.is_trump((14, "S" if trump != "S" else "H"), trump)


@pytest.mark.parametrize("trump", list("CDHS"))
def test_rook_beats_every_nontrump_and_loses_to_all_13_trumps(trump):
    """§5.3 with the default rook_rank=lowest_trump, the trump 2 included."""
    for card in ref.make_deck():
        if card == R:
            continue
        lead_card = [(0, card), (1, R)]  # the card led, the Rook played on it
        rook_led = [(0, R), (1, card)]
        if ref.is_trump(card, trump):
            assert ref.trick_winner(lead_card, trump) == 0, card
            assert ref.trick_winner(rook_led, trump) == 1, card
        else:
            assert ref.trick_winner(lead_card, trump) == 1, card
            assert ref.trick_winner(rook_led, trump) == 0, card
    assert winner("2S JK", "S") == 0  # the trump 2 beats the Rook


def test_default_trump_order():
    assert ref.trump_order("S") == [R] + [(r, "S") for r in range(2, 15)]
    assert ref.trump_strength(R, "H") < ref.trump_strength(C("2H"), "H")
    with pytest.raises(ValueError):
        ref.trump_strength(C("AS"), "H")


def test_rook_rank_above_t_sits_between_t_and_j():
    rules = {"rook_rank": "above_T"}
    order = ref.trump_order("H", rules)
    i = order.index(R)
    assert order[i - 1] == C("TH") and order[i + 1] == C("JH")
    assert winner("TH JK", "H", rules) == 1
    assert winner("JH JK", "H", rules) == 0
    assert winner("JK TH 9H 2H", "H", rules) == 0
    assert winner("JK TH JH 2H", "H", rules) == 2


def test_rook_rank_highest_trump_beats_the_ace():
    rules = {"rook_rank": "highest_trump"}
    assert ref.trump_order("D", rules)[-1] == R
    assert winner("AD JK KD QD", "D", rules) == 1
    assert winner("JK AD KD QD", "D", rules) == 0
    assert winner("AC JK KC QC", "D", rules) == 1


@pytest.mark.parametrize("x", list("23456789TJQK"))
def test_every_above_x_placement(x):
    rules = {"rook_rank": f"above_{x}"}
    rank_x = ref.RANK_CHARS.index(x) + 2
    for rank in range(2, 15):
        trick = [(0, (rank, "C")), (1, R)]
        expected = 1 if rank <= rank_x else 0
        assert ref.trick_winner(trick, "C", rules) == expected, (x, rank)


def test_parker_low_placements_are_lowest_among_cards_in_the_deck():
    """A2: with 2-4 removed, above_2..above_4 all rank the Rook below the 5."""
    for name in ("lowest_trump", "above_2", "above_3", "above_4"):
        rules = {"rook_rank": name, "points": "parker_adapt"}
        for card in ref.make_deck(rules):
            if card != R and ref.is_trump(card, "S"):
                assert ref.trick_winner([(0, card), (1, R)], "S", rules) == 0


def test_trick_winner_plain_and_trumped():
    assert winner("9H AC KH 2H", "S") == 2  # off-suit ace does not win
    assert winner("9H AC 2S KH", "S") == 2  # the only trump wins
    assert winner("9H 3S 2S KH", "S") == 1  # the higher trump wins
    assert winner("9H JK 2S KH", "S") == 2  # the real trump beats the Rook
    assert winner("9H JK AH KH", "S") == 1  # the Rook beats the led suit
    assert winner("9H AC KH 2H", "S", first_seat=2) == 0


# ---------------------------------------------------------------------------
# Following (§4.1 "Following with the Rook", §4.7, LOG §7)
# ---------------------------------------------------------------------------


def test_only_trump_rook_must_be_played_on_a_trump_lead():
    for rules in ({}, {"rook_free_play": True}):
        assert legal("JK AC KD 5H", "9S", "S", rules) == {R}


def test_plain_lead_holding_the_suit_may_not_play_the_rook():
    assert legal("JK 3H AC 4S", "KH", "S") == {C("3H")}
    assert legal("JK 3H AC 4S", "KH", "S", {"rook_free_play": False}) == {C("3H")}


def test_rook_free_play_allows_the_rook_but_others_must_follow():
    assert legal("JK 3H AC 4S", "KH", "S", {"rook_free_play": True}) == {C("3H"), R}


def test_void_player_may_play_the_rook_and_it_wins_unless_a_real_trump_is_played():
    assert legal("JK AC 4S", "KH", "S") == {R, C("AC"), C("4S")}
    assert winner("KH JK AH QH", "S") == 1
    assert winner("KH JK AH 2S", "S") == 3


def test_void_player_need_not_trump():
    assert legal("AC 4S 5S", "KH", "S") == set(cards("AC 4S 5S"))


def test_a_led_rook_is_a_trump_lead():
    assert legal("2S AC KD", "JK", "S") == {C("2S")}
    assert legal("AS KS AC", "JK", "S") == {C("AS"), C("KS")}
    assert legal("AC KD QH", "JK", "S") == set(cards("AC KD QH"))
    assert winner("JK AC KD QH", "S") == 0


def test_anything_may_be_led():
    assert legal("JK 3H AC 4S", "", "S") == set(cards("JK 3H AC 4S"))


def test_no_trump_the_rook_alone_is_trump():
    for card in ref.make_deck():
        assert ref.is_trump(card, "N") == (card == R)
    assert ref.effective_suit(R, "N") == "N"
    assert ref.trump_order("N") == [R]
    assert winner("AH JK KH QH", "N") == 1
    assert winner("3H AS 5H 2H", "N") == 2  # highest of the led suit
    assert winner("JK AH AS AC", "N") == 0
    # On a Rook lead nobody can follow: any card.
    assert legal("AH 2C 5D", "JK", "N") == set(cards("AH 2C 5D"))
    # A plain lead must still be followed, and the Rook may not be played then.
    assert legal("JK 3H AC", "KH", "N") == {C("3H")}
    assert legal("JK 3C AC", "KH", "N") == set(cards("JK 3C AC"))


# ---------------------------------------------------------------------------
# Auction (§4.3, §5.4, LOG §2)
# ---------------------------------------------------------------------------


def test_legal_bid_lists():
    assert ref.legal_bids(None) == list(range(70, 201, 5))
    assert ref.legal_bids(0) == list(range(70, 201, 5))
    assert ref.legal_bids(150) == list(range(155, 201, 5))
    assert ref.legal_bids(195) == [200]
    assert ref.legal_bids(200) == []
    assert ref.legal_bids(175, {"points": "no_last_trick_bonus"}) == [180]
    assert ref.legal_bids(None, {"points": "parker_adapt"}) == list(range(70, 121, 5))
    e5 = {"bid_step": "exactly_5"}
    assert ref.legal_bids(None, e5) == [70]
    assert ref.legal_bids(80, e5) == [85]
    assert ref.legal_bids(200, e5) == []
    assert ref.legal_bids(115, {**e5, "points": "parker_adapt"}) == [120]


def test_three_passes_end_the_auction():
    assert ref.run_auction([[1, 70], [2, 0], [3, 0], [0, 0]], 0) == (1, 70, False)
    calls = [[1, 70], [2, 80], [3, 0], [0, 100], [1, 0], [2, 0]]
    assert ref.run_auction(calls, 0) == (0, 100, False)
    with pytest.raises(ref.IllegalAction, match="after the auction ended"):
        ref.run_auction(calls + [[0, 105]], 0)


def test_passes_are_final():
    # Seat 2 passed; after seat 1's 80 the turn skips seat 2 and goes to seat 3.
    calls = [[1, 70], [2, 0], [3, 75], [0, 0], [1, 80], [2, 85]]
    with pytest.raises(ref.IllegalAction, match="out of turn") as info:
        ref.run_auction(calls, 0)
    assert info.value.seat == 2 and info.value.action == 85
    calls[-1] = [3, 85]
    assert ref.run_auction(calls + [[1, 0]], 0) == (3, 85, False)


def test_calls_go_clockwise_from_eldest():
    with pytest.raises(ref.IllegalAction, match="out of turn"):
        ref.run_auction([[2, 70], [3, 0], [0, 0], [1, 0]], 0)
    assert ref.run_auction([[0, 70], [1, 0], [2, 0], [3, 0]], 3) == (0, 70, False)


@pytest.mark.parametrize("bad", [72, 65, 0.5, True, "70", 205])
def test_illegal_opening_bids(bad):
    with pytest.raises(ref.IllegalAction) as info:
        ref.run_auction([[1, bad], [2, 0], [3, 0], [0, 0]], 0)
    assert info.value.phase == "auction" and info.value.seat == 1
    assert repr(bad) in str(info.value)


def test_bid_must_exceed_the_high_bid():
    with pytest.raises(ref.IllegalAction, match="illegal bid"):
        ref.run_auction([[1, 100], [2, 100]], 0)
    with pytest.raises(ref.IllegalAction, match="illegal bid"):
        ref.run_auction([[1, 100], [2, 95]], 0)


@pytest.mark.parametrize("scheme", SCHEMES)
def test_max_bid_is_the_total(scheme):
    rules = {"points": scheme}
    top = TOTALS[scheme]
    assert ref.run_auction([[1, top], [2, 0], [3, 0], [0, 0]], 0, rules) == (1, top, False)
    with pytest.raises(ref.IllegalAction):
        ref.run_auction([[1, top + 5]], 0, rules)
    with pytest.raises(ref.IllegalAction):
        ref.run_auction([[1, top], [2, top + 5]], 0, rules)


def test_exactly_5():
    rules = {"bid_step": "exactly_5"}
    calls = [[1, 70], [2, 75], [3, 80], [0, 0], [1, 85], [2, 0], [3, 0]]
    assert ref.run_auction(calls, 0, rules) == (1, 85, False)
    for bad in ([[1, 75]], [[1, 70], [2, 80]]):
        with pytest.raises(ref.IllegalAction, match="illegal bid"):
            ref.run_auction(bad, 0, rules)
    assert ref.run_auction([[1, 70], [2, 80], [3, 0], [0, 0], [1, 0]], 0) == (2, 80, False)


def test_fourth_forced_at_70():
    assert ref.run_auction([[3, 0], [0, 0], [1, 0]], 2) == (2, 70, True)
    with pytest.raises(ref.IllegalAction, match="after the auction ended"):
        ref.run_auction([[3, 0], [0, 0], [1, 0], [2, 70]], 2)


def test_redeal_lets_the_dealer_call():
    rules = {"all_pass": "redeal"}
    with pytest.raises(ref.IllegalAction, match="unfinished"):
        ref.run_auction([[3, 0], [0, 0], [1, 0]], 2, rules)
    assert ref.run_auction([[3, 0], [0, 0], [1, 0], [2, 70]], 2, rules) == (2, 70, False)
    assert ref.run_auction([[3, 0], [0, 0], [1, 0], [2, 90]], 2, rules) == (2, 90, False)
    with pytest.raises(ref.IllegalAction, match="thrown in"):
        ref.run_auction([[3, 0], [0, 0], [1, 0], [2, 0]], 2, rules)


def test_unfinished_auction():
    with pytest.raises(ref.IllegalAction, match="unfinished"):
        ref.run_auction([[1, 70], [2, 0]], 0)
    with pytest.raises(ref.IllegalAction, match="unfinished"):
        ref.run_auction([], 0)


# ---------------------------------------------------------------------------
# Drop (§4.4, LOG §3)
# ---------------------------------------------------------------------------

FOURTEEN = cards("AS KS 5S 2S JK TH 9H 3H AC QC 4C 8D 7D 6D")
ALL_COUNTERS = cards("AS AH AD AC KS KH KD KC TS TH TD TC 5S JK")


def test_drop_any_card():
    assert ref.legal_drops(FOURTEEN, {"drop": "any_card"}) == FOURTEEN


def test_drop_no_rook():
    assert set(ref.legal_drops(FOURTEEN, {"drop": "no_rook"})) == set(FOURTEEN) - {R}


def test_drop_no_counters():
    rules = {"drop": "no_counters"}
    assert set(ref.legal_drops(FOURTEEN, rules)) == set(cards("2S 9H 3H QC 4C 8D 7D 6D"))
    assert ref.legal_drops(ALL_COUNTERS, rules) == ALL_COUNTERS  # all 14 are counters
    # Under parker_adapt a king is worth nothing, so it may be dropped.
    parker = {"drop": "no_counters", "points": "parker_adapt"}
    assert C("KS") in ref.legal_drops(ALL_COUNTERS, parker)
    assert C("AS") not in ref.legal_drops(ALL_COUNTERS, parker)


# ---------------------------------------------------------------------------
# Passing directions (§4.5, §5.6, LOG §4)
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "cycle, first_six",
    [("right_left", ["right", "left", "right", "left", "right", "left"]),
     ("right_left_none", ["right", "left", "none", "right", "left", "none"]),
     ("left", ["left"] * 6),
     ("right", ["right"] * 6),
     ("none", ["none"] * 6)],
)
def test_pass_direction_by_hand_index(cycle, first_six):
    rules = {"pass_cycle": cycle}
    assert [ref.pass_direction(h, rules) for h in range(6)] == first_six
    assert ref.pass_direction(1001, rules) == first_six[1001 % 6]


def test_pass_receivers():
    assert [ref.pass_receiver(p, "right") for p in range(4)] == [3, 0, 1, 2]
    assert [ref.pass_receiver(p, "left") for p in range(4)] == [1, 2, 3, 0]
    with pytest.raises(ValueError):
        ref.pass_receiver(0, "none")


@pytest.mark.parametrize("hand_index, direction", [(0, "right"), (1, "left")])
def test_passed_cards_arrive_at_the_right_seat(hand_index, direction):
    log = ref.play_random_hand(random.Random(7), {}, hand_index)
    assert log["direction"] == direction
    step = -1 if direction == "right" else 1
    for seat in range(4):
        receiver = (seat + step) % 4
        assert set(log["passed"][seat]) <= set(log["start_hands"][receiver])
        assert not set(log["passed"][seat]) & set(log["start_hands"][seat])


def test_first_leaders():
    assert ref.legal_first_leaders(3) == [3, 0]
    assert ref.legal_first_leaders(3, {"first_lead": "declarer"}) == [3]
    assert ref.legal_first_leaders(3, {"first_lead": "left_of_declarer"}) == [0]
    assert ref.legal_trumps() == list("CDHS")
    assert ref.legal_trumps({"allow_no_trump": True}) == list("CDHSN")


# ---------------------------------------------------------------------------
# Points and settlement (§4.8, §4.9, §5.5, LOG §3, §9)
# ---------------------------------------------------------------------------

# Trick 1 (30 points: A15 K10 5) to seat 1; trick 2, the last (30: Rook 20, T10) to
# seat 2; the dropped AH (15) belongs to declarer seat 3's team.
TWO_TRICKS = [(cards("AS KS 5S 2S"), 1), (cards("JK TH 3C 4D"), 2)]


def test_count_points_by_hand():
    got = ref.count_points(TWO_TRICKS, C("AH"), 3, {"points": "princeton"})
    assert got == {"points": [30 + 20, 30 + 15], "drop_team": 1, "last_trick_team": 0}
    got = ref.count_points(TWO_TRICKS, C("AH"), 3, {"points": "no_last_trick_bonus"})
    assert got["points"] == [30, 45]
    got = ref.count_points(TWO_TRICKS, C("AH"), 3, {"drop_points_to": "last_trick_winner"})
    assert got == {"points": [30 + 20 + 15, 30], "drop_team": 0, "last_trick_team": 0}
    got = ref.count_points(TWO_TRICKS, C("AH"), 3, {"points": "parker_adapt"})
    assert got["points"] == [30, 15 + 10]  # K worth 0, A worth 10, no bonus


def test_settlement():
    assert ref.settle([130, 70], 0, 120) == [130, 70]  # made
    assert ref.settle([120, 80], 0, 120) == [120, 80]  # equality makes it
    assert ref.settle([115, 85], 0, 120) == [-120, 85]  # set
    assert ref.settle([60, 140], 1, 150) == [60, -150]
    assert ref.settle([0, 200], 0, 70) == [-70, 200]
    nw = {"opp_scores": "not_when_declarer_set"}
    assert ref.settle([115, 85], 0, 120, nw) == [-120, 0]
    assert ref.settle([130, 70], 0, 120, nw) == [130, 70]  # opponents score on a made bid
    assert ref.settle([70, 50], 0, 70, {"points": "parker_adapt"}) == [70, 50]
    assert ref.settle([100, 80], 1, 85, {"points": "no_last_trick_bonus"}) == [100, -85]
    with pytest.raises(ValueError):
        ref.settle([100, 80], 0, 70)  # 180 is not the princeton total


# ---------------------------------------------------------------------------
# Random legal hands: §5 invariants and self-replay
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("scheme", SCHEMES)
def test_points_total_and_invariants_on_random_hands(scheme):
    """§5.1, 5.2, 5.4, 5.5, 5.6 on 250 random hands per points scheme, with
    every other flag drawn at random."""
    rng = random.Random(SCHEMES.index(scheme))
    top = TOTALS[scheme]
    size = 10 if scheme == "parker_adapt" else 13
    for i in range(250):
        rules = {**random_rules(rng), "points": scheme}
        log = ref.play_random_hand(rng, rules, i, p_pass=rng.choice([None, 0.5, 0.9]))
        assert not ref.result_mismatches(log)
        res = log["result"]
        assert sum(res["points"]) == top
        # deal: 4 hands + 1 widow = the deck
        dealt = [c for h in log["hands"] for c in h] + [log["widow"]]
        assert len(dealt) == len(set(dealt)) == 4 * size + 1
        assert all(len(h) == size for h in log["start_hands"])
        # bids
        bids = [b for _, b in log["auction"] if b]
        assert all(70 <= b <= top and b % 5 == 0 for b in bids)
        assert bids == sorted(set(bids))
        assert sum(1 for _, b in log["auction"] if b == 0) <= 3
        # settlement
        dteam = log["declarer"] % 2
        b_pts = res["points"][dteam]
        assert res["made"] == (b_pts >= log["bid"])
        assert res["score"][dteam] == (b_pts if res["made"] else -log["bid"])
        opp = res["score"][1 - dteam]
        if res["made"] or rules["opp_scores"] == "always":
            assert opp == top - b_pts
        else:
            assert opp == 0
        # passing
        assert log["direction"] == ref.pass_direction(i, rules)
        passed = [c for p in log["passed"] for c in p]
        assert len(passed) == len(set(passed)) == (0 if log["direction"] == "none" else 12)


def test_forced_and_redealt_hands_replay():
    rng = random.Random(3)
    forced = redealt = 0
    for i in range(150):
        all_pass = "fourth_forced_at_70" if i % 2 else "redeal"
        log = ref.play_random_hand(rng, {"all_pass": all_pass}, i, p_pass=0.9)
        assert not ref.result_mismatches(log)
        if log["forced"]:
            forced += 1
            assert log["bid"] == 70 and log["declarer"] == log["dealer"]
            assert log["auction"] == [[(log["dealer"] + k) % 4, 0] for k in (1, 2, 3)]
        redealt += log["redeals"] > 0
        assert all_pass == "redeal" or log["redeals"] == 0
        assert all_pass == "fourth_forced_at_70" or not log["forced"]
    assert forced > 10 and redealt > 10


def test_replay_returns_the_documented_fields():
    log = ref.play_random_hand(random.Random(11), {}, 2)
    got = ref.replay(log)
    for key in ("winners", "declarer", "bid", "forced", "points", "drop_team",
                "last_trick_team", "made", "score", "start_hands"):
        assert key in got
    assert len(got["winners"]) == 13
    assert got["winners"] == [t["winner"] for t in log["tricks"]]


# ---------------------------------------------------------------------------
# Tampered logs must be detected
# ---------------------------------------------------------------------------


@pytest.fixture
def base_log():
    return ref.play_random_hand(random.Random(2024), {}, 0)


def hands_before_each_trick(log):
    held = [list(map(C, h)) for h in log["start_hands"]]
    out = []
    for trick in log["tricks"]:
        out.append([list(h) for h in held])
        for seat, text in trick["plays"]:
            held[seat].remove(C(text))
    return out


def find_illegal_substitution(seed_start=0):
    """A log and (trick index, play index, illegal card held at that moment)."""
    for seed in range(seed_start, seed_start + 200):
        log = ref.play_random_hand(random.Random(seed), {}, seed)
        for t, (trick, held) in enumerate(zip(log["tricks"], hands_before_each_trick(log),
                                              strict=True)):
            so_far = []
            for k, (seat, text) in enumerate(trick["plays"]):
                ok = ref.legal_plays(held[seat], so_far, log["trump"], log["rules"])
                bad = [c for c in held[seat] if c not in ok]
                if bad:
                    return log, t, k, bad[0]
                so_far.append(C(text))
    raise AssertionError("no position with an illegal card found")


def test_illegal_play_is_detected():
    log, t, k, card = find_illegal_substitution()
    seat = log["tricks"][t]["plays"][k][0]
    log["tricks"][t]["plays"][k][1] = ref.card_str(card)
    with pytest.raises(ref.IllegalAction, match="illegal play") as info:
        ref.replay(log)
    assert info.value.phase == f"trick {t + 1}" and info.value.seat == seat
    assert ref.card_str(card) in str(info.value)


def test_card_not_in_hand_and_play_out_of_turn_are_detected(base_log):
    log = copy.deepcopy(base_log)
    seat0 = log["tricks"][0]["plays"][0][0]
    foreign = next(c for s in range(4) if s != seat0 for c in log["start_hands"][s])
    log["tricks"][0]["plays"][0][1] = foreign
    with pytest.raises(ref.IllegalAction, match="not in hand"):
        ref.replay(log)
    log = copy.deepcopy(base_log)
    p = log["tricks"][3]["plays"]
    p[1], p[2] = p[2], p[1]
    with pytest.raises(ref.IllegalAction, match="out of turn"):
        ref.replay(log)


def test_wrong_winner_is_detected(base_log):
    log = copy.deepcopy(base_log)
    last = log["tricks"][-1]
    last["winner"] = (last["winner"] + 1) % 4
    assert [m.split(":")[0] for m in ref.result_mismatches(log)] == ["winners"]
    # A wrong winner that also leads the next trick breaks the lead order.
    log = copy.deepcopy(base_log)
    wrong = (log["tricks"][4]["winner"] + 1) % 4
    log["tricks"][4]["winner"] = wrong
    log["tricks"][5]["leader"] = wrong
    with pytest.raises(ref.IllegalAction, match="must lead"):
        ref.replay(log)


@pytest.mark.parametrize("key", ["score", "points", "made", "drop_team", "last_trick_team"])
def test_wrong_result_is_detected(base_log, key):
    log = copy.deepcopy(base_log)
    value = log["result"][key]
    if isinstance(value, bool):
        log["result"][key] = not value
    elif isinstance(value, list):
        log["result"][key] = [value[0] + 5, value[1] - 5]
    else:
        log["result"][key] = 1 - value
    assert ref.result_mismatches(log) == [
        f"result.{key}: reference {value!r}, log {log['result'][key]!r}"]


def test_wrong_declarer_bid_forced_start_hands_are_detected(base_log):
    for key, new in [("bid", base_log["bid"] + 5), ("forced", not base_log["forced"]),
                     ("declarer", (base_log["declarer"] + 2) % 4)]:
        log = copy.deepcopy(base_log)
        log[key] = new
        assert any(m.startswith(key) for m in ref.result_mismatches(log))
    log = copy.deepcopy(base_log)
    sh = log["start_hands"]
    sh[0][0], sh[1][0] = sh[1][0], sh[0][0]
    assert {m.split(":")[0] for m in ref.result_mismatches(log)} == {
        "start_hands[0]", "start_hands[1]"}


def test_card_passed_twice_is_detected(base_log):
    log = copy.deepcopy(base_log)
    log["passed"][1][1] = log["passed"][1][0]
    with pytest.raises(ref.IllegalAction, match="twice") as info:
        ref.replay(log)
    assert info.value.phase == "passing" and info.value.seat == 1


def test_passing_a_card_not_held_is_detected(base_log):
    log = copy.deepcopy(base_log)
    log["passed"][1][0] = log["passed"][2][0]  # a card seat 1 would only receive
    with pytest.raises(ref.IllegalAction, match="not held"):
        ref.replay(log)
    log = copy.deepcopy(base_log)
    log["passed"][3] = log["passed"][3][:2]
    with pytest.raises(ref.IllegalAction, match="expected 3"):
        ref.replay(log)


def test_wrong_pass_direction_is_detected(base_log):
    log = copy.deepcopy(base_log)
    assert log["direction"] == "right"
    log["direction"] = "left"
    assert [m.split(":")[0] for m in ref.result_mismatches(log)] == ["direction"]
    # Passes routed to the wrong side: were this hand index 1 (a left hand), the
    # logged start hands and plays would not fit.
    log = copy.deepcopy(base_log)
    del log["index"]
    log["hand_index"], log["direction"] = 1, "left"
    assert detected(log)
    # Passing in a hand that has none.
    log = copy.deepcopy(base_log)
    log["rules"]["pass_cycle"] = "none"
    with pytest.raises(ref.IllegalAction, match="no passing"):
        ref.replay(log)


def test_dealer_and_hand_index_must_follow_the_deal_index(base_log):
    log = copy.deepcopy(base_log)
    log["index"] = 4  # dealer 0 and hand index 4: the same pass direction
    assert [m.split(":")[0] for m in ref.result_mismatches(log)] == ["hand_index"]
    log = copy.deepcopy(base_log)
    log["index"] = log["hand_index"] = 2  # a right hand again, but dealer 2, not 0
    assert [m.split(":")[0] for m in ref.result_mismatches(log)] == ["dealer"]


def test_illegal_bid_is_detected(base_log):
    log = copy.deepcopy(base_log)
    log["auction"][0][1] = 72
    with pytest.raises(ref.IllegalAction, match="illegal bid") as info:
        ref.replay(log)
    assert info.value.phase == "auction" and "72" in str(info.value)
    log = copy.deepcopy(base_log)
    log["auction"].append([log["declarer"], 0])
    with pytest.raises(ref.IllegalAction, match="after the auction ended"):
        ref.replay(log)


def test_bad_deal_is_detected(base_log):
    log = copy.deepcopy(base_log)
    log["hands"][0][0] = log["hands"][1][0]
    with pytest.raises(ref.IllegalAction, match="twice"):
        ref.replay(log)
    log = copy.deepcopy(base_log)
    log["widow"], log["hands"][2] = log["hands"][2][0], log["hands"][2][1:]
    with pytest.raises(ref.IllegalAction, match="expected 13"):
        ref.replay(log)
    parker = ref.play_random_hand(random.Random(1), {"points": "parker_adapt"}, 0)
    parker["hands"][0][0] = "2C"
    with pytest.raises(ref.IllegalAction, match="not in this deck"):
        ref.replay(parker)


def test_illegal_drop_is_detected():
    for seed in range(200):
        log = ref.play_random_hand(random.Random(seed), {"drop": "no_rook"}, 0)
        fourteen = log["hands"][log["declarer"]] + [log["widow"]]
        if "JK" in fourteen:
            break
    else:
        raise AssertionError("no declarer with the Rook")
    log["drop"] = "JK"
    with pytest.raises(ref.IllegalAction, match="forbids") as info:
        ref.replay(log)
    assert info.value.phase == "drop" and info.value.seat == log["declarer"]
    outsider = next(c for s in range(4) if s != log["declarer"] for c in log["hands"][s])
    log["drop"] = outsider
    with pytest.raises(ref.IllegalAction, match="neither"):
        ref.replay(log)


def test_trump_and_first_lead_restrictions_are_detected(base_log):
    log = copy.deepcopy(base_log)
    log["trump"] = "N"
    with pytest.raises(ref.IllegalAction, match="trump must be"):
        ref.replay(log)
    log = copy.deepcopy(base_log)
    other = [s for s in range(4) if s not in (log["declarer"], (log["declarer"] + 1) % 4)]
    log["leader"] = other[0]
    with pytest.raises(ref.IllegalAction, match="first_lead"):
        ref.replay(log)
    log = copy.deepcopy(base_log)
    log["rules"]["first_lead"] = "declarer" if log["leader"] != log["declarer"] else (
        "left_of_declarer")
    with pytest.raises(ref.IllegalAction, match="first_lead"):
        ref.replay(log)


def test_redeals_only_under_redeal(base_log):
    log = copy.deepcopy(base_log)
    log["redeals"] = 1
    with pytest.raises(ref.IllegalAction, match="redeal"):
        ref.replay(log)
    log["rules"]["all_pass"] = "redeal"
    assert not ref.result_mismatches(log)


def test_bad_rules_are_rejected(base_log):
    for name, value in [("rook_rank", "above_A"), ("rook_free_play", 1), ("points", "x")]:
        log = copy.deepcopy(base_log)
        log["rules"][name] = value
        with pytest.raises(ValueError):
            ref.replay(log)
    log = copy.deepcopy(base_log)
    del log["rules"]["drop"]
    with pytest.raises(ValueError, match="lack"):
        ref.replay(log)
