"""The position solver (the users' SolveBoard): double-dummy values of a position and of
every legal card, for Pedro/Cinch, Rook and King.

A position is four hands seen face up, the trump, the current trick's leader
and the cards already played to it::

    >>> from analyzer import solve
    >>> sol = solve("pedro", "AS 5S/KS 2S/5C JS/QS 3S", trump="S", leader="N")
    >>> sol.value, sol.card_values
    (5, {'5S': 5, 'AS': 5})

**Hands format.** ``"N/E/S/W"``: four hands separated by ``/`` for the seats
North (0), East (1), South (2), West (3), clockwise; partnerships are N-S and
E-W. A hand is cards like ``"AS KS 10H TD 5C 2h"`` (10 or T, any case; ``JK``
or ``ROOK`` is Rook's Rook); ``-`` is an empty hand. The hands hold the cards
still to be played; ``played`` lists the current trick's cards in play order,
from the leader round clockwise (or with seats, ``"N:AS E:KS"``, for Pedro's
short hands where a seat without cards sits out).

**Value.** What the side takes in the remaining tricks, the current trick
included, with every seat playing perfectly with all cards visible:

* Pedro/Cinch: the trick-won points of ``side``'s partnership: Right and Left
  Pedro 5, Jack and Ten (Game) of trump 1, and Low 1 when Low goes to the trick
  winner (the 2 of trump, or with ``high_low_def=highest_lowest_in_play`` the
  lowest trump in the position). High scores to its holder and is not counted.
* Rook: the partnership's card points by the ``points`` scheme plus the
  last-trick bonus. The dropped card is not in the position and not counted.
* King: a *paranoid* search: the value is ``side``'s own points in the
  contract (penalties are negative; +25 a trick in a positive hand), with that
  seat playing to maximise them and the other three playing together to
  minimise them. Real opponents do not collude, so this is a lower bound on
  what the seat can secure.

``side`` defaults to the seat to move. ``card_values`` gives, for every legal
card of the seat to move, the value after playing it.

May import: the foundations, the games' registry and protocol and ``games.search``; never a
game by name.
"""

from __future__ import annotations

import itertools
import re
import time
from collections.abc import Callable
from dataclasses import dataclass

import numba
import numpy as np

from .bits import popcount
from .cards import SUITS, CardParseError, format_card, parse_cards
from .games import as_rules
from .games import game as game_of
from .games.search import params as ddp
from .limits import SOLVE_MAX_NODES, check_count
from .parsing import quoted

SEAT_NAMES = ("N", "E", "S", "W")
_SEAT_WORDS = {"n": 0, "north": 0, "e": 1, "east": 1, "s": 2, "south": 2, "w": 3, "west": 3}
DEFAULT_MAX_NODES = SOLVE_MAX_NODES
_SEAT_PREFIX = re.compile(r"^([NESWnesw]):(.+)$")


class PositionError(ValueError):
    """A position that cannot arise: card counts, duplicates, an illegal card in the trick."""


class SolveBudgetError(RuntimeError):
    """The node budget ran out before the position was solved."""


@dataclass
class Solution:
    """A solved position; values are from ``side``'s point of view (see the module doc)."""

    game: str
    value: int
    to_move: int
    side: int
    card_values: dict[str, int]
    nodes: int
    seconds: float
    trump: str | None = None
    contract: str | None = None
    seat_alone: bool = False  # the value is one seat's (King), not a partnership's

    def best_cards(self) -> list[str]:
        """The legal cards with the best value for the seat to move."""
        if not self.card_values:
            return []
        mover_side = self._same_side(self.to_move)
        pick = max if mover_side else min
        best = pick(self.card_values.values())
        return [c for c, v in self.card_values.items() if v == best]

    def _same_side(self, seat: int) -> bool:
        if self.seat_alone:
            return seat == self.side
        return seat % 2 == self.side % 2


class Scratch:
    """The search's parameter block and transposition table, allocated once and reused by
    solves."""

    def __init__(self, tt_bits: int = 18):
        from .games.search.setup import WS_PAR, WS_RES, WS_TT, make_workspace

        ws = make_workspace(tt_bits)
        self.tt, self.par, self.res = ws[WS_TT], ws[WS_PAR], ws[WS_RES]
        self.gen = 0

    def next_gen(self) -> int:
        self.gen = (self.gen + 1) % (1 << 38)  # the generation bits of the table's key
        return self.gen + 1


_SCRATCH: dict[int, Scratch] = {}


def _scratch(tricks: int) -> Scratch:
    """The reused scratch for a position of ``tricks`` tricks: up to six, a 1 MB table that
    stays in cache (``search.setup.search_tt_bits``); deeper positions need the room of 16 MB."""
    bits = 14 if tricks <= 6 else 18
    if bits not in _SCRATCH:
        _SCRATCH[bits] = Scratch(bits)
    return _SCRATCH[bits]


def parse_seat(text: str | int) -> int:
    if isinstance(text, (int, np.integer)) and 0 <= int(text) < 4:
        return int(text)
    key = str(text).strip().lower()
    if key in _SEAT_WORDS:
        return _SEAT_WORDS[key]
    if key in ("0", "1", "2", "3"):
        return int(key)
    raise PositionError(f"bad seat {quoted(str(text))}; seats: N, E, S, W (or 0-3)")


def parse_hands(hands: str | list) -> list[list[int]]:
    """``"N/E/S/W"`` (``-`` for an empty hand) as four card lists; duplicates are errors."""
    if not isinstance(hands, str | list | tuple):
        raise PositionError(f"hands are \"N/E/S/W\" (such as \"AS KS/QS JS/5S 4S/3S 2S\") or "
                            f"four lists of cards; got {hands!r}")
    parts = hands.split("/") if isinstance(hands, str) else list(hands)
    if len(parts) != 4:
        raise PositionError(f"hands need 4 parts separated by '/' (N/E/S/W), got {len(parts)}")
    out = []
    for seat, part in enumerate(parts):
        text = part.strip() if isinstance(part, str) else part
        if isinstance(text, str):
            try:
                cards = [] if text in ("", "-") else parse_cards(text)
            except CardParseError as e:
                raise PositionError(f"{SEAT_NAMES[seat]}'s hand: {e}") from None
        else:
            from .cards import CardSet

            cards = list(CardSet(text))
        out.append(cards)
    return out


def _parse_played(played: str, leader: int) -> list[tuple[int, int]]:
    """(seat, card) in play order; unprefixed cards go to the leader and on clockwise."""
    tokens = [t for t in re.split(r"[\s,]+", played.strip()) if t]
    out = []
    seat = leader
    for pos, tok in enumerate(tokens, 1):
        m = _SEAT_PREFIX.match(tok)
        if m:
            seat = parse_seat(m.group(1))
            tok = m.group(2)
        try:
            card = parse_cards(tok)[0]
        except CardParseError as e:
            raise PositionError(f"played card {pos}: {e}") from None
        out.append((seat, card))
        seat = (seat + 1) % 4
    if len(out) > 3:
        raise PositionError(f"{len(out)} cards played to the current trick; a trick holds 4, "
                            "so give the next trick's position instead (at most 3 played)")
    return out


def parse_trump(trump: str | None, no_trump: str | None) -> int:
    """0..3 for C D H S, 4 for no trump; ``no_trump`` is the error when the position may not
    be at no trump (None: it may)."""
    if trump is None or str(trump).strip().upper() in ("", "NT", "N", "NONE"):
        if no_trump is not None:
            raise PositionError(no_trump)
        return 4
    t = str(trump).strip().upper()
    if t not in SUITS:
        raise PositionError(f"bad trump {quoted(str(trump))}; trump: C, D, H, S or NT")
    return SUITS.index(t)


@dataclass(frozen=True)
class SearchRules:
    """What the solver needs of a game for one position (each game's ``position`` module
    makes it, :meth:`analyzer.games.protocol.Game.search_rules`): the trump and contract,
    how many cards a hand may hold when a trick starts and whether hands may differ, whether
    the value is one seat's rather than a partnership's, which cards are in the deck, and
    ``layout(seen, q, cpts, tv)``: the card maps into and out of the search layout and
    ``setup(side)``, which fills the search parameters."""

    trump_code: int
    contract: str | None
    hand_limit: int
    uneven_hands: bool
    seat_alone: bool
    check_deck: Callable
    layout: Callable
    uneven_hint: str = ""


def _check_counts(title: str, sr: SearchRules, start: list[int]) -> None:
    """PositionError unless the hands could hold these counts (``start``: cards each seat
    held when the trick began): they shrink by one a trick, so they are equal at its start,
    but where the game deals some seats fewer."""
    counts = f"got N {start[0]}, E {start[1]}, S {start[2]}, W {start[3]}"
    if max(start) > sr.hand_limit:
        raise PositionError(f"a {title} hand holds at most {sr.hand_limit} cards in play; "
                            f"{counts}")
    if not any(start):
        raise PositionError("the position has no cards")
    if not sr.uneven_hands and (len(set(start)) != 1 or start[0] > sr.hand_limit):
        raise PositionError(f"every {title} hand must hold the same number of cards (1 to "
                            f"{sr.hand_limit}) when the trick starts, counting a card it played "
                            f"to the trick; {counts}{sr.uneven_hint}")


@dataclass
class _Prepared:
    hands: np.ndarray
    cards: np.ndarray
    seats: np.ndarray
    n_played: int
    leader: int
    q: np.ndarray
    cpts: np.ndarray
    tv: np.ndarray
    from_search: object


def _prepare(game: str, hands, trump, leader, played, side, contract) -> tuple:
    rules = as_rules(game)
    leader = parse_seat(leader)
    held = parse_hands(hands)
    plays = _parse_played(played or "", leader)
    seen: dict[int, str] = {}
    for seat, cards in enumerate(held):
        for c in cards:
            if c in seen:
                raise PositionError(f"card {format_card(c)} is in {seen[c]} and "
                                    f"{SEAT_NAMES[seat]}'s hand; each card is dealt once")
            seen[c] = f"{SEAT_NAMES[seat]}'s"
    for _, c in plays:
        if c in seen:
            where = ("played twice to the current trick" if seen[c] == "the current trick"
                     else f"played to the current trick and also in {seen[c]} hand")
            raise PositionError(f"card {format_card(c)} is {where}; each card is dealt once")
        seen[c] = "the current trick"
    if plays and plays[0][0] != leader:
        raise PositionError("the first played card must be the leader's")
    if len({s for s, _ in plays}) != len(plays):
        raise PositionError("a seat plays twice to the current trick")
    start = [len(h) for h in held]  # cards each seat held when the trick began
    for seat, _ in plays:
        start[seat] += 1
    for (before, _), (seat, c) in itertools.pairwise(plays):  # clockwise, skipping empty hands
        turn = (before + 1) % 4
        while not start[turn] and turn != seat:
            turn = (turn + 1) % 4
        if seat != turn:
            raise PositionError(f"{SEAT_NAMES[seat]} plays {format_card(c)} out of turn: "
                                f"after {SEAT_NAMES[before]} it is {SEAT_NAMES[turn]}'s turn "
                                f"(play goes clockwise, N E S W)")
    g = game_of(rules)
    sr = g.search_rules(rules, trump, contract)
    _check_counts(g.title, sr, start)
    sr.check_deck(seen)
    side = plays_side = parse_seat(side) if side is not None else None
    q = np.zeros(ddp.NQ, dtype=np.uint64)
    cpts = np.zeros(64, dtype=np.int64)
    tv = np.zeros(ddp.NTV, dtype=np.int64)
    to_search, from_search, setup = sr.layout(seen, q, cpts, tv)
    masks = np.zeros(4, dtype=np.uint64)
    for seat, cards in enumerate(held):
        for c in cards:
            masks[seat] |= np.uint64(1 << to_search(c))
    cards_arr = np.zeros(4, dtype=np.int64)  # room for the card the search adds
    seats_arr = np.zeros(4, dtype=np.int64)
    for j, (seat, c) in enumerate(plays):
        cards_arr[j] = to_search(c)
        seats_arr[j] = seat
    # the seat to move: after the played seats, the next one clockwise holding cards
    mover = leader
    if plays:
        mover = (plays[-1][0] + 1) % 4
    for _ in range(4):
        if held[mover] and mover not in {s for s, _ in plays}:
            break
        mover = (mover + 1) % 4
    side = mover if plays_side is None else side
    setup(side)
    prep = _Prepared(masks, cards_arr, seats_arr, len(plays), leader, q, cpts, tv, from_search)
    # every played card must have been legal for its seat with the cards it still holds
    bad = ddp.first_illegal(masks, cards_arr, seats_arr, len(plays), q)
    if bad >= 0:
        seat, c = plays[bad]
        raise PositionError(f"{SEAT_NAMES[seat]} could not play {format_card(c)} to this trick "
                            f"with the cards it holds")
    return rules, sr, prep, mover, side


_SOLVE_TYPES = None  # numba's types of solve_moves' arguments, once the first solve knows them


def solve(game, hands, trump=None, leader=0, played: str = "", side=None, contract=None,
          max_nodes: int = DEFAULT_MAX_NODES, scratch: Scratch | None = None) -> Solution:
    """Double-dummy value of a position and of each legal card (see the module doc).

    PositionError for positions that cannot arise; RuntimeError when the node budget runs
    out before the position is solved.
    """
    check_count("max_nodes", max_nodes)  # a string or 0 reached the kernel, as numba's error
    rules, sr, p, mover, side = _prepare(game, hands, trump, leader, played, side, contract)
    sc = scratch or _scratch(max(popcount(int(h)) for h in p.hands))
    vals = np.zeros(64, dtype=np.int64)
    from .games.search import dd_cards  # here: importing the search compiles it (about a minute

    args = (p.hands, p.leader, p.cards, p.seats, p.n_played, p.q, p.cpts, p.tv, sc.tt,
            sc.next_gen(), sc.par, max_nodes, sc.res, vals)
    # compiled (or loaded) before the clock starts: a first solve's 10-20 s of compiling
    # read as its search time ("12 nodes, 10007.8 ms"). The argument types are the same
    # on every call, so they are worked out once: typing 14 arguments took a third of a
    # small solve's 0.27 ms
    global _SOLVE_TYPES
    if _SOLVE_TYPES is None:
        _SOLVE_TYPES = tuple(numba.typeof(a) for a in args)
    dd_cards.solve_moves.compile(_SOLVE_TYPES)
    t0 = time.perf_counter()
    dd_cards.solve_moves(*args)
    seconds = time.perf_counter() - t0
    if not sc.res[ddp.RES_SOLVED]:
        raise SolveBudgetError(f"position not solved within {max_nodes:,} nodes (a whole "
                               "13-card deal is often out of reach)")
    card_values = {format_card(p.from_search(c)): int(vals[c])
                   for c in range(64) if vals[c] > -ddp.INF}
    return Solution(game=str(rules),
                    value=int(sc.res[ddp.RES_VALUE]), to_move=mover, side=side,
                    card_values=card_values, nodes=int(sc.res[ddp.RES_NODES]), seconds=seconds,
                    trump=None if sr.trump_code == 4 else SUITS[sr.trump_code],
                    contract=sr.contract, seat_alone=sr.seat_alone)


def deal_position(rules, seed: int, index: int, policy: str = "heuristic",
                  contract: str | None = None) -> dict:
    """The start-of-play position of simulated deal ``index`` (as ``bidlab deal`` shows it):
    solve(**it) gives its double-dummy value for the trump maker's side (Pedro), the
    declarer's side (Rook) or the leader (King)."""
    hands, trump, leader, side, contract = game_of(rules).deal_position(rules, seed, index,
                                                                        policy, contract)
    text = "/".join(" ".join(h) if h else "-" for h in hands)
    return {"game": rules, "hands": text, "trump": None if trump in (None, "N") else trump,
            "leader": leader, "side": side, "contract": contract}
