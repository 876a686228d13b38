"""Unit tests of the brute-force double-dummy minimax (tests/reference/dd_brute.py).

Every position here is small enough to work out by hand; the expected values are
derived in the comments.  Seats: 0=N 1=E 2=S 3=W; hands are "N/E/S/W".
"""

import pytest
from reference import dd_brute
from reference.dd_brute import BadPosition, solve

# ---------------------------------------------------------------------------
# Pedro / Cinch
# ---------------------------------------------------------------------------

# Trump S.  E led AH and still holds TS; S holds 3H 5S; W 4H; N 2D.
# * S trumps with 5S: S wins trick 1 (Right Pedro, 5 to N-S); trick 2 is S and E
#   only: S leads 3H, E (void) plays TS and wins it: 1 (Game) to E-W.
# * S follows 3H: E wins trick 1 (nothing); E leads TS, S must follow with 5S,
#   TS wins: 5 + 1 to E-W.
TRUMP_ON_FOLLOW = dict(hands="2D/TS/3H 5S/4H", trump="S", leader=1, played="AH")


def test_pedro_trumping_while_able_to_follow():
    sol = solve("pedro", **TRUMP_ON_FOLLOW)
    assert sol.to_move == 2
    assert sol.order == (1, 2, 3, 0)
    assert sol.card_values == {"5S": 5, "3H": 0}
    assert sol.value == 5
    sol = solve("pedro", side=1, **TRUMP_ON_FOLLOW)  # E-W's points: S minimises them
    assert sol.card_values == {"5S": 1, "3H": 6}
    assert sol.value == 1
    sol = solve("pedro(trump_while_able_to_follow=forbidden)", **TRUMP_ON_FOLLOW)
    assert sol.card_values == {"3H": 0}
    assert sol.value == 0


def test_pedro_left_pedro_is_a_trump_between_the_fives_and_the_four():
    # Trump H: N leads the Left Pedro 5D (a trump lead); E must play its trump.
    # 4H: the Left Pedro beats it, 5 to N-S.  6H: E-W take the 5.
    # S's AD is a plain diamond, not a trump, and cannot win.
    assert solve("pedro", "5D/4H/AD/2C", trump="H").value == 5
    assert solve("pedro", "5D/6H/AD/2C", trump="H").value == 0
    assert solve("pedro", "5D/6H/AD/2C", trump="H", side=1).value == 5


def test_pedro_left_pedro_does_not_follow_its_printed_suit():
    # Trump H, N led AD.  E holds 5D (a trump) and 2D.  Trumping while able to
    # follow allowed: both; forbidden: only the 2D follows diamonds.
    pos = dict(hands="-/5D 2D/3C/4C", trump="H", leader=0, played="AD")
    assert set(solve("pedro", **pos).card_values) == {"5D", "2D"}
    assert solve("pedro(trump_while_able_to_follow=forbidden)", **pos).card_values == {"2D": 5}
    # E plays 5D: E wins the AD trick (5), then leads 2D alone (nothing): E-W 5.
    # E plays 2D: N's AD wins (nothing); N has no cards, so E (the next seat
    # clockwise holding cards) leads 5D alone and wins it: E-W 5 either way.
    assert solve("pedro", **pos).card_values == {"5D": 5, "2D": 5}


def test_pedro_low_definitions():
    # Trump C, one trick: N 3C, E AC, S 7C, W 9D.  E's Ace wins.
    pos = dict(hands="3C/AC/7C/9D", trump="C", leader=0, side=1)
    assert solve("pedro", **pos).value == 0  # Low is the 2C, not in the position
    assert solve("pedro(high_low_def=highest_lowest_in_play)", **pos).value == 1  # 3C is Low
    assert solve("pedro(low_to=holder,high_low_def=highest_lowest_in_play)", **pos).value == 0
    assert solve("cinch(high_low_def=highest_lowest_in_play)", **pos).value == 1
    # High never counts: the AC is worth nothing in a trick.
    assert solve("pedro", "2C/AC/7C/9D", trump="C", side=1).value == 1  # only the Low
    assert solve("pedro(low_to=holder)", "2C/AC/7C/9D", trump="C", side=1).value == 0
    # One card can carry two elements: the lowest trump in play is the Right Pedro.
    pos = dict(hands="5C/AC/7C/9D", trump="C", side=1)
    assert solve("pedro", **pos).value == 5
    assert solve("pedro(high_low_def=highest_lowest_in_play)", **pos).value == 6


def test_pedro_all_counters():
    # Trump S.  N: 5S TS; E: 5C 2S; S: JS 4H; W: AS 3H.  N leads; side E-W.
    # Trick 1 is all trumps (everyone must follow a trump lead): W's AS wins it.
    # Trick 2: W leads 3H, N and E play their last trumps, S its 4H.
    # N leads TS, keeping 5S (which beats 5C and 2S in trick 2):
    #   E throws 5C: E-W = TS 1 + 5C 5 + JS 1 = 7 (N-S: 5S + 2S = 6);
    #   E throws 2S: E-W = TS 1 + 2S 1 (Low) + JS 1 = 3.  E-W choose 7.
    # N leads 5S, keeping TS (which beats both of E's trumps in trick 2):
    #   E throws 5C: E-W = 5 + 5 + 1 = 11;  E throws 2S: 5 + 1 + 1 = 7.  -> 11.
    # N-S minimise E-W's take: TS.  (High, the AS, never counts.)
    sol = solve("pedro", "5S TS/5C 2S/JS 4H/AS 3H", trump="S", leader=0, side=3)
    assert sol.card_values == {"TS": 7, "5S": 11}
    assert sol.value == 7
    sol = solve("pedro", "5S TS/5C 2S/JS 4H/AS 3H", trump="S", leader=0)  # side N-S
    assert sol.card_values == {"TS": 6, "5S": 2}
    assert sol.value == 6


def test_pedro_short_hands_and_an_empty_leader():
    # N (the leader) holds nothing: E leads 5S, S (void) plays 2H, W must follow
    # with KS and wins: 5 to E-W.  The trick is played by E, S, W only.
    sol = solve("pedro", "-/5S/2H/KS", trump="S", leader=0)
    assert sol.to_move == 1
    assert sol.order == (1, 2, 3)
    assert sol.value == 5
    assert solve("pedro", "-/5S/2H/KS", trump="S", leader=0, side=2).value == 0


def test_pedro_reading_of_the_current_trick():
    # N led 2S and then E played its last card (3S): E is in the trick.
    assert dd_brute.pedro_trick_orders(0, [("AS",), (), ("KS",), ()], 2) == [(0, 1, 2)]
    # N led; seats 1 and 2 hold nothing, W does: the second card is E's last card
    # or S's last card.  Two readings: the position is refused.
    hands = [("AS",), (), (), ("KS",)]
    assert sorted(dd_brute.pedro_trick_orders(0, hands, 2)) == [(0, 1, 3), (0, 2, 3)]
    with pytest.raises(BadPosition):
        solve("pedro", "AH/-/-/KS", trump="S", leader=0, played="2S 3S")
    # A complete trick is not a position.
    with pytest.raises(BadPosition):
        solve("pedro", "-/-/-/-", trump="S", leader=0, played="2S 3S")


def test_pedro_bad_positions():
    with pytest.raises(BadPosition):
        solve("pedro", "AS/AS/-/-", trump="S")  # a card twice
    with pytest.raises(BadPosition):
        solve("pedro", "AS/KH/-/-", trump=None)  # Pedro needs a trump
    with pytest.raises(BadPosition):
        # E followed a heart lead with a diamond while holding a heart
        solve("pedro", "-/2H/3H/-", trump="S", leader=0, played="AH 3D")
    with pytest.raises(BadPosition):
        solve("cinch(low_to=holder)", "AS/KH/-/-", trump="S")


def test_card_parsing_forms():
    a = solve("pedro", "10s/5c/-/js", trump="S", leader=0)
    b = solve("pedro", "TS/5C/-/JS", trump="S", leader=0)
    assert a == b
    assert a.card_values == {"TS": 0}  # W's JS wins: TS + 5C + JS to E-W, N-S get 0
    assert solve("pedro", "TS/5C/-/JS", trump="S", side=1).value == 7


# ---------------------------------------------------------------------------
# Rook
# ---------------------------------------------------------------------------


def test_rook_last_trick_bonus_by_points_scheme():
    # Trump H, one trick: N's AS wins (15).  The trick empties every hand: +20.
    assert solve("rook", "AS/2S/3C/4D", trump="H").value == 35
    assert solve("rook(points=no_last_trick_bonus)", "AS/2S/3C/4D", trump="H").value == 15
    assert solve("rook", "AS/2S/3C/4D", trump="H", side=1).value == 0
    # parker_adapt: the A is worth 10 and there is no bonus; 2-4 are not dealt.
    assert solve("rook(points=parker_adapt)", "AS/6S/7C/8D", trump="H").value == 10
    with pytest.raises(BadPosition):
        solve("rook(points=parker_adapt)", "AS/2S/7C/8D", trump="H")


def test_rook_bonus_only_on_the_last_trick():
    # N wins both tricks: AS 15 + KS 10 + one bonus of 20 = 45.
    sol = solve("rook", "AS KS/2S 3S/4C 6C/7D 8D", trump="H")
    assert sol.card_values == {"AS": 45, "KS": 45}
    assert sol.value == 45


def test_rook_rank_flag():
    # Trump H, N led JH; E holds the Rook.  The Rook and the bonus are worth 40.
    pos = dict(hands="-/JK/3C/4C", trump="H", leader=0, played="JH", side=0)
    assert solve("rook", **pos).value == 40  # lowest trump: JH wins
    assert solve("rook(rook_rank=above_T)", **pos).value == 40  # between T and J
    assert solve("rook(rook_rank=above_J)", **pos).value == 0  # the Rook wins
    assert solve("rook(rook_rank=highest_trump)", **pos).value == 0
    pos = dict(hands="-/JK/3C/4C", trump="H", leader=0, played="2H", side=0)
    assert solve("rook", **pos).value == 40  # below the 2 of trumps
    assert solve("rook(rook_rank=above_2)", **pos).value == 0


def test_rook_free_play():
    # Trump H.  N led AS, N still holds 6D; E holds JK 9S; S 2C 3C; W 4C 6C.
    # Default: E must follow with 9S; N wins 15; trick 2 N leads 6D and E ruffs with
    # the Rook: 20 + last trick 20 = 40 to E-W.
    # Free play: E may play the Rook on the AS: 15 + 20, then win trick 2 with 9S
    # (nobody else holds a spade or a trump): + 20 bonus = 55.
    pos = dict(hands="6D/JK 9S/2C 3C/4C 6C", trump="H", leader=0, played="AS")
    sol = solve("rook", **pos)
    assert sol.to_move == 1
    assert sol.card_values == {"9S": 40}
    sol = solve("rook(rook_free_play=True)", **pos)
    assert sol.card_values == {"JK": 55, "9S": 40}
    assert sol.value == 55
    assert solve("rook(rook_free_play=True)", side=0, **pos).value == 0  # E-W's best
    assert solve("rook(rook_free_play=True)", side=0, **pos).card_values == {"JK": 0, "9S": 15}


def test_rook_no_trump():
    # No trump: the Rook is the only trump.  N leads AH; E (void in hearts) plays the
    # Rook and wins 15 + 20 + 20.
    assert solve("rook(allow_no_trump=True)", "AH/JK/2H/3H", trump=None, side=1).value == 55
    assert solve("rook(allow_no_trump=True)", "AH/JK/2H/3H", trump="NT", side=1).value == 55
    with pytest.raises(BadPosition):
        solve("rook", "AH/JK/2H/3H", trump=None)
    # The Rook belongs to the trump suit: with hearts trump it follows a heart lead,
    # at no trump it does not.
    pos = dict(hands="7D/JK 2H/3C 4C/6C 8C", leader=0, played="AH")
    assert set(solve("rook", trump="H", **pos).card_values) == {"JK", "2H"}
    assert set(solve("rook(allow_no_trump=True)", trump=None, **pos).card_values) == {"2H"}


def test_rook_unequal_hands_refused():
    with pytest.raises(BadPosition):
        solve("rook", "AS KS/2S/3C/4D", trump="H")


# ---------------------------------------------------------------------------
# King
# ---------------------------------------------------------------------------

# no_king_of_hearts, side S.  W led 4H (W held only hearts: 4H 5H), N followed
# with AH and holds 3S; E, to move, holds KH 2H; S holds 6H 9S.  N wins trick 1.
# In trick 2 N leads 3S; S must follow with 9S and wins it, with E's last card.
# when_void: E keeps the K♥ (plays 2H) and throws it in trick 2: S takes it, -160;
# E playing the K♥ on the ace gives it to N.  E minimises S: 2H.
# when_void_or_ace_already_played: the A♥ is in the trick, E must play the K♥: 0.
KH_POS = dict(
    hands="3S/KH 2H/6H 9S/5H", leader=3, played="4H AH", side=2, contract="no_king_of_hearts"
)


def test_king_kh_force_flag():
    sol = solve("king", **KH_POS)
    assert sol.to_move == 1
    assert sol.card_values == {"2H": -160, "KH": 0}
    assert sol.value == -160
    sol = solve("king(kh_force=when_void_or_ace_already_played)", **KH_POS)
    assert sol.card_values == {"KH": 0}
    assert sol.value == 0
    # The same cards in no_hearts: nothing is forced.  S follows trick 1 with 6H
    # (N takes it) and takes E's last heart and W's 5H in trick 2: -40 either way.
    sol = solve("king", **{**KH_POS, "contract": "no_hearts"})
    assert sol.card_values == {"2H": -40, "KH": -40}
    # The heart lead itself was legal only because W held nothing but hearts.
    with pytest.raises(BadPosition):
        solve("king", **{**KH_POS, "hands": "3S/KH 2H/6H 9S/5C"})


def test_king_void_holder_must_throw_the_king_of_hearts():
    pos = dict(hands="4S/KH 2D/5S 6S/7S 8S", leader=0, played="3S")
    assert set(solve("king", contract="no_king_of_hearts", **pos).card_values) == {"KH"}
    assert set(solve("king", contract="no_hearts", **pos).card_values) == {"KH", "2D"}
    assert set(solve("king", contract="no_hearts+no_king_of_hearts", **pos).card_values) == {"KH"}


def test_king_heart_lead_ban():
    pos = dict(hands="2H 3C/4C 5C/6C 7C/8C 9C", leader=0)
    assert set(solve("king", contract="no_hearts", **pos).card_values) == {"3C"}
    assert set(solve("king", contract="no_king_of_hearts", **pos).card_values) == {"3C"}
    assert set(solve("king", contract="no_queens", **pos).card_values) == {"2H", "3C"}
    # a hand of hearts only may lead one
    sol = solve("king", "2H 3H/4C 5C/6C 7C/8C 9C", leader=0, contract="no_hearts")
    assert set(sol.card_values) == {"2H", "3H"}
    # N's hearts win both tricks (nobody else holds a heart): -20 * 2
    assert sol.value == -40


def test_king_last_two_counts_tricks_12_and_13():
    # N wins every trick with its aces.
    three = "AS AD AC/2S 2D 2C/3S 3D 3C/4S 4D 4C"
    assert solve("king", three, leader=0, contract="last_two").value == -180  # tricks 11-13
    assert solve("king", "AS AD/2S 2D/3S 3D/4S 4D", contract="last_two").value == -180
    assert solve("king", "AS/2S/3S/4S", contract="last_two").value == -90
    assert solve("king", three, contract="no_tricks").value == -60
    assert solve("king", three, contract="no_tricks+last_two").value == -240
    # Trick 11 is free: N (3 cards) can choose to win it and duck the last two.
    # N: AS 2D 3C; E: 2S AD AC; S: 3S 4D 4C; W: 4S 5D 5C.  N leads AS (wins trick 11),
    # then leads 2D or 3C and E wins both: N 0.  Leading 2D or 3C first: E wins and
    # cashes its other ace; N's AS then wins trick 13: -90.
    sol = solve("king", "AS 2D 3C/2S AD AC/3S 4D 4C/4S 5D 5C", contract="last_two")
    assert sol.card_values == {"AS": 0, "2D": -90, "3C": -90}
    assert sol.value == 0


def test_king_positive_trump_and_no_trump():
    # N led AH, N holds KH; E holds 2S 3D; S 4H 5H; W 6H 7H.  E is void in hearts.
    pos = dict(hands="KH/2S 3D/4H 5H/6H 7H", leader=0, played="AH", contract="positive")
    # Spades trump: ruff with 2S, then the 3D is the only diamond: 2 tricks = 50.
    # Discard 3D: N wins, leads KH, E ruffs: 25.
    assert solve("king", trump="S", **pos).card_values == {"2S": 50, "3D": 25}
    # Diamonds trump: the mirror image.
    assert solve("king", trump="D", **pos).card_values == {"3D": 50, "2S": 25}
    # No trump: E wins nothing.
    assert solve("king(allow_no_trump=True)", trump=None, **pos).card_values == {"2S": 0, "3D": 0}
    # Side N: N takes the tricks E does not take.  E minimises N's 25s.
    sol = solve("king", trump="S", side=0, **pos)
    assert sol.card_values == {"2S": 0, "3D": 25}
    assert sol.value == 0


def test_king_counting_contracts():
    # One trick: N leads 2C; E must throw KH (void); S 3H; W's AC wins.
    pos = dict(hands="2C/KH/3H/AC", leader=0, side=3)
    assert solve("king", contract="no_hearts", **pos).value == -40
    assert solve("king", contract="no_king_of_hearts", **pos).value == -160
    assert solve("king", contract="no_hearts+no_king_of_hearts", **pos).value == -200
    assert solve("king", contract="no_kings_jacks", **pos).value == -30
    assert solve("king", contract="no_tricks", **pos).value == -20
    assert solve("king", contract="no_queens", **pos).value == 0
    assert solve("king", "2C/QH/QD/QC", contract="no_queens", side=3).value == -150
    assert solve("king", "2C/KH/JH/AC", contract="no_kings_jacks", side=3).value == -60


def test_king_paranoid_others_gang_up():
    # no_queens, side N.  N led 5C and holds 2D; E holds QH 3D; S 4C 9C; W 6D 7D.
    # E throws QH and S ducks with 4C: N's 5C wins the queen, -50 (trick 2 is won
    # by a diamond of W's).  E throws 3D: whoever wins trick 1, E's QH falls in
    # trick 2 on a trick N cannot win (N's 2D is the lowest diamond; a club lead
    # finds N void): 0.  The three others all minimise N.
    sol = solve("king", "2D/QH 3D/4C 9C/6D 7D", leader=0, played="5C", contract="no_queens", side=0)
    assert sol.to_move == 1
    assert sol.card_values == {"QH": -50, "3D": 0}
    assert sol.value == -50


def test_king_bad_positions():
    with pytest.raises(BadPosition):
        solve("king", "AS/2S/3S/4S", trump="S", contract="no_tricks")  # trump in a negative
    with pytest.raises(BadPosition):
        solve("king", "AS/2S/3S/4S")  # no contract
    with pytest.raises(BadPosition):
        solve("king", "AS/2S/3S/4S", contract="no_hearts+no_hearts")
    with pytest.raises(BadPosition):
        solve("king", "AS KS/2S/3S/4S", contract="no_tricks")  # unequal hands
