"""A Pedro/Cinch position as the solver reads it (:class:`analyzer.solver.SearchRules`): a
trump suit always, at most six cards a hand (the excess is dumped on trick 1), uneven
hands only under stock_short=play_short_hand, the 52-card deck, and the trump-normalised
search layout. May import: the solver, this game.
"""

from __future__ import annotations

import numpy as np

from ...cards import JOKER
from ...solver import PositionError, SearchRules, parse_trump
from .adapter import pedro_low_card, pedro_setup
from .core import NORM, ORIG
from .rules import P_HIGH_LOW, kernel_params


def search_rules(rules, trump) -> SearchRules:
    code = parse_trump(trump, "Pedro needs a trump suit; trump: C, D, H or S")
    rp = kernel_params(rules)

    def check_deck(seen):
        if JOKER in seen:
            raise PositionError("the joker is a Rook card; Pedro is played with 52 cards")

    def layout(seen, q, cpts, tv):
        every = 0
        for c in seen:
            every |= 1 << int(NORM[code, c])
        low = pedro_low_card(np.uint64(every), rp[P_HIGH_LOW])
        return (lambda c: int(NORM[code, c]), lambda c: int(ORIG[code, c]),
                lambda side: pedro_setup(rp, low, side, q, cpts, tv))

    return SearchRules(code, None, 6, rules.stock_short == "play_short_hand", False,
                       check_deck, layout,
                       "; uneven Pedro hands need the rule stock_short=play_short_hand")
