"""One Pedro/Cinch deal as text, trick by trick, from a :func:`pedro.play_logged` log.

Seats are 0..3 clockwise, labelled N, E, S, W; team 0 is seats 0 and 2 (N-S),
team 1 seats 1 and 3 (E-W). Cards print as rank + suit with ``T`` for the ten
(``"TD"``), hands in the order people sort them: spades, hearts, diamonds,
clubs, high to low within each suit.

>>> from analyzer.games import pedro
>>> log = pedro.play_logged(pedro.parse_rules("pedro"), 1, [0])[0]
>>> render_deal(log, seed=1, policy="heuristic").splitlines()[0]
'Deal 0 of seed 1: pedro, policy heuristic'

May import: the foundations, the generic analyses and views, ``games.common`` and
``games.protocol``, and Pedro's own modules; never another game.
"""

from __future__ import annotations

from ...cards import SUIT_NAMES, SUITS
from ...deal_view import Seats, cards_text, dealt_hands_table, signed
from ...text import render_table
from ..common import policy_label

ELEMENT_NAMES = {"high": "High", "low": "Low", "jack": "Jack", "game": "Game",
                 "right_pedro": "Right Pedro", "left_pedro": "Left Pedro"}
ELEMENT_VALUES = {"high": 1, "low": 1, "jack": 1, "game": 1, "right_pedro": 5, "left_pedro": 5}
_TRUMP_ORDER = "AKQJT9876"  # then the Right Pedro, the Left Pedro, 4, 3, 2


def trump_order(trump: str) -> list[str]:
    """The 14 trumps from highest to lowest: ``trump_order("D")[9:11] == ["5D", "5H"]``."""
    left = SUITS[3 - SUITS.index(trump)]  # the other suit of the same colour
    return [r + trump for r in _TRUMP_ORDER] + ["5" + trump, "5" + left] + [
        r + trump for r in "432"
    ]


def element_cards(log: dict) -> dict[str, str | None]:
    """The card that carries each scoring element of the logged deal (None: no such card)."""
    trump = log["trump"]
    order = trump_order(trump)
    if log["rules"]["high_low_def"] == "fixed_a_and_2":
        high, low = "A" + trump, "2" + trump
    else:
        in_play = {c for hand in log["start_hands"] for c in hand}
        held = [c for c in order if c in in_play]
        high, low = (held[0], held[-1]) if held else (None, None)
    return {"high": high, "low": low, "jack": "J" + trump, "game": "T" + trump,
            "right_pedro": order[9], "left_pedro": order[10]}


def _team(t: int | None) -> str:
    return "-" if t is None else f"team {t}"


def render_deal(log: dict, seed: int, policy: str, rules: str | None = None,
                labels: bool = True) -> str:
    """Text of one logged deal: hands, bidding, draw, every trick, points and settlement."""
    seat = Seats(labels)
    dealer = log["dealer"]
    trump = log["trump"]
    trump_name = SUIT_NAMES[SUITS.index(trump)]
    elements = element_cards(log)
    card_element = {c: e for e, c in elements.items() if c is not None}
    out: list[str] = []
    add = out.append

    name = rules or log["rules"]["game"]
    add(f"Deal {log['index']} of seed {seed}: {name}, policy {policy_label(policy)}")
    add(f"Dealer: seat {seat(dealer)}; eldest: seat {seat((dealer + 1) % 4)}. "
        f"Teams: 0 = seats 0, 2{' (N-S)' if labels else ''}; "
        f"1 = seats 1, 3{' (E-W)' if labels else ''}.")
    if log["redeals"]:
        add(f"Thrown in and redealt {log['redeals']} time(s); the final deal is shown.")

    add("")
    add("Dealt hands")
    add(dealt_hands_table(log["hands"], seat))
    add(f"  stock, top first: {' '.join(log['stock'])}")

    add("")
    add("Bidding, eldest first")
    rows = []
    for k, b in enumerate(log["bids"]):
        s = (dealer + 1 + k) % 4
        rows.append([seat(s), "pass" if b == 0 else str(b)])
    add(render_table(["seat", "bid"], rows, "ll", indent="  "))
    if log["bidder"] is None:
        add(f"  All passed: no contract; the dealer, seat {seat(dealer)}, names trump.")
        maker = dealer
    else:
        maker = log["bidder"]
        add(f"  Contract: seat {seat(maker)} (team {maker & 1}) bids {log['bid']}.")
    add(f"  Trump: {trump_name} ({trump}), named by seat {seat(maker)}.")

    add("")
    add("Discard and draw, eldest first: the others draw off the top, the dealer robs the rest")
    dead_by = {s: [c for d, c in log["dead"] if d == s] for s in range(4)}
    # non-dealers take cards off the top, shown in that order; the dealer robs in any order
    drew = [cards_text(d) if s == dealer else " ".join(d) or "-"
            for s, d in enumerate(log["drawn"])]
    rows = [[seat(s), cards_text(log["kept"][s]), drew[s], cards_text(dead_by[s]),
             cards_text(log["start_hands"][s])] for s in ((dealer + 1 + k) % 4 for k in range(4))]
    add(render_table(["seat", "kept", "drew", "dead", "plays with"], rows, "lllll",
                     indent="  "))
    add(f"  left in the stock, out of play: {cards_text(log['stock_left'])}")

    add("")
    add("Play (* marks the card that wins the trick)")
    rows = []
    where: dict[str, str] = {}
    for t, trick in enumerate(log["tricks"], start=1):
        win = trick["winner"]
        best = next(c for s, c in trick["plays"] if s == win)
        plays = "  ".join(f"{seat.short(s)} {c}{'*' if c == best else ' '}"
                          for s, c in trick["plays"])
        if trick["dumps"]:
            plays += "  dumped: " + " ".join(f"{seat.short(s)} {c}" for s, c in trick["dumps"])
        taken = [c for _, c in trick["plays"] + trick["dumps"]]
        for c in taken:
            where[c] = f"trick {t}, won by seat {seat(win)}"
        points = ", ".join(ELEMENT_NAMES[card_element[c]] for c in taken if c in card_element)
        rows.append([t, seat(trick["leader"]), plays.rstrip(), seat(win), points or "-"])
    add(render_table(["trick", "leader", "cards in play order", "winner", "points in it"],
                     rows, "rllll", indent="  "))

    add("")
    add("Points")
    res = log["result"]
    for s, c in log["dead"]:
        where[c] = f"dead, discarded by seat {seat(s)}"
    for c in log["stock_left"]:
        where[c] = "left in the stock"
    holder = {c: s for s in range(4) for c in log["start_hands"][s]}
    rows = []
    for e, card in elements.items():
        place = where.get(card, "not in play") if card else "no trump in play"
        if e == "high" or (e == "low" and log["rules"]["low_to"] == "holder"):
            if card in holder:
                place = f"held by seat {seat(holder[card])}"
        rows.append([ELEMENT_NAMES[e], card or "-", ELEMENT_VALUES[e], place, _team(res[e])])
    add(render_table(["element", "card", "value", "where", "scored by"], rows, "llrll",
                     indent="  "))
    p0, p1 = res["points"]
    add(f"  team 0: {p0}   team 1: {p1}   dead: {res['dead_points']}   "
        f"(total {p0 + p1 + res['dead_points']})")

    add("")
    add("Result")
    if res["made"] is None:
        add("  No contract: each side scores what it took (settlement below).")
    else:
        took = res["points"][maker & 1]
        verdict = "made" if res["made"] else "set"
        add(f"  Seat {seat(maker)} (team {maker & 1}) bid {log['bid']} and its side took "
            f"{took}: {verdict}.")
    rows = [[f"method {m}", signed(res[f"score{m}"][0]), signed(res[f"score{m}"][1])]
            for m in (1, 2)]
    add(render_table(["settlement", "team 0", "team 1"], rows, "lrr", indent="  "))
    return "\n".join(out)

