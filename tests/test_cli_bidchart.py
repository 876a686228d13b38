"""`bidlab bid-chart`: tables on stdout, every output file, and bad input."""

import json

import pandas as pd
import pytest
from click.testing import CliRunner

from analyzer.cli import main


def run(*args):
    return CliRunner().invoke(main, list(args))


def test_bid_chart_prints_classes_and_guide_and_writes_files(tmp_path):
    out = tmp_path / "chart"
    r = run("bid-chart", "pedro", "--deals", "20000", "--seed", "4", "--out-dir", str(out))
    assert r.exit_code == 0, r.output
    assert "classes strongest first" in r.output and "Bidding guide" in r.output
    assert "Monotonicity" in r.output and "80,000 hands" in r.output
    for name in ("chart.parquet", "chart.csv", "classes.csv", "guide.csv", "violations.csv",
                 "heatmap.png", "manifest.json"):
        assert (out / name).exists(), name
    assert (out / "heatmap.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    table = pd.read_parquet(out / "chart.parquet")
    assert set(table["bid"]) == set(range(0, 15))  # the pass, then every bid
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["seed"] == 4 and manifest["rules"] == "pedro"
    assert manifest["n_deals"] == 20000 and manifest["n"] == 80000


def test_same_seed_same_output():
    a = run("bid-chart", "cinch", "--deals", "5000", "--by", "trumps,seat")
    b = run("bid-chart", "cinch", "--deals", "5000", "--by", "trumps,seat")
    assert a.exit_code == 0 and a.output == b.output


def test_bad_feature_is_one_line_exit_2(tmp_path):
    r = run("bid-chart", "pedro", "--by", "trumps,colour", "--out-dir", str(tmp_path / "x"))
    assert r.exit_code == 2
    assert "features:" in r.output and "Traceback" not in r.output
    assert not (tmp_path / "x").exists()


def test_match_prints_win_rates_and_writes_games(tmp_path):
    out = tmp_path / "games.parquet"
    r = run("match", "pedro", "--games", "2000", "--seed", "2", "--out", str(out))
    assert r.exit_code == 0, r.output
    assert "team 0 (seats 0, 2) wins" in r.output and "deals per game" in r.output
    df = pd.read_parquet(out)
    assert len(df) == 2000 and set(df["winner"]) <= {-1, 0, 1}


def test_games_that_all_last_alike_are_not_said_to_last_exactly_that():
    """`match "pedro(target=1)"` read "deals per game: 1.000 ± 0.000": every game of the run
    lasted one deal, which bounds the games it may have missed by 1 to --max-deals deals."""
    from analyzer.stats import unseen_share

    r = run("match", "pedro(target=1)", "--games", "200", "--max-deals", "50", "--json")
    assert r.exit_code == 0, r.stderr
    length = json.loads(r.stdout)["deals_per_game"]
    assert length["mean"] == length["lo"] == 1
    assert length["hi"] == pytest.approx(1 + 49 * unseen_share(200))


def test_match_bad_rule_is_exit_2(tmp_path):
    r = run("match", "pedro", "--rule", "target=0", "--out", str(tmp_path / "g.parquet"))
    assert r.exit_code == 2 and "Traceback" not in r.output
    assert not (tmp_path / "g.parquet").exists()


def test_unwritable_out_dir_fails_before_the_work(tmp_path):
    """A folder that cannot be made (a file in its path) is refused before simulating:
    nothing printed, nothing created; ladder shares the check."""
    (tmp_path / "afile").write_text("keep")
    for args in (("bid-chart", "pedro", "--deals", "1000"), ("ladder", "pedro", "--deals", "5")):
        r = run(*args, "--out-dir", str(tmp_path / "afile" / "chart"))
        assert r.exit_code == 2, r.output
        lines = r.output.strip().splitlines()
        assert len(lines) == 1 and "not a directory" in lines[0], r.output
    assert (tmp_path / "afile").read_text() == "keep"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["afile"]


def test_a_two_level_chart_says_its_estimator_and_refuses_what_it_cannot_do(tmp_path):
    from cli_helpers import assert_bad_input
    from cli_helpers import run as run_cli

    args = ("bid-chart", "pedro", "--policy", "dd", "--base", "heuristic", "--deals", "20",
            "--base-deals", "2000", "--by", "trumps,seat")
    r = run(*args)
    assert r.exit_code == 0, r.output
    assert "estimator: two-level" in r.output
    doc = json.loads(run(*args, "--json").output)
    assert doc["provenance"]["n_base"] == 2000 and doc["provenance"]["n_search"] == 20
    assert_bad_input(run_cli("bid-chart", "king", "--base", "heuristic", "--policy", "random",
                             "--deals", "10", "--run-dir", str(tmp_path / "run")), "--base")
    assert_bad_input(run_cli(*args, "--executor", "dask-local", "--base-deals", "10"),
                     "--base-deals")
    assert_bad_input(run_cli("bid-chart", "pedro", "--base-deals", "10"), "--base")
    assert_bad_input(run_cli("bid-chart", "king", "--base", "heuristic", "--policy", "random",
                             "--deals", "10"), "--base")
    assert_bad_input(run_cli("bid-chart", "pedro", "--base", "heuristic", "--policy", "random",
                             "--deals", "50", "--base-deals", "100"), "names trump")
    assert_bad_input(run_cli("bid-chart", "pedro", "--budget", "3"), "--base")
    assert_bad_input(run_cli(*args, "--budget", "3"), "--deals")


def test_the_heatmap_shows_gains_under_a_point_beside_gains_of_twenty_five():
    """The gains under a point decide most advice; on a linear ±25 scale they washed out
    to white (a reader's review). Within ±1 the scale is linear, beyond it logarithmic, and
    the colour bar's ticks are plain numbers."""
    import pandas as pd

    from analyzer.plotting import bid_heatmap

    table = pd.DataFrame([{"label": c, "action": a, "bid": b, "gain": g}
                          for c, gains in (("strong", (0.0, 25.0)), ("weak", (0.0, 0.3)))
                          for (a, b), g in zip((("pass", 0), ("bid 6", 6)), gains,
                                               strict=True)])
    classes = pd.DataFrame({"label": ["strong", "weak"], "n": [500, 500],
                            "recommended": ["bid 6", "bid 6"], "rare": [False, False]})
    fig = bid_heatmap(table, classes)
    image = fig.axes[0].images[0]
    shade = image.norm(0.3) - image.norm(0.0)
    assert shade > 0.05, shade  # linear over ±25 it was 0.006
    ticks = [t.get_text() for t in fig.axes[1].get_yticklabels()]
    assert "0" in ticks and "+1" in ticks and "+20" in ticks and "-0.5" in ticks


def test_a_chart_by_seat_draws_a_panel_a_seat_with_labels_it_can_read():
    """116 classes of four seats in one column had labels of 6 points (a reader's review):
    a panel a seat now, each label without the seat its panel's title names, and every
    class in its own seat's panel once."""
    import pandas as pd

    from analyzer.plotting import bid_heatmap

    seats = ("dealer", "eldest", "second", "third")
    classes = pd.DataFrame([{"label": f"trumps={t}, seat={s}", "seat": s, "n": 500,
                             "recommended": "bid 6" if t > 3 else "pass", "rare": False}
                            for s in seats for t in (2, 3, 4, 5)])
    table = pd.DataFrame([{"label": c, "action": a, "bid": b, "gain": 0.5 * b}
                          for c in classes["label"] for a, b in (("pass", 0), ("bid 6", 6))])
    fig = bid_heatmap(table, classes)
    panels = [ax for ax in fig.axes if ax.images]
    assert [ax.get_title() for ax in panels] == [f"seat {s}" for s in seats]
    for ax in panels:
        labels = [t.get_text() for t in ax.get_yticklabels()]
        assert labels == [f"trumps={t}  (n=500)" for t in (2, 3, 4, 5)]
        assert all(t.get_fontsize() >= 8 for t in ax.get_yticklabels())
    one = bid_heatmap(table[table["label"].str.endswith("dealer")],
                      classes[classes["seat"] == "dealer"])
    alone, = [ax for ax in one.axes if ax.images]  # one seat: no panels, the seat in labels
    assert alone.get_title() == "" and "seat=dealer" in alone.get_yticklabels()[0].get_text()
