"""Variant comparison on identical deals: paired differences, and the CLI."""

import numpy as np
from cli_helpers import assert_bad_input, run

from analyzer.compare import compare_variants
from analyzer.games import pedro


def test_a_variant_against_itself_differs_by_nothing():
    c = compare_variants("pedro", "pedro", deals=20_000, seed=3)
    assert (c.table["b_minus_a"].fillna(0) == 0).all()
    assert c.provenance["shared_deals"] == 20_000


def test_paired_difference_is_the_mean_of_per_deal_differences():
    a, b = pedro.parse_rules("pedro"), pedro.parse_rules("pedro(low_to=holder)")
    c = compare_variants(a, b, deals=30_000, seed=4)
    da = pedro.simulate(a, 30_000, seed=4)
    db = pedro.simulate(b, 30_000, seed=4)
    diff = db["bid_points"].to_numpy(float) - da["bid_points"].to_numpy(float)
    row = c.table.set_index("measure").loc["bidding side's points"]
    assert np.isclose(row["b_minus_a"], diff.mean())
    # Low to its holder takes points from the side that named trump, on these very deals.
    assert row["diff_hi"] < 0
    # Pairing: the difference is known far better than either mean.
    assert (row["diff_hi"] - row["diff_lo"]) / 2 < row["a_hw"] / 2


def test_redealt_deals_are_left_out():
    c = compare_variants("pedro", "pedro(all_pass=redeal,stock_short=redeal)", deals=20_000)
    assert 0 < c.provenance["shared_deals"] <= 20_000


def test_cli_compare_prints_paired_table_and_rejects_bad_variants():
    r = run("compare", "pedro", "pedro(low_to=holder)", "--deals", "5000")
    assert r.exit_code == 0, r.output
    assert "95% CI (paired)" in r.stdout and "bidding side's points" in r.stdout
    assert_bad_input(run("compare", "pedro", "pedro(low_to=sideways)"), "low_to")


def test_rook_variants_compare_on_identical_hands():
    c = compare_variants("rook", "rook(drop_points_to=last_trick_winner)", deals=20_000, seed=5)
    t = c.table.set_index("measure")
    assert t.loc["bid", "b_minus_a"] == 0  # the auction happens before the drop
    # The dropped card no longer scores for the declarer unless his side takes the last trick.
    assert t.loc["declaring side's points", "diff_hi"] <= 0
    assert c.provenance["shared_deals"] == 20_000


def test_compare_refuses_two_games():
    assert_bad_input(run("compare", "rook", "pedro", "--deals", "10"), "one game", "rook", "pedro")


def test_king_variants_compare_whole_games_on_identical_deals():
    c = compare_variants("king", "king(pos_leader=left_of_dealer)", deals=3000, seed=2)
    t = c.table.set_index("measure")
    # negative hands do not depend on who leads positive hands: identical, deal by deal
    assert t.loc["hand 1: its dealer's points", "b_minus_a"] == 0
    assert t.loc["hand 7: its dealer's points", "n_paired"] == 3000
    total = sum(t.loc[f"final score, first dealer + {k}", "b"] for k in range(4))
    assert abs(total) < 1e-9  # zero-sum under either variant
