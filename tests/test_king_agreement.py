"""The King kernels against the independent pure-Python reference (tests/reference/king_ref.py).

Every logged hand is replayed by the reference, which checks the legality of every
offer, answer and play and recomputes trick winners and every player's points;
whole games are also checked for their order of contracts, dealers and zero sum.
"""

import random

import pytest
from reference import king_ref

from analyzer.games import king
from analyzer.games.king.rules import (
    CONTRACT_NAMES,
    PRESETS,
    Rules,
    contract_name,
    one_flag_variants,
)
from analyzer.variants import flag_fields

N_MAIN = 10_000  # per contract and policy, as the issue asks
N_COMBO = 100
CONTRACTS = [n.replace("_", "-") for n in CONTRACT_NAMES.values()]


def assert_agree(logs):
    for log in logs:
        try:
            got = king_ref.replay(log)
        except king_ref.IllegalAction as e:  # pragma: no cover - the message is the point
            pytest.fail(f"hand {log['index']} ({log['contract']}) under {log['rules']}: {e}")
        mism = king_ref.result_mismatches(log, got)
        assert not mism, f"hand {log['index']} ({log['contract']}): {mism}"


@pytest.mark.parametrize("contract", CONTRACTS)
@pytest.mark.parametrize("policy", ["random", "heuristic"])
def test_each_contract_agrees_with_reference(contract, policy):
    assert_agree(king.play_logged(PRESETS["king"], 11, range(N_MAIN), policy, contract=contract))


@pytest.mark.parametrize("policy", ["random", "heuristic", "heuristic,random,random,heuristic"])
def test_every_flag_value_agrees(policy):
    for rules in one_flag_variants():
        for contract in dict.fromkeys(contract_name(c) for c in rules.contracts):
            assert_agree(king.play_logged(rules, 5, range(N_COMBO), policy, contract=contract))
        for g in range(5):
            logs = king.play_game_logged(rules, 5, g, policy)
            assert_agree(logs)
            assert not king_ref.check_game(logs, replay_hands=False)


def test_random_flag_combinations_agree_on_whole_games():
    rng = random.Random(2026)
    values = {f.name: list(f.metadata["allowed"]) for f in flag_fields(Rules)
              if not isinstance(f.metadata["allowed"], range)}
    for k in range(40):
        rules = Rules(**{name: rng.choice(vs) for name, vs in values.items()},
                      max_offer=rng.choice([1, 3, 13]))
        pol = rng.choice(["random", "heuristic", "random,heuristic,heuristic,random"])
        for g in range(3):
            logs = king.play_game_logged(rules, 100 + k, g, pol)
            assert_agree(logs)
            assert not king_ref.check_game(logs, replay_hands=False)


def test_reference_catches_a_tampered_kernel_log():
    log = king.play_logged(PRESETS["king"], 1, [0], "heuristic", contract="no-hearts")[0]
    log["result"]["points"][0] -= 20
    log["result"]["points"][1] += 20
    assert king_ref.result_mismatches(log)


@pytest.mark.parametrize("contract", CONTRACTS)
def test_searching_players_agree_with_reference(contract):
    """dd and pimc seats (paranoid search over the last 6 tricks) play legal cards."""
    logs = king.play_logged(PRESETS["king"], seed=12, indices=range(60),
                            policies="dd,pimc:3,heuristic,random", contract=contract)
    assert_agree(logs)
