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

import numpy as np
import pandas as pd


class NotOffered(ValueError):
    """A capability a game does not have (e.g. whole games to a target in King)."""


@dataclass(frozen=True)
class BenchCase:
    """One timed case of ``bidlab bench``: a label after the rules string and the extra
    arguments of the game's ``run_batch`` (King: a contract)."""

    label: str = ""
    options: dict = field(default_factory=dict)


class Game:
    """A game as the generic code sees it. Subclasses fill the attributes and override the
    methods their game offers; the defaults say "not offered" in one line."""

    name = ""  # the package's name: analyzer.games.<name>
    title = ""  # for people
    sources: dict[str, str] = {}  # preset -> where its rules come from (RULES.md)
    hand_cards = 0  # cards in a dealt hand (a HAND argument)
    contracts: tuple[str, ...] = ()  # King: single hands of one contract may be asked for
    partnerships = True  # two teams of two (duplicate matches, the ladder's sides)
    search_sizes: dict[str, int] = {}  # a command's size when a seat searches, if not the usual
    chart_by: tuple[tuple[str, ...], tuple[str, ...]] | None = None  # (features, default --by)

    @property
    def module(self) -> ModuleType:
        """The game's package: its public face (Rules, simulate, run_batch, ...)."""
        from importlib import import_module

        return import_module(f"analyzer.games.{self.name}")

    def refuse(self, what: str, games: str) -> NotOffered:
        return NotOffered(f"{what} is offered for {games}; {self.title} has none")

    # ---- rules and play ---------------------------------------------------------------------

    def check_contract(self, contract: str | None) -> None:
        """Refuse ``--contract`` in a game without contracts (RuleError names them where
        there are)."""
        if contract is not None and not self.contracts:
            raise self.refuse("--contract", "king")

    def simulate(self, rules, n: int, seed: int, policies, first: int = 0,
                 batch: int = 1_000_000, progress=None, contract: str | None = None):
        """One row per deal (or game), with its provenance in ``attrs``."""
        self.check_contract(contract)
        return self.module.simulate(rules, n, seed, policies, first, batch=batch,
                                    progress=progress)

    def summarize(self, df: pd.DataFrame):
        """The ``simulate`` summary (:class:`analyzer.summary.Summary`)."""
        raise NotImplementedError

    def render_deal(self, rules, seed: int, index: int, policy: str, labels: bool = True,
                    contract: str | None = None) -> str:
        """One deal (or King game, or hand of ``contract``) trick by trick."""
        raise NotImplementedError

    def simulate_games(self, rules, n: int, seed: int, policies, max_deals=None):
        """Whole games to the target (``bidlab match``)."""
        raise self.refuse("match (whole games to a target)", "pedro and cinch")

    def compare_measures(self, df: pd.DataFrame, rules) -> dict[str, np.ndarray]:
        """Per-row quantities ``bidlab compare`` pairs between two variants (NaN where a
        measure does not apply to a row)."""
        raise NotImplementedError

    def shared_rows(self, da: pd.DataFrame, db: pd.DataFrame) -> np.ndarray:
        """The rows two variants both played (a redeal throws a deal in)."""
        if "redeals" in da:
            return (da["redeals"].to_numpy() == 0) & (db["redeals"].to_numpy() == 0)
        return np.ones(len(da), dtype=bool)

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
        raise self.refuse("--csv", "pedro, cinch and rook")

    def hand_figure(self, ev):
        """The EV-by-bid figure of a hand evaluation (``--plot``)."""
        raise self.refuse("--plot", "pedro, cinch and rook")

    adaptive_hands = True  # whether hand evaluations take --target-ci and the like

    # ---- charts --------------------------------------------------------------------------------

    def bid_chart(self, rules, deals: int, seed: int, policy: str, by=None, progress=None):
        raise NotImplementedError

    def render_chart(self, chart) -> str:
        raise NotImplementedError

    def write_chart(self, chart, out_dir) -> list:
        raise NotImplementedError

    # ---- the policy ladder and duplicate matches ------------------------------------------------

    def makers(self, rec: np.ndarray, cols: tuple[str, ...]) -> np.ndarray:
        """Each deal's trump maker (the side a ladder rung plays)."""
        raise NotImplementedError

    def team_columns(self, rules) -> tuple[str, str, str, str]:
        """Record columns of the two teams' points and scores (duplicate matches)."""
        raise self.refuse("duplicate matches (partnerships)", "pedro, cinch and rook")

    def ladder(self, rules, idx, seed, rungs, opponents, worlds, contract, progress):
        """The ladder of a game whose bidding side is not a partnership (King)."""
        raise NotImplementedError

    # ---- the solver ------------------------------------------------------------------------------

    def position(self, rules, trump, contract):
        """A :class:`analyzer.solver.SearchGame` for positions of this game."""
        raise NotImplementedError

    def deal_position(self, rules, seed: int, index: int, policy: str, contract):
        """The start of play of a simulated deal, as ``bidlab solve --from-deal`` takes it."""
        raise NotImplementedError

    # ---- throughput ------------------------------------------------------------------------------

    bench_cases: tuple[BenchCase, ...] = (BenchCase(),)
