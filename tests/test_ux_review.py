"""What a new user's review found wrong in the CLI's output (each test failed on the code it
was written against)."""

from __future__ import annotations

import re

from cli_helpers import run

_INTERVAL = re.compile(r"^~?(-?[\d.]+)(?: ± ([\d.]+)| \[(-?[\d.]+), (-?[\d.]+)\])?$")


def _bounds(cell: str) -> tuple[float, float]:
    m = _INTERVAL.match(cell.strip())
    assert m, cell
    mean = float(m.group(1))
    if m.group(2):
        return mean - float(m.group(2)), mean + float(m.group(2))
    if m.group(3):
        return float(m.group(3)), float(m.group(4))
    return float("-inf"), float("inf")  # a mean alone: no interval to read


def test_king_chart_says_either_only_where_decline_and_play_are_within_the_noise():
    # was: "decline? either" for a dealer class of 5 hands taking 7.00 ± 1.39 tricks naming
    # trump, far above the decline's 4; "either" means the two "differ by no more than the
    # noise" (evaluate.DECLINE_WORDS); a class too small for advice says "too few" in the
    # other advice columns, and now in this one too
    from analyzer.advice import MIN_TRIALS

    r = run("bid-chart", "king", "--deals", "400", "--no-progress")
    assert r.exit_code == 0, r.stderr
    lines = r.stdout.splitlines()
    start = next(i for i, s in enumerate(lines) if s.startswith("class (its hand)"))
    naming = re.compile(r"seat=dealer\s+(\d+)\s+"
                        r"(~?-?[\d.]+(?: ± [\d.]+| \[-?[\d.]+, -?[\d.]+\])?)")
    said = {"too few": 0}
    for row in lines[start + 2:]:
        if not row.strip():
            break
        if "seat=dealer" not in row:
            continue
        m = naming.search(row)
        n, (lo, hi) = int(m.group(1)), _bounds(m.group(2))  # the "naming trump" cell
        decline = row.rstrip().rsplit("  ", 1)[-1].strip()
        if n < MIN_TRIALS:
            assert decline == "too few", row
        else:  # the advice as the interval of the tricks naming trump has it
            assert decline == ("decline" if hi < 4 else "play" if lo > 4 else "either"), row
        said[decline] = said.get(decline, 0) + 1
    assert said.pop("too few") and sum(said.values()), said  # both kinds of row were read


def test_match_rook_counts_hands_not_deals():
    # was: "undecided after 1,000 deals" and "deals per game: 5.175": a Rook deal is a hand,
    # and simulate and compare say hands for Rook
    r = run("match", "rook", "--games", "20", "--no-progress")
    assert r.exit_code == 0, r.stderr
    assert "hands per game" in r.stdout, r.stdout
    assert "deals" not in r.stdout, r.stdout


def test_ladder_rook_counts_hands_not_deals():
    # was: "seed 1  deals 20" and "A's edge per deal" for Rook, whose unit is the hand
    r = run("ladder", "rook", "--deals", "20", "--rungs", "random,heuristic", "--duplicate",
            "--no-progress")
    assert r.exit_code == 0, r.stderr
    assert not re.search(r"\bdeals \d", r.stdout), r.stdout
    assert "per deal" not in r.stdout, r.stdout


def test_hand_king_one_contract_does_not_claim_one_hand_a_contract():
    # was: "10 deals (60 hands played, one a contract)" for --contract positive: one
    # contract, yet six hands a deal (each trump, the policy's, another seat's choice)
    r = run("hand", "king", "AH KH QH JH 2C 3C 4C 5D 6D 7D 8S 9S TS", "--contract",
            "positive", "--deals", "10", "--no-progress")
    assert r.exit_code == 0, r.stderr
    assert "one a contract" not in r.stderr, r.stderr
    assert "10 deals (60 hands played in all)" in r.stderr, r.stderr
