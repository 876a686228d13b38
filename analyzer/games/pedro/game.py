"""Pedro and Cinch as the generic code sees them: :data:`GAME` (the
:class:`~analyzer.games.protocol.Game` interface). Each method imports what it needs when
called, so that asking for the interface loads nothing heavy.

May import: the foundations, the generic analyses and views, ``games.common`` and
``games.protocol``, ``games.bidding``, and Pedro's own modules; never another game.
"""

from __future__ import annotations

from ..bidding import BiddingGame
from ..protocol import Game


class PedroGame(BiddingGame):
    name = "pedro"
    title = "Pedro / Cinch"
    sources = {"pedro": "Pedro, seed 000 (Hoyle), docs/rules.md §1",
               "cinch": "Cinch / Double Pedro, seed 002 (Foster's Hoyle), docs/rules.md §2"}
    hand_cards = 9
    whole_games = True
    kernel_modules = ("engine", "games")  # whole games to a target have their own kernel
    text_columns = {**Game.text_columns, "bidder": "seat", "maker": "seat"}
    guide_caption = Game.guide_caption + (" The dealer's bid b is a ceiling: bidding last, he "
                                          "takes the contract at the lowest legal bid up to b.")

    @property
    def chart_by(self):
        from .chart import DEFAULT_BY, FEATURES

        return FEATURES, DEFAULT_BY

    def bid_words(self, seat: str) -> str:
        from .hand_view import bid_verb

        return bid_verb(seat)

    def chart_note(self, rules) -> str:
        """Method 2 with the difference to the side with more settles every deal's margin as
        method 1 does, so its guide (net points) is method 1's: say so, not show it as new."""
        if rules.scoring == 2 and rules.m2_diff_to == "side_with_more":
            return (" Net of a deal is the same under methods 1 and 2 here (made: B − O; set: "
                    "−b − O), so this guide is the one method 1 (Pedro's scoring) gives: the "
                    "method changes who writes the points down, not the margin.")
        return ""

    def summarize(self, df):
        from .summary import summarize

        return summarize(df)

    def compare_measures(self, df, rules, pair=None):
        from .summary import compare_measures

        return compare_measures(df, rules)

    def compare_bounds(self, rules):
        from .summary import compare_bounds

        return compare_bounds(rules)

    def deal_points(self, rules):
        from .rules import DEAL_POINTS

        return DEAL_POINTS

    def conservation(self, df, rules):
        import numpy as np

        got = (df["points0"] + df["points1"] + df["dead_points"]).to_numpy()
        return got, np.full(len(df), self.deal_points(rules))

    def render_deal(self, rules, seed, index, policy, labels=True, contract=None):
        from .view import render_deal

        log = self.play_logged(rules, seed, index, policy, contract)[0]
        return render_deal(log, seed=seed, policy=policy, rules=str(rules), labels=labels)

    def simulate_games(self, rules, n, seed, policies, max_deals=None, progress=None,
                       first=0):
        return self.module.simulate_games(rules, n, seed, policies, first, max_deals=max_deals,
                                          progress=progress)

    def settlement_column(self, rules):
        return f"score{rules.scoring}_bid"  # by the rules' settlement method

    def parse_hand(self, text, rules):
        from .evaluate import parse_hand

        return parse_hand(text)

    def evaluate_hand(self, rules, hand, seat, **options):
        from .evaluate import evaluate_hand

        self.check_contract(options.pop("contract", None), rules, "contract")
        return evaluate_hand(rules, hand, seat, **options)

    def render_hand(self, ev):
        from .hand_view import render_hand

        return render_hand(ev)

    def hand_json(self, ev):
        from ...hand_view import hand_json
        from .hand_view import MODEL_NOTE, reach_clause

        return hand_json(ev, MODEL_NOTE, reach_clause(ev))

    def hand_figure(self, ev):
        from ... import plotting
        from ..common import policy_label
        from .hand_view import bid_verb
        from .rules import parse_rules

        return plotting.ev_by_bid(
            ev.bids, ev.pass_ev, method=parse_rules(ev.rules).scoring, net=True,
            title=f"{ev.hand} at {ev.seat}: EV by bid\n{ev.rules}, "
                  f"policy {policy_label(ev.policy)}, seed {ev.seed}, n={ev.n:,}, "
                  f"stopped by {ev.stopped_by}",
            xlabel=("bid up to b (the dealer bids last: the lowest legal bid up to b; names "
                    "trump if he wins)") if bid_verb(ev.seat) != "bid" else None)

    def chart_game(self, rules):
        from .chart import chart_game

        return chart_game(rules)

    def scoring_method(self, rules):
        return rules.scoring

    def makers(self, rec, cols):
        import numpy as np

        bidder, dealer = rec[:, cols.index("bidder")], rec[:, cols.index("dealer")]
        return np.where(bidder >= 0, bidder, dealer).astype(np.int64)

    def team_columns(self, rules):
        m = rules.scoring
        return "points0", "points1", f"score{m}_team0", f"score{m}_team1"

    def search_rules(self, rules, trump, contract):
        from .position import search_rules

        self.check_contract(contract)
        return search_rules(rules, trump)

    def deal_position(self, rules, seed, index, policy, contract=None):
        log = self.play_logged(rules, seed, index, policy, contract)[0]
        side = log["bidder"] if log["bidder"] is not None else log["dealer"]
        return log["start_hands"], log["trump"], side, side, None


GAME = PedroGame()
