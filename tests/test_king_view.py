"""King: the text of a logged hand (king_view.render_hand) and of a whole game (render_game).

Per-trick penalties are checked against the independent reference (tests/reference/king_ref.py).
"""

import dataclasses
import re

import pytest
from reference import king_ref

from analyzer.games import king
from analyzer.games.king.view import hand_total, render_game, render_hand, trick_penalty

SEATS = "NESW"
PLAY_TITLE = "Play (* marks the card that wins the trick)"
NEGATIVE = ["no-tricks", "no-hearts", "no-kings-jacks", "no-queens", "no-king-of-hearts",
            "last-two", "no-hearts+no-king-of-hearts"]
RULES = king.PRESETS["king"]


def _play_rows(lines: list[str]) -> list[str]:
    start = lines.index(PLAY_TITLE) + 3
    return lines[start:lines.index("", start)]


def _result_rows(lines: list[str]) -> list[str]:
    start = lines.index("Result") + 3
    return lines[start:start + 4]


def _ref_trick_penalties(log: dict) -> list[int]:
    """Each trick's penalty from the reference, as differences of prefix totals."""
    tricks = [([king_ref.parse_card(c) for _, c in t["plays"]], t["winner"])
              for t in log["tricks"]]
    totals = [sum(king_ref.penalty(log["contract"], tricks[:k])) for k in range(14)]
    return [b - a for a, b in zip(totals, totals[1:], strict=False)]


def _check_tricks(text: str, log: dict, labels: bool = True):
    lines = text.splitlines()
    rows = _play_rows(lines)
    assert len(rows) == len(log["tricks"]) == 13
    pens = _ref_trick_penalties(log) if log["contract"] != "positive" else None
    for t, (row, trick) in enumerate(zip(rows, log["tricks"], strict=True), start=1):
        win, lead = trick["winner"], trick["leader"]
        wl, ll = (f"{win} {SEATS[win]}", f"{lead} {SEATS[lead]}") if labels else (win, lead)
        assert re.match(rf"\s+{t}  {ll}\s+.*  {wl}(\s|$)", row), row
        best = dict((s, c) for s, c in trick["plays"])[win]
        assert f"{SEATS[win] if labels else win} {best}*" in row
        assert row.count("*") == 1
        if pens is not None:
            shown = str(pens[t - 1]) if pens[t - 1] else "-"
            assert row.endswith(f"  {shown}"), row


def _check_points(text: str, log: dict):
    res = log["result"]
    listed = ", ".join(f"{s} {SEATS[s]} {p:+d}" for s, p in enumerate(res["points"]))
    assert f"  Points: {listed} (total {sum(res['points']):+d})." in text
    for s, row in enumerate(_result_rows(text.splitlines())):
        assert row.startswith(f"  {s} {SEATS[s]} ") and row.endswith(f"{res['points'][s]:+d}")
    assert "add up to" not in text and "should sum" not in text


@pytest.mark.parametrize("contract", NEGATIVE)
def test_negative_hands_name_every_winner_penalty_and_points(contract):
    for log in king.play_logged(RULES, 7, range(3), "heuristic", contract=contract):
        text = render_hand(log, seed=7, policy="heuristic")
        assert text.splitlines()[0] == f"Hand {log['index']} of seed 7: king, policy heuristic"
        assert f"Contract: {log['contract']}" in text and "Auction" not in text
        assert f"Dealer: seat {log['dealer']} {SEATS[log['dealer']]};" in text
        _check_tricks(text, log)
        _check_points(text, log)
        assert sum(log["result"]["points"]) == hand_total(log["contract"])
        for s, row in enumerate(_result_rows(text.splitlines())):
            assert re.match(rf"  {s} {SEATS[s]}\s+{log['result']['tricks'][s]}\s", row)


def _positive_logs(rules, seed, policy, n=40):
    return king.play_logged(rules, seed, range(n), policy, contract="positive")


@pytest.mark.parametrize("variant", [{}, {"auction_model": "valuation_shortcut",
                                          "pos_leader": "trump_chooser"},
                                     {"payment_floor": "zero", "allow_no_trump": True}])
def test_positive_hands_show_auction_outcome_tricks_and_points(variant):
    rules = dataclasses.replace(RULES, **variant)
    policy = "random" if variant.get("payment_floor") else "heuristic"
    outcomes = set()
    for log in _positive_logs(rules, 1, policy):
        text = render_hand(log, seed=1, policy=policy)
        lines = text.splitlines()
        outcomes.add(log["outcome"])
        start = next(i for i, x in enumerate(lines) if x.startswith("Auction for the trump"))
        calls = lines[start + 3:start + 3 + len(log["auction"])]
        for k, (row, (s, act)) in enumerate(zip(calls, log["auction"], strict=True), start=1):
            what = "pass" if act == 0 else f"offers {act}" if isinstance(act, int) else act
            assert re.match(rf"\s+{k}\s+\d+  {s} {SEATS[s]}\s+{what}", row), row
        dealer = log["dealer"]
        if log["outcome"] == "sell":
            b = log["buyer"]
            assert (f"Sold: seat {b} {SEATS[b]} buys the trump right for {log['price']} "
                    f"trick(s)") in text
            assert f"Payment: seat {b} {SEATS[b]} pays " in text
        elif log["outcome"] == "decline":
            assert "Declined (4-3-3-3)" in text and "Play: none" in text
            assert PLAY_TITLE not in text
        else:
            assert "Played: " in text and "Payment" not in text
        if log["outcome"] != "decline":
            c = log["chooser"]
            assert re.search(rf"^Trump: .*\({log['trump']}\), named by seat {c} {SEATS[c]} ",
                             text, re.M)
            assert f"First lead: seat {log['leader']} {SEATS[log['leader']]} (" in text
            _check_tricks(text, log)
            for s, row in enumerate(_result_rows(lines)):
                assert re.match(rf"  {s} {SEATS[s]}\s+\S.*?\s{log['result']['tricks'][s]}\s",
                                row), row
        assert f"Dealer: seat {dealer} {SEATS[dealer]};" in text
        _check_points(text, log)
    assert outcomes == {"sell", "play", "decline"}


def test_payment_floor_zero_is_explained():
    rules = dataclasses.replace(RULES, payment_floor="zero")
    short = [lg for lg in _positive_logs(rules, 3, "random", 60) if lg["outcome"] == "sell"
             and lg["result"]["tricks"][lg["buyer"]] < lg["price"]]
    assert short
    log = short[0]
    b, won = log["buyer"], log["result"]["tricks"][log["buyer"]]
    text = render_hand(log, seed=3, policy="random")
    assert f"pays {won} trick(s) to the dealer" in text
    assert f"The price was {log['price']}: with payment_floor=zero" in text
    _check_points(text, log)
    assert log["result"]["points"][b] == 0


def test_render_hand_without_labels_and_with_a_rules_name():
    log = king.play_logged(RULES, 2, [1], "random", contract="no-queens")[0]
    text = render_hand(log, seed=2, policy="random", rules="king(x)", labels=False)
    assert text.splitlines()[0] == "Hand 1 of seed 2: king(x), policy random"
    assert " 0 N " not in text and "seat 1;" in text  # dealer 1 % 4, no letters
    _check_tricks(text, log, labels=False)


def test_trick_penalty():
    assert trick_penalty("no_queens", 1, 13, ["QS", "2S", "QH", "AS"]) == (["QS", "QH"], -100)
    assert trick_penalty("no_hearts+no_king_of_hearts", 1, 13, ["KH", "2H", "3S", "4S"]) == (
        ["KH", "2H"], -200)
    assert trick_penalty("no_tricks+last_two", 12, 13, ["2C", "3C", "4C", "5C"]) == ([], -110)
    assert trick_penalty("last_two", 11, 13, ["2C", "3C", "4C", "5C"]) == ([], 0)
    assert hand_total("no_kings_jacks+no_queens") == -440 and hand_total("positive") == 325


GAME_SEED = 7  # game 0 of this seed shows every auction outcome: sell, play and decline


@pytest.fixture(scope="module")
def game():
    return king.play_game_logged(RULES, GAME_SEED, 0, "heuristic")


def test_render_game_summary_hands_and_totals(game):
    text = render_game(game, seed=GAME_SEED, policy="heuristic")
    lines = text.splitlines()
    assert lines[0] == f"Game 0 of seed {GAME_SEED}: king, policy heuristic"
    assert len(game) == 10
    start = lines.index("Points per hand, and running totals") + 3
    rows = lines[start:start + len(game) + 1]
    running = [0, 0, 0, 0]
    for log, row in zip(game, rows, strict=False):
        pts = log["result"]["points"]
        running = [r + p for r, p in zip(running, pts, strict=True)]
        cells = row.split()
        assert cells[0] == str(log["hand_no"]) and cells[1] == log["contract"]
        assert cells[-8:] == [f"{v:+d}" for v in pts + running], row
    assert rows[-1].split() == ["total"] + [f"{v:+d}" for v in running]
    assert sum(running) == 0
    listed = ", ".join(f"{s} {SEATS[s]} {v:+d}" for s, v in enumerate(running))
    assert f"  {listed} (sum +0)." in text
    assert "should sum" not in text
    # each hand in full, in order, with every trick's winner and its points
    chunks = text.split("-" * 72 + "\n")[1:-1]
    assert len(chunks) == len(game)
    for log, chunk in zip(game, chunks, strict=True):
        assert chunk.startswith(f"Game 0 of seed {GAME_SEED}, hand {log['hand_no']} of 10: king, ")
        if log["outcome"] != "decline":
            _check_tricks(chunk.rstrip("\n"), log)
        _check_points(chunk, log)
    assert {lg["outcome"] for lg in game[6:]} == {"sell", "play", "decline"}


def test_render_game_combined_negatives_without_labels():
    rules = dataclasses.replace(RULES, combined_negatives=True)
    logs = king.play_game_logged(rules, 2, 1, "random")
    text = render_game(logs, seed=2, policy="random", labels=False)
    assert "hand 7 of 7" in text and "no_tricks+last_two" in text
    totals = [sum(lg["result"]["points"][s] for lg in logs) for s in range(4)]
    assert f"  {', '.join(f'{s} {v:+d}' for s, v in enumerate(totals))} (sum +0)." in text


def test_a_game_says_who_was_dealt_the_kh_and_whom_it_named():
    """`deal king --rule first_dealer=kh_finder_chooses` said only "the first dealer is
    seat 3 W" (a player's review)."""
    rules = king.parse_rules("king(first_dealer=kh_finder_chooses)")
    logs = king.play_game_logged(rules, 5, 2, "heuristic")
    text = render_game(logs, seed=5, policy="heuristic")
    finder, d0 = (f"{s} {SEATS[s]}" for s in (logs[0]["kh_finder"], logs[0]["dealer"]))
    assert f"; seat {finder} was dealt the K♥ and named seat {d0} first dealer, " in text
    plain = king.play_game_logged(RULES, 5, 2, "heuristic")
    assert "(dealt the K♥), then" in render_game(plain, seed=5, policy="heuristic")
