"""The searching players against the solver: DD-vs-DD play realises the DD value, no player
beats it against DD defenders, and the per-card values of a small position worked by hand."""

from __future__ import annotations

import pytest

from analyzer import solve
from analyzer.games import pedro

RULES = pedro.parse_rules("pedro")


def trick_points(log: dict, team: int) -> int:
    """The team's points won in tricks (Right, Left 5; Jack, Game 1; Low to the winner 1)."""
    r = log["result"]
    won = 5 * (r["right_pedro"] == team) + 5 * (r["left_pedro"] == team)
    won += (r["jack"] == team) + (r["game"] == team) + (r["low"] == team)
    return won


def start_value(log: dict, team: int) -> int:
    hands = "/".join(" ".join(h) if h else "-" for h in log["start_hands"])
    maker = log["bidder"] if log["bidder"] is not None else log["dealer"]
    return solve(RULES, hands, trump=log["trump"], leader=maker, side=team).value


def test_per_card_values_worked_by_hand():
    # Trump spades. N holds the Right Pedro (5) and the Jack (1); E's only trump is the Ace,
    # and E, S and W hold one heart each. Leading the 5S, E must cover with the AS and takes
    # 5; the JS then ruffs the heart trick for 1. Leading the JS, E's Ace takes only 1 and the
    # 5S ruffs the heart trick: 5 for N-S.
    sol = solve("pedro", "5S JS/AS 2H/KS 3H/4S 5H", trump="S", leader="N")
    assert sol.to_move == 0
    assert sol.card_values == {"5S": 1, "JS": 5}
    assert sol.value == 5 and sol.best_cards() == ["JS"]
    # From E-W's side the same position is worth 6 - 5 = 1.
    assert solve("pedro", "5S JS/AS 2H/KS 3H/4S 5H", trump="S", leader="N", side="E").value == 1
    # After N leads the JS, E's Ace is forced; E-W (the side to move by default) get 1.
    mid = solve("pedro", "5S/AS 2H/KS 3H/4S 5H", trump="S", leader="N", played="JS")
    assert mid.to_move == 1 and mid.side == 1 and mid.card_values == {"AS": 1}


def test_dd_play_realises_the_dd_value():
    """Four clairvoyant seats play the DD line, so the trick points equal the solved value."""
    logs = pedro.play_logged(RULES, 11, range(150), "dd")
    for log in logs:
        for team in (0, 1):
            assert trick_points(log, team) == start_value(log, team), log["index"]


@pytest.mark.parametrize("policy", ["random", "heuristic", "pimc:4"])
def test_no_bidding_side_beats_dd_defence(policy):
    """Against DD defenders, the trump maker's side never takes more than the DD value of the
    start of play, whatever its own players do (minimax: DD defence holds it to at most that)."""
    n = 2300 if policy != "pimc:4" else 360
    over = []
    checked = 0
    for dealer_team in (0, 1):
        pols = [policy.split(":")[0]] * 4
        for s in range(4):
            if s % 2 != dealer_team:
                pols[s] = "dd"
        spec = ",".join(p if p != "pimc" else policy for p in pols)
        logs = pedro.play_logged(RULES, 5, range(dealer_team, 2 * n, 2), spec)
        for log in logs:
            maker = log["bidder"] if log["bidder"] is not None else log["dealer"]
            if maker % 2 != dealer_team:
                continue  # the searching side made trump: not this check's case
            team = maker % 2
            got, bound = trick_points(log, team), start_value(log, team)
            checked += 1
            if got > bound:
                over.append((log["index"], got, bound))
    assert not over
    assert checked >= (2000 if policy != "pimc:4" else 300)


def test_pimc_worlds_given_in_the_policy_win_over_the_default():
    from analyzer import ladder
    from analyzer.games.common import parse_policies

    assert parse_policies("pimc", default_worlds=7)[4] == 7
    assert parse_policies("pimc:3,heuristic,pimc,heuristic", default_worlds=7)[4] == 3
    own = ladder.duplicate("pedro", "pimc:3", "heuristic", deals=4, seed=5, worlds=20)
    bare = ladder.duplicate("pedro", "pimc", "heuristic", deals=4, seed=5, worlds=5)
    assert (own.provenance["worlds"], bare.provenance["worlds"]) == (3, 5)
