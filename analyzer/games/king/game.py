"""King as the generic code sees it: :data:`GAME` (the
:class:`~analyzer.games.protocol.Game` interface). King is individual (no partnerships),
has contracts instead of bids, and charts danger and the trump right. Each method imports
what it needs when called.

May import: the foundations, the generic analyses and views, ``games.common`` and
``games.protocol``, and King's own modules; never another game.
"""

from __future__ import annotations

from ..protocol import BenchCase, Game
from .rules import CONTRACT_OPTIONS


class KingGame(Game):
    name = "king"
    title = "King"
    sources = {"king": "King (Brazilian 10-hand game), seed 003, docs/rules.md §3"}
    hand_cards = 13
    compare_unit = "game"  # its whole 10-hand games
    deal_unit = "hands"  # one of a game's ten
    compare_headlines = ("final score",)  # not one hand's dealer points
    guide_caption = ("The trump right by class of hand: its value in tricks (naming trump "
                     "minus another seat naming it, on the same deals, 95% CI), the most worth "
                     "offering for it, the offers the benefited should accept, and whether it "
                     "should decline the hand (4 tricks to it, 3 to each other seat) rather "
                     "than name trump.")
    contracts = CONTRACT_OPTIONS
    partnerships = False
    text_columns = {**Game.text_columns, "buyer": "seat", "chooser": "seat", "leader": "seat",
                    "kh_seat": "seat", "kh_finder": "seat"}
    search_sizes = {"bid-chart": 500}  # whole 10-hand games: 500 take 65 s
    chart_by = None  # its charts choose their features per contract
    adaptive_hands = False
    bid_tables = False
    searches_whole_hand = False  # the last 6 tricks (README, "Searching players")
    two_level_charts = False  # its charts are by contract and seat, not one seat's actions
    instead = {"whole_games": "has none; its whole 10-hand games: bidlab simulate king",
               "chart_by": "charts choose their features per contract",
               "two_level_charts": "has none (its charts are by contract and class of hand, "
                                   "not one seat's bids); a King hand takes --base: bidlab "
                                   "hand king HAND --policy pimc --base heuristic"}
    bench_cases = tuple(BenchCase(c, {"contract": c}) for c in CONTRACT_OPTIONS)

    def check_contract(self, contract, rules=None, what="--contract"):
        from ...variants import RuleError
        from .rules import check_played, parse_contract

        if contract is not None and contract != "all":
            try:  # the RuleError names the contracts; ``what`` says where it was asked for
                code = parse_contract(contract)
                if rules is not None:
                    check_played(code, rules)
            except RuleError as e:
                raise RuleError(f"{what}: {e}") from None

    def simulate(self, rules, n, seed, policies, first=0, batch=None, progress=None,
                 contract=None):
        self.check_contract(contract, rules)
        extra = {} if batch is None else {"batch": batch}
        return self.module.simulate(rules, n, seed, policies, first, progress=progress,
                                    contract=contract, **extra)

    def summarize(self, df):
        from .summary import summarize

        return summarize(df)

    def compare_measures(self, df, rules, pair=None):
        from .summary import compare_measures

        return compare_measures(df, rules, pair)

    def compare_bounds(self, rules):
        from .summary import compare_bounds

        return compare_bounds(rules)

    def play_logged(self, rules, seed, index, policy, contract=None):
        self.check_contract(contract, rules)
        if contract is None:  # a row of simulate is a whole game: ten hands
            return self.module.play_game_logged(rules, seed, index, policy)
        return self.module.play_logged(rules, seed, [index], policy, contract=contract)

    def conservation(self, df, rules):
        import numpy as np

        from .rules import HAND_TOTALS

        if "total0" in df:  # whole games: what one seat loses another wins
            return df[[f"total{s}" for s in range(4)]].sum(axis=1).to_numpy(), np.zeros(len(df))
        got = df[[f"points{s}" for s in range(4)]].sum(axis=1).to_numpy()
        return got, np.array([HAND_TOTALS[c] for c in df["contract"].to_numpy()])

    def render_deal(self, rules, seed, index, policy, labels=True, contract=None):
        from . import view

        logs = self.play_logged(rules, seed, index, policy, contract)
        shown = {"seed": seed, "policy": policy, "rules": str(rules), "labels": labels}
        if contract is None:
            return view.render_game(logs, **shown)
        return view.render_hand(logs[0], **shown)

    # ---- a report's tables: every row of simulate is a whole game of ten hands --------------

    sides = ("first dealer", "first dealer + 1", "first dealer + 2", "first dealer + 3")
    plays_whole_games = True

    def game_start(self, rules) -> str:
        chosen = ("drawn at random (the seat dealt the K♥ as the cards go round one by one)"
                  if rules.first_dealer == "random" else
                  "named by the seat dealt the K♥, who names the seat on its left so as to "
                  "deal fourth (first_dealer=kh_finder_chooses)")
        return (f"each game's first dealer is {chosen}, the deal passes to the left, and the "
                "sides are counted from the first dealer")

    def whole_game_rows(self, rules, n, seed, policies, max_deals=None, progress=None, first=0):
        import numpy as np

        winner, scores = _by_position(self.simulate(rules, n, seed, policies, first,
                                                    progress=progress))
        return winner, np.full(len(scores), len(rules.contracts)), scores

    def seat_positions(self, df, rules):
        """Each position's final score and win share (a tie at the top shares the win)."""
        import numpy as np

        from ..standings import whole_games

        winner, scores = _by_position(df)
        return whole_games(winner, np.full(len(scores), len(rules.contracts)), scores,
                           self.sides)[0]

    def parse_hand(self, text, rules):
        from .evaluate import parse_king_hand

        return parse_king_hand(text)

    def evaluate_hand(self, rules, hand, seat, deals=20_000, seed=1, policy="heuristic",
                      known=None, progress=None, contract=None, spread_with=None, base=None,
                      base_deals=100_000, budget=None, **options):
        from .evaluate import evaluate_king_hand

        given = [k for k, v in options.items() if v not in (None, False)]
        if given:
            raise self.refuse(", ".join(given), "adaptive_hands")
        return evaluate_king_hand(rules, hand, seat, contract or "all", deals, seed, policy,
                                  known, progress, spread_with, base, base_deals, budget)

    def hand_work(self, rules, deals, contract=None):
        from .evaluate import king_hand_work

        return king_hand_work(rules, contract or "all", deals)

    def render_hand(self, ev):
        from .evaluate import render_king_hand

        return render_king_hand(ev)

    def hand_json(self, ev):
        from .evaluate import king_hand_json

        return king_hand_json(ev)

    def bid_chart(self, rules, deals, seed, policy, by=None, progress=None, base=None,
                  base_deals=None, budget=None):
        from .chart import king_chart

        if by is not None:
            raise self.refuse("--by", "chart_by")
        if base is not None:
            self.require("two_level_charts", "--base")
        if rules.combined_negatives:  # the danger charts' features are of single contracts
            from ...variants import RuleError

            raise RuleError(f"bid-chart charts the danger of single negative contracts, which "
                            f"{rules} never plays; chart king, or simulate or hand the joined "
                            "contracts (--contract no-hearts+no-king-of-hearts)")
        return king_chart(rules, deals, seed, policy, progress=progress)

    def chart_run(self, rules, seed, policy, by=None):
        from .chart import KingChartAccumulator

        if by is not None:
            raise self.refuse("--by", "chart_by")
        return KingChartAccumulator(rules, policy, seed)

    def render_chart(self, chart):
        from .chart_view import render_king_chart

        return render_king_chart(chart)

    def chart_contents(self, chart):
        from .chart_view import king_chart_contents

        return king_chart_contents(chart)

    def write_chart(self, chart, out_dir):
        from .chart_view import write_king_chart

        return write_king_chart(chart, out_dir)

    def ladder(self, rules, idx, seed, rungs, opponents, worlds, contract, progress):
        from .ladder import king_ladder

        return king_ladder(rules, idx, seed, rungs, opponents, worlds, contract, progress)

    def search_rules(self, rules, trump, contract):
        from .position import search_rules

        return search_rules(rules, trump, contract)

    def deal_position(self, rules, seed, index, policy, contract=None):
        from ...solver import PositionError

        if contract is None:
            raise PositionError("King needs --contract with --from-deal")
        log = self.play_logged(rules, seed, index, policy, contract)[0]
        if log["leader"] is None:  # a positive hand declined 4-3-3-3 is never played
            raise PositionError(f"deal {index} of seed {seed} was declined 4-3-3-3 in the "
                                "auction: no play to solve; try another --from-deal")
        return log["hands"], log["trump"], log["leader"], log["leader"], log.get("contract")


GAME = KingGame()


def _by_position(df):
    """(winner, final scores) of whole games, each seat counted from the first dealer; the
    winner is -2 where the top score is shared."""
    import numpy as np

    seats = (df["first_dealer"].to_numpy()[:, None] + np.arange(4)) % 4
    scores = np.take_along_axis(df[[f"total{s}" for s in range(4)]].to_numpy(), seats, axis=1)
    top = scores == scores.max(axis=1, keepdims=True)
    return np.where(top.sum(axis=1) == 1, top.argmax(axis=1), -2), scores
