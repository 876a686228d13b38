"""Rook as the generic code sees it: :data:`GAME` (the
:class:`~analyzer.games.protocol.Game` interface). Each method imports what it needs when
called.

May import: the foundations, the generic analyses and views, ``games.common`` and
``games.protocol``, ``games.bidding``, and Rook's own modules; never another game.
"""

from __future__ import annotations

from ..bidding import BiddingGame
from ..protocol import Game


class RookGame(BiddingGame):
    name = "rook"
    title = "Rook"
    sources = {"rook": "Rook, standard deck + joker, Princeton rules, seed 004, docs/rules.md §4"}
    hand_cards = 13
    compare_unit = "hand"  # a hand to 13 tricks
    deal_unit = "hands"
    maker_verb = "declares"  # and calls trump after the widow
    bids_are_ceilings = True  # "bid up to b"
    searches_whole_hand = False  # the last 6 tricks (README, "Searching players")
    points_digits = 1  # card points come in fives
    whole_games = True
    kernel_modules = ("engine", "games")  # whole games to a target have their own kernel
    text_columns = {**Game.text_columns, "declarer": "seat", "leader": "seat",
                    "rook_seat": ("N", "E", "S", "W", "widow"), "widow": "card", "drop": "card"}

    @property
    def chart_by(self):
        from .chart import ROOK_DEFAULT_BY, ROOK_FEATURE_NAMES

        return ROOK_FEATURE_NAMES, ROOK_DEFAULT_BY

    def summarize(self, df):
        from .summary import summarize

        return summarize(df)

    def compare_measures(self, df, rules, pair=None):
        from .summary import compare_measures

        return compare_measures(df, rules, pair)

    def same_deck(self, ra, rb) -> bool:
        return ra.deck_size == rb.deck_size

    def compare_bounds(self, rules):
        from .summary import compare_bounds

        return compare_bounds(rules)

    def deal_points(self, rules):
        return rules.total_points

    def conservation(self, df, rules):
        import numpy as np

        got = (df["points0"] + df["points1"]).to_numpy()
        return got, np.full(len(df), self.deal_points(rules))

    def render_deal(self, rules, seed, index, policy, labels=True, contract=None):
        from .view import render_hand

        log = self.play_logged(rules, seed, index, policy, contract)[0]
        return render_hand(log, seed=seed, policy=policy, rules=str(rules), labels=labels)

    def simulate_games(self, rules, n, seed, policies, max_deals=None, progress=None,
                       first=0):
        return self.module.simulate_games(rules, n, seed, policies, first, max_deals=max_deals,
                                          progress=progress)

    maker_column = "declarer"

    def settlement_column(self, rules):
        return "score_bid"

    def parse_hand(self, text, rules):
        from .evaluate import parse_rook_hand

        return parse_rook_hand(text, rules)

    def evaluate_hand(self, rules, hand, seat, **options):
        from .evaluate import evaluate_rook_hand

        self.check_contract(options.pop("contract", None), rules, "contract")
        return evaluate_rook_hand(rules, hand, seat, **options)

    def render_hand(self, ev):
        from .hand_view import render_hand

        return render_hand(ev)

    def hand_json(self, ev):
        from ...hand_view import hand_json
        from .hand_view import ROOK_MODEL_NOTE, best_trump_clause

        return hand_json(ev, ROOK_MODEL_NOTE, best_trump_clause(ev))

    def hand_figure(self, ev):
        from ... import plotting
        from ..common import policy_label

        # the ranking always holds the advice's row, with its ceiling as its bid
        chosen = ev.actions.loc[ev.actions["action"] == ev.recommended, "bid"]
        return plotting.ev_by_bid(
            ev.bids, ev.pass_ev, method=None, net=True,
            title=f"{ev.hand} at {ev.seat}: EV by bid\n{ev.rules}, "
                  f"policy {policy_label(ev.policy)}, seed {ev.seed}, n={ev.n:,}, "
                  f"stopped by {ev.stopped_by}",
            xlabel="bid b (trump lines: declaring at b with that trump, nobody else bidding)",
            ceilings=ev.ceilings,
            recommended=int(chosen.iloc[0]) if len(chosen) and chosen.iloc[0] else None)

    def chart_game(self, rules):
        from .chart import chart_game

        return chart_game(rules)

    def makers(self, rec, cols):
        import numpy as np

        return rec[:, cols.index("declarer")].astype(np.int64)

    def team_columns(self, rules):
        return "points0", "points1", "score0", "score1"

    def search_rules(self, rules, trump, contract):
        from .position import search_rules

        self.check_contract(contract)
        return search_rules(rules, trump)

    def deal_position(self, rules, seed, index, policy, contract=None):
        log = self.play_logged(rules, seed, index, policy, contract)[0]
        return log["start_hands"], log["trump"], log["leader"], log["declarer"], None


GAME = RookGame()
