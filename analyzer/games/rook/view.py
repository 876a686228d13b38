"""One Rook hand as text, trick by trick, from a :func:`rook.play_logged` log.

The same layout as :mod:`analyzer.games.pedro.view`: seats 0..3 clockwise,
labelled N, E, S, W; team 0 is seats 0 and 2 (N-S), team 1 seats 1 and 3 (E-W).
Cards print as rank + suit with ``T`` for the ten and ``JK`` for the Rook; hands
sort spades, hearts, diamonds, clubs, high to low, with the Rook in a column of
its own. Card points follow the log's ``points`` scheme (the log format is
``tests/reference/ROOK_LOG_FORMAT.md``).

>>> from analyzer.games import rook
>>> log = rook.play_logged(rook.PRESETS["rook"], 3, [0])[0]
>>> render_hand(log, seed=3, policy="heuristic").splitlines()[0]
'Hand 0 of seed 3: rook, policy heuristic'

May import: the foundations, the generic analyses and views, ``games.common`` and
``games.protocol``, and Rook's own modules; never another game.
"""

from __future__ import annotations

from ...cards import RANKS, SUIT_NAMES, SUITS
from ...deal_view import Seats, cards_text, dealt_hands_table, signed
from ...text import render_table
from ..common import policy_label
from .rules import POINT_SCHEMES

ROOK = "JK"
DIRECTION_TEXT = {"left": "left: seat p gives 3 cards to seat p+1",
                  "right": "right: seat p gives 3 cards to seat p-1"}
FIRST_LEAD_TEXT = {"declarer_chooses": "the declarer's choice of himself or his left",
                   "declarer": "the declarer leads", "left_of_declarer": "left of the declarer"}


def card_points(card: str, points: str) -> int:
    """Points of one card under the scheme ``points``: ``card_points("AS", "princeton") == 15``."""
    ranks, rook, _last, _low = POINT_SCHEMES[points]
    return rook if card == ROOK else ranks[RANKS.index(card[0])]


def render_hand(log: dict, seed: int, policy: str, rules: str | None = None,
                labels: bool = True) -> str:
    """Text of one logged hand: deal, auction, widow and drop, passing, every trick, result."""
    seat = Seats(labels)
    flags = log["rules"]
    scheme = flags["points"]
    _ranks, _rook, last_bonus, _low = POINT_SCHEMES[scheme]
    dealer = log["dealer"]
    declarer = log["declarer"]
    team = declarer & 1
    res = log["result"]
    out: list[str] = []
    add = out.append

    name = rules or flags["game"]
    add(f"Hand {log['index']} of seed {seed}: {name}, policy {policy_label(policy)}")
    add(f"Dealer: seat {seat(dealer)}; eldest: seat {seat((dealer + 1) % 4)}; "
        f"hand index {log['hand_index']}. "
        f"Teams: 0 = seats 0, 2{' (N-S)' if labels else ''}; "
        f"1 = seats 1, 3{' (E-W)' if labels else ''}.")
    if log["redeals"]:
        add(f"Thrown in and redealt {log['redeals']} time(s); the final deal is shown.")

    add("")
    add("Dealt hands")
    add(dealt_hands_table(log["hands"], seat, joker=ROOK))
    add(f"  widow: {log['widow']}")

    add("")
    add("Auction, eldest first")
    rows = [[k, seat(s), "pass" if b == 0 else str(b)]
            for k, (s, b) in enumerate(log["auction"], start=1)]
    if rows:
        add(render_table(["call", "seat", "bid"], rows, "rll", indent="  "))
    else:
        add("  (no calls logged)")
    if log["forced"]:
        add(f"  The first three passed: the dealer, seat {seat(declarer)} (team {team}), "
            f"is declarer at {log['bid']} (forced).")
    else:
        add(f"  Declarer: seat {seat(declarer)} (team {team}) at {log['bid']} (not forced).")

    add("")
    add("Widow and drop")
    drop = log["drop"]
    drop_to = ("the declarer's team" if flags["drop_points_to"] == "declarer_team"
               else "the team that wins the last trick")
    itself = " (the widow itself)" if drop == log["widow"] else ""
    add(f"  Seat {seat(declarer)} takes the widow ({log['widow']}) and drops {drop}{itself}: "
        f"{card_points(drop, scheme)} points, to {drop_to} (team {res['drop_team']}).")

    add("")
    direction = log["direction"]
    if direction == "none" or not any(log["passed"]):
        add("Passing: none this hand")
        rows = [[seat(s), cards_text(log["start_hands"][s])] for s in range(4)]
        add(render_table(["seat", "plays with"], rows, "ll", indent="  "))
    else:
        add(f"Passing, {DIRECTION_TEXT[direction]}")
        step = 1 if direction == "left" else -1
        rows = [[seat(s), cards_text(log["passed"][s]), seat((s + step) % 4),
                 cards_text(log["passed"][(s - step) % 4]), cards_text(log["start_hands"][s])]
                for s in range(4)]
        add(render_table(["seat", "passes", "to", "receives", "plays with"], rows, "lllll",
                         indent="  "))

    add("")
    trump = log["trump"]
    if trump == "N":
        add(f"Trump: no trump (N), called by seat {seat(declarer)}: the Rook is the only trump.")
    else:
        add(f"Trump: {SUIT_NAMES[SUITS.index(trump)]} ({trump}), called by seat "
            f"{seat(declarer)}; the Rook ranks {flags['rook_rank']}.")
    add(f"First lead: seat {seat(log['leader'])} ({FIRST_LEAD_TEXT[flags['first_lead']]}).")

    add("")
    add("Play (* marks the card that wins the trick)")
    rows = []
    in_tricks = [0, 0]
    n_tricks = len(log["tricks"])
    for t, trick in enumerate(log["tricks"], start=1):
        win = trick["winner"]
        best = next(c for s, c in trick["plays"] if s == win)
        plays = "  ".join(f"{seat.short(s)} {c}{'*' if c == best else ' '}"
                          for s, c in trick["plays"])
        pts = sum(card_points(c, scheme) for _, c in trick["plays"])
        in_tricks[win & 1] += pts
        shown = f"{pts} + {last_bonus} last trick" if t == n_tricks and last_bonus else str(pts)
        rows.append([t, seat(trick["leader"]), plays.rstrip(), seat(win), shown])
    add(render_table(["trick", "leader", "cards in play order", "winner", "points in it"],
                     rows, "rlllr", indent="  "))

    add("")
    add("Result")
    drop_pts = card_points(drop, scheme)
    rows = []
    for tm in (0, 1):
        dropped = drop_pts if res["drop_team"] == tm else 0
        last = last_bonus if res["last_trick_team"] == tm else 0
        rows.append([f"team {tm}{' (declarer)' if tm == team else ''}", in_tricks[tm], dropped,
                     last, res["points"][tm], signed(res["score"][tm])])
    add(render_table(["", "in tricks", "dropped card", "last trick", "points", "score"], rows,
                     "lrrrrr", indent="  "))
    for tm in (0, 1):
        counted = rows[tm][1] + rows[tm][2] + rows[tm][3]
        if counted != res["points"][tm]:
            add(f"  (the cards above add up to {counted} for team {tm}, the log says "
                f"{res['points'][tm]})")
    took = res["points"][team]
    verdict = "made" if res["made"] else "set"
    add(f"  Seat {seat(declarer)} (team {team}) bid {log['bid']} and its side took {took}: "
        f"{verdict}.")
    add(f"  Score: team 0 {signed(res['score'][0])}, team 1 {signed(res['score'][1])}.")
    return "\n".join(out)
