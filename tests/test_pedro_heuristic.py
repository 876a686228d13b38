"""The heuristic's auction and lead: the dealer bids last, so it bids just enough, and it
does not bid into an all-pass hand it would name trump in anyway; the maker's side leads
low trumps to draw the opponents' trumps."""

import numpy as np
import pytest

from analyzer.cards import CardSet
from analyzer.games import pedro
from analyzer.games.pedro.core import N_JACK, N_LEFT, N_TWO, lowest_plain
from analyzer.games.pedro.engine import R_BID, R_BID_SEAT, R_BIDDER, R_DEALER
from analyzer.games.pedro.policies import (
    best_suit,
    bid_estimate,
    heuristic_bid,
    heuristic_play,
)

N = 20_000


def _auctions(variant: str):
    rules = pedro.parse_rules(variant)
    rec = pedro.run_batch(rules, 0, N, 11, pedro.parse_policies("heuristic"))[0]
    dealer = rec[:, R_DEALER].astype(np.int64)
    bids = rec[:, R_BID_SEAT:R_BID_SEAT + 4].astype(np.int64)  # by absolute seat
    rows = np.arange(N)
    others_high = np.where(np.arange(4)[None, :] == dealer[:, None], 0, bids).max(axis=1)
    return rules, rec, dealer, bids[rows, dealer], others_high


@pytest.mark.parametrize("variant", ["pedro", "pedro(min_bid=7)",
                                     "pedro(all_pass=dealer_forced_min_bid,min_bid=6)", "cinch"])
def test_the_dealer_bids_only_the_lowest_legal_amount(variant):
    rules, rec, dealer, dealer_bid, others_high = _auctions(variant)
    lowest = np.maximum(others_high, rules.min_bid - 1) + 1
    bid_made = dealer_bid > 0
    assert bid_made.sum() > N // 100  # the dealer does win auctions
    assert (dealer_bid[bid_made] == lowest[bid_made]).all()
    # ... while the seats before it still bid their estimate, not the minimum
    non_dealer_won = (rec[:, R_BIDDER] >= 0) & (rec[:, R_BIDDER] != dealer)
    assert (rec[non_dealer_won, R_BID] > rules.min_bid).mean() > 0.25


def test_the_dealer_passes_an_unbid_hand_when_it_names_trump_without_a_contract():
    rules, rec, dealer, dealer_bid, others_high = _auctions("pedro(min_bid=7)")
    assert rules.all_pass == "dealer_names_no_contract"
    unbid = others_high == 0
    assert unbid.sum() > 100
    assert (dealer_bid[unbid] == 0).all()
    assert (rec[unbid, R_BIDDER] == -1).all() and (rec[unbid, R_BID] == 0).all()


def test_under_the_forced_bid_rule_the_dealer_still_bids_into_an_unbid_hand():
    rules, rec, dealer, dealer_bid, others_high = _auctions(
        "pedro(all_pass=dealer_forced_min_bid,min_bid=7)")
    unbid = others_high == 0
    assert unbid.sum() > 100
    assert (dealer_bid[unbid] > 0).any()  # bidding or not, the contract is the same
    assert (rec[unbid, R_BIDDER] == dealer[unbid]).all()
    assert (rec[unbid, R_BID] == 7).all()


def test_the_dealer_bids_one_over_the_high_bid_whatever_its_estimate():
    mask = CardSet("AS KS JS 5S 2S 9H 3D 4C 7H").mask
    want = bid_estimate(np.uint64(mask), True)
    assert 4 <= want <= 12
    assert heuristic_bid(np.uint64(mask), 0, 0, 2, 1, 1, True) == 3
    assert heuristic_bid(np.uint64(mask), 0, 0, want - 1, 1, 1, True) == want
    assert heuristic_bid(np.uint64(mask), 0, 0, want, 1, 1, True) == 0
    assert heuristic_bid(np.uint64(mask), 0, 0, 0, -1, 1, True) == 0  # no contract anyway
    assert heuristic_bid(np.uint64(mask), 0, 0, 0, -1, 1, False) == 1


# ---- the lead (normalised layout: trumps at bits 48..61, 2 up to A) -------------------------

_PLAIN_CARDS = (1 << 3) | (1 << 20) | (1 << 40)


def _lead(hand: int, seat: int, maker: int, unseen: int) -> int:
    h = np.uint64(hand)
    return heuristic_play(h, h, -1, -1, -1, np.uint64(0), 0, 4, seat, np.uint64(unseen), True,
                          maker)


def test_the_makers_side_leads_its_lowest_non_counting_trump_to_draw_trumps():
    four, king, ace = 1 << 50, 1 << 60, 1 << 61
    hand = four | king | _PLAIN_CARDS
    low_plain = int(lowest_plain(np.uint64(_PLAIN_CARDS)))
    assert _lead(hand, seat=1, maker=3, unseen=ace) == 50  # maker's partner: the 4 of trumps
    assert _lead(hand, seat=3, maker=3, unseen=ace) == 50
    assert _lead(hand, seat=0, maker=3, unseen=ace) == low_plain  # an opponent: plain
    # counting trumps are not led to be drawn out ...
    assert _lead((1 << N_JACK) | (1 << N_TWO) | _PLAIN_CARDS, 1, 3, ace) == low_plain
    # ... and a trump above every unseen one is led by either side
    assert _lead(hand, seat=1, maker=3, unseen=1 << 59) == 60
    assert _lead(hand, seat=0, maker=3, unseen=1 << 59) == 60


def test_trumps_shown_in_the_stock_change_play_only_where_a_dealer_left_some():
    """rob_disclosure=face_leftover_trumps tells the table which trumps the dealer left in
    the stock. A kernel that ignored it passed every test (a mutation review): the
    heuristic dealer takes every trump it can, so it never leaves one, and no deal of
    300,000 moves. With a random dealer at seat 3 (it robs at random) the heuristic seats'
    play changes on some deals, and only on deals seat 3 dealt."""
    mixed = "heuristic,heuristic,heuristic,random"
    hidden = pedro.simulate(pedro.parse_rules("cinch"), 100_000, seed=1, policies=mixed)
    shown = pedro.simulate(pedro.parse_rules("cinch(rob_disclosure=face_leftover_trumps)"),
                           100_000, seed=1, policies=mixed)
    moved = (hidden.to_numpy() != shown.to_numpy()).any(axis=1)
    assert moved.sum() > 50
    assert set(hidden["dealer"][moved]) == {3}
    bidding = ["bid", "bidder", "trump"]  # shown after the rob: the auction is the same
    assert hidden[bidding].equals(shown[bidding])


# ---- following (normalised layout) -----------------------------------------------------------

_KING, _ACE = 60, 61


def _follow(hand: int, trick: int, best: int, best_seat: int, unseen: int,
            low_to_winner: bool = True, pos: int = 1) -> int:
    """Seat 0's card to a trump lead (all its cards trumps, so all legal)."""
    h = np.uint64(hand)
    return heuristic_play(h, h, 3, best_seat, best, np.uint64(trick), pos, 4, 0,
                          np.uint64(unseen), low_to_winner, 1)


def test_with_low_to_holder_the_2_is_the_trump_given_up_first():
    # An opponent's ace of trumps wins: seat 0 gives up its least valuable trump. Low goes
    # to the trick's winner by default, so the 2 is kept and the king thrown; with
    # low_to=holder the 2 scores for seat 0's side wherever it falls, so it goes first.
    hand = (1 << N_TWO) | (1 << _KING)
    unseen = (1 << 59) | (1 << 56)
    assert _follow(hand, 1 << _ACE, _ACE, 1, unseen) == _KING
    assert _follow(hand, 1 << _ACE, _ACE, 1, unseen, low_to_winner=False) == N_TWO
    # ... and it is the maker side's low trump lead
    lead_hand = (1 << N_TWO) | (1 << 56) | _PLAIN_CARDS
    h = np.uint64(lead_hand)
    assert heuristic_play(h, h, -1, -1, -1, np.uint64(0), 0, 4, 1, np.uint64(1 << _ACE),
                          False, 3) == N_TWO
    assert _lead(lead_hand, seat=1, maker=3, unseen=1 << _ACE) == 56


def test_a_pedro_on_partners_beatable_trump_is_covered_with_a_sure_winner():
    # Partner (seat 2) leads the 9 of trumps, the opponent at seat 1 drops the Left Pedro
    # (5 points); seat 3 is still to play and may hold the unseen jack. Seat 0 covers with
    # its queen, above every unseen trump, rather than throwing its 7.
    nine, seven, queen = 56, 54, 59
    trick = (1 << nine) | (1 << N_LEFT)
    unseen = (1 << N_JACK) | (1 << 50)
    hand = (1 << seven) | (1 << queen)
    assert _follow(hand, trick, nine, 2, unseen, pos=2) == queen
    # without points at stake the 7 is still thrown
    assert _follow(hand, 1 << nine, nine, 2, unseen, pos=1) == seven


def test_with_low_to_holder_the_2_of_trumps_is_bid_as_a_sure_point():
    # Low scores to the side holding the 2 under low_to=holder, as High to the ace's: the
    # hand's estimate rises by half a point, here across a whole point ...
    mask = np.uint64(CardSet("AS KS 2S 9H 3D 4C 7H 8H JD").mask)
    assert bid_estimate(mask, False) == 4
    assert bid_estimate(mask, False, True) == 5
    assert heuristic_bid(mask, 1, 0, 4, 2, 1, True) == 0
    assert heuristic_bid(mask, 1, 0, 4, 2, 1, True, True) == 5
    # ... and a suit holding the 2 may now be the one named
    mask = np.uint64(CardSet("AS KS AH KH AD 2D 6C 4C 2C").mask)
    assert best_suit(mask, False)[0] == 2  # hearts
    assert best_suit(mask, False, True)[0] == 1  # diamonds


def test_the_heuristic_bids_its_whole_estimate():
    # A♠ K♠ 2♠ and little else: spades are worth 96 twentieths (4.8 points) with the
    # partner's share; the heuristic bids 4, no longer a safety point under that (3).
    mask = np.uint64(CardSet("AS KS 2S 9H 3D 4C 7H 8H JD").mask)
    assert best_suit(mask, False) == (3, 96)
    assert heuristic_bid(mask, 1, 0, 0, -1, 1, True) == 4
    assert heuristic_bid(mask, 1, 0, 3, 2, 1, True) == 4


def test_with_low_to_holder_the_2_is_the_first_trump_dumped_on_trick_1():
    # keep_all_dump_on_trick1: a seat with 7 trumps dumps one onto trick 1. Low goes to the
    # side that held the 2 at the start of play, so a dumped 2 still scores for it: it is
    # dumped before the 6, which can still win a trick. Low to the winner, it is kept.
    from analyzer.games.pedro.policies import choose_dump

    six, king = 52 + 1, 60  # normalised: the 6 of trumps sits above both Pedros
    hand = np.uint64((1 << N_TWO) | (1 << six) | (1 << king))
    rng = np.zeros(4, dtype=np.uint64)
    assert choose_dump(1, hand, 1, rng, True) == np.uint64(1 << six)
    assert choose_dump(1, hand, 1, rng, False) == np.uint64(1 << N_TWO)


def test_a_dumped_2_leaves_a_trump_that_still_draws():
    # seed 1, deal 18033: E held A K 9 8 6 5 2 of diamonds and dumped the 6, then led the
    # 2 and lost the Left Pedro to N's 5♥ (team 1 took 8 points); it now dumps the 2 (13).
    log = pedro.play_logged("pedro(low_to=holder,excess_trumps=keep_all_dump_on_trick1)",
                            1, [18033])[0]
    assert log["tricks"][0]["dumps"] == [[1, "2D"]]
    assert log["result"]["points"] == [1, 13]
