"""What a hand is worth: expected points and score change per bid, per trump, and EV(pass).

The hand is fixed at one seat (counted from the dealer) and the other 43 cards
are dealt at random with the counter-based generator, so deal ``i`` of a seed
is the same deal for every trump, every bid and the pass: all alternatives are
compared on common random numbers, and their differences are paired.

How the auction is modelled. "Bid b naming t": the seat bids b in its turn
(when b is still legal; otherwise it must pass) and the others bid by their
policy before and after it; if the seat wins the auction it names t, and
whoever wins plays the deal out. The dealer bids last and sees the high bid, so
for him it is "bid up to b": the lowest legal bid when that is at most b (a
higher bid would only raise his contract). So EV(b) weighs the chance of being outbid,
and higher bids buy the right to name trump at the risk of a set. "Pass": the
seat passes and the others bid by their policy. EVs are settlement deltas
(docs/rules.md §1.9) of the seat's side, as its own change and as own minus the
opponents'. The distribution of points, P(make b) and the ``sole_*`` EVs
answer the narrower question "if I win the bid at b and name t": there the
seat is made the maker with nobody else bidding, one simulation per trump
serving every b (the play does not depend on the bid).

How the recommendation is made, for a player: every action is played on the same
deals, so "bid 7 beats passing by 1.2 points" is a paired difference with a narrow
interval. Starting from the pass and going up the bids of the best trump, a bid takes
over only when it beats the current choice beyond the noise: the lower end of the
difference's 95% interval is above zero, the 95% holding for all the bids compared
together (analyzer.advice). Otherwise the answer is "pass", with the best bid's margin
shown, because a gain smaller than the noise is no reason to bid. ``bidlab bid-chart``
(analyzer.bidchart) runs this same model for every hand dealt to every seat and gives
the recommendation per class of hand.

The same fact spares most of the work of the auctions: with policies that draw no
random numbers before the play, each deal's auctions are run alone and each
(maker, trump) outcome is played once (analyzer.shared_play), which gives the very
numbers of playing every action (tested) at a fraction of the cost: a pimc:20 hand
2.6 s -> 0.22 s a deal (Rook: 2.4 s -> 0.41 s).

>>> ev = evaluate_hand("pedro", "AS KS 5S 5C 2S 9H 3D JC 7H", seat="eldest", deals=5_000)
>>> ev.recommended
'bid 7 naming spades'
>>> ev.advice.startswith("bid 7 naming spades: +")
True

May import: the foundations, the generic analyses and views, ``games.common`` and
``games.protocol``, and Pedro's own modules; never another game.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ... import shared_play
from ...advice import Decision, decide
from ...cards import SUIT_NAMES, CardSet
from ...moments import Histogram
from ...rollout import (
    BATCH,
    HandError,
    HandEvaluation,
    batch_for,
    collapse,
    est_cols,
    leading_half_width,
    parse_dealt_hand,
    parse_known,
    rank_alternatives,
    run_stop_rule,
    stop_looks,
)
from ...stats import ColumnMoments, PairedMoments, wilson
from ...two_level_hand import HandModel, check_two_level, grow_tally, two_level_hand
from ...twolevel import check_budget
from .. import as_rules, pedro
from ..common import one_policy_for_every_seat
from . import engine, outcomes
from .hand_view import bid_verb


@dataclass
class _Samples:
    """Per-deal outcomes of one batch of deals.

    ``maker_*[t]``: the seat's side's and the other side's points when the seat is
    made the maker with trump t. ``own[m][k]``/``opp[m][k]``: the side's settlement
    under method m+1 for action k: (trump, bid) pairs in ``actions`` order, then pass.
    """

    n_actions: int
    maker_b: list = field(default_factory=lambda: [[] for _ in range(4)])
    maker_o: list = field(default_factory=lambda: [[] for _ in range(4)])
    own: list = field(default=None)
    opp: list = field(default=None)

    def __post_init__(self):
        self.own = [[[] for _ in range(self.n_actions)] for _ in range(2)]
        self.opp = [[[] for _ in range(self.n_actions)] for _ in range(2)]

    def maker_points(self, t: int) -> tuple[np.ndarray, np.ndarray]:
        return collapse(self.maker_b[t]), collapse(self.maker_o[t])

    def action(self, m: int, k: int) -> tuple[np.ndarray, np.ndarray]:
        """(own, opponents') settlement of action k under method m (1 or 2)."""
        return collapse(self.own[m - 1][k]), collapse(self.opp[m - 1][k])


class _Tally:
    """A Pedro hand evaluation's sufficient statistics, batch by batch: per trump, how often
    each (side's points, other side's points) occurred with the seat made the maker; per
    scoring method, the moments of every action's net score (paired under the rules'
    method, which ranks them) and of its own score."""

    def __init__(self, n_actions: int, scoring: int):
        self.maker = [Histogram(2) for _ in range(4)]
        self.net = [PairedMoments(n_actions) if m == scoring else ColumnMoments(n_actions)
                    for m in (1, 2)]
        self.own = [ColumnMoments(n_actions) for _ in range(2)]

    def add(self, batch: _Samples, rules: pedro.Rules | None = None) -> None:
        for t in range(4):
            self.maker[t].add(*batch.maker_points(t))
        for m in (1, 2):
            own, opp = zip(*(batch.action(m, k) for k in range(self.net[0].k)), strict=True)
            own, opp = np.array(own), np.array(opp)  # (action, deal)
            self.net[m - 1].add_columns(own - opp)
            self.own[m - 1].add_columns(own)

    def absorb(self, other: _Tally) -> None:
        for mine, theirs in zip([*self.maker, *self.net, *self.own],
                                [*other.maker, *other.net, *other.own], strict=True):
            mine.absorb(theirs)


def settle(b_pts: np.ndarray, o_pts: np.ndarray, bid: int, method: int, m2_diff_to: str):
    """Per-deal (own, opponents') settlement of a side that bid ``bid`` (docs/rules.md §1.9)."""
    made = b_pts >= bid
    if method == 1:
        return np.where(made, b_pts, -bid), o_pts
    diff = b_pts - o_pts
    own = np.where(made, np.maximum(diff, 0), 0)
    if m2_diff_to == "bidder_only":
        opp = np.where(made, 0, o_pts + bid)
    else:
        opp = np.where(made, np.maximum(-diff, 0), o_pts + bid)
    return own, opp


def _action_list(rules: pedro.Rules) -> list[tuple[int, int]]:
    """(trump, bid) for every bid of every trump, then (-1, 0) for the pass."""
    return [(t, b) for t in range(4) for b in range(rules.min_bid, 15)] + [(-1, 0)]


def _labels(rules: pedro.Rules, seat: str) -> list[tuple[str, str, int]]:
    """(action, trump, bid) of every action, in :func:`_action_list` order, at ``seat``
    (the dealer bids "up to b")."""
    verb = bid_verb(seat)
    return [(f"{verb} {bid} naming {SUIT_NAMES[t]}", SUIT_NAMES[t], bid) if t >= 0
            else ("pass", "", 0) for t, bid in _action_list(rules)]


def _tables(tally: _Tally, rules: pedro.Rules, seed: int, offset: int, moments=None,
            looks: int = 1):
    """The evaluation's tables from ``tally``; ``moments`` (two-level) replace its net
    scores under the rules' method, which rank the actions and decide; ``looks``: those of
    the stop rule, which share the decision's 95% (:func:`analyzer.rollout.stop_looks`)."""
    actions_list = _action_list(rules)
    n = tally.maker[0].n
    moments = moments if moments is not None else tally.net[rules.scoring - 1]
    net = [moments if m == rules.scoring else tally.net[m - 1] for m in (1, 2)]
    points_rows, dist_rows, bid_rows = [], [], []
    for t in range(4):
        maker = tally.maker[t]
        points_rows.append({"trump": SUIT_NAMES[t], "n": n,
                            **est_cols("points", maker.moments(lambda b, o: b).estimate())})
        dist_rows.append({"trump": SUIT_NAMES[t],
                          **{str(k): maker.count(lambda b, o, k=k: b == k) / n
                             for k in range(15)}})
        for bid in range(rules.min_bid, 15):
            made = wilson(maker.count(lambda b, o, bid=bid: b >= bid), n)
            row = {"trump": SUIT_NAMES[t], "bid": bid, "n": n, "p_make": made.p,
                   "p_make_lo": made.lo, "p_make_hi": made.hi}
            k = actions_list.index((t, bid))
            for m in (1, 2):
                row.update(est_cols(f"ev{m}_net", net[m - 1].estimate(k)))
                row.update(est_cols(f"ev{m}_own", tally.own[m - 1].estimate(k)))

                def sole(b, o, bid=bid, m=m):
                    return settle(b, o, bid, m, rules.m2_diff_to)

                row.update(est_cols(f"sole_ev{m}_net",
                                    maker.moments(lambda b, o: np.subtract(*sole(b, o)))
                                    .estimate()))
                row.update(est_cols(f"sole_ev{m}_own",
                                    maker.moments(lambda b, o: sole(b, o)[0]).estimate()))
            bid_rows.append(row)
    pass_row = {"n": n}
    for m in (1, 2):
        pass_row.update(est_cols(f"ev{m}_net", net[m - 1].estimate(len(actions_list) - 1)))
        pass_row.update(est_cols(f"ev{m}_own", tally.own[m - 1].estimate(len(actions_list) - 1)))
    labels = _labels(rules, pedro.SEATS[offset])
    # The question players ask: how high may I go? The highest bid whose paired gain over
    # passing (net, under the rules' method) is above zero beyond the noise, per trump; 0
    # when none is (analyzer.advice).
    for t, row in enumerate(points_rows):
        ceiling = _decision(moments, labels, rules, t, looks).ceiling
        row["beats_passing_to"] = rules.min_bid + ceiling - 1 if ceiling else 0
    decision = _decision(moments, labels, rules, looks=looks)
    actions = rank_alternatives(moments, labels, seed, decision.action)
    return (pd.DataFrame(points_rows), pd.DataFrame(dist_rows), pd.DataFrame(bid_rows),
            pd.DataFrame([pass_row]), actions, decision)


def _decision(moments: PairedMoments, labels, rules: pedro.Rules, trump: int | None = None,
              looks: int = 1) -> Decision:
    """The decision rule (analyzer.advice) on the ladder pass, then the bids of ``trump``
    rising; by default the trump of the bid with the best estimate among those that are not
    the pass on every deal (a bid never made is the pass under every trump, and named
    clubs). The trump is picked by these same deals, so the 95% is shared among the bids
    of all four. ``looks``: a stop rule's looks that share it too."""
    n_bids = 15 - rules.min_bid
    passing = 4 * n_bids  # _action_list order: the bids by trump, then the pass
    if trump is None:
        made = [i for i in range(passing) if not moments.same(i, passing)]
        trump = made[int(np.argmax(moments.means()[made]))] // n_bids if made else 0
    ladder = [passing] + [trump * n_bids + j for j in range(n_bids)]
    return decide(moments, [labels[i][0] for i in ladder], ladder, looks=looks,
                  compared=passing)


def _side_scores(rec: np.ndarray, offset: int):
    """Per-deal (own, opponents') settlement, methods 1 and 2, of the side of the seat
    ``offset`` places after the dealer."""
    team = ((rec[:, engine.R_DEALER].astype(np.int64) + offset) % 4) & 1
    out = []
    for col in (engine.R_S1, engine.R_S2):
        t0, t1 = rec[:, col], rec[:, col + 1]
        out.append((np.where(team == 0, t0, t1), np.where(team == 0, t1, t0)))
    return out


def _simulate_batch(samples: _Samples, rules, hand_mask, offset, known, pols, seed, first, n,
                    share_plays: bool = True):
    """Record deals first .. first+n-1 in ``samples``: each action played out in full, or,
    where the policies and rules allow it, each auction outcome played once (same result;
    see analyzer.shared_play)."""
    if share_plays and outcomes.can_share_plays(rules, pols):
        outcomes.simulate_batch(samples, rules, hand_mask, offset, known, pols, seed, first,
                                   n, _action_list(rules))
        return

    def run(**kw):
        sc = pedro.Scenario(hand=hand_mask, seat=offset, known=known, **kw)
        return pedro.run_batch(rules, first, n, seed, pols, scenario=sc)[0]

    for t in range(4):
        pts = shared_play.side_points(run(force="maker", trump=t), offset, engine.R_DEALER,
                                      engine.R_PTS)
        samples.maker_b[t].append(pts[:, 0])
        samples.maker_o[t].append(pts[:, 1])
    for k, (t, bid) in enumerate(_action_list(rules)):
        rec = run(force="bid", trump=t, bid=bid) if t >= 0 else run(force="pass")
        for m, (own, opp) in enumerate(_side_scores(rec, offset)):
            samples.own[m][k].append(own)
            samples.opp[m][k].append(opp)


NO_JOKER = "the joker is not in the 52-card Pedro deck"


def parse_hand(text: str) -> int:
    """Mask of a 9-card Pedro hand; HandError or CardParseError otherwise."""
    return parse_dealt_hand(text, 9, "Pedro", NO_JOKER)


def evaluate_hand(game, hand: str, seat: str = "eldest",
                  deals: int = 20_000, seed: int = 1, policy: str = "heuristic",
                  target_ci: float | None = None, max_deals: int = 1_000_000,
                  time_budget: float | None = None,
                  known: dict[str, str] | None = None, progress=None,
                  until_decided: bool = False, spread_with=None, base: str | None = None,
                  base_deals: int = 100_000, budget: float | None = None) -> HandEvaluation:
    """Evaluate ``hand`` at ``seat`` (dealer, eldest, second, third) as a bidder.

    ``game`` is a Pedro or Cinch variant string or Rules (:func:`analyzer.evaluate_hand`
    takes any game's).

    Without a stop rule, ``deals`` deals are played. With ``target_ci`` (a 95%
    half-width for the leading alternatives' EVs) or ``time_budget`` (seconds)
    it plays batches (of 10,000 deals, or 50 when a seat searches: dd, pimc) until the rule
    is met or ``max_deals`` deals are played. ``until_decided`` plays batches until the
    recommendation is clear (:class:`analyzer.advice.Decision`), within ``time_budget`` and
    ``max_deals``.
    ``progress(n)`` is called after each batch of n deals. ``spread_with(factory, grow,
    args, samples)`` makes a cluster's ``spread`` (:func:`analyzer.rollout.spreader`):
    the deals are then grown on its workers, with the same result.

    The recommendation follows :mod:`analyzer.advice`: a bid is recommended over passing,
    or over a lower bid, only when its paired gain is above zero beyond the noise (the
    95% lower bound); ``ev.decision.sentence()`` says it with its margin.
    ``known`` gives cards other seats are known to hold, e.g. ``{"second": "AH"}``
    (seats relative to the dealer); the rest of the deck is dealt around them.

    ``base`` (a cheap policy, e.g. "heuristic") makes the EVs that rank and decide
    two-level estimates (:mod:`analyzer.twolevel`): ``base`` plays ``base_deals`` deals,
    ``policy`` the first ``deals`` of them as well, and each EV is the cheap mean plus the
    fitted correction, with an interval from both; or ``budget`` seconds split between them
    to make the leading EV's interval narrowest. The other figures are ``policy``'s own
    over its ``deals``.
    """
    rules = as_rules(game)
    if not isinstance(rules, pedro.Rules):
        raise HandError(f"this is Pedro's hand evaluation; {rules.game} hands go to "
                        f"analyzer.evaluate_hand (bidlab hand {rules.game})")
    if seat not in pedro.SEAT_OFFSETS:
        raise HandError(f"bad seat {seat!r}; seats: {', '.join(pedro.SEAT_OFFSETS)}")
    if deals < 1 or max_deals < 1:
        raise HandError("deals and max_deals must be at least 1")
    mask = parse_hand(hand)
    pols = pedro.parse_policies(policy)
    offset = pedro.SEAT_OFFSETS[seat]
    one_policy_for_every_seat(pols, "a hand evaluation")
    known_cards = parse_known(known or {}, offset, NO_JOKER)
    pedro.Scenario(hand=mask, seat=offset, known=known_cards).vector()  # validate up front
    labels = _labels(rules, seat)
    check_budget(base, budget)
    if base is not None:
        check_two_level(target_ci, time_budget, until_decided)
        run = two_level_hand(_model(rules), rules, mask, offset, known_cards, pols, base, seed,
                             deals, base_deals, budget, progress, spread_with)
        points, dist, bids, pass_ev, actions, decision = _tables(run.tally, rules, seed,
                                                                 offset, run.moments)
        return HandEvaluation(
            hand=str(CardSet(mask)), seat=seat,
            known={pedro.SEATS[o]: str(CardSet(m)) for o, m in known_cards}, rules=str(rules),
            policy=pedro.policy_string(pols), seed=seed, n=run.n, stopped_by=run.stopped_by,
            points=points, distribution=dist, bids=bids, pass_ev=pass_ev, actions=actions,
            recommended=decision.action, decision=decision, **run.provenance)
    model = _model(rules)
    tally = model.tally()
    grow = (model, rules, mask, offset, known_cards, pols, seed)
    spread = spread_with(model.tally, grow_tally, grow, tally) if spread_with else None

    def decided(looks: int) -> bool:
        return _decision(tally.net[rules.scoring - 1], labels, rules, looks=looks).clear

    done, stopped_by = run_stop_rule(
        lambda first, n: grow_tally(tally, *grow, first, n),
        lambda: leading_half_width(tally.net[rules.scoring - 1]), deals, target_ci,
        time_budget, max_deals, batch_for(pols), progress, decided if until_decided else None,
        spread=spread)
    points, dist, bids, pass_ev, actions, decision = _tables(
        tally, rules, seed, offset, looks=stop_looks(until_decided, pols, max_deals))
    return HandEvaluation(
        hand=str(CardSet(mask)), seat=seat,
        known={pedro.SEATS[o]: str(CardSet(m)) for o, m in known_cards}, rules=str(rules),
        policy=pedro.policy_string(pols),
        seed=seed, n=done, stopped_by=stopped_by, points=points, distribution=dist, bids=bids,
        pass_ev=pass_ev, actions=actions, recommended=decision.action, decision=decision,
    )


def _nets(batch: _Samples, rules: pedro.Rules) -> list:
    """Every action's net score under the rules' method, deal by deal."""
    return [np.subtract(*batch.action(rules.scoring, k)) for k in range(batch.n_actions)]


def _ranked(tally: _Tally, rules: pedro.Rules) -> PairedMoments:
    return tally.net[rules.scoring - 1]


def _model(rules: pedro.Rules) -> HandModel:
    k = len(_action_list(rules))
    return HandModel(functools.partial(_Tally, k, rules.scoring),
                     functools.partial(_Samples, k), _simulate_batch, _nets, _ranked)


__all__ = ["BATCH", "HandError", "HandEvaluation", "evaluate_hand", "parse_hand", "parse_known",
           "settle"]
