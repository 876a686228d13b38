"""``bidlab report``: the quick report of every game, whole and reproducible.

Each game's quick scenario (simulations/quick-*.toml) is built once per test session into
a temporary folder; the tests check that every section it asks for is on the page and in
the Markdown, that every figure exists as PNG and SVG and is shown, that the manifest's
hashes are the files', that pandas reads every CSV with its real columns, and that a
second build of the same scenario writes the same data bytes.
"""

from __future__ import annotations

import hashlib
import html
import json
import re
import shlex
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from cli_helpers import run

from analyzer.report.scenario import SECTIONS, load_scenario

ROOT = Path(__file__).resolve().parents[1]
SIMULATIONS = ROOT / "simulations"
QUICK = ["quick-pedro", "quick-cinch", "quick-rook", "quick-king"]
PART_KEYS = {"bids": "bids", "seats": "seats", "bid_chart": "bid-chart", "hands": "hands",
             "variants": "variants", "ladder": "ladder", "games": "games"}


@pytest.fixture(scope="module", params=QUICK)
def built(request, tmp_path_factory):
    """(scenario, report folder) of one quick scenario, built in-process."""
    name = request.param
    out = tmp_path_factory.mktemp(name) / "report"
    r = run("report", str(SIMULATIONS / f"{name}.toml"), "--out", str(out), "--no-progress")
    assert r.exit_code == 0, r.stderr
    return load_scenario(SIMULATIONS / f"{name}.toml"), out


def test_every_section_is_on_the_page_and_in_the_markdown(built):
    s, out = built
    page = (out / "index.html").read_text()
    md = (out / "report.md").read_text()
    assert s.wanted(), "a quick scenario asks for sections"
    for name in ["rules", *s.wanted()]:
        key = PART_KEYS.get(name, name)
        assert f'<section id="{key}">' in page, key
        assert f'<a id="{key}"></a>' in md, key
    for required in ("bids", "seats", "bid_chart", "hands", "variants", "ladder", "games"):
        if required != "bids" or s.rules.game != "king":  # King has no bids to level
            assert required in s.sections, f"{s.name} lacks [{required}]"
    assert 'id="bid-guide"' in page
    findings = re.search(r'<section id="findings">.*?</section>', page).group(0)
    assert findings.count("<li>") >= 4 and "## Key findings" in md  # rules, seats, ...
    manifest = json.loads((out / "manifest.json").read_text())
    assert [p["key"] for p in manifest["sections"]] == ["rules", *[PART_KEYS[n] for n in
                                                                  s.wanted()]]
    for part in manifest["sections"][1:]:
        assert part["n"] > 0 and part["seed"] == s.seed and part["rules"] and part["policy"]
        assert part["seconds"] >= 0


def test_each_text_block_is_what_the_command_above_it_prints(built):
    """The text blocks are the commands' own output, naming their --json, --csv and
    violations.csv: the report says which command (a reader can run it) and where it keeps
    those tables."""
    s, out = built
    md = (out / "report.md").read_text()
    blocks = re.findall(r"^As `(.+?)` prints it; (.+?)\.\n\n```\n(.*?)\n```$", md,
                        flags=re.M | re.S)
    assert len(blocks) == 1 + len(s.section("hands")["cards"])  # the chart, each hand
    page = (out / "index.html").read_text()
    for command, note, text in blocks:
        words = shlex.split(command)
        r = run(*words[1:])
        assert (words[0], r.exit_code) == ("bidlab", 0), r.stderr
        assert r.stdout.rstrip("\n") == text
        assert f"<code>{html.escape(command)}</code>" in page
        for files in re.findall(r"data/\S+\*\.csv", note):
            assert list(out.glob(files)), files


def test_the_bid_guide_says_what_its_classes_and_gains_mean(built):
    """Every guide defines the words of its hand classes (King's, the auction's benefited
    too); Pedro and Rook guides say what a gain assumes; Cinch's (method 2, the difference
    to the side with more) says its net is method 1's."""
    s, out = built
    md = (out / "report.md").read_text()
    guide = md[md.index('<a id="bid-chart"></a>'):]
    guide = guide[:guide.index("<sub>n = ")]
    legend = next(line for line in guide.splitlines() if "Hand classes: " in line)
    outside = guide.replace(legend, "")
    for name in set(re.findall(r"\b([a-z_]{2,})=(?!\")", outside)):  # each class feature
        assert f"{name} (" in legend or f"{name} / no {name}" in legend, name
    if s.rules.game == "king":  # its tables speak of the auction's benefited
        assert "benefited" in outside and legend.startswith("The benefited: ")
        assert "best reply" not in guide
        return
    assert "Hand classes: trumps (" in guide and "not the chance of winning the game" in guide
    same_net = s.rules.game == "cinch" and s.rules.m2_diff_to == "side_with_more"
    assert ("the method changes who writes the points down" in guide) == same_net


def test_the_guide_headline_in_the_findings_is_read_off_the_guide_written(built):
    """The game's guide headline (its chart view's) says what the guide's data file holds."""
    from analyzer.bidchart_view import guide_headline
    from analyzer.games.king.chart_view import right_headline

    s, out = built
    md = (out / "report.md").read_text()
    if s.rules.game == "king":
        said = right_headline(pd.read_csv(out / "data" / "bid-chart-trump_right.csv"),
                              "longest")
    else:
        said = guide_headline(pd.read_csv(out / "data" / "bid-chart-guide.csv"))
    assert said, "a quick scenario's guide has a headline"
    for sentence in said:
        assert f"- {sentence} ([The bid guide](#bid-chart))" in md


def test_a_rule_changes_verdicts_are_starred_where_they_hold_for_the_family(built):
    """Each comparison's verdicts: a star where the change stays beyond the noise with the
    95% shared by all its measures, as its data says, and a caption that counts them."""
    s, out = built
    md = (out / "report.md").read_text()
    section = md[md.index('<a id="variants"></a>'):]
    section = section[:section.index("<sub>n = ")]
    data = pd.read_csv(out / "data" / "variants-comparisons.csv")
    stars = section.count("B higher*") + section.count("B lower*")
    assert stars == int(data["beyond_family"].sum())
    assert section.count("(Bonferroni, marked *)") == data["comparison"].nunique()


def test_a_footer_of_several_runs_names_each_runs_n():
    """No estimate of a section of three hands has their summed n: its footer gives each."""
    from analyzer.report.render import _provenance_line

    p = {"n": 150_000, "unit": "deals", "seed": 1, "policy": "heuristic", "rules": "pedro",
         "seconds": 2.0}
    assert _provenance_line(p).startswith("n = 150,000 deals, seed 1")
    assert _provenance_line({**p, "n_each": [50_000] * 3, "of": "hand"}).startswith(
        "n = 3 hands × 50,000 deals each, seed 1")
    assert _provenance_line({**p, "n_each": [100_000, 50_000], "of": "comparison"}).startswith(
        "n = 100,000 + 50,000 deals (one comparison each), seed 1")
    assert _provenance_line({**p, "n_each": [150_000], "of": "hand"}).startswith(
        "n = 150,000 deals, seed 1")


def test_every_figure_exists_twice_and_is_shown(built):
    _, out = built
    page = (out / "index.html").read_text()
    md = (out / "report.md").read_text()
    pngs = sorted((out / "figures").glob("*.png"))
    assert len(pngs) >= 5
    shown_md = set(re.findall(r"\(figures/([^)]+\.png)\)", md))
    shown_svg = set(re.findall(r'href="figures/([^"]+\.svg)"', page))
    assert shown_md == {p.name for p in pngs}
    assert shown_svg == {p.with_suffix(".svg").name for p in pngs}
    for p in pngs:
        assert p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert p.with_suffix(".svg").read_text().lstrip().startswith("<?xml")
    assert page.count('src="data:image/png;base64,') == len(pngs)  # embedded: no network
    captions = re.findall(r"!\[([^\]]*)\]\(figures/", md)
    assert all(c.endswith(".") and " " in c for c in captions), captions  # a sentence each


def test_the_manifest_hashes_are_the_files(built):
    s, out = built
    manifest = json.loads((out / "manifest.json").read_text())
    data = sorted(p.relative_to(out).as_posix() for p in (out / "data").iterdir())
    assert sorted(manifest["data"]) == data and data
    for name, digest in manifest["files"].items():
        assert hashlib.sha256((out / name).read_bytes()).hexdigest() == digest, name
    assert set(manifest["data"]) <= set(manifest["files"])
    assert manifest["scenario"]["sha256"] == hashlib.sha256(
        (SIMULATIONS / f"{s.name}.toml").read_bytes()).hexdigest()
    for key in ("bidlab_version", "python", "numpy", "numba", "pandas", "cpu", "threads",
                "command", "git_commit"):
        assert key in manifest, key
    assert manifest["command"] == f"bidlab report {s.path} --out {out}"


def test_every_csv_reads_with_its_real_columns(built):
    _, out = built
    csvs = sorted((out / "data").glob("*.csv"))
    assert csvs
    for csv in csvs:
        frame = pd.read_csv(csv)
        parquet = pd.read_parquet(csv.with_suffix(".parquet"))
        assert list(frame.columns) == list(parquet.columns), csv.name
        assert len(frame) == len(parquet), csv.name
        assert not any(str(c).startswith(("#", "Unnamed")) for c in frame.columns), csv.name


def test_a_second_build_writes_the_same_data(built, tmp_path):
    """The sections run again and write their data files (the figures and pages, which
    the data do not depend on, are not drawn a second time: two thirds of a quick build)."""
    from analyzer.report import build

    s, out = built
    (tmp_path / "data").mkdir()
    for part in build.run_sections(s, lambda line: None):
        build._write_data(part, tmp_path / "data")
    first = json.loads((out / "manifest.json").read_text())["data"]
    second = {f"data/{p.name}": hashlib.sha256(p.read_bytes()).hexdigest()
              for p in (tmp_path / "data").iterdir()}
    assert first == second


def test_the_default_folder_is_reports_slash_the_scenario_name(tmp_path, monkeypatch):
    scenario = tmp_path / "tiny-study.toml"
    scenario.write_text('game = "pedro"\n[bids]\ndeals = 500\n')
    monkeypatch.chdir(tmp_path)
    (tmp_path / "reports").mkdir()
    r = run("report", str(scenario), "--no-progress")
    assert r.exit_code == 0, r.stderr
    assert (tmp_path / "reports" / "tiny-study" / "index.html").is_file()
    assert r.stdout.strip() == "reports/tiny-study/index.html"
    assert "[1/1] make rate and EV by bid level" in r.stderr  # progress per section


def test_every_shipped_scenario_is_valid_and_quick_ones_mirror_the_full_ones():
    files = sorted(SIMULATIONS.glob("*.toml"))
    names = {f.stem for f in files}
    for required in ("pedro", "cinch", "rook", "king", "cinch-min-bid", "king-first-lead",
                     *QUICK):
        assert required in names
    for f in files:
        load_scenario(f)
    for q in QUICK:
        full, quick = load_scenario(SIMULATIONS / f"{q[6:]}.toml"), load_scenario(
            SIMULATIONS / f"{q}.toml")
        assert full.wanted() == quick.wanted(), q
        assert str(full.rules) == str(quick.rules)


def test_the_schema_is_documented_key_by_key():
    """simulations/README.md carries every key of every section, its type, default and
    --quick size, exactly as the schema the files are checked against."""
    from analyzer.report.scenario import schema_markdown

    doc = (SIMULATIONS / "README.md").read_text()
    block = doc.split("-->\n", 1)[1].split("<!-- /schema -->")[0]
    assert block == schema_markdown()
    for name in SECTIONS:
        assert f"`[{name}]`" in block or f"`[[{name}]]`" in block


def test_the_readme_example_scenario_is_valid():
    from analyzer.report.scenario import parse_scenario

    doc = (SIMULATIONS / "README.md").read_text()
    examples = re.findall(r"```toml\n(.*?)```", doc, re.S)
    assert examples
    for text in examples:
        s = parse_scenario(text, "README.toml")
        assert s.wanted()


# ---- the page in a real browser -------------------------------------------------------------

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync"]


def chromium_path() -> str:
    """The system's Chromium (Debian's package: .ci/run installs it); skip with the reason
    where there is none, or no Playwright to drive it."""
    import shutil

    pytest.importorskip("playwright.sync_api", reason="playwright is not installed "
                        "(pip install -e '.[dev]')")
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    pytest.skip("no Chromium on this machine (apt-get install chromium; .ci/run does)")


def test_the_page_loads_in_a_real_browser_with_every_image_and_the_guide(built, tmp_path):
    from playwright.sync_api import sync_playwright

    executable = chromium_path()
    _, out = built
    errors = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        try:
            for viewport in ({"width": 1280, "height": 900}, {"width": 390, "height": 844}):
                page = browser.new_page(viewport=viewport)
                page.on("console", lambda m: errors.append(m.text) if m.type == "error"
                        else None)
                page.on("pageerror", lambda e: errors.append(str(e)))
                page.on("request", lambda r: errors.append(f"network: {r.url}")
                        if not r.url.startswith(("file:", "data:")) else None)
                page.goto((out / "index.html").as_uri(), wait_until="load")
                broken = page.evaluate("Array.from(document.images).filter("
                                       "i => !i.complete || i.naturalWidth === 0).length")
                assert broken == 0
                assert page.evaluate("document.images.length") >= 5
                guide = page.locator("#bid-guide table")
                guide.scroll_into_view_if_needed()
                assert guide.is_visible()
                assert guide.locator("tbody tr").count() >= 1
                # every link within the page (the contents, the key findings) has a target
                assert page.evaluate("Array.from(document.querySelectorAll('a[href^=\"#\"]'))"
                                     ".filter(a => !document.getElementById("
                                     "a.getAttribute('href').slice(1))).length") == 0
                assert page.locator("#findings li").count() >= 4
                # nothing but the scroll boxes is wider than a phone's screen
                assert page.evaluate("document.documentElement.scrollWidth "
                                     "<= window.innerWidth + 1")
                page.emulate_media(media="print")
                assert not page.locator("nav").is_visible()
                page.close()
        finally:
            browser.close()
    assert errors == []


# ---- sections on small inputs: what their sentences and tables say -------------------------


def _texts(part) -> list[str]:
    return [b.text for b in part.blocks if b.kind == "text"]


def _shown(part, name: str) -> pd.DataFrame:
    return next(b.frame for b in part.blocks if b.kind == "table" and b.name == name)


def _dealer_sentence(monkeypatch, advantage: float, lo: float, hi: float) -> str:
    """The seats section's sentence on the dealer's team, for a dealer's edge of
    ``advantage`` [lo, hi] points a deal (the other positions even)."""
    from types import SimpleNamespace

    from analyzer.report import sections
    from analyzer.report.scenario import parse_scenario

    rows = [{"position": p, "share": 0.25, "share_lo": 0.2, "share_hi": 0.3, "make_rate": 0.6,
             "make_lo": 0.5, "make_hi": 0.7, "advantage": 0.0, "advantage_lo": -0.1,
             "advantage_hi": 0.1} for p in ("eldest", "second", "third", "dealer")]
    rows[-1].update(advantage=advantage, advantage_lo=lo, advantage_hi=hi)
    stub = SimpleNamespace(seat_positions=lambda df, rules: pd.DataFrame(rows),
                           maker_verb="names trump")
    monkeypatch.setattr(sections, "game_of", lambda rules: stub)
    s = parse_scenario('game = "pedro"\n[seats]\ndeals = 100\n', "seats.toml")
    cache = {100: (pd.DataFrame({"deal": range(100)}), SimpleNamespace(unit="deals"))}
    part = sections.seats_part(s, s.section("seats"), cache, None)
    return next(t for t in _texts(part) if t.startswith("The dealer's team"))


def test_the_dealers_edge_reads_gains_or_loses_by_the_sign_of_its_interval(monkeypatch):
    """A dealer's team ahead beyond the noise "gains" its edge; behind, it "loses" the edge's
    size (a positive number); an interval holding 0 shows no difference."""
    gains = _dealer_sentence(monkeypatch, 0.5, 0.2, 0.8)
    assert gains.startswith("The dealer's team gains 0.50 [0.20, 0.80] in score a deal "
                            "over the other team, beyond the noise."), gains
    assert "the settlement (bids made and set, by the rules' scoring), not the card points" \
        in gains  # a strategy writer read the edge as card points
    loses = _dealer_sentence(monkeypatch, -0.5, -0.8, -0.2)
    assert loses.startswith("The dealer's team loses 0.50 [0.20, 0.80] in score a deal to "
                            "the other team, beyond the noise."), loses
    even = _dealer_sentence(monkeypatch, 0.1, -0.2, 0.4)
    assert even.startswith("The dealer's team shows no difference beyond the noise"), even
    assert "gains" not in even and "loses" not in even


def test_only_seats_whose_interval_for_all_excludes_zero_are_named_beyond_the_noise():
    """The 95% is held for the four positions together; an interval that touches 0 (lo = 0
    or hi = 0) holds 0: that seat is not named; one beyond the noise alone (1.96 se) but
    not for all four (2.50 se) is not either."""
    from analyzer.advice import ladder_z
    from analyzer.report.sections import _uneven_seats

    def sides(*rows):  # (side, mean, half-width for all four together), games past counting
        return pd.DataFrame([(s, m, hw / ladder_z(4), 10**12) for s, m, hw in rows],
                            columns=["side", "score", "score_se", "n"])

    mixed = sides(("dealer", 3.0, 2.0), ("eldest", -2.0, 1.5), ("second", 0.5, 0.5),
                  ("third", -0.5, 0.5))
    assert _uneven_seats(mixed) == ("Beyond the noise (95% for the 4 positions together), per "
                                    "game: dealer gains +3.0 [+1.0, +5.0]; eldest loses 2.0 "
                                    "[0.5, 3.5] points; any other position's interval holds 0.")
    alone = sides(("dealer", 1.0, 0.45 * ladder_z(4)), ("eldest", -0.2, 0.5),
                  ("second", 0.2, 0.5), ("third", -0.2, 0.5))
    assert 1.0 - 1.96 * 0.45 > 0  # beyond the noise at 95% alone
    assert _uneven_seats(alone).startswith("No position ends a game ahead or behind beyond "
                                           "the noise (95% for the 4 positions together")


def test_four_even_seats_are_called_uneven_at_most_one_run_in_twenty():
    """Four seats of equal strength (exchangeable scores summing to 0): each tested at 95%
    alone, some seat was called ahead or behind in 17% of runs."""
    from analyzer.games.standings import whole_games
    from analyzer.report.sections import _uneven_seats

    runs, games = 600, 300
    rng = np.random.default_rng(8)
    called = 0
    for _ in range(runs):
        scores = rng.normal(0, 100, (games, 4))
        scores -= scores.mean(axis=1, keepdims=True)
        sides, _ = whole_games(np.argmax(scores, axis=1), np.full(games, 10), scores,
                               ("a", "b", "c", "d"))
        called += not _uneven_seats(sides).startswith("No position")
    assert called / runs <= 0.05 + 3 * np.sqrt(0.05 * 0.95 / runs), called / runs


def test_a_win_rate_stays_within_0_and_1():
    """Wins are a rate: Wilson's interval, as every rate (a normal one read 2.5% [-2.4%,
    7.4%] for 1 win in 40, and 0% [0%, 0%] for none)."""
    from analyzer.games.standings import whole_games
    from analyzer.stats import wilson

    winner = np.array([0] * 1 + [1] * 10 + [2] * 14 + [3] * 15)
    scores = np.eye(4)[winner] * 100
    sides, _ = whole_games(winner, np.full(40, 10), scores, ("a", "b", "c", "d"))
    first = sides.iloc[0]
    assert (first["win"], first["win_lo"], first["win_hi"]) == (
        wilson(1, 40).p, wilson(1, 40).lo, wilson(1, 40).hi)
    assert (sides["win_lo"] >= 0).all() and (sides["win_hi"] <= 1).all()
    assert abs(sides["win"].sum() - 1) < 1e-12 and sides["wins"].sum() == 40
    # a game cut off undecided counts in neither the wins nor the final score: the score's
    # mean stood beside "games 40" over 41 games
    cut = whole_games(np.r_[winner, -1], np.full(41, 10), np.vstack([scores, [9999] * 4]),
                      ("a", "b", "c", "d"))[0]
    pd.testing.assert_frame_equal(cut, sides)


def test_the_ladder_measures_every_rung_against_its_first():
    """The first rung (the weakest) is the baseline: its row says so, and the others are
    compared with it, in the rungs table and by bid level."""
    from analyzer.report import sections
    from analyzer.report.scenario import parse_scenario

    s = parse_scenario('game = "pedro"\n[ladder]\ndeals = 200\nrungs = ["random", '
                       '"heuristic"]\n', "ladder.toml")
    part = sections.ladder_part(s, s.section("ladder"), None)
    rungs = _shown(part, "rungs")
    assert list(rungs["card player"]) == ["random", "heuristic"]
    assert rungs["verdict"].iloc[0] == "baseline" and rungs["verdict"].iloc[1] != "baseline"
    assert "vs random [paired 95% CI]" in rungs.columns
    assert list(_shown(part, "by_bid").columns) == ["bid", "n", "heuristic − random"]
    summary = part.tables["rungs"].set_index("rung")
    assert summary.loc["random", "diff"] == 0 and summary.loc["heuristic", "diff"] > 0


def test_the_rules_table_marks_each_flag_that_differs_from_the_preset():
    from analyzer.report.scenario import parse_scenario
    from analyzer.report.sections import rules_part

    part = rules_part(parse_scenario('game = "pedro(min_bid=7)"\n[bids]\n', "r.toml"))
    assert ("These flags differ from the preset pedro: min_bid = 7 (default 1)."
            in _texts(part))
    data = part.tables["flags"].set_index("flag")
    assert data["changed"].tolist().count(True) == 1 and data.loc["min_bid", "changed"]
    shown = _shown(part, "flags").set_index("flag")
    assert shown.loc["min_bid", "value"] == "7 *" and shown.loc["min_bid", "default"] == "1"
    assert not shown.drop(index="min_bid")["value"].str.endswith(" *").any()
    plain = rules_part(parse_scenario('game = "pedro"\n[bids]\n', "r.toml"))
    assert ("The preset pedro as it stands: no flag differs from its default."
            in _texts(plain))
    assert not _shown(plain, "flags")["value"].str.endswith(" *").any()


def test_a_table_an_earlier_section_shows_is_shown_once_and_pointed_to():
    """King's whole games are its seat positions' games: the page showed the same table
    twice. A repeat now points to the first; its numbers stay in the section's data."""
    from analyzer.report import render
    from analyzer.report.build import shown_once
    from analyzer.report.parts import Part

    data = pd.DataFrame({"side": ["first dealer"], "win": [0.254]})
    shown = pd.DataFrame({"side": ["first dealer"], "wins": ["25.4%"]})
    seats, games, other = (Part(k, f"Section {k}", "what it assumes")
                           for k in ("seats", "games", "other"))
    seats.table("positions", data, shown, "By seat position.")
    games.table("sides", data, shown.copy(), "Win rate by side. Seats tied share a win.")
    other.table("t", data, shown.assign(wins="25.5%"), "Another table.")
    shown_once([seats, games, other])
    assert [b.kind for b in seats.blocks + games.blocks + other.blocks] == [
        "table", "see", "table"]
    assert list(games.tables) == ["sides"]
    md = render.to_markdown("T", [], [seats, games, other])
    assert ("Win rate by side: the same numbers as the table of [Section seats](#seats)."
            in md)
    page = render.to_html("T", [], [seats, games, other], figures=None)
    assert ('<p>Win rate by side: the same numbers as the table of <a href="#seats">Section '
            'seats</a>.</p>') in page


def test_a_table_repeating_any_earlier_one_is_pointed_to_not_only_the_first():
    """A repeat is looked up among every table shown before it, not only the first."""
    from analyzer.report.build import shown_once
    from analyzer.report.parts import Part

    first = pd.DataFrame({"side": ["first dealer"], "wins": ["25.4%"]})
    second = pd.DataFrame({"length": ["9 deals"], "games": ["200"]})
    seats, games = (Part(k, f"Section {k}", "what it assumes") for k in ("seats", "games"))
    seats.table("positions", first, first, "By seat position.")
    seats.table("lengths", second, second, "How long a game lasts.")
    games.table("lengths", second, second.copy(), "Game lengths. In deals.")
    shown_once([seats, games])
    (pointer,) = games.blocks
    assert (pointer.kind, pointer.text, pointer.anchor) == (
        "see", "Game lengths: the same numbers as the table of", "seats")


def test_kings_whole_games_point_to_the_seat_table_in_a_built_report(tmp_path):
    """King's [seats] and [games] of one size and seed play the same games: the built report
    shows their table once, the whole games pointing to the seats' (``build_report`` runs
    ``shown_once``), and data/ keeps the numbers under both sections."""
    scenario = tmp_path / "king.toml"
    scenario.write_text('game = "king"\nseed = 1\n[seats]\ndeals = 200\n[games]\n'
                        'games = 200\n')
    out = tmp_path / "report"
    r = run("report", str(scenario), "--out", str(out), "--no-progress")
    assert r.exit_code == 0, r.stderr
    md = (out / "report.md").read_text()
    games = md[md.index('<a id="games"></a>'):]
    assert ("the same numbers as the table of [Dealer and seat-position advantage](#seats)."
            in games)
    assert "| side |" in md and "| side |" not in games
    assert (out / "data" / "seats-positions.csv").exists()
    assert (out / "data" / "games-sides.csv").exists()


def test_a_rule_change_on_too_few_deals_is_called_by_no_part_of_the_report(tmp_path):
    """On 12 deals no interval is an interval (advice needs 30): the table, its caption and
    the key findings all say so, as `bidlab compare` does; the table said "B lower" where
    the caption counted none."""
    scenario = tmp_path / "s.toml"
    # (a variant whose 12 deals show some measure clear of zero: a minimum bid of 6 does,
    # in the bid and the deals without a contract; low_to=holder did until the players
    # acted on that flag)
    scenario.write_text('game = "pedro"\n[[variants]]\nb = "pedro(min_bid=6)"\n'
                        'deals = 12\n')
    r = run("report", str(scenario), "--out", str(tmp_path / "rep"), "--no-progress")
    assert r.exit_code == 0, r.stderr
    md = (tmp_path / "rep" / "report.md").read_text()
    section = md[md.index('<a id="variants"></a>'):]
    data = pd.read_csv(tmp_path / "rep" / "data" / "variants-comparisons.csv")
    outside = data[(data["diff_lo"] > 0) | (data["diff_hi"] < 0)]
    assert len(outside) and not data["beyond_noise"].any()  # clear of zero, on 12 deals
    assert "B higher" not in section and "B lower" not in section
    assert section.count("too few deals to tell (12 paired)") == len(outside)
    assert "0 do, 0 of them" in section
    assert f"no measure of the {len(data)} moves beyond the noise" in md[:md.index("1. [")]


def test_a_measure_equal_on_every_deal_is_said_so_not_drawn_as_a_wide_bar():
    """The rule-change figure drew B − A = 0 on every deal as a full-width bar on its own
    ±0.00003 scale (read as uncertain as a real effect), its tick labels run together."""
    from analyzer.report import figures

    table = pd.DataFrame({"measure": ["points", "dead points"], "b_minus_a": [0.1, 0.0],
                          "diff_lo": [0.05, -2.7e-5], "diff_hi": [0.15, 2.7e-5],
                          "n_differ": [40, 0]})
    fig = figures.paired_effects(table, "a rule", "deal")
    moved, same = fig.axes
    low, high = moved.get_xlim()
    assert len(moved.containers) == 1
    assert len([x for x in moved.get_xticks() if low <= x <= high]) <= 6
    assert not same.containers and len(same.get_xticks()) == 0
    assert "identical on every deal (B − A within ±3e-05)" in [t.get_text() for t in same.texts]


def test_a_game_length_cut_off_at_the_cap_is_said_to_be_a_lower_bound(tmp_path):
    """Games undecided at the cap count the cap's deals: their mean length is a lower
    bound, which the sentence now says beside the count."""
    scenario = tmp_path / "capped.toml"
    scenario.write_text('game = "pedro"\n[games]\ngames = 40\nmax_deals = 8\n')
    r = run("report", str(scenario), "--out", str(tmp_path / "rep"), "--no-progress")
    assert r.exit_code == 0, r.stderr
    md = (tmp_path / "rep" / "report.md").read_text()
    said = next(line for line in md.splitlines() if line.startswith("A game lasts"))
    assert "were undecided at the cap (counted at the cap, so the mean is a lower bound)" \
        in said, said
