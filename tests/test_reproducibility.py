"""Randomness by construction: deal ``i`` of seed ``s`` is one deal, however it is run.

The same deal whatever the batch size, chunk size, thread count or offset of the
first deal, and the same dealt cards under every rule variant and policy. Then
the deal itself is checked against exact probabilities (3 standard errors).
"""

import hashlib
import math
import os
import subprocess
import sys
from statistics import NormalDist

import numpy as np
import pandas as pd
import pytest

from analyzer.cards import SPADES, CardSet, card
from analyzer.games import family, parse_game, pedro
from analyzer.games.common import SEARCH_CHUNK, chunk_for, parse_policies
from analyzer.games.pedro.rules import PRESET_NAMES, PRESETS, Rules, one_flag_variants
from analyzer.games.search.setup import P_NODES

SEED = 8675309
HAND_COLS = [f"hand{s}" for s in range(4)]


def all_variants() -> list[Rules]:
    return one_flag_variants(int_values=(PRESETS["pedro"].target, 21))


def dealt_hands(df: pd.DataFrame) -> np.ndarray:
    return np.stack([df[c].to_numpy() for c in HAND_COLS], axis=1).astype(np.uint64)


# ---- (a) simulate: batch size and first-deal offset ------------------------------------------


@pytest.mark.parametrize("policy", ["random", "heuristic"])
@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_simulate_independent_of_batch(preset, policy):
    rules, n = PRESETS[preset], 30_000
    whole = pedro.simulate(rules, n, seed=SEED, policies=policy)
    for batch in (7_919, 1_000, 29_999):
        seen = []
        part = pedro.simulate(
            rules, n, seed=SEED, policies=policy, batch=batch, progress=seen.append
        )
        assert sum(seen) == n and len(seen) == math.ceil(n / batch)
        pd.testing.assert_frame_equal(part, whole)
        assert part.attrs == whole.attrs


@pytest.mark.parametrize("policy", ["random", "heuristic"])
@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_simulate_independent_of_first_offset(preset, policy):
    rules, n = PRESETS[preset], 20_000
    whole = pedro.simulate(rules, n, seed=SEED, policies=policy)
    for k in (1, 3, 4, 5_001, 19_999):
        tail = pedro.simulate(rules, n - k, seed=SEED, policies=policy, first=k)
        assert tail.attrs["first"] == k
        assert tail["deal"].iloc[0] == k
        pd.testing.assert_frame_equal(tail, whole.iloc[k:].reset_index(drop=True))
    # and a later window run on its own is the same as inside a longer run
    mid = pedro.simulate(rules, 1_000, seed=SEED, policies=policy, first=12_345, batch=333)
    pd.testing.assert_frame_equal(mid, whole.iloc[12_345:13_345].reset_index(drop=True))


def test_simulate_zero_deals_and_bad_count():
    df = pedro.simulate(PRESETS["pedro"], 0, seed=SEED)
    assert len(df) == 0 and list(df.columns) == list(pedro.simulate(PRESETS["pedro"], 1).columns)
    with pytest.raises(ValueError):
        pedro.simulate(PRESETS["pedro"], -1)


def test_different_seeds_deal_different_cards():
    a = dealt_hands(pedro.simulate(PRESETS["pedro"], 1_000, seed=1))
    b = dealt_hands(pedro.simulate(PRESETS["pedro"], 1_000, seed=2))
    assert (a != b).any(axis=1).all()


# ---- (b) run_batch: chunk size ---------------------------------------------------------------


@pytest.mark.parametrize("policy", ["random", "heuristic"])
@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_run_batch_independent_of_chunk(preset, policy):
    rules, n, first = PRESETS[preset], 20_000, 777
    pols = pedro.parse_policies(policy)
    rec, hands = pedro.run_batch(rules, first, n, SEED, pols)
    for chunk in (1, 7, 64, 2_048, 19_999, n, 10 * n):
        r, h = pedro.run_batch(rules, first, n, SEED, pols, chunk=chunk)
        assert np.array_equal(r, rec), chunk
        assert np.array_equal(h, hands), chunk


@pytest.mark.parametrize("game, policy", [("pedro", "pimc:3,heuristic,dd,random"),
                                          ("rook", "dd,heuristic,pimc:2,heuristic"),
                                          ("king", "pimc:2")])
def test_searching_seats_get_small_chunks_and_the_same_deals(game, policy):
    """A searching seat makes a deal cost up to a second, so its runs split into small
    chunks (every thread busy on a few hundred deals); the deals are the same as in one
    chunk, whose single table serves deal after deal."""
    rules, pols = parse_game(game), parse_policies(policy)
    assert chunk_for(pols, None, 2_048) == SEARCH_CHUNK
    assert chunk_for(parse_policies("heuristic"), None, 2_048) == 2_048
    fam = family(rules)
    small = fam.run_batch(rules, 50, 9, SEED, pols)
    one = fam.run_batch(rules, 50, 9, SEED, pols, chunk=9)
    assert np.array_equal(small[0], one[0]) and np.array_equal(small[1], one[1])


@pytest.mark.parametrize("chunk", [0, -3])
def test_run_batch_rejects_bad_chunk(chunk):
    with pytest.raises(ValueError, match="chunk"):
        pedro.run_batch(PRESETS["pedro"], 0, 10, SEED, pedro.parse_policies("random"), chunk)


@pytest.mark.parametrize("game", ["pedro", "rook", "king"])
def test_run_batch_into_reused_buffers(game):
    """Deals written into a caller's (larger, dirty) buffers are the deals of fresh arrays."""
    rules, pols, n = parse_game(game), parse_policies("heuristic"), 3_000
    fam = family(rules)
    rec, hands = fam.run_batch(rules, 40, n, SEED, pols)
    out = (np.full((n + 5, rec.shape[1]), 99, rec.dtype), np.full((n + 5, hands.shape[1]), 7,
                                                                  np.uint64))
    r, h = fam.run_batch(rules, 40, n, SEED, pols, out=out)
    assert np.array_equal(r, rec) and np.array_equal(h, hands)
    assert np.shares_memory(r, out[0]) and np.all(out[0][n:] == 99)


@pytest.mark.parametrize("bad", ["short", "dtype", "width"])
def test_run_batch_rejects_unfit_buffers(bad):
    rules, pols = PRESETS["pedro"], pedro.parse_policies("random")
    rec, hands = pedro.run_batch(rules, 0, 10, SEED, pols)
    out = {"short": (rec[:5], hands[:5]), "dtype": (rec.astype(np.int16), hands),
           "width": (rec, hands[:, :3].copy())}[bad]
    with pytest.raises(ValueError, match="out (records|hands) must be"):
        pedro.run_batch(rules, 0, 10, SEED, pols, out=out)


# ---- (c) thread count, in fresh processes ----------------------------------------------------

_HASH_SCRIPT = """
import hashlib, sys
import numba
from analyzer.games import family, parse_game
from analyzer.games.common import SEARCH_CHUNK, chunk_for, parse_policies
n = int(sys.argv[1])
out = [str(numba.get_num_threads())]
for spec, policy in (("pedro", "random"), ("cinch", "heuristic"), ("pedro", "heuristic"),
                     ("rook", "random"), ("rook", "heuristic"), ("king", "heuristic")):
    rules = parse_game(spec)
    run = family(rules).run_games if spec == "king" else family(rules).run_batch
    rec, hands = run(rules, 0, n // 10 if spec == "king" else n, 4242, parse_policies(policy))
    out.append(hashlib.sha256(rec.tobytes() + hands.tobytes()).hexdigest())
print(" ".join(out))
"""


def _hashes_in_subprocess(threads: int, n: int) -> list[str]:
    env = {**os.environ, "NUMBA_NUM_THREADS": str(threads)}
    env.pop("NUMBA_DISABLE_JIT", None)
    done = subprocess.run(
        [sys.executable, "-c", _HASH_SCRIPT, str(n)],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    got = done.stdout.split()
    assert got[0] == str(threads), f"NUMBA_NUM_THREADS={threads} was not honoured: {got[0]}"
    return got[1:]


def test_thread_count_does_not_change_results():
    n = 200_000
    one = _hashes_in_subprocess(1, n)
    two = _hashes_in_subprocess(2, n)
    assert one == two
    here = []
    for spec, policy in (("pedro", "random"), ("cinch", "heuristic"), ("pedro", "heuristic"),
                         ("rook", "random"), ("rook", "heuristic"), ("king", "heuristic")):
        rules = parse_game(spec)
        run = family(rules).run_games if spec == "king" else family(rules).run_batch
        rec, hands = run(rules, 0, n // 10 if spec == "king" else n, 4242,
                         parse_policies(policy))
        here.append(hashlib.sha256(rec.tobytes() + hands.tobytes()).hexdigest())
    assert here == one


# ---- (d) the same deal under every variant and policy ---------------------------------------


@pytest.fixture(scope="module")
def baseline():
    return pedro.simulate(PRESETS["pedro"], 5_000, seed=SEED, policies="heuristic")


@pytest.mark.parametrize("policy", ["random", "heuristic", "random,heuristic,heuristic,random"])
@pytest.mark.parametrize("rules", all_variants(), ids=str)
def test_rule_flags_do_not_change_the_deal(rules, policy, baseline):
    df = pedro.simulate(rules, len(baseline), seed=SEED, policies=policy)
    assert (df["dealer"].to_numpy() == baseline["dealer"].to_numpy()).all()
    assert (baseline["redeals"] == 0).all()
    first_attempt = df["redeals"].to_numpy() == 0
    same = (dealt_hands(df) == dealt_hands(baseline)).all(axis=1)
    assert same[first_attempt].all(), f"{(~same[first_attempt]).sum()} deals differ"
    # a thrown-in deal is redealt from a fresh stream: other cards
    assert not same[~first_attempt].any()
    if rules.all_pass != "redeal" and rules.stock_short != "redeal":
        assert first_attempt.all()


@pytest.mark.parametrize("all_pass", ["dealer_names_no_contract", "dealer_forced_min_bid",
                                      "redeal"])
def test_a_forced_maker_plays_the_first_deal_under_every_all_pass_rule(all_pass):
    """The forced-maker scenario (hand evaluation's points table) skips the auction: its
    all-pass is no throw-in, so it plays deal i itself, as every other scenario does."""
    hand = CardSet("AS KS 5S 5C 2S 9H 3D JC 7H").mask
    scenario = pedro.Scenario(hand=hand, seat=1, force="maker", trump=SPADES)
    rules = pedro.parse_rules(f"pedro(all_pass={all_pass})")
    pols = parse_policies("heuristic")
    _, base_hands = pedro.run_batch(PRESETS["pedro"], 0, 2_000, SEED, pols, scenario=scenario)
    rec, hands = pedro.run_batch(rules, 0, 2_000, SEED, pols, scenario=scenario)
    assert (rec[:, pedro.engine.R_REDEALS] == 0).all()
    assert (hands == base_hands).all()
    assert (rec[:, pedro.engine.R_BID] == 0).all()


# ---- (e) exact probabilities of the deal ----------------------------------------------------


@pytest.fixture(scope="module")
def deals():
    df = pedro.simulate(PRESETS["pedro"], 200_000, seed=SEED + 1, policies="random")
    return df


def _within_3se(hits: int, n: int, p: float) -> None:
    se = math.sqrt(p * (1 - p) / n)
    assert abs(hits / n - p) <= 3 * se, f"{hits / n:.5f} vs {p:.5f} (SE {se:.5f})"


@pytest.mark.parametrize("seat,rank,suit", [(0, 14, 3), (3, 2, 0), (1, 5, 2), (2, 10, 1)])
def test_card_in_seat_probability(deals, seat, rank, suit):
    c = card(rank, suit)
    h = deals[f"hand{seat}"].to_numpy()
    hits = int(((h >> np.uint64(c)) & np.uint64(1)).sum())
    _within_3se(hits, len(h), 9 / 52)


def _bit_counts(masks: np.ndarray) -> np.ndarray:
    """How many masks hold each of the 64 bits."""
    b = np.unpackbits(masks.astype("<u8").view(np.uint8).reshape(-1, 8), axis=1, bitorder="little")
    return b.sum(axis=0, dtype=np.int64)


def test_every_card_in_every_seat_probability(deals):
    # 52 x 4 estimates at once: Bonferroni bound on the largest |z| (family alpha 1e-3)
    n = len(deals)
    h = dealt_hands(deals)
    counts = np.stack([_bit_counts(h[:, s]) for s in range(4)])  # [seat, bit]
    cards = [16 * s + r for s in range(4) for r in range(13)]
    p = 9 / 52
    z = (counts[:, cards] / n - p) / math.sqrt(p * (1 - p) / n)
    assert np.abs(z).max() < NormalDist().inv_cdf(1 - 1e-3 / (2 * z.size))
    assert (counts[:, [c for c in range(64) if c not in cards]] == 0).all()
    assert (counts[:, cards].sum(axis=0) <= n).all()


def test_two_cards_in_two_seats_probability(deals):
    ace, king = np.uint64(card(14, SPADES)), np.uint64(card(13, SPADES))
    h0, h1 = deals["hand0"].to_numpy(), deals["hand1"].to_numpy()
    hits = int((((h0 >> ace) & (h1 >> king)) & np.uint64(1)).sum())
    _within_3se(hits, len(deals), (9 / 52) * (9 / 51))


def test_suit_length_distribution(deals):
    # spades in seat 0's hand: hypergeometric(52, 13, 9)
    n = len(deals)
    spades = np.uint64(0x1FFF << 48)
    k = np.array([int(x).bit_count() for x in (deals["hand0"].to_numpy() & spades)])
    mean, var = 9 * 13 / 52, 9 * (13 / 52) * (39 / 52) * (43 / 51)
    assert abs(k.mean() - mean) <= 3 * math.sqrt(var / n)
    _within_3se(int((k == 0).sum()), n, math.comb(39, 9) / math.comb(52, 9))


def test_dealer_cycles_by_deal_index(deals):
    d = deals["dealer"].to_numpy()
    assert (d == np.arange(len(d)) % 4).all()
    assert d[:8].tolist() == [0, 1, 2, 3, 0, 1, 2, 3]
    later = pedro.simulate(PRESETS["cinch"], 9, seed=SEED, first=6)
    assert later["dealer"].tolist() == [2, 3, 0, 1, 2, 3, 0, 1, 2]
    assert later["deal"].tolist() == list(range(6, 15))


@pytest.mark.parametrize("game, policy, budget", [("pedro", "dd,heuristic,pimc:3,heuristic", 3_000),
                                                  ("rook", "dd,heuristic,pimc:2,heuristic", 3_000),
                                                  ("king", "pimc:2,dd,heuristic,heuristic", 3_000)])
def test_search_budget_is_met_or_missed_alike_in_any_chunk(game, policy, budget):
    """With a node budget that many solves exceed, which ones do (and fall back to the
    heuristic or drop a world) depends on the position alone, not on the deals solved
    before it in its chunk: the search's move-ordering memory starts afresh each deal."""
    rules, pols = parse_game(game), parse_policies(policy)
    pols[P_NODES] = budget
    fam = family(rules)
    apart = fam.run_batch(rules, 50, 12, SEED, pols, chunk=1)
    together = fam.run_batch(rules, 50, 12, SEED, pols, chunk=12)
    assert np.array_equal(apart[0], together[0]) and np.array_equal(apart[1], together[1])
