"""The fast double-dummy solver against the brute-force minimax, position by position.

``analyzer.solve`` must give exactly the value, the seat to move and the value of
every legal card that ``tests/reference/dd_brute.py`` (exhaustive minimax, no
pruning, built on the pure-Python rule references) gives, on thousands of random
endgames of 1 to 3 tricks with a random partial current trick, for every game and
every rule flag that changes play or trick points.  Positions are dealt from a fixed
seed; a mismatch prints the ``analyzer.solve(...)`` call that reproduces it.

How the positions are made (see ``_pedro_case``, ``_rook_case``, ``_king_case``):

* each card is drawn with probability HOT from the cards that matter (trumps and
  counters, or the contract's penalty cards), else from the whole deck, so that
  values are seldom all 0;
* the hands at the start of the current trick are dealt first, then 0-3 of its
  cards are played by random legal moves, so the partial trick is always legal;
* Pedro/Cinch hands hold 0-3 cards each, often unequal (short hands, a seat with
  nothing, a leader with nothing); positions whose current trick can be read two
  ways (an empty seat that either played its last card or was empty all along) are
  not generated, see ``dd_brute.pedro_trick_orders``;
* Rook and King hands are equal (1-3 tricks left, the current one included), so King
  positions cover tricks 11, 12 and 13;
* ``side`` is left out half the time (the seat to move) and otherwise any seat.
"""

from __future__ import annotations

import random
import zlib
from dataclasses import dataclass

import pytest
from reference import dd_brute, king_ref, pedro_ref, rook_ref

from analyzer import solve

N_PEDRO = 2500  # each of pedro and cinch
N_ROOK = 3000
N_KING_EACH = 400  # per King contract kind below: 9 kinds, 3600 positions
MAX_SHOWN = 8  # mismatches printed in full
HOT = 0.6  # share of the cards drawn from the cards that score
TRICKS_LEFT = (1, 2, 2, 3, 3, 3)  # tricks left (the current one included), drawn uniformly

KING_NEGATIVES = king_ref.NEG_SEED
KING_KINDS = (*KING_NEGATIVES, "positive_trump", "positive_no_trump", "combined")


# ---------------------------------------------------------------------------
# One position
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    game: str
    hands: str
    trump: str | None
    leader: int
    played: str
    side: int | None
    contract: str | None

    def kwargs(self):
        out = dict(trump=self.trump, leader=self.leader, played=self.played)
        if self.side is not None:
            out["side"] = self.side
        if self.contract is not None:
            out["contract"] = self.contract
        return out

    def repro(self):
        args = ", ".join(f"{k}={v!r}" for k, v in self.kwargs().items())
        return f"analyzer.solve({self.game!r}, {self.hands!r}, {args})"


def _variant(name, flags, order):
    """Canonical variant string: the flags that differ from the preset, in the Rules
    dataclass's declaration order (``order``)."""
    diffs = [f"{k}={flags[k]}" for k in order if k in flags]
    return f"{name}({','.join(diffs)})" if diffs else name


def _text(card, card_str, rng, loose):
    """A card as text; ``loose`` positions also use the other spellings the contract
    accepts (10 for T, lower case, ROOK for the joker)."""
    s = card_str(card)
    if not loose or rng.random() < 0.5:
        return s
    if s == "JK":
        return rng.choice(["ROOK", "jk", "Rook"])
    if s[0] == "T":
        s = "10" + s[1]
    return s.lower()


def _hands_text(hands, card_str, rng, loose):
    return "/".join(" ".join(_text(c, card_str, rng, loose) for c in h) or "-" for h in hands)


def _draw(rng, deck, hot, n):
    """n distinct cards: each one from the `hot` cards (while any are left) with
    probability HOT, otherwise from the whole deck."""
    left = list(deck)
    hot_left = [c for c in hot if c in set(left)]
    out = []
    for _ in range(n):
        pool = hot_left if hot_left and rng.random() < HOT else left
        card = rng.choice(pool)
        out.append(card)
        left.remove(card)
        if card in hot_left:
            hot_left.remove(card)
    return out


def _deal(rng, cards, sizes):
    rng.shuffle(cards)
    hands, i = [], 0
    for n in sizes:
        hands.append(list(cards[i : i + n]))
        i += n
    return hands


def _play_partial(rng, hands, order, k, legal):
    """Play k random legal cards of the trick with seat order `order`; returns the
    cards played (leader's first) and changes `hands` in place."""
    trick = []
    for seat in order[:k]:
        card = rng.choice(legal(hands[seat], trick))
        hands[seat].remove(card)
        trick.append(card)
    return trick


def _side(rng):
    return None if rng.random() < 0.5 else rng.randrange(4)


# ---------------------------------------------------------------------------
# Random positions per game
# ---------------------------------------------------------------------------

PEDRO_FLAG_ORDER = ("low_to", "high_low_def", "trump_while_able_to_follow", "stock_short")


def _pedro_case(rng, name):
    flags = {}
    if name == "pedro" and rng.random() < 0.4:
        flags["low_to"] = "holder"
    if rng.random() < 0.4:
        flags["high_low_def"] = "highest_lowest_in_play"
    if rng.random() < 0.35:
        flags["trump_while_able_to_follow"] = "forbidden"
    rules = {"game": name, **flags}
    trump = rng.choice(pedro_ref.SUITS)
    while True:
        if rng.random() < 0.35:
            sizes = [rng.choice(TRICKS_LEFT)] * 4
        else:
            sizes = [rng.choice((0, 1, 2, 2, 3, 3)) for _ in range(4)]
            if rng.random() < 0.3:
                sizes[rng.randrange(4)] = 0
        if sum(sizes):
            break
    if len(set(sizes)) > 1:  # uneven hands: only a short stock played short deals them
        flags["stock_short"] = "play_short_hand"
    hot = pedro_ref.trump_order(trump)
    hands = _deal(rng, _draw(rng, pedro_ref.FULL_DECK, hot, sum(sizes)), sizes)
    leader = rng.randrange(4)
    k, trick = 0, []
    if hands[leader]:
        order = [s for s in ((leader + i) % 4 for i in range(4)) if hands[s]]
        k = rng.randint(0, min(3, len(order) - 1))
        trick = _play_partial(
            rng, hands, order, k, lambda h, t: pedro_ref.legal_plays(h, t, trump, rules)
        )
        if len(dd_brute.pedro_trick_orders(leader, hands, k)) != 1:
            return None  # the current trick could be read two ways: not a position
    loose = rng.random() < 0.1
    return Case(
        game=_variant(name, flags, PEDRO_FLAG_ORDER),
        hands=_hands_text(hands, pedro_ref.card_str, rng, loose),
        trump=trump,
        leader=leader,
        played=" ".join(_text(c, pedro_ref.card_str, rng, loose) for c in trick),
        side=_side(rng),
        contract=None,
    )


ROOK_FLAG_ORDER = ("rook_rank", "rook_free_play", "allow_no_trump", "points")


def _rook_case(rng):
    flags = {}
    r = rng.random()
    if r < 0.25:
        flags["rook_rank"] = "highest_trump"
    elif r < 0.6:
        flags["rook_rank"] = rng.choice(rook_ref.ROOK_RANKS[1:-1])
    if rng.random() < 0.35:
        flags["rook_free_play"] = True
    if rng.random() < 0.3:
        flags["allow_no_trump"] = True
    points = rng.choice(("princeton", "princeton", "no_last_trick_bonus", "parker_adapt"))
    if points != "princeton":
        flags["points"] = points
    rules = {"game": "rook", **flags}
    trump = rng.choice(rook_ref.SUITS)
    if flags.get("allow_no_trump") and rng.random() < 0.6:
        trump = None
    ref_trump = rook_ref.NO_TRUMP if trump is None else trump
    tricks = rng.choice(TRICKS_LEFT)
    k = rng.randint(0, 3)
    deck = rook_ref.make_deck(rules)
    hot = [c for c in deck if rook_ref.is_counter(c, rules) or rook_ref.is_trump(c, ref_trump)]
    hands = _deal(rng, _draw(rng, deck, hot, 4 * tricks), [tricks] * 4)
    leader = rng.randrange(4)
    order = [(leader + i) % 4 for i in range(4)]
    trick = _play_partial(
        rng, hands, order, k, lambda h, t: rook_ref.legal_plays(h, t, ref_trump, rules)
    )
    loose = rng.random() < 0.1
    return Case(
        game=_variant("rook", flags, ROOK_FLAG_ORDER),
        hands=_hands_text(hands, rook_ref.card_str, rng, loose),
        trump=trump if trump is not None or rng.random() < 0.5 else "NT",
        leader=leader,
        played=" ".join(_text(c, rook_ref.card_str, rng, loose) for c in trick),
        side=_side(rng),
        contract=None,
    )


KING_FLAG_ORDER = ("kh_force", "allow_no_trump")


def _king_hot(members, trump):
    deck = king_ref.make_deck()
    hot = set()
    for m in members:
        if m == "no_hearts":
            hot |= {c for c in deck if c[1] == "H"}
        elif m == "no_kings_jacks":
            hot |= {c for c in deck if c[0] in (11, 13)}
        elif m == "no_queens":
            hot |= {c for c in deck if c[0] == 12}
        elif m == "no_king_of_hearts":
            hot |= {c for c in deck if c[1] == "H"}
        elif m == "positive" and trump is not None:
            hot |= {c for c in deck if c[1] == trump}
    return sorted(hot)


def _king_case(rng, kind):
    flags = {}
    if rng.random() < 0.5:
        flags["kh_force"] = "when_void_or_ace_already_played"
    trump = None
    if kind == "combined":
        contract = "+".join(sorted(rng.sample(KING_NEGATIVES, 2), key=KING_NEGATIVES.index))
    elif kind.startswith("positive"):
        contract = "positive"
        if kind == "positive_trump":
            trump = rng.choice(king_ref.SUITS)
            if rng.random() < 0.2:
                flags["allow_no_trump"] = True
        else:
            flags["allow_no_trump"] = True
    else:
        contract = kind
    members = king_ref.members(contract)
    rules = {"kh_force": flags.get("kh_force", "when_void")}
    tricks = rng.choice(TRICKS_LEFT)
    k = rng.randint(0, 3)
    deck = king_ref.make_deck()
    cards = _draw(rng, deck, _king_hot(members, trump), 4 * tricks)
    if "no_king_of_hearts" in members and (13, "H") not in cards and rng.random() < 0.85:
        cards[rng.randrange(len(cards))] = (13, "H")
    hands = _deal(rng, cards, [tricks] * 4)
    leader = rng.randrange(4)
    order = [(leader + i) % 4 for i in range(4)]
    trick = _play_partial(
        rng, hands, order, k, lambda h, t: king_ref.legal_plays(h, t, contract, trump, rules)
    )
    loose = rng.random() < 0.1
    return Case(
        game=_variant("king", flags, KING_FLAG_ORDER),
        hands=_hands_text(hands, king_ref.card_str, rng, loose),
        trump=trump,
        leader=leader,
        played=" ".join(_text(c, king_ref.card_str, rng, loose) for c in trick),
        side=_side(rng),
        contract=contract,
    )


def _cases(label, n, make):
    rng = random.Random(zlib.crc32(f"dd-agreement-{label}".encode()))
    out = []
    while len(out) < n:
        case = make(rng)
        if case is not None:
            out.append(case)
    return out


# ---------------------------------------------------------------------------
# The comparison
# ---------------------------------------------------------------------------


def _check(cases):
    """Solve every case both ways; returns the mismatch reports."""
    bad = []
    for case in cases:
        want = dd_brute.solve(case.game, case.hands, **case.kwargs())
        try:
            sol = solve(case.game, case.hands, **case.kwargs())
            got = (sol.value, sol.to_move, dict(sol.card_values))
        except Exception as exc:  # report it with the position, then go on
            got = f"raised {type(exc).__name__}: {exc}"
        expected = (want.value, want.to_move, want.card_values)
        if got != expected:
            bad.append(
                f"{case.repro()}\n    brute force: value={want.value} "
                f"to_move={want.to_move} card_values={want.card_values}\n"
                f"    solve:       {_show(got)}"
            )
    return bad


def _show(got):
    if isinstance(got, str):
        return got
    value, to_move, card_values = got
    return f"value={value} to_move={to_move} card_values={card_values}"


def _assert_agree(label, cases):
    bad = _check(cases)
    if bad:
        shown = "\n".join(bad[:MAX_SHOWN])
        pytest.fail(
            f"{label}: {len(bad)} of {len(cases)} positions disagree with the brute "
            f"force; the first {min(len(bad), MAX_SHOWN)}:\n{shown}",
            pytrace=False,
        )


@pytest.mark.parametrize("name", ["pedro", "cinch"])
def test_pedro_cinch_agree_with_brute_force(name):
    cases = _cases(name, N_PEDRO, lambda rng: _pedro_case(rng, name))
    _assert_agree(name, cases)


def test_rook_agrees_with_brute_force():
    cases = _cases("rook", N_ROOK, _rook_case)
    _assert_agree("rook", cases)


@pytest.mark.parametrize("kind", KING_KINDS)
def test_king_agrees_with_brute_force(kind):
    cases = _cases(f"king-{kind}", N_KING_EACH, lambda rng: _king_case(rng, kind))
    _assert_agree(f"king {kind}", cases)


def _sizes(hands_text):
    return [0 if h.strip() == "-" else len(h.split()) for h in hands_text.split("/")]


def test_generated_positions_cover_the_flags():
    """The generator itself: every flag value, short hands, every partial-trick
    length and every side appear (the brute force accepts every position: the
    agreement tests run it on each)."""
    seen = set()
    for name in ("pedro", "cinch"):
        for case in _cases(name, 300, lambda rng, name=name: _pedro_case(rng, name)):
            sizes = _sizes(case.hands)
            seen.add(case.game)
            seen.add(("pedro-k", len(case.played.split())))
            seen.add(("pedro-unequal", len(set(sizes)) > 1))
            seen.add(("pedro-empty seat", 0 in sizes))
            seen.add(("pedro-empty leader", sizes[case.leader] == 0 and not case.played))
    for case in _cases("rook", 300, _rook_case):
        seen.add(case.game.split("(")[0] + ("-nt" if case.trump in (None, "NT") else ""))
        seen.add(("rook-k", len(case.played.split())))
        for flag in (
            "rook_free_play=True",
            "points=parker_adapt",
            "points=no_last_trick_bonus",
            "rook_rank=highest_trump",
            "rook_rank=above",
        ):
            if flag in case.game:
                seen.add(flag)
    for kind in KING_KINDS:
        for case in _cases(f"king-{kind}", 40, lambda rng, kind=kind: _king_case(rng, kind)):
            seen.add(("king", kind, case.game))
            seen.add(("king-trick", 14 - max(_sizes(case.hands))))  # the current trick's number
            seen.add(("side", case.side))
    wanted = [
        "pedro",
        "cinch",
        "pedro(low_to=holder)",
        "pedro(high_low_def=highest_lowest_in_play)",
        "cinch(trump_while_able_to_follow=forbidden)",
        *(("pedro-k", k) for k in range(4)),
        ("pedro-unequal", True),
        ("pedro-empty seat", True),
        ("pedro-empty leader", True),
        "rook",
        "rook-nt",
        *(("rook-k", k) for k in range(4)),
        "rook_free_play=True",
        "points=parker_adapt",
        "points=no_last_trick_bonus",
        "rook_rank=highest_trump",
        "rook_rank=above",
        *(("king", kind, "king") for kind in KING_KINDS if kind != "positive_no_trump"),
        *(
            ("king", kind, "king(kh_force=when_void_or_ace_already_played)")
            for kind in KING_KINDS
            if kind != "positive_no_trump"
        ),
        ("king", "positive_no_trump", "king(allow_no_trump=True)"),
        *(("king-trick", n) for n in (11, 12, 13)),
        *(("side", s) for s in (None, 0, 1, 2, 3)),
    ]
    missing = [w for w in wanted if w not in seen]
    assert not missing, missing


def test_bad_positions_raise_value_error():
    with pytest.raises(ValueError):
        solve("pedro", "AS/AS/-/-", trump="S")  # a card twice
    with pytest.raises(ValueError):
        solve("rook", "AS KS/2S/3C/4D", trump="H")  # unequal Rook hands
    with pytest.raises(ValueError):
        solve("king", "AS/2S/3S/4S", contract="no_such_contract")
