"""The King contract (docs/spec.md §5), checked from the engine's own logs and records under
every flag value: hand totals, the zero-sum game, the heart-lead ban, the forced K♥,
the auction's final rule and payments, dealer rotation; exact deal probabilities."""

from __future__ import annotations

import numpy as np
import pytest

from analyzer.games import king
from analyzer.games.common import parse_policies
from analyzer.games.king.rules import (
    CONTRACT_NAMES,
    CONTRACT_OPTIONS,
    HAND_TOTALS,
    PRESETS,
    contract_name,
    one_flag_variants,
)

POLICIES = ["random", "heuristic", "heuristic,random,random,heuristic"]
NEGATIVE = [n.replace("_", "-") for n in CONTRACT_NAMES.values() if n != "positive"]


def total_of(contract: str) -> int:
    return sum(HAND_TOTALS[c] for c in CONTRACT_NAMES if CONTRACT_NAMES[c] in
               contract.split("+"))


def check_hand(log: dict) -> None:
    c = log["contract"]
    hands = [set(h) for h in log["hands"]]
    assert all(len(h) == 13 for h in hands) and len(set().union(*hands)) == 52
    pts = log["result"]["points"]
    assert sum(pts) == total_of(c), (c, pts)
    if log["outcome"] == "decline":
        assert log["tricks"] == [] and pts == [100 if s == log["dealer"] else 75
                                               for s in range(4)]
        offers = [a for _, a in log["auction"] if isinstance(a, int)]
        assert max(offers, default=0) <= 1  # a decline only when the best offer is <= 1
        return
    held = [set(h) for h in hands]
    for t in log["tricks"]:
        led = t["plays"][0][1]
        seat0 = t["plays"][0][0]
        if "hearts" in c or "king_of_hearts" in c:
            if led[1] == "H":  # a heart lead only from a hand of hearts alone
                assert all(card[1] == "H" for card in held[seat0]), (t, held[seat0])
        for seat, card in t["plays"]:
            if "king_of_hearts" in c and "KH" in held[seat] and card != "KH":
                assert any(x[1] == led[1] for x in held[seat]), "K♥ withheld while void"
            held[seat].discard(card)
    assert all(not h for h in held)
    if c == "positive":
        assert sum(log["result"]["tricks"]) == 13
        if log["outcome"] == "sell":
            assert log["price"] >= 1 and log["chooser"] == log["buyer"]
        else:
            assert log["chooser"] == log["dealer"]


@pytest.mark.parametrize("policy", POLICIES)
def test_every_flag_value_keeps_the_contract_on_single_hands(policy):
    for rules in one_flag_variants():
        for contract in [*NEGATIVE, "positive"]:
            for log in king.play_logged(rules, 7, range(60), policy, contract=contract):
                check_hand(log)


@pytest.mark.parametrize("policy", POLICIES)
def test_games_rotate_the_deal_and_sum_to_zero(policy):
    for rules in one_flag_variants():
        for g in range(4):
            logs = king.play_game_logged(rules, 3, g, policy)
            assert [log["contract"] for log in logs] == [contract_name(c)
                                                         for c in rules.contracts]
            d0 = logs[0]["dealer"]
            assert [log["dealer"] for log in logs] == [(d0 + k) % 4 for k in range(len(logs))]
            assert sorted(log["dealer"] for log in logs if log["contract"] == "positive") == \
                [0, 1, 2, 3]
            for log in logs:
                check_hand(log)
            assert sum(sum(log["result"]["points"]) for log in logs) == 0


@pytest.mark.parametrize("variant", ["king", "king(auction_model=valuation_shortcut)",
                                     "king(combined_negatives=True,max_offer=3)"])
def test_game_records_match_the_logged_games(variant):
    """A game's row against its logged hands: totals, first dealer, and each hand's points
    and trump auction (outcome and price; none in a negative hand)."""
    from analyzer.games.king.deals import OUTCOMES

    rules = king.parse_rules(variant)
    df = king.simulate(rules, 30, seed=3, policies="heuristic,random,heuristic,heuristic")
    for g in range(30):
        logs = king.play_game_logged(rules, 3, g, "heuristic,random,heuristic,heuristic")
        totals = np.sum([log["result"]["points"] for log in logs], axis=0)
        assert totals.tolist() == [int(df[f"total{s}"].iat[g]) for s in range(4)]
        assert int(df["first_dealer"].iat[g]) == logs[0]["dealer"]
        for k, log in enumerate(logs, start=1):
            assert [int(df[f"h{k}_p{s}"].iat[g]) for s in range(4)] == log["result"]["points"]
            assert OUTCOMES[int(df[f"h{k}_outcome"].iat[g])] == log["outcome"], (g, k)
            assert int(df[f"h{k}_price"].iat[g]) == log["price"], (g, k)
        for k in range(len(logs) + 1, 11):  # hands a quick game does not play
            assert int(df[f"h{k}_outcome"].iat[g]) == int(df[f"h{k}_price"].iat[g]) == 0
    sold = (df[[f"h{k}_outcome" for k in range(1, 11)]] == 1).to_numpy().sum()
    declined = (df[[f"h{k}_outcome" for k in range(1, 11)]] == 2).to_numpy().sum()
    assert sold > 5 and declined > 2  # both outcomes were checked


def test_a_games_auction_measures_follow_the_rule():
    """compare's trump auction measures per game: at max_offer=1 every right sold costs
    exactly 1 trick, so the price measure equals the count sold, game by game; the counts
    lie within the game's 4 positive hands, as compare's bounds say."""
    from analyzer.games.king.summary import compare_bounds, compare_measures

    rules = king.parse_rules("king(max_offer=1)")
    m = compare_measures(king.simulate(rules, 400, seed=8), rules)
    sold = m["trump rights sold a game"]
    assert (m["tricks offered for the rights sold a game"] == sold).all() and sold.sum() > 20
    bounds = compare_bounds(rules)
    for name in ("trump rights sold a game", "trump rights declined (4-3-3-3) a game"):
        assert bounds[name] == (0.0, 4.0)
        assert m[name].min() >= 0 and m[name].max() <= 4
    assert bounds["tricks offered for the rights sold a game"] == (0.0, 52.0)
    plain = compare_measures(king.simulate(PRESETS["king"], 400, seed=8), PRESETS["king"])
    assert plain["tricks offered for the rights sold a game"].sum() > 1.5 * sold.sum()


def test_simulate_summarizes_a_games_auctions_and_reads_older_records():
    df = king.simulate(PRESETS["king"], 300, seed=2)
    section = next(s for s in king.GAME.summarize(df).sections if s.key == "auctions")
    assert "of its 4 positive hands" in section.title
    sold = (df[[f"h{k}_outcome" for k in range(7, 11)]] == 1).sum(axis=1).mean()
    assert section.table.loc["trump rights sold", "mean"] == pytest.approx(sold)
    older = df.drop(columns=[c for c in df if c.endswith(("_outcome", "_price"))])
    assert "auctions" not in [s.key for s in king.GAME.summarize(older).sections]


@pytest.mark.parametrize("policy", ["heuristic", "random"])
def test_the_kh_finder_deals_first_or_names_the_first_dealer(policy):
    """docs/rules.md §3.1: by default the seat dealt the K♥ deals first; with
    kh_finder_chooses it names the first dealer: the heuristic the seat on its left (it then
    deals fourth, the best-scoring place; naming itself, as it did, was the worst and made
    the flag change nothing), the random player anyone. The finder is the same seat of
    the same game under both rules."""
    plain = king.simulate(PRESETS["king"], 400, seed=4, policies=policy)
    chooses = king.simulate(king.parse_rules("king(first_dealer=kh_finder_chooses)"), 400,
                            seed=4, policies=policy)
    assert (plain["first_dealer"] == plain["kh_finder"]).all()
    assert (plain["kh_finder"] == chooses["kh_finder"]).all()
    named = (chooses["first_dealer"] - chooses["kh_finder"]) % 4
    if policy == "heuristic":
        assert (named == 1).all()
    else:
        assert set(named) == {0, 1, 2, 3}
    log = king.play_game_logged(king.parse_rules("king(first_dealer=kh_finder_chooses)"), 4,
                                7, policy)
    assert log[0]["kh_finder"] == chooses["kh_finder"].iat[7]
    assert log[0]["dealer"] == chooses["first_dealer"].iat[7]


def test_compare_shows_what_naming_the_first_dealer_is_worth():
    """The finder's final score under kh_finder_chooses against the default, paired by game:
    the flag read "no game played out differently" when the heuristic named itself."""
    from analyzer import compare_variants
    from analyzer.games.king.summary import FINDER_SCORE

    t = compare_variants("king", "king(first_dealer=kh_finder_chooses)", deals=5_000,
                         seed=1).table.set_index("measure")
    row = t.loc[FINDER_SCORE]
    assert row["beyond_noise"] and row["diff_lo"] > 0, row
    other = compare_variants("king", "king(first_lead=left_of_dealer)", deals=200, seed=1)
    assert FINDER_SCORE not in set(other.table["measure"])  # the first dealer's, shown once


def test_every_game_sums_to_zero_in_batch():
    df = king.simulate(king.parse_rules("king(combined_negatives=True)"), 5000, seed=2,
                       policies="random")
    assert (df[[f"total{s}" for s in range(4)]].sum(axis=1) == 0).all()


N_EXACT = 100_000


def test_void_in_a_given_suit_and_the_kh_holder():
    rec, hands = king.run_batch(PRESETS["king"], 0, N_EXACT, 5, parse_policies("random"),
                                contract="no-tricks")
    clubs = (hands[:, 0] & np.uint64(0x1FFF)) == 0
    p = 0.012791
    se = np.sqrt(p * (1 - p) / N_EXACT)
    assert abs(clubs.mean() - p) <= 3 * se, clubs.mean()
    kh = rec[:, king.engine.R_KH_SEAT]
    se = np.sqrt(0.25 * 0.75 / N_EXACT)
    for s in range(4):
        assert abs((kh == s).mean() - 0.25) <= 3 * se


@pytest.mark.parametrize("contract", NEGATIVE)
def test_heuristic_takes_fewer_penalty_points_than_random(contract):
    """Seat 0 heuristic against three random seats, then all random, on the same deals."""
    rules = PRESETS["king"]
    n = 20_000
    h = king.simulate(rules, n, seed=9, policies="heuristic,random,random,random",
                      contract=contract)["points0"].to_numpy(float)
    r = king.simulate(rules, n, seed=9, policies="random", contract=contract)[
        "points0"].to_numpy(float)
    d = h - r
    assert d.mean() - 3 * d.std(ddof=1) / np.sqrt(n) > 0, (contract, d.mean())


def test_threads_and_chunks_do_not_change_games():
    import numba

    rules = PRESETS["king"]
    pols = parse_policies("heuristic")
    a = king.run_games(rules, 10, 3000, 4, pols, chunk=1)[0]
    b = king.run_games(rules, 10, 3000, 4, pols, chunk=997)[0]
    prev = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        c = king.run_games(rules, 10, 3000, 4, pols)[0]
    finally:
        numba.set_num_threads(prev)
    assert np.array_equal(a, b) and np.array_equal(a, c)


@pytest.mark.parametrize("policy", ["heuristic", "random", "random,heuristic,heuristic,random"])
@pytest.mark.parametrize("contract", CONTRACT_OPTIONS)
def test_the_plain_hands_kernel_writes_the_logged_kernels_records(policy, contract):
    """Single hands come from a kernel of their own (no log, no search compiled in): its
    records and hands are those of the logged kernel, which the reference checks."""
    from analyzer.games.king import engine
    from analyzer.games.king.rules import kernel_params

    rules, pols, n = PRESETS["king"], parse_policies(policy), 400
    idx = np.arange(1000, 1000 + n, dtype=np.int64)
    rec, hands = king.run_deals(rules, idx, 7, pols, contract=contract)
    lrec = np.empty_like(rec)
    lhands = np.empty_like(hands)
    li = np.empty((n, engine.NLOGI), dtype=np.int16)
    engine.log_kernel(7, idx, np.zeros(n, np.int64), idx % 4,
                      np.full(n, king.parse_contract(contract), np.int64), kernel_params(rules),
                      pols, lrec, lhands, li)
    np.testing.assert_array_equal(rec, lrec)
    np.testing.assert_array_equal(hands, lhands)
