"""King hands and whole King games as text, trick by trick, from :func:`king.play_logged` and
:func:`king.play_game_logged` logs.

The same layout as :mod:`analyzer.games.rook.view` and :mod:`analyzer.games.pedro.view`:
seats 0..3 clockwise, labelled N, E, S, W; hands sort spades, hearts, diamonds, clubs,
high to low. King is individual, so results have one row per seat. In a negative hand
each trick shows the penalty it carries (and the cards that make it); in a positive hand
the auction for the trump right comes call by call, then the sale, the decline (4-3-3-3)
or the dealer's own play, and the payment. The log format is
``tests/reference/KING_LOG_FORMAT.md``.

>>> from analyzer.games import king
>>> log = king.play_logged(king.PRESETS["king"], 1, [0], contract="positive")[0]
>>> render_hand(log, seed=1, policy="heuristic").splitlines()[0]
'Hand 0 of seed 1: king, policy heuristic'
>>> logs = king.play_game_logged(king.PRESETS["king"], 5, 0)
>>> render_game(logs, seed=5, policy="heuristic").splitlines()[0]
'Game 0 of seed 5: king, policy heuristic'

May import: the foundations, the generic analyses and views, ``games.common`` and
``games.protocol``, and King's own modules; never another game.
"""

from __future__ import annotations

from ...cards import SUIT_NAMES, SUITS
from ...deal_view import Seats, cards_text, dealt_hands_table, signed
from ...text import render_table
from ..common import policy_label
from .rules import CONTRACT_CODES, HAND_TOTALS, Rules

POSITIVE_NAME = "positive"
TRICK_POINTS = 25  # per trick in a positive hand
DECLINE_TRICKS = 4  # the dealer's credit on a decline; every other seat gets 3
PENALTY_TEXT = {
    "no_tricks": "-20 per trick taken",
    "no_hearts": "-20 per heart taken",
    "no_kings_jacks": "-30 per king or jack taken",
    "no_queens": "-50 per queen taken",
    "no_king_of_hearts": "-160 for taking the king of hearts",
    "last_two": "-90 for each of the last two tricks",
}
_CARD_PENALTIES = {  # contract -> (is a penalty card, points each)
    "no_hearts": (lambda c: c[1] == "H", 20),
    "no_kings_jacks": (lambda c: c[0] in "KJ", 30),
    "no_queens": (lambda c: c[0] == "Q", 50),
    "no_king_of_hearts": (lambda c: c == "KH", 160),
}
FIRST_LEAD_TEXT = {"dealer": "the dealer", "left_of_dealer": "the dealer's left",
                   "trump_chooser": "the trump chooser"}


def _parts(contract: str) -> list[str]:
    return contract.split("+")


def hand_total(contract: str) -> int:
    """What every hand of a contract sums to: ``hand_total("no_hearts") == -260``."""
    return sum(HAND_TOTALS[CONTRACT_CODES[p]] for p in _parts(contract))


def _has_card_penalties(contract: str) -> bool:
    return any(p in _CARD_PENALTIES for p in _parts(contract))


def trick_penalty(contract: str, t: int, n_tricks: int, cards: list[str]) -> tuple[list[str], int]:
    """The penalty cards in trick ``t`` (1-based, of ``n_tricks``) of a negative contract and
    the trick's penalty (<= 0): ``trick_penalty("no_queens", 1, 13, ["QS", "2S", "QH", "AS"])
    == (["QS", "QH"], -100)``."""
    hit: list[str] = []
    pts = 0
    for part in _parts(contract):
        if part == "no_tricks":
            pts -= 20
        elif part == "last_two":
            pts -= 90 if t > n_tricks - 2 else 0
        elif part in _CARD_PENALTIES:
            test, each = _CARD_PENALTIES[part]
            mine = [c for c in cards if test(c)]
            pts -= each * len(mine)
            hit += [c for c in mine if c not in hit]
    return hit, pts


def _trump_text(trump: str) -> str:
    return "no trump (N)" if trump == "N" else f"{SUIT_NAMES[SUITS.index(trump)]} ({trump})"


def _rules_name(flags: dict) -> str:
    return str(Rules(**flags))


def _auction_rows(log: dict, seat: Seats) -> tuple[list[list], int, int | None, str | None]:
    """Rows of the auction table, and the best offer, its holder and the dealer's last answer."""
    dealer = log["dealer"]
    ascending = log["rules"]["auction_model"] == "ascending_with_priority"
    high, holder, answer = 0, None, None
    rnd, in_round = 1, 0
    rows = []
    for k, (s, act) in enumerate(log["auction"], start=1):
        if s == dealer:
            answer = act
            who = f" from {seat.short(holder)}" if holder is not None else ""
            shown = f"{act}s {high}{who}"
            if not ascending:  # the shortcut's dealer answers a price, not the best offer
                shown = (f"accepts a price of {log.get('price') or high}{who}" if act == "accept"
                         else f"refuses to sell{who}")
        else:
            if in_round == 3:
                rnd, in_round = rnd + 1, 0
            in_round += 1
            if act == 0:
                shown = "pass"
            else:
                shown = f"offers {act}"
                # an equal offer is legal only with priority ("pela mão") in the ascending model
                if act > high or (ascending and act == high):
                    high, holder = act, s
        if s == dealer:
            in_round = 3  # the next offer opens a new round
        standing = "-" if holder is None else f"{high} by {seat.short(holder)}"
        rows.append([k, rnd, seat(s), shown, standing])
    return rows, high, holder, answer


def _trick_rows(log: dict, seat: Seats, negative: bool) -> tuple[list[list], list[list[str]]]:
    """Rows of the play table, and the penalty cards each seat took (negative hands)."""
    contract = log["contract"]
    n = len(log["tricks"])
    rows = []
    taken: list[list[str]] = [[], [], [], []]
    for t, trick in enumerate(log["tricks"], start=1):
        win = trick["winner"]
        best = next(c for s, c in trick["plays"] if s == win)
        plays = "  ".join(f"{seat.short(s)} {c}{'*' if c == best else ' '}"
                          for s, c in trick["plays"])
        row = [t, seat(trick["leader"]), plays.rstrip(), seat(win)]
        if negative:
            hit, pts = trick_penalty(contract, t, n, [c for _, c in trick["plays"]])
            taken[win] += hit
            if _has_card_penalties(contract):
                row.append(cards_text(hit))
            row.append(str(pts) if pts else "-")
        rows.append(row)
    return rows, taken


def _check(out: list[str], seat: Seats, counted: list[int], points: list[int], what: str):
    for s in range(4):
        if counted[s] != points[s]:
            out.append(f"  ({what} add up to {counted[s]} for seat {seat(s)}, the log says "
                       f"{points[s]})")


def render_hand(log: dict, seed: int, policy: str, rules: str | None = None,
                labels: bool = True) -> str:
    """Text of one logged King hand: deal, auction and trump (positive hands), every trick
    with its winner (and penalty), and each seat's tricks and points."""
    seat = Seats(labels)
    flags = log["rules"]
    contract = log["contract"]
    positive = contract == POSITIVE_NAME
    dealer = log["dealer"]
    res = log["result"]
    points = res["points"]
    out: list[str] = []
    add = out.append

    name = rules or _rules_name(flags)
    if log["hand_no"] > 0:
        n_hands = len(Rules(**flags).contracts)
        add(f"Game {log['index']} of seed {seed}, hand {log['hand_no']} of {n_hands}: {name}, "
            f"policy {policy_label(policy)}")
    else:
        add(f"Hand {log['index']} of seed {seed}: {name}, policy {policy_label(policy)}")
    total = hand_total(contract)
    if positive:
        add(f"Contract: positive, +{TRICK_POINTS} per trick (hand total {signed(total)}); "
            f"the dealer is the benefited and may sell the right to name trump.")
    else:
        parts = _parts(contract)
        rules_text = (f", {PENALTY_TEXT[contract]}" if len(parts) == 1 else
                      ": " + "; ".join(f"{p} {PENALTY_TEXT[p]}" for p in parts))
        add(f"Contract: {contract}{rules_text} (hand total {total}).")
        if {"no_hearts", "no_king_of_hearts"} & set(_parts(contract)):
            add("  A heart may be led only by a player holding nothing but hearts.")
        if "no_king_of_hearts" in _parts(contract):
            also = (" or when hearts are led and the A of hearts is already in the trick"
                    if flags["kh_force"] == "when_void_or_ace_already_played" else "")
            add(f"  The holder of the K of hearts must play it when void in the led suit{also}.")
    add(f"Dealer: seat {seat(dealer)}; dealer's left: seat {seat((dealer + 1) % 4)}.")

    add("")
    add("Dealt hands")
    add(dealt_hands_table(log["hands"], seat))

    outcome = log["outcome"]
    if positive:
        add("")
        if flags["auction_model"] == "valuation_shortcut":
            add("Auction for the trump right (valuation shortcut: one sealed offer each, "
                "then the dealer's answer)")
        else:
            add("Auction for the trump right (rounds from the dealer's left; the dealer "
                "answers a round with a new offer)")
        rows, high, holder, answer = _auction_rows(log, seat)
        if rows:
            add(render_table(["call", "round", "seat", "call", "standing"], rows, "rrlll",
                             indent="  "))
        else:
            add("  (no calls logged)")
        best = ("no opponent made an offer" if holder is None
                else f"the best offer was {high} by seat {seat(holder)}")
        if outcome == "sell":
            add(f"  Sold: seat {seat(log['buyer'])} buys the trump right for {log['price']} "
                f"trick(s), paid to the dealer, seat {seat(dealer)}, after the play.")
        elif outcome == "decline":
            refused = "" if holder is None else " and the dealer refused it"
            add(f"  Declined (4-3-3-3): {best}{refused}. No play: {DECLINE_TRICKS} tricks "
                f"to the dealer, seat {seat(dealer)}, 3 to each other seat.")
        else:
            refused = "" if holder is None or answer != "refuse" else ", refused"
            add(f"  Played: {best}{refused}. The dealer, seat {seat(dealer)}, names trump; "
                f"no payment.")

    add("")
    if outcome == "decline":
        add("Play: none (the hand was declined).")
    else:
        if positive:
            chooser = log["chooser"]
            who = "the buyer" if outcome == "sell" else "the dealer"
            led = ": the led suit always wins" if log["trump"] == "N" else ""
            add(f"Trump: {_trump_text(log['trump'])}, named by seat {seat(chooser)} ({who}){led}.")
            lead_flag = flags["pos_leader"]
        else:
            lead_flag = flags["first_lead"]
        add(f"First lead: seat {seat(log['leader'])} ({FIRST_LEAD_TEXT[lead_flag]}).")
        add("")
        add("Play (* marks the card that wins the trick)")
        rows, taken = _trick_rows(log, seat, not positive)
        headers = ["trick", "leader", "cards in play order", "winner"]
        if not positive:
            if _has_card_penalties(contract):
                headers.append("penalty cards")
            headers.append("penalty")
        align = "rlll" if positive else "rlll" + "l" * (len(headers) - 5) + "r"
        add(render_table(headers, rows, align, indent="  "))

    add("")
    add("Result")
    won = res["tricks"]
    if not positive:
        headers = ["seat", "tricks"]
        if _has_card_penalties(contract):
            headers.append("penalty cards taken")
        headers.append("points")
        rows = []
        for s in range(4):
            row = [seat(s), won[s]]
            if _has_card_penalties(contract):
                row.append(cards_text(taken[s]))
            rows.append(row + [signed(points[s])])
        align = "lr" + "l" * (len(headers) - 3) + "r"
        add(render_table(headers, rows, align, indent="  "))
        counted = [0, 0, 0, 0]
        n = len(log["tricks"])
        for t, trick in enumerate(log["tricks"], start=1):
            counted[trick["winner"]] += trick_penalty(contract, t, n,
                                                      [c for _, c in trick["plays"]])[1]
        _check(out, seat, counted, points, "the trick penalties above")
    elif outcome == "decline":
        credited = [DECLINE_TRICKS if s == dealer else 3 for s in range(4)]
        rows = [[seat(s), "dealer" if s == dealer else "-", credited[s], signed(points[s])]
                for s in range(4)]
        add(render_table(["seat", "role", "tricks credited", "points"], rows, "llrr",
                         indent="  "))
        _check(out, seat, [TRICK_POINTS * c for c in credited], points, "the credited tricks")
    else:
        buyer = log["buyer"]
        pay = 0
        if outcome == "sell":
            pay = log["price"]
            if flags["payment_floor"] == "zero":
                pay = min(pay, won[buyer])
        after = [won[s] + (pay if s == dealer else -pay if s == buyer else 0) for s in range(4)]
        rows = []
        for s in range(4):
            role = ", ".join(r for r, who in (("dealer", dealer), ("buyer", buyer),
                                              ("names trump", log["chooser"])) if who == s)
            change = signed(after[s] - won[s]) if after[s] != won[s] else "-"
            rows.append([seat(s), role or "-", won[s], change, after[s], signed(points[s])])
        add(render_table(["seat", "role", "tricks", "payment", "counted", "points"], rows,
                         "llrrrr", indent="  "))
        _check(out, seat, [TRICK_POINTS * a for a in after], points, "the counted tricks")
        if outcome == "sell":
            add(f"  Payment: seat {seat(buyer)} pays {pay} trick(s) to the dealer, "
                f"seat {seat(dealer)}; {TRICK_POINTS} points per trick counted.")
            if pay != log["price"]:
                add(f"  (The price was {log['price']}: with payment_floor=zero the buyer pays "
                    f"no more than the {won[buyer]} trick(s) he took.)")
    listed = ", ".join(f"{seat(s)} {signed(points[s])}" for s in range(4))
    add(f"  Points: {listed} (total {signed(sum(points))}).")
    if sum(points) != total:
        add(f"  (every {contract} hand should sum to {total})")
    return "\n".join(out)


def _outcome_cell(log: dict, seat: Seats) -> str:
    outcome = log["outcome"]
    if log["contract"] != POSITIVE_NAME or outcome is None:
        return "-"
    if outcome == "decline":
        return "declined 4-3-3-3"
    trump = f"trump {log['trump']}"
    if outcome == "sell":
        return f"sold to {seat.short(log['buyer'])} for {log['price']}, {trump}"
    return f"played, {trump}"


def render_game(logs: list[dict], seed: int, policy: str, rules: str | None = None,
                labels: bool = True) -> str:
    """Text of one logged King game: a table of every hand's points with running totals,
    each hand in full (:func:`render_hand`), and the final totals, which sum to 0."""
    if not logs:
        raise ValueError("a game needs at least one hand log")
    seat = Seats(labels)
    first = logs[0]
    name = rules or _rules_name(first["rules"])
    out: list[str] = []
    add = out.append

    add(f"Game {first['index']} of seed {seed}: {name}, policy {policy_label(policy)}")
    finder = first.get("kh_finder")
    if finder is None or finder == first["dealer"]:
        found = f"the first dealer is seat {seat(first['dealer'])}" + (
            "" if finder is None else " (dealt the K♥)")
    else:
        found = (f"seat {seat(finder)} was dealt the K♥ and named seat {seat(first['dealer'])} "
                 f"first dealer")
    add(f"{len(logs)} hands; {found}, then each hand is dealt by the next seat clockwise.")

    add("")
    add("Points per hand, and running totals")
    running = [0, 0, 0, 0]
    rows = []
    for log in logs:
        pts = log["result"]["points"]
        running = [r + p for r, p in zip(running, pts, strict=True)]
        rows.append([log["hand_no"], log["contract"], seat(log["dealer"]),
                     _outcome_cell(log, seat)] + [signed(p) for p in pts]
                    + [signed(r) for r in running])
    rows.append(["", "total", "", ""] + [signed(r) for r in running] + [""] * 4)
    shorts = [seat.short(s) for s in range(4)]
    headers = ["hand", "contract", "dealer", "positive hand"] + shorts + [
        f"sum {s}" for s in shorts]
    add(render_table(headers, rows, "rlll" + "r" * 8, indent="  "))

    for log in logs:
        add("")
        add("-" * 72)
        add(render_hand(log, seed, policy, rules=name, labels=labels))

    add("")
    add("-" * 72)
    add("Final totals")
    listed = ", ".join(f"{seat(s)} {signed(running[s])}" for s in range(4))
    add(f"  {listed} (sum {signed(sum(running))}).")
    top = max(running)
    leaders = [seat(s) for s in range(4) if running[s] == top]
    add(f"  Highest: seat {' and seat '.join(leaders)} with {signed(top)}.")
    if sum(running) != 0:
        add("  (a King game should sum to 0)")
    return "\n".join(out)
