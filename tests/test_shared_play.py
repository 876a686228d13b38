"""Hand evaluation that plays each auction outcome once gives the very result of playing
every action in full (the games' outcomes modules against the one-by-one path)."""

import numpy as np
import pytest

import analyzer.games.pedro.evaluate as ev
from analyzer.cards import CardSet, parse_cards
from analyzer.games import pedro
from analyzer.games.pedro import outcomes as pedro_outcomes
from analyzer.games.rook import outcomes as rook_outcomes

HAND = CardSet(parse_cards("AS KS 5S 5C 2S 9H 3D JC 7H")).mask


def _both_paths(game, policy, seat, n, known=()):
    rules = pedro.parse_rules(game)
    pols = pedro.parse_policies(policy)
    out = []
    for share in (True, False):
        samples = ev._Samples(len(ev._action_list(rules)))
        ev._simulate_batch(samples, rules, HAND, pedro.SEAT_OFFSETS[seat], known, pols, 7, 50,
                           n, share)
        out.append(samples)
    return out


def _assert_same(a, b):
    for t in range(4):
        assert np.array_equal(ev.collapse(a.maker_b[t]), ev.collapse(b.maker_b[t]))
        assert np.array_equal(ev.collapse(a.maker_o[t]), ev.collapse(b.maker_o[t]))
    for m in (1, 2):
        for k in range(a.n_actions):
            own_a, opp_a = a.action(m, k)
            own_b, opp_b = b.action(m, k)
            assert np.array_equal(own_a, own_b), (m, k)
            assert np.array_equal(opp_a, opp_b), (m, k)


@pytest.mark.parametrize("game", [
    "pedro", "cinch", "pedro(min_bid=6)", "pedro(all_pass=dealer_forced_min_bid)",
    "pedro(scoring=2,m2_diff_to=bidder_only)",
    "cinch(high_low_def=highest_lowest_in_play,cinch_keep_nontrumps=free)",
    "pedro(excess_trumps=keep_all_dump_on_trick1,discarded_counter_scoring=s002_to_trump_maker)",
    "pedro(stock_short=play_short_hand,trump_while_able_to_follow=forbidden)",
])
@pytest.mark.parametrize("seat", ["dealer", "eldest", "third"])
def test_sharing_plays_changes_nothing_under_the_heuristic(game, seat):
    _assert_same(*_both_paths(game, "heuristic", seat, 1500))


def test_sharing_plays_changes_nothing_with_known_cards_and_searching_players():
    known = ((0, CardSet(parse_cards("AH KH")).mask),)
    _assert_same(*_both_paths("pedro", "heuristic", "second", 1500, known))
    _assert_same(*_both_paths("pedro", "pimc:2", "eldest", 4))
    _assert_same(*_both_paths("pedro", "dd", "dealer", 4))


def test_plays_are_shared_only_where_the_deal_cannot_depend_on_the_auction():
    heuristic = pedro.parse_policies("heuristic")
    shares = pedro_outcomes.can_share_plays
    assert shares(pedro.parse_rules("pedro"), heuristic)
    assert not shares(pedro.parse_rules("pedro"), pedro.parse_policies("random"))
    assert not shares(pedro.parse_rules("pedro"),
                      pedro.parse_policies("heuristic,random,heuristic,heuristic"))
    assert not shares(pedro.parse_rules("pedro(all_pass=redeal)"), heuristic)
    assert not shares(pedro.parse_rules("pedro(stock_short=redeal)"), heuristic)


@pytest.mark.parametrize("b, o, bid, bidder_only, want", [
    (8, 6, 7, False, ((8, 6), (2, 0))),     # made: points, and the difference
    (6, 8, 7, False, ((-7, 8), (0, 15))),   # set: back by the bid; method 2 gives them o + bid
    (5, 9, 4, False, ((5, 9), (0, 4))),     # made with fewer: method 2 gives them the gap
    (5, 9, 4, True, ((5, 9), (0, 0))),      # ... unless only the bidder collects
    (5, 9, 0, True, ((5, 9), (0, 4))),      # no contract: the side with more, whatever the flag
    (9, 5, 0, False, ((9, 5), (4, 0))),
])
def test_settlement_worked_by_hand(b, o, bid, bidder_only, want):
    got = pedro_outcomes.settle_teams(np.array([b]), np.array([o]), np.array([bid]), bidder_only)
    assert tuple((int(x[0]), int(y[0])) for x, y in got) == want


ROOK_HAND = CardSet(parse_cards("AS KS 10S 5S 9S 8S AH KH 10D 5C JK 7C 2D")).mask


def _rook_both_paths(game, policy, seat, n):
    import analyzer.games.rook.evaluate as er
    from analyzer.games import rook
    from analyzer.rollout import collapse

    rules = rook.parse_rules(game)
    pols = rook.parse_policies(policy)
    out = []
    for share in (True, False):
        samples = er._Samples(er.trump_codes(rules), len(rules.bids) + 1)
        er._simulate_batch(samples, rules, ROOK_HAND, er.SEAT_OFFSETS[seat], (), pols, 3, 10,
                           n, share)
        out.append(samples)
    a, b = out
    for t in a.trumps:
        assert np.array_equal(collapse(a.maker_b[t]), collapse(b.maker_b[t]))
        assert np.array_equal(collapse(a.maker_o[t]), collapse(b.maker_o[t]))
    for k in range(a.n_actions):
        for x, y in ((a.own, b.own), (a.opp, b.opp), (a.declared, b.declared)):
            assert np.array_equal(collapse(x[k]), collapse(y[k])), k


@pytest.mark.parametrize("game", [
    "rook", "rook(allow_no_trump=True,opp_scores=not_when_declarer_set)",
    "rook(drop=no_counters,drop_points_to=last_trick_winner,pass_cycle=left,"
    "first_lead=left_of_declarer)",
    "rook(rook_free_play=True,bid_step=exactly_5,rook_rank=above_4)",
])
@pytest.mark.parametrize("seat", ["dealer", "eldest", "third"])
def test_rook_sharing_plays_changes_nothing_under_the_heuristic(game, seat):
    _rook_both_paths(game, "heuristic", seat, 1500)


def test_rook_sharing_plays_changes_nothing_with_searching_players():
    _rook_both_paths("rook", "pimc:2", "eldest", 3)


def test_rook_plays_are_not_shared_when_a_hand_can_be_thrown_in():
    from analyzer.games import rook

    heuristic = rook.parse_policies("heuristic")
    assert rook_outcomes.can_share_plays(rook.parse_rules("rook"), heuristic)
    assert not rook_outcomes.can_share_plays(rook.parse_rules("rook(all_pass=redeal)"), heuristic)
    assert not rook_outcomes.can_share_plays(rook.parse_rules("rook"),
                                             rook.parse_policies("random"))
