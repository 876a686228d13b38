"""What a King seat's plays show the searching players of its hand: the card, the void
not following shows, and the cards the rules' forced plays show it lacks (a heart led
under the heart-lead ban, the K♥ kept back). ``engine.play_hand`` records every card of a
hand with a searching seat here, so that pimc's worlds keep what the seat may know.

May import: the foundations, ``games.search`` (its workspace) and King's rules and
policies (their card masks); never the engine or another game.
"""

from __future__ import annotations

from numba import njit

from ...bits import ZERO, bit
from ..search import setup as workspace
from .policies import AH, HEARTS, KH, LANE
from .rules import NO_HEARTS, NO_KING_OF_HEARTS


@njit(cache=True)
def shown_lacking(c, led_suit, trick, contract, kh_force_ace):
    """The cards a seat shows it lacks by playing ``c`` to ``trick`` (``led_suit`` -1: it
    leads) under ``contract``, beyond the void in the led suit that not following shows
    (``search.setup.note_play``): what ``engine.legal_moves`` would have forced, had the seat
    held it, and it did not play. pimc's worlds must not deal it those cards.

    * A heart led under the heart-lead ban (no hearts, no K♥: docs/rules.md §3.3; never
      lifted in the hand) comes from a hand of hearts only: it lacks every other card.
    * In the K♥ contract a seat that cannot follow must play the K♥ if it holds it
      (§3.3, the K♥ rule), and under ``kh_force_ace`` also one that follows a heart lead
      once the A♥ is in the trick: playing another card there shows it lacks the K♥.

    No other play is forced: a void seat may discard anything else (a heart need not go in
    the no-hearts hand), and in a positive hand it need not trump (§3.2, §3.4).
    """
    if led_suit < 0:
        if contract & (NO_HEARTS | NO_KING_OF_HEARTS) and bit(c) & HEARTS:
            return ~HEARTS  # it held no other suit
        return ZERO
    if contract & NO_KING_OF_HEARTS and not bit(c) & KH:
        if c >> 4 != led_suit:
            return KH  # void, and the K♥ not thrown
        if kh_force_ace and led_suit == 2 and trick & AH:
            return KH  # followed hearts under the A♥ with another heart
    return ZERO


@njit(cache=True, inline="always")
def record_card(ws, pos, seat, c, led_suit, trick, contract, kh_force_ace):
    """Tell the searching players that ``seat`` played ``c`` at position ``pos`` of ``trick``
    (the cards before it; ``led_suit`` -1: it leads): the card, the void not following shows
    (``search.setup.record_play``) and the cards the rules' forced plays show it lacks
    (:func:`shown_lacking`). Called for every card of a hand with a searching seat."""
    led = ZERO if led_suit < 0 else LANE[led_suit]
    workspace.record_play(ws, pos, seat, c, led, ws[workspace.WS_Q])
    kn = ws[workspace.WS_KN]
    kn[workspace.KN_FORBID + seat] |= shown_lacking(c, led_suit, trick, contract, kh_force_ace)
