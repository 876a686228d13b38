"""Reproducibility review: corners of "deal i of seed s is one deal" that the other tests
leave out (see tests/test_reproducibility.py for the main guarantees)."""

import numpy as np

from analyzer.compare import compare_variants, render_comparison
from analyzer.games import rook
from analyzer.games.common import parse_policies
from analyzer.games.rook.rules import PRESETS, one_flag_variants


def test_rook_deals_alike_under_every_variant_of_one_deck():
    """Every Rook flag but the deck's (points=parker_adapt takes the 2s-4s out) deals the
    same cards; a redeal variant's thrown-in hands are redealt from a fresh stream."""
    pols = parse_policies("random")
    rec0, base = rook.run_batch(PRESETS["rook"], 0, 1500, 9, pols)
    for rules in one_flag_variants():
        rec, hands = rook.run_batch(rules, 0, 1500, 9, pols)
        same = (hands == base).all(axis=1)
        if rules.deck_size != PRESETS["rook"].deck_size:
            assert not same.any(), rules
            continue
        redealt = rook.records_frame(rec, hands, 0)["redeals"].to_numpy() > 0
        assert same[~redealt].all() and not same[redealt].any(), rules


def test_compare_does_not_call_hands_of_another_deck_the_same_cards():
    """rook vs rook(points=parker_adapt): the decks differ, so no hand is dealt alike; the
    comparison must not claim its hands were played on the same cards."""
    c = compare_variants("rook", "rook(points=parker_adapt)", deals=300, seed=3)
    assert c.provenance["shared_deals"] == 0
    text = render_comparison(c)
    assert "played on the same hands" not in text
    assert "different decks" in text
    # one deck: every hand alike, and said so
    same = compare_variants("rook", "rook(drop=no_rook)", deals=300, seed=3)
    assert same.provenance["shared_deals"] == 300
    assert "played on the same hands" in render_comparison(same)
    assert np.isfinite(same.table["diff_lo"]).any()


def test_every_hand_document_names_the_version_that_made_it():
    """`hand --json` of King carries bidlab's version, as Pedro's and Rook's do: the same
    seed may give other numbers under another version."""
    import json

    import analyzer
    from analyzer.games import game

    for name, hand in (("king", "AH KH QH JH 2C 3C 4C 5D 6D 7D 8S 9S TS"),
                       ("pedro", "AS KS 5S 5C 2S 9H 3D JC 7H")):
        kw = {"contract": "no-hearts"} if name == "king" else {}
        ev = analyzer.evaluate_hand(name, hand, seat="eldest", deals=40, seed=2, **kw)
        doc = json.loads(game(name).hand_json(ev))["provenance"]
        assert doc["bidlab_version"] == analyzer.__version__, name
        assert (doc["seed"], doc["policy"], doc["rules"]) == (2, "heuristic", name)


def test_a_policy_vector_with_more_than_names_says_so_in_the_provenance():
    """A policy vector may set words its string cannot say (pimc's worlds drawn from another
    stream, a node budget): a frame played with one must not claim the bare ``pimc:5``,
    which would give other numbers; the plain names' frame stays as it was."""
    from analyzer.games import pedro
    from analyzer.games.search.setup import P_NODES, resampled

    rules = pedro.parse_rules("pedro")
    plain = pedro.simulate(rules, 6, seed=2, policies="pimc:5")
    assert "policy_words" not in plain.attrs and plain.attrs["policy"] == "pimc:5"
    budget = parse_policies("pimc:5")
    budget[P_NODES] = 50
    for vector, words in ((resampled(parse_policies("pimc:5"), 7), {"world_salt": 7}),
                          (budget, {"nodes": 50})):
        df = pedro.simulate(rules, 6, seed=2, policies=vector)
        assert df.attrs["policy_words"] == words
        again = pedro.simulate(rules, 6, seed=2, policies=vector)
        assert again.equals(df) and again.attrs == df.attrs


def test_p_best_does_not_depend_on_the_signs_of_the_eigenvectors(monkeypatch):
    """Another LAPACK may return eigh's eigenvectors with other signs (as valid): P(best),
    drawn from the means' joint normal, must not move with them (it did by its whole
    sampling noise, numpy drawing through the vectors as given)."""
    from analyzer.stats import p_best

    rng = np.random.default_rng(5)
    x = rng.normal(size=(400, 1))
    values = np.hstack([x + rng.normal(scale=s, size=(400, 1)) + m
                        for s, m in ((0.5, 0.0), (0.8, 0.03), (1.0, 0.05), (0.6, 0.02))])
    before = p_best(values, seed=3)
    assert 0.05 < before.max() < 0.95  # close enough that the draws decide it
    eigh = np.linalg.eigh

    def flipped(a, *args, **kwargs):
        w, v = eigh(a, *args, **kwargs)
        return w, v * np.where(np.arange(v.shape[1]) % 2, -1.0, 1.0)

    monkeypatch.setattr(np.linalg, "eigh", flipped)
    np.testing.assert_allclose(p_best(values, seed=3), before, rtol=0, atol=1e-12)


def test_known_cards_in_another_order_give_one_provenance():
    """`hand --known second=2H --known dealer=3H` and the other order deal the same deals;
    the provenance said them in the order given, so two records of one run differed."""
    import analyzer

    for name, hand, kw in (("pedro", "AH KH 5H 5C 2H 9D 3D JC 7D", {}),
                           ("king", "AH KH QH JH 2C 3C 4C 5D 6D 7D 8H 9H TH",
                            {"contract": "no-tricks"})):
        one, other = ({"second": "2S", "dealer": "3S"}, {"dealer": "3S", "second": "2S"})
        a, b = (analyzer.evaluate_hand(name, hand, seat="eldest", deals=200, seed=4, known=k,
                                       **kw) for k in (one, other))
        assert a.provenance == b.provenance and a.text() == b.text(), name
        assert a.provenance["known"].split("; ") == ["dealer=3S", "second=2S"], name
