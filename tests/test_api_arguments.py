"""The notebook API refuses arguments of the wrong kind in one ValueError that names the
problem and what it takes, as the command line does; it does not pass them on to fail deep
inside (an AttributeError of pandas, a numba TypingError) or ignore them.

Found by a review from a notebook: each case below failed so before.
"""

import re

import pytest
from cli_helpers import run

import analyzer

PEDRO = "AS KS 5S 5C 2S 9H 3D JC 7H"
KING = "AH KH QH JH 2C 3C 4C 5D 6D 7D 8S 9S TS"
POSITION = "AS KS/QS JS/5S 4S/3S 2S"


@pytest.mark.parametrize("call, expected", [
    (lambda: analyzer.evaluate_hand(None, PEDRO), "a game is a preset name"),
    (lambda: analyzer.bid_chart(1, deals=100), "got 1"),
    (lambda: analyzer.compare_variants("pedro", None, deals=100), "got None"),
    (lambda: analyzer.evaluate_hand("pedro", PEDRO, known="AH", deals=100),
     "known cards are a mapping of seat to cards"),
    (lambda: analyzer.evaluate_hand("pedro", PEDRO, known={"second": ["AH"]}, deals=100),
     "known cards of second are a string such as \"AH KH\"; got ['AH']"),
    (lambda: analyzer.evaluate_hand("pedro", PEDRO, policy=None, deals=100), "a policy is"),
    (lambda: analyzer.evaluate_hand("king", KING, contract=3, deals=100), "a contract is"),
    (lambda: analyzer.bid_chart("pedro", deals=100, by=3), "bad chart feature(s) '3'"),
    (lambda: analyzer.evaluate_hand("pedro", PEDRO, contract="no-hearts", deals=100),
     "contract: only king"),
    (lambda: analyzer.evaluate_hand("rook", "AS KS QS JS 9S 5S JK AH KH 5D 2D 3C 4C",
                                    contract="positive", deals=100), "contract: only king"),
    (lambda: analyzer.solve("pedro", POSITION, trump="S", max_nodes="5"),
     "max_nodes must be a whole number"),
    (lambda: analyzer.solve("pedro", POSITION, trump="S", max_nodes=0),
     "max_nodes must be a whole number >= 1; got 0"),
    (lambda: analyzer.solve("pedro", None, trump="S"), "hands are"),
    (lambda: analyzer.evaluate_hand("pedro", PEDRO, deals=5000, max_deals=100),
     "max_deals applies to target_ci"),  # 5,000 deals were played, max_deals ignored
    (lambda: analyzer.evaluate_hand("pedro", PEDRO, deals=5000, target_ci=0.5),
     "deals is a fixed count"),
    # a size only a two-level run uses was ignored without a word (`bidlab hand
    # --base-deals` without --base, or --deals with --budget, is refused)
    (lambda: analyzer.evaluate_hand("pedro", PEDRO, deals=100, base_deals=3000),
     "base_deals is the deals of a two-level estimate's base policy"),
    (lambda: analyzer.bid_chart("pedro", deals=100, base_deals=300),
     "base_deals is the deals of a two-level estimate's base policy"),
    (lambda: analyzer.compare_variants("pedro", "cinch", deals=100, base_deals=300),
     "base_deals is the deals of a two-level estimate's base policy"),
    (lambda: analyzer.evaluate_hand("pedro", PEDRO, policy="pimc:2", base="heuristic",
                                    budget=0.5, deals=30), "a budget chooses the deals"),
    (lambda: analyzer.bid_chart("pedro", policy="pimc:2", base="heuristic", budget=0.5,
                                deals=30), "a budget chooses the deals"),
    (lambda: analyzer.compare_variants("pedro", "cinch", policy="pimc:2", base="heuristic",
                                       budget=0.5, deals=30), "a budget chooses the deals"),
])
def test_a_wrong_argument_is_one_value_error_naming_it(call, expected):
    with pytest.raises(ValueError) as e:
        call()
    assert expected in str(e.value), str(e.value)


def test_a_size_given_as_none_is_the_default_as_elsewhere():
    """bid_chart and compare_variants took deals=None as their default; evaluate_hand
    raised a TypeError."""
    given = analyzer.evaluate_hand("pedro", PEDRO, deals=None)
    assert given.points.equals(analyzer.evaluate_hand("pedro", PEDRO).points)


@pytest.mark.parametrize("name", ["pedro", "rook", "king"])
def test_a_game_s_simulate_defaults_to_the_command_line_s_seed(name):
    """pedro.simulate(rules, n) played seed 0, every other entry point seed 1: its rows were
    not those of `bidlab simulate pedro --deals n`."""
    import json

    from analyzer.games import family

    cli = json.loads(run("simulate", name, "--deals", "10", "--json").stdout)["provenance"]
    module = family(name)
    assert module.simulate(module.PRESETS[name], 10).attrs["seed"] == cli["seed"] == 1
    if hasattr(module, "simulate_games"):
        games = module.simulate_games(module.PRESETS[name], 2)
        assert games.attrs["seed"] == 1


def test_the_api_functions_are_offered_by_completion():
    """dir(analyzer) listed only its helpers, so a notebook's Tab offered no evaluate_hand."""
    assert {"evaluate_hand", "bid_chart", "compare_variants", "solve"} <= set(dir(analyzer))
    # and the submodules the README reaches through ``analyzer.``, not the module's imports
    assert {"games", "plotting"} <= set(dir(analyzer))
    assert not {"importlib", "ensure_fresh_cache"} & set(dir(analyzer))


ROOK = "AS KS QS 10S 5S JK 9H 7H AD 3D 2C 4C 6C"


@pytest.mark.parametrize("game, hand, repr_start", [
    ("pedro", PEDRO, "<HandEvaluation: pedro, policy heuristic, seed 3, n=300; "),
    ("rook", ROOK, "<HandEvaluation: rook, policy heuristic, seed 3, n=300; "),
    ("king", KING, "<KingEvaluation: king, policy heuristic, seed 3, n=300; ")])
def test_a_hand_shows_in_a_notebook_as_the_command_line_prints_it(game, hand, repr_start):
    """At a notebook's prompt an evaluation shows its tables as ``bidlab hand`` prints them
    (the dataclass's repr printed every DataFrame cell by cell), and repr is one line."""
    ev = analyzer.evaluate_hand(game, hand, deals=300, seed=3)
    cli = run("hand", game, hand, "--deals", "300", "--seed", "3")
    assert cli.exit_code == 0, cli.stderr
    assert str(ev) == cli.stdout.rstrip("\n")
    assert repr(ev).startswith(repr_start) and "\n" not in repr(ev), repr(ev)
    shown = ev._repr_html_()
    assert shown.startswith("<pre>") and shown.endswith("</pre>")
    assert "&lt;" in shown or "<" not in str(ev)  # the text is escaped


def test_a_stop_rules_n_says_so_in_the_repr():
    """n set by a stop rule is not the n asked for: the one-line repr says which rule."""
    ev = analyzer.evaluate_hand("pedro", PEDRO, seed=3, target_ci=0.5)
    assert ev.stopped_by == "target-ci"
    assert f"n={ev.n:,} (stopped by target-ci); " in repr(ev), repr(ev)
    assert "stopped" not in repr(analyzer.evaluate_hand("pedro", PEDRO, deals=300, seed=3))


@pytest.mark.parametrize("game, repr_text", [
    ("pedro", "<BidChart: pedro, policy heuristic, seed 3, n=800 hands of 200 deals>"),
    ("king", "<KingChart: king, policy heuristic, seed 3, n=200>")])
def test_a_bid_chart_shows_in_a_notebook_as_the_command_line_prints_it(game, repr_text):
    chart = analyzer.bid_chart(game, deals=200, seed=3)
    cli = run("bid-chart", game, "--deals", "200", "--seed", "3")
    assert cli.exit_code == 0, cli.stderr
    assert str(chart) == cli.stdout.rstrip("\n")
    assert repr(chart) == repr_text
    assert chart._repr_html_().startswith("<pre>")


def test_a_comparison_shows_in_a_notebook_as_the_command_line_prints_it():
    change = analyzer.compare_variants("pedro", "pedro(low_to=holder)", deals=300, seed=3)
    cli = run("compare", "pedro", "pedro(low_to=holder)", "--deals", "300", "--seed", "3")
    assert cli.exit_code == 0, cli.stderr
    assert str(change) == cli.stdout.rstrip("\n")
    assert repr(change) == ("<Comparison: A pedro, B pedro(low_to=holder), policy heuristic, "
                            "seed 3, 300 deals>")
    assert change._repr_html_().startswith("<pre>A = pedro")


def test_a_ladder_shows_in_a_notebook_as_the_command_line_prints_it():
    from analyzer.ladder import ladder

    lad = ladder("pedro", 60, seed=3, rungs=("random", "heuristic"))
    cli = run("ladder", "pedro", "--deals", "60", "--seed", "3", "--rungs", "random,heuristic")
    assert cli.exit_code == 0, cli.stderr
    def timeless(text: str) -> str:  # each rung's seconds: two runs, two timings
        return re.sub(r"(?m)^(random|heuristic) (.*?)\s+\d+\.\d$", r"\1 \2", text)

    assert timeless(str(lad)) == timeless(cli.stdout.rstrip("\n"))
    assert "vs heuristic (paired)" in str(lad) and "by bid level" in str(lad)
    assert repr(lad) == ("<Ladder: pedro, rungs random,heuristic against heuristic, seed 3, "
                         "60 deals>")


@pytest.mark.parametrize("name", ["rook", "king"])
def test_a_ladder_counts_a_game_s_own_unit(name):
    """Rook and King play hands (King's of one contract); their ladders say so, as their
    simulations do, rather than Pedro's deals."""
    from analyzer.ladder import ladder

    lad = ladder(name, 30, seed=3, rungs=("random", "heuristic"))
    assert repr(lad).endswith(", 30 hands>")
    assert "  seed 3  hands 30  " in str(lad).splitlines()[0]


def test_a_ladders_make_rates_by_bid_carry_their_intervals():
    """Each P(make) of the by-bid table shows its Wilson interval (it showed the rate
    alone), the same interval its by_bid() frame holds."""
    from analyzer.ladder import ladder

    lad = ladder("rook", 60, seed=3, rungs=("random", "heuristic"))
    by_bid = lad.by_bid().iloc[0]
    text = str(lad).split("by bid level")[1]
    first_row = text.splitlines()[3]
    assert first_row.startswith(f"{by_bid['bid']:>3}")
    cell = re.search(r"(\d+)% +\[(\d+), (\d+)\]", first_row)
    assert [int(x) for x in cell.groups()] == [
        round(100 * by_bid[k]) for k in ("p_make", "p_make_lo", "p_make_hi")]


OTHER = {"pedro": "rook", "rook": "king", "king": "pedro"}


@pytest.mark.parametrize("name", ["pedro", "rook", "king"])
def test_a_game_s_functions_take_a_variant_string_and_refuse_another_game_s_rules(name):
    """pedro.simulate("pedro", n) raised an AttributeError of the kernels' parameters, and
    king.simulate with Pedro's Rules a bare StopIteration: now a variant string is parsed
    (as analyzer.evaluate_hand takes one) and another game's Rules are one RuleError."""
    from analyzer.games import family
    from analyzer.variants import RuleError

    module = family(name)
    assert module.simulate(name, 3).equals(module.simulate(module.PRESETS[name], 3))
    other = family(OTHER[name]).PRESETS[OTHER[name]]
    for call in (lambda: module.simulate(other, 3), lambda: module.play_logged(other, 1, [0])):
        with pytest.raises(RuleError, match=f"rules are this game's Rules .*; got the Rules "
                                            f"of {OTHER[name]}"):
            call()


@pytest.mark.parametrize("name", ["pedro", "rook", "king"])
@pytest.mark.parametrize("indices, expected", [
    ([-1], "a deal index is a whole number 0 .. 2\\*\\*63-1; got -1"),
    (5, "indices are a sequence of deal numbers"),
    ([1.5], "got 1.5")])
def test_a_logged_deal_s_index_is_a_deal_number(name, indices, expected):
    """play_logged(rules, seed, [-1]) logged a deal numbered -1 (the kernel read it as some
    other deal) where `bidlab deal --index -1` is refused; a lone 5 was a TypeError of len()."""
    from analyzer.games import family

    module = family(name)
    with pytest.raises(ValueError, match=expected):
        module.play_logged(module.PRESETS[name], 1, indices)


@pytest.mark.parametrize("name", ["pedro", "rook", "king"])
@pytest.mark.parametrize("vector", [
    [1, 1, 1, 1],  # the kernels read the words after the fourth past its end
    [1, 1, 1, 7, 20, 0, 0, 0],  # an IndexError naming the policy
    [1, 1, 1, 1, 0, 0, 0, 0],  # pimc with no world
    [1, 1, 1, 1, 20, 0, 2, 0],
    [1.0, 1, 1, 1, 20, 0, 0, 0],
    [[1, 1, 1, 1, 20, 0, 0, 0]]])
def test_a_policy_given_as_the_kernels_vector_is_checked(name, vector):
    """A game's simulate and play_logged take the kernels' own policy vector (a benchmark's
    words included) as well as names; it went to the kernels unchecked."""
    import numpy as np

    from analyzer.games import family
    from analyzer.games.common import PolicyError, parse_policies

    module = family(name)
    for call in (lambda p: module.simulate(name, 3, policies=p),
                 lambda p: module.play_logged(name, 1, [0], p)):
        with pytest.raises(PolicyError, match=r"^bad policy vector .*: its first four words"):
            call(np.array(vector))
        assert len(call(parse_policies("pimc:2,heuristic,pimc:2,heuristic"))) > 0


def test_rule_flags_given_as_python_values_mean_their_text():
    """parse_rules("pedro", {"min_bid": 7}) raised "'int' object has no attribute 'strip'",
    and parse_rules(None) one of 'isascii'."""
    from analyzer.games import pedro
    from analyzer.variants import RuleError

    assert str(pedro.parse_rules("pedro", {"min_bid": 7, "scoring": 2})) == (
        "pedro(min_bid=7,scoring=2)")
    with pytest.raises(RuleError, match="bad value '8' for rule min_bid; allowed: 1, 6, 7"):
        pedro.parse_rules("pedro", {"min_bid": 8})
    with pytest.raises(RuleError, match="bad variant string 'None'"):
        pedro.parse_rules(None)


@pytest.mark.parametrize("name", ["pedro", "rook", "king"])
def test_a_summary_s_tables_say_how_they_were_made(name):
    """A hand's, a chart's and a comparison's tables carry their provenance in ``attrs``; a
    simulation summary's held only their rows' keys, so summary.points, taken out of the
    summary, no longer said its n, seed, rules or policy."""
    from analyzer.games import family
    from analyzer.summary import merge, summarize

    module = family(name)
    df = module.simulate(module.PRESETS[name], 40, seed=7)
    for summary in (summarize(df), merge([summarize(df[:20]), summarize(df[20:])])):
        for section in summary.sections:
            attrs = section.table.attrs
            assert {k: attrs.get(k) for k in ("n", "seed", "rules", "policy")} == {
                "n": 40, "seed": 7, "rules": name, "policy": "heuristic"}, section.key
            assert "rows" in attrs  # what merge reads is kept


def test_a_game_package_is_reached_through_analyzer_games():
    """analyzer.games.pedro after a bare ``import analyzer`` raised an AttributeError until
    something else had imported the package (a fresh process shows it)."""
    import subprocess
    import sys

    code = ("import analyzer; print(analyzer.games.pedro.simulate.__module__, "
            "analyzer.games.king.PRESET_NAMES)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    # the engine's face lives in the package's deals module, handed out on first use
    assert done.stdout.split() == ["analyzer.games.pedro.deals", "('king',)"]


def test_options_after_the_policy_are_named_where_siblings_order_them_apart():
    """bid_chart took (..., policy, by, progress, batch) and compare_variants (..., policy,
    batch, progress): a positional call copied from one to the other passed an int as
    progress, and failed only after the first batch (a code review)."""
    import inspect

    for fn in (analyzer.bid_chart, analyzer.compare_variants):
        params = inspect.signature(fn).parameters
        after = list(params)[list(params).index("policy") + 1:]
        assert after and all(params[p].kind is inspect.Parameter.KEYWORD_ONLY for p in after)
    with pytest.raises(TypeError):
        analyzer.compare_variants("pedro", "pedro(low_to=holder)", 100, 1, "heuristic", 50)
