"""What one paired row of a comparison is, and how both variants play it: a deal (King's
whole 10-hand game), a King hand of one contract, or a whole game to the target score.

Every kind pairs row ``i`` under A with row ``i`` under B on the same cards: deal ``i`` of
the seed, King's hand ``i`` of the contract, or game ``i``, whose deal ``k`` is the same
deal under both variants (``kit.games.game_deal``), so two games run alike until the rule
parts them, and the one that parts them shows in every measure.

May import: numpy, pandas, :mod:`analyzer.limits` and the games' protocol (through the
Game it is handed).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from .limits import ArgumentError, check_counts

THROWN_IN = "thrown in and redealt"
RATE = (0.0, 1.0)  # the range of a share of deals


@dataclass(frozen=True)
class Rows:
    """The rows a comparison pairs: the game's own (``compare_unit``), single hands of a
    King ``contract``, or with ``max_deals`` whole games to the target, each counted
    undecided after that many deals."""

    contract: str | None = None
    max_deals: int | None = None

    @property
    def whole_games(self) -> bool:
        return self.max_deals is not None

    def unit(self, g) -> str:
        """One row, for people."""
        if self.contract is not None:
            return "hand"
        return "game" if self.whole_games else g.compare_unit

    def redealing(self, g, ra, rb) -> bool:
        """Whether a row may be a deal thrown in (a game's own deals keep their redeals
        inside it: the game is the row)."""
        return not self.whole_games and (g.redeals(ra) or g.redeals(rb))

    def frames(self, g, ra, rb, seed: int, policy, lo: int, n: int):
        """Rows ``lo .. lo + n - 1`` under both variants and ``policy``: the two frames and
        the rows played on the same cards (a game: all; its deals are the same deals)."""
        if self.whole_games:
            da, db = (g.simulate_games(r, n, seed, policy, max_deals=self.max_deals, first=lo)
                      for r in (ra, rb))
            return da, db, np.ones(n, dtype=bool)
        shown = {} if self.contract is None else {"contract": self.contract}
        da = g.simulate(ra, n, seed, policy, lo, **shown)
        db = g.simulate(rb, n, seed, policy, lo, **shown)
        return da, db, g.shared_rows(da, db)

    def measures(self, g, df: pd.DataFrame, rules, redealing: bool,
                 pair) -> dict[str, np.ndarray]:
        """The game's compare measures of ``df`` (``pair``: both variants' rules), and where
        either variant may redeal, whether each deal was thrown in (the rule's effect that the
        played deals alone would hide)."""
        if self.whole_games:
            return g.game_measures(df, self.max_deals)
        measures = g.compare_measures(df, rules, pair)
        if redealing:
            measures[THROWN_IN] = (df["redeals"].to_numpy() > 0).astype(float)
        return measures

    def bounds(self, g, ra, rb) -> dict[str, tuple[float, float]]:
        """Each measure's range under either variant (a flag may change a game's points)."""
        if self.whole_games:
            return g.game_bounds(self.max_deals)
        a, b = g.compare_bounds(ra), g.compare_bounds(rb)
        both = {name: (min(a.get(name, span)[0], span[0]), max(a.get(name, span)[1], span[1]))
                for name, span in b.items()}
        return {THROWN_IN: RATE, **a, **both}


def rows_asked(g, ra, rb, deals, contract, games, max_deals, base) -> Rows:
    """The rows a comparison (:func:`analyzer.compare.compare_variants`) pairs, refusing in
    one line what whole games cannot take: deals beside them, a two-level run, King."""
    if games is None:
        if max_deals is not None:
            raise ArgumentError("max_deals bounds whole games: give games (the number of "
                                "games to the target) too")
        return Rows(contract)
    if g.plays_whole_games and not g.whole_games:  # King: its rows are whole games already
        raise ArgumentError(f"{g.title}'s compare pairs its whole games already (a game a "
                            "row); games is for games to a target score: drop it")
    g.require("whole_games", "compare --games (games to a target score)")
    for name, given in (("deals", deals), ("base", base)):  # a contract: King's, refused above
        if given is not None:
            raise ArgumentError(f"games compares whole games to the target; {name} is for "
                                "single deals: give one of games and " + name)
    check_counts(games=games, max_deals=max_deals, optional=("max_deals",))
    if max_deals is None:
        max_deals = max(g.default_max_deals(ra), g.default_max_deals(rb))
    return Rows(max_deals=max_deals)


OWN_ROWS = Rows()  # the game's own rows: deals (King: whole 10-hand games)
