"""A King position as the solver reads it (:class:`analyzer.solver.SearchRules`): a
contract always; negatives at no trump, the positive hand with a trump suit (or no trump
under allow_no_trump); equal hands of at most 13 cards; the 52-card deck; and a paranoid
search: the seat's own contract points against the other three. May import: the solver,
this game.
"""

from __future__ import annotations

from ...cards import JOKER
from ...solver import PositionError, SearchRules, parse_trump
from .adapter import king_setup
from .rules import (
    CONTRACT_OPTIONS,
    P_KH_FORCE,
    POSITIVE,
    contract_name,
    kernel_params,
    parse_contract,
)


def search_rules(rules, trump, contract) -> SearchRules:
    if contract is None:

        raise PositionError(f"King needs --contract; contracts: {', '.join(CONTRACT_OPTIONS)} (two "
                            f"negatives may be joined by +)")
    code = parse_contract(contract) if isinstance(contract, str) else int(contract)
    name = contract_name(code)
    trump_code = parse_trump(trump, None)
    if code != POSITIVE and trump_code != 4:
        raise PositionError(f"{name.replace('_', '-')} is played without trump; leave "
                            "--trump out")
    if code == POSITIVE and trump_code == 4 and not rules.allow_no_trump:
        raise PositionError("a positive hand at no trump needs allow_no_trump=true")
    rp = kernel_params(rules)

    def check_deck(seen):
        if JOKER in seen:
            raise PositionError("the joker is a Rook card; King is played with 52 cards")

    def layout(seen, q, cpts, tv):
        return int, int, lambda seat: king_setup(code, rp[P_KH_FORCE] == 1, trump_code, seat,
                                                 q, cpts, tv)

    return SearchRules(trump_code, name, 13, False, True, check_deck, layout)
