"""Rook with a standard deck plus a joker, "Princeton rules": flags of docs/rules.md §4 and §7.

Every Rook flag of docs/rules.md §7 is a field with its default and a one-line
comment. Decisions the source text leaves open are listed in
``tests/reference/ROOK_LOG_FORMAT.md``. The kernels read the flags as a small
int64 vector built by :func:`kernel_params`.

May import: :mod:`analyzer.variants`; never another game.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...variants import VariantRules, define_presets, flag, flag_index

RANK_CHARS = "23456789TJQKA"
# ROOK_RANK: lowest trump (the default), above the trump <rank> (CUSTOM_POSITION(k)), or highest
ROOK_RANKS = ("lowest_trump", *(f"above_{r}" for r in RANK_CHARS[:-1]), "highest_trump")
PASS_CYCLES = {  # direction of hand h is cycle[h % len(cycle)]: +1 left, -1 right, 0 none
    "right_left": (-1, 1),
    "right_left_none": (-1, 1, 0),
    "left": (1,),
    "right": (-1,),
    "none": (0,),
}
# card points by rank 2..A, the Rook's points, the last-trick bonus, and the lowest rank dealt
POINT_SCHEMES = {
    "princeton": ((0, 0, 0, 5, 0, 0, 0, 0, 10, 0, 0, 10, 15), 20, 20, 0),
    "no_last_trick_bonus": ((0, 0, 0, 5, 0, 0, 0, 0, 10, 0, 0, 10, 15), 20, 0, 0),
    "parker_adapt": ((0, 0, 0, 5, 0, 0, 0, 0, 10, 0, 0, 0, 10), 20, 0, 3),
}


@dataclass(frozen=True)
class Rules(VariantRules):
    game: str = "rook"
    rook_rank: str = flag("lowest_trump", ROOK_RANKS,
                          "the Rook's place in the trump suit: lowest, above a trump rank, highest")
    rook_free_play: bool = flag(False, (False, True),
                                "the Rook may be played at any time, even when able to follow")
    bid_step: str = flag("any_multiple_of_5", ("any_multiple_of_5", "exactly_5"),
                         "a raise is any multiple of 5 above the high bid, or exactly 5")
    all_pass: str = flag("fourth_forced_at_70", ("fourth_forced_at_70", "redeal"),
                         "first three pass: the dealer declares at 70, or all four may pass "
                         "and the hand is redealt")
    drop: str = flag("any_card", ("any_card", "no_counters", "no_rook"),
                     "which card the declarer may drop after taking the widow")
    drop_points_to: str = flag("declarer_team", ("declarer_team", "last_trick_winner"),
                               "who scores the dropped card's points")
    pass_cycle: str = flag("right_left", tuple(PASS_CYCLES),
                           "passing direction by hand index: right, left, ... or a fixed one")
    allow_no_trump: bool = flag(False, (False, True),
                                "the declarer may call no trump (the Rook is then the only trump)")
    first_lead: str = flag("declarer_chooses", ("declarer_chooses", "declarer", "left_of_declarer"),
                           "who leads trick 1")
    points: str = flag("princeton", tuple(POINT_SCHEMES),
                       "A15 K10 T10 5s5 Rook20 last trick 20 (200); without the last trick "
                       "(180); or A10 T10 5s5 Rook20 with 2-4 removed (120)")
    opp_scores: str = flag("always", ("always", "not_when_declarer_set"),
                           "the opponents score their points always, or not when the declarer "
                           "is set")
    target: int = flag(500, range(1, 1_000_001), "game target in points (full games only)",
                       scope="game")
    tie: str = flag("higher_then_declarer", ("higher_then_declarer",),
                    "both reach the target: the higher total wins, then the declarer's team",
                    scope="game")

    # ---- derived quantities the engine and the analysis share -------------------------
    @property
    def lowest_rank(self) -> int:
        """Ranks below this (0 = the 2) are removed from the deck."""
        return POINT_SCHEMES[self.points][3]

    @property
    def hand_size(self) -> int:
        return 13 - self.lowest_rank

    @property
    def deck_size(self) -> int:
        return 4 * self.hand_size + 1

    @property
    def total_points(self) -> int:
        ranks, rook, last, low = POINT_SCHEMES[self.points]
        return 4 * sum(ranks) + rook + last

    @property
    def bids(self) -> tuple[int, ...]:
        """Legal bid amounts: multiples of 5 from 70 up to the points in a hand (200 by default)."""
        return tuple(range(70, self.total_points + 1, 5))


PRESETS = define_presets(Rules, rook={})
PRESET_NAMES = tuple(PRESETS)
parse_rules = Rules.parse  # parse_rules("rook(flag=value)"), extra flag=value pairs on top


def one_flag_variants(int_values: tuple[int, ...] = (100,)) -> list[Rules]:
    """Each preset, and each preset with one flag changed to each allowed value."""
    return Rules.one_flag_variants(int_values)


# ---- the int64 vector the kernels read ------------------------------------------------

(P_ROOK_POS, P_FREE_PLAY, P_BID_STEP, P_ALL_PASS, P_DROP, P_DROP_TO, P_NO_TRUMP, P_FIRST_LEAD,
 P_OPP_SCORES, P_LOW_RANK, P_ROOK_PTS, P_LAST_PTS, P_TOTAL, P_HAND, P_NCYCLE,
 P_CYCLE) = range(16)  # fmt: skip
P_RANK_PTS = 19  # 13 entries: points of rank 2..A
P_COUNTERS = P_RANK_PTS + 13  # mask of the cards that score, the Rook left out (sign bit)
P_TARGET = P_COUNTERS + 1  # the game target (whole games only; ``tie`` has one value)
N_PARAMS = P_TARGET + 1


def kernel_params(rules: Rules) -> np.ndarray:
    """Flags as small ints; P_ROOK_POS is how many real trumps the Rook ranks above (0..13)."""
    p = np.zeros(N_PARAMS, dtype=np.int64)
    p[P_ROOK_POS] = flag_index(rules, "rook_rank")
    p[P_FREE_PLAY] = int(rules.rook_free_play)
    p[P_BID_STEP] = flag_index(rules, "bid_step")
    p[P_ALL_PASS] = flag_index(rules, "all_pass")
    p[P_DROP] = flag_index(rules, "drop")
    p[P_DROP_TO] = flag_index(rules, "drop_points_to")
    p[P_NO_TRUMP] = int(rules.allow_no_trump)
    p[P_FIRST_LEAD] = flag_index(rules, "first_lead")
    p[P_OPP_SCORES] = flag_index(rules, "opp_scores")
    ranks, rook, last, low = POINT_SCHEMES[rules.points]
    p[P_LOW_RANK] = low
    p[P_ROOK_PTS] = rook
    p[P_LAST_PTS] = last
    p[P_TOTAL] = rules.total_points
    p[P_HAND] = rules.hand_size
    cycle = PASS_CYCLES[rules.pass_cycle]
    p[P_NCYCLE] = len(cycle)
    p[P_CYCLE:P_CYCLE + len(cycle)] = cycle
    p[P_RANK_PTS:P_RANK_PTS + 13] = ranks
    p[P_COUNTERS] = sum(1 << (16 * s + r) for s in range(4) for r in range(13) if ranks[r])
    p[P_TARGET] = rules.target
    return p
