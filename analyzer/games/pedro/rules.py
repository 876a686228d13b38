"""Pedro (seed 000) and Cinch / Double Pedro (seed 002) rule flags, docs/rules.md §1, §2, §7.

Every flag of docs/rules.md §7 is a field with its default and a one-line comment;
the two presets differ only where §2.4 says Cinch differs. The kernels read
the flags as a small int64 vector built by :func:`kernel_params`.

May import: :mod:`analyzer.variants`; never another game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from ...variants import VariantRules, define_presets, flag, flag_index


@dataclass(frozen=True)
class Rules(VariantRules):
    game: str = "pedro"  # preset family: pedro (seed 000) or cinch (seed 002)
    min_bid: int = flag(1, (1, 6, 7), "lowest legal bid (docs/rules.md §1.3)")
    all_pass: str = flag(
        "dealer_names_no_contract",
        ("dealer_names_no_contract", "dealer_forced_min_bid", "redeal"),
        "when all four pass: dealer names trump with no contract, is forced to min_bid, or redeal",
    )
    low_to: str = flag("winner", ("winner", "holder"), "Low scores to the trick winner or holder")
    high_low_def: str = flag(
        "fixed_a_and_2",
        ("fixed_a_and_2", "highest_lowest_in_play"),
        "High/Low are the trump A and 2, or the highest/lowest trump in play",
    )
    scoring: int = flag(1, (1, 2), "method 1 set-back (Pedro) or 2 difference (Cinch), §1.9")
    m2_diff_to: str = flag(
        "side_with_more",
        ("side_with_more", "bidder_only"),
        "method 2 made bid: the difference goes to the side with more, or only to the bidder",
    )
    target: int = flag(51, range(1, 1_000_001), "game target in points (full games only)",
                       scope="game")
    no_contract_tie: str = flag(
        "higher_total_then_dealer",
        ("higher_total_then_dealer", "play_on"),
        "both sides reach the target on a no-contract deal (full games only)",
        scope="game",
    )
    trump_while_able_to_follow: str = flag(
        "allowed", ("allowed", "forbidden"), "may trump a plain lead while holding its suit"
    )
    excess_trumps: str = flag(
        "discard_dead",
        ("discard_dead", "keep_all_dump_on_trick1"),
        "more than 6 trumps: keep 6 and the rest are dead, or keep all and dump on trick 1",
    )
    discarded_counter_scoring: str = flag(
        "dead",
        ("dead", "s000_mistake_rule", "s002_to_trump_maker"),
        "who scores a discarded counting trump: nobody, seed-000 mistake rule, trump maker",
    )
    stock_short: str = flag(
        "keep_own_nontrumps",
        ("keep_own_nontrumps", "play_short_hand", "redeal"),
        "stock cannot fill a hand to 6: keep own best non-trumps, play short, or redeal",
    )
    cinch_keep_nontrumps: str = flag(
        "custom_all_but_trumps",
        ("custom_all_but_trumps", "free"),
        "custom: all but Cinch's dealer throw every non-trump away; free: any may keep some",
    )
    rob_disclosure: str = flag(
        "hidden",
        ("hidden", "face_leftover_trumps"),
        "after robbing, the dealer's leftover stock trumps stay hidden or are faced",
    )

    # What one preset accepts of a flag, where it is less than the flag's values: Cinch's
    # Low goes to the winner (§2.4), and only Cinch's law lets players keep non-trumps.
    PRESET_NOTES: ClassVar[dict[str, str]] = {
        "cinch": "its dealer, robbing, may keep his own non-trumps (Cinch's custom, "
                 "docs/rules.md §2.1)"}
    PRESET_ALLOWED: ClassVar[dict] = {
        "cinch": {"low_to": ("winner",)},
        "pedro": {"cinch_keep_nontrumps": ("custom_all_but_trumps",)},
    }


DEAL_POINTS = 14  # High, Low, Jack, Game and the two Pedros: 1 + 1 + 1 + 1 + 5 + 5
PRESETS = define_presets(Rules, pedro={}, cinch={"scoring": 2})
PRESET_NAMES = tuple(PRESETS)
parse_rules = Rules.parse  # parse_rules("pedro(flag=value)"), extra flag=value pairs on top


def one_flag_variants(int_values: tuple[int, ...] = (21, 100)) -> list[Rules]:
    """Each preset, and each preset with one flag changed to each allowed value."""
    return Rules.one_flag_variants(int_values)


# ---- the int64 vector the kernels read ------------------------------------------------

P_MIN_BID, P_ALL_PASS, P_LOW_TO, P_HIGH_LOW, P_SCORING, P_M2_DIFF = range(6)
P_TRUMP_FOLLOW, P_EXCESS, P_DISCARDED, P_STOCK_SHORT, P_KEEP_FREE, P_ROB_FACE = range(6, 12)
P_TARGET, P_NO_CONTRACT_TIE = 12, 13
N_PARAMS = 14
# P_KEEP_FREE: who may keep non-trumps at the discard. Pedro's rule binds everyone (S000);
# Cinch's custom every player except the dealer, who robs (S002); Cinch's law nobody.
KEEP_NONE, KEEP_FREE, KEEP_DEALER = 0, 1, 2


def kernel_params(rules: Rules) -> np.ndarray:
    """Flags as small ints: each enum flag is its index in the allowed tuple."""
    p = np.zeros(N_PARAMS, dtype=np.int64)
    p[P_MIN_BID] = rules.min_bid
    p[P_ALL_PASS] = flag_index(rules, "all_pass")
    p[P_LOW_TO] = flag_index(rules, "low_to")
    p[P_HIGH_LOW] = flag_index(rules, "high_low_def")
    p[P_SCORING] = rules.scoring
    p[P_M2_DIFF] = flag_index(rules, "m2_diff_to")
    p[P_TRUMP_FOLLOW] = flag_index(rules, "trump_while_able_to_follow")
    p[P_EXCESS] = flag_index(rules, "excess_trumps")
    p[P_DISCARDED] = flag_index(rules, "discarded_counter_scoring")
    p[P_STOCK_SHORT] = flag_index(rules, "stock_short")
    if rules.cinch_keep_nontrumps == "free":
        p[P_KEEP_FREE] = KEEP_FREE
    else:
        p[P_KEEP_FREE] = KEEP_DEALER if rules.game == "cinch" else KEEP_NONE
    p[P_ROB_FACE] = flag_index(rules, "rob_disclosure")
    p[P_TARGET] = rules.target
    p[P_NO_CONTRACT_TIE] = flag_index(rules, "no_contract_tie")
    return p
