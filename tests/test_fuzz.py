"""Property-based fuzzing of every kind of text a user types: card strings, variant strings,
numbers and policy strings, through the command line (in-process) and the public API.

Every outcome must be a success or one clean line with exit status 2, never a traceback,
and nothing may be left on disk. Each kind runs at least 2,000 generated cases.
"""

from __future__ import annotations

import os

import pytest
from cli_helpers import run
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from analyzer.cards import CardParseError, CardSet, parse_cards
from analyzer.games import parse_game
from analyzer.games.common import PolicyError, parse_policies
from analyzer.parsing import NumberError, parse_float, parse_int
from analyzer.variants import RuleError

CASES = settings(max_examples=2000, deadline=None, derandomize=True,
                 suppress_health_check=[HealthCheck.too_slow,
                                        HealthCheck.function_scoped_fixture])
ODD = "²³¹٣۵ſıİKﬁ\u200b\u00a0\n\t\r\x00\x1b é—"  # look-alikes, controls, wide digits
CARD_PIECES = ["A", "K", "Q", "J", "T", "10", "9", "5", "2", "S", "H", "D", "C", "s", "h",
               "JK", "ROOK", "joker", " ", ",", "-", "/", *ODD]
VARIANT_PIECES = ["pedro", "cinch", "rook", "king", "(", ")", "=", ",", "low_to", "holder",
                  "winner", "target", "min_bid", "7", "51", "0", "-1", "99999999999999999999",
                  "scoring", "2", "max_offer", "14", " ", *ODD]
POLICY_PIECES = ["random", "heuristic", "dd", "pimc", ":", "2", "3", "0", "20", ",", " ",
                 "10001", "HEURISTIC", *ODD]


def pieces(alphabet: list[str], most: int = 12):
    return st.one_of(st.lists(st.sampled_from(alphabet), max_size=most).map("".join),
                     st.text(max_size=30))


def clean(result) -> None:
    """A success, or exit 2 with exactly one line on stderr; never a traceback."""
    assert "Traceback" not in (result.stdout or "") + (result.stderr or "")
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        repr(result.exception)
    if result.exit_code:
        assert result.exit_code == 2, (result.exit_code, result.stderr)
        assert len(result.stderr.splitlines()) == 1, result.stderr
        assert result.stderr.startswith("bidlab: error:")


@pytest.fixture(autouse=True)
def _empty_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    yield
    assert not os.listdir(tmp_path), "a file was left behind"


@CASES
@given(pieces(CARD_PIECES))
def test_card_strings(text):
    clean(run("cards", text))
    try:
        cards = parse_cards(text)
    except CardParseError:
        return
    assert str(CardSet(cards)).count(" ") == max(len(cards) - 1, 0)


@CASES
@given(pieces(VARIANT_PIECES))
def test_variant_strings(text):
    clean(run("rules", text))
    try:
        rules = parse_game(text)
    except RuleError:
        return
    assert parse_game(str(rules)) == rules  # a parsed variant prints back to itself


@CASES
@given(st.one_of(st.integers(min_value=-10, max_value=2**64).map(str),
                 pieces(["0", "1", "9", "-", "+", "e", ".", "_", " ", *ODD]),
                 st.sampled_from(["9" * 4301, str(2**63), str(2**63 - 1)])))
def test_integer_options(text):
    clean(run("deal", "pedro", "--index", text, "--seed", "1", "--no-labels"))
    try:
        value = parse_int(text, 0, 2**63 - 1, "--index")
    except NumberError:
        return
    assert 0 <= value < 2**63


@CASES
@given(st.one_of(st.floats(allow_nan=True, allow_infinity=True).map(str),
                 pieces(["0", "1", "5", ".", "e", "-", "+", "nan", "inf", " ", *ODD])))
def test_real_options(text):
    try:
        value = parse_float(text, 0.0, None, "--time-budget", low_open=True)
    except NumberError:
        clean(run("hand", "pedro", "AS KS 5S 5C 2S 9H 3D JC 7H", "--time-budget", text))
        return
    assert value > 0 and value < float("inf")


@CASES
@given(pieces(POLICY_PIECES))
def test_policy_strings(text):
    try:
        pols = parse_policies(text)
    except PolicyError:
        clean(run("deal", "pedro", "--policy", text))
        return
    assume(pols[4] <= 3 or not any(p == 3 for p in pols[:4]))  # a few pimc worlds at most
    clean(run("deal", "pedro", "--policy", text))
