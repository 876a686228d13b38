"""`bidlab hand king`: penalties per negative contract, the positive hand's trump right,
and one-line errors."""

import json
import math

import numpy as np
import pytest
from cli_helpers import assert_bad_input, run

from analyzer.games import king
from analyzer.games.king.evaluate import evaluate_king_hand, king_hand_work

RULES = king.PRESETS["king"]
HEARTS = "AH KH QH JH TH 9H 8H 2C 3C 4D 5D 6S 7S"  # seven high hearts
LOW = "2C 3C 4C 5C 2D 3D 4D 2H 3H 4H 2S 3S 4S"  # nothing above a 5


@pytest.fixture(scope="module")
def hearts():
    return evaluate_king_hand(RULES, HEARTS, seat="eldest", deals=3000, seed=4)


@pytest.fixture(scope="module")
def low():
    return evaluate_king_hand(RULES, LOW, seat="eldest", deals=3000, seed=4)


def test_low_cards_take_fewer_penalties_in_every_negative_contract(hearts, low):
    h = hearts.negative.set_index("contract")
    lo = low.negative.set_index("contract")
    for contract in h.index:
        if lo.loc[contract, "p_zero"] == 1:  # never penalised: its interval is the bound that
            # 3,000 penalty-free deals allow, not beyond the noise of a rare penalty
            assert h.loc[contract, "points"] < lo.loc[contract, "points"] == 0, contract
            assert lo.loc[contract, "points_lo"] < 0, contract
            continue
        assert lo.loc[contract, "points_lo"] > h.loc[contract, "points_hi"], contract


def test_the_trump_right_is_worth_tricks_to_the_long_suit(hearts, low):
    pos = hearts.positive.set_index("choice")["tricks"]
    assert pos["I name hearts"] == pos.drop(["I name my policy's trump"]).max()
    r = hearts.trump_right
    assert r["value_lo"] > 1 and r["offer_up_to"] >= 1
    assert r["offer_up_to"] == max(0, math.ceil(r["value_lo"]) - 1)  # within the value
    assert r["accept_offers_above"] >= r["value_hi"] - 1
    assert r["decline"] == "play"
    assert low.trump_right["decline"] == "decline"  # a hand of 2s, 3s and 4s takes no tricks
    # ... so selling for 1 (1 + its few tricks under another's trump) loses to declining for 4
    assert low.trump_right["accept_offers_above"] >= 1


def test_means_are_the_mean_of_the_simulated_penalties():
    ev = evaluate_king_hand(RULES, LOW, seat="dealer", contract="no-queens", deals=500, seed=2)
    dist = ev.distribution
    mean = float((dist["points"] * dist["share"]).sum())
    assert ev.negative["points"].iloc[0] == pytest.approx(mean)
    assert np.isclose(dist["share"].sum(), 1)


def test_cli_json_and_reproducible():
    args = ["hand", "king", HEARTS, "--contract", "no-hearts", "--deals", "500", "--json"]
    a, b = run(*args), run(*args)
    assert a.exit_code == 0, a.stderr
    assert a.stdout == b.stdout
    doc = json.loads(a.stdout)
    assert [r["contract"] for r in doc["negative"]] == ["no_hearts"]


@pytest.mark.parametrize("args, expected", [
    ([HEARTS + " AS"], ["13 cards", "14 card(s)"]),
    (["AH KH QH JH TH 9H 8H 2C 3C 4D 5D 6S JK"], ["no joker"]),
    ([HEARTS, "--contract", "no-spades"], ["no-spades", "no-tricks, no-hearts"]),
    ([HEARTS, "--plot", "x.png"], ["--plot"]),
])
def test_bad_input_is_one_line_exit_2(args, expected):
    assert_bad_input(run("hand", "king", *args), *expected)


def test_a_known_joker_is_refused_in_kings_words():
    """The known cards' check is shared by every game; it said "Pedro has no joker" here."""
    from analyzer.rollout import HandError

    with pytest.raises(HandError, match="^King is played with the 52-card deck: no joker$"):
        evaluate_king_hand(RULES, HEARTS, "dealer", "no-hearts", 10, known={"second": "JK"})


def test_progress_counts_every_hand_played():
    """The CLI's bar is sized by king_hand_work; the evaluation reports exactly that many."""
    rules = RULES
    for contract in ("all", "no-hearts", "positive"):
        steps = []
        evaluate_king_hand(rules, "AH KH QH JH 2C 3C 4C 5D 6D 7D 8S 9S TS", "dealer",
                           contract, 120, 2, "heuristic", progress=steps.append)
        assert sum(steps) == king_hand_work(rules, contract, 120)
        assert len(steps) == 1  # one batch of 120 deals plays every run of them



def test_the_joined_negatives_game_evaluates_and_plays_its_own_contracts():
    """king(combined_negatives=true) plays three hands of two negatives each: `hand` had
    listed the six single contracts, and `simulate --contract no-hearts` had played the
    plain hand under the joined game's rules string, both without a word."""
    rules = king.parse_rules("king(combined_negatives=true)")
    ev = evaluate_king_hand(rules, HEARTS, "eldest", "all", 200)
    assert list(ev.negative["contract"]) == [
        "no_tricks+last_two", "no_hearts+no_king_of_hearts", "no_kings_jacks+no_queens"]
    assert king_hand_work(rules, "all", 200) == 200 * (3 + 4 + 2)
    assert_bad_input(run("simulate", "king(combined_negatives=true)", "--contract",
                         "no-hearts", "--deals", "10"),
                     "never plays the hand no-hearts", "no-hearts+no-king-of-hearts")
    assert_bad_input(run("hand", "king", HEARTS, "--contract", "no-hearts+no-king-of-hearts"),
                     "never plays the hand")
    assert_bad_input(run("bid-chart", "king(combined_negatives=true)", "--deals", "10"),
                     "single negative contracts")
    joined = run("simulate", "king(combined_negatives=true)", "--contract",
                 "no-hearts+no-king-of-hearts", "--deals", "50")
    assert joined.exit_code == 0, joined.stderr
    assert "Points per hand (no-hearts+no-king-of-hearts)" in joined.stdout


def test_too_few_deals_say_so_and_no_spread_is_no_certainty():
    """Under 30 deals the trump right printed "accept an offer above None" with a reason of
    the noise; and 20 deals that all took 4 tricks read "4.00 ± 0.00". Now one line says
    the deals are too few, and a figure with no spread gets the interval its range allows."""
    hand = "AH KH QH JH 2C 3C 4C 5D 6D 7D 8S 9S TS"
    r = run("hand", "king", hand, "--deals", "20", "--contract", "positive")
    assert r.exit_code == 0, r.stderr
    assert "None" not in r.stdout and "20 deals are too few to advise on it" in r.stdout
    assert "beyond the noise" not in r.stdout
    ev = evaluate_king_hand(RULES, hand, seat="eldest", deals=20, seed=1, contract="positive")
    rows = ev.positive.set_index("choice")
    still = rows[rows["tricks"] == rows["tricks"].round()]  # a choice that never varied?
    for _, row in rows.iterrows():
        assert 0 <= row["tricks_lo"] <= row["tricks"] <= row["tricks_hi"] <= 13
    assert not still.empty and (still["tricks_hi"] > still["tricks_lo"]).all()
    assert ev.trump_right["accept_offers_above"] is None and ev.trump_right["n"] == 20
    assert ev.trump_right["offer_up_to"] is None  # no advice, not "offer nothing"
    assert ev.advice.endswith("20 deals are too few to advise on it (advice needs 30)")


def test_one_deal_is_an_evaluation_without_spread_as_pedros_and_rooks_are():
    """`hand king --deals 1` was refused ("deals must be at least 2") where Pedro's and
    Rook's evaluate one deal with their spreads unknown; allowed, its points read "-80.0 ±
    nan". Now the mean shows alone, the JSON has null for the unknown, and the text
    counts one deal."""
    hand = "AH KH QH JH 2C 3C 4C 5D 6D 7D 8S 9S TS"
    r = run("hand", "king", hand, "--deals", "1")
    assert r.exit_code == 0, r.stderr
    assert "nan" not in r.stdout.lower() and "n 1 deal per contract" in r.stdout
    assert "1 deal is too few to advise on it" in r.stdout
    assert r.stderr.splitlines()[-1].startswith("1 deal (")
    doc = json.loads(run("hand", "king", hand, "--deals", "1", "--json").stdout)
    assert doc["provenance"]["n"] == 1
    assert all(row["points_se"] is None for row in doc["negative"])
    assert_bad_input(run("hand", "king", hand, "--deals", "0"), "--deals")


def test_the_advice_is_the_trump_right_in_one_sentence_as_the_text_says_it(hearts, low):
    """``advice``, as a Pedro or Rook evaluation has it: King's one auction decision with its
    margin, the same words as the text's "Trump right" lines, and in ``--json``; only what
    the seat can do: another seat offers for the right, the dealer (the benefited) answers
    offers and may decline (a reader read "as the benefited, accept" at eldest)."""
    for ev in (hearts, low):
        r = ev.trump_right
        offer = (f"offer up to {r['offer_up_to']} trick(s)" if r["offer_up_to"]
                 else "do not offer")
        assert offer in ev.advice and "accept" not in ev.advice and "decline" not in ev.advice
        worth = ev.advice.split(" tricks: ")[0].removeprefix("trump right worth ")
        assert f"Trump right: worth {worth} tricks" in str(ev)
        assert "this seat may offer tricks for it" in str(ev)
    for hand, decline in ((HEARTS, "naming trump beats the 4-3-3-3 decline (4 tricks)"),
                          (LOW, "the 4-3-3-3 decline (4 tricks) beats naming trump")):
        dealer = evaluate_king_hand(RULES, hand, seat="dealer", deals=3000, seed=4)
        r = dealer.trump_right
        assert dealer.advice.endswith(f"accept an offer above {r['accept_offers_above']}; "
                                      f"{decline} beyond the noise")
        assert "offer up to" not in dealer.advice and "do not offer" not in dealer.advice
        assert dealer.advice.rsplit("; ", 1)[1] in str(dealer)  # the decline's words
        assert "this seat is the benefited" in str(dealer)
    negative = evaluate_king_hand(RULES, LOW, seat="dealer", contract="no-queens", deals=100,
                                  seed=2)
    assert negative.advice == "no trump right to advise on: no positive hand was played"
    doc = json.loads(run("hand", "king", HEARTS, "--deals", "3000", "--seed", "4",
                         "--json").stdout)
    assert doc["advice"] == hearts.advice


def test_trump_right_words_say_what_they_assume():
    """A player's review: "another seat names trump" never said which seat, and "accept an
    offer above 0" beside "decline" read as a puzzle."""
    from analyzer.games.king.evaluate import trump_right_sentence

    r = {"value": 0.1, "value_lo": -0.3, "value_hi": 0.5, "n": 2000, "offer_up_to": 0,
         "accept_offers_above": 0, "decline": "decline"}
    said = trump_right_sentence(r, "dealer")
    assert "accept any offer (1 trick or more)" in said and "above 0" not in said
    text = evaluate_king_hand(RULES, HEARTS, "eldest", "positive", 200).text()
    assert "another seat: each of the other three in turn, naming by its policy" in text
