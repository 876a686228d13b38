"""Independent pure-Python reference for Pedro (seed 000) and Cinch (seed 002).

This module replays one logged deal (format: ``tests/reference/PEDRO_LOG_FORMAT.md``)
and re-derives every decision from the written rules alone.  It deliberately
shares no code with the ``analyzer`` package: it exists to cross-check the fast
kernels, so it is written for clarity, with one small helper per rule.

Rule sources (``docs/spec.md``):

* §0.1  seats 0..3 clockwise, eldest = dealer + 1, teams {0, 2} and {1, 3}.
* §1.1  trump membership and order: the 14-card trump suit
        A K Q J 10 9 8 7 6 5(Right) 5'(Left) 4 3 2; the Left Pedro (the other 5
        of the trump's colour) is a trump for all purposes and never a card of
        its printed suit.
* §1.2  9 cards each, 16-card ordered stock (stock[0] is the top card).
* §1.3  one bidding round from eldest, strictly increasing, at most 14;
        the all-pass flag.
* §1.5  discard all non-trumps, draw from the top of the stock to 6, the dealer
        robs the remaining stock; excess trumps (a non-dealer's, and the dealer's
        trumps plus the remaining stock's, LOG §3), stock shortage.
* §1.6  legal plays: a player able to follow may follow or trump (flag).
* §1.7  trick winner: highest trump, else highest card of the led suit.
* §1.8  the six scoring elements (14 points) and their flags.
* §1.9  settlement methods 1 and 2.
* §2    Cinch differences (Low always to the trick winner; free keeping of
        non-trumps as an option).
* §5    invariants; §7 the flag list.

Where docs/spec.md leaves a point open, the "Implementation decisions" list of
PEDRO_LOG_FORMAT.md is followed; it is cited below as "LOG §n".

Cards are ``(rank, suit)`` tuples: rank 2..14 (J=11, Q=12, K=13, A=14) and
suit one of "CDHS".  Seats are ints 0..3 and a seat's team is ``seat % 2``.
"""

from __future__ import annotations

# ---------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------


class IllegalAction(Exception):
    """A logged action (or the log's own bookkeeping) that the rules forbid.

    The message always names the phase, the seat (``None`` when the problem
    is not one seat's action, e.g. a bad deal) and the offending action.
    """

    def __init__(self, phase, seat, action, reason):
        self.phase = phase
        self.seat = seat
        self.action = action
        self.reason = reason
        super().__init__(f"[{phase}] seat {seat}: {action!r}: {reason}")


# ---------------------------------------------------------------------------
# Cards (§1.1)
# ---------------------------------------------------------------------------

SUITS = "CDHS"
RANK_CHARS = "23456789TJQKA"  # index 0 is rank 2

# §1.1: the same-colour pairs are clubs/spades (black) and diamonds/hearts (red).
PARTNER_SUIT = {"C": "S", "S": "C", "D": "H", "H": "D"}

# LOG §2: ties between equal ranks are broken S > H > D > C.
SUIT_TIEBREAK = {"C": 0, "D": 1, "H": 2, "S": 3}

FULL_DECK = [(rank, suit) for suit in SUITS for rank in range(2, 15)]

# Parsing is done once per card string; replay() parses ~100 strings per deal.
_PARSE_CACHE = {RANK_CHARS[r - 2] + s: (r, s) for (r, s) in FULL_DECK}


def parse_card(text):
    """'TS' -> (10, 'S').  Raises ValueError for anything else."""
    try:
        return _PARSE_CACHE[text]
    except (KeyError, TypeError):
        raise ValueError(f"not a card: {text!r}") from None


def card_str(card):
    """(10, 'S') -> 'TS'."""
    rank, suit = card
    return RANK_CHARS[rank - 2] + suit


def team_of(seat):
    """§0.1: teams are {0, 2} and {1, 3}."""
    return seat % 2


def partner_suit(trump):
    """The other suit of the trump's colour (§1.1)."""
    return PARTNER_SUIT[trump]


def is_right_pedro(card, trump):
    """The 5 of the trump suit."""
    return card == (5, trump)


def is_left_pedro(card, trump):
    """The 5 of the other suit of the same colour as trumps."""
    return card == (5, PARTNER_SUIT[trump])


def is_trump(card, trump):
    """§1.1: a trump is a card of the trump suit or the Left Pedro."""
    return card[1] == trump or is_left_pedro(card, trump)


def effective_suit(card, trump):
    """§1.1: the suit a card belongs to in play.

    The Left Pedro belongs to the trump suit, never to its printed suit.
    """
    return trump if is_trump(card, trump) else card[1]


def trump_rank(card, trump):
    """Order key of a trump, high = larger (§1.1).

    Ranks are doubled so that the Left Pedro fits at 4.5 -> 9, between the
    Right Pedro (5 -> 10) and the 4 (-> 8), as docs/spec.md §1.1 suggests.
    """
    if not is_trump(card, trump):
        raise ValueError(f"{card_str(card)} is not a trump when {trump} is trumps")
    if is_left_pedro(card, trump):
        return 9
    return 2 * card[0]


def trump_order(trump):
    """All 14 trumps, highest first (used by tests and for readability)."""
    trumps = [c for c in FULL_DECK if is_trump(c, trump)]
    return sorted(trumps, key=lambda c: trump_rank(c, trump), reverse=True)


def nontrump_keep_key(card):
    """LOG §2: 'highest-ranked non-trumps (rank first, ties by suit S > H > D > C)'."""
    return (card[0], SUIT_TIEBREAK[card[1]])


# ---------------------------------------------------------------------------
# Rules flags (§7, LOG "rules")
# ---------------------------------------------------------------------------

# Allowed values for each flag; the first one is the default used when a flag
# is missing (convenient for unit tests; real logs carry every flag).
GIVE_UP_AFTER = 1000  # LOG §2: throw-ins in a row after which a redeal rule gives up
FLAG_VALUES = {
    "game": ("pedro", "cinch"),
    "min_bid": (1, 6, 7),
    "all_pass": ("dealer_names_no_contract", "dealer_forced_min_bid", "redeal"),
    "low_to": ("winner", "holder"),
    "high_low_def": ("fixed_a_and_2", "highest_lowest_in_play"),
    "scoring": (1, 2),
    "m2_diff_to": ("side_with_more", "bidder_only"),
    "trump_while_able_to_follow": ("allowed", "forbidden"),
    "excess_trumps": ("discard_dead", "keep_all_dump_on_trick1"),
    "discarded_counter_scoring": ("dead", "s000_mistake_rule", "s002_to_trump_maker"),
    "stock_short": ("keep_own_nontrumps", "play_short_hand", "redeal"),
    "cinch_keep_nontrumps": ("custom_all_but_trumps", "free"),
    "rob_disclosure": ("hidden", "face_leftover_trumps"),
}


def flag(rules, name):
    """Value of one flag, validated; the default when the flag is missing."""
    allowed = FLAG_VALUES[name]
    value = (rules or {}).get(name, allowed[0])
    if value not in allowed:
        raise IllegalAction("rules", None, {name: value}, f"allowed values are {allowed}")
    return value


def low_to(rules):
    """§1.8 LOW_TO, except that Cinch fixes it to the trick winner (§2.1, §2.4)."""
    if flag(rules, "game") == "cinch":
        return "winner"
    return flag(rules, "low_to")


def nontrumps_free(rules, seat, dealer):
    """§2.1: only Cinch lets a seat keep non-trumps by choice (LOG §2(a)): every seat with
    CINCH_KEEP_NONTRUMPS=FREE (Foster's law), and the dealer under the custom too, which
    binds "each player except the dealer" (S002). In Pedro the flag has no effect."""
    if flag(rules, "game") != "cinch":
        return False
    return flag(rules, "cinch_keep_nontrumps") == "free" or seat == dealer


# ---------------------------------------------------------------------------
# Deal (§1.2, §5.1)
# ---------------------------------------------------------------------------


def check_partition(hands, stock):
    """§5.1: four hands of 9 and a stock of 16 holding the 52 cards once each."""
    if len(hands) != 4:
        raise IllegalAction("deal", None, "hands", f"{len(hands)} hands, expected 4")
    for seat, hand in enumerate(hands):
        if len(hand) != 9:
            raise IllegalAction("deal", seat, [card_str(c) for c in hand],
                                f"dealt {len(hand)} cards, expected 9")
    if len(stock) != 16:
        raise IllegalAction("deal", None, "stock", f"{len(stock)} cards, expected 16")
    seen = set()
    for card in [c for hand in hands for c in hand] + list(stock):
        if card in seen:
            raise IllegalAction("deal", None, card_str(card), "card dealt twice")
        seen.add(card)
    # 52 distinct valid cards out of 52 possible: the partition is exact.


# ---------------------------------------------------------------------------
# Bidding (§1.3, LOG §9)
# ---------------------------------------------------------------------------


def bidding_order(dealer):
    """§1.3: eldest (dealer + 1) first, the dealer last."""
    return [(dealer + 1 + i) % 4 for i in range(4)]


def run_auction(bids, dealer, rules):
    """Validate the bids (in bidding order; 0 = pass) and return (bidder, bid).

    bidder is None with bid 0 for an all-pass deal under
    ``dealer_names_no_contract`` (§1.3 SPEC).
    """
    min_bid = flag(rules, "min_bid")
    if len(bids) != 4:
        raise IllegalAction("bidding", None, list(bids), "expected exactly 4 bids (one per seat)")
    high, bidder = 0, None
    for seat, bid in zip(bidding_order(dealer), bids, strict=True):
        if isinstance(bid, bool) or not isinstance(bid, int):
            raise IllegalAction("bidding", seat, bid, "a bid is an int (0 = pass)")
        if bid == 0:
            continue
        # Strictly above the current high bid and the minimum, at most 14.
        floor = max(high, min_bid - 1)
        if not (floor < bid <= 14):
            raise IllegalAction("bidding", seat, bid,
                                f"must pass or bid in {floor + 1}..14 "
                                f"(high bid {high}, min {min_bid})")
        high, bidder = bid, seat
    if bidder is not None:
        return bidder, high
    all_pass = flag(rules, "all_pass")
    if all_pass == "dealer_names_no_contract":
        return None, 0
    if all_pass == "dealer_forced_min_bid":
        return dealer, min_bid
    raise IllegalAction("bidding", dealer, "all pass",
                        "under all_pass=redeal an all-pass deal is thrown in, "
                        "it cannot be the logged deal")


# ---------------------------------------------------------------------------
# Discard, draw, robbing (§1.5, LOG §1-§3)
# ---------------------------------------------------------------------------


def forced_nontrump_keep(nontrumps, count):
    """LOG §2(b): the ``count`` highest-ranked non-trumps a short seat keeps."""
    return sorted(nontrumps, key=nontrump_keep_key, reverse=True)[:count]


def dealer_trump_pool(dealer_trumps, remaining, trump):
    """LOG §3: the dealer's own trumps plus the trumps left in the stock after the
    three non-dealers drew (the trumps he can end with)."""
    return set(dealer_trumps) | {c for c in remaining if is_trump(c, trump)}


def check_dealer_pool_rob(seat, trumps, kept_s, dead_list, drawn_s, remaining, trump):
    """LOG §3 exception (S002, "Should he find in his own hand and the remainder of
    the pack more than six trumps, he must discard those he does not want"), used
    under excess_trumps=discard_dead when the dealer's pool of trumps (his own plus
    the remaining stock's) holds more than 6.

    His final hand is any 6 trumps of the pool: ``kept_s`` lists the own trumps he
    keeps, ``drawn_s`` the stock trumps he takes; every trump of the pool left out,
    his own or the stock's, is dead (``dead_list``, the dealer's entries of the log's
    "dead"; spec: "he keeps 6 and the excess is dead"), the other stock cards he
    leaves are stock_left.  ``kept_s`` is already known to be distinct cards of
    the dealt hand.  Returns (hand at the start of play, stock left).
    """
    pool = dealer_trump_pool(trumps, remaining, trump)
    kept_set = set(kept_s)
    dead_s = set(dead_list)

    # -- dead: only trumps of the pool, once each, none also kept or robbed
    if len(dead_s) != len(dead_list):
        raise IllegalAction("discard", seat, "dead", "a dead card listed twice")
    for card in dead_list:
        if card not in pool:
            raise IllegalAction("discard", seat, card_str(card),
                                "only the dealer's own trumps and the stock's can be dead")
    if dead_s & (kept_set | set(drawn_s)):
        raise IllegalAction("discard", seat, "dead", "a dead trump is also kept")

    # -- kept: his own trumps only; every own trump is either kept or dead
    kept_nontrumps = kept_set - trumps
    if kept_nontrumps:
        raise IllegalAction("discard", seat, sorted(card_str(c) for c in kept_nontrumps),
                            f"{len(pool)} trumps in the dealer's hand and the stock: "
                            "his hand must be 6 trumps, no non-trump may be kept")
    unaccounted = trumps - kept_set - dead_s
    if unaccounted:
        raise IllegalAction("discard", seat, sorted(card_str(c) for c in unaccounted),
                            "the dealer's own trumps not kept must be listed dead")

    # -- robbed: distinct trumps of the remaining stock
    if len(set(drawn_s)) != len(drawn_s):
        raise IllegalAction("rob", seat, [card_str(c) for c in drawn_s], "a card robbed twice")
    for card in drawn_s:
        if card not in remaining:
            raise IllegalAction("rob", seat, card_str(card), "not in the remaining stock")
        if not is_trump(card, trump):
            raise IllegalAction("rob", seat, card_str(card),
                                f"{len(pool)} trumps in the dealer's hand and the stock: "
                                "he may rob only trumps")

    # -- exactly 6 trumps of the pool
    final = kept_s + drawn_s
    if len(final) != 6:
        raise IllegalAction("rob", seat, [card_str(c) for c in final],
                            f"{len(pool)} trumps in the dealer's hand and the stock: "
                            f"his hand must be exactly 6 of them, not {len(final)}")
    # -- the excess is dead: every trump of the pool is in his hand or dead
    unaccounted = pool - set(final) - dead_s
    if unaccounted:
        raise IllegalAction("rob", seat, sorted(card_str(c) for c in unaccounted),
                            "the pool's trumps not in his hand must be listed dead")
    out = set(drawn_s) | dead_s
    return final, [c for c in remaining if c not in out]


def check_discard_and_draw(hands, stock, dealer, trump, kept, dead, drawn, stock_left, rules):
    """Validate the discard/draw phase and return the hands at the start of play.

    hands, kept, drawn: 4 lists of cards by seat; stock: the 16 cards, top
    first; dead: list of (seat, card); stock_left: list of cards.
    Returns a list of 4 lists (kept + drawn) by seat.

    Under discard_dead, a dealer whose own trumps plus the remaining stock's
    trumps number more than 6 is checked by check_dealer_pool_rob (LOG §3);
    otherwise he keeps all his trumps and robs any ``need`` cards.
    """
    excess = flag(rules, "excess_trumps")
    short = flag(rules, "stock_short")

    dead_by_seat = {seat: [] for seat in range(4)}
    for seat, card in dead:
        if seat not in dead_by_seat:
            raise IllegalAction("discard", seat, card_str(card), "no such seat")
        dead_by_seat[seat].append(card)

    remaining = list(stock)  # what is left of the stock, top first
    start_hands = [None] * 4
    for seat in bidding_order(dealer):  # LOG §1: eldest .. dealer
        free = nontrumps_free(rules, seat, dealer)
        hand = set(hands[seat])
        trumps = {c for c in hand if is_trump(c, trump)}
        nontrumps = hand - trumps
        kept_s = list(kept[seat])
        kept_set = set(kept_s)
        dead_s = set(dead_by_seat[seat])

        # -- what was kept must come from the hand, once each
        if len(kept_set) != len(kept_s):
            raise IllegalAction("discard", seat, [card_str(c) for c in kept_s], "a card kept twice")
        foreign = kept_set - hand
        if foreign:
            raise IllegalAction("discard", seat, sorted(card_str(c) for c in foreign),
                                "kept a card not in the dealt hand")

        # -- the dealer with more than 6 trumps in his hand plus the remaining
        #    stock (§1.5 GAP, LOG §3 exception): his hand is any 6 of them
        if (seat == dealer and excess == "discard_dead"
                and len(dealer_trump_pool(trumps, remaining, trump)) > 6):
            start_hands[seat], remaining = check_dealer_pool_rob(
                seat, trumps, kept_s, dead_by_seat[seat], list(drawn[seat]), remaining, trump)
            continue

        # -- dead excess trumps (§1.5 GAP "more than 6 trumps", LOG §1)
        for card in dead_s:
            if card not in trumps:
                raise IllegalAction("discard", seat, card_str(card),
                                    "only excess trumps from the dealt hand can be dead")
        if len(dead_s) != len(dead_by_seat[seat]):
            raise IllegalAction("discard", seat, "dead", "a dead card listed twice")
        if excess == "discard_dead":
            want_dead = max(0, len(trumps) - 6)
        else:  # keep_all_dump_on_trick1: every trump is kept
            want_dead = 0
        if len(dead_s) != want_dead:
            raise IllegalAction("discard", seat, sorted(card_str(c) for c in dead_s),
                                f"{len(trumps)} trumps dealt under excess_trumps={excess}: "
                                f"expected {want_dead} dead trumps")
        if dead_s & kept_set:
            raise IllegalAction("discard", seat, "dead", "a dead trump is also kept")

        # -- every other trump is kept: voluntary trump discards are illegal (§1.5)
        dropped = trumps - dead_s - kept_set
        if dropped:
            raise IllegalAction("discard", seat, sorted(card_str(c) for c in dropped),
                                "discarded a trump when not forced")

        kept_trumps = trumps - dead_s
        kept_nontrumps = kept_set & nontrumps
        avail = len(remaining)
        if free:
            # Cinch FREE: the shortage is judged after the voluntary keep.
            need_before_forced_keep = max(0, 6 - len(kept_set))
        else:
            # Otherwise every non-trump is discarded first (§1.5).
            need_before_forced_keep = max(0, 6 - len(kept_trumps))
        is_short = need_before_forced_keep > avail

        if is_short and short == "redeal":
            raise IllegalAction("discard", seat, "stock short",
                                f"needs {need_before_forced_keep} cards, {avail} left: under "
                                "stock_short=redeal a short deal is thrown in, "
                                "it cannot be the logged deal")

        # -- non-trumps kept (LOG §2)
        if free:
            # Any subset, provided the hand is at most 6 cards.
            if kept_nontrumps and len(kept_set) > 6:
                raise IllegalAction("discard", seat, [card_str(c) for c in kept_s],
                                    "kept more than 6 cards (non-trumps may only be kept up to 6)")
            if is_short and short == "keep_own_nontrumps":
                # The forced keep would have added non-trumps up to 6 - avail cards;
                # any final keep of at least that size is a voluntary keep plus a forced one.
                raise IllegalAction("discard", seat, [card_str(c) for c in kept_s],
                                    f"only {avail} stock cards left: must keep {6 - avail} cards "
                                    "under stock_short=keep_own_nontrumps")
        elif is_short and short == "keep_own_nontrumps":
            must_keep = set(forced_nontrump_keep(nontrumps, need_before_forced_keep - avail))
            if kept_nontrumps != must_keep:
                raise IllegalAction("discard", seat, sorted(card_str(c) for c in kept_nontrumps),
                                    f"stock short ({avail} left, needs {need_before_forced_keep}): "
                                    f"must keep exactly {sorted(card_str(c) for c in must_keep)}")
        elif kept_nontrumps:
            raise IllegalAction("discard", seat, sorted(card_str(c) for c in kept_nontrumps),
                                "kept non-trumps when not allowed")

        # -- draw (LOG §3): non-dealers off the top in order, the dealer robs any
        #    `need` cards (his pool of trumps is at most 6 here), or under keep_all every
        #    trump left and non-trumps up to `need`
        need = max(0, 6 - len(kept_set))
        take = min(need, avail)
        drawn_s = list(drawn[seat])
        if seat != dealer:
            expected = remaining[:take]
            if drawn_s != expected:
                raise IllegalAction("draw", seat, [card_str(c) for c in drawn_s],
                                    f"must take the top {take} stock cards in order: "
                                    f"{[card_str(c) for c in expected]}")
            remaining = remaining[take:]
        else:
            if excess == "keep_all_dump_on_trick1":
                # LOG §3: every trump left in the stock, then non-trumps up to `need`
                left_trumps = [c for c in remaining if is_trump(c, trump)]
                missing = [c for c in left_trumps if c not in drawn_s]
                if missing:
                    raise IllegalAction("rob", seat, sorted(card_str(c) for c in missing),
                                        "under keep_all_dump_on_trick1 the dealer takes every "
                                        "trump left in the stock")
                take = max(take, len(left_trumps))
            if len(drawn_s) != take:
                raise IllegalAction("rob", seat, [card_str(c) for c in drawn_s],
                                    f"dealer must rob exactly {take} cards")
            if len(set(drawn_s)) != len(drawn_s):
                raise IllegalAction("rob", seat, [card_str(c) for c in drawn_s],
                                    "a card robbed twice")
            for card in drawn_s:
                if card not in remaining:
                    raise IllegalAction("rob", seat, card_str(card), "not in the remaining stock")
            robbed = set(drawn_s)
            remaining = [c for c in remaining if c not in robbed]
        start_hands[seat] = kept_s + drawn_s

    if sorted(stock_left) != sorted(remaining):
        raise IllegalAction("draw", None, sorted(card_str(c) for c in stock_left),
                            "stock_left differs from what remains: "
                            f"{sorted(card_str(c) for c in remaining)}")
    return start_hands


# ---------------------------------------------------------------------------
# Play (§1.6, §1.7)
# ---------------------------------------------------------------------------


def legal_plays(hand, trick_so_far, trump, rules=None):
    """Cards of ``hand`` that may be played to a trick (§1.6).

    ``trick_so_far`` lists the cards already played to this trick, leader first
    (empty when leading: any card may be led).
    """
    hand = list(hand)
    if not trick_so_far:
        return hand
    led = effective_suit(trick_so_far[0], trump)
    if led == trump:
        # Trump led: a trump (Left Pedro included) if any is held.
        trumps = [c for c in hand if is_trump(c, trump)]
        return trumps if trumps else hand
    # Plain suit led.  The Left Pedro is not a card of its printed suit,
    # so effective_suit() is used to decide who can follow.
    followers = [c for c in hand if effective_suit(c, trump) == led]
    if not followers:
        return hand  # void: any card
    if flag(rules, "trump_while_able_to_follow") == "forbidden":
        return followers
    # Traditional rule: follow suit or trump, as preferred.
    return [c for c in hand if effective_suit(c, trump) == led or is_trump(c, trump)]


def trick_winner(plays, trump):
    """Seat winning a trick (§1.7); ``plays`` is [(seat, card), ...] leader first.

    The highest trump wins; with no trump, the highest card of the led
    (effective) suit.  Cards of other plain suits cannot win.
    """
    trumps = [(trump_rank(card, trump), seat) for seat, card in plays if is_trump(card, trump)]
    if trumps:
        return max(trumps)[1]
    led = effective_suit(plays[0][1], trump)
    followers = [(card[0], seat) for seat, card in plays if effective_suit(card, trump) == led]
    return max(followers)[1]


def next_leader(seat, hands):
    """LOG §4: the first seat clockwise from ``seat`` (itself included) holding cards."""
    for i in range(4):
        s = (seat + i) % 4
        if hands[s]:
            return s
    return None


# ---------------------------------------------------------------------------
# Scoring (§1.8, LOG §6-§7)
# ---------------------------------------------------------------------------

ELEMENT_VALUES = {"high": 1, "low": 1, "jack": 1, "game": 1, "right_pedro": 5, "left_pedro": 5}
ELEMENTS = tuple(ELEMENT_VALUES)


def high_low_cards(in_play, trump, rules):
    """The cards that count as High and Low (§1.8, HIGH_LOW_DEF).

    fixed_a_and_2: the trump Ace and 2 (in play or not).
    highest_lowest_in_play: the highest and lowest trumps in play (None if none;
    a single trump in play is both, LOG §6).
    """
    if flag(rules, "high_low_def") == "fixed_a_and_2":
        return (14, trump), (2, trump)
    trumps = [c for c in in_play if is_trump(c, trump)]
    if not trumps:
        return None, None
    key = lambda c: trump_rank(c, trump)  # noqa: E731
    return max(trumps, key=key), min(trumps, key=key)


def dead_card_team(discarder, trump_maker, rules):
    """Who scores a dead counting trump (§1.5 DISCARDED_COUNTER_SCORING, LOG §7)."""
    rule = flag(rules, "discarded_counter_scoring")
    if rule == "dead":
        return None
    if rule == "s000_mistake_rule":
        # S000: an adversary's discard counts for the bidder, the bidder side's for nobody.
        return team_of(trump_maker) if team_of(discarder) != team_of(trump_maker) else None
    return team_of(trump_maker)  # s002_to_trump_maker: whoever discarded it


def score_deal(holders, captured, dead, trump, trump_maker, rules):
    """Award the six elements (§1.8).

    holders:  {card: seat} for every card in play at the start of play.
    captured: {card: seat winning the trick it was played or dumped on}.
    dead:     [(seat, card)] excess trumps discarded face up.
    trump_maker: the bidder, or the dealer with no contract.
    Cards in neither mapping nor ``dead`` (the stock left) score nothing.

    Returns {element: team|None, "points": [p0, p1], "dead_points": int} where
    dead_points = 14 - p0 - p1 (spec §1.9 "B+O = 14 - dead_points").
    """
    dead_seat = {card: seat for seat, card in dead}
    high_card, low_card = high_low_cards(holders, trump, rules)
    counters = {
        "high": high_card,
        "low": low_card,
        "jack": (11, trump),
        "game": (10, trump),
        "right_pedro": (5, trump),
        "left_pedro": (5, PARTNER_SUIT[trump]),
    }
    low_goes_to_holder = low_to(rules) == "holder"
    out = {}
    for element, card in counters.items():
        team = None
        if card is None:
            pass  # no trump in play at all: nothing to award
        elif card in holders:
            if element == "high" or (element == "low" and low_goes_to_holder):
                team = team_of(holders[card])  # to the team holding it at the start of play
            else:
                team = team_of(captured[card])  # to the trick winner
        elif card in dead_seat:
            # LOG §7.  A dead A / 2 can only carry High / Low under fixed_a_and_2:
            # under highest_lowest_in_play those are by definition cards in play.
            team = dead_card_team(dead_seat[card], trump_maker, rules)
        out[element] = team
    points = [0, 0]
    for element, team in out.items():
        if team is not None:
            points[team] += ELEMENT_VALUES[element]
    out["points"] = points
    out["dead_points"] = 14 - points[0] - points[1]
    return out


# ---------------------------------------------------------------------------
# Settlement (§1.9, LOG §8)
# ---------------------------------------------------------------------------


def is_made(points, bidder_team, bid):
    """True/False for a contract, None with no contract."""
    if bidder_team is None:
        return None
    return points[bidder_team] >= bid


def settle(points, bidder_team, bid, method, m2_diff_to="side_with_more"):
    """Score deltas [d0, d1] for one deal.

    points: [team 0 points, team 1 points]; bidder_team None = no contract.
    """
    delta = [0, 0]
    if method == 1:
        if bidder_team is None:
            return list(points)  # no contract: both sides score what they take
        b_team, o_team = bidder_team, 1 - bidder_team
        B, O = points[b_team], points[o_team]
        delta[b_team] = B if B >= bid else -bid  # set back the amount of the bid
        delta[o_team] = O
        return delta
    if method != 2:
        raise ValueError(f"unknown scoring method {method!r}")
    made = bidder_team is not None and points[bidder_team] >= bid
    if bidder_team is None or (made and m2_diff_to == "side_with_more"):
        # The difference to the side with more (nobody on a tie).
        if points[0] != points[1]:
            more = 0 if points[0] > points[1] else 1
            delta[more] = abs(points[0] - points[1])
        return delta
    b_team, o_team = bidder_team, 1 - bidder_team
    B, O = points[b_team], points[o_team]
    if made:  # m2_diff_to == "bidder_only"
        delta[b_team] = max(B - O, 0)
    else:  # set: the bidder side scores nothing, the bid goes to the opponents
        delta[o_team] = O + bid
    return delta


# ---------------------------------------------------------------------------
# Replay of one logged deal
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


def replay(log):
    """Replay one logged deal from the rules alone.

    Raises IllegalAction on the first illegal action or inconsistent record.
    Returns {"bidder", "bid", "winners": [seat per trick], "result": {...}}
    with the result recomputed (keys as in the log's "result").
    """
    rules = log["rules"]
    for name in FLAG_VALUES:  # fail early on an unknown flag value
        flag(rules, name)

    # -- deal (§1.2)
    dealer = _seat("deal", log["dealer"])
    redeals = log.get("redeals", 0)
    if isinstance(redeals, bool) or not isinstance(redeals, int) or redeals < 0:
        raise IllegalAction("deal", None, redeals, "redeals must be an int >= 0")
    if redeals and "redeal" not in (flag(rules, "all_pass"), flag(rules, "stock_short")):
        raise IllegalAction("deal", None, {"redeals": redeals},
                            "no redeal flag is set, so no deal can be thrown in")
    if redeals >= GIVE_UP_AFTER and flag(rules, "stock_short") == "redeal":
        rules = {**rules, "stock_short": "keep_own_nontrumps"}  # LOG §2: so that a run ends
    hands = [[_card("deal", seat, c) for c in hand] for seat, hand in enumerate(log["hands"])]
    stock = [_card("deal", None, c) for c in log["stock"]]
    check_partition(hands, stock)

    # -- bidding (§1.3)
    bidder, bid = run_auction(log["bids"], dealer, rules)
    if log["bidder"] != bidder or log["bid"] != bid:
        raise IllegalAction("bidding", log["bidder"], {"bidder": log["bidder"], "bid": log["bid"]},
                            f"the auction gives bidder {bidder}, bid {bid}")
    trump_maker = dealer if bidder is None else bidder
    trump = log["trump"]
    if trump not in SUITS:
        raise IllegalAction("trump", trump_maker, trump, "trump must be one of C D H S")

    # -- discard / draw / rob (§1.5)
    for name in ("kept", "drawn"):
        if len(log[name]) != 4:
            raise IllegalAction("discard", None, name, f"{len(log[name])} lists, expected 4")
    kept = [[_card("discard", s, c) for c in log["kept"][s]] for s in range(4)]
    dead = [(_seat("discard", s), _card("discard", s, c)) for s, c in log["dead"]]
    drawn = [[_card("draw", s, c) for c in log["drawn"][s]] for s in range(4)]
    stock_left = [_card("draw", None, c) for c in log["stock_left"]]
    start_hands = check_discard_and_draw(hands, stock, dealer, trump, kept, dead, drawn,
                                         stock_left, rules)

    # -- play (§1.6, §1.7, LOG §4-§5)
    holders = {card: seat for seat in range(4) for card in start_hands[seat]}
    in_hand = [set(h) for h in start_hands]
    dump_rule = flag(rules, "excess_trumps") == "keep_all_dump_on_trick1"
    captured = {}
    winners = []
    leader = trump_maker  # §1.6: the bidder leads; with no contract, the dealer
    for number, trick in enumerate(log["tricks"], start=1):
        phase = f"trick {number}"
        expected_leader = next_leader(leader, in_hand)
        if expected_leader is None:
            raise IllegalAction(phase, trick.get("leader"), "trick", "every card is already played")
        if trick["leader"] != expected_leader:
            raise IllegalAction(phase, trick["leader"], "lead",
                                f"wrong leader: seat {expected_leader} must lead")
        order = [s for s in ((expected_leader + i) % 4 for i in range(4)) if in_hand[s]]
        sizes_before = [len(h) for h in in_hand]
        plays = []
        for i, (seat, text) in enumerate(trick["plays"]):
            if i >= len(order) or seat != order[i]:
                raise IllegalAction(phase, seat, text, f"out of turn: play order must be {order}")
            card = _card(phase, seat, text)
            if card not in in_hand[seat]:
                raise IllegalAction(phase, seat, text, "card not in hand")
            legal = legal_plays(in_hand[seat], [c for _, c in plays], trump, rules)
            if card not in legal:
                raise IllegalAction(phase, seat, text,
                                    f"illegal play; legal: {sorted(card_str(c) for c in legal)}")
            in_hand[seat].discard(card)
            plays.append((seat, card))
        if len(plays) != len(order):
            raise IllegalAction(phase, None, trick["plays"], f"expected plays by seats {order}")

        # LOG §5: dumps on trick 1 by seats holding more than 6 cards.
        dumps = [(_seat(phase, s), _card(phase, s, c)) for s, c in trick.get("dumps") or []]
        want = {}
        if dump_rule and number == 1:
            want = {s: sizes_before[s] - 6 for s in range(4) if sizes_before[s] > 6}
        got = {}
        for seat, card in dumps:
            if card not in in_hand[seat]:
                raise IllegalAction(phase, seat, card_str(card), "dumped card not in hand")
            in_hand[seat].discard(card)
            got[seat] = got.get(seat, 0) + 1
        if got != want:
            raise IllegalAction(phase, None, {"dumps": got},
                                f"wrong number of dumps; expected {want}")

        winner = trick_winner(plays, trump)
        if trick["winner"] != winner:
            raise IllegalAction(phase, trick["winner"], "winner",
                                f"mismatch: rules give seat {winner}, log says {trick['winner']}")
        for _, card in plays + dumps:
            captured[card] = winner  # dumps go to the trick winner (LOG §5)
        winners.append(winner)
        leader = winner
    for seat in range(4):
        if in_hand[seat]:
            raise IllegalAction("end", seat, sorted(card_str(c) for c in in_hand[seat]),
                                "cards never played")

    # -- scoring (§1.8) and settlement (§1.9)
    result = score_deal(holders, captured, dead, trump, trump_maker, rules)
    bidder_team = None if bidder is None else team_of(bidder)
    points = result["points"]
    result["made"] = is_made(points, bidder_team, bid)
    result["score1"] = settle(points, bidder_team, bid, 1)
    result["score2"] = settle(points, bidder_team, bid, 2, flag(rules, "m2_diff_to"))
    return {"bidder": bidder, "bid": bid, "winners": winners, "result": result}


def result_mismatches(log, replayed=None):
    """Names of result keys where the log disagrees with the replay (empty = all agree)."""
    replayed = replayed or replay(log)
    mine, theirs = replayed["result"], log["result"]
    out = []
    for key in sorted(set(mine) | set(theirs)):
        a, b = mine.get(key), theirs.get(key)
        if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
            a, b = list(a), list(b)
        if a != b:
            out.append(f"{key}: reference {mine.get(key)!r}, log {theirs.get(key)!r}")
    return out
