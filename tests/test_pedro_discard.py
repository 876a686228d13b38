"""The discard and the draw where the rules' texts decide who may keep what: Cinch's dealer,
whom the custom of throwing away every non-trump does not bind (S002, docs/rules.md §2.1),
and a stock short in every redeal (docs/rules.md §0.4). Each case is played by the kernel
and replayed by the reference."""

import pytest
from reference import pedro_ref

from analyzer.cards import SUITS, mask_of, parse_cards
from analyzer.games import pedro
from analyzer.games.pedro.rules import parse_rules


def replays(log):
    got = pedro_ref.replay(log)
    assert got["winners"] == [t["winner"] for t in log["tricks"]], log["index"]
    assert not pedro_ref.result_mismatches(log, got), log["index"]


def is_trump(card, log):
    return pedro_ref.is_trump(pedro_ref.parse_card(card), log["trump"])


def rank(card):
    return "23456789TJQKA".index(card[0])


def test_the_reference_lets_only_cinch_s_dealer_keep_his_own_non_trumps():
    c = pedro_ref.parse_card
    trumps = [c(x) for x in "AS KS QS JS TS 9S 8S 7S 6S 5S 5C 4S 3S 2S".split()]
    plain = [x for x in pedro_ref.FULL_DECK if not pedro_ref.is_trump(x, "S")]
    # the dealer (seat 0): 2 trumps and 7 non-trumps; seats 1-3: 4 trumps and 5 non-trumps
    hands = [trumps[12:14] + plain[0:7], trumps[0:4] + plain[7:12],
             trumps[4:8] + plain[12:17], trumps[8:12] + plain[17:22]]
    stock = plain[22:38]
    kept = [hands[0][:3]] + [[x for x in hands[s] if pedro_ref.is_trump(x, "S")]
                             for s in (1, 2, 3)]  # the dealer keeps one own non-trump
    drawn = [stock[6:9], stock[0:2], stock[2:4], stock[4:6]]
    args = (hands, stock, 0, "S", kept, [], drawn, stock[9:])
    pedro_ref.check_discard_and_draw(*args, {"game": "cinch"})
    pedro_ref.check_discard_and_draw(*args, {"game": "cinch", "cinch_keep_nontrumps": "free"})
    with pytest.raises(pedro_ref.IllegalAction, match="kept non-trumps when not allowed"):
        pedro_ref.check_discard_and_draw(*args, {"game": "pedro"})
    eldest_too = [kept[0], kept[1] + [hands[1][4]], kept[2], kept[3]]
    with pytest.raises(pedro_ref.IllegalAction, match="kept non-trumps when not allowed"):
        pedro_ref.check_discard_and_draw(hands, stock, 0, "S", eldest_too,
                                         [], [drawn[0], stock[0:1], stock[1:3], stock[3:5]],
                                         stock[9:], {"game": "cinch"})


@pytest.mark.parametrize("policy", ["heuristic", "random"])
def test_cinch_s_dealer_robs_from_his_own_hand_and_the_stock(policy):
    """Robbing, the dealer under Cinch's custom picks the non-trumps he keeps from his hand
    and the stock together: the heuristic the highest of both, and some of his own where
    they are higher (before, he threw his own away whenever the stock could fill him)."""
    logs = pedro.play_logged(parse_rules("cinch"), 3, range(400), policies=policy)
    own_kept = 0
    for log in logs:
        replays(log)
        d = log["dealer"]
        own = [x for x in log["kept"][d] if not is_trump(x, log)]
        own_kept += bool(own and log["stock_left"])
        for s in range(4):
            if s != d:
                assert all(is_trump(x, log) for x in log["kept"][s]) or not log["stock_left"]
        if policy == "heuristic":
            held = [x for x in log["start_hands"][d] if not is_trump(x, log)]
            thrown = [x for x in log["hands"][d] if not is_trump(x, log) and x not in held]
            passed = [x for x in log["stock_left"] if not is_trump(x, log)]
            if held:  # no non-trump left behind outranks one he keeps
                assert max(map(rank, thrown + passed), default=-1) <= min(map(rank, held))
    assert own_kept >= 40, own_kept


def test_pedro_s_dealer_still_throws_every_non_trump_away():
    logs = pedro.play_logged(parse_rules("pedro"), 3, range(400))
    for log in logs:
        replays(log)
        if log["stock_left"]:
            d = log["dealer"]
            assert all(is_trump(x, log) for x in log["kept"][d]), log["index"]


def test_a_stock_short_in_every_redeal_is_played_in_the_end():
    """Known cards can make every deal short of stock: three seats hold 27 non-trumps, so
    the dealer (nine spades of his own) cannot be filled. ``stock_short=redeal`` throws
    each in; after 1,000 the last is played keeping own non-trumps, as by default, so that
    a run ends (it played the half-discarded deal: hands of 9, 9 tricks, no error)."""
    spades = parse_cards("AS KS QS JS TS 9S 8S 7S 6S")
    plain = [r + s for s in "CDH" for r in "23456789TJQKA" if r + s != "5C"]
    known = tuple((seat, mask_of(parse_cards(" ".join(plain[9 * (seat - 1):9 * seat]))))
                  for seat in (1, 2, 3))
    scenario = pedro.Scenario(hand=mask_of(spades), seat=0, force="maker",
                              trump=SUITS.index("S"), known=known)
    logs = pedro.play_logged(parse_rules("pedro(stock_short=redeal)"), 7, range(3),
                             scenario=scenario)
    for log in logs:
        assert log["redeals"] == 1000
        assert [len(h) for h in log["start_hands"]] == [6, 6, 6, 6]
        assert len(log["tricks"]) == 6
        points = log["result"]["points"]
        assert sum(points) + log["result"]["dead_points"] == 14
        # the dealer named trump without an auction: to the reference, all passed and the
        # dealer named it without a contract, which is what the kernel played
        assert log["bids"] == [0, 0, 0, 0] and log["bid"] == 0
        replays({**log, "bidder": None})
