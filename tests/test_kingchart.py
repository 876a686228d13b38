"""King charts: features against a card-by-card reading, class sums against the raw records."""

import dataclasses
import json

import numpy as np
import pandas as pd
import pytest

from analyzer import games
from analyzer.advice import MIN_TRIALS
from analyzer.cards import cards_of, rank_of, suit_of
from analyzer.chart_features import ChartError
from analyzer.games import king
from analyzer.games.common import parse_policies
from analyzer.games.king import engine
from analyzer.games.king.chart import (
    DANGER_BY,
    NEGATIVE,
    king_chart,
    king_hand_features,
)
from analyzer.games.king.chart_view import (
    king_chart_contents,
    render_king_chart,
    write_king_chart,
)
from analyzer.io import read_table
from analyzer.stats import Z95
from analyzer.student import t_multiplier

RULES = king.parse_rules("king")
POLS = parse_policies("heuristic")
DEALS, GAMES, SEED = 20_000, 4_000, 3


@pytest.fixture(scope="module")
def chart():
    return king_chart(RULES, deals=DEALS, seed=SEED, batch=7_000, games=GAMES)


def records(contract):
    return king.run_batch(RULES, 0, DEALS, SEED, POLS, contract=contract)


def plain_features(mask: int) -> dict:
    """The features read card by card, the slow obvious way (A = 14)."""
    cards = [(rank_of(c), suit_of(c)) for c in cards_of(mask)]
    hearts = [r for r, s in cards if s == 2]
    by_suit = [[r for r, s in cards if s == k] for k in range(4)]

    def band(v, edges, labels):
        return labels[sum(v >= e for e in edges)]

    kh = 13 in hearts
    guards = [sum(x < 12 for x in suit) for suit in by_suit if 12 in suit]
    return {
        "hearts": band(len(hearts), [2, 4, 6], ["0-1", "2-3", "4-5", "6+"]),
        "high_hearts": str(sum(r >= 11 for r in hearts)),
        "kh_guard": "no K♥" if not kh else band(len(hearts) - 1, [2, 4],
                                                ["K♥ with 0-1", "K♥ with 2-3", "K♥ with 4+"]),
        "high_cards": band(sum(r >= 12 for r, _ in cards), [3, 5, 7],
                           ["0-2", "3-4", "5-6", "7+"]),
        "voids": band(sum(not s for s in by_suit), [1, 2], ["0", "1", "2+"]),
        "queens": band(sum(r == 12 for r, _ in cards), [1, 2, 3], ["0", "1", "2", "3+"]),
        "queen_guard": "no Q" if not guards else band(min(guards), [2, 4],
                                                      ["0-1", "2-3", "4+"]),
        "kings_jacks": band(sum(r in (11, 13) for r, _ in cards), [1, 2, 3, 4],
                            ["0", "1", "2", "3", "4+"]),
        "longest": band(max(len(s) for s in by_suit), [5, 6, 7], ["<=4", "5", "6", "7+"]),
    }


def test_features_match_a_card_by_card_reading():
    rec, hands = records("no-hearts")
    feats = king_hand_features(hands, rec[:, engine.R_DEALER])
    assert len(feats) == 4 * DEALS
    for k in range(0, 4 * DEALS, 151):
        deal, seat = divmod(k, 4)
        assert feats["deal"].iat[k] == deal and feats["seat"].iat[k] == seat
        want = plain_features(int(hands[deal, seat]))
        for name, v in want.items():
            assert feats[name].iat[k] == v, (k, name)
        assert feats["position"].iat[k] == ("dealer", "eldest", "second", "third")[
            (seat - int(rec[deal, engine.R_DEALER])) % 4]


@pytest.mark.parametrize("contract", NEGATIVE)
def test_class_means_match_the_records(chart, contract):
    rec, hands = records(contract.replace("_", "-"))
    feats = king_hand_features(hands, rec[:, engine.R_DEALER])
    penalty = -rec[:, engine.R_POINTS:engine.R_POINTS + 4].astype(np.int64).ravel()
    rows = chart.danger_of(contract)
    by = list(DANGER_BY[contract])
    assert rows["n"].sum() == 4 * DEALS
    assert rows["share"].sum() == pytest.approx(1.0)
    # every seat loses the contract's total over the deal: the class means average to it
    total = -{"no_tricks": -260, "no_hearts": -260, "no_kings_jacks": -240,
              "no_queens": -200, "no_king_of_hearts": -160, "last_two": -180}[contract]
    assert (rows["penalty"] * rows["n"]).sum() / rows["n"].sum() == pytest.approx(total / 4)
    spread = 0
    for _, line in rows.sample(min(4, len(rows)), random_state=2).iterrows():
        sel = np.ones(len(feats), dtype=bool)
        for f in by:
            sel &= (feats[f] == line[f]).to_numpy()
        assert line["n"] == sel.sum()
        assert line["penalty"] == pytest.approx(penalty[sel].mean())
        if sel.sum() > 1 and np.ptp(penalty[sel]):  # no spread: see the test below
            se = penalty[sel].std(ddof=1) / np.sqrt(sel.sum())
            assert line["penalty_se"] == pytest.approx(se, rel=1e-6, abs=1e-9)
            assert line["penalty_lo"] <= line["penalty"] <= line["penalty_hi"]
            spread += 1
    assert spread >= 1  # the interval was checked on some class


def test_a_penalty_no_hand_paid_is_not_known_to_be_zero():
    """In 600 deals the K♥ held with 4 or more guards is seldom captured: a class where no
    hand lost a point reads 0, with the interval its contract's penalty allows on the few
    hands a class of n may hide (Wilson at 0 of n), where it had been 0 ± 0."""
    small = king_chart(RULES, deals=600, seed=SEED, games=100)
    rows = small.danger[small.danger["n"] > 1]  # one hand: no interval
    totals = {"no_tricks": 260, "no_hearts": 260, "no_kings_jacks": 240, "no_queens": 200,
              "no_king_of_hearts": 160, "last_two": 180}
    unseen = rows[rows["penalty"] == 0]
    assert len(unseen), "the check needs a class where no hand lost a point"
    for _, row in unseen.iterrows():
        bound = totals[row["contract"]] * 1.959964 ** 2 / (row["n"] + 1.959964 ** 2)
        assert row["penalty_lo"] == 0 and row["penalty_hi"] == pytest.approx(bound)
    assert (rows["penalty_hi"] > rows["penalty_lo"]).all()


def test_a_small_class_s_intervals_stay_in_their_range_and_are_not_certain():
    """A review read "~20.0 ± 39.2" for a no-tricks penalty (at least 0) and "7.00 ± 0.00"
    for the trump right of a class of 2 hands with no spread: now each interval is cut at
    its range and a class with no spread gets the interval its range allows."""
    small = king_chart(RULES, deals=600, seed=SEED, games=100)
    danger = small.danger[small.danger["n"] > 1]
    totals = {"no_tricks": 260, "no_hearts": 260, "no_kings_jacks": 240, "no_queens": 200,
              "no_king_of_hearts": 160, "last_two": 180}
    assert (danger["penalty_lo"] >= 0).all()
    assert (danger["penalty_hi"] <= danger["contract"].map(totals)).all()
    assert (danger["penalty_lo"] <= danger["penalty"]).all()
    right = small.right[small.right["n"] > 1]
    for col in ("own_tricks", "other_tricks"):
        assert (right[f"{col}_lo"] >= 0).all() and (right[f"{col}_hi"] <= 13).all()
    assert ((right["value_lo"] >= -13) & (right["value_hi"] <= 13)).all()
    assert (right["value_hi"] > right["value_lo"]).all()  # never certain from a class


def test_trump_classes_match_the_records(chart):
    rec, hands = records("positive")
    dealer = rec[:, engine.R_DEALER].astype(np.int64)
    rows = np.arange(DEALS)
    feats = king_hand_features(hands[rows, dealer])
    score = rec[rows, engine.R_POINTS + dealer] / 25
    taken = rec[rows, engine.R_TRICKS + dealer]
    outcome = rec[:, engine.R_OUTCOME]
    assert chart.trump["n"].sum() == DEALS
    for _, line in chart.trump.sample(4, random_state=1).iterrows():
        sel = ((feats["longest"] == line["longest"])
               & (feats["high_cards"] == line["high_cards"])).to_numpy()
        assert line["n"] == sel.sum()
        assert line["score"] == pytest.approx(score[sel].mean())
        assert line["p_sold"] == pytest.approx((outcome[sel] == engine.OUT_SELL).mean())
        assert line["p_declined"] == pytest.approx((outcome[sel] == engine.OUT_DECLINE).mean())
        played = sel & (outcome == engine.OUT_PLAY)
        assert line["n_played"] == played.sum()
        if played.any():
            assert line["own_tricks"] == pytest.approx(taken[played].mean())
    shares = chart.trump[["p_sold", "p_declined", "p_played"]].sum(axis=1)
    assert np.allclose(shares, 1.0)


def test_trump_right_counts_every_seat_hand_and_matches_the_plays(chart):
    """Every seat's hand of every deal is charted (not only the benefited's, and not as the
    auction went): its tricks naming trump and under another seat's trump, paired."""
    assert chart.right["n"].sum() == 4 * DEALS
    offset = 2
    got = []
    for chooser in ("self", "other"):
        rec, hands = king.run_batch(RULES, 0, DEALS, SEED, POLS, contract="positive",
                                    scenario=king.Scenario(seat=offset, chooser=chooser))
        seat = (rec[:, engine.R_DEALER].astype(np.int64) + offset) % 4
        got.append(rec[np.arange(DEALS), engine.R_TRICKS + seat].astype(np.int64))
    feats = king_hand_features(hands[np.arange(DEALS), seat])
    for _, line in chart.right[chart.right["seat"] == "second"].sample(
            3, random_state=4).iterrows():
        sel = ((feats["longest"] == line["longest"])
               & (feats["high_cards"] == line["high_cards"])).to_numpy()
        assert line["n"] == sel.sum()
        assert line["own_tricks"] == pytest.approx(got[0][sel].mean())
        assert line["other_tricks"] == pytest.approx(got[1][sel].mean())
        d = got[0][sel] - got[1][sel]
        assert line["value"] == pytest.approx(d.mean())
        assert line["value_hi"] - line["value"] == pytest.approx(  # Student's t
            t_multiplier(1.959963984540054, len(d) - 1) * d.std(ddof=1) / np.sqrt(len(d)))
        assert line["offer_up_to"] == max(0, int(np.ceil(line["value_lo"])) - 1)


def test_the_right_is_worth_more_with_a_longer_suit(chart):
    """Within the readable classes of a seat and a count of high cards, a longer suit makes
    the right to name trump worth more tricks, beyond the noise of each step (the classes
    are disjoint sets of deals, so a step's standard error is the two classes' in
    quadrature; the slack of 0.1 trick this replaced had no such reason)."""
    right = chart.right[~chart.right["rare"]]
    steps = 0
    for _, rows in right.groupby(["seat", "high_cards"], observed=True):
        order = ["<=4", "5", "6", "7+"]
        rows = rows.sort_values("longest", key=lambda c: c.map(order.index))
        se = ((rows["value_hi"] - rows["value_lo"]) / 2 / Z95).to_numpy()
        gain, noise = np.diff(rows["value"].to_numpy()), Z95 * np.hypot(se[1:], se[:-1])
        assert (gain > noise).all(), rows[["label", "value", "value_lo", "value_hi"]]
        steps += len(gain)
    assert steps >= 8


def test_seat_positions_match_the_games(chart):
    out, _ = king.run_games(RULES, 0, GAMES, SEED, POLS)
    d0 = out[:, engine.G_D0].astype(np.int64)
    totals = out[:, engine.G_TOTAL:engine.G_TOTAL + 4].astype(np.int64)
    assert (totals.sum(axis=1) == 0).all()
    for pos in range(4):
        score = totals[np.arange(GAMES), (d0 + pos) % 4]
        line = chart.seats.iloc[pos]
        assert line["n"] == GAMES
        assert line["score"] == pytest.approx(score.mean())
        assert line["score_lo"] < line["score"] < line["score_hi"]
    assert chart.seats["score"].sum() == pytest.approx(0.0, abs=1e-9)
    assert chart.seats["deals_hands"].tolist() == ["1, 5, 9", "2, 6, 10", "3, 7", "4, 8"]


@pytest.mark.parametrize("spelling", ["king", "king(combined_negatives=true)"])
def test_whole_games_last_as_many_hands_as_the_rules_play(spelling):
    """A report's game lengths count the hands the rules deal (7 with combined negatives),
    and its text does not claim Pedro's fixed first dealer: King's is drawn per game."""
    rules = king.parse_rules(spelling)
    game = games.game(rules)
    winner, hands, scores = game.whole_game_rows(rules, 20, SEED, POLS)
    assert (hands == len(rules.contracts)).all() and len(hands) == 20
    assert len(rules.contracts) == (7 if rules.combined_negatives else 10)
    start = game.game_start(rules)
    assert scores.shape == (20, 4) and "g % 4" not in start
    assert "first dealer is drawn at random" in start  # the default, first_dealer=random
    chooses = game.game_start(king.parse_rules("king(first_dealer=kh_finder_chooses)"))
    assert "K♥" in chooses and "random" not in chooses


def _readable(rows, row_feature, col_feature, values="penalty"):
    """Mean penalty (or ``values``) of the readable (not rare) classes, row feature x column
    feature."""
    return rows[~rows["rare"]].pivot(index=row_feature, columns=col_feature, values=values)


def _rises(rows, row_feature, col_feature, columns=None) -> int:
    """Assert that along each row of the readable grid the penalty never falls from column
    to column beyond the noise, and rises from its first column to its last beyond it
    (disjoint classes: a difference's SE is the two classes' in quadrature; one step, such
    as no high heart to one, may be within the noise); the number of rows checked."""
    grid = _readable(rows, row_feature, col_feature)
    se = _readable(rows, row_feature, col_feature, "penalty_se")
    if columns is not None:
        grid, se = grid[columns], se[columns]
    checked = 0
    for (_, row), (_, row_se) in zip(grid.iterrows(), se.iterrows(), strict=True):
        keep = row.notna().to_numpy()
        vals, errs = row.to_numpy()[keep], row_se.to_numpy()[keep]
        if len(vals) < 2:
            continue
        shown = pd.DataFrame({"penalty": row, "se": row_se})
        assert (np.diff(vals) > -Z95 * np.hypot(errs[1:], errs[:-1])).all(), shown
        assert vals[-1] - vals[0] > Z95 * np.hypot(errs[-1], errs[0]), shown
        checked += 1
    return checked


def test_no_hearts_danger_rises_with_high_cards_and_high_hearts(chart):
    """High hearts (at a given length) and high cards raise the no-hearts penalty; length
    itself protects (own hearts mostly fall on other seats' tricks)."""
    assert _rises(chart.danger_of("no_hearts"), "hearts", "high_cards") >= 2
    by_high = king_chart(RULES, deals=DEALS, seed=SEED, games=0,
                         danger_by={"no-hearts": ("hearts", "high_hearts")})
    assert _rises(by_high.danger_of("no_hearts"), "hearts", "high_hearts") >= 2
    # at each strength, 4-5 hearts are safer than 2-3: the penalty falls from 2-3 to 4-5
    rows = chart.danger_of("no_hearts").assign(penalty=lambda r: -r["penalty"])
    assert _rises(rows, "high_cards", "hearts", ["2-3", "4-5"]) >= 3


def test_king_of_hearts_guard_protects(chart):
    rows = chart.danger_of("no_king_of_hearts").assign(penalty=lambda r: -r["penalty"])
    guards = ["K♥ with 0-1", "K♥ with 2-3", "K♥ with 4+"]  # the penalty falls guard by guard
    assert _rises(rows, "high_cards", "kh_guard", guards) >= 2


def test_chart_does_not_depend_on_batch(chart):
    steps = []
    other = king_chart(RULES, deals=DEALS, seed=SEED, batch=12_000, games=GAMES,
                       progress=steps.append)
    assert steps == [12_000, DEALS - 12_000]
    for a, b in ((chart.danger, other.danger), (chart.trump, other.trump),
                 (chart.right, other.right), (chart.seats, other.seats)):
        assert a["n"].tolist() == b["n"].tolist()
        num = a.select_dtypes("number").columns
        assert np.allclose(a[num].to_numpy(float), b[num].to_numpy(float), equal_nan=True)


def test_every_table_taken_out_of_the_chart_says_how_it_was_made(chart):
    """Every other result stamps its tables; King's chart kept its provenance only on the
    chart, so `chart.danger` alone had no seed, rules or policy."""
    for df in (chart.danger, chart.right, chart.trump, chart.seats,
               chart.danger_of("no-hearts")):
        assert df.attrs["rules"] == "king" and df.attrs["seed"] == SEED, df.attrs
        assert df.attrs["policy"] == "heuristic" and df.attrs["n"] == DEALS


def test_files_written(chart, tmp_path):
    paths = write_king_chart(chart, tmp_path / "out")
    names = {p.name for p in paths}
    for stem in ("danger", "trump_right", "benefited", "seats"):
        assert {f"{stem}.csv", f"{stem}.parquet"} <= names
    for contract in NEGATIVE:
        png = tmp_path / "out" / f"danger_{contract}.png"
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    for suffix in (".csv", ".parquet"):
        df = read_table(tmp_path / "out" / f"danger{suffix}")
        assert len(df) == len(chart.danger)
        assert df.attrs["rules"] == "king" and df.attrs["seed"] == SEED
        assert df.attrs["policy"] == "heuristic" and df.attrs["n"] == DEALS
        assert np.allclose(df["penalty"], chart.danger["penalty"])
    assert (tmp_path / "out" / "trump_right.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    assert manifest["games"] == GAMES and "danger_no_hearts.png" in manifest["files"]
    assert not list((tmp_path / "out").glob(".*.tmp"))


def test_the_trump_right_figure_shows_each_class_value_and_what_its_seat_may_do(chart):
    """The 64-row trump-right table as a figure: a panel a seat, a cell a class, holding the
    class's value and the advice the seat can act on (the dealer accepts or declines, the
    others offer)."""
    fig = king_chart_contents(chart).figures["trump_right"]
    panels = {ax.get_title().split()[1]: ax for ax in fig.axes
              if ax.get_visible() and ax.get_title().startswith("seat ")}
    assert sorted(panels) == ["dealer", "eldest", "second", "third"]
    for seat, ax in panels.items():
        rows = chart.right[chart.right["seat"] == seat]
        cells = sorted(t.get_text() for t in ax.texts)
        assert len(cells) == len(rows)
        assert cells == sorted(t for t in cells if t.split("\n")[0] in
                               {f"{v:+.2f}" for v in rows["value"]})
        words = ("accept", "too few") if seat == "dealer" else ("offer up to", "no offer",
                                                                 "too few")
        assert all(any(w in c for w in words) for c in cells), cells
        declined = rows[(rows["decline"] == "decline") & (rows["n"] >= MIN_TRIALS)]
        assert sum(c.endswith("else decline") for c in cells) == len(declined)
        if seat == "dealer":  # a dealer who declines still takes a good enough offer
            for r in declined.itertuples():
                take = ("accept any offer" if r.accept_offers_above == 0
                        else f"accept {int(r.accept_offers_above) + 1}+")
                assert any(c.startswith(f"{r.value:+.2f}\n") and c.endswith(f"{take}\nelse decline")
                           for c in cells), r.label


def test_render_names_every_chart(chart):
    text = render_king_chart(chart)
    for contract in NEGATIVE:
        assert f"\n{contract}: mean penalty" in text
    assert "Trump right" in text and "D0 (first dealer)" in text
    assert f"n {DEALS:,} deals" in text


def test_every_figure_of_the_text_carries_its_interval_or_says_it_has_none(chart):
    """The benefited's shares printed bare (85.0%), and a one-hand cell or price as a bare
    mean (~40.0): shares now carry Wilson's interval, and a mean of one hand "[n/a]"."""
    text = render_king_chart(chart)
    rows = text.split("The benefited in the auction")[1].split("\n\n")[0].splitlines()[3:]
    assert rows and all(line.count("%") == 9 for line in rows), rows[:2]  # 3 a share
    one = chart.danger[chart.danger["n"] == 1]
    assert ("[n/a]" in text) == (len(one) > 0 or (chart.right["n"] == 1).any()
                                 or (chart.trump["n"] == 1).any())


def test_a_benefited_class_whose_hands_scored_alike_is_not_certain(chart):
    """Three hands of 11 tricks each read "~11.00 ± 0.00": the range bounds what hands
    not seen may do, as every other King mean is held."""
    several = chart.trump[chart.trump["n"] > 1]
    assert (several["score_hi"] > several["score_lo"]).all()


def test_bad_options_are_clear_errors():
    with pytest.raises(ChartError, match="features:"):
        king_chart(RULES, deals=10, games=0, danger_by={"no_hearts": ("colour",)})
    with pytest.raises(ChartError, match="negative contracts"):
        king_chart(RULES, deals=10, games=0, danger_by={"positive": ("hearts",)})
    with pytest.raises(ChartError):
        king_chart(RULES, deals=0)


def test_provenance(chart):
    p = chart.provenance
    assert (p["rules"], p["policy"], p["seed"], p["n"], p["games"]) == (
        "king", "heuristic", SEED, DEALS, GAMES)
    assert isinstance(chart.danger, pd.DataFrame)


def test_cli_bid_chart_king_writes_the_charts(tmp_path):
    from cli_helpers import assert_bad_input, run

    out = tmp_path / "kchart"
    r = run("bid-chart", "king", "--deals", "5000", "--seed", "3", "--out-dir", str(out))
    assert r.exit_code == 0, r.stderr
    assert "no_hearts: mean penalty per hand" in r.stdout and "Trump right" in r.stdout
    assert (out / "danger_no_king_of_hearts.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert_bad_input(run("bid-chart", "king", "--by", "hearts", "--deals", "10"), "--by")


def test_the_trump_right_advises_each_seat_only_what_it_can_do(chart):
    """The benefited (the dealer) answers offers and may decline; the others only offer. The
    chart had told dealers what to offer and the others when to accept; its report table
    printed "+6.00 [+nan, +nan]" for a class of one hand."""
    from analyzer.games.king.chart_view import king_chart_contents, render_right

    right = chart.right
    dealer = right["seat"] == "dealer"
    assert right.loc[dealer, "offer_up_to"].isna().all()
    few = right["n"] < MIN_TRIALS  # no advice, and the file says so: no "offer 0"
    assert right.loc[dealer & ~few, "decline"].isin(["decline", "play", "either"]).all()
    assert right.loc[dealer & few, "decline"].isna().all()  # not "either": not measured
    assert right.loc[~dealer, "accept_offers_above"].isna().all()
    assert (right.loc[~dealer, "decline"] == "-").all()
    assert right.loc[~dealer & ~few, "offer_up_to"].notna().all()
    assert right.loc[few, ["offer_up_to", "accept_offers_above"]].isna().all().all()
    one = right[~dealer].iloc[[0]].assign(n=1, value_lo=float("nan"), value_hi=float("nan"),
                                          offer_up_to=float("nan"))
    alone = dataclasses.replace(chart, right=one)
    shown = king_chart_contents(alone).shown
    assert "nan" not in shown.to_string().lower() and "too few" in render_right(alone)


def test_a_class_of_exactly_min_trials_hands_shows_its_advice(chart):
    """``MIN_TRIALS`` hands are enough for advice (``trump_right_advice`` gives it from
    n >= MIN_TRIALS): a class of exactly that many shows its offer or its answer to offers,
    not "too few"."""
    right = chart.right
    other = right[right["seat"] != "dealer"].iloc[[0]].assign(n=MIN_TRIALS, offer_up_to=1.0)
    dealer = right[right["seat"] == "dealer"].iloc[[0]].assign(n=MIN_TRIALS,
                                                               accept_offers_above=2.0)
    both = dataclasses.replace(chart, right=pd.concat([other, dealer], ignore_index=True))
    shown = king_chart_contents(both).shown
    assert shown["offer up to"].tolist() == ["1", "-"]
    assert shown["accept offers above"].tolist() == ["-", "2"]
    fewer = dataclasses.replace(chart, right=pd.concat([other, dealer], ignore_index=True)
                                .assign(n=MIN_TRIALS - 1))
    shown = king_chart_contents(fewer).shown
    assert shown["offer up to"].tolist() == ["too few", "-"]
    assert shown["accept offers above"].tolist() == ["-", "too few"]


def test_the_price_of_a_sold_right_carries_its_interval_and_an_older_store_still_reads(chart):
    """The benefited's table printed the mean price alone; it keeps the sum of the squares
    now, apart from the other sums, so that a run store written before it (its chunks
    without them) still merges: its price then has no interval, nothing is lost."""
    from analyzer.games.king.chart import KingChartAccumulator

    sold = chart.trump[chart.trump["p_sold"] * chart.trump["n"] >= 30]
    assert len(sold)
    assert (sold["price_lo"] <= sold["price"]).all() and (sold["price"] <= sold["price_hi"]).all()
    assert (sold["price_hi"] - sold["price_lo"] > 0).all()
    row = sold.iloc[0]
    assert f"{row['price']:.2f} ± {(row['price_hi'] - row['price_lo']) / 2:.2f}" in str(chart)
    acc = KingChartAccumulator(RULES, "heuristic", SEED)
    acc.play(0, 2_000)
    state = json.loads(json.dumps(acc.to_state()))
    del state["sums"]["trump:price_sq"]  # as a chunk written before it
    old = KingChartAccumulator(RULES, "heuristic", SEED)
    old.add_state(state)
    again = old.chart().trump
    fresh = acc.chart().trump
    assert np.allclose(again["price"], fresh["price"], equal_nan=True)
    assert again["price_lo"].isna().all() and fresh["price_lo"].notna().any()


def test_the_chart_states_its_own_decision_rule_and_pedro_s_classes_say_which_suit(chart):
    """A report's King guide said "advice stands only where its interval excludes zero",
    beside advice weighed against the offer or the decline's 4 tricks; Pedro's "trumps"
    class did not say which suit it counts (11% of hands read "<=2" trumps)."""
    from analyzer.games.pedro.chart import PEDRO_FEATURES

    model = chart.provenance["model"]
    assert "an offer of k tricks only while the right is worth more than k" in model
    assert "the suit the seat would name" in PEDRO_FEATURES["trumps"].title


def test_one_whole_game_reads_as_one():
    from cli_helpers import run

    r = run("bid-chart", "king", "--deals", "1")
    assert r.exit_code == 0, r.stderr
    assert "this chart's own 1 game)" in r.stdout  # "1 games"
