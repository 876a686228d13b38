"""Independent pure-Python reference for the Brazilian game King ("jogo do King").

This module replays one logged hand (format and open decisions:
``tests/reference/KING_LOG_FORMAT.md``, cited below as "LOG §n" for its numbered
"Decisions" list) and re-derives every decision from the written rules alone.
It shares no code with the ``analyzer`` package: it exists to cross-check the
fast kernels, so it is written for clarity, one small function per rule, and
makes no attempt to be fast.

Rule sources (``docs/spec.md``):

* §0.1  seats 0..3 clockwise; left of p is p+1; King is individual (no teams).
* §3.1  deck, deal, dealer rotation; §3.2 trick rules and the first lead;
        §3.3 the six negative hands, the heart-lead ban and the K♥ rule;
        §3.4 the positive hands; §3.5 the trump auction; §3.6 totals.
* §5    the King invariants; §7 the King flags.
Where the log contract and docs/spec.md differ, the contract wins.

Cards are ``(rank, suit)`` tuples: rank 2..14 (T=10, J=11, Q=12, K=13, A=14),
suit one of "CDHS"; in logs they are strings such as "KH".  A trump argument is
one of "CDHS", "N" (no trump, positive hands only) or None (negative hands).

Ambiguities in the contract and how this module reads them (each is also noted
where it is used):

* A1  Combined negatives: the three hands are always named exactly
      ``no_tricks+last_two``, ``no_hearts+no_king_of_hearts``,
      ``no_kings_jacks+no_queens`` (the names LOG §1 lists), and "in the order
      of their first member" orders the hands by their first member's place in
      ``neg_order``.  Under both orders that is the same sequence, so
      ``neg_order`` has no effect once ``combined_negatives`` is on.
      ``penalty`` scores any "+" join of distinct negative contracts, but
      ``replay`` only accepts the contracts ``contract_list(rules)`` names.
* A2  ``max_offer`` is an int in 0..13 (0: nobody can offer).
* A3  Auction (LOG §7): the holder of the high offer may raise his own offer
      (the plain-raise rule has no exception for him); an equal "pela mão"
      offer needs a seat strictly earlier in D+1, D+2, D+3 than the holder.
* A4  ``valuation_shortcut``: the log is three offers (D+1, D+2, D+3, each an
      int 0..max_offer) then one answer by the dealer.  When every offer is 0
      there is nothing to answer, so the answer may be left out; when the best
      offer is >= 1 it is required.
* A5  The final decision: when high >= 1 and the last answer was "accept" the
      outcome must be "sell" (LOG §7: "Outcome: sell ... if ..."); otherwise
      "decline" (only with high <= 1) or "play".  A logged outcome outside
      these is not an exception: ``replay`` reports ``outcome_allowed=False``
      (and ``result_mismatches`` lists it) and goes on with the logged
      outcome where it can (a "sell" with no offer at all raises).
* A6  On a decline nobody names trump and nobody plays: ``trump``,
      ``chooser`` and ``leader`` are null, ``tricks`` is [], ``buyer`` null,
      ``price`` 0, and ``result.tricks`` is [0, 0, 0, 0] ("tricks taken in
      play": none were); the 4-3-3-3 credit shows in ``result.points``
      (100/75/75/75).
* A7  Negative hands: ``auction`` may be [] or null; ``price`` 0 or null;
      ``outcome``, ``trump``, ``buyer``, ``chooser`` null.
* A8  Logged decisions that break a rule (an offer, an answer, a play, a lead,
      a trump, a trick led by the wrong seat) raise IllegalAction; derived
      fields (trick winners, buyer, price, chooser, result, the dealer of a
      single hand = index % 4) are compared by ``result_mismatches``.
      ``replay`` always continues with the values it derived itself.
* A9  ``last_two`` penalises the winners of tricks number 12 and 13 (1-based)
      of the list it is given; a shorter list has no such tricks.
* A10 The K♥ rule under ``when_void_or_ace_already_played``: a heart was led
      and A♥ is among the cards already in the trick (led or followed); then a
      K♥ holder must play K♥.  It applies in no_king_of_hearts and in any
      combined contract that includes it, like the void rule.
* A11 ``check_game`` takes D0 from the first log's dealer and checks hand k
      against D0 + k - 1; all logs of a game must share ``rules`` and ``index``.
"""

from __future__ import annotations

# ---------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------


class IllegalAction(Exception):
    """A logged action (or a piece of the log's bookkeeping) that the rules forbid.

    The message names the phase, the seat (None when no single seat is at
    fault, e.g. a bad deal) and the offending card, offer or record.
    """

    def __init__(self, phase, seat, action, reason):
        self.phase = phase
        self.seat = seat
        self.action = action
        self.reason = reason
        super().__init__(f"[{phase}] seat {seat}: {action!r}: {reason}")


# ---------------------------------------------------------------------------
# Cards and seats (§0.1, §3.1)
# ---------------------------------------------------------------------------

SUITS = "CDHS"
RANK_CHARS = "23456789TJQKA"  # RANK_CHARS[r - 2] is the letter of rank r
NO_TRUMP = "N"
HEARTS = "H"
KING_OF_HEARTS = (13, "H")
ACE_OF_HEARTS = (14, "H")
N_TRICKS = 13


def parse_card(text):
    """'KH' -> (13, 'H').  Raises ValueError for anything else."""
    if not isinstance(text, str) or len(text) != 2:
        raise ValueError(f"not a card: {text!r}")
    rank_char, suit = text[0], text[1]
    if rank_char not in RANK_CHARS or suit not in SUITS:
        raise ValueError(f"not a card: {text!r}")
    return (RANK_CHARS.index(rank_char) + 2, suit)


def card_str(card):
    """(13, 'H') -> 'KH'."""
    rank, suit = card
    return RANK_CHARS[rank - 2] + suit


def make_deck():
    """The 52 cards, C D H S, 2..A."""
    return [(rank, suit) for suit in SUITS for rank in range(2, 15)]


def left_of(seat):
    """§0.1: the left-hand neighbour of p is p + 1."""
    return (seat + 1) % 4


def dealer_of(d0, hand_no):
    """LOG §1: hand k (1-based) of a game is dealt by D0 + k - 1 (mod 4)."""
    return (d0 + hand_no - 1) % 4


# ---------------------------------------------------------------------------
# Rules flags (§7, LOG "rules")
# ---------------------------------------------------------------------------

# Allowed values; the first is the default (docs/spec.md §7, marked *).  Unit tests
# may leave flags out; replay() insists that a log carries every flag.
FLAG_VALUES = {
    "first_dealer": ("random", "kh_finder_chooses"),
    "first_lead": ("dealer", "left_of_dealer"),
    "neg_order": ("seed", "pt"),
    "combined_negatives": (False, True),
    "kh_force": ("when_void", "when_void_or_ace_already_played"),
    "allow_no_trump": (False, True),
    "pos_leader": ("dealer", "trump_chooser", "left_of_dealer"),
    "payment_floor": ("none", "zero"),
    "auction_model": ("ascending_with_priority", "valuation_shortcut"),
}
MAX_OFFER_DEFAULT = 13

DEFAULT_RULES = {"game": "king", **{name: values[0] for name, values in FLAG_VALUES.items()},
                 "max_offer": MAX_OFFER_DEFAULT}
ALL_FLAGS = ("game", *FLAG_VALUES, "max_offer")


def _is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def flag(rules, name):
    """Value of one flag, validated; the default when the flag is missing."""
    if name == "max_offer":
        value = (rules or {}).get(name, MAX_OFFER_DEFAULT)
        if not _is_int(value) or not 0 <= value <= N_TRICKS:  # A2
            raise ValueError(f"rules['max_offer'] = {value!r}; expected an int 0..13")
        return value
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
    if out.get("game") != "king":
        raise ValueError(f"rules['game'] = {out.get('game')!r}, expected 'king'")
    for name in ALL_FLAGS[1:]:
        flag(out, name)
    unknown = sorted(set(out) - set(ALL_FLAGS))
    if unknown:
        raise ValueError(f"unknown King flags {unknown}")
    return out


def check_rules_complete(rules):
    """A log must carry every flag (LOG "rules"); returns the validated rules."""
    if not isinstance(rules, dict):
        raise ValueError(f"log rules must be a dict, got {rules!r}")
    missing = [name for name in ALL_FLAGS if name not in rules]
    if missing:
        raise ValueError(f"log rules lack {missing}")
    return full_rules(rules)


# ---------------------------------------------------------------------------
# Contracts and the game's hand order (§3.3, LOG §1, §6, §8)
# ---------------------------------------------------------------------------

POSITIVE = "positive"
NEG_SEED = ("no_tricks", "no_hearts", "no_kings_jacks", "no_queens",
            "no_king_of_hearts", "last_two")
NEG_PT = ("no_tricks", "no_hearts", "no_queens", "no_kings_jacks",
          "no_king_of_hearts", "last_two")
COMBINED = ("no_tricks+last_two", "no_hearts+no_king_of_hearts", "no_kings_jacks+no_queens")
NEG_TOTALS = {"no_tricks": -260, "no_hearts": -260, "no_kings_jacks": -240,
              "no_queens": -200, "no_king_of_hearts": -160, "last_two": -180}
POSITIVE_TOTAL = 325
POINTS_PER_TRICK = 25
N_POSITIVE_HANDS = 4


def contract_list(rules=None):
    """The contracts of one game in hand order (LOG §1): the six negatives in
    neg_order (seed, or pt with the 3rd and 4th swapped), or the three combined
    hands ordered by their first member's place in that order (A1); then four
    positive hands."""
    order = NEG_PT if flag(rules, "neg_order") == "pt" else NEG_SEED
    if flag(rules, "combined_negatives"):
        negatives = sorted(COMBINED, key=lambda c: order.index(c.split("+")[0]))
    else:
        negatives = list(order)
    return negatives + [POSITIVE] * N_POSITIVE_HANDS


def members(contract):
    """'no_hearts+no_king_of_hearts' -> ('no_hearts', 'no_king_of_hearts');
    'positive' -> ('positive',).  ValueError for an unknown name."""
    if contract == POSITIVE:
        return (POSITIVE,)
    if not isinstance(contract, str):
        raise ValueError(f"not a contract: {contract!r}")
    parts = tuple(contract.split("+"))
    if len(set(parts)) != len(parts) or any(p not in NEG_TOTALS for p in parts):
        raise ValueError(f"not a contract: {contract!r}")
    return parts


def is_positive(contract):
    return members(contract) == (POSITIVE,)


def hand_total(contract):
    """LOG §8: the sum of one hand's points over the four seats."""
    if is_positive(contract):
        return POSITIVE_TOTAL
    return sum(NEG_TOTALS[m] for m in members(contract))


def _bans_heart_lead(contract):
    """LOG §4: no_hearts and no_king_of_hearts (and combinations with them)."""
    return any(m in ("no_hearts", "no_king_of_hearts") for m in members(contract))


def _forces_king_of_hearts(contract):
    return "no_king_of_hearts" in members(contract)


# ---------------------------------------------------------------------------
# Following and the trick winner (§3.2-§3.4, LOG §4, §5)
# ---------------------------------------------------------------------------


def legal_plays(hand, trick_so_far, contract, trump=None, rules=None):
    """Cards of `hand` that may be played on `trick_so_far` (cards, led card
    first) in `contract`.  Keeps hand order.  LOG §4:

    * leading: any card; but in no_hearts / no_king_of_hearts (or a combination
      with one of them) a heart only from a hand holding nothing but hearts;
    * following: a card of the led suit when holding one, otherwise any card;
    * no_king_of_hearts: a K♥ holder void in the led suit must play K♥; under
      kh_force=when_void_or_ace_already_played also when a heart was led and
      A♥ is already in the trick (A10);
    * positive hands: the same follow rule, so a trump only when void (or when
      trump was led); a void player may trump or discard.  `trump` therefore
      never changes what is legal; it is taken for symmetry with the play.
    """
    hand = list(hand)
    members(contract)  # validates the name
    if not trick_so_far:
        if _bans_heart_lead(contract):
            others = [c for c in hand if c[1] != HEARTS]
            if others:
                return others
        return hand
    led_suit = trick_so_far[0][1]
    followers = [c for c in hand if c[1] == led_suit]
    king_forced = False
    if _forces_king_of_hearts(contract) and KING_OF_HEARTS in hand:
        if not followers:
            king_forced = True
        elif (led_suit == HEARTS and ACE_OF_HEARTS in trick_so_far
              and flag(rules, "kh_force") == "when_void_or_ace_already_played"):
            king_forced = True
    if king_forced:
        return [KING_OF_HEARTS]
    return followers if followers else hand


def trick_winner(plays, trump=None):
    """Seat that wins a trick; `plays` is [(seat, card), ...] in play order.
    LOG §5: the highest trump if `trump` is a suit and any trump was played,
    else the highest card of the led suit (always so with trump "N" or None)."""
    if trump in tuple(SUITS):
        trumps = [(card[0], seat) for seat, card in plays if card[1] == trump]
        if trumps:
            return max(trumps)[1]
    led_suit = plays[0][1][1]
    followers = [(card[0], seat) for seat, card in plays if card[1] == led_suit]
    return max(followers)[1]


# ---------------------------------------------------------------------------
# Negative hands: penalties (§3.3, LOG §6)
# ---------------------------------------------------------------------------

UNIT_PENALTY = {"no_tricks": -20, "no_hearts": -20, "no_kings_jacks": -30,
                "no_queens": -50, "no_king_of_hearts": -160, "last_two": -90}


def _penalty_one(name, number, cards):
    """Penalty of one trick (1-based `number`, its 4 cards) under one contract."""
    unit = UNIT_PENALTY[name]
    if name == "no_tricks":
        return unit
    if name == "no_hearts":
        return unit * sum(1 for c in cards if c[1] == HEARTS)
    if name == "no_kings_jacks":
        return unit * sum(1 for c in cards if c[0] in (11, 13))
    if name == "no_queens":
        return unit * sum(1 for c in cards if c[0] == 12)
    if name == "no_king_of_hearts":
        return unit if KING_OF_HEARTS in cards else 0
    if name == "last_two":
        return unit if number in (12, 13) else 0  # A9
    raise ValueError(name)


def penalty(contract, tricks_with_cards):
    """Points per seat (each <= 0) of a negative hand.  `tricks_with_cards` is
    [(cards, winner_seat), ...] in play order.  A combined contract scores the
    sum of its members' penalties (LOG §1, §6)."""
    names = members(contract)
    if names == (POSITIVE,):
        raise ValueError("penalty() is for negative contracts")
    points = [0, 0, 0, 0]
    for number, (cards, winner) in enumerate(tricks_with_cards, start=1):
        for name in names:
            points[winner] += _penalty_one(name, number, list(cards))
    return points


# ---------------------------------------------------------------------------
# Positive hands: auction (§3.5, LOG §7)
# ---------------------------------------------------------------------------

PASS = 0
ACCEPT = "accept"
REFUSE = "refuse"
ANSWERS = (ACCEPT, REFUSE)
OUTCOMES = ("sell", "decline", "play")


def opponents(dealer):
    """The three opponents of the benefited (the dealer) in auction order,
    D+1, D+2, D+3; an earlier seat has priority ("mão")."""
    return [(dealer + k) % 4 for k in (1, 2, 3)]


def has_priority(seat, other, dealer):
    """True when `seat` comes strictly before `other` in D+1, D+2, D+3."""
    order = opponents(dealer)
    return order.index(seat) < order.index(other)


def legal_offers(seat, high, holder, floor, dealer, rules=None):
    """Offers (passes excluded) opponent `seat` may make.

    ascending_with_priority (LOG §7): x <= max_offer and either x > max(high,
    floor) (plain raise; also open to the holder himself, A3), or x == high >
    floor when `seat` has priority over `holder` ("pela mão").
    valuation_shortcut: any 1..max_offer (high, holder, floor are ignored)."""
    if seat not in opponents(dealer):
        raise ValueError(f"seat {seat} is the benefited, not an opponent of dealer {dealer}")
    cap = flag(rules, "max_offer")
    if flag(rules, "auction_model") == "valuation_shortcut":
        return list(range(1, cap + 1))
    out = []
    for x in range(1, cap + 1):
        if x > max(high, floor):
            out.append(x)
        elif (x == high and high > floor and holder is not None and seat != holder
              and has_priority(seat, holder, dealer)):
            out.append(x)
    return out


def shortcut_price(entries, dealer):
    """valuation_shortcut's price (RULES §3.5: "about the second-highest v, rounded up, or
    equal to it when the winner has priority"): the second-highest of the three offers,
    plus one unless the winner's seat comes before that offer's seat in D+1, D+2, D+3; at
    least 1 and at most the winner's own offer."""
    values = [(seat, action) for seat, action in entries[:3]]
    high = max(v for _, v in values)
    winner = next(s for s, v in values if v == high)
    others = [(s, v) for s, v in values if s != winner]
    second = max(v for _, v in others)
    if second == 0:
        return min(high, 1)
    second_seat = next(s for s, v in others if v == second)
    price = second if has_priority(winner, second_seat, dealer) else second + 1
    return min(high, max(1, price))


def outcome_options(high, last_answer):
    """LOG §7 final rule (A5): ["sell"] when high >= 1 and the last answer was
    accept; else ["decline", "play"] when high <= 1; else ["play"]."""
    if high >= 1 and last_answer == ACCEPT:
        return ["sell"]
    if high <= 1:
        return ["decline", "play"]
    return ["play"]


def _entry(entry):
    if not isinstance(entry, (list, tuple)) or len(entry) != 2:
        raise IllegalAction("auction", None, entry, "an auction entry is [seat, action]")
    return entry[0], entry[1]


def _check_offer_type(seat, action, cap):
    if not _is_int(action):
        raise IllegalAction("auction", seat, action, "an opponent's action is an int (0 = pass)")
    if not 0 <= action <= cap:
        raise IllegalAction("auction", seat, action, f"illegal offer: outside 0..max_offer={cap}")


def _check_answer(seat, action, dealer):
    if seat != dealer:
        raise IllegalAction("auction", seat, action,
                            f"out of turn: the benefited (seat {dealer}) must answer")
    if not isinstance(action, str) or action not in ANSWERS:
        raise IllegalAction("auction", seat, action, "the benefited answers 'accept' or 'refuse'")


def _run_ascending(entries, dealer, rules):
    cap = flag(rules, "max_offer")
    high, holder, floor, last_answer = 0, None, 0, None
    i = 0
    while True:
        new_offer = False
        for due in opponents(dealer):
            if i >= len(entries):
                raise IllegalAction("auction", due, None,
                                    f"auction unfinished: seat {due} must offer or pass")
            seat, action = _entry(entries[i])
            i += 1
            if seat != due:
                raise IllegalAction("auction", seat, action,
                                    f"out of turn: seat {due} must offer or pass")
            _check_offer_type(seat, action, cap)
            if action == PASS:
                continue
            allowed = legal_offers(seat, high, holder, floor, dealer, rules)
            if action not in allowed:
                raise IllegalAction(
                    "auction", seat, action,
                    f"illegal offer: high {high} held by {holder}, floor {floor}, "
                    f"max_offer {cap}; legal: {allowed or 'pass only'}")
            high, holder, new_offer, last_answer = action, seat, True, None
        if not new_offer:  # a round without a new offer ends the auction
            break
        if i >= len(entries):
            raise IllegalAction("auction", dealer, None,
                                f"auction unfinished: the benefited (seat {dealer}) must answer")
        seat, action = _entry(entries[i])
        i += 1
        _check_answer(seat, action, dealer)
        last_answer = action
        if action == REFUSE:
            floor = high
    if i < len(entries):
        seat, action = _entry(entries[i])
        raise IllegalAction("auction", seat, action,
                            "action after the auction ended (a round with no new offer ends it)")
    return high, holder, last_answer


def _run_shortcut(entries, dealer, rules):
    cap = flag(rules, "max_offer")
    values = []
    for k, due in enumerate(opponents(dealer)):
        if k >= len(entries):
            raise IllegalAction("auction", due, None,
                                f"auction unfinished: seat {due} must state its valuation")
        seat, action = _entry(entries[k])
        if seat != due:
            raise IllegalAction("auction", seat, action,
                                f"out of turn: seat {due} must state its valuation")
        _check_offer_type(seat, action, cap)
        values.append((seat, action))
    high = max(v for _, v in values)
    holder = next(s for s, v in values if v == high) if high > 0 else None
    last_answer = None
    rest = list(entries[3:])
    if rest:
        seat, action = _entry(rest[0])
        _check_answer(seat, action, dealer)
        last_answer = action
        rest = rest[1:]
    elif high > 0:  # A4: the answer may only be left out when nobody offered
        raise IllegalAction("auction", dealer, None,
                            f"auction unfinished: the benefited (seat {dealer}) must answer")
    if rest:
        seat, action = _entry(rest[0])
        raise IllegalAction("auction", seat, action,
                            "action after the auction ended (one valuation each, one answer)")
    return high, holder, last_answer


def run_auction(auction, dealer, rules=None):
    """Check a logged auction ([[seat, action], ...]) of a positive hand dealt
    by `dealer` and return (outcome options, high, holder, last_answer).
    Raises IllegalAction for an action out of turn, an illegal offer or answer,
    an unfinished auction, or an action after the end."""
    if not isinstance(auction, (list, tuple)):
        raise IllegalAction("auction", None, auction, "the auction is a list of [seat, action]")
    entries = list(auction)
    if flag(rules, "auction_model") == "valuation_shortcut":
        high, holder, last_answer = _run_shortcut(entries, dealer, rules)
    else:
        high, holder, last_answer = _run_ascending(entries, dealer, rules)
    return outcome_options(high, last_answer), high, holder, last_answer


# ---------------------------------------------------------------------------
# Positive hands: trump, leader, settlement (§3.4, §3.5, LOG §3, §7)
# ---------------------------------------------------------------------------


def legal_trumps(rules=None):
    """C, D, H, S; and N (no trump) only with allow_no_trump."""
    return list(SUITS) + ([NO_TRUMP] if flag(rules, "allow_no_trump") else [])


def negative_leader(dealer, rules=None):
    """LOG §3: trick 1 of a negative hand is led by the dealer or his left."""
    return dealer if flag(rules, "first_lead") == "dealer" else left_of(dealer)


def positive_leader(dealer, chooser, rules=None):
    """LOG §3: pos_leader = the dealer (benefited), the trump chooser, or the
    dealer's left."""
    mode = flag(rules, "pos_leader")
    if mode == "dealer":
        return dealer
    if mode == "trump_chooser":
        return chooser
    return left_of(dealer)


def settle_positive(tricks, dealer, outcome, buyer=None, price=0, rules=None):
    """Points per seat of a positive hand (LOG §7).  `tricks` = tricks taken in
    play per seat (ignored on a decline).

    * decline: 4 tricks credited to the dealer, 3 to each other seat;
    * play: 25 per trick;
    * sell: the buyer's count drops by `price` and the dealer's rises by it
      (payment_floor=zero: by at most the buyer's tricks), then 25 per trick."""
    if outcome == "decline":
        credited = [3, 3, 3, 3]
        credited[dealer] = 4
        return [POINTS_PER_TRICK * t for t in credited]
    counts = list(tricks)
    if len(counts) != 4 or sum(counts) != N_TRICKS:
        raise ValueError(f"trick counts {counts} do not add up to {N_TRICKS}")
    if outcome == "sell":
        if buyer is None or buyer == dealer:
            raise ValueError(f"a sale needs a buyer other than the dealer, got {buyer}")
        pay = price
        if flag(rules, "payment_floor") == "zero":
            pay = min(price, counts[buyer])
        counts[buyer] -= pay
        counts[dealer] += pay
    elif outcome != "play":
        raise ValueError(f"not an outcome: {outcome!r}")
    return [POINTS_PER_TRICK * t for t in counts]


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
    if not _is_int(value) or not 0 <= value <= 3:
        raise IllegalAction(phase, value, value, "not a seat 0..3")
    return value


def check_deal(hands_log):
    """LOG: 4 hands of 13 distinct cards that together are the 52-card deck.
    Returns the hands as lists of card tuples."""
    if not isinstance(hands_log, (list, tuple)) or len(hands_log) != 4:
        raise IllegalAction("deal", None, "hands", "expected 4 hands")
    hands = []
    seen = set()
    for seat, texts in enumerate(hands_log):
        if not isinstance(texts, (list, tuple)):
            raise IllegalAction("deal", seat, texts, "expected a list of cards")
        if len(texts) != N_TRICKS:
            raise IllegalAction("deal", seat, list(texts),
                                f"dealt {len(texts)} cards, expected 13")
        hand = []
        for text in texts:
            card = _card("deal", seat, text)
            if card in seen:
                raise IllegalAction("deal", seat, text, "card dealt twice")
            seen.add(card)
            hand.append(card)
        hands.append(hand)
    assert seen == set(make_deck()), "52 distinct valid cards are the deck"
    return hands


def _play_tricks(tricks_log, hands, first_leader, contract, trump, rules):
    """Check every logged trick (leader, 4 plays in turn, each legal) and return
    (winners, [(cards, winner), ...]) with the winners derived here."""
    if not isinstance(tricks_log, (list, tuple)) or len(tricks_log) != N_TRICKS:
        n = len(tricks_log) if isinstance(tricks_log, (list, tuple)) else tricks_log
        raise IllegalAction("play", None, "tricks", f"{n} tricks, expected 13")
    in_hand = [list(h) for h in hands]
    leader = first_leader
    winners = []
    played = []
    for number, trick in enumerate(tricks_log, start=1):
        phase = f"trick {number}"
        if not isinstance(trick, dict) or "plays" not in trick:
            raise IllegalAction(phase, None, trick, "a trick is {leader, plays, winner}")
        if trick.get("leader") != leader:
            raise IllegalAction(phase, trick.get("leader"), "lead", f"seat {leader} must lead")
        plays_log = trick["plays"]
        if not isinstance(plays_log, (list, tuple)) or len(plays_log) != 4:
            raise IllegalAction(phase, None, plays_log, "a trick has 4 plays")
        plays = []
        for k, play in enumerate(plays_log):
            due = (leader + k) % 4
            if not isinstance(play, (list, tuple)) or len(play) != 2:
                raise IllegalAction(phase, due, play, "a play is [seat, card]")
            seat, text = play
            if seat != due:
                raise IllegalAction(phase, seat, text, f"out of turn: seat {due} must play")
            card = _card(phase, seat, text)
            if card not in in_hand[seat]:
                raise IllegalAction(phase, seat, text, "card not in hand")
            allowed = legal_plays(in_hand[seat], [c for _, c in plays], contract, trump, rules)
            if card not in allowed:
                raise IllegalAction(phase, seat, text, f"illegal play in {contract}; legal: "
                                    f"{sorted(card_str(c) for c in allowed)}")
            in_hand[seat].remove(card)
            plays.append((seat, card))
        winner = trick_winner(plays, trump)
        winners.append(winner)
        played.append(([c for _, c in plays], winner))
        leader = winner  # A8: the derived winner leads next
    assert all(not h for h in in_hand), "13 tricks of 4 empty every hand"
    return winners, played


def replay(log):
    """Replay one logged hand from the rules alone.

    Raises IllegalAction on the first logged decision the rules forbid (or a
    malformed record) and ValueError on bad rules.  Returns the derived values:
    contract, dealer, winners (seat per trick), tricks (per seat, in play),
    points (per seat), total, leader, outcome_allowed, outcome_options, high,
    holder, last_answer, buyer, price, chooser, trump, outcome.
    """
    rules = check_rules_complete(log["rules"])
    contract = log["contract"]
    try:
        members(contract)
    except ValueError:
        raise IllegalAction("contract", None, contract, "not a contract name") from None
    if contract not in contract_list(rules):  # A1
        raise IllegalAction("contract", None, contract,
                            f"not a contract of these rules: {sorted(set(contract_list(rules)))}")
    dealer = _seat("deal", log["dealer"])
    hands = check_deal(log["hands"])

    out = {"contract": contract, "dealer": dealer, "outcome_allowed": True,
           "outcome_options": None, "high": None, "holder": None, "last_answer": None,
           "buyer": None, "price": 0, "chooser": None, "trump": None, "outcome": None}

    if not is_positive(contract):
        # -- negative hand (A7): no auction, no trump
        if log.get("auction") not in (None, []):
            raise IllegalAction("auction", None, log.get("auction"),
                                "no auction in a negative hand")
        for key in ("outcome", "trump"):
            if log.get(key) is not None:
                raise IllegalAction(key, None, log.get(key), f"no {key} in a negative hand")
        leader = negative_leader(dealer, rules)
        if log.get("leader") != leader:
            raise IllegalAction("lead", log.get("leader"), "first lead",
                                f"first_lead={flag(rules, 'first_lead')} requires seat {leader}")
        winners, played = _play_tricks(log["tricks"], hands, leader, contract, None, rules)
        tricks = [winners.count(s) for s in range(4)]
        points = penalty(contract, played)
        out.update(winners=winners, tricks=tricks, points=points, total=sum(points),
                   leader=leader)
        return out

    # -- positive hand: auction and final decision (LOG §7)
    options, high, holder, last_answer = run_auction(log["auction"], dealer, rules)
    outcome = log.get("outcome")
    if outcome not in OUTCOMES:
        raise IllegalAction("outcome", dealer, outcome, f"the outcome is one of {OUTCOMES}")
    out.update(outcome_options=options, high=high, holder=holder, last_answer=last_answer,
               outcome=outcome, outcome_allowed=outcome in options)  # A5
    if outcome == "sell":
        if holder is None:
            raise IllegalAction("outcome", dealer, outcome, "nobody made an offer to sell to")
        price = (shortcut_price(log["auction"], dealer)
                 if flag(rules, "auction_model") == "valuation_shortcut" else high)
        buyer, chooser = holder, holder
    elif outcome == "play":
        buyer, price, chooser = None, 0, dealer
    else:
        buyer, price, chooser = None, 0, None
    out.update(buyer=buyer, price=price, chooser=chooser)

    if outcome == "decline":  # A6: no trump, no lead, no play
        if log.get("trump") is not None:
            raise IllegalAction("trump", dealer, log.get("trump"), "no trump is named on a decline")
        if log.get("leader") is not None:
            raise IllegalAction("lead", log.get("leader"), "first lead", "no play on a decline")
        if log.get("tricks") not in (None, []):
            raise IllegalAction("play", None, "tricks", "no tricks are played on a decline")
        points = settle_positive([0, 0, 0, 0], dealer, "decline", rules=rules)
        out.update(winners=[], tricks=[0, 0, 0, 0], points=points, total=sum(points),
                   leader=None)
        return out

    trump = log.get("trump")
    if trump not in legal_trumps(rules):
        raise IllegalAction("trump", chooser, trump,
                            f"trump must be one of {legal_trumps(rules)}")
    leader = positive_leader(dealer, chooser, rules)
    if log.get("leader") != leader:
        raise IllegalAction("lead", log.get("leader"), "first lead",
                            f"pos_leader={flag(rules, 'pos_leader')} requires seat {leader}")
    winners, _ = _play_tricks(log["tricks"], hands, leader, contract, trump, rules)
    tricks = [winners.count(s) for s in range(4)]
    points = settle_positive(tricks, dealer, outcome, buyer, price, rules)
    out.update(winners=winners, tricks=tricks, points=points, total=sum(points),
               leader=leader, trump=trump)
    return out


RESULT_KEYS = ("tricks", "points")


def result_mismatches(log, replayed=None):
    """Every derived field where the log disagrees with the reference (empty
    list = full agreement), plus an outcome the final rule does not allow (A5).
    Raises IllegalAction like replay() when the log contains a decision the
    rules forbid."""
    ref = replayed if replayed is not None else replay(log)
    out = []
    missing = object()

    def compare(name, mine, theirs):
        if isinstance(mine, (list, tuple)) and isinstance(theirs, (list, tuple)):
            mine, theirs = list(mine), list(theirs)
        if mine != theirs:
            out.append(f"{name}: reference {mine!r}, log {theirs!r}")

    hand_no = log.get("hand_no", missing)
    if not _is_int(hand_no) or hand_no < 0:
        out.append(f"hand_no: expected an int >= 0, log {hand_no!r}")
    elif hand_no == 0 and _is_int(log.get("index")):  # single hand i: dealer i % 4
        compare("dealer", log["index"] % 4, log["dealer"])
    if not ref["outcome_allowed"]:
        out.append(f"outcome: {ref['outcome']!r} not allowed by the final rule "
                   f"(high {ref['high']}, last answer {ref['last_answer']!r}); "
                   f"allowed: {ref['outcome_options']}")
    tricks_log = log.get("tricks") or []
    compare("winners", ref["winners"], [t.get("winner") for t in tricks_log])
    for key in ("buyer", "chooser"):
        compare(key, ref[key], log.get(key, missing))
    price = log.get("price", missing)
    if is_positive(ref["contract"]) or price is not None:  # A7: null allowed in negatives
        compare("price", ref["price"], price)
    result = log.get("result", {})
    for key in RESULT_KEYS:
        compare(f"result.{key}", ref[key], result.get(key, missing))
    return out


# ---------------------------------------------------------------------------
# A whole game (§3.6, §5, LOG §1, §2, §8)
# ---------------------------------------------------------------------------


def check_game(logs, replay_hands=True):
    """Problems with a list of hand logs forming one game (empty = none):
    hand_no 1..N in order, the contract sequence of contract_list(rules),
    dealers D0 + k - 1 (A11), each seat the benefited of exactly one positive
    hand, every hand's points summing to its total, the game summing to 0;
    with `replay_hands` also every hand's result_mismatches (prefixed
    "hand k: ").  Raises IllegalAction like replay()."""
    out = []
    if not logs:
        return ["game: no hands"]
    rules = check_rules_complete(logs[0]["rules"])
    contracts = contract_list(rules)
    if len(logs) != len(contracts):
        out.append(f"game: {len(logs)} hands, expected {len(contracts)}")
    d0 = logs[0]["dealer"]
    index = logs[0].get("index")
    benefited = []
    game_sum = 0
    for k, log in enumerate(logs, start=1):
        tag = f"hand {k}"
        if log["rules"] != logs[0]["rules"]:
            out.append(f"{tag}: rules differ from hand 1")
        if log.get("index") != index:
            out.append(f"{tag}: index {log.get('index')!r}, hand 1 has {index!r}")
        if log.get("hand_no") != k:
            out.append(f"{tag}: hand_no {log.get('hand_no')!r}, expected {k}")
        if k <= len(contracts) and log["contract"] != contracts[k - 1]:
            out.append(f"{tag}: contract {log['contract']!r}, expected {contracts[k - 1]!r}")
        if log["dealer"] != dealer_of(d0, k):
            out.append(f"{tag}: dealer {log['dealer']!r}, expected {dealer_of(d0, k)} "
                       f"(D0 = {d0})")
        if log["contract"] == POSITIVE:
            benefited.append(log["dealer"])
        points = log["result"]["points"]
        game_sum += sum(points)
        try:
            expected_total = hand_total(log["contract"])
        except ValueError:
            expected_total = None
        if sum(points) != expected_total:
            out.append(f"{tag}: points {points} sum to {sum(points)}, "
                       f"expected {expected_total} for {log['contract']!r}")
        if replay_hands:
            out.extend(f"{tag}: {m}" for m in result_mismatches(log))
    if sorted(benefited) != [0, 1, 2, 3]:
        out.append(f"game: the positive hands' dealers (benefited) are {benefited}, "
                   "expected each seat once")
    if game_sum != 0:
        out.append(f"game: points sum to {game_sum}, expected 0")
    return out


# ---------------------------------------------------------------------------
# Random legal hands and games, logged in the contract's format
# ---------------------------------------------------------------------------


def _random_auction(rng, dealer, rules, p_pass, p_lowest):
    """A random legal auction: returns (entries, high, holder, last_answer).
    An opponent passes with probability p_pass (or when nothing is legal),
    else offers the lowest legal amount with probability p_lowest, else one
    uniformly among the legal offers; answers are uniform."""
    entries = []
    if flag(rules, "auction_model") == "valuation_shortcut":
        cap = flag(rules, "max_offer")
        for seat in opponents(dealer):
            value = PASS if (cap == 0 or rng.random() < p_pass) else rng.randint(1, cap)
            entries.append([seat, value])
        entries.append([dealer, rng.choice(ANSWERS)])
        _, high, holder, last_answer = run_auction(entries, dealer, rules)
        return entries, high, holder, last_answer
    high, holder, floor, last_answer = 0, None, 0, None
    while True:
        new_offer = False
        for seat in opponents(dealer):
            options = legal_offers(seat, high, holder, floor, dealer, rules)
            if not options or rng.random() < p_pass:
                entries.append([seat, PASS])
                continue
            x = options[0] if rng.random() < p_lowest else rng.choice(options)
            entries.append([seat, x])
            high, holder, new_offer, last_answer = x, seat, True, None
        if not new_offer:
            return entries, high, holder, last_answer
        answer = rng.choice(ANSWERS)
        entries.append([dealer, answer])
        last_answer = answer
        if answer == REFUSE:
            floor = high


def _random_tricks(rng, hands, leader, contract, trump, rules):
    held = [list(h) for h in hands]
    tricks = []
    winners = []
    played = []
    for _ in range(N_TRICKS):
        plays = []
        for seat in [(leader + i) % 4 for i in range(4)]:
            card = rng.choice(legal_plays(held[seat], [c for _, c in plays], contract, trump,
                                          rules))
            held[seat].remove(card)
            plays.append((seat, card))
        winner = trick_winner(plays, trump)
        tricks.append({"leader": leader, "plays": [[s, card_str(c)] for s, c in plays],
                       "winner": winner})
        winners.append(winner)
        played.append(([c for _, c in plays], winner))
        leader = winner
    return tricks, winners, played


def play_random_hand(rng, rules=None, contract="no_tricks", dealer=0, index=None, hand_no=0,
                     p_pass=0.6, p_lowest=0.0):
    """Play one hand with uniformly random legal decisions (rng: a
    random.Random) and return its log in the KING_LOG_FORMAT.md format.
    `index` defaults to `dealer` (a single hand i is dealt by i % 4)."""
    rules = full_rules(rules)
    if contract not in contract_list(rules):
        raise ValueError(f"{contract!r} is not a contract of these rules")
    if index is None:
        index = dealer
    deck = make_deck()
    rng.shuffle(deck)
    hands = [deck[13 * s:13 * (s + 1)] for s in range(4)]
    log = {"index": index, "hand_no": hand_no, "rules": rules, "contract": contract,
           "dealer": dealer, "hands": [[card_str(c) for c in h] for h in hands],
           "auction": [], "outcome": None, "buyer": None, "price": 0, "trump": None,
           "chooser": None, "leader": None, "tricks": []}
    if not is_positive(contract):
        leader = negative_leader(dealer, rules)
        tricks, winners, played = _random_tricks(rng, hands, leader, contract, None, rules)
        log.update(leader=leader, tricks=tricks,
                   result={"tricks": [winners.count(s) for s in range(4)],
                           "points": penalty(contract, played)})
        return log

    entries, high, holder, last_answer = _random_auction(rng, dealer, rules, p_pass, p_lowest)
    outcome = rng.choice(outcome_options(high, last_answer))
    log.update(auction=entries, outcome=outcome)
    if outcome == "decline":
        log["result"] = {"tricks": [0, 0, 0, 0],
                         "points": settle_positive([0] * 4, dealer, "decline", rules=rules)}
        return log
    shortcut = flag(rules, "auction_model") == "valuation_shortcut"
    buyer, price = ((holder, shortcut_price(entries, dealer) if shortcut else high)
                    if outcome == "sell" else (None, 0))
    chooser = buyer if outcome == "sell" else dealer
    trump = rng.choice(legal_trumps(rules))
    leader = positive_leader(dealer, chooser, rules)
    tricks, winners, _ = _random_tricks(rng, hands, leader, contract, trump, rules)
    counts = [winners.count(s) for s in range(4)]
    log.update(buyer=buyer, price=price, trump=trump, chooser=chooser, leader=leader,
               tricks=tricks,
               result={"tricks": counts,
                       "points": settle_positive(counts, dealer, outcome, buyer, price, rules)})
    return log


def play_random_game(rng, rules=None, index=0, p_pass=0.6, p_lowest=0.0):
    """A whole game (LOG §1, §2): D0 uniform (under kh_finder_chooses the K♥
    finder is a uniform seat and the random policy names any seat, so D0 is
    uniform either way), then every contract of contract_list(rules) in order,
    hand k dealt by D0 + k - 1."""
    rules = full_rules(rules)
    d0 = rng.randrange(4)
    return [play_random_hand(rng, rules, contract, dealer_of(d0, k), index=index, hand_no=k,
                             p_pass=p_pass, p_lowest=p_lowest)
            for k, contract in enumerate(contract_list(rules), start=1)]
