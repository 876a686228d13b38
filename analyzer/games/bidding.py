"""The side of the protocol that Pedro/Cinch and Rook share: :class:`BiddingGame`, a game
whose seats bid for the contract. Its bid chart is the generic one, by seat and class of
hand (:mod:`analyzer.bidchart`, shown by :mod:`analyzer.bidchart_view`), and a hand's
EV-by-bid table is the generic CSV (:mod:`analyzer.hand_view`). King's hands are chosen,
not bid for, and it keeps its own chart.

May import: :mod:`.protocol`; the generic analyses and views inside a method only, when it
is called (as each game's ``game.py`` does), so that asking for a game's interface loads
nothing heavy; never a game.
"""

from __future__ import annotations

from .protocol import Game


class BiddingGame(Game):
    def hand_csv(self, ev):
        from ..hand_view import hand_csv

        return hand_csv(ev)

    def bid_chart(self, rules, deals, seed, policy, by=None, progress=None, base=None,
                  base_deals=None, budget=None):
        from ..bidchart import bid_chart

        return bid_chart(rules, deals, seed, policy, by=by, progress=progress, base=base,
                         base_deals=base_deals, budget=budget)

    def render_chart(self, chart):
        from ..bidchart_view import render_bid_chart

        return render_bid_chart(chart)

    def chart_contents(self, chart):
        from ..bidchart_view import chart_contents

        return chart_contents(chart)

    def write_chart(self, chart, out_dir):
        from ..bidchart_view import write_bid_chart

        return write_bid_chart(chart, out_dir)
