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
from analyzer.games.search import dd_cards, params, pimc, probe, setup
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


def _choices(sc: Scratch, n: int, every: np.ndarray):
    """(i, position, seat to move, its legal cards) of the first ``n`` start positions where
    that seat has a choice, with ``every`` holding each card's exact value."""
    for i, p in enumerate(_start_positions(n)):
        dd_cards.solve_moves(p.hands, p.leader, p.cards, p.seats, p.n_played, p.q, p.cpts, p.tv,
                       sc.tt, sc.next_gen(), sc.par, 10**8, sc.res, every)
        legal = [c for c in range(64) if every[c] > -params.INF]
        if len(legal) >= 2:
            yield i, p, int(sc.res[params.RES_MOVER]), legal


def test_solving_some_cards_gives_their_values_of_solving_all():
    """``solve_among`` values the cards asked for as ``solve_moves`` does, skipping only cards
    alike to a lower one asked for (which then take that one's value in pimc)."""
    sc = Scratch(14)
    every = np.zeros(64, dtype=np.int64)
    some = np.zeros(64, dtype=np.int64)
    rng = random.Random(4)
    checked = 0
    for p in _start_positions(40):
        dd_cards.solve_moves(p.hands, p.leader, p.cards, p.seats, p.n_played, p.q, p.cpts, p.tv,
                       sc.tt, sc.next_gen(), sc.par, 10**8, sc.res, every)
        legal = [c for c in range(64) if every[c] > -params.INF]
        among = rng.sample(legal, max(1, len(legal) // 2))
        dd_cards.solve_among(p.hands, p.leader, p.cards, p.seats, p.n_played, p.q, p.cpts, p.tv,
                       sc.tt, sc.next_gen(), sc.par, 10**8, sc.res, some, _mask(*among), -1,
                       np.uint64(0), some)
        assert sc.res[params.RES_SOLVED] == 1
        assert some[min(among)] == every[min(among)]  # the lowest is always searched
        for c in among:
            if some[c] > -params.INF:
                assert some[c] == every[c], (c, some[c], every[c])
                checked += 1
        assert all(some[c] <= -params.INF or c in among or every[c] == some[c] for c in legal)
    assert checked >= 80


def test_a_leader_gets_its_value_and_the_other_cards_a_flattering_bound():
    """With pimc's leader named, ``solve_among`` solves it exactly, and asks every other card
    one question first: whether it beats the leader (the cards named in ``tied``), or whether
    it is worse (the rest). A card the answer settles gets a bound (flag 0) between its value
    and the leader's, on the side that flatters it (at or above its value for a maximiser, at
    or below for a minimiser); the rest are solved exactly (flag 1). Asked whether it beats
    the leader, a card is settled unless it does; asked whether it is worse, it is settled
    when it is, and its bound then falls short of the leader's value. A card alike to the
    leader takes its exact value, and a leader alike to a lower card is judged by that card.
    Both sides and both questions occur, with ties and without."""
    sc = Scratch(14)
    every = np.zeros(64, dtype=np.int64)
    some = np.zeros(64, dtype=np.int64)
    flags = np.zeros(64, dtype=np.int64)
    rng = random.Random(5)
    kinds = set()
    for i, p, mover, legal in _choices(sc, 80, every):
        q = p.q.copy()
        if i % 2:  # the other side: the mover minimises
            q[params.Q_SIDE] = np.uint64(int(q[params.Q_SIDE]) ^ 15)
            dd_cards.solve_moves(p.hands, p.leader, p.cards, p.seats, p.n_played, q, p.cpts, p.tv,
                           sc.tt, sc.next_gen(), sc.par, 10**8, sc.res, every)
        maximise = bool(int(q[params.Q_SIDE]) >> mover & 1)
        lead = rng.choice(legal)
        ask_beats = i % 4 >= 2  # one question for every card, as alike cards share answers
        flags[:] = 1
        dd_cards.solve_among(p.hands, p.leader, p.cards, p.seats, p.n_played, q, p.cpts, p.tv,
                       sc.tt, sc.next_gen(), sc.par, 10**8, sc.res, some, _mask(*legal), lead,
                       _mask(*legal) if ask_beats else np.uint64(0), flags)
        assert sc.res[params.RES_SOLVED] == 1
        assert some[lead] == every[lead] and flags[lead] == 1
        for c in legal:
            if c == lead or some[c] <= -params.INF:
                continue
            beats = every[c] > every[lead] if maximise else every[c] < every[lead]
            worse = every[c] < every[lead] if maximise else every[c] > every[lead]
            settled = not beats if ask_beats else worse
            if flags[c] == 1:  # exact (a card alike to the leader takes its value too)
                assert some[c] == every[c], (c, some[c], every[c])
                continue
            assert settled, (c, every[c], every[lead], ask_beats)
            flatters = some[c] >= every[c] if maximise else some[c] <= every[c]
            lies_within = min(every[c], every[lead]) <= some[c] <= max(every[c], every[lead])
            assert flatters and lies_within, (c, some[c], every[c], every[lead])
            if not ask_beats:
                assert some[c] != every[lead], (c, some[c], every[lead])
            kinds.add((maximise, ask_beats, every[c] == every[lead]))
    assert kinds == {(m, a, t) for m in (True, False) for a in (True, False)
                     for t in (True, False)} - {(m, False, True) for m in (True, False)}


def _worlds(p, seat: int, n: int, rng: random.Random) -> list[np.ndarray]:
    """``n`` deals of the cards ``seat`` cannot see to the other seats, as many as each
    holds (pimc's worlds, without its constraints)."""
    hidden = [c for s in range(4) if s != seat for c in range(64) if int(p.hands[s]) >> c & 1]
    out = []
    for _ in range(n):
        rng.shuffle(hidden)
        world = p.hands.copy()
        at = 0
        for s in range(4):
            if s != seat:
                k = int(p.hands[s]).bit_count()
                world[s] = _mask(*hidden[at:at + k])
                at += k
        out.append(world)
    return out


def test_the_leader_is_the_card_the_exact_values_choose():
    """``pimc._leader`` takes worlds solved as pimc solves them after its first (the leader
    exact, the other cards bounded where that settles them) and returns the card with the
    best exact total, that total in ``acc``: the card every world solved exactly would
    choose. The leader named in each world is any legal card, so the bounds flatter cards
    that are behind, and the best by the totals first is not always the best."""
    sc = Scratch(14)
    ws = setup.make_workspace(14)
    every = np.zeros(64, dtype=np.int64)
    vals = np.zeros(64, dtype=np.int64)
    flags = np.zeros(64, dtype=np.int64)
    rng = random.Random(6)
    bounded = changed = 0
    for i, p, seat, legal in _choices(sc, 24, every):
        maximise = bool(int(p.q[params.Q_SIDE]) >> seat & 1)
        worlds = _worlds(p, seat, 8, rng)
        alive = _mask(*legal)
        exact_totals = {c: 0 for c in legal}
        seen = np.zeros((len(worlds), 64), dtype=np.int64)
        exact = np.ones((len(worlds), 64), dtype=np.int64)
        kept = np.array(worlds, dtype=np.uint64)
        acc = np.zeros(64, dtype=np.int64)
        gen = sc.next_gen()
        for w, world in enumerate(worlds):
            dd_cards.solve_moves(world.copy(), p.leader, p.cards, p.seats, p.n_played, p.q, p.cpts,
                           p.tv, sc.tt, gen, sc.par, 10**8, sc.res, every)
            named = rng.choice(legal)
            for c in legal:
                exact_totals[c] += int(every[c])
            flags[:] = 1
            dd_cards.solve_among(world.copy(), p.leader, p.cards, p.seats, p.n_played, p.q, p.cpts,
                           p.tv, sc.tt, gen, sc.par, 10**8, sc.res, vals, alive, named,
                           _mask(*legal) if i % 2 else np.uint64(0), flags)
            for c in legal:
                seen[w, c] = vals[c]
                exact[w, c] = flags[c]
                acc[c] += vals[c]
                bounded += flags[c] == 0
        first = pimc._best(acc, alive, np.uint64(maximise))
        b = pimc._leader(kept, seen, exact, len(worlds), acc, alive, np.uint64(maximise),
                         p.leader, p.n_played, p.q, p.cpts, p.tv, ws, gen, 10**8, 0,
                         np.uint64(0))
        best = max(legal, key=lambda c: (exact_totals[c] if maximise else -exact_totals[c],
                                         -c))
        assert b == best, (i, b, best, exact_totals)
        assert acc[b] == exact_totals[b] and all(exact[:, b] == 1)
        changed += b != first
    assert bounded > 100 and changed > 0  # bounds were there to mislead, and did


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


def test_a_world_salt_replays_the_same_deals_with_other_worlds():
    """control_ceiling.py's replicate: the deals and the auctions stay, pimc's worlds (and
    so some of its plays) change, and the same salt gives the same plays."""
    rules = pedro.parse_rules("pedro")
    pols = parse_policies("pimc:4")
    own = pedro.simulate(rules, 30, 2, pols)
    salted = pedro.simulate(rules, 30, 2, setup.resampled(pols, 5))
    assert salted.equals(pedro.simulate(rules, 30, 2, setup.resampled(pols, 5)))
    dealt = ["hand0", "hand1", "hand2", "hand3", "dealer", "bidder", "bid", "trump"]
    assert own[dealt].equals(salted[dealt])
    assert (own["points0"] != salted["points0"]).sum() >= 5
    with pytest.raises(ValueError, match="world salt"):
        setup.resampled(pols, 0)
    # the benchmark words compose, in either order
    table = np.zeros((probe.STAT_ROWS, probe.NSTAT), dtype=np.uint64)
    for both in (counted(setup.resampled(pols, 5), table, True),
                 setup.resampled(counted(pols, table, True), 5)):
        assert setup.world_salt(both) == 5 and setup.pimc_full(both)
        assert setup.stats_address(both) == table.ctypes.data
        assert (both[:len(pols)] == pols).all()
