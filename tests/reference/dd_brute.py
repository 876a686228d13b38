"""Brute-force double-dummy (perfect-information) minimax for Pedro/Cinch, Rook and King.

The slow, obviously correct counterpart of ``analyzer.solve``: every legal card of
every seat is tried, to the end of the hand, with no pruning, no move ordering, no
transposition table and no shortcut of any kind.  It is only fit for endgames of a
few tricks, which is what the agreement test feeds it.

It shares no code with the ``analyzer`` package.  The rules come from the pure-Python
references next to it (``pedro_ref``, ``rook_ref``, ``king_ref``): their card parsers,
legal-move functions, trick-winner functions and point tables are used unchanged;
what is new here is only the search and the bookkeeping of the current trick.

The call mirrors the solver contract::

    sol = solve(game, hands, trump=None, leader=0, played="", side=None, contract=None)
    sol.value        # minimax value from `side`'s point of view
    sol.to_move      # seat to move
    sol.card_values  # {card string: value after that card}, every legal card

* ``game``: "pedro", "cinch", "rook", "king", or a variant string with rule flags,
  ``"rook(rook_rank=highest_trump,points=no_last_trick_bonus)"``.  Only the flags
  that change play or trick points are read (others are accepted and ignored):
  Pedro/Cinch ``low_to``, ``high_low_def``, ``trump_while_able_to_follow``;
  Rook ``rook_rank``, ``rook_free_play``, ``points``, ``allow_no_trump``;
  King ``kh_force``.
* ``hands``: "N/E/S/W", cards separated by spaces (10 or T, any case, JK/ROOK/JOKER
  for Rook's joker), "-" for an empty hand.  Cards still held, not the ones already
  played to the current trick.
* ``trump``: a suit letter, or None/"NT" (Rook with allow_no_trump: the Rook alone is
  trump; King positive hands; King negative contracts must pass None).
* ``leader``: the seat that led (or will lead) the current trick; ``played``: the
  cards already in the trick, leader's first.
* ``side``: whose result the value is (default: the seat to move).  Pedro/Rook: the
  points taken by side's team ({0, 2} or {1, 3}); King: paranoid, side's own points,
  side maximises and the three others minimise.
* ``contract``: King only; a negative name, "positive", or two negatives joined by "+".

What the value counts (only what the remaining tricks, the current one included, win):

* Pedro/Cinch: Right Pedro 5, Left Pedro 5, Jack 1, Game (the 10) 1 of trumps, and
  Low 1 when ``low_to=winner`` (0 with ``holder``; Cinch is always ``winner``).  Low
  is the trump 2 under ``fixed_a_and_2``, or under ``highest_lowest_in_play`` the
  lowest trump among the cards of the position (hands + current trick); one card may
  carry two elements (e.g. a lowest-in-play Right Pedro is worth 6).  High never
  counts.  A trick is played by the seats holding cards when it starts, clockwise from
  its leader; a leader with no cards passes the lead to the next seat clockwise that
  has some.
* Rook: card points of the ``points`` scheme in tricks won, plus the last-trick bonus
  (princeton only) to the winner of the trick that empties every hand.
* King: the contract's points in the remaining tricks; trick number n is
  13 - (cards each seat holds at the trick's start) + 1, so ``last_two`` charges the
  last two tricks of the hand.  Positive: +25 per trick.

The played cards of a Pedro trick belong to the seats leader, leader+1, ... that held
cards when the trick began.  A seat that holds nothing now either played its last card
to this trick or was empty at its start; when the position allows both readings, the
position is ambiguous and :func:`solve` raises :class:`BadPosition` (the agreement
test never generates such positions).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import product

from . import king_ref, pedro_ref, rook_ref

__all__ = ["BadPosition", "BruteSolution", "solve", "parse_game", "pedro_trick_orders"]


class BadPosition(ValueError):
    """A position (or argument) the solver contract does not accept."""


@dataclass(frozen=True)
class BruteSolution:
    value: int
    to_move: int
    card_values: dict  # card string -> value after that card
    order: tuple  # seats of the current trick in play order
    leaves: int  # finished hands visited (the size of the search)


# ---------------------------------------------------------------------------
# Arguments
# ---------------------------------------------------------------------------

_VARIANT = re.compile(r"^\s*([a-z]+)\s*(?:\((.*)\))?\s*$", re.IGNORECASE)

# Flags of each game (docs/spec.md §7; the Rules dataclasses).  The first group of each
# game is read here, with its allowed values; the second is accepted and ignored
# because it cannot change the play of the remaining tricks or what they win.
_PLAY_FLAGS = {
    "pedro": {
        "low_to": ("winner", "holder"),
        "high_low_def": ("fixed_a_and_2", "highest_lowest_in_play"),
        "trump_while_able_to_follow": ("allowed", "forbidden"),
    },
    "rook": {
        "rook_rank": rook_ref.ROOK_RANKS,
        "rook_free_play": (False, True),
        "points": ("princeton", "no_last_trick_bonus", "parker_adapt"),
        "allow_no_trump": (False, True),
    },
    "king": {
        "kh_force": ("when_void", "when_void_or_ace_already_played"),
        "allow_no_trump": (False, True),
    },
}
_PLAY_FLAGS["cinch"] = _PLAY_FLAGS["pedro"]
_OTHER_FLAGS = {
    "pedro": {
        "min_bid",
        "all_pass",
        "scoring",
        "m2_diff_to",
        "target",
        "no_contract_tie",
        "excess_trumps",
        "discarded_counter_scoring",
        "stock_short",
        "cinch_keep_nontrumps",
        "rob_disclosure",
    },
    "rook": {
        "bid_step",
        "all_pass",
        "drop",
        "drop_points_to",
        "pass_cycle",
        "first_lead",
        "opp_scores",
        "target",
        "tie",
    },
    "king": {
        "first_dealer",
        "first_lead",
        "neg_order",
        "combined_negatives",
        "pos_leader",
        "max_offer",
        "payment_floor",
        "auction_model",
    },
}
_OTHER_FLAGS["cinch"] = _OTHER_FLAGS["pedro"]


def parse_game(game):
    """'rook(rook_free_play=True)' -> ('rook', {'rook_free_play': True, ...defaults}).

    Returns the game name and a dict of the play flags (every one, defaults filled)."""
    m = _VARIANT.match(game or "")
    if not m:
        raise BadPosition(f"bad game string {game!r}")
    name = m.group(1).lower()
    if name not in _PLAY_FLAGS:
        raise BadPosition(f"unknown game {name!r}")
    flags = {k: allowed[0] for k, allowed in _PLAY_FLAGS[name].items()}
    for item in (m.group(2) or "").split(","):
        if not item.strip():
            continue
        if "=" not in item:
            raise BadPosition(f"bad flag {item!r} in {game!r}")
        key, text = (s.strip() for s in item.split("=", 1))
        key = key.lower()
        if key in _OTHER_FLAGS[name]:
            continue
        if key not in _PLAY_FLAGS[name]:
            raise BadPosition(f"unknown flag {key!r} for {name}")
        matches = [v for v in _PLAY_FLAGS[name][key] if str(v).lower() == text.lower()]
        if not matches:
            raise BadPosition(f"bad value {text!r} for flag {key}")
        flags[key] = matches[0]
    if name == "cinch" and flags["low_to"] != "winner":
        raise BadPosition("cinch: low_to is always winner")
    return name, flags


def _tokens(text):
    return [t for t in re.split(r"[\s,]+", (text or "").strip()) if t]


def _parse_card(token, parse):
    t = token.upper()
    if t in ("JK", "ROOK", "JOKER"):
        t = "JK"
    elif t.startswith("10") and len(t) == 3:
        t = "T" + t[2]
    try:
        return parse(t)
    except ValueError:
        raise BadPosition(f"not a card here: {token!r}") from None


def _parse_hands(text, parse):
    parts = (text or "").split("/")
    if len(parts) != 4:
        raise BadPosition(f"hands must be 4 hands separated by '/': {text!r}")
    hands = []
    for part in parts:
        toks = [] if part.strip() == "-" else _tokens(part)
        hands.append(tuple(_parse_card(t, parse) for t in toks))
    return hands


# ---------------------------------------------------------------------------
# The games: legal moves, trick winner, what a trick is worth to `side`
# ---------------------------------------------------------------------------


class _Pedro:
    """spec §1 (Pedro) / §2 (Cinch) through pedro_ref."""

    ref = pedro_ref

    def __init__(self, name, flags, trump, contract, side, all_cards):
        if contract is not None:
            raise BadPosition("contract is for King only")
        if trump not in tuple(pedro_ref.SUITS):
            raise BadPosition(f"{name} needs a trump suit, got {trump!r}")
        self.trump = trump
        self.side = side
        self.rules = {"game": name, **flags}
        self.points = self._points(all_cards)

    def _points(self, cards):
        """Capture points of each card of the position (spec §1.8, LOG §6)."""
        t = self.trump
        pts = {c: 0 for c in cards}
        for card, value in (
            ((5, t), 5),
            ((5, pedro_ref.PARTNER_SUIT[t]), 5),
            ((11, t), 1),
            ((10, t), 1),
        ):
            if card in pts:
                pts[card] += value
        if pedro_ref.low_to(self.rules) == "winner":
            _high, low = pedro_ref.high_low_cards(cards, t, self.rules)
            if low in pts:
                pts[low] += 1
        return pts

    def check_cards(self, cards):
        pass

    def legal(self, hand, trick_cards):
        return pedro_ref.legal_plays(hand, trick_cards, self.trump, self.rules)

    def winner(self, plays):
        return pedro_ref.trick_winner(plays, self.trump)

    def maximises(self, seat):
        return seat % 2 == self.side % 2

    def gain(self, plays, winner, hands, number):
        if winner % 2 != self.side % 2:
            return 0
        return sum(self.points[c] for _, c in plays)

    def next_order(self, winner, hands):
        """LOG §4: the trick's winner leads, or the next seat clockwise with cards;
        the seats holding cards play, clockwise from the leader."""
        leader = pedro_ref.next_leader(winner, hands)
        if leader is None:
            return None
        return tuple(s for s in ((leader + i) % 4 for i in range(4)) if hands[s])


class _Rook:
    """spec §4 through rook_ref."""

    ref = rook_ref

    def __init__(self, name, flags, trump, contract, side, all_cards):
        if contract is not None:
            raise BadPosition("contract is for King only")
        if trump is None:
            if not flags["allow_no_trump"]:
                raise BadPosition("rook: no trump needs allow_no_trump=True")
            trump = rook_ref.NO_TRUMP
        self.trump = trump
        self.side = side
        self.rules = {"game": "rook", **flags}
        self.bonus = rook_ref.last_trick_bonus(self.rules)
        self.points = {c: rook_ref.card_points(c, self.rules) for c in all_cards}

    def check_cards(self, cards):
        deck = set(rook_ref.make_deck(self.rules))
        for c in cards:
            if c not in deck:
                raise BadPosition(
                    f"{rook_ref.card_str(c)} is not in the {self.rules['points']} deck"
                )

    def legal(self, hand, trick_cards):
        return rook_ref.legal_plays(hand, trick_cards, self.trump, self.rules)

    def winner(self, plays):
        return rook_ref.trick_winner(plays, self.trump, self.rules)

    def maximises(self, seat):
        return seat % 2 == self.side % 2

    def gain(self, plays, winner, hands, number):
        if winner % 2 != self.side % 2:
            return 0
        value = sum(self.points[c] for _, c in plays)
        if not any(hands):  # this trick emptied every hand: the last trick
            value += self.bonus
        return value

    def next_order(self, winner, hands):
        if not any(hands):
            return None
        return tuple((winner + i) % 4 for i in range(4))


class _King:
    """spec §3 through king_ref; paranoid: `side` against the other three."""

    ref = king_ref

    def __init__(self, name, flags, trump, contract, side, all_cards):
        if contract is None:
            raise BadPosition("king needs a contract")
        try:
            self.members = king_ref.members(contract)
        except ValueError as exc:
            raise BadPosition(str(exc)) from None
        self.contract = contract
        self.positive = self.members == (king_ref.POSITIVE,)
        if not self.positive and trump is not None:
            raise BadPosition("king: a negative contract has no trump")
        self.trump = trump
        self.side = side
        self.rules = {"kh_force": flags["kh_force"]}

    def check_cards(self, cards):
        pass

    def legal(self, hand, trick_cards):
        return king_ref.legal_plays(hand, trick_cards, self.contract, self.trump, self.rules)

    def winner(self, plays):
        return king_ref.trick_winner(plays, self.trump)

    def maximises(self, seat):
        return seat == self.side

    def gain(self, plays, winner, hands, number):
        if winner != self.side:
            return 0
        if self.positive:
            return king_ref.POINTS_PER_TRICK
        cards = [c for _, c in plays]
        return sum(king_ref._penalty_one(m, number, cards) for m in self.members)

    def next_order(self, winner, hands):
        if not any(hands):
            return None
        return tuple((winner + i) % 4 for i in range(4))


_GAMES = {"pedro": _Pedro, "cinch": _Pedro, "rook": _Rook, "king": _King}


# ---------------------------------------------------------------------------
# The current trick
# ---------------------------------------------------------------------------


def pedro_trick_orders(leader, hands_now, k):
    """Every reading of who plays the current Pedro trick, as seat tuples in play order.

    ``hands_now``: the cards held now; ``k``: cards already played.  The trick is
    played by the seats that held cards when it began, clockwise from the leader
    (the first k of them have played).  A seat holding cards now certainly takes
    part; a seat holding none either played its last card to this trick (so it is
    among the first k) or was empty at the start.  Readings where the trick would
    already be complete are left out.  With k = 0 a leader with no cards passes the
    lead clockwise.  A sound position has exactly one reading.
    """
    if k == 0:
        start = pedro_ref.next_leader(leader, hands_now)
        if start is None:
            return []
        return [tuple(s for s in ((start + i) % 4 for i in range(4)) if hands_now[s])]
    holding = {s for s in range(4) if hands_now[s]}
    empty = [s for s in range(4) if not hands_now[s]]
    out = []
    for pick in product((False, True), repeat=len(empty)):
        seats = holding | {s for s, p in zip(empty, pick, strict=True) if p}
        if leader not in seats:
            continue
        order = tuple(s for s in ((leader + i) % 4 for i in range(4)) if s in seats)
        if len(order) <= k:
            continue
        if any(p and order.index(s) >= k for s, p in zip(empty, pick, strict=True)):
            continue
        out.append(order)
    return out


def _trick_order(name, leader, hands_now, k):
    if name in ("pedro", "cinch"):
        orders = pedro_trick_orders(leader, hands_now, k)
        if len(orders) != 1:
            raise BadPosition(f"{len(orders)} readings of who plays the current trick: {orders}")
        return orders[0]
    if k > 3:
        raise BadPosition("at most 3 cards can be in an unfinished trick")
    order = tuple((leader + i) % 4 for i in range(4))
    sizes = [len(h) for h in hands_now]
    start = [sizes[s] + (1 if i < k else 0) for i, s in enumerate(order)]
    if len(set(start)) != 1 or start[0] == 0:
        raise BadPosition(f"hands of unequal size at the start of the trick: {start}")
    return order


# ---------------------------------------------------------------------------
# The search
# ---------------------------------------------------------------------------


class _Search:
    def __init__(self, game):
        self.game = game
        self.leaves = 0

    def play(self, hands, trick, order, number):
        """Value for `side` of everything won from here on: the rest of the current
        trick (its cards already in ``trick``) and every later trick."""
        g = self.game
        if len(trick) == len(order):
            winner = g.winner(trick)
            gain = g.gain(trick, winner, hands, number)
            nxt = g.next_order(winner, hands)
            if nxt is None:
                self.leaves += 1
                return gain
            return gain + self.play(hands, (), nxt, number + 1)
        values = self.children(hands, trick, order, number)
        seat = order[len(trick)]
        return max(values.values()) if g.maximises(seat) else min(values.values())

    def children(self, hands, trick, order, number):
        """{card: value after the seat to move plays it} for every legal card."""
        seat = order[len(trick)]
        out = {}
        for card in self.game.legal(hands[seat], [c for _, c in trick]):
            rest = list(hands)
            rest[seat] = tuple(c for c in hands[seat] if c != card)
            out[card] = self.play(tuple(rest), trick + ((seat, card),), order, number)
        return out


def _parse_trump(trump):
    if trump is None:
        return None
    t = str(trump).strip().upper()
    if t in ("NT", "N", "NONE", ""):
        return None
    if t not in ("C", "D", "H", "S"):
        raise BadPosition(f"bad trump {trump!r}")
    return t


def solve(game, hands, trump=None, leader=0, played="", side=None, contract=None):
    """Exhaustive minimax of the position; see the module docstring."""
    name, flags = parse_game(game)
    ref = _GAMES[name].ref
    hands_now = _parse_hands(hands, ref.parse_card)
    trick_cards = [_parse_card(t, ref.parse_card) for t in _tokens(played)]
    every = [c for h in hands_now for c in h] + trick_cards
    if len(set(every)) != len(every):
        raise BadPosition("a card is given twice")
    if not every:
        raise BadPosition("no cards")
    if leader not in range(4) or isinstance(leader, bool):
        raise BadPosition(f"bad leader {leader!r}")
    trump = _parse_trump(trump)

    order = _trick_order(name, leader, hands_now, len(trick_cards))
    k = len(trick_cards)
    to_move = order[k]
    if side is None:
        side = to_move
    if side not in range(4) or isinstance(side, bool):
        raise BadPosition(f"bad side {side!r}")
    g = _GAMES[name](name, flags, trump, contract, side, every)
    g.check_cards(every)

    # the cards already played must have been legal for their seats
    trick = ()
    for seat, card in zip(order, trick_cards, strict=False):
        start_hand = hands_now[seat] + (card,)
        if card not in g.legal(start_hand, [c for _, c in trick]):
            raise BadPosition(f"seat {seat} could not legally play {ref.card_str(card)}")
        trick += ((seat, card),)

    number = 14 - (len(hands_now[to_move]))  # King: the current trick's number
    search = _Search(g)
    values = search.children(tuple(hands_now), trick, order, number)
    best = max(values.values()) if g.maximises(to_move) else min(values.values())
    return BruteSolution(
        value=best,
        to_move=to_move,
        card_values={ref.card_str(c): v for c, v in values.items()},
        order=order,
        leaves=search.leaves,
    )
