"""Two-level hand evaluations for any game whose evaluation folds batches into a tally: the
cheap policy's tally over N deals, the searching policy's over the first n of them, and the
joint moments of both policies' net scores on those n deals (:mod:`analyzer.twolevel`).

A game describes its evaluation with a :class:`HandModel` (module-level functions and
partials, so that a cluster's workers can unpickle it) and calls :func:`two_level_hand`.

May import: :mod:`.rollout`, :mod:`.stats`, :mod:`.twolevel`, :mod:`.games.common`; never a
game.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .games.common import one_policy_for_every_seat, parse_policies, policy_string
from .rollout import HandError, batch_for, run_two_level
from .stats import PairedMoments
from .twolevel import TwoLevelMoments, check_request


@dataclass(frozen=True)
class HandModel:
    """What the two-level driver needs of a game's hand evaluation.

    ``tally()``: a new, empty tally (with ``add(batch, rules)`` and ``absorb``);
    ``batch()``: a new record of one batch; ``simulate(batch, rules, mask, offset, known,
    pols, seed, first, n)``: record deals first .. first+n-1; ``nets(batch, rules)``: the K
    alternatives' net scores, deal by deal; ``ranked(tally, rules)``: the PairedMoments of
    those K net scores in a tally."""

    tally: Callable[[], Any]
    batch: Callable[[], Any]
    simulate: Callable[..., None]
    nets: Callable[[Any, Any], list]
    ranked: Callable[[Any, Any], PairedMoments]


class PairedTally:
    """The paired deals: the searching policy's own tally, and the joint moments of its K net
    scores then the cheap policy's, deal by deal."""

    def __init__(self, model: HandModel, k: int):
        self.search = model.tally()
        self.joint = PairedMoments(2 * k)

    def absorb(self, other: PairedTally) -> None:
        self.search.absorb(other.search)
        self.joint.absorb(other.joint)


def grow_tally(tally, model: HandModel, rules, mask, offset, known, pols, seed, first: int,
               n: int) -> None:
    """Add deals first .. first+n-1, played by ``pols``, to ``tally``."""
    batch = model.batch()
    model.simulate(batch, rules, mask, offset, known, pols, seed, first, n)
    tally.add(batch, rules)


def grow_paired(paired: PairedTally, model: HandModel, rules, mask, offset, known, pols,
                base_pols, seed, first: int, n: int) -> None:
    """Add deals first .. first+n-1, played by both policies, to ``paired``."""
    search, cheap = model.batch(), model.batch()
    model.simulate(search, rules, mask, offset, known, pols, seed, first, n)
    model.simulate(cheap, rules, mask, offset, known, base_pols, seed, first, n)
    paired.search.add(search, rules)
    paired.joint.add_columns([*model.nets(search, rules), *model.nets(cheap, rules)])


def check_two_level(target_ci, time_budget, until_decided) -> None:
    """HandError when a stop rule is asked of a two-level evaluation."""
    if target_ci is not None or time_budget is not None or until_decided:
        raise HandError("a two-level evaluation (base policy) plays --deals and "
                        "--base-deals, or splits --budget; not --target-ci, "
                        "--time-budget or --until-decided")


@dataclass
class TwoLevelRun:
    """A grown two-level evaluation: the searching policy's tally over its n deals, the
    two-level moments of the K net scores, and what the provenance says of them."""

    tally: Any
    moments: TwoLevelMoments
    n: int
    stopped_by: str
    base_policy: str
    n_base: int

    @property
    def provenance(self) -> dict:
        """The fields a hand evaluation adds for a two-level run."""
        return {"base_policy": self.base_policy, "n_base": self.n_base}


def two_level_hand(model: HandModel, rules, mask, offset, known, pols, base: str, seed,
                   deals: int, base_deals: int, budget: float | None, progress=None,
                   spread_with=None) -> TwoLevelRun:
    """Grow a two-level evaluation (:func:`analyzer.rollout.run_two_level`) of ``pols``
    over ``base``, a cheaper policy string; ``spread_with`` grows it on a cluster."""
    base_pols = parse_policies(base)
    one_policy_for_every_seat(base_pols, "a hand evaluation's base policy")
    check_request(policy_string(pols), policy_string(base_pols),
                  None if budget is not None else deals, base_deals)  # as compare and charts
    cheap = model.tally()
    k = model.ranked(cheap, rules).k
    paired = PairedTally(model, k)
    base_args = (model, rules, mask, offset, known, base_pols, seed)
    paired_args = (model, rules, mask, offset, known, pols, base_pols, seed)

    def moments() -> TwoLevelMoments:
        return TwoLevelMoments(model.ranked(cheap, rules), paired.joint)

    def spread(factory, grow, args, into):
        return spread_with(factory, grow, args, into) if spread_with else None

    n, big, stopped_by = run_two_level(
        lambda first, size: grow_tally(cheap, *base_args, first, size),
        lambda first, size: grow_paired(paired, *paired_args, first, size),
        lambda: moments().leading_variances(), deals,
        base_deals, budget, progress,
        spread(model.tally, grow_tally, base_args, cheap),
        spread(functools.partial(PairedTally, model, k), grow_paired, paired_args, paired),
        batch_for(pols))
    return TwoLevelRun(paired.search, moments(), n, stopped_by, policy_string(base_pols), big)
