"""Independent pure-Python reference for Rook, "Princeton rules" (docs/spec.md §4).

A standard 52-card deck plus one joker, the Rook.  This module replays one
logged hand (format and open decisions: ``tests/reference/ROOK_LOG_FORMAT.md``,
cited below as "LOG §n" for its numbered "Decisions" list) and re-derives every
decision from the written rules alone.  It shares no code with the ``analyzer``
package: it exists to cross-check the fast kernels, so it is written for
clarity, one small function per rule, and makes no attempt to be fast.

Rule sources (``docs/spec.md``):

* §0.1  seats 0..3 clockwise; left of p is p+1, right of p is p-1; eldest is
        dealer + 1; teams {0, 2} and {1, 3}.
* §4.1  deck and ranking; the Rook is a trump (lowest by default).
* §4.3  auction; §4.4 widow and drop; §4.5 passing; §4.6 trump and first lead;
        §4.7 following and trick winner; §4.8 points; §4.9 settlement.
* §5    the Rook invariants; §7 the Rook flags.

Cards are ``(rank, suit)`` tuples: rank 2..14 (T=10, J=11, Q=12, K=13, A=14),
suit one of "CDHS".  The Rook is ``ROOK = (0, "R")`` and is written "JK" in logs.
A trump argument is one of "CDHS", or "N" for no trump.

Ambiguities in the contract and how this module reads them (each is also noted
where it is used):

* A1  ``passed`` with no passing: LOG shows ``[]``; both ``[]`` and
      ``[[], [], [], []]`` are accepted.
* A2  ``rook_rank`` ``above_X`` for a rank X removed from the deck (2, 3, 4 under
      ``parker_adapt``): the Rook sits where X would be, i.e. above every
      trump ranked at most X; with 2-4 removed that is the same as lowest_trump.
* A3  Derived fields (declarer, bid, forced, direction, trick winners, start
      hands, dealer = index % 4, hand_index = index, the result) are compared by
      ``result_mismatches``; ``replay`` itself raises only for actions the rules
      forbid and for malformed records.  ``replay`` always continues with the
      values it derived itself, so a wrong logged declarer usually also makes the
      logged drop illegal, and a wrong logged trick winner makes the next
      trick's leader wrong (both raise IllegalAction).
* A4  ``redeals`` must be 0 unless ``all_pass`` is ``redeal``.  The logged
      auction is the final attempt, so it may not be four passes.
* A5  The order of cards inside ``hands``/``start_hands``/``passed`` lists is not
      significant; start hands are compared as sets.
* A6  Keys in the log's ``result`` that the contract does not name are ignored.
* A7  ``rook_rank`` values are "lowest_trump", "above_2".."above_9", "above_T",
      "above_J", "above_Q", "above_K", "highest_trump" (rank letters as in cards).
"""

from __future__ import annotations

# ---------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------


class IllegalAction(Exception):
    """A logged action (or a piece of the log's bookkeeping) that the rules forbid.

    The message names the phase, the seat (None when no single seat is at
    fault, e.g. a bad deal) and the offending card, bid or record.
    """

    def __init__(self, phase, seat, action, reason):
        self.phase = phase
        self.seat = seat
        self.action = action
        self.reason = reason
        super().__init__(f"[{phase}] seat {seat}: {action!r}: {reason}")


# ---------------------------------------------------------------------------
# Cards (§4.1)
# ---------------------------------------------------------------------------

SUITS = "CDHS"
RANK_CHARS = "23456789TJQKA"  # RANK_CHARS[r - 2] is the letter of rank r
ROOK = (0, "R")
ROOK_TEXT = "JK"
NO_TRUMP = "N"
TRUMP_CALLS = ("C", "D", "H", "S", "N")


def parse_card(text):
    """'TS' -> (10, 'S'); 'JK' -> ROOK.  Raises ValueError for anything else."""
    if text == ROOK_TEXT:
        return ROOK
    if not isinstance(text, str) or len(text) != 2:
        raise ValueError(f"not a card: {text!r}")
    rank_char, suit = text[0], text[1]
    if rank_char not in RANK_CHARS or suit not in SUITS:
        raise ValueError(f"not a card: {text!r}")
    return (RANK_CHARS.index(rank_char) + 2, suit)


def card_str(card):
    """(10, 'S') -> 'TS'; ROOK -> 'JK'."""
    if card == ROOK:
        return ROOK_TEXT
    rank, suit = card
    return RANK_CHARS[rank - 2] + suit


def card_sort_key(card):
    """Suits C D H S, then rank; the Rook last.  Only for tidy output."""
    if card == ROOK:
        return (4, 0)
    return (SUITS.index(card[1]), card[0])


def team_of(seat):
    """§0.1: teams are {0, 2} (team 0) and {1, 3} (team 1)."""
    return seat % 2


def left_of(seat):
    """§0.1: the left-hand neighbour of p is p + 1."""
    return (seat + 1) % 4


def right_of(seat):
    """§0.1: the right-hand neighbour of p is p - 1."""
    return (seat - 1) % 4


# ---------------------------------------------------------------------------
# Rules flags (§7, LOG "rules")
# ---------------------------------------------------------------------------

ROOK_RANKS = (
    ("lowest_trump",) + tuple(f"above_{r}" for r in RANK_CHARS[:-1]) + ("highest_trump",)
)

# Allowed values; the first is the default (docs/spec.md §7, marked *).  Unit tests
# may leave flags out; replay() insists that a log carries every flag.
FLAG_VALUES = {
    "rook_rank": ROOK_RANKS,
    "rook_free_play": (False, True),
    "bid_step": ("any_multiple_of_5", "exactly_5"),
    "all_pass": ("fourth_forced_at_70", "redeal"),
    "drop": ("any_card", "no_counters", "no_rook"),
    "drop_points_to": ("declarer_team", "last_trick_winner"),
    "pass_cycle": ("right_left", "right_left_none", "left", "right", "none"),
    "allow_no_trump": (False, True),
    "first_lead": ("declarer_chooses", "declarer", "left_of_declarer"),
    "points": ("princeton", "no_last_trick_bonus", "parker_adapt"),
    "opp_scores": ("always", "not_when_declarer_set"),
}

DEFAULT_RULES = {"game": "rook", **{name: values[0] for name, values in FLAG_VALUES.items()},
                 "target": 500, "tie": "higher_then_declarer"}


def flag(rules, name):
    """Value of one flag, validated; the default when the flag is missing."""
    allowed = FLAG_VALUES[name]
    value = (rules or {}).get(name, allowed[0])
    if isinstance(allowed[0], bool):
        ok = isinstance(value, bool)  # 0/1 are not accepted for booleans
    else:
        ok = isinstance(value, str) and value in allowed
    if not ok:
        raise ValueError(f"rules[{name!r}] = {value!r}; allowed values are {allowed}")
    return value


def full_rules(rules=None):
    """DEFAULT_RULES overlaid with `rules`, every flag validated."""
    out = dict(DEFAULT_RULES)
    out.update(rules or {})
    if out.get("game") != "rook":
        raise ValueError(f"rules['game'] = {out.get('game')!r}, expected 'rook'")
    for name in FLAG_VALUES:
        flag(out, name)
    return out


def check_rules_complete(rules):
    """A log must carry every flag (LOG "rules"); returns the validated rules."""
    missing = [name for name in ("game", *FLAG_VALUES) if name not in rules]
    if missing:
        raise ValueError(f"log rules lack {missing}")
    return full_rules(rules)


# ---------------------------------------------------------------------------
# Deck and points (LOG §1, §4.8)
# ---------------------------------------------------------------------------


def deck_ranks(rules=None):
    """princeton / no_last_trick_bonus: 2..A; parker_adapt: 2s, 3s, 4s removed."""
    if flag(rules, "points") == "parker_adapt":
        return list(range(5, 15))
    return list(range(2, 15))


def make_deck(rules=None):
    """The deck for the points scheme: 53 cards, or 41 under parker_adapt."""
    return [(rank, suit) for suit in SUITS for rank in deck_ranks(rules)] + [ROOK]


def hand_size(rules=None):
    """13 cards (10 under parker_adapt): everything but the one-card widow."""
    return (len(make_deck(rules)) - 1) // 4


def card_points(card, rules=None):
    """LOG §1: princeton and no_last_trick_bonus: A15 K10 T10 5s 5, Rook 20;
    parker_adapt: A10 T10 5s 5, Rook 20.  Every other card 0."""
    if card == ROOK:
        return 20
    if flag(rules, "points") == "parker_adapt":
        values = {14: 10, 10: 10, 5: 5}
    else:
        values = {14: 15, 13: 10, 10: 10, 5: 5}
    return values.get(card[0], 0)


def is_counter(card, rules=None):
    """A card worth points (the Rook is one)."""
    return card_points(card, rules) > 0


def last_trick_bonus(rules=None):
    """20 for the last trick under princeton; nothing under the other schemes."""
    return 20 if flag(rules, "points") == "princeton" else 0


def total_points(rules=None):
    """T: the card points of the whole deck plus the last-trick bonus
    (200 princeton, 180 no_last_trick_bonus, 120 parker_adapt)."""
    return sum(card_points(c, rules) for c in make_deck(rules)) + last_trick_bonus(rules)


# ---------------------------------------------------------------------------
# Trumps, following, trick winner (§4.1, §4.7, LOG §5, §7, §8)
# ---------------------------------------------------------------------------


def is_trump(card, trump):
    """The Rook is always a trump; with no trump ("N") it is the only one."""
    if card == ROOK:
        return True
    return trump != NO_TRUMP and card[1] == trump


def effective_suit(card, trump):
    """The suit a card counts as in play: the Rook's is the trump (or "N")."""
    if card == ROOK:
        return trump
    return card[1]


def rook_position(rules=None):
    """The trump rank the Rook sits just above: 1 = below the 2 (lowest_trump),
    X for above_X, 14 = above the Ace (highest_trump)."""
    name = flag(rules, "rook_rank")
    if name == "lowest_trump":
        return 1
    if name == "highest_trump":
        return 14
    return RANK_CHARS.index(name[len("above_"):]) + 2


def trump_order(trump, rules=None):
    """All trumps, lowest first: the trump 2..A with the Rook inserted per
    rook_rank (LOG §8).  With no trump the list is just the Rook.  The 2s-4s
    are listed even under parker_adapt (whose deck lacks them): that changes no
    comparison between cards in play (A2)."""
    if trump == NO_TRUMP:
        return [ROOK]
    above = rook_position(rules)
    order = [(rank, trump) for rank in range(2, 15) if rank <= above]
    order.append(ROOK)
    order += [(rank, trump) for rank in range(2, 15) if rank > above]
    return order


def trump_strength(card, trump, rules=None):
    """Position of a trump in trump_order (0 = lowest); higher beats lower.
    ValueError for a card that is not a trump."""
    if not is_trump(card, trump):
        raise ValueError(f"{card_str(card)} is not a trump when trump is {trump}")
    return trump_order(trump, rules).index(card)


def legal_plays(hand, trick_so_far, trump, rules=None):
    """Cards of `hand` that may be played on `trick_so_far` (a list of cards,
    the led card first).  LOG §7: any card may be led; a seat holding a card of
    the led card's effective suit must play one, otherwise any card; under
    rook_free_play the Rook may also be played at any time.  Keeps hand order."""
    hand = list(hand)
    if not trick_so_far:
        return hand
    led_suit = effective_suit(trick_so_far[0], trump)
    followers = [c for c in hand if effective_suit(c, trump) == led_suit]
    if not followers:
        return hand
    if flag(rules, "rook_free_play"):
        return [c for c in hand if c in followers or c == ROOK]
    return followers


def trick_winner(plays, trump, rules=None):
    """Seat that wins a trick; `plays` is [(seat, card), ...] in play order.
    LOG §8: the highest trump played, else the highest card of the led suit."""
    trumps = [(trump_strength(card, trump, rules), seat)
              for seat, card in plays if is_trump(card, trump)]
    if trumps:
        return max(trumps)[1]
    led_suit = effective_suit(plays[0][1], trump)
    followers = [(card[0], seat) for seat, card in plays
                 if effective_suit(card, trump) == led_suit]
    return max(followers)[1]


# ---------------------------------------------------------------------------
# Auction (§4.3, LOG §2)
# ---------------------------------------------------------------------------

MIN_BID = 70
FORCED_BID = 70
PASS = 0


def legal_bids(high, rules=None):
    """Bids (not passes) a seat may make when `high` is the high bid (None or 0:
    nobody has bid).  Multiples of 5, at least 70, above the high bid, at most
    T; under exactly_5 only high + 5 (70 first).  An empty list: must pass."""
    top = total_points(rules)
    lowest = MIN_BID if not high else high + 5
    if flag(rules, "bid_step") == "exactly_5":
        return [lowest] if lowest <= top else []
    return list(range(lowest, top + 1, 5))


def auction_over(passed, high, rules=None):
    """LOG §2: over once three seats have passed and someone bid; with nobody
    bidding, over after three passes under fourth_forced_at_70, and only after
    four (the hand is thrown in) under redeal."""
    if len(passed) == 4:
        return True
    if len(passed) == 3:
        return high is not None or flag(rules, "all_pass") == "fourth_forced_at_70"
    return False


def next_caller(seat, passed):
    """The next seat clockwise after `seat` that has not passed (None if all have)."""
    for step in range(1, 5):
        candidate = (seat + step) % 4
        if candidate not in passed:
            return candidate
    return None


def run_auction(auction, dealer, rules=None):
    """Check a logged auction ([[seat, bid], ...], bid 0 = pass, from eldest)
    and return (declarer, bid, forced).  Raises IllegalAction for a call out
    of turn, an illegal bid, a call after the end, an unfinished auction, or
    four passes (that hand is thrown in and is never the logged one, A4)."""
    passed = set()
    high = None
    high_seat = None
    turn = left_of(dealer)  # eldest calls first
    for call in auction:
        if not isinstance(call, (list, tuple)) or len(call) != 2:
            raise IllegalAction("auction", None, call, "a call is [seat, bid]")
        seat, bid = call
        if auction_over(passed, high, rules):
            raise IllegalAction("auction", seat, bid, "call after the auction ended")
        if seat != turn:
            raise IllegalAction("auction", seat, bid, f"out of turn: seat {turn} must call")
        if isinstance(bid, bool) or not isinstance(bid, int):
            raise IllegalAction("auction", seat, bid, "a bid is an int (0 = pass)")
        if bid == PASS:
            passed.add(seat)
        else:
            allowed = legal_bids(high, rules)
            if bid not in allowed:
                shown = allowed if len(allowed) <= 3 else f"{allowed[0]}..{allowed[-1]} by 5"
                raise IllegalAction("auction", seat, bid,
                                    f"illegal bid over {high}; legal: {shown or 'pass only'}")
            high, high_seat = bid, seat
        turn = next_caller(seat, passed)
    if not auction_over(passed, high, rules):
        raise IllegalAction("auction", turn, None, f"auction unfinished: seat {turn} must call")
    if len(passed) == 4:
        raise IllegalAction("auction", dealer, PASS,
                            "all four passed: that hand is thrown in, it cannot be the logged one")
    if high is None:  # three passes, fourth_forced_at_70: the dealer, who made no call
        return dealer, FORCED_BID, True
    (remaining,) = {0, 1, 2, 3} - passed
    assert remaining == high_seat, "the seat left in the auction holds the high bid"
    return high_seat, high, False


# ---------------------------------------------------------------------------
# Widow, drop, passing, trump, first lead (§4.4-§4.6, LOG §3-§6)
# ---------------------------------------------------------------------------


def legal_drops(cards14, rules=None):
    """Cards the declarer may drop from his 13 (10) cards plus the widow.
    any_card: any; no_rook: not the Rook; no_counters: no card worth points
    (the Rook included) unless every card is a counter."""
    cards14 = list(cards14)
    mode = flag(rules, "drop")
    if mode == "any_card":
        return cards14
    if mode == "no_rook":
        return [c for c in cards14 if c != ROOK]
    blanks = [c for c in cards14 if not is_counter(c, rules)]
    return blanks if blanks else cards14


PASS_CYCLES = {
    "right_left": ("right", "left"),
    "right_left_none": ("right", "left", "none"),
    "left": ("left",),
    "right": ("right",),
    "none": ("none",),
}

PASS_COUNT = 3


def pass_direction(hand_index, rules=None):
    """LOG §4: cycle[h % len(cycle)] for hand index h."""
    cycle = PASS_CYCLES[flag(rules, "pass_cycle")]
    return cycle[hand_index % len(cycle)]


def pass_receiver(seat, direction):
    """RIGHT: seat p gives to p - 1; LEFT: to p + 1 (LOG §4, §0.1)."""
    if direction == "right":
        return right_of(seat)
    if direction == "left":
        return left_of(seat)
    raise ValueError(f"no receiver when the direction is {direction!r}")


def legal_trumps(rules=None):
    """LOG §5: C, D, H, S, and N only with allow_no_trump."""
    return list(TRUMP_CALLS) if flag(rules, "allow_no_trump") else list(SUITS)


def legal_first_leaders(declarer, rules=None):
    """LOG §6: declarer_chooses: himself or his left; declarer; left_of_declarer."""
    mode = flag(rules, "first_lead")
    if mode == "declarer":
        return [declarer]
    if mode == "left_of_declarer":
        return [left_of(declarer)]
    return [declarer, left_of(declarer)]


# ---------------------------------------------------------------------------
# Points and settlement (§4.8, §4.9, LOG §1, §3, §9)
# ---------------------------------------------------------------------------


def count_points(tricks, drop, declarer, rules=None):
    """Team points of a played hand.  `tricks` is [(cards, winner_seat), ...] in
    play order.  Cards go to the winner's team; the dropped card to the declarer's
    team (or, under last_trick_winner, to the last trick's team); the last-trick
    bonus (princeton) to the last trick's team.
    Returns {"points": [p0, p1], "drop_team": t, "last_trick_team": t}."""
    points = [0, 0]
    for cards, winner in tricks:
        for card in cards:
            points[team_of(winner)] += card_points(card, rules)
    last_trick_team = team_of(tricks[-1][1])
    if flag(rules, "drop_points_to") == "last_trick_winner":
        drop_team = last_trick_team
    else:
        drop_team = team_of(declarer)
    points[drop_team] += card_points(drop, rules)
    points[last_trick_team] += last_trick_bonus(rules)
    return {"points": points, "drop_team": drop_team, "last_trick_team": last_trick_team}


def is_made(points, declarer_team, bid):
    """Made when the declarer's team has at least the bid (equality makes it)."""
    return points[declarer_team] >= bid


def settle(points, declarer_team, bid, rules=None):
    """LOG §9: B = declarer team's points, O = T - B.  Made: declarer += B,
    opponents += O.  Set: declarer -= bid, opponents += O (0 under
    not_when_declarer_set).  Returns [d0, d1]."""
    top = total_points(rules)
    mine = points[declarer_team]
    theirs = top - mine
    if points[1 - declarer_team] != theirs:
        raise ValueError(f"team points {points} do not add up to {top}")
    deltas = [0, 0]
    if is_made(points, declarer_team, bid):
        deltas[declarer_team] = mine
        deltas[1 - declarer_team] = theirs
    else:
        deltas[declarer_team] = -bid
        opponents_score = flag(rules, "opp_scores") == "always"
        deltas[1 - declarer_team] = theirs if opponents_score else 0
    return deltas


# ---------------------------------------------------------------------------
# Replay of one logged hand
# ---------------------------------------------------------------------------


def _card(phase, seat, text):
    """parse_card for log data: a malformed card is an IllegalAction."""
    try:
        return parse_card(text)
    except ValueError:
        raise IllegalAction(phase, seat, text, "not a card") from None


def _seat(phase, value):
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 3:
        raise IllegalAction(phase, value, value, "not a seat 0..3")
    return value


def _cards_list(phase, seat, texts, size=None):
    if not isinstance(texts, (list, tuple)):
        raise IllegalAction(phase, seat, texts, "expected a list of cards")
    cards = [_card(phase, seat, t) for t in texts]
    if size is not None and len(cards) != size:
        raise IllegalAction(phase, seat, list(texts), f"{len(cards)} cards, expected {size}")
    if len(set(cards)) != len(cards):
        raise IllegalAction(phase, seat, list(texts), "the same card twice")
    return cards


def check_deal(hands, widow, rules=None):
    """LOG §1: four hands of 13 (10) and one widow card, together exactly the deck."""
    size = hand_size(rules)
    if len(hands) != 4:
        raise IllegalAction("deal", None, "hands", f"{len(hands)} hands, expected 4")
    for seat, hand in enumerate(hands):
        if len(hand) != size:
            raise IllegalAction("deal", seat, [card_str(c) for c in hand],
                                f"dealt {len(hand)} cards, expected {size}")
    dealt = [c for hand in hands for c in hand] + [widow]
    deck = set(make_deck(rules))
    seen = set()
    for card in dealt:
        if card not in deck:
            raise IllegalAction("deal", None, card_str(card), "card not in this deck")
        if card in seen:
            raise IllegalAction("deal", None, card_str(card), "card dealt twice")
        seen.add(card)
    if seen != deck:  # cannot happen once sizes and uniqueness hold; kept as a plain check
        raise IllegalAction("deal", None, sorted(card_str(c) for c in deck - seen), "undealt")


def check_passes(after_drop, passed_log, direction):
    """LOG §4: every seat passes exactly 3 distinct cards it holds after the drop
    (none when the direction is none); returns the hands after passing."""
    if direction == "none":
        if passed_log not in ([], [[], [], [], []]):  # A1
            raise IllegalAction("passing", None, passed_log, "no passing this hand")
        return [list(h) for h in after_drop]
    if not isinstance(passed_log, (list, tuple)) or len(passed_log) != 4:
        raise IllegalAction("passing", None, passed_log, "expected 4 lists of passed cards")
    passed = []
    for seat in range(4):
        cards = _cards_list("passing", seat, passed_log[seat], PASS_COUNT)
        for card in cards:
            if card not in after_drop[seat]:
                raise IllegalAction("passing", seat, card_str(card),
                                    "passed a card not held after the drop")
        passed.append(cards)
    hands = [[c for c in after_drop[seat] if c not in passed[seat]] for seat in range(4)]
    for seat in range(4):
        hands[pass_receiver(seat, direction)] += passed[seat]
    return hands


def replay(log):
    """Replay one logged hand from the rules alone.

    Raises IllegalAction on the first action the rules forbid (or a malformed
    record) and ValueError on bad rules.  Returns the derived values:
    declarer, bid, forced, direction, dealer, hand_index, redeals,
    start_hands (4 sorted lists of card strings), winners (seat per trick),
    points [p0, p1], drop_team, last_trick_team, made, score [d0, d1].
    """
    rules = check_rules_complete(log["rules"])

    # -- deal (LOG §1)
    dealer = _seat("deal", log["dealer"])
    hand_index = log["hand_index"]
    if isinstance(hand_index, bool) or not isinstance(hand_index, int) or hand_index < 0:
        raise IllegalAction("deal", None, hand_index, "hand_index must be an int >= 0")
    redeals = log.get("redeals", 0)
    if isinstance(redeals, bool) or not isinstance(redeals, int) or redeals < 0:
        raise IllegalAction("deal", None, redeals, "redeals must be an int >= 0")
    if redeals and flag(rules, "all_pass") != "redeal":  # A4
        raise IllegalAction("deal", None, {"redeals": redeals},
                            "hands are only thrown in under all_pass=redeal")
    if not isinstance(log["hands"], (list, tuple)) or len(log["hands"]) != 4:
        raise IllegalAction("deal", None, "hands", "expected 4 hands")
    hands = [_cards_list("deal", seat, h) for seat, h in enumerate(log["hands"])]
    widow = _card("deal", None, log["widow"])
    check_deal(hands, widow, rules)

    # -- auction (LOG §2)
    declarer, bid, forced = run_auction(log["auction"], dealer, rules)

    # -- widow and drop (LOG §3)
    fourteen = hands[declarer] + [widow]
    drop = _card("drop", declarer, log["drop"])
    if drop not in fourteen:
        raise IllegalAction("drop", declarer, card_str(drop),
                            "dropped card is neither in the declarer's hand nor the widow")
    if drop not in legal_drops(fourteen, rules):
        raise IllegalAction("drop", declarer, card_str(drop),
                            f"drop={flag(rules, 'drop')} forbids dropping it")
    after_drop = [list(h) for h in hands]
    after_drop[declarer] = [c for c in fourteen if c != drop]

    # -- passing (LOG §4)
    direction = pass_direction(hand_index, rules)
    start = check_passes(after_drop, log["passed"], direction)

    # -- trump and first lead (LOG §5, §6)
    trump = log["trump"]
    if trump not in legal_trumps(rules):
        raise IllegalAction("trump", declarer, trump,
                            f"trump must be one of {legal_trumps(rules)}")
    first_leader = _seat("lead", log["leader"])
    if first_leader not in legal_first_leaders(declarer, rules):
        raise IllegalAction("lead", first_leader, "first lead",
                            f"first_lead={flag(rules, 'first_lead')} allows seats "
                            f"{legal_first_leaders(declarer, rules)}")

    # -- play (LOG §7, §8)
    in_hand = [list(h) for h in start]
    tricks_log = log["tricks"]
    n_tricks = hand_size(rules)
    if len(tricks_log) != n_tricks:
        raise IllegalAction("play", None, "tricks",
                            f"{len(tricks_log)} tricks, expected {n_tricks}")
    leader = first_leader
    winners = []
    played = []
    for number, trick in enumerate(tricks_log, start=1):
        phase = f"trick {number}"
        if trick["leader"] != leader:
            raise IllegalAction(phase, trick["leader"], "lead", f"seat {leader} must lead")
        order = [(leader + i) % 4 for i in range(4)]
        if len(trick["plays"]) != 4:
            raise IllegalAction(phase, None, trick["plays"], "a trick has 4 plays")
        plays = []
        for play, due in zip(trick["plays"], order, strict=True):
            if not isinstance(play, (list, tuple)) or len(play) != 2:
                raise IllegalAction(phase, due, play, "a play is [seat, card]")
            seat, text = play
            if seat != due:
                raise IllegalAction(phase, seat, text, f"out of turn: seat {due} must play")
            card = _card(phase, seat, text)
            if card not in in_hand[seat]:
                raise IllegalAction(phase, seat, text, "card not in hand")
            allowed = legal_plays(in_hand[seat], [c for _, c in plays], trump, rules)
            if card not in allowed:
                raise IllegalAction(phase, seat, text, "illegal play; legal: "
                                    f"{sorted(card_str(c) for c in allowed)}")
            in_hand[seat].remove(card)
            plays.append((seat, card))
        winner = trick_winner(plays, trump, rules)
        winners.append(winner)
        played.append(([c for _, c in plays], winner))
        leader = winner  # A3: the derived winner leads next
    assert all(not h for h in in_hand), "13 (10) tricks of 4 empty every hand"

    # -- points and settlement (LOG §1, §3, §9)
    result = count_points(played, drop, declarer, rules)
    declarer_team = team_of(declarer)
    made = is_made(result["points"], declarer_team, bid)
    score = settle(result["points"], declarer_team, bid, rules)
    return {
        "declarer": declarer,
        "bid": bid,
        "forced": forced,
        "dealer": dealer,
        "hand_index": hand_index,
        "redeals": redeals,
        "direction": direction,
        "trump": trump,
        "drop": card_str(drop),
        "start_hands": [sorted(card_str(c) for c in h) for h in start],
        "winners": winners,
        "points": result["points"],
        "drop_team": result["drop_team"],
        "last_trick_team": result["last_trick_team"],
        "made": made,
        "score": score,
    }


RESULT_KEYS = ("points", "drop_team", "last_trick_team", "made", "score")


def result_mismatches(log, replayed=None):
    """Every derived field where the log disagrees with the reference (empty
    list = full agreement).  Raises IllegalAction like replay() when the log
    contains an action the rules forbid."""
    ref = replayed if replayed is not None else replay(log)
    out = []

    def compare(name, mine, theirs):
        if isinstance(mine, (list, tuple)) and isinstance(theirs, (list, tuple)):
            mine, theirs = list(mine), list(theirs)
        if mine != theirs:
            out.append(f"{name}: reference {mine!r}, log {theirs!r}")

    missing = object()
    if "index" in log:  # LOG: dealer = i % 4, hand index h = i
        compare("dealer", log["index"] % 4, log["dealer"])
        compare("hand_index", log["index"], log["hand_index"])
    for key in ("declarer", "bid", "forced", "direction"):
        compare(key, ref[key], log.get(key, missing))
    compare("winners", ref["winners"], [t.get("winner") for t in log["tricks"]])
    theirs_start = log.get("start_hands", missing)
    if theirs_start is missing or len(theirs_start) != 4:
        out.append(f"start_hands: reference {ref['start_hands']!r}, log {theirs_start!r}")
    else:
        for seat in range(4):  # A5: compared as sets of cards
            compare(f"start_hands[{seat}]", ref["start_hands"][seat],
                    sorted(theirs_start[seat]))
    result = log.get("result", {})
    for key in RESULT_KEYS:  # A6: other keys are ignored
        compare(f"result.{key}", ref[key], result.get(key, missing))
    return out


# ---------------------------------------------------------------------------
# A random legal hand, logged in the contract's format
# ---------------------------------------------------------------------------


def _random_auction(rng, dealer, rules, p_pass):
    """One auction with random legal calls.  Returns (calls, declarer, bid,
    forced), or (calls, None, None, None) when all four pass (thrown in)."""
    calls = []
    passed = set()
    high = None
    high_seat = None
    seat = left_of(dealer)
    while True:
        if len(passed) == 4:
            return calls, None, None, None
        if len(passed) == 3 and high is not None:
            return calls, high_seat, high, False
        if len(passed) == 3 and flag(rules, "all_pass") == "fourth_forced_at_70":
            return calls, dealer, FORCED_BID, True
        if seat in passed:
            seat = left_of(seat)
            continue
        options = legal_bids(high, rules)
        if p_pass is None:
            bid = rng.choice([PASS] + options)
        elif not options or rng.random() < p_pass:
            bid = PASS
        else:
            bid = rng.choice(options)
        calls.append([seat, bid])
        if bid == PASS:
            passed.add(seat)
        else:
            high, high_seat = bid, seat
        seat = left_of(seat)


def play_random_hand(rng, rules=None, hand_index=0, dealer=None, p_pass=None):
    """Play one full hand with uniformly random legal decisions (rng: a
    random.Random) and return its log in the ROOK_LOG_FORMAT.md format.

    `dealer` defaults to hand_index % 4 (the contract's dealer = i % 4; another
    dealer gives a log that result_mismatches flags).  `p_pass`: None picks
    every call uniformly among pass and the legal bids; a number passes with
    that probability instead (to reach forced and thrown-in auctions)."""
    rules = full_rules(rules)
    if dealer is None:
        dealer = hand_index % 4
    size = hand_size(rules)
    redeals = 0
    while True:
        cards = make_deck(rules)
        rng.shuffle(cards)
        hands = [cards[seat * size:(seat + 1) * size] for seat in range(4)]
        widow = cards[4 * size]
        calls, declarer, bid, forced = _random_auction(rng, dealer, rules, p_pass)
        if declarer is not None:
            break
        redeals += 1

    fourteen = hands[declarer] + [widow]
    drop = rng.choice(legal_drops(fourteen, rules))
    held = [list(h) for h in hands]
    held[declarer] = [c for c in fourteen if c != drop]

    direction = pass_direction(hand_index, rules)
    if direction == "none":
        passed = [[], [], [], []]
    else:
        passed = [rng.sample(held[seat], PASS_COUNT) for seat in range(4)]
        kept = [[c for c in held[seat] if c not in passed[seat]] for seat in range(4)]
        for seat in range(4):
            kept[pass_receiver(seat, direction)] += passed[seat]
        held = kept
    start_hands = [list(h) for h in held]

    trump = rng.choice(legal_trumps(rules))
    leader = rng.choice(legal_first_leaders(declarer, rules))
    first_leader = leader
    tricks = []
    played = []
    for _ in range(size):
        plays = []
        for seat in [(leader + i) % 4 for i in range(4)]:
            card = rng.choice(legal_plays(held[seat], [c for _, c in plays], trump, rules))
            held[seat].remove(card)
            plays.append((seat, card))
        winner = trick_winner(plays, trump, rules)
        tricks.append({"leader": leader, "plays": [[s, card_str(c)] for s, c in plays],
                       "winner": winner})
        played.append(([c for _, c in plays], winner))
        leader = winner

    result = count_points(played, drop, declarer, rules)
    result["made"] = is_made(result["points"], team_of(declarer), bid)
    result["score"] = settle(result["points"], team_of(declarer), bid, rules)

    def strs(cards):
        return [card_str(c) for c in cards]

    return {
        "index": hand_index,
        "rules": rules,
        "dealer": dealer,
        "hand_index": hand_index,
        "redeals": redeals,
        "hands": [strs(h) for h in hands],
        "widow": card_str(widow),
        "auction": calls,
        "declarer": declarer,
        "bid": bid,
        "forced": forced,
        "drop": card_str(drop),
        "direction": direction,
        "passed": [strs(p) for p in passed],
        "trump": trump,
        "leader": first_leader,
        "start_hands": [strs(h) for h in start_hands],
        "tricks": tricks,
        "result": result,
    }
