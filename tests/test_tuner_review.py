"""What a house-rule tuner found running `compare` on every flag (session of 2026-12-07,
seventeenth): each test failed on the code before its fix.

- Under min_bid=7 "bidder makes (contract deals)" read "B lower*", though on the deals
  that have a contract under both rules the make rate is unchanged: B's contracts are
  fewer, not harder. A row under it now pairs only the deals both define.
- How many deals a rule changed was said only when it was none, and then blamed on "this
  policy", also for a flag that acts only on whole games (target) or that another flag
  makes moot.
- `compare "pedro(scoring=2)" cinch` found a difference that nothing named: Cinch's dealer
  keeps his own non-trumps, a rule no flag spells.
- Rook's compare had no defenders' score, the one thing opp_scores changes, and compared a
  200- and a 120-point hand (parker_adapt) in raw points only.
"""

from __future__ import annotations

import numpy as np
import pytest
from cli_helpers import run

from analyzer.compare import compare_variants
from analyzer.compare_text import BOTH_DEFINE
from analyzer.games import pedro, rook

MAKES = "bidder makes (contract deals)"


def test_a_measure_of_some_deals_is_also_paired_on_the_deals_both_define():
    a, b = pedro.parse_rules("pedro"), pedro.parse_rules("pedro(min_bid=7)")
    t = compare_variants(a, b, deals=6_000, seed=2).table.set_index("measure")
    da, db = pedro.simulate(a, 6_000, seed=2), pedro.simulate(b, 6_000, seed=2)
    both = (da["bid"].to_numpy() > 0) & (db["bid"].to_numpy() > 0)
    made_a = (da["made"].to_numpy()[both] == 1).astype(float)
    made_b = (db["made"].to_numpy()[both] == 1).astype(float)
    row = t.loc[MAKES + BOTH_DEFINE]
    assert row["n_paired"] == row["n_a"] == row["n_b"] == both.sum() < 6_000
    assert np.isclose(row["a"], made_a.mean()) and np.isclose(row["b"], made_b.mean())
    assert np.isclose(row["b_minus_a"], (made_b - made_a).mean())
    assert row["n_differ"] == (made_a != made_b).sum()
    # B's contracts are fewer (the weak ones gone), so its make rate over its own is lower,
    # while the same contracts make as often: the rule's effect there is nil
    assert t.loc[MAKES, "beyond_noise"] and t.loc[MAKES, "diff_hi"] < 0
    assert row["diff_lo"] < 0 < row["diff_hi"]
    # measures every deal defines get no such row
    assert "bidding side's points" + BOTH_DEFINE not in t.index
    text = said("compare", "pedro", "pedro(min_bid=7)", "--deals", "2000")
    assert "└ where both variants define it" in text and "the row under it pairs only" in text


def test_the_deals_a_rule_changed_are_counted_and_said():
    a, b = pedro.parse_rules("pedro"), pedro.parse_rules("pedro(low_to=holder)")
    c = compare_variants(a, b, deals=3_000, seed=5)
    g = pedro.GAME
    ma = g.compare_measures(pedro.simulate(a, 3_000, seed=5), a)
    mb = g.compare_measures(pedro.simulate(b, 3_000, seed=5), b)
    changed = np.zeros(3_000, dtype=bool)
    for name in ma:
        x, y = ma[name], mb[name]
        changed |= np.isnan(x) != np.isnan(y)
        changed |= ~np.isnan(x) & ~np.isnan(y) & (x != y)
    assert c.provenance["changed_deals"] == changed.sum() > 0
    assert changed.sum() >= c.table["n_differ"].max()  # every measure's changes, together
    text = said("compare", "pedro", "pedro(low_to=holder)", "--deals", "3000", "--seed", "5")
    assert f"The rule changed the result of {changed.sum():,} of the 3,000 deals" in text
    assert "B changes: low_to winner → holder" in text


def said(*args: str) -> str:
    """What `bidlab ARGS` prints, its lines joined (a note wraps where its words fall)."""
    return " ".join(run(*args).stdout.split())


def test_a_flag_of_whole_games_is_said_to_change_nothing_in_single_deals():
    text = said("compare", "pedro", "pedro(target=62)", "--deals", "500")
    assert "No deal of the 500 played out differently" in text
    assert "target acts only on whole games" in text and "compare --games N" in text
    assert "with this policy" not in text  # the policy was not why
    mixed = said("compare", "pedro", "pedro(min_bid=7,target=62)", "--deals", "500")
    assert "The rule changed the result of" in mixed and "target acts only on whole" in mixed
    plain = said("compare", "pedro", "pedro(min_bid=7)", "--deals", "500")
    assert "whole games" not in plain


def test_a_preset_s_rule_that_no_flag_names_is_said():
    text = said("compare", "pedro(scoring=2)", "cinch", "--deals", "300")
    assert "B changes: preset pedro → cinch; cinch: its dealer, robbing, may keep his own " \
           "non-trumps" in text
    games = said("games")
    assert "scoring=2; and its dealer, robbing, may keep his own non-trumps" in games


def test_rook_compare_shows_what_opp_scores_takes_from_the_defenders():
    a = rook.parse_rules("rook")
    b = rook.parse_rules("rook(opp_scores=not_when_declarer_set)")
    t = compare_variants(a, b, deals=2_000, seed=3).table.set_index("measure")
    da = rook.simulate(a, 2_000, seed=3)
    set_hands = da["made"].to_numpy() != 1
    row = t.loc["defenders' score"]
    # the defenders keep their points where the declarer makes, nothing where he is set
    assert np.isclose(row["b_minus_a"], -(da["score_opp"].to_numpy() * set_hands).mean())
    assert row["diff_hi"] < 0 and row["n_differ"] == (da["score_opp"].to_numpy()[set_hands]
                                                      != 0).sum()


@pytest.mark.parametrize("variant, shown", [("rook(points=parker_adapt)", True),
                                            ("rook(pass_cycle=none)", False)])
def test_rook_compares_the_declaring_share_where_the_hands_points_differ(variant, shown):
    from analyzer.games.rook.summary import SHARE

    t = compare_variants("rook", variant, deals=600, seed=1).table.set_index("measure")
    assert (SHARE in t.index) is shown
    if shown:
        row = t.loc[SHARE]
        points = t.loc["declaring side's points"]
        assert np.isclose(row["a"], points["a"] / 200) and np.isclose(row["b"], points["b"] / 120)


def test_a_count_is_read_as_the_tables_print_it():
    """`--deals 20,000` was refused, though every table prints counts so."""
    import json

    from cli_helpers import assert_bad_input

    r = run("simulate", "pedro", "--deals", "2,000", "--json")
    assert r.exit_code == 0, r.stderr
    assert json.loads(r.stdout)["provenance"]["n"] == 2000
    assert run("simulate", "pedro", "--deals", "1_000").exit_code == 0
    for bad in ("2,00", "2,0000", ",000", "1,000.5", "1,_000"):
        assert_bad_input(run("simulate", "pedro", "--deals", bad), "--deals", "whole number")


def test_king_compares_single_hands_of_one_contract():
    """`compare king --contract` did not exist: a rule of one hand (max_offer, kh_force)
    was read off whole games, its hand's dealer points among ten hands' noise."""
    from analyzer.games import king
    from analyzer.games.king.summary import HAND_PLACES, KH_HOLDER

    c = compare_variants("king", "king(max_offer=1)", deals=3_000, seed=4, contract="positive")
    t = c.table.set_index("measure")
    a = king.simulate(king.parse_rules("king"), 3_000, seed=4, contract="positive")
    b = king.simulate(king.parse_rules("king(max_offer=1)"), 3_000, seed=4,
                      contract="positive")
    dealer = lambda df: df[[f"points{s}" for s in range(4)]].to_numpy()[  # noqa: E731
        np.arange(len(df)), df["dealer"].to_numpy()]
    assert np.isclose(t.loc[HAND_PLACES[0], "b_minus_a"], (dealer(b) - dealer(a)).mean())
    price = t.loc["price (tricks; hands sold)"]
    assert price["b"] == 1.0 and price["n_b"] == (b["outcome"] == 1).sum()  # at most 1 trick
    assert t.loc["trump right sold", "diff_hi"] < 0
    assert "price (tricks; hands sold)" + BOTH_DEFINE in t.index
    assert KH_HOLDER not in t.index
    kh = compare_variants("king", "king(kh_force=when_void_or_ace_already_played)",
                          deals=500, seed=4, policy="random", contract="no-king-of-hearts")
    assert KH_HOLDER in set(kh.table["measure"]) and "trump right sold" not in set(
        kh.table["measure"])
    text = said("compare", "king", "king(max_offer=1)", "--contract", "positive",
                "--deals", "400")
    assert "400 hands of positive" in text and "measure (per hand)" in text
    from cli_helpers import assert_bad_input

    assert_bad_input(run("compare", "pedro", "pedro(min_bid=7)", "--contract", "positive"),
                     "--contract", "only king")


@pytest.mark.parametrize("family, variant", [("pedro", "pedro(low_to=holder)"),
                                             ("rook", "rook(pass_cycle=none)")])
def test_a_match_of_players_is_compared_team_by_team(family, variant):
    """With the heuristic at seats 0 and 2 against random at 1 and 3, compare showed the
    bidder's and the dealer's sides only: not which players a rule favours."""
    from analyzer.games import game
    from analyzer.games.common import TEAM_MARGIN

    g = game(family)
    mixed = "heuristic,random,heuristic,random"
    t = compare_variants(family, variant, deals=1_000, seed=6, policy=mixed).table
    row = t.set_index("measure").loc[TEAM_MARGIN]
    frames = [g.simulate(g.module.parse_rules(v), 1_000, 6, mixed) for v in (family, variant)]
    team = "score1_team{}" if family == "pedro" else "score{}"  # pedro: scoring method 1
    a, b = ((df[team.format(0)] - df[team.format(1)]).to_numpy(float) for df in frames)
    assert np.isclose(row["a"], a.mean()) and np.isclose(row["b_minus_a"], (b - a).mean())
    assert row["a"] > 0  # the heuristic's team wins
    alike = compare_variants(family, variant, deals=200, seed=6,
                             policy="heuristic,random,random,heuristic").table
    assert TEAM_MARGIN not in set(alike["measure"])  # each team one of each: no match
