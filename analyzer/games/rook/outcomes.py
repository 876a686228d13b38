"""Rook auctions (and the trump call after the widow) run alone and each outcome played
once (:mod:`analyzer.shared_play`): a hand evaluation's ceilings, and every seat's actions
for the bid chart. A redealt hand (all four pass, under all_pass=redeal) plays every
action in full. May import: shared_play, this game.
"""

from __future__ import annotations

import numpy as np

from ...shared_play import deterministic, outcome_points, play_outcomes, side_points
from ...shared_play import stop as _stop


def can_share_plays(rules, pols: np.ndarray) -> bool:
    """Whether the actions of a hand may share its plays: no seat draws random numbers before
    the play, and no rule redeals."""
    return deterministic(pols) and rules.all_pass != "redeal"


def _rook():
    from .. import rook
    from . import engine as _rook_engine

    return _rook_engine, rook


def rook_player(rules, idx, seed, pols, base: np.ndarray):
    """``play(deals, m, t)``: hands ``idx[deals]`` played with the seat m places after the
    dealer as declarer calling t, nobody else bidding, under the scenario vector ``base``."""
    rook_engine, rook = _rook()

    def play(deals, m, t):
        vec = base.copy()
        vec[rook_engine.SC_SEAT], vec[rook_engine.SC_FORCE] = m + 1, rook_engine.FORCE_DECLARER
        vec[rook_engine.SC_TRUMP], vec[rook_engine.SC_BID] = int(t), rules.bids[0]
        rec = rook.run_deals(rules, idx[deals], seed, pols, scenario=vec)[0]
        return side_points(rec, m, rook_engine.R_DEALER, rook_engine.R_PTS)

    return play


def rook_auction(rules, idx, seed, pols, vec: np.ndarray):
    """The auction (and the trump call) of scenario ``vec`` on hands ``idx``, run alone:
    (declarer's offset from the dealer, bid, trump), one entry per hand."""
    rook_engine, rook = _rook()
    rec = rook.run_deals(rules, idx, seed, pols, scenario=_stop(vec))[0]
    dealer = rec[:, rook_engine.R_DEALER].astype(np.int64)
    m = (rec[:, rook_engine.R_DECLARER].astype(np.int64) - dealer) & 3
    return m, rec[:, rook_engine.R_BID].astype(np.int64), rec[:, rook_engine.R_TRUMP].astype(
        np.int64)


def rook_settle(points, outcome, offset, rules):
    """Per hand, (own, opponents') settlement (docs/rules.md §4.9) of the side of the seat
    ``offset`` places after the dealer when the auction ends in ``outcome``."""
    m, bid, trump = outcome
    got = outcome_points(points, m, trump)
    made = got[:, 0] >= bid
    s_decl = np.where(made, got[:, 0], -bid)
    s_opp = got[:, 1] if rules.opp_scores == "always" else np.where(made, got[:, 1], 0)
    same_team = ((m - offset) & 1) == 0
    return np.where(same_team, s_decl, s_opp), np.where(same_team, s_opp, s_decl)


def simulate_rook_batch(samples, rules, hand_mask, offset, known, pols, seed, first, n) -> None:
    """Rook: grow ``samples`` (evaluate_rook._Samples) by hands first .. first+n-1: the seat
    as declarer for each trump, then each ceiling ``rules.bids[k]`` and the pass."""
    _, rook = _rook()
    idx = np.arange(first, first + n, dtype=np.int64)

    def vector(**kw):
        return rook.Scenario(hand=hand_mask, seat=offset, known=known, **kw).vector(
            rules.hand_size)

    play = rook_player(rules, idx, seed, pols, vector())
    points = np.full((n, 4, 5, 2), -1, dtype=np.int64)
    for t in samples.trumps:
        points[:, offset, t] = play(np.arange(n), offset, t)
        samples.maker_b[t].append(points[:, offset, t, 0].copy())
        samples.maker_o[t].append(points[:, offset, t, 1].copy())

    outcomes = [rook_auction(rules, idx, seed, pols, vector(force="pass") if
                             k == samples.n_actions - 1 else
                             vector(force="ceiling", bid=rules.bids[k]))
                for k in range(samples.n_actions)]
    play_outcomes(points, [(m, trump) for m, _, trump in outcomes], play)
    for k, out in enumerate(outcomes):
        own, opp = rook_settle(points, out, offset, rules)
        samples.own[k].append(own)
        samples.opp[k].append(opp)
        samples.declared[k].append(out[0] == offset)


def rook_seat_batch(rules, seed, pols, first, n, share: bool | None = None):
    """Every seat of hands first .. first+n-1 taking each of its bidding actions, as
    ``bidlab hand rook`` plays them: the pass, then "bid up to b" for each b of
    ``rules.bids`` (it raises by the minimum while that is at most b; the others bid by
    their policies), calling trump by its policy after the widow and the pass if it wins.

    Returns ``hands`` (u64[n, 4] by seat offset from the dealer), ``sole`` (int64[n, 4],
    its side's points as declarer with nobody else bidding) and ``values`` (int64[n, 4,
    1 + len(bids)], its side's settlement net of the opponents', action by action), played
    as :func:`pedro_seat_batch` plays them.
    """
    rook_engine, rook = _rook()
    idx = np.arange(first, first + n, dtype=np.int64)
    k_actions = 1 + len(rules.bids)
    hands = np.empty((n, 4), dtype=np.uint64)
    sole = np.empty((n, 4), dtype=np.int64)
    values = np.empty((n, 4, k_actions), dtype=np.int64)
    rows = np.arange(n)

    def scenario(offset, **kw):
        return rook.Scenario(seat=offset, **kw).vector(rules.hand_size)

    def action(o, k):
        return (scenario(o, force="pass") if k == 0 else
                scenario(o, force="ceiling", bid=rules.bids[k - 1]))

    if not (can_share_plays(rules, pols) if share is None else share):
        for o in range(4):
            rec, dealt = rook.run_deals(rules, idx, seed, pols, scenario=scenario(
                o, force="declarer", bid=rules.bids[0]))
            seat = (rec[:, rook_engine.R_DEALER].astype(np.int64) + o) & 3
            hands[:, o] = dealt[rows, seat]
            sole[:, o] = side_points(rec, o, rook_engine.R_DEALER, rook_engine.R_PTS)[:, 0]
            for k in range(k_actions):
                rec = rook.run_deals(rules, idx, seed, pols, scenario=action(o, k))[0]
                team = (rec[:, rook_engine.R_DEALER].astype(np.int64) + o) & 1
                s0 = rec[:, rook_engine.R_SCORE].astype(np.int64)
                s1 = rec[:, rook_engine.R_SCORE + 1].astype(np.int64)
                values[:, o, k] = np.where(team == 0, s0 - s1, s1 - s0)
        return hands, sole, values

    play = rook_player(rules, idx, seed, pols, scenario(0))
    points = np.full((n, 4, 5, 2), -1, dtype=np.int64)
    outcomes = []
    for o in range(4):
        rec, dealt = rook.run_deals(rules, idx, seed, pols, scenario=_stop(scenario(
            o, force="declarer", bid=rules.bids[0])))
        seat = (rec[:, rook_engine.R_DEALER].astype(np.int64) + o) & 3
        hands[:, o] = dealt[rows, seat]
        outcomes.append((np.full(n, o), None, rec[:, rook_engine.R_TRUMP].astype(np.int64)))
        outcomes += [rook_auction(rules, idx, seed, pols, action(o, k))
                     for k in range(k_actions)]
    play_outcomes(points, [(m, trump) for m, _, trump in outcomes], play)
    for o in range(4):
        sole[:, o] = points[rows, o, outcomes[o * (1 + k_actions)][2], 0]
        for k in range(k_actions):
            own, opp = rook_settle(points, outcomes[o * (1 + k_actions) + 1 + k], o, rules)
            values[:, o, k] = own - opp
    return hands, sole, values

