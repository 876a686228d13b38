"""pimc's shortcuts: the race that drops cards beaten beyond the noise, the search of some
cards only, and the counters the pimc benchmark reads."""

from __future__ import annotations

import random

import numba
import numpy as np
import pytest

from analyzer.bits import lsb
from analyzer.games import pedro, rook
from analyzer.games.common import parse_policies
from analyzer.games.search import dd, params, pimc, probe
from analyzer.games.search.setup import counted
from analyzer.solver import Scratch, _prepare, deal_position

ONE = np.uint64(1)


def _mask(*cards: int) -> np.uint64:
    m = np.uint64(0)
    for c in cards:
        m |= ONE << np.uint64(c)
    return m


def _race(columns: dict[int, list[int]], worlds: int = 20, maximise: bool = True) -> list[int]:
    """The cards left in the race after the worlds given, by card: its value in each."""
    n = len(next(iter(columns.values())))
    seen = np.zeros((worlds, 64), dtype=np.int64)
    acc = np.zeros(64, dtype=np.int64)
    for c, values in columns.items():
        seen[:n, c] = values
        acc[c] = sum(values)
    out = pimc._race(seen, n, worlds, acc, _mask(*columns), np.uint64(maximise))
    return [c for c in range(64) if int(out) >> c & 1]


def test_a_card_behind_in_every_world_leaves_the_race():
    assert _race({3: [5, 6, 5, 5, 6, 5], 7: [0, 1, 0, 0, 1, 0]}) == [3]


def test_a_card_tied_in_every_world_stays_in_the_race():
    # a rare world can part them (a Pedro captured): six ties prove nothing
    assert _race({3: [1] * 6, 7: [1] * 6}) == [3, 7]


def test_a_card_behind_by_less_than_the_noise_stays():
    assert _race({3: [3, 0, 5, 1, 2, 4], 7: [2, 1, 4, 2, 1, 3]}) == [3, 7]


def test_the_margin_needed_shrinks_as_the_worlds_run_out():
    close = {3: [2, 1, 2, 1, 2, 1, 2, 1], 7: [1, 1, 1, 1, 1, 2, 1, 1]}  # mean margin 3/8
    assert _race(close, worlds=40) == [3, 7]
    assert _race(close, worlds=9) == [3]  # one world left cannot undo a 3-point lead


def test_a_minimising_seat_keeps_the_lowest_card():
    assert _race({3: [5, 6, 5, 5, 6, 5], 7: [0, 1, 0, 0, 1, 0]}, maximise=False) == [7]


def _start_positions(n: int):
    rules = pedro.parse_rules("pedro")
    for i in range(n):
        pos = deal_position(rules, 3, i)
        yield _prepare(rules, pos["hands"], pos["trump"], pos["leader"], "", pos["side"], None)[2]


def test_solving_some_cards_gives_their_values_of_solving_all():
    """``solve_among`` values the cards asked for as ``solve_moves`` does, skipping only cards
    alike to a lower one asked for (which then take that one's value in pimc)."""
    sc = Scratch(14)
    every = np.zeros(64, dtype=np.int64)
    some = np.zeros(64, dtype=np.int64)
    rng = random.Random(4)
    checked = 0
    for p in _start_positions(40):
        dd.solve_moves(p.hands, p.leader, p.cards, p.seats, p.n_played, p.q, p.cpts, p.tv,
                       sc.tt, sc.next_gen(), sc.par, 10**8, sc.res, every)
        legal = [c for c in range(64) if every[c] > -params.INF]
        among = rng.sample(legal, max(1, len(legal) // 2))
        dd.solve_among(p.hands, p.leader, p.cards, p.seats, p.n_played, p.q, p.cpts, p.tv,
                       sc.tt, sc.next_gen(), sc.par, 10**8, sc.res, some, _mask(*among))
        assert sc.res[params.RES_SOLVED] == 1
        assert some[min(among)] == every[min(among)]  # the lowest is always searched
        for c in among:
            if some[c] > -params.INF:
                assert some[c] == every[c], (c, some[c], every[c])
                checked += 1
        assert all(some[c] <= -params.INF or c in among or every[c] == some[c] for c in legal)
    assert checked >= 80


def _counted(module, name: str, deals: int, full: bool) -> np.ndarray:
    """The pimc counters (search.probe) of ``deals`` deals with pimc:8 on every seat."""
    table = np.zeros((probe.STAT_ROWS, probe.NSTAT), dtype=np.uint64)
    pols = counted(parse_policies("pimc:8"), table, full)
    threads = numba.get_num_threads()
    numba.set_num_threads(1)  # the counters are plain adds
    try:
        module.simulate(module.parse_rules(name), deals, 2, pols)
    finally:
        numba.set_num_threads(threads)
    return table.sum(axis=0).astype(np.int64)


@pytest.mark.parametrize("module,name", [(pedro, "pedro"), (rook, "rook")])
def test_the_counters_and_the_race_bounds(module, name):
    full = _counted(module, name, 6, True)
    now = _counted(module, name, 6, False)
    for t in (full, now):
        assert t[probe.ST_DECISIONS] > 20
        assert t[probe.ST_SEARCHES] >= t[probe.ST_WORLDS] > 0  # a search at least a world
        assert t[probe.ST_NODES] >= t[probe.ST_SEARCHES]
        assert t[probe.ST_CYCLES] > 0
    # the full search solves every world and never skips one
    assert full[probe.ST_WORLDS] == 8 * full[probe.ST_DECISIONS]
    assert full[probe.ST_UNSEARCHED] == 0
    # the race: at least MIN_WORLDS worlds a searched decision, at most 8
    searched = now[probe.ST_DECISIONS] - now[probe.ST_UNSEARCHED]
    assert pimc.MIN_WORLDS * searched <= now[probe.ST_WORLDS] <= 8 * searched


def test_cards_all_alike_are_played_without_a_search():
    """W leads the KH; N must follow with the 9H or the 8H, touching hearts worth nothing:
    the same card whatever the unseen hands, so pimc plays the lower without a world."""
    from analyzer.games.search.setup import KN_POOL, WS_KN, WS_TCARDS, WS_TSEATS, make_workspace

    p = _prepare("pedro", "9H 8H 4D/AS QD 5C/3H 5D 6D/JS 2C", "S", "W", "KH", "N", None)[2]
    ws = make_workspace(14)
    ws[WS_TCARDS][:] = p.cards
    ws[WS_TSEATS][:] = p.seats
    ws[WS_KN][KN_POOL] = p.hands[1] | p.hands[2] | p.hands[3]
    tm = p.q[params.Q_TM]
    legal = np.uint64(params.legal(p.hands[0], params.suit_mask(p.cards[0], tm),
                                   _mask(p.cards[0]), p.q))
    assert bin(int(legal)).count("1") == 2
    table = np.zeros((probe.STAT_ROWS, probe.NSTAT), dtype=np.uint64)
    prng = np.array([1, 2, 3, 4], dtype=np.uint64)
    for full, searched in ((False, 0), (True, 8)):
        table[:] = 0
        card = pimc.pimc_choose(p.hands, 0, p.leader, 1, legal, p.q, p.cpts, p.tv, ws, 1, 8,
                                10**7, prng, full, np.uint64(table.ctypes.data))
        assert card == lsb(legal)
        assert table[:, probe.ST_WORLDS].sum() == searched
        assert table[:, probe.ST_UNSEARCHED].sum() == (0 if full else 1)
