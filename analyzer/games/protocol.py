"""The one interface the generic code uses to play, show, evaluate, chart, compare and
solve a game: :class:`Game`.

Each game is a package, ``analyzer/games/<game>/``, that holds everything of that game
(rules, kernels, policies, search adapter, views, hand evaluation, charts, summaries) and
exposes ``GAME``, an instance of a :class:`Game` subclass. The registry
(:mod:`analyzer.games`) maps each preset to its package. Commands and analyses call
``GAME``'s methods and attributes and never test a game's name; a capability a game does
not offer (whole games to a target, partnerships, contracts) is said by an attribute and
refused with one line naming the games that offer it.

Adding a game means one package with a ``GAME`` and one line in the registry; the contract
test (``tests/test_game_contract.py``) then plays it through this interface.

May import: the package's foundations (cards, stats, parsing, variants); never a game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import ModuleType
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:  # tables in the annotations only: GAME loads without pandas
    import pandas as pd


class NotOffered(ValueError):
    """A capability a game does not have (e.g. whole games to a target in King)."""


@dataclass
class ChartContents:
    """What a report shows of a bid chart and its folder holds (:meth:`Game.chart_contents`).
    The game says it all, so the report's code knows no game's tables by name."""

    tables: dict[str, pd.DataFrame]  # name -> numbers (the folder's CSV, the report's data/)
    figures: dict  # name -> matplotlib Figure
    captions: dict[str, str]  # figure name -> one sentence under it in a report
    guide: str  # the table that is the bid guide (shown first, under the game's guide_caption)
    shown: pd.DataFrame  # the guide formatted for people
    headline: list[str]  # the guide's key findings, each read off the guide's own numbers
    legend: str = ""  # what the words of its classes (and its tables) mean, in a paragraph


@dataclass(frozen=True)
class BenchCase:
    """One timed case of ``bidlab bench``: a label after the rules string and the extra
    arguments of the game's ``run_batch`` (King: a contract)."""

    label: str = ""
    options: dict = field(default_factory=dict)


CAPABILITY_WORDS = {"contracts": "contracts", "partnerships": "partnerships",
                    "whole_games": "games to a target score",
                    "adaptive_hands": "stop rules for its hand evaluations",
                    "bid_tables": "EV-by-bid table", "chart_by": "hand classes to choose",
                    "two_level_charts": "two-level bid chart"}


class Game:
    """A game as the generic code sees it. Subclasses fill the attributes and override the
    methods their game offers; the defaults say "not offered" in one line."""

    name = ""  # the package's name: analyzer.games.<name>
    title = ""  # for people
    sources: dict[str, str] = {}  # preset -> where its rules come from (docs/rules.md)
    hand_cards = 0  # cards in a dealt hand (a HAND argument)
    compare_unit = "deal"  # what one row of ``compare_measures`` is, for people
    deal_unit = "deals"  # one deal played out, for people: Rook's and King's are hands
    maker_verb = "names trump"  # what the auction's winner does: Rook's declares
    # the compare measures a player keeps (names beginning so), which a report's findings
    # name before the others however clear those are; empty: every measure alike
    compare_headlines: tuple[str, ...] = ()
    # the bids are ceilings ("bid up to b", Rook): each is its own "up to", none shown apart
    bids_are_ceilings = False
    # the caption of a report's bid guide, the table chart_contents names
    guide_caption = ("The bid guide: for each seat, the weakest class of hand (the fewest "
                     "points as sole bidder) that should make each bid (gain over passing, "
                     "own minus opponents' points per deal, "
                     "95% CI); slight: beyond the noise but under 1% of the points a deal "
                     "holds. A stronger class may still pass where its own interval holds "
                     "zero: the heatmap below has every class.")
    # Capabilities: what a game offers beyond playing deals. A refusal names the presets
    # that offer it (:meth:`refuse`), so no message lists games by hand.
    contracts: tuple[str, ...] = ()  # single hands of one contract may be asked for
    partnerships = True  # two teams of two (duplicate matches, the ladder's sides)
    whole_games = False  # games to a target score (``bidlab match``)
    adaptive_hands = True  # hand evaluations take --target-ci, --time-budget, --until-decided
    bid_tables = True  # a hand evaluation has an EV-by-bid table (--csv, --plot)
    # dd and pimc solve the whole play (Pedro's six tricks), so dd bounds what play can make;
    # False: they solve the last SEARCH_TRICKS and the heuristic plays before (Rook, King)
    searches_whole_hand = True
    instead: dict[str, str] = {}  # capability -> what a refusal says the game does instead
    search_sizes: dict[str, int] = {}  # a command's size when a seat searches, if not the usual
    chart_by: tuple[tuple[str, ...], tuple[str, ...]] | None = None  # (features, default --by)
    two_level_charts = True  # a bid chart takes --base (one seat's actions, searched on n)
    # Columns of the rows (simulate, match) that hold cards, suits or seats as numbers, and
    # their kind ("cards": a mask, "card": an index, "suit", "seat", or names by code): a table
    # written to disk gets a text column beside each (:meth:`readable`). A game adds its own.
    text_columns: dict[str, str | tuple[str, ...]] = {
        **{f"hand{s}": "cards" for s in range(4)}, "dealer": "seat", "first_dealer": "seat",
        "trump": "suit"}

    def deal_points(self, rules) -> float | None:
        """The points a deal holds under ``rules``, the scale a gain is slight against
        (:func:`analyzer.advice.slight`); None where advice is not in points."""
        return None

    def bid_words(self, seat: str) -> str:
        """How a bid of b reads at ``seat`` (counted from the dealer): "bid", or "bid up to"
        where the seat's bid is a ceiling (Pedro's dealer, who bids last)."""
        return "bid"

    def chart_note(self, rules) -> str:
        """A sentence a report's bid guide under ``rules`` adds ("" for none)."""
        return ""

    def game_start(self, rules) -> str:
        """How a report's whole games under ``rules`` are dealt, for people (a clause after
        "every seat playing")."""
        return "game g starts with dealer g % 4 and the deal passes to the left"

    @property
    def module(self) -> ModuleType:
        """The game's package: its public face (Rules, simulate, run_batch, ...)."""
        from importlib import import_module

        return import_module(f"analyzer.games.{self.name}")

    def refuse(self, what: str, capability: str, instead: str = "") -> NotOffered:
        """The one-line refusal of ``what``, which needs ``capability`` (an attribute
        above): it names the presets whose games have it, then says what this game does
        ``instead`` (by default, that it has no such thing)."""
        from . import offering

        instead = (instead or self.instead.get(capability)
                   or f"has no {CAPABILITY_WORDS[capability]}")
        return NotOffered(f"{what}: only {', '.join(offering(capability))}; "
                          f"{self.title} {instead}")

    def require(self, capability: str, what: str) -> None:
        """Refuse ``what`` up front, before any work, unless the game has ``capability``."""
        if not getattr(self, capability):
            raise self.refuse(what, capability)

    # ---- rules and play ---------------------------------------------------------------------

    def readable(self, df: pd.DataFrame) -> pd.DataFrame:
        """``df`` with ``<name>_text`` beside each of :attr:`text_columns` it has (cards as
        "AS KS 5C", suits and seats by name): what ``--out`` writes. The frame in memory,
        which the analyses read, keeps the numbers only."""
        from .common import with_text

        return with_text(df, self.text_columns)

    def check_contract(self, contract: str | None, rules=None, what: str = "--contract") -> None:
        """Refuse a contract (``what`` names where it was asked for: the option, or a
        scenario's key) in a game without contracts (RuleError names them where there are,
        and, given ``rules``, a contract their games never play)."""
        if contract is not None and not self.contracts:
            raise self.refuse(what, "contracts")

    def simulate(self, rules, n: int, seed: int, policies, first: int = 0,
                 batch: int | None = None, progress=None, contract: str | None = None):
        """One row per deal (or game), with its provenance in ``attrs``."""
        self.check_contract(contract, rules)
        extra = {} if batch is None else {"batch": batch}
        return self.module.simulate(rules, n, seed, policies, first, progress=progress, **extra)

    def play_logged(self, rules, seed: int, index: int, policy: str,
                    contract: str | None = None) -> list[dict]:
        """Trick-by-trick logs of row ``index`` of :meth:`simulate` (one deal; a game of
        several hands gives one log a hand), in the game's log format
        (``tests/reference/<GAME>_LOG_FORMAT.md``)."""
        self.check_contract(contract, rules)
        return self.module.play_logged(rules, seed, [index], policy)

    def conservation(self, df: pd.DataFrame, rules) -> tuple[np.ndarray, np.ndarray]:
        """Per row of :meth:`simulate`, the points the deal handed out and the points its
        rules put in play (docs/rules.md §5: always equal)."""
        raise NotImplementedError

    def summarize(self, df: pd.DataFrame):
        """The ``simulate`` summary (:class:`analyzer.summary.Summary`)."""
        raise NotImplementedError

    def render_deal(self, rules, seed: int, index: int, policy: str, labels: bool = True,
                    contract: str | None = None) -> str:
        """One deal (or King game, or hand of ``contract``) trick by trick."""
        raise NotImplementedError

    def simulate_games(self, rules, n: int, seed: int, policies, max_deals=None, progress=None,
                       first: int = 0):
        """Whole games ``first`` .. ``first + n - 1`` to the target (``bidlab match``);
        ``progress(k)`` after each batch."""
        raise self.refuse("match (games to a target score)", "whole_games")

    # ---- what a report reads off the rows (:mod:`.standings`) -----------------------------------

    maker_column = "maker"  # the seat that named trump, in the rows of simulate
    sides: tuple[str, ...] = ("team 0 (seats 0, 2)", "team 1 (seats 1, 3)")  # of a whole game

    def settlement_column(self, rules) -> str:
        """The column of the bidding side's settlement (its score change) under ``rules``."""
        raise self.refuse("make rate and EV by bid", "bid_tables")

    def bid_levels(self, df: pd.DataFrame, rules) -> pd.DataFrame:
        """Per bid level: n, make rate and the bidding side's mean settlement, 95% CIs."""
        from .standings import bid_levels

        return bid_levels(df, "bid", "made", self.settlement_column(rules))

    def seat_positions(self, df: pd.DataFrame, rules) -> pd.DataFrame:
        """Per seat position from the dealer: share of contracts, make rate, and its team's
        settlement minus the other team's."""
        from .standings import seat_positions

        return seat_positions(df, self.maker_column, "bid", "made", self.team_columns(rules)[2:])

    @property
    def plays_whole_games(self) -> bool:
        """Whether :meth:`whole_game_rows` answers: games to a target score, or a game
        whose every row is a whole game."""
        return self.whole_games

    def whole_game_rows(self, rules, n: int, seed: int, policies, max_deals=None,
                        progress=None, first: int = 0,
                        ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(winner side or -1 undecided, deals played, final scores: a column a side) of
        whole games ``first`` .. ``first + n - 1``."""
        df = self.simulate_games(rules, n, seed, policies, max_deals=max_deals, first=first)
        if progress:
            progress(n)
        return (df["winner"].to_numpy(), df["deals"].to_numpy(),
                df[["score0", "score1"]].to_numpy())

    def compare_measures(self, df: pd.DataFrame, rules, pair=None) -> dict[str, np.ndarray]:
        """Per-row quantities ``bidlab compare`` pairs between two variants (NaN where a
        measure does not apply to a row); ``pair``, the two variants' rules (A, B), where a
        measure means something for some pairs only (King's K♥ finder, where either names
        the first dealer by it)."""
        raise NotImplementedError

    def compare_bounds(self, rules) -> dict[str, tuple[float, float]]:
        """The least and greatest value a row can give each of :meth:`compare_measures`:
        where a run sees no spread in a measure, its interval is what these allow
        (:func:`analyzer.stats.bounded`), not a width of 0."""
        raise NotImplementedError

    def game_measures(self, df: pd.DataFrame, max_deals: int) -> dict[str, np.ndarray]:
        """Per whole game to the target (rows of :meth:`simulate_games`), the quantities
        ``bidlab compare --games`` pairs: who won, how long it lasted
        (:func:`.standings.game_measures`)."""
        from .common import teams_differ
        from .standings import game_measures

        return game_measures(df, self.sides[0], self.deal_unit, max_deals,
                             teams_differ(df.attrs.get("policy", "")))

    def game_bounds(self, max_deals: int) -> dict[str, tuple[float, float]]:
        """The range of each of :meth:`game_measures`."""
        from .standings import game_bounds

        return game_bounds(self.sides[0], self.deal_unit, max_deals)

    def default_max_deals(self, rules) -> int:
        """The deals a whole game under ``rules`` may last unless told (its target's)."""
        self.require("whole_games", "games to a target score")
        return self.module.default_max_deals(rules)

    def shared_rows(self, da: pd.DataFrame, db: pd.DataFrame) -> np.ndarray:
        """The rows two variants played on the same cards: neither threw its deal in (a
        redeal deals the next cards of the deal's own stream), and both dealt the same
        hands (not so where the variants' decks differ: :meth:`same_deck`)."""
        same = np.ones(len(da), dtype=bool)
        if "redeals" in da:
            same &= (da["redeals"].to_numpy() == 0) & (db["redeals"].to_numpy() == 0)
        for col in (c for c in ("hand0", "hand1", "hand2", "hand3") if c in da and c in db):
            same &= da[col].to_numpy() == db[col].to_numpy()
        return same

    def same_deck(self, ra, rb) -> bool:
        """Whether variants ``ra`` and ``rb`` deal from one deck, so that deal i gives both
        the same cards (Rook's points=parker_adapt takes the 2s-4s out)."""
        return True

    def redeals(self, rules) -> bool:
        """Whether ``rules`` may throw a deal in and redeal it (a flag set to "redeal")."""
        return "redeal" in rules.as_dict().values()

    # ---- a hand ------------------------------------------------------------------------------

    def parse_hand(self, text: str, rules) -> int:
        """The mask of HAND for this game; HandError (or CardParseError) otherwise."""
        raise NotImplementedError

    def evaluate_hand(self, rules, hand: str, seat: str, **options):
        """What HAND is worth at ``seat`` (options: deals, seed, policy, known, progress,
        and the stop rules or ``contract`` the game takes)."""
        raise NotImplementedError

    def hand_work(self, rules, deals: int, contract: str | None = None) -> int:
        """The deals a hand evaluation plays in all, for its progress bar."""
        return deals

    def render_hand(self, ev) -> str:
        raise NotImplementedError

    def hand_json(self, ev) -> str:
        raise NotImplementedError

    def hand_csv(self, ev) -> str:
        raise self.refuse("--csv", "bid_tables")

    def hand_figure(self, ev):
        """The EV-by-bid figure of a hand evaluation (``--plot``)."""
        raise self.refuse("--plot", "bid_tables")

    # ---- charts --------------------------------------------------------------------------------

    def bid_chart(self, rules, deals: int, seed: int, policy: str, by=None, progress=None,
                  base=None, base_deals=None, budget=None):
        """The game's bid chart; with ``base``, two-level (``bidchart.two_level_chart``;
        ``budget`` seconds split between n = ``deals`` and N = ``base_deals``)."""
        raise NotImplementedError

    def chart_run(self, rules, seed: int, policy: str, by=None):
        """The chart of :meth:`bid_chart` played in ranges of deals (``play(first, n)``,
        ``to_state``, ``add_state``, ``result``): the same chart, chunk by chunk."""
        from ..bidchart import SeatChartRun

        return SeatChartRun(rules, seed, policy, by)

    points_digits = 2  # decimals of points and EVs in a chart's text

    def scoring_method(self, rules):
        """The settlement method a chart's EVs use, as its provenance says it: the rules'
        choice where they offer several, else the game's own name."""
        return self.name

    def render_chart(self, chart) -> str:
        raise NotImplementedError

    def write_chart(self, chart, out_dir) -> list:
        raise NotImplementedError

    def chart_contents(self, chart) -> ChartContents:
        """The chart's tables, figures with their captions, its guide and the guide's
        headline: what a report shows of it and its folder holds."""
        raise NotImplementedError

    # ---- the policy ladder and duplicate matches ------------------------------------------------

    def makers(self, rec: np.ndarray, cols: tuple[str, ...]) -> np.ndarray:
        """Each deal's trump maker (the side a ladder rung plays)."""
        raise NotImplementedError

    def team_columns(self, rules) -> tuple[str, str, str, str]:
        """Record columns of the two teams' points and scores (duplicate matches)."""
        raise self.refuse("duplicate matches", "partnerships")

    def ladder(self, rules, idx, seed, rungs, opponents, worlds, contract, progress):
        """The ladder of a game whose bidding side is not a partnership (King)."""
        raise NotImplementedError

    # ---- the solver ------------------------------------------------------------------------------

    def search_rules(self, rules, trump, contract):
        """The :class:`analyzer.solver.SearchRules` of a position of this game under
        ``rules`` with ``trump`` (and ``contract``): what ``bidlab solve`` needs of it."""
        raise NotImplementedError

    def deal_position(self, rules, seed: int, index: int, policy: str, contract):
        """The start of play of a simulated deal, as ``bidlab solve --from-deal`` takes it."""
        raise NotImplementedError

    # ---- throughput and compilation ---------------------------------------------------------

    bench_cases: tuple[BenchCase, ...] = (BenchCase(),)
    # the game's kernel modules (relative to its package) that ``bidlab warmup`` compiles: the
    # ones every command may need, and the ones with the search behind dd and pimc seats
    kernel_modules: tuple[str, ...] = ("engine",)
    search_modules: tuple[str, ...] = ("search",)
