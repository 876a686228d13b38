"""Whole Rook games to the target (docs/rules.md §4.10): replayed hand by hand in Python
from the single-hand records of the same hand indices; invariants, reproducibility, the
search's twin kernel and the CLI."""

import numba
import numpy as np
import pytest

from analyzer.games import rook
from analyzer.games.common import parse_policies

# docs/rules.md §4.5: hand k of a game passes cycle[k % len(cycle)]
CYCLES = {"right_left": ("right", "left"), "right_left_none": ("right", "left", "none"),
          "left": ("left",), "right": ("right",), "none": ("none",)}


def game_hand(g, k):
    """Hand k of game g: index g * 2**24 + 4k + (g + k) % 4, so dealer (g + k) % 4."""
    return g * 2**24 + 4 * k + (g + k) % 4


def python_games(rules, seed, games, policy, max_deals):
    """docs/rules.md §4.10 written out: per game, add up each hand's §4.9 settlement (the
    single-hand simulation of the same hand index, passing by the hand's number in its
    game) and stop when the target decides it: one team there wins; both there, the higher
    total, then the declarer's team. (winner, hands, [score0, score1]) per game."""
    cycle = CYCLES[rules.pass_cycle]
    hands = {}  # (g, k) -> (score0, score1, declarer)
    for c, direction in enumerate(cycle):
        keys = [(g, k) for g in games for k in range(c, max_deals, len(cycle))]
        vec = rook.Scenario(direction=direction).vector(rules.hand_size)
        rec, dealt = rook.run_deals(rules, np.array([game_hand(g, k) for g, k in keys]), seed,
                                    parse_policies(policy), scenario=vec)
        df = rook.records_frame(rec, dealt, 0)
        for key, s0, s1, d in zip(keys, df["score0"], df["score1"], df["declarer"],
                                  strict=True):
            hands[key] = (int(s0), int(s1), int(d))
    out = {}
    for g in games:
        s, result = [0, 0], None
        for k in range(max_deals):
            s0, s1, declarer = hands[g, k]
            s[0] += s0
            s[1] += s1
            over = [s[0] >= rules.target, s[1] >= rules.target]
            if over[0] != over[1]:
                result = (0 if over[0] else 1), k + 1, s
            elif over[0]:
                result = (0 if s[0] > s[1] else 1 if s[1] > s[0] else declarer % 2), k + 1, s
            if result:
                break
        out[g] = result or (-1, max_deals, s)
    return out


@pytest.mark.parametrize("spec", ["rook", "rook(target=150)",
                                  "rook(pass_cycle=right_left_none,target=300)",
                                  "rook(opp_scores=not_when_declarer_set,all_pass=redeal)",
                                  "rook(points=parker_adapt,drop_points_to=last_trick_winner)"])
@pytest.mark.parametrize("policy", ["heuristic", "random"])
def test_games_match_a_python_replay_of_their_hands(spec, policy):
    rules = rook.parse_rules(spec)
    df = rook.simulate_games(rules, 150, seed=3, policies=policy, max_deals=30)
    want = python_games(rules, 3, range(150), policy, 30)
    for row in df.itertuples():
        winner, deals, s = want[row.game]
        assert (row.winner, row.deals, row.score0, row.score1) == (winner, deals, *s), row.game


def test_equal_totals_past_the_target_go_to_the_declarers_team():
    """docs/rules.md §4.10's last clause, on games where both teams ended on the same total
    past the target (a target of 200: about one game in fifty, here)."""
    rules = rook.parse_rules("rook(target=200)")
    df = rook.simulate_games(rules, 4000, seed=5)
    level = df[(df["score0"] == df["score1"]) & (df["score0"] >= 200)]
    assert len(level) > 20  # the rule is exercised
    want = python_games(rules, 5, list(level["game"]), "heuristic", 30)
    for row in level.itertuples():
        rec, dealt = rook.run_deals(rules, np.array([game_hand(row.game, row.deals - 1)]), 5,
                                    parse_policies("heuristic"))
        assert row.winner == rook.records_frame(rec, dealt, 0)["declarer"].iat[0] % 2
        assert (row.winner, row.deals, row.score0, row.score1) == (
            want[row.game][0], want[row.game][1], *want[row.game][2])


def test_games_hold_their_invariants():
    rules = rook.parse_rules("rook")
    df = rook.simulate_games(rules, 4000, seed=9)
    assert df.attrs["max_deals"] == 1000 and df.attrs["game"] == "rook"
    assert (df["winner"] >= 0).all() and (df["deals"] >= 1).all()
    won = np.where(df["winner"] == 0, df["score0"], df["score1"])
    lost = np.where(df["winner"] == 0, df["score1"], df["score0"])
    assert (won >= rules.target).all()
    assert ((lost < rules.target) | (lost <= won)).all()  # both there: the higher (or equal)
    assert (df["first_dealer"] == df["game"] % 4).all()
    assert (df["score0"] % 5 == 0).all() and (df["score1"] % 5 == 0).all()
    p = (df["winner"] == 0).mean()  # seats are symmetric over first dealers
    assert abs(p - 0.5) < 4 * np.sqrt(0.25 / len(df))


def test_a_game_is_the_same_whatever_the_run_around_it():
    """Game g plays the same hands for any n_games, first game, cap, chunk or thread count."""
    from analyzer.games.kit.games import run_games, threaded_games
    from analyzer.games.rook import games as kernels

    rules = rook.parse_rules("rook(target=300)")
    whole = rook.simulate_games(rules, 600, seed=7, policies="random")
    part = rook.simulate_games(rules, 100, seed=7, policies="random", first=450)
    assert part.equals(whole.iloc[450:550].reset_index(drop=True))
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        assert rook.simulate_games(rules, 600, seed=7, policies="random").equals(whole)
    finally:
        numba.set_num_threads(before)
    pols = parse_policies("random")
    odd = run_games(threaded_games(kernels.games_chunk, 7), 7, 0, 600, 1000,
                    rook.kernel_params(rules), pols, rook.NO_SCENARIO.vector(), 37)
    np.testing.assert_array_equal(odd, whole.drop(columns="game").to_numpy())


def test_the_cap_on_a_game_does_not_change_its_hands():
    """A target of 100,000 with a cap of 12 hands: every game undecided, its totals those
    of its first 12 hands; the default cap is twice the target here."""
    rules = rook.parse_rules("rook(target=100000)")
    short = rook.simulate_games(rules, 30, seed=4, max_deals=12)
    assert (short["winner"] == -1).all() and (short["deals"] == 12).all()
    want = python_games(rules, 4, range(30), "heuristic", 12)
    assert [(r.score0, r.score1) for r in short.itertuples()] == [
        tuple(want[g][2]) for g in range(30)]
    assert rook.default_max_deals(rules) == 200_000 == rook.simulate_games(
        rules, 0, seed=4).attrs["max_deals"]
    assert rook.game_deal(7, 3) == game_hand(7, 3)
    with pytest.raises(ValueError, match="max_deals"):
        rook.simulate_games(rules, 1, max_deals=0)
    with pytest.raises(ValueError, match="n_games"):
        rook.simulate_games(rules, -1)


def test_the_search_kernels_play_non_searching_seats_alike(monkeypatch):
    """``rook.search``'s games kernel (dd and pimc seats) plays heuristic seats as
    ``rook.games``' does."""
    import importlib

    rules = rook.parse_rules("rook")
    plain = rook.simulate_games(rules, 40, seed=2)
    monkeypatch.setattr(rook, "kernels", lambda pols, engine: importlib.import_module(
        engine.SEARCH_KERNELS, engine.__package__))
    assert rook.simulate_games(rules, 40, seed=2).equals(plain)


def test_match_rook_runs_and_states_its_cap():
    from cli_helpers import run

    r = run("match", "rook", "--games", "200")
    assert r.exit_code == 0, r.stderr
    assert "200 games to 500" in r.stdout and "undecided after 1,000 hands" in r.stdout
    r = run("match", "rook(target=100000)", "--games", "10", "--max-deals", "20")
    assert r.exit_code == 0, r.stderr
    assert "undecided after 20 hands" in r.stdout and "--max-deals" in r.stderr


def test_a_rank_in_a_flag_value_may_be_written_10_as_in_a_hand():
    """--rule rook_rank=above_10 was refused (only above_T), though every hand string takes
    10 for the ten (a player's review)."""
    from analyzer.games import parse_game
    from analyzer.variants import RuleError

    assert parse_game("rook(rook_rank=above_10)").rook_rank == "above_T"
    assert parse_game("rook(rook_rank=ABOVE_t)").rook_rank == "above_T"
    with pytest.raises(RuleError, match="above_T"):
        parse_game("rook(rook_rank=above_100)")
