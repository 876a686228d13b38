"""A Rook position as the solver reads it (:class:`analyzer.solver.SearchRules`): a trump
suit, or no trump under allow_no_trump; equal hands of at most the hand size; the deck of
the point scheme (2s-4s removed under parker_adapt) with the Rook; and the search layout
with the Rook moved into the trump lane. May import: the solver, this game.
"""

from __future__ import annotations

import numpy as np

from ...cards import JOKER, format_card
from ...solver import PositionError, SearchRules, parse_trump
from .adapter import rook_from_search, rook_setup, rook_to_search
from .rules import P_ROOK_POS, kernel_params


def search_rules(rules, trump) -> SearchRules:
    code = parse_trump(trump, None if rules.allow_no_trump else
                       "no trump needs the rule allow_no_trump=true; trump: C, D, H or S")
    rp = kernel_params(rules)
    pos = int(rp[P_ROOK_POS])

    def check_deck(seen):
        bad = [c for c in seen if c != JOKER and c % 16 < rules.lowest_rank]
        if bad:
            raise PositionError(f"card {format_card(bad[0])} is not in the deck under "
                                f"points={rules.points}")

    def moved(fn, c):
        return int(fn(np.uint64(1 << c), code, pos)).bit_length() - 1

    def layout(seen, q, cpts, tv):
        return (lambda c: moved(rook_to_search, c), lambda c: moved(rook_from_search, c),
                lambda side: rook_setup(rp, code, side, q, cpts, tv))

    return SearchRules(code, None, rules.hand_size, False, False, check_deck, layout)
