"""Scenario files: the small TOML file a report is built from, read and checked whole
before any deal is played.

A scenario is data, never code: the game and its rules, the seed, the policy, and one
table per section wanted, each with its sizes. :data:`TOP` and :data:`SECTIONS` are the
schema; ``simulations/README.md`` describes every key with its default (a test holds the
two together). Anything wrong (a file that is missing or not TOML, an unknown key, a wrong
type, a size below its least, an unknown game, flag or policy, a hand that cannot be
dealt) raises :class:`ScenarioFileError`: one line that names the file and the key, and
says what is accepted.

>>> s = parse_scenario('game = "cinch"\\nseed = 3\\n[bids]\\ndeals = 5000\\n', "x.toml")
>>> s.rules.game, s.seed, s.section("bids")["deals"], s.name
('cinch', 3, 5000, 'x')

May import: the standard library, the games' registry and common layer, the variants,
the ladder's rungs, the bid chart's features and the two-level estimator's checks.
"""

from __future__ import annotations

import hashlib
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..limits import GAME_MAX_DEALS, GAME_MAX_GAMES, MAX_SEED, TimeLimitError, require_time

REQUIRED = object()  # a key without a default


class ScenarioFileError(ValueError):
    """A scenario file that cannot be read or does not follow the schema."""


@dataclass(frozen=True)
class Key:
    """One key of the schema: its type, its default, what it means, and for a size the
    least and most it may be and what ``--quick`` cuts it to."""

    name: str
    kind: str  # "int", "str", "list[str]", "table"
    default: Any
    doc: str
    least: int | None = None
    quick: int | None = None  # the size under --quick (the smaller of this and the size)
    most: int = MAX_SEED  # seeds and deal indices are 64-bit in the kernels


TOP = (
    Key("game", "str", REQUIRED, 'the game: a preset (pedro, cinch, rook, king) or a variant '
        'string such as "pedro(min_bid=7)"'),
    Key("name", "str", None, "the report's name: its folder is reports/<name>/ "
        "(default: the file's name without .toml)"),
    Key("title", "str", None, "the report's title (default: the game's title and rules)"),
    Key("question", "str", "", "the question the report answers, in a sentence or two"),
    Key("rules", "table", {}, "rule flags over the game's, as flag = value "
        "(`bidlab rules GAME` lists them)"),
    Key("seed", "int", 1, "the seed of every section: deal i of the seed is the same deal "
        "in every section and under every variant", least=0),
    Key("policy", "str", "heuristic", "the card player: one policy for every seat, or four "
        "comma-separated, seat 0 first (random, heuristic, dd, pimc:N)"),
    Key("base", "str", None, "a cheap policy (heuristic): with it, [bid_chart], [hands] and "
        "[[variants]] give two-level estimates of `policy`'s numbers, the cheap mean over "
        "each section's base_deals deals plus the searching player's correction over its "
        "`deals` (default: none, every number is `policy`'s own)"),
)

SECTIONS = {
    "bids": (
        Key("deals", "int", 1_000_000, "deals to simulate", least=1, quick=20_000),
    ),
    "seats": (
        Key("deals", "int", 1_000_000, "deals to simulate (shared with [bids] when the "
            "sizes agree)", least=1, quick=20_000),
    ),
    "bid_chart": (
        Key("deals", "int", 2_000_000, "deals to play; each of the 4 seats' hands is "
            "charted", least=1, quick=20_000),
        Key("by", "str", None, "hand features that class the hands, comma-separated "
            "(default: the game's; see `bidlab bid-chart --help`)"),
        Key("base_deals", "int", 100_000, "with the top-level base: the deals the cheap "
            "policy plays (N); `deals` is n, the first of them, played by `policy` too",
            least=2, quick=20_000),
    ),
    "hands": (
        Key("cards", "list[str]", REQUIRED, "the example hands, one string each "
            '("AS KS 5S 5C 2S 9H 3D JC 7H")'),
        Key("seat", "str", "eldest", "the seat that holds each hand: dealer, eldest, second, "
            "third"),
        Key("deals", "int", 20_000, "deals to play each hand in", least=1, quick=2_000),
        Key("contract", "str", None, "King only: the contract to evaluate (default: all)"),
        Key("base_deals", "int", 100_000, "with the top-level base: the deals the cheap "
            "policy plays (N); `deals` is n, the first of them, played by `policy` too",
            least=2, quick=20_000),
    ),
    "variants": (
        Key("b", "str", REQUIRED, "variant B: a variant string of the same game, such as "
            '"cinch(min_bid=6)"'),
        Key("a", "str", None, "variant A (default: the scenario's game and rules)"),
        Key("label", "str", None, "what the comparison asks, for its heading"),
        Key("deals", "int", 1_000_000, "deals played under both variants (the same deals)",
            least=2, quick=20_000),
        Key("base_deals", "int", 100_000, "with the top-level base: the deals the cheap "
            "policy plays (N); `deals` is n, the first of them, played by `policy` too",
            least=2, quick=20_000),
        Key("games", "int", None, "Pedro, Cinch, Rook: compare this many whole games to the "
            "target instead of `deals`, game i the same deals under A and B (for a rule of "
            "whole games: target, no_contract_tie); not with the top-level base",
            least=2, quick=300, most=GAME_MAX_GAMES),
        Key("max_deals", "int", None, "with games: a game not decided after this many deals "
            "counts as undecided (default: the more of A's and B's own: 1,000, or twice the "
            "target)", least=1, most=GAME_MAX_DEALS),
        Key("contract", "str", None, "King only: compare single hands of this contract "
            "instead of whole 10-hand games, hand i the same cards under A and B (default: "
            "whole games)"),
    ),
    "ladder": (
        Key("deals", "int", 1_000, "deals played by every rung", least=2, quick=60),
        Key("rungs", "list[str]", ["heuristic", "pimc:8"], "the card players compared, "
            "weakest first (random, heuristic, pimc:N, dd)"),
        Key("opponents", "str", "heuristic", "the policy of the other side's cards"),
        Key("contract", "str", None, "King only: the contract its single hands play "
            "(default: positive)"),
    ),
    "games": (
        Key("games", "int", 10_000, "whole games to play (King: each is its ten hands)",
            least=1, quick=300, most=GAME_MAX_GAMES),
        Key("max_deals", "int", None, "a game not decided after this many deals counts as "
            "undecided (default: 1,000, or twice the target)", least=1, most=GAME_MAX_DEALS),
    ),
}
ARRAYS = {"variants"}  # sections written [[name]], one table each
ORDER = ("bids", "seats", "bid_chart", "hands", "variants", "ladder", "games")


@dataclass
class Scenario:
    """A checked scenario: ``rules`` parsed, every section's keys with their defaults
    filled in (``sections``: name -> list of tables; one for all but ``variants``)."""

    path: Path
    name: str
    title: str
    question: str
    rules: Any
    seed: int
    policy: str
    sections: dict[str, list[dict]] = field(default_factory=dict)
    base: str | None = None  # the cheap policy of two-level sections (None: plain)
    sha256: str = ""
    quick: bool = False

    def section(self, name: str) -> dict:
        return self.sections[name][0]

    def wanted(self) -> list[str]:
        return [s for s in ORDER if s in self.sections]


def load_scenario(path: str | Path, quick: bool = False) -> Scenario:
    """Read and check the scenario file at ``path``; ``quick`` cuts every size to its
    ``--quick`` size. ScenarioFileError (one line) when anything is wrong."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise ScenarioFileError(f"{path}: no such scenario file") from None
    except IsADirectoryError:
        raise ScenarioFileError(f"{path}: is a folder; give a .toml scenario file") from None
    except OSError as e:
        raise ScenarioFileError(f"{path}: cannot read it ({e.strerror})") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise ScenarioFileError(f"{path}: not a TOML file (not UTF-8 text)") from None
    s = parse_scenario(text, path, quick)
    s.sha256 = hashlib.sha256(data).hexdigest()
    return s


def parse_scenario(text: str, path: str | Path = "<scenario>", quick: bool = False) -> Scenario:
    """Check the scenario ``text`` (from the file ``path``) against the schema."""
    path = Path(path)
    where = str(path)
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ScenarioFileError(f"{where}: not valid TOML: {e}") from None
    top = _check_table(raw, TOP, where, "", extra=set(SECTIONS))
    rules = _parse_rules(top["game"], top["rules"], where)  # the game first: all hangs on it
    if not any(s in raw for s in SECTIONS):
        raise ScenarioFileError(f"{where}: no section; add at least one of "
                                f"{', '.join(f'[{s}]' for s in ORDER)}")
    _check_policy(top["policy"], where, "policy")
    if top["base"] is not None:
        _check_policy(top["base"], where, "base")
    sections = {}
    for name in ORDER:
        if name not in raw:
            continue
        tables = raw[name]
        if name in ARRAYS:
            if not isinstance(tables, list):
                raise ScenarioFileError(f"{where}: [{name}] must be written [[{name}]], one "
                                        "table per comparison")
        elif not isinstance(tables, dict):
            raise ScenarioFileError(f"{where}: {name} must be a table [{name}]; got "
                                    f"{_type_name(tables)}")
        tables = tables if isinstance(tables, list) else [tables]
        if not tables:
            raise ScenarioFileError(f"{where}: [[{name}]] is empty")
        checked = []
        for i, t in enumerate(tables):
            label = f"[{name}]" if name not in ARRAYS else f"[[{name}]] #{i + 1}"
            if not isinstance(t, dict):
                raise ScenarioFileError(f"{where}: {label} must be a table")
            values = _check_table(t, SECTIONS[name], where, label + " ")
            if name == "variants":
                _check_variant_rows(t, where, label)
            if quick:
                for key in SECTIONS[name]:
                    if key.quick is not None and values[key.name] is not None:
                        values[key.name] = min(values[key.name], key.quick)
            checked.append(values)
        sections[name] = checked
    s = Scenario(path=path, name=top["name"] or path.stem, title=top["title"] or "",
                 question=top["question"], rules=rules, seed=top["seed"],
                 policy=top["policy"], sections=sections, quick=quick, base=top["base"])
    _check_name(s.name, where)
    _check_sections(s, where)
    _check_sizes(s, where)
    return s


def _check_variant_rows(t: dict, where: str, label: str) -> None:
    """A comparison pairs deals (deals, base_deals) or whole games (games, max_deals), as
    the keys given say: both kinds at once is refused, as compare refuses --games beside
    --deals, rather than one of them dropped without a word."""
    games = [k for k in ("games", "max_deals") if k in t]
    deals = [k for k in ("deals", "base_deals") if k in t]
    if games and deals:
        raise ScenarioFileError(f"{where}: {label} {games[0]} and {deals[0]}: whole games "
                                f"take no {deals[0]} (it is for single deals); give one")
    if games == ["max_deals"]:
        raise ScenarioFileError(f"{where}: {label} max_deals bounds whole games: give games "
                                "(the number of games to the target) too")


def _check_sizes(s: Scenario, where: str) -> None:
    """Each section's sizes against the time limit, before any section plays a deal: a size
    no machine could play in a day is refused here, in one line naming its key."""
    for name, tables in s.sections.items():
        for i, t in enumerate(tables):
            label = f"[[{name}]] #{i + 1}" if name in ARRAYS else f"[{name}]"
            sizes = {k: t[k] for k in ("deals", "base_deals", "games") if t.get(k)}
            if name == "ladder":  # every rung plays the deals
                sizes = {"deals x rungs =": t["deals"] * len(t["rungs"])}
            try:
                for key, n in sizes.items():
                    require_time(n, f"{where}: {label} {key}", "games" if key == "games"
                                 else "deals")
            except TimeLimitError as e:
                raise ScenarioFileError(str(e)) from None


# ---- types and keys -----------------------------------------------------------------------


def _type_name(v: Any) -> str:
    return {bool: "true/false", int: "a whole number", float: "a decimal number",
            str: "a string", list: "a list", dict: "a table"}.get(type(v), type(v).__name__)


def _check_table(t: dict, keys: tuple[Key, ...], where: str, label: str,
                 extra: set[str] = frozenset()) -> dict:
    known = {k.name: k for k in keys}
    for name in t:
        if name not in known and name not in extra:
            accepted = ", ".join(sorted(known) + [f"[{s}]" for s in sorted(extra)])
            raise ScenarioFileError(f"{where}: {label}unknown key {name!r}; accepted: "
                                    f"{accepted}")
    out = {}
    for k in keys:
        if k.name not in t:
            if k.default is REQUIRED:
                raise ScenarioFileError(f"{where}: {label}missing key {k.name!r} ({k.doc})")
            out[k.name] = k.default
            continue
        out[k.name] = _check_value(t[k.name], k, where, label)
    return out


def _check_value(v: Any, k: Key, where: str, label: str) -> Any:
    wrong = None
    if k.kind == "int" and (isinstance(v, bool) or not isinstance(v, int)):
        wrong = "a whole number"
    elif k.kind == "str" and not isinstance(v, str):
        wrong = "a string"
    elif k.kind == "table" and not isinstance(v, dict):
        wrong = "a table of flag = value"
    elif k.kind == "list[str]" and not (isinstance(v, list) and v
                                        and all(isinstance(x, str) for x in v)):
        wrong = "a non-empty list of strings"
    if wrong:
        raise ScenarioFileError(f"{where}: {label}{k.name} must be {wrong}; got "
                                f"{_type_name(v)} {v!r}"[:300])
    if k.kind == "int" and k.least is not None and v < k.least:
        raise ScenarioFileError(f"{where}: {label}{k.name} must be at least {k.least:,}; "
                                f"got {v}")
    if k.kind == "int" and v > k.most:
        most = "2**63-1" if k.most == MAX_SEED else f"{k.most:,}"
        raise ScenarioFileError(f"{where}: {label}{k.name} must be at most {most}; "
                                f"got {v}"[:300])
    return v


def _check_name(name: str, where: str) -> None:
    if not name or name.startswith(".") or any(c in name for c in '/\\:*?"<>|\x00'):
        raise ScenarioFileError(f"{where}: name {name!r} cannot be a folder name; use "
                                "letters, digits, '-' and '_'")


# ---- what the keys name: games, flags, policies, hands ------------------------------------


def _parse_rules(game: str, flags: dict, where: str):
    from ..games import parse_game
    from ..variants import RuleError

    pairs = {}
    for flag, value in flags.items():
        if isinstance(value, bool) or not isinstance(value, (str, int)):
            raise ScenarioFileError(f"{where}: rules.{flag} must be a string or a whole "
                                    f"number; got {_type_name(value)}")
        pairs[flag] = str(value)
    try:
        return parse_game(game, pairs)
    except RuleError as e:
        raise ScenarioFileError(f"{where}: game/rules: {e}") from None


def _check_policy(policy: str, where: str, key: str) -> None:
    from ..games.common import PolicyError, parse_policies

    try:
        parse_policies(policy)
    except PolicyError as e:
        raise ScenarioFileError(f"{where}: {key}: {e}") from None


def _check_sections(s: Scenario, where: str) -> None:
    from ..games import game as game_of
    from ..games.common import (
        SEATS,
        PolicyError,
        ScenarioError,
        one_policy_for_every_seat,
        parse_policies,
    )
    from ..games.protocol import NotOffered
    from ..variants import RuleError

    g = game_of(s.rules)
    try:
        if "bids" in s.sections and not g.bid_tables:
            raise g.refuse("[bids] (make rate and EV by bid)", "bid_tables")
        if "games" in s.sections and not g.plays_whole_games:
            raise g.refuse("[games] (whole games)", "whole_games")
        for section, what in (("bid_chart", "[bid_chart]: a bid chart"),
                              ("hands", "[hands]: a hand evaluation")):
            if section in s.sections:
                for policy in filter(None, (s.policy, s.base)):
                    one_policy_for_every_seat(parse_policies(policy), what)
        if "bid_chart" in s.sections:
            _check_chart(s, g)
        if "hands" in s.sections:
            h = s.section("hands")
            if h["seat"] not in SEATS:
                raise ScenarioFileError(f"{where}: [hands] seat {h['seat']!r} is not a seat; "
                                        f"seats: {', '.join(SEATS)}")
            _check_contract(g, h["contract"], s, where, "[hands] contract")
            for i, text in enumerate(h["cards"]):
                try:
                    g.parse_hand(text, s.rules)
                except ValueError as e:
                    raise ScenarioFileError(f"{where}: [hands] cards[{i}]: {e}") from None
        for i, v in enumerate(s.sections.get("variants", [])):
            for key in ("a", "b"):
                if v[key] is not None:
                    v[key] = _variant(v[key], s, where, f"[[variants]] #{i + 1} {key}")
            v["a"] = v["a"] or s.rules
            if v["games"] is not None:
                _check_games(s, g, where, f"[[variants]] #{i + 1} games")
            for rules in (v["a"], v["b"]):  # a contract both variants' games play
                _check_contract(g, v["contract"], s, where, f"[[variants]] #{i + 1} contract",
                                rules)
        if "ladder" in s.sections:
            _check_ladder(s, g, where)
        if s.base is not None:
            _check_base(s, g, where)
    except ScenarioFileError:
        raise
    except (NotOffered, RuleError, PolicyError, ScenarioError) as e:
        raise ScenarioFileError(f"{where}: {e}") from None


def _check_games(s: Scenario, g, where: str, key: str) -> None:
    """A comparison of whole games to the target: a game that has them (King's comparisons
    pair whole games already), and plain, since a two-level estimate is of single deals."""
    if g.plays_whole_games and not g.whole_games:
        raise ScenarioFileError(f"{where}: {key}: {g.title}'s comparisons pair its whole games "
                                "already; drop games")
    g.require("whole_games", f"{key} (games to a target score)")
    if s.base is not None:
        raise ScenarioFileError(f"{where}: {key}: whole games are compared plain, and base "
                                "makes two-level estimates of single deals: drop one")


def _check_chart(s: Scenario, g) -> None:
    from ..chart_features import ChartError, check_features

    by = s.section("bid_chart")["by"]
    if g.chart_by is None:
        if by is not None:
            raise g.refuse("[bid_chart] by", "chart_by")
        return
    features = tuple(f.strip().lower() for f in (by or ",".join(g.chart_by[1])).split(",")
                     if f.strip())
    try:
        s.section("bid_chart")["by"] = check_features(features, s.rules)
    except ChartError as e:
        raise ScenarioFileError(f"{s.path}: [bid_chart] by: {e}") from None


TWO_LEVEL_SECTIONS = ("bid_chart", "hands", "variants")


def _check_base(s: Scenario, g, where: str) -> None:
    """A two-level scenario: a base cheaper than the policy, and N >= n in every section
    that uses it."""
    from ..games.common import parse_policies, policy_string
    from ..twolevel import TwoLevelError, check_request

    try:
        check_request(policy_string(parse_policies(s.policy)),
                      policy_string(parse_policies(s.base)))
    except TwoLevelError as e:
        raise ScenarioFileError(f"{where}: base {s.base!r}: {e}") from None
    if "bid_chart" in s.sections and g.chart_by is None:
        raise g.refuse("[bid_chart] with base", "chart_by")
    for name in TWO_LEVEL_SECTIONS:
        for i, t in enumerate(s.sections.get(name, [])):
            if t["base_deals"] < t["deals"]:
                label = f"[{name}]" if name not in ARRAYS else f"[[{name}]] #{i + 1}"
                raise ScenarioFileError(f"{where}: {label} base_deals ({t['base_deals']:,}) "
                                        f"must be at least deals ({t['deals']:,}): the "
                                        "searched deals are the first of the cheap ones")


def _check_ladder(s: Scenario, g, where: str) -> None:
    from ..games.common import PolicyError
    from ..ladder import check_rungs

    lad = s.section("ladder")
    try:
        lad["rungs"] = check_rungs(lad["rungs"])
    except PolicyError as e:
        raise ScenarioFileError(f"{where}: [ladder] rungs: {e}") from None
    _check_policy(lad["opponents"], where, "[ladder] opponents")
    _check_contract(g, lad["contract"], s, where, "[ladder] contract")


def _check_contract(g, contract: str | None, s: Scenario, where: str, key: str,
                    rules=None) -> None:
    """The game's own check of a contract under ``rules`` (the scenario's by default), its
    message naming the scenario's key."""
    from ..games.protocol import NotOffered
    from ..variants import RuleError

    try:
        g.check_contract(contract, s.rules if rules is None else rules, what=key)
    except (NotOffered, RuleError) as e:  # each names the key already
        raise ScenarioFileError(f"{where}: {e}") from None


def _variant(text: str, s: Scenario, where: str, key: str):
    from ..games import game as game_of
    from ..games import parse_game
    from ..variants import RuleError

    try:
        rules = parse_game(text)
    except RuleError as e:
        raise ScenarioFileError(f"{where}: {key}: {e}") from None
    if game_of(rules) is not game_of(s.rules):
        raise ScenarioFileError(f"{where}: {key}: {text!r} is not a variant of the "
                                f"scenario's game {s.rules.game!r}")
    return rules


# ---- the schema as documentation ----------------------------------------------------------


def _shown_default(k: Key) -> str:
    if k.default is REQUIRED:
        return "required"
    if k.default is None:
        return "-"
    if isinstance(k.default, int):
        return f"{k.default:_}"
    if isinstance(k.default, str):
        return f'"{k.default}"'
    if isinstance(k.default, list):
        return "[" + ", ".join(f'"{x}"' for x in k.default) + "]"
    return "{}" if k.default == {} else str(k.default)


def schema_markdown() -> str:
    """Every key of the schema as Markdown tables: simulations/README.md carries this text
    between its markers, and a test keeps the two the same."""
    def table(keys: tuple[Key, ...]) -> list[str]:
        rows = ["| key | type | default | --quick | meaning |", "|---|---|---|---|---|"]
        for k in keys:
            quick = f"{k.quick:_}" if k.quick is not None else ""
            least = f" (at least {k.least:_})" if k.least is not None else ""
            rows.append(f"| `{k.name}` | {k.kind} | {_shown_default(k)} | {quick} | "
                        f"{k.doc}{least} |")
        return rows

    out = ["### Top level", "", *table(TOP), ""]
    for name in ORDER:
        head = f"[[{name}]]" if name in ARRAYS else f"[{name}]"
        out += [f"### `{head}`", "", *table(SECTIONS[name]), ""]
    return "\n".join(out).rstrip() + "\n"
