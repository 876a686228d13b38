"""What a Rook hand is worth: the declarer side's points per trump, P(points >= b),
EV(b) for b = 70..200, EV(pass), and how high to bid.

The 13 cards are fixed at one seat (counted from the dealer) and the other 40
dealt at random; the widow, the cards passed in and everything after are
sampled by the counter-based generator, so hand ``i`` of a seed is the same
deal for every alternative and their differences are paired.

Two questions, two models:

* **Per trump** ("if I declare at b and call t"): the seat is made declarer with
  nobody else bidding and calls t; one simulation per trump serves every b,
  because play does not depend on the bid. From it: the distribution of the
  side's points, P(points >= b) and EV(b) = the settlement (docs/rules.md §4.9) of
  the seat's side, own and net of the opponents'.
* **How high to bid** (the auction included): "bid up to b" raises by the
  minimum whenever the seat's turn comes while that stays at most b, and
  passes otherwise; the others bid by their policies and may outbid it; if it
  wins it takes the widow, drops, passes and calls trump by its policy, as a
  player does after seeing the widow. "Pass" passes at once. The recommendation
  follows :mod:`analyzer.advice`: "bid up to b" only where raising to b beats passing
  (and every lower ceiling it displaces) beyond the noise, with P(best) for the leading
  few.

>>> from analyzer import evaluate_hand
>>> ev = evaluate_hand("rook", "AS KS QS JS 9S 5S JK AH KH 5D 2D 3C 4C", deals=2_000)
>>> ev.recommended.startswith("bid up to")
True

May import: the foundations, the generic analyses and views, ``games.common`` and
``games.protocol``, and Rook's own modules; never another game.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ... import shared_play
from ...advice import Decision, decide
from ...cards import JOKER, SUIT_NAMES, CardSet, parse_cards
from ...moments import Histogram
from ...rollout import (
    HandError,
    HandEvaluation,
    batch_for,
    collapse,
    est_cols,
    leading_half_width,
    parse_known,
    rank_alternatives,
    run_stop_rule,
    stop_looks,
)
from ...stats import ColumnMoments, PairedMoments, wilson
from ...two_level_hand import HandModel, check_two_level, grow_tally, two_level_hand
from ...twolevel import check_budget
from .. import rook
from ..common import (
    SEAT_OFFSETS,
    SEATS,
    one_policy_for_every_seat,
    parse_policies,
    policy_string,
)
from . import outcomes

TRUMP_LABELS = (*SUIT_NAMES, "no trump")


def trump_codes(rules: rook.Rules) -> list[int]:
    return [0, 1, 2, 3, 4] if rules.allow_no_trump else [0, 1, 2, 3]


def parse_rook_hand(text: str, rules: rook.Rules) -> int:
    """Mask of a Rook hand (13 cards, 10 under points=parker_adapt); HandError otherwise."""
    cards = parse_cards(text)
    n = rules.hand_size
    if len(cards) != n:
        raise HandError(f"a Rook hand is {n} cards of the {rules.deck_size}-card deck; got "
                        f"{len(cards)} card(s) in {text!r}")
    low = [c for c in cards if c != JOKER and c % 16 < rules.lowest_rank]
    if low:
        raise HandError(f"points={rules.points} plays without the 2s, 3s and 4s; got "
                        f"{' '.join(str(CardSet([c])) for c in low)}")
    return CardSet(cards).mask


def settle(b_pts: np.ndarray, o_pts: np.ndarray, bid: int, rules: rook.Rules):
    """Per-hand (own, opponents') settlement of a declarer side that bid ``bid`` (§4.9)."""
    made = b_pts >= bid
    own = np.where(made, b_pts, -bid)
    opp = o_pts if rules.opp_scores == "always" else np.where(made, o_pts, 0)
    return own, opp


@dataclass
class _Samples:
    """Per-hand outcomes, grown batch by batch: points as declarer per trump, and the
    side's settlement (own, opponents') per alternative: bid up to b for each b, then pass."""

    trumps: list[int]
    n_actions: int
    maker_b: dict = field(default_factory=dict)
    maker_o: dict = field(default_factory=dict)
    own: list = field(default=None)
    opp: list = field(default=None)
    declared: list = field(default=None)

    def __post_init__(self):
        self.maker_b = {t: [] for t in self.trumps}
        self.maker_o = {t: [] for t in self.trumps}
        self.own = [[] for _ in range(self.n_actions)]
        self.opp = [[] for _ in range(self.n_actions)]
        self.declared = [[] for _ in range(self.n_actions)]


class _Tally:
    """A Rook hand evaluation's sufficient statistics, batch by batch: per trump, how often
    each (side's points, other side's points) occurred with the seat as declarer, and the
    paired moments of passing against declaring at each bid; per alternative (bid up to b
    for each b, then pass), the paired moments of the net and own scores, and how often the
    seat declared."""

    def __init__(self, trumps: list[int], n_actions: int, n_bids: int):
        self.trumps = trumps
        self.maker = {t: Histogram(2) for t in trumps}
        self.as_declarer = {t: PairedMoments(1 + n_bids) for t in trumps}
        self.net = PairedMoments(n_actions)
        self.own = ColumnMoments(n_actions)
        self.declared = np.zeros(n_actions, dtype=np.int64)

    def add(self, batch: _Samples, rules: rook.Rules) -> None:
        own = np.array([collapse(o) for o in batch.own])  # (alternative, hand)
        opp = np.array([collapse(o) for o in batch.opp])
        self.net.add_columns(own - opp)
        self.own.add_columns(own)
        self.declared += [int(collapse(d).sum()) for d in batch.declared]
        for t in self.trumps:
            b, o = collapse(batch.maker_b[t]), collapse(batch.maker_o[t])
            self.maker[t].add(b, o)
            self.as_declarer[t].add_columns(
                [own[-1] - opp[-1], *(np.subtract(*settle(b, o, bid, rules))
                                      for bid in rules.bids)])

    def absorb(self, other: _Tally) -> None:
        for t in self.trumps:
            self.maker[t].absorb(other.maker[t])
            self.as_declarer[t].absorb(other.as_declarer[t])
        self.net.absorb(other.net)
        self.own.absorb(other.own)
        self.declared += other.declared


def _alternatives(net, rules: rook.Rules):
    """The moments of each distinct alternative's net score (``net``: of every ceiling, then
    the pass), with labels. Ceilings that lead to the same outcome on every hand (raising
    further never happens) are one alternative, named by the lowest of them."""
    kept, labels = [], []
    for k, bid in enumerate(rules.bids):
        if kept and net.same(kept[-1], k):
            continue
        kept.append(k)
        labels.append((f"bid up to {bid}", "", bid))
    kept.append(net.k - 1)
    labels.append(("pass", "", 0))
    return net.subset(kept), labels


def _nets(batch: _Samples, rules: rook.Rules) -> list:
    """Every alternative's net score (the ceilings, then the pass), hand by hand."""
    return [collapse(own) - collapse(opp) for own, opp in zip(batch.own, batch.opp, strict=True)]


def _ranked(tally: _Tally, rules: rook.Rules) -> PairedMoments:
    return tally.net


def _model(rules: rook.Rules) -> HandModel:
    trumps, k = trump_codes(rules), len(rules.bids) + 1
    return HandModel(functools.partial(_Tally, trumps, k, len(rules.bids)),
                     functools.partial(_Samples, trumps, k), _simulate_batch, _nets, _ranked)


def _simulate_batch(samples: _Samples, rules, mask, offset, known, pols, seed, first, n,
                    share_plays: bool = True):
    """Record hands first .. first+n-1: each alternative played in full, or,
    where the policies and rules allow it, each auction outcome played once (same result;
    see analyzer.shared_play)."""
    if share_plays and outcomes.can_share_plays(rules, pols):
        outcomes.simulate_rook_batch(samples, rules, mask, offset, known, pols, seed, first,
                                        n)
        return

    def run(**kw):
        sc = rook.Scenario(hand=mask, seat=offset, known=known, **kw)
        return rook.run_batch(rules, first, n, seed, pols, scenario=sc)[0]

    from .engine import R_DEALER, R_DECLARER, R_PTS, R_SCORE

    for t in samples.trumps:
        pts = shared_play.side_points(run(force="declarer", trump=t, bid=rules.bids[0]),
                                      offset, R_DEALER, R_PTS)
        samples.maker_b[t].append(pts[:, 0])
        samples.maker_o[t].append(pts[:, 1])
    for k in range(samples.n_actions):
        last = k == samples.n_actions - 1
        rec = run(force="pass") if last else run(force="ceiling", bid=rules.bids[k])
        seat = (rec[:, R_DEALER].astype(np.int64) + offset) % 4
        team = seat & 1
        s0, s1 = rec[:, R_SCORE], rec[:, R_SCORE + 1]
        samples.own[k].append(np.where(team == 0, s0, s1))
        samples.opp[k].append(np.where(team == 0, s1, s0))
        samples.declared[k].append(rec[:, R_DECLARER] == seat)


def _tables(tally: _Tally, rules: rook.Rules, seed: int, net=None, looks: int = 1):
    """The evaluation's tables from ``tally``; ``net`` (two-level moments) replaces its net
    scores of the alternatives, which rank them and decide; ``looks``: those of the stop
    rule, which share the decision's 95% (:func:`analyzer.rollout.stop_looks`)."""
    bids = rules.bids
    total = rules.total_points
    n = tally.net.n
    net = net if net is not None else tally.net
    points_rows, dist_rows, bid_rows = [], [], []
    for t in tally.trumps:
        maker = tally.maker[t]
        points_rows.append({"trump": TRUMP_LABELS[t], "n": n,
                            **est_cols("points", maker.moments(lambda b, o: b).estimate())})
        dist_rows.append({"trump": TRUMP_LABELS[t],
                          **{str(5 * k): maker.count(lambda b, o, k=k: b // 5 == k) / n
                             for k in range(total // 5 + 1)}})
        for bid in bids:
            made = wilson(maker.count(lambda b, o, bid=bid: b >= bid), n)

            def sole(b, o, bid=bid):
                return settle(b, o, bid, rules)

            bid_rows.append({"trump": TRUMP_LABELS[t], "bid": bid, "n": n, "p_make": made.p,
                             "p_make_lo": made.lo, "p_make_hi": made.hi,
                             **est_cols("ev_net", maker.moments(
                                 lambda b, o: np.subtract(*sole(b, o))).estimate()),
                             **est_cols("ev_own", maker.moments(
                                 lambda b, o: sole(b, o)[0]).estimate())})
    ceiling_rows = []
    for k, bid in enumerate(bids):
        won = wilson(int(tally.declared[k]), n)
        ceiling_rows.append({"bid": bid, "n": n, "p_declarer": won.p, "p_declarer_lo": won.lo,
                             "p_declarer_hi": won.hi, **est_cols("ev_net", net.estimate(k)),
                             **est_cols("ev_own", tally.own.estimate(k))})
    pass_row = {"n": n, **est_cols("ev_net", net.estimate(len(bids))),
                **est_cols("ev_own", tally.own.estimate(len(bids)))}
    # per trump, the highest bid whose EV as declarer beats passing beyond the noise
    # (paired: the same hands), as analyzer.advice decides
    for row, t in zip(points_rows, tally.trumps, strict=True):
        ceiling = decide(tally.as_declarer[t], ["pass", *map(str, bids)], looks=looks).ceiling
        row["beats_passing_to"] = bids[ceiling - 1] if ceiling else 0

    moments, labels = _alternatives(net, rules)
    decision = _decision(moments, labels, looks)
    actions = rank_alternatives(moments, labels, seed, decision.action)
    return (pd.DataFrame(points_rows), pd.DataFrame(dist_rows), pd.DataFrame(bid_rows),
            pd.DataFrame(ceiling_rows), pd.DataFrame([pass_row]), actions, decision)


def _decision(moments: PairedMoments, labels, looks: int = 1) -> Decision:
    """The decision rule (analyzer.advice) on the ladder: the pass, then the ceilings rising.
    ``looks``: a stop rule's looks that share the 95%."""
    ladder = [moments.k - 1, *range(moments.k - 1)]
    return decide(moments, [labels[i][0] for i in ladder], ladder, looks=looks)


def evaluate_rook_hand(rules: rook.Rules, hand: str, seat: str = "eldest",
                       deals: int = 20_000, seed: int = 1, policy: str = "heuristic",
                       target_ci: float | None = None, max_deals: int = 1_000_000,
                       time_budget: float | None = None,
                       known: dict[str, str] | None = None, progress=None,
                       until_decided: bool = False, spread_with=None, base: str | None = None,
                       base_deals: int = 100_000, budget: float | None = None
                       ) -> HandEvaluation:
    """Evaluate a Rook ``hand`` at ``seat``; arguments as
    :func:`analyzer.evaluate_hand` (Pedro's, ``base`` and ``budget`` included).

    The result's ``bids`` table is per trump and bid as declarer; ``ceilings`` is
    EV(bid up to b) with the auction; ``actions`` ranks those and the pass.
    """
    if seat not in SEAT_OFFSETS:
        raise HandError(f"bad seat {seat!r}; seats: {', '.join(SEAT_OFFSETS)}")
    if deals < 1 or max_deals < 1:
        raise HandError("deals and max_deals must be at least 1")
    mask = parse_rook_hand(hand, rules)
    pols = parse_policies(policy)
    one_policy_for_every_seat(pols, "a hand evaluation")
    offset = SEAT_OFFSETS[seat]
    known_cards = parse_known(known or {}, offset, no_joker=None)
    rook.Scenario(hand=mask, seat=offset, known=known_cards).vector(rules.hand_size)
    model = _model(rules)
    two_level = {}
    check_budget(base, budget)
    if base is not None:
        check_two_level(target_ci, time_budget, until_decided)
        run = two_level_hand(model, rules, mask, offset, known_cards, pols, base, seed, deals,
                             base_deals, budget, progress, spread_with)
        tally, net, done, stopped_by = run.tally, run.moments, run.n, run.stopped_by
        two_level = run.provenance
    else:
        tally = model.tally()
        grow = (model, rules, mask, offset, known_cards, pols, seed)
        spread = spread_with(model.tally, grow_tally, grow, tally) if spread_with else None

        def decided(looks: int) -> bool:
            return _decision(*_alternatives(tally.net, rules), looks=looks).clear

        done, stopped_by = run_stop_rule(
            lambda first, n: grow_tally(tally, *grow, first, n),
            lambda: leading_half_width(_alternatives(tally.net, rules)[0]), deals, target_ci,
            time_budget, max_deals, batch_for(pols), progress,
            decided if until_decided else None, spread=spread)
        net = tally.net
    points, dist, bids, ceilings, pass_ev, actions, decision = _tables(
        tally, rules, seed, net, stop_looks(until_decided and base is None, pols, max_deals))
    return HandEvaluation(
        hand=str(CardSet(mask)), seat=seat,
        known={SEATS[o]: str(CardSet(m)) for o, m in known_cards}, rules=str(rules),
        policy=policy_string(pols), seed=seed, n=done, stopped_by=stopped_by, points=points,
        distribution=dist, bids=bids, pass_ev=pass_ev, actions=actions,
        recommended=decision.action, ceilings=ceilings, decision=decision, **two_level,
    )

