"""King, the Brazilian 10-hand game (seed 003): flags of docs/rules.md §3 and §7.

Every King flag of docs/rules.md §7 is a field with its default and a one-line
comment. Decisions the source text leaves open are listed in
``tests/reference/KING_LOG_FORMAT.md``. The kernels read the flags as a small
int64 vector built by :func:`kernel_params`.

May import: :mod:`analyzer.variants`; never another game.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...variants import RuleError, VariantRules, define_presets, flag, flag_index

# Negative contracts as bits of a hand's contract code; POSITIVE is its own code.
NO_TRICKS, NO_HEARTS, NO_KINGS_JACKS, NO_QUEENS, NO_KING_OF_HEARTS, LAST_TWO = (
    1 << k for k in range(6))
POSITIVE = 1 << 6
CONTRACT_NAMES = {NO_TRICKS: "no_tricks", NO_HEARTS: "no_hearts",
                  NO_KINGS_JACKS: "no_kings_jacks", NO_QUEENS: "no_queens",
                  NO_KING_OF_HEARTS: "no_king_of_hearts", LAST_TWO: "last_two",
                  POSITIVE: "positive"}
CONTRACT_CODES = {name: code for code, name in CONTRACT_NAMES.items()}
CONTRACT_OPTIONS = tuple(name.replace("_", "-") for name in CONTRACT_NAMES.values())  # as typed
HAND_TOTALS = {NO_TRICKS: -260, NO_HEARTS: -260, NO_KINGS_JACKS: -240, NO_QUEENS: -200,
               NO_KING_OF_HEARTS: -160, LAST_TWO: -180, POSITIVE: 325}
_SEED_ORDER = (NO_TRICKS, NO_HEARTS, NO_KINGS_JACKS, NO_QUEENS, NO_KING_OF_HEARTS, LAST_TWO)
_PT_ORDER = (NO_TRICKS, NO_HEARTS, NO_QUEENS, NO_KINGS_JACKS, NO_KING_OF_HEARTS, LAST_TWO)
_PAIRS = ((NO_TRICKS, LAST_TWO), (NO_HEARTS, NO_KING_OF_HEARTS), (NO_KINGS_JACKS, NO_QUEENS))


def contract_name(code: int) -> str:
    """``no_hearts``, or two names joined by ``+`` for a combined hand."""
    return "+".join(CONTRACT_NAMES[b] for b in sorted(CONTRACT_NAMES) if code & b)


def parse_contract(text: str) -> int:
    """A contract name (``no-hearts`` or ``no_hearts``; two negatives joined by ``+`` for a
    combined hand) as its code; RuleError otherwise."""
    if not isinstance(text, str):
        raise RuleError(f"a contract is a name such as \"no-hearts\"; got {text!r}")
    shown = ", ".join(n.replace("_", "-") for n in CONTRACT_CODES)
    code = 0
    for part in text.split("+"):
        key = part.strip().lower().replace("-", "_")
        if key not in CONTRACT_CODES or (code and POSITIVE in (code, CONTRACT_CODES[key])):
            raise RuleError(f"unknown contract {text!r}; contracts: {shown} (two negatives "
                            f"may be joined by +)")
        # joining bits would read "no-tricks+no-tricks" as no-tricks alone: a typo for a
        # combined hand answered with another hand's numbers
        if code & CONTRACT_CODES[key]:
            raise RuleError(f"contract {text!r} names {key.replace('_', '-')} twice; give one "
                            f"contract, or two different negatives joined by +: {shown}")
        code |= CONTRACT_CODES[key]
    return code


def check_played(code: int, rules) -> None:
    """RuleError for a contract ``rules``' games never play (a negative the
    ``combined_negatives`` games play only joined with another, or a joined pair the plain
    game plays apart): its numbers would be of another game than the rules string says."""
    if code not in rules.contracts:
        played = ", ".join(contract_name(c).replace("_", "-") for c in dict.fromkeys(
            rules.contracts))
        joined = "+" in contract_name(code).replace("_", "-")
        hint = ("; two negatives are played joined under combined_negatives=true"
                if joined and not rules.combined_negatives else
                "; under combined_negatives=true negatives are played joined in pairs"
                if rules.combined_negatives and not joined else "")
        raise RuleError(f"{rules} never plays the hand {contract_name(code).replace('_', '-')}"
                        f"; its contracts: {played}{hint}")


@dataclass(frozen=True)
class Rules(VariantRules):
    game: str = "king"
    first_dealer: str = flag("random", ("random", "kh_finder_chooses"),
                             "the first dealer is random, or named by the seat finding K♥")
    first_lead: str = flag("dealer", ("dealer", "left_of_dealer"),
                           "who leads trick 1 of a negative hand")
    neg_order: str = flag("seed", ("seed", "pt"),
                          "order of the negative hands: seed (K/J before Q) or pt (Q first)")
    combined_negatives: bool = flag(False, (False, True),
                                    "quick game: negatives 1+6, 2+5, 3+4 played together")
    kh_force: str = flag("when_void", ("when_void", "when_void_or_ace_already_played"),
                         "when the K♥ holder must play it in the no-K♥ hand")
    allow_no_trump: bool = flag(False, (False, True), "a positive hand may be played at no trump")
    pos_leader: str = flag("dealer", ("dealer", "trump_chooser", "left_of_dealer"),
                           "who leads trick 1 of a positive hand")
    max_offer: int = flag(13, range(1, 14), "highest offer in tricks in the trump auction")
    payment_floor: str = flag("none", ("none", "zero"),
                              "a buyer with fewer tricks than the price goes negative, or pays "
                              "what he has")
    auction_model: str = flag("ascending_with_priority",
                              ("ascending_with_priority", "valuation_shortcut"),
                              "the canonical ascending auction, or one sealed offer each")

    @property
    def contracts(self) -> tuple[int, ...]:
        """The contract code of each hand of a game, in order."""
        order = _PT_ORDER if self.neg_order == "pt" else _SEED_ORDER
        if self.combined_negatives:
            pairs = sorted(_PAIRS, key=lambda p: min(order.index(p[0]), order.index(p[1])))
            neg = tuple(a | b for a, b in pairs)
        else:
            neg = order
        return (*neg, POSITIVE, POSITIVE, POSITIVE, POSITIVE)


PRESETS = define_presets(Rules, king={})
PRESET_NAMES = tuple(PRESETS)
parse_rules = Rules.parse  # parse_rules("king(flag=value)"), extra flag=value pairs on top


def one_flag_variants(int_values: tuple[int, ...] = (1, 4)) -> list[Rules]:
    """Each preset, and each preset with one flag changed to each allowed value."""
    return Rules.one_flag_variants(int_values)


# ---- the int64 vector the kernels read ------------------------------------------------

(P_FIRST_DEALER, P_FIRST_LEAD, P_KH_FORCE, P_NO_TRUMP, P_POS_LEADER, P_MAX_OFFER, P_FLOOR,
 P_AUCTION, P_N_HANDS, P_CONTRACTS) = range(10)  # fmt: skip
N_PARAMS = P_CONTRACTS + 10


def kernel_params(rules: Rules) -> np.ndarray:
    p = np.zeros(N_PARAMS, dtype=np.int64)
    p[P_FIRST_DEALER] = flag_index(rules, "first_dealer")
    p[P_FIRST_LEAD] = flag_index(rules, "first_lead")
    p[P_KH_FORCE] = flag_index(rules, "kh_force")
    p[P_NO_TRUMP] = int(rules.allow_no_trump)
    p[P_POS_LEADER] = flag_index(rules, "pos_leader")
    p[P_MAX_OFFER] = rules.max_offer
    p[P_FLOOR] = flag_index(rules, "payment_floor")
    p[P_AUCTION] = flag_index(rules, "auction_model")
    contracts = rules.contracts
    p[P_N_HANDS] = len(contracts)
    p[P_CONTRACTS:P_CONTRACTS + len(contracts)] = contracts
    return p
