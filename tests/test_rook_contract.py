"""The shared random-playout contract for Rook (docs/spec.md §5), under every flag value.

Checked from the engine's own logs and records, independently of the reference:
53 (41) cards conserved, 13 (10) in every hand after the drop and the passing,
legal bids, passing direction by hand index, no card passed twice, the points
of a hand summing to the scheme's total, and the settlement rule.
"""

from __future__ import annotations

import numpy as np
import pytest

from analyzer.cards import format_card
from analyzer.games import rook
from analyzer.games.common import parse_policies
from analyzer.games.rook.rules import PASS_CYCLES, PRESETS, one_flag_variants
from analyzer.stats import wilson

POLICIES = ["random", "heuristic", "heuristic,random,random,heuristic"]
N_LOGGED = 200
DIRECTION_NAMES = {1: "left", -1: "right", 0: "none"}


def deck_of(rules) -> set[str]:
    ranks = "23456789TJQKA"[rules.lowest_rank:]
    return {r + s for s in "CDHS" for r in ranks} | {"JK"}


def check_log(log: dict, rules) -> None:
    n = rules.hand_size
    dealt = [set(h) for h in log["hands"]]
    assert all(len(h) == n for h in dealt)
    assert set().union(*dealt) | {log["widow"]} == deck_of(rules)
    assert sum(len(h) for h in dealt) + 1 == rules.deck_size

    # bids: multiples of 5 in 70..total, strictly increasing, three passes end it
    bids = [b for _, b in log["auction"] if b > 0]
    assert all(b % 5 == 0 and 70 <= b <= rules.total_points for b in bids)
    assert bids == sorted(set(bids))
    passes = [s for s, b in log["auction"] if b == 0]
    assert len(passes) == len(set(passes)) <= 4
    if not log["forced"]:
        assert log["bid"] == bids[-1]
        assert log["declarer"] == [s for s, b in log["auction"] if b == bids[-1]][0]
    else:
        assert (log["declarer"], log["bid"]) == (log["dealer"], 70) and not bids

    # widow, drop and passing: every hand holds n cards again, no card passed twice
    decl = log["declarer"]
    after_drop = [set(h) for h in dealt]
    after_drop[decl] = (after_drop[decl] | {log["widow"]}) - {log["drop"]}
    cycle = PASS_CYCLES[rules.pass_cycle]
    direction = cycle[log["hand_index"] % len(cycle)]
    assert log["direction"] == DIRECTION_NAMES[direction]
    passed = [set(p) for p in log["passed"]]
    start = [set(h) for h in after_drop]
    if direction:
        assert all(len(p) == 3 and p <= after_drop[s] for s, p in enumerate(passed))
        for s in range(4):
            start[s] = (after_drop[s] - passed[s]) | passed[(s - direction) % 4]
    else:
        assert all(not p for p in passed)
    assert [set(h) for h in log["start_hands"]] == start
    assert all(len(h) == n for h in start)

    # play: every card of the start hands played once, n tricks of 4
    played = [c for t in log["tricks"] for _, c in t["plays"]]
    assert len(log["tricks"]) == n and len(played) == len(set(played)) == 4 * n
    assert set(played) == set().union(*start)

    # points and settlement
    res = log["result"]
    total = rules.total_points
    assert sum(res["points"]) == total
    b_pts = res["points"][decl & 1]
    o_pts = total - b_pts
    made = b_pts >= log["bid"]
    assert res["made"] == made
    want_opp = o_pts if made or rules.opp_scores == "always" else 0
    assert res["score"][decl & 1] == (b_pts if made else -log["bid"])
    assert res["score"][1 - (decl & 1)] == want_opp


@pytest.mark.parametrize("policy", POLICIES)
def test_every_flag_value_keeps_the_contract(policy):
    for rules in one_flag_variants():
        for log in rook.play_logged(rules, seed=21, indices=range(N_LOGGED), policies=policy):
            check_log(log, rules)


@pytest.mark.parametrize("rules", one_flag_variants(), ids=str)
def test_batch_records_sum_to_the_total(rules):
    df = rook.simulate(rules, 3000, seed=4, policies="heuristic,random,heuristic,random")
    assert ((df["points0"] + df["points1"]) == rules.total_points).all()
    assert df["bid"].between(70, rules.total_points).all() and (df["bid"] % 5 == 0).all()
    made = df["bid_points"] >= df["bid"]
    assert (df["made"] == made).all()
    assert (df["score_bid"] == np.where(made, df["bid_points"], -df["bid"])).all()


def test_logged_hands_are_the_batch_hands():
    rules = PRESETS["rook"]
    df = rook.simulate(rules, 300, seed=8, policies="heuristic")
    logs = rook.play_logged(rules, 8, range(300), "heuristic")
    for log, row in zip(logs, df.itertuples(), strict=True):
        assert log["result"]["points"] == [row.points0, row.points1]
        assert (log["declarer"], log["bid"]) == (row.declarer, row.bid)
        assert log["widow"] == format_card(row.widow)


def test_redeal_rule_throws_in_all_pass_hands():
    rules = rook.parse_rules("rook(all_pass=redeal)")
    logs = rook.play_logged(rules, 2, range(400), "random")
    assert any(log["redeals"] > 0 for log in logs)  # random passes a third of the time
    assert not any(log["forced"] for log in logs)
    forced = rook.play_logged(PRESETS["rook"], 2, range(400), "random")
    assert any(log["forced"] for log in forced)


N_EXACT = 100_000


def within_3se(k: int, n: int, p: float) -> bool:
    se = np.sqrt(p * (1 - p) / n)
    return abs(k / n - p) <= 3 * se


def test_widow_is_a_counter_17_in_53():
    df = rook.simulate(PRESETS["rook"], N_EXACT, seed=3, policies="random")
    w = df["widow"].to_numpy()
    counter = (w == 63) | np.isin(w & 15, [3, 8, 11, 12])
    assert within_3se(int(counter.sum()), N_EXACT, 17 / 53), wilson(int(counter.sum()), N_EXACT)


def test_a_seat_holds_the_rook_13_in_53():
    df = rook.simulate(PRESETS["rook"], N_EXACT, seed=3, policies="random")
    for seat in range(4):
        k = int((df["rook_seat"] == seat).sum())
        assert within_3se(k, N_EXACT, 13 / 53), (seat, k)
    assert within_3se(int((df["rook_seat"] == 4).sum()), N_EXACT, 1 / 53)


def test_deals_do_not_depend_on_rules_or_policy():
    a = rook.run_batch(PRESETS["rook"], 0, 2000, 9, parse_policies("random"))[1]
    b = rook.run_batch(rook.parse_rules("rook(pass_cycle=none,drop=no_rook)"), 0, 2000, 9,
                       parse_policies("heuristic"))[1]
    assert np.array_equal(a, b)


def test_known_hand_and_forced_declarer():
    rules = PRESETS["rook"]
    hand = rook.Scenario(hand=0, seat=1)
    cards = "AS KS QS JS TS 9S 5S JK AH 5H 2D 3C 4C"
    from analyzer.cards import CardSet

    mask = CardSet(cards).mask
    sc = rook.Scenario(hand=mask, seat=1, force="declarer", bid=150, trump=3)
    rec, hands = rook.run_batch(rules, 0, 4000, 5, parse_policies("heuristic"), scenario=sc)
    df = rook.records_frame(rec, hands, 0)
    eldest = (df["dealer"] + 1) % 4
    assert (hands[np.arange(len(df)), eldest.to_numpy()] == np.uint64(mask)).all()
    assert (df["declarer"] == eldest).all() and (df["bid"] == 150).all()
    assert (df["trump"] == 3).all()
    assert df["bid_points"].mean() > 150  # seven spades and the Rook take most of the points
    assert hand.vector().tolist()[0] == 0


def test_chunking_and_threads_do_not_change_results():
    import numba

    rules = PRESETS["rook"]
    pols = parse_policies("heuristic")
    a = rook.run_batch(rules, 100, 5000, 6, pols, chunk=1)[0]
    b = rook.run_batch(rules, 100, 5000, 6, pols, chunk=4096)[0]
    prev = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        c = rook.run_batch(rules, 100, 5000, 6, pols)[0]
    finally:
        numba.set_num_threads(prev)
    assert np.array_equal(a, b) and np.array_equal(a, c)
