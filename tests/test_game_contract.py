"""Every registered game, through the one interface the generic code uses.

In the manner of OpenSpiel's shared game tests: each preset of the registry
(:data:`analyzer.games.PRESET_NAMES`) is played through its
:class:`~analyzer.games.protocol.Game` only, never through a game's own module, and
must pass the same checks. A new game gets them by registering; it must also bring a
pure-Python reference (``REFERENCES`` below), or the first test fails.

* **protocol**: the game fills the attributes and methods the generic code calls;
* **random playout**: ``simulate`` with random players gives a row per deal and a
  summary with its uncertainty;
* **reproducibility**: the same seed gives the same rows, and a run split in two
  (``first``) or played in other batch sizes gives the same rows as one run;
* **invariants**: every row hands out exactly the points its rules put in play;
* **the reference**: logged deals replayed by the game's pure-Python reference
  (``tests/reference/``) agree action by action and point by point;
* **bad input**: a bad flag, a bad hand and a capability the game lacks are refused in
  one line, exit 2, by the CLI;
* **round trips**: ``bidlab deal``, ``bidlab solve --json`` and ``bidlab hand --json``
  print what the protocol gives, and a solved position agrees with the brute-force
  minimax of ``tests/reference/dd_brute.py``.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from cli_helpers import assert_bad_input, run
from reference import dd_brute, king_ref, pedro_ref, rook_ref

from analyzer.cards import CardParseError, parse_card
from analyzer.games import FAMILIES, PRESET_NAMES, game, offering, parse_game
from analyzer.games.protocol import Game
from analyzer.rollout import HandError
from analyzer.solve_view import solution_dict
from analyzer.solver import deal_position, solve
from analyzer.summary import Summary
from analyzer.variants import RuleError, single_flag_variants

N_PLAYOUT = 300  # deals (King: games) per preset; the checks are exact, not statistical
N_LOGGED = 40  # logged rows replayed by the reference per preset
SEED = 20261203
SEATS = "NESW"
RANK_ORDER = "AKQJT98765432"

# The pure-Python reference of each game package (tests/reference/): written from
# docs/spec.md, sharing no code with the kernels.
REFERENCES = {"pedro": pedro_ref, "rook": rook_ref, "king": king_ref}

PRESETS = pytest.mark.parametrize("preset", PRESET_NAMES)


def one_contract(g: Game) -> str | None:
    """A contract to exercise the single-hand path of a game that has contracts."""
    return g.contracts[1] if g.contracts else None


def cases(preset):
    """(rules, contract) pairs to play: the whole deal or game, and one contract's hand."""
    rules = parse_game(preset)
    g = game(rules)
    return [(rules, None)] + ([(rules, one_contract(g))] if g.contracts else [])


CASES = pytest.mark.parametrize(
    "rules,contract", [c for p in PRESET_NAMES for c in cases(p)],
    ids=lambda x: str(x) if x is not None else "whole")


# ---- the protocol ----------------------------------------------------------------------


@PRESETS
def test_game_fills_the_protocol(preset):
    g = game(preset)
    assert isinstance(g, Game)
    assert g.name == FAMILIES[preset] and g.title and g.hand_cards > 0
    assert preset in g.sources, "each preset names where its rules come from"
    assert g.module.GAME is g
    for name in ("Rules", "PRESETS", "PRESET_NAMES", "parse_rules", "simulate",
                 "play_logged", "run_batch"):
        assert hasattr(g.module, name), f"analyzer.games.{g.name} lacks {name}"
    # what every game must override (the base class raises NotImplementedError)
    for name in ("conservation", "summarize", "render_deal", "compare_measures", "compare_bounds",
                 "parse_hand", "evaluate_hand", "render_hand", "hand_json", "bid_chart",
                 "render_chart", "write_chart", "chart_contents", "search_rules", "deal_position"):
        assert getattr(type(g), name) is not getattr(Game, name), f"{g.name}.{name}"
    if g.partnerships:
        assert type(g).makers is not Game.makers and type(g).team_columns is not Game.team_columns
    else:
        assert type(g).ladder is not Game.ladder
    if g.whole_games:
        assert type(g).simulate_games is not Game.simulate_games


@pytest.mark.parametrize("family", sorted(REFERENCES))
def test_a_charts_contents_caption_every_figure_and_name_the_guide(family):
    """What a report shows of a chart comes whole from the game: a sentence under each
    figure, the guide among the tables and shown row for row, its headline sentences."""
    g = game(family)
    chart = g.bid_chart(parse_game(family), 2_000, SEED, "heuristic")
    contents = g.chart_contents(chart)
    assert contents.figures and set(contents.captions) == set(contents.figures)
    assert all(c.endswith(".") and " " in c for c in contents.captions.values())
    assert len(contents.shown) == len(contents.tables[contents.guide])
    assert all(isinstance(x, str) and x.endswith(".") for x in contents.headline)


@PRESETS
def test_every_game_has_a_reference(preset):
    assert game(preset).name in REFERENCES


def test_capability_refusals_name_the_games_that_offer_them():
    for capability in ("contracts", "whole_games", "partnerships", "bid_tables"):
        names = offering(capability)
        for preset in PRESET_NAMES:
            g = game(preset)
            if not getattr(g, capability):
                message = str(g.refuse("--x", capability))
                assert message.startswith(f"--x: only {', '.join(names)}; {g.title} ")
                assert "\n" not in message


# ---- random playout, reproducibility, invariants ---------------------------------------


@pytest.fixture(scope="module")
def playouts():
    """Rows of N_PLAYOUT random deals per case, played once for the module."""
    memo = {}

    def get(rules, contract):
        key = (str(rules), contract)
        if key not in memo:
            memo[key] = game(rules).simulate(rules, N_PLAYOUT, SEED, "random",
                                             contract=contract)
        return memo[key]

    return get


@CASES
def test_random_playout_gives_a_row_per_deal_and_a_summary(rules, contract, playouts):
    df = playouts(rules, contract)
    assert len(df) == N_PLAYOUT
    assert df.attrs["seed"] == SEED
    summary = game(rules).summarize(df)
    assert isinstance(summary, Summary)
    assert summary.provenance["n"] == N_PLAYOUT and summary.provenance["seed"] == SEED
    assert f"n={N_PLAYOUT} " in summary.to_text(), "the summary says its n"
    assert summary.estimates, "every figure is an estimate with its uncertainty"


@CASES
def test_same_seed_same_rows_in_any_split(rules, contract, playouts):
    g = game(rules)
    whole = playouts(rules, contract)
    again = g.simulate(rules, N_PLAYOUT, SEED, "random", contract=contract)
    assert whole.equals(again)
    cut = 117  # deal i of the seed is the same deal whichever run plays it
    head = g.simulate(rules, cut, SEED, "random", contract=contract)
    tail = g.simulate(rules, N_PLAYOUT - cut, SEED, "random", first=cut, contract=contract)
    for col in whole.columns:
        assert np.array_equal(whole[col].to_numpy()[:cut], head[col].to_numpy()), col
        assert np.array_equal(whole[col].to_numpy()[cut:], tail[col].to_numpy()), col
    small = g.simulate(rules, N_PLAYOUT, SEED, "random", batch=64, contract=contract)
    assert whole.equals(small)
    other = g.simulate(rules, N_PLAYOUT, SEED + 1, "random", contract=contract)
    assert not whole.equals(other), "another seed must give other deals"


@pytest.mark.parametrize("family", sorted(set(FAMILIES.values())))
def test_every_compare_measure_stays_within_its_stated_bounds(family):
    """The bounds make the interval of a measure that showed no spread in a run
    (:func:`analyzer.stats.bounded`): under every single-flag variant, random and heuristic
    play, no row falls outside them."""
    g = game(family)
    for rules in single_flag_variants(g.module.PRESETS, (1, 51)):
        bounds = g.compare_bounds(rules)
        for policy in ("random", "heuristic"):
            measures = g.compare_measures(g.simulate(rules, 150, SEED, policy), rules)
            assert set(measures) <= set(bounds), (str(rules), set(measures) - set(bounds))
            for name, values in measures.items():
                lo, hi = bounds[name]
                seen = values[~np.isnan(values)]
                assert ((seen >= lo) & (seen <= hi)).all(), (
                    str(rules), policy, name, (lo, hi), seen.min(), seen.max())


@CASES
def test_every_row_conserves_its_points(rules, contract, playouts):
    got, want = game(rules).conservation(playouts(rules, contract), rules)
    assert len(got) == N_PLAYOUT
    bad = np.flatnonzero(np.asarray(got) != np.asarray(want))
    assert bad.size == 0, f"rows {bad[:5].tolist()}: {got[bad[:5]]} against {want[bad[:5]]}"


@CASES
@pytest.mark.parametrize("policy", ["random", "heuristic"])
def test_logged_rows_agree_with_the_reference(rules, contract, policy):
    g = game(rules)
    ref = REFERENCES[g.name]
    for index in range(N_LOGGED):
        logs = g.play_logged(rules, SEED, index, policy, contract)
        assert logs
        for log in logs:
            assert not ref.result_mismatches(log), (index, ref.result_mismatches(log))
        if hasattr(ref, "check_game") and contract is None:
            assert not ref.check_game(logs, replay_hands=False), index


# ---- bad input ---------------------------------------------------------------------------


@PRESETS
def test_bad_rules_and_hands_are_refused(preset):
    g = game(preset)
    with pytest.raises(RuleError, match="no_such_flag"):
        parse_game(f"{preset}(no_such_flag=1)")
    rules = parse_game(preset)
    with pytest.raises((HandError, CardParseError)):
        g.parse_hand("AS KS", rules)  # too few cards
    with pytest.raises((HandError, CardParseError)):
        g.parse_hand(" ".join(["AS"] * g.hand_cards), rules)  # one card many times
    assert_bad_input(run("simulate", f"{preset}(no_such_flag=1)", "--deals", "10"),
                     "no_such_flag")
    assert_bad_input(run("hand", preset, "AS KS"))
    assert_bad_input(run("simulate", preset, "--deals", "0"), "--deals")


def test_flag_names_are_case_blind_and_the_extra_flags_win():
    holder = parse_game("pedro(low_to=holder)")
    assert parse_game("pedro(LOW_TO=holder)") == holder
    assert parse_game("pedro", {"LOW_TO": "holder"}) == holder  # a [rules] table, --rule
    # the extra pairs (--rule, a scenario's [rules]) override the variant string's flag
    assert parse_game("pedro(low_to=holder)", {"low_to": "winner"}) == parse_game("pedro")
    assert parse_game("pedro(low_to=holder)", {"Low_To": "winner"}) == parse_game("pedro")
    with pytest.raises(RuleError, match="low_to given twice"):
        parse_game("pedro", {"LOW_TO": "holder", "low_to": "winner"})


@PRESETS
def test_missing_capabilities_are_refused_in_one_line(preset):
    g = game(preset)
    if not g.whole_games:
        assert_bad_input(run("match", preset, "--games", "2"), *offering("whole_games"))
    if not g.contracts:
        assert_bad_input(run("simulate", preset, "--deals", "10", "--contract", "x"),
                         "--contract", *offering("contracts"))
    else:
        assert_bad_input(run("simulate", preset, "--deals", "10", "--contract", "x"), "x")


# ---- round trips ---------------------------------------------------------------------------


@CASES
def test_deal_prints_what_the_protocol_renders(rules, contract):
    g = game(rules)
    args = ["deal", str(rules), "--seed", "5", "--index", "3", "--policy", "random"]
    if contract:
        args += ["--contract", contract]
    result = run(*args)
    assert result.exit_code == 0, result.stderr
    text = g.render_deal(rules, 5, 3, "random", contract=contract)
    assert result.stdout == text + "\n"
    dealt = g.play_logged(rules, 5, 3, "random", contract)[0]["hands"][0]
    for suit in "SHDC":  # the first seat's dealt cards are shown, suit by suit, high first
        ranks = sorted((c[:-1] for c in dealt if c.endswith(suit)), key=RANK_ORDER.index)
        if ranks:
            assert " ".join(ranks) in text, (suit, ranks)


def trimmed(position: dict, cards: int = 3) -> dict:
    """The position of a deal's start of play with each hand cut to its first ``cards``
    cards: small enough for the brute-force minimax."""
    hands = [h.split() if h != "-" else [] for h in position["hands"].split("/")]
    keep = min(cards, *(len(h) for h in hands))
    assert keep > 0
    position = dict(position)
    position["hands"] = "/".join(" ".join(h[:keep]) for h in hands)
    return position


@CASES
def test_solve_agrees_with_the_cli_and_the_brute_force(rules, contract):
    g = game(rules)
    if g.contracts and contract is None:
        contract = g.contracts[0]  # a King position is of one contract
    for index in range(3):
        pos = trimmed(deal_position(rules, SEED, index, "random", contract))
        sol = solve(**pos)
        brute = dd_brute.solve(str(rules), pos["hands"], trump=pos["trump"],
                               leader=pos["leader"], side=pos["side"],
                               contract=pos["contract"])
        assert (sol.value, sol.to_move, sol.card_values) == (
            brute.value, brute.to_move, brute.card_values), pos
        args = ["solve", str(rules), "--hands", pos["hands"], "--leader",
                SEATS[pos["leader"]], "--side", SEATS[pos["side"]], "--json"]
        if pos["trump"]:
            args += ["--trump", pos["trump"]]
        if pos["contract"]:
            args += ["--contract", pos["contract"]]
        result = run(*args)
        assert result.exit_code == 0, result.stderr
        printed = json.loads(result.stdout)
        want = solution_dict(sol)
        for key in ("game", "contract", "trump", "to_move", "side", "value", "card_values",
                    "best", "nodes"):
            assert printed[key] == want[key], key


@CASES
def test_known_cards_are_said_in_the_header_and_the_provenance(rules, contract):
    """The cards another seat is known to hold change every figure: a saved result says
    so (King's said nothing, though its no-hearts points moved from -114 to -87)."""
    g = game(rules)
    hands = g.play_logged(rules, SEED, 0, "random", contract)[0]["hands"]
    text, other = " ".join(hands[0]), " ".join(hands[1][:2])
    args = ["hand", str(rules), text, "--deals", "50", "--seat", "eldest", "--known",
            f"second={other}"] + (["--contract", contract] if contract else [])
    shown = run(*args)
    assert shown.exit_code == 0, shown.stderr
    assert " | second holds " in shown.stdout.splitlines()[0], shown.stdout
    known = json.loads(run(*args, "--json").stdout)["provenance"]["known"]
    assert known.startswith("second=")


@CASES
def test_hand_round_trips_through_text_the_protocol_and_the_cli(rules, contract):
    g = game(rules)
    dealt = g.play_logged(rules, SEED, 0, "random", contract)[0]["hands"][0]
    text = " ".join(dealt)
    assert g.parse_hand(text, rules) == sum(1 << parse_card(c) for c in dealt)
    options = {"contract": contract} if contract else {}
    ev = g.evaluate_hand(rules, text, "eldest", deals=200, seed=3, policy="heuristic",
                         known={}, **options)
    args = ["hand", str(rules), text, "--deals", "200", "--seed", "3", "--json"]
    if contract:
        args += ["--contract", contract]
    result = run(*args)
    assert result.exit_code == 0, result.stderr
    assert result.stdout == g.hand_json(ev) + "\n"
    assert json.loads(result.stdout)  # one JSON document
