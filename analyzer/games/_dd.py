"""Double-dummy (perfect-information) alpha-beta search for every game, in numba.

One search serves Pedro/Cinch, Rook and King because each game is handed to
it in a *search layout* where a card's bit index orders it inside its suit:

* Pedro: the trump-normalised layout of ``_pedro_core`` (trumps in lane 3);
* Rook: the shared layout with the Rook moved into its place in the trump
  lane (ranks at or above ``rook_pos`` shift up one bit, see ``rook_layout``);
  at no trump the Rook stays at bit 63 and is the whole trump suit;
* King: the shared layout.

With ``TM`` the trump-suit mask, a card's *suit* is ``TM`` when it is a trump,
else its lane without ``TM``, and its power in a trick is ``100 + index`` for
trumps, its index for the led suit and -1 otherwise. A position's *value* is
what the maximising side (a seat mask: a partnership, or in King's paranoid
search one seat) takes in the remaining tricks: ``cpts[card]`` for every card
of a trick it wins plus ``tv[k]`` for winning the trick started when the
longest hand held ``k`` cards (Rook's last-trick bonus, King's per-trick and
last-two penalties). Every value of one position has one sign, so
``[0, remaining]`` (or ``[remaining, 0]``) bounds it.

The search is iterative over an explicit stack (``st``/``su``/``lst`` rows per
card played), so nothing is passed through recursive calls. Techniques:

* a transposition table probed and stored at trick boundaries with lower and
  upper bounds; its key is the four hands, the leader and the side, and its
  entries stay valid across solves with the same game parameters (callers bump
  the generation when those change); the key packs each hand into relative ranks
  with ``pext`` (one instruction where the CPU has a fast one);
* bounds at every trick start from the scoring trumps no trick can take from
  their side (above every trump the other side holds), kept through the trick;
* two tricks from the end, the first trick's lines are played in nested loops and
  the last trick plays itself (``_two_tricks``): no stack, no ordering, and the
  whole endgame counts as one node;
* equivalent cards: touching cards of one suit in one hand (no card of another
  hand or of the current trick between them) with the same point value are
  searched once;
* move ordering: cheapest winner first when winning is wanted, smearing points
  onto a partner's trick, otherwise the cheapest card; in King's penalty contracts
  the history heuristic first (the cards that caused cutoffs earlier in the deal);
* a node budget, so a pathological position returns "unsolved" instead of
  hanging.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

from ..bits import ONE, ZERO, bit, lsb, msb, pext, popcount, prefetch_row

# ---- game parameters (uint64 vector q) ----------------------------------------------------
# Q_TM trump suit mask; Q_FREE cards legal at any time (Rook's free Rook); Q_TRUMP_ANY 1 when
# a trump may be played while able to follow (Pedro); Q_BAN cards that may not be led while
# the hand holds others (King's hearts); Q_FORCE the card that must be played when void in
# the led suit (King's K♥), Q_ACE the card whose presence in a trick of Q_FORCE's suit also
# forces it (A♥ under kh_force=when_void_or_ace_already_played, else 0); Q_SIDE the seat mask
# of the maximising side.
Q_TM, Q_FREE, Q_TRUMP_ANY, Q_BAN, Q_FORCE, Q_ACE, Q_SIDE = range(7)
NQ = 7

# ---- per-ply stack fields ------------------------------------------------------------------
(F_SEAT, F_ALPHA, F_BETA, F_BEST, F_IDX, F_CNT, F_CARD, F_REWARD, F_LEADER, F_LEAD, F_BSEAT,
 F_BPOW, F_PTS, F_K, F_LO, F_HI, F_TT, F_A0, F_B0) = range(19)  # fmt: skip
NF = 19
U_TRICK, U_NEED, U_KEY = 0, 1, 2  # U_KEY .. U_KEY + 6: the TT key at a trick start
NU = U_KEY + 7
MAXPLY = 56
MAXMOVES = 16
TT_MIN_K = 2  # a trick started with one card a hand plays itself (see _last_trick)
# lst rows HIST + seat: cutoffs each card caused (the history heuristic), which orders the moves
# of King's penalty contracts, where the static order knows little (nine-card no-hearts deals:
# 207,345 nodes with it, 299,289 without). Where tricks and points are wanted the static order
# alone searches less (Pedro post-draw 22,929 nodes against 24,433, Rook nine cards 1.22 M
# against 1.23 M, King's positive hand 63,727 against 114,333).
HIST = MAXPLY
HIST_GEN = HIST + 4  # lst[HIST_GEN, 0]: the generation those counts belong to
NLST = HIST_GEN + 1  # rows of lst
HIST_SCALE = 1 << 12
INF = 1 << 30
NO_GUESS = -(1 << 40)

# ---- transposition table rows (uint64): the key (seven words) and the packed bounds ----------
# The key is the position in *relative ranks*: the cards still out are numbered 0, 1, ... in
# index order and each hand becomes the mask of its numbers, so positions that differ only in
# which lower cards are gone share an entry. With them: the numbers of the cards that score
# and their value classes, and a meta word (leader, side, cards out per lane, whether the
# top-ranked special cards are out, generation). Equal keys are positions equal up to renaming
# cards within a suit, with the same values and rules, hence of equal value.
K_VALUED, K_CLASSES, K_META = 4, 5, 6
T_BOUNDS = 7
NT = 8
BIAS = 1 << 20  # bounds are stored biased so they pack as unsigned

# ---- results (int64 vector res) --------------------------------------------------------------
RES_VALUE, RES_NODES, RES_SOLVED, RES_MOVER = 0, 1, 2, 3
NRES = 4
LANE = np.uint64(0xFFFF)


@njit(cache=True, inline="always")
def suit_mask(c, tm):
    """The suit ``c`` follows as: the trump suit, or its lane without the trumps."""
    b = bit(c)
    if b & tm:
        return tm
    return (LANE << np.uint64(16 * (c >> 4))) & ~tm


@njit(cache=True, inline="always")
def power(c, led, tm):
    b = bit(c)
    if b & tm:
        return 100 + c
    if b & led:
        return c
    return -1


@njit(cache=True, inline="always")
def legal(hand, led, trick, q):
    """Cards of ``hand`` playable when the led suit's mask is ``led`` (0: on the lead)."""
    if led == ZERO:
        ban = q[Q_BAN]
        if hand & ban and hand & ~ban:
            return hand & ~ban
        return hand
    follow = hand & led
    force = q[Q_FORCE]
    if follow == ZERO:
        if hand & force:
            return force
        return hand
    if hand & force and force & led and trick & q[Q_ACE]:
        return force
    tm = q[Q_TM]
    if q[Q_TRUMP_ANY] and led != tm:
        follow |= hand & tm
    return follow | (hand & q[Q_FREE])


@njit(cache=True, inline="always")
def between(a, b, suit):
    """Cards of ``suit`` strictly between indices a < b."""
    return ((ONE << np.uint64(b)) - (ONE << np.uint64(a + 1))) & suit


@njit(cache=True, inline="always")
def distinct_moves(moves, outside, tm, cpts):
    """``moves`` less the cards equivalent to a lower one: same suit, same points and no card
    of ``outside`` (other hands and the current trick) between them."""
    out = ZERO
    rest = moves
    while rest != ZERO:
        c = lsb(rest)
        suit = suit_mask(c, tm)
        group = rest & suit
        rest &= ~suit
        prev = -1
        while group != ZERO:
            x = lsb(group)
            group &= group - ONE
            if prev < 0 or cpts[x] != cpts[prev] or between(prev, x, suit) & outside:
                out |= bit(x)
            prev = x
    return out


@njit(cache=True, inline="always")
def _score(c, seat, led, bseat, bpow, tm, side, want_win, cpts):
    """Move-ordering score (higher first)."""
    if led == ZERO:  # leading: high cards when tricks are wanted, else low ones
        r = c & 15
        return r if want_win else -r
    pw = power(c, led, tm)
    beats = pw > bpow
    pts = cpts[c] if cpts[c] >= 0 else -cpts[c]
    if not want_win:
        return 3000 + 64 * pts + (c & 15) if not beats else 1000 - (c & 15)
    friend = bseat >= 0 and ((side >> np.uint64(bseat)) & ONE) == ((side >> np.uint64(seat)) & ONE)
    if friend:
        return 2000 + 64 * pts - (c & 15) if not beats else 500 - pw
    if beats:
        return 3000 - pw
    return 1000 - 64 * pts - (c & 15)


@njit(cache=True, inline="always")
def _last_trick(hands, need, leader, lead, bseat, bpow, pts, tm, cpts, tv, side):
    """The value of a last trick: every seat still to play has one card, so it plays itself."""
    for j in range(4):
        s = (leader + j) & 3
        if need & bit(s):
            c = lsb(hands[s])
            if lead < 0:
                lead = c
            pw = power(c, suit_mask(lead, tm), tm)
            if pw > bpow:
                bseat, bpow = s, pw
            pts += cpts[c]
    if (side >> np.uint64(bseat)) & ONE:
        return pts + tv[1]
    return 0


@njit(cache=True, inline="always")
def _above(c):
    """The cards above index ``c`` (every card when c is -1)."""
    if c < 0:
        return ~ZERO
    if c >= 63:
        return ZERO
    return ~((ONE << np.uint64(c + 1)) - ONE)


@njit(cache=True, inline="always")
def _points(cards, cpts):
    """The points of ``cards``."""
    total = 0
    while cards != ZERO:
        total += cpts[lsb(cards)]
        cards &= cards - ONE
    return total


@njit(cache=True, inline="always")
def _sure_bounds(hands, rem, negative, tm, side, valued, cpts):
    """Bounds (lo, hi) on a trick start's value, ``rem`` being everything still to be won,
    from the cards no trick can take from their side: scoring trumps above every trump the
    other side holds (whoever plays what, a trick holding one goes to its side)."""
    mine = ZERO
    theirs = ZERO
    for s in range(4):
        if (side >> np.uint64(s)) & ONE:
            mine |= hands[s]
        else:
            theirs |= hands[s]
    sure_mine = _points(mine & tm & valued & _above(msb(theirs & tm)), cpts)
    sure_theirs = _points(theirs & tm & valued & _above(msb(mine & tm)), cpts)
    if negative:
        return rem - sure_theirs, sure_mine
    return sure_mine, rem - sure_theirs


@njit(cache=True, inline="always")
def _ab(v, best, a, b, maxi):
    """One child's value into a node's (best, alpha, beta)."""
    if maxi:
        if v > best:
            best = v
        if best > a:
            a = best
    else:
        if v < best:
            best = v
        if best < b:
            b = best
    return best, a, b


@njit(cache=True, inline="always")
def _open(hands, seat, active, led, trick, q, maxi):
    """A follower's node in ``_two_tricks``: (its best so far, its legal cards, its number of
    lines: one, playing nothing, for a seat out of cards)."""
    best = -INF if maxi else INF
    if not active:
        return best, ZERO, 1
    moves = legal(hands[seat], led, trick, q)
    return best, moves, popcount(moves)


@njit(cache=True, inline="always")
def _follow(hands, seat, moves, led, tm, trick, win, pw):
    """``seat`` plays the lowest of ``moves`` to the trick: (the card, the moves left, the
    trick, its winning seat and that card's power)."""
    c = lsb(moves)
    hands[seat] &= ~bit(c)
    p = power(c, led, tm)
    if p > pw:
        win, pw = seat, p
    return c, moves & (moves - ONE), trick | bit(c), win, pw


@njit(cache=True, inline="always")
def _two_tricks(hands, leader, q, cpts, tv, side, alpha, beta):
    """Fail-soft alpha-beta value in (alpha, beta) of a trick start where no hand holds more
    than two cards: the first trick's (at most 16) lines in nested loops, one a seat, and the
    last trick played out; the loops are written out because a stack costs more than these
    few nodes. ``leader`` holds a card; ``hands`` is restored on return."""
    tm = q[Q_TM]
    s0, s1, s2, s3 = leader, (leader + 1) & 3, (leader + 2) & 3, (leader + 3) & 3
    act1, act2, act3 = hands[s1] != ZERO, hands[s2] != ZERO, hands[s3] != ZERO
    mx0 = ((side >> np.uint64(s0)) & ONE) == ONE
    mx1 = ((side >> np.uint64(s1)) & ONE) == ONE
    mx2 = ((side >> np.uint64(s2)) & ONE) == ONE
    mx3 = ((side >> np.uint64(s3)) & ONE) == ONE
    best0 = -INF if mx0 else INF
    a0, b0 = alpha, beta
    x0 = legal(hands[s0], ZERO, ZERO, q)
    while x0 != ZERO and a0 < b0:
        c0 = lsb(x0)
        led = suit_mask(c0, tm)
        c0, x0, t0, w0, p0 = _follow(hands, s0, x0, led, tm, ZERO, -1, -1)
        best1, x1, n1 = _open(hands, s1, act1, led, t0, q, mx1)
        a1, b1 = a0, b0
        for _ in range(n1):
            if a1 >= b1:
                break
            c1, t1, w1, p1 = -1, t0, w0, p0
            if act1:
                c1, x1, t1, w1, p1 = _follow(hands, s1, x1, led, tm, t0, w0, p0)
            best2, x2, n2 = _open(hands, s2, act2, led, t1, q, mx2)
            a2, b2 = a1, b1
            for _ in range(n2):
                if a2 >= b2:
                    break
                c2, t2, w2, p2 = -1, t1, w1, p1
                if act2:
                    c2, x2, t2, w2, p2 = _follow(hands, s2, x2, led, tm, t1, w1, p1)
                best3, x3, n3 = _open(hands, s3, act3, led, t2, q, mx3)
                a3, b3 = a2, b2
                for _ in range(n3):
                    if a3 >= b3:
                        break
                    c3, t3, w3 = -1, t2, w2
                    if act3:
                        c3, x3, t3, w3, _p3 = _follow(hands, s3, x3, led, tm, t2, w2, p2)
                    v = 0
                    if (side >> np.uint64(w3)) & ONE:
                        v = _points(t3, cpts) + tv[2]
                    need, _k = holders(hands)
                    if need != ZERO:
                        v += _last_trick(hands, need, w3, -1, -1, -1, 0, tm, cpts, tv, side)
                    if act3:
                        hands[s3] |= bit(c3)
                    best3, a3, b3 = _ab(v, best3, a3, b3, mx3)
                if act2:
                    hands[s2] |= bit(c2)
                best2, a2, b2 = _ab(best3, best2, a2, b2, mx2)
            if act1:
                hands[s1] |= bit(c1)
            best1, a1, b1 = _ab(best2, best1, a1, b1, mx1)
        hands[s0] |= bit(c0)
        best0, a0, b0 = _ab(best1, best0, a0, b0, mx0)
    return best0


@njit(cache=True, inline="always")
def _probe(tt, slot, key):
    """True when the slot holds the position of ``key`` (seven words)."""
    for w in range(7):
        if tt[slot, w] != key[w]:
            return False
    return True


@njit(cache=True, inline="always")
def _store(tt, slot, key, v, a0, b0):
    """Record ``v`` found with window (a0, b0) as bounds, merged with the slot's own when the
    slot holds the same position; otherwise the slot is replaced."""
    lo = -BIAS + 1
    hi = BIAS - 1
    if v <= a0:
        hi = v
    elif v >= b0:
        lo = v
    else:
        lo = v
        hi = v
    if _probe(tt, slot, key):
        b = tt[slot, T_BOUNDS]
        lo = max(lo, np.int64(b >> np.uint64(32)) - BIAS)
        hi = min(hi, np.int64(b & np.uint64(0xFFFFFFFF)) - BIAS)
    else:
        for w in range(7):
            tt[slot, w] = key[w]
    tt[slot, T_BOUNDS] = (np.uint64(lo + BIAS) << np.uint64(32)) | np.uint64(hi + BIAS)


@njit(cache=True, inline="always")
def _relative_key(hands, cls, vmask, specials, leader, side, gen, key):
    """Write the position's key (see the TT comment) into ``key``; return its hash. ``vmask``
    holds the cards that score."""
    out = hands[0] | hands[1] | hands[2] | hands[3]
    s0 = pext(hands[0], out)
    s1 = pext(hands[1], out)
    s2 = pext(hands[2], out)
    s3 = pext(hands[3], out)
    classes = ZERO
    nv = 0
    x = out & vmask
    while x != ZERO:
        classes |= np.uint64(cls[lsb(x)]) << np.uint64(3 * nv)
        nv += 1
        x &= x - ONE
    valued = pext(out & vmask, out)
    counts = ZERO
    for lane in range(4):
        counts |= np.uint64(popcount(out & (LANE << np.uint64(16 * lane)))) << np.uint64(5 * lane)
    meta = (np.uint64(leader) | (side << np.uint64(2)) | (counts << np.uint64(6))
            | (np.uint64(popcount(out & specials)) << np.uint64(26))
            | (np.uint64(gen) << np.uint64(29)))
    key[0] = s0
    key[1] = s1
    key[2] = s2
    key[3] = s3
    key[K_VALUED] = valued
    key[K_CLASSES] = classes
    key[K_META] = meta
    x = s0 * np.uint64(0x9E3779B97F4A7C15)
    x ^= s1 * np.uint64(0xC2B2AE3D27D4EB4F) + (x >> np.uint64(29))
    x ^= s2 * np.uint64(0x165667B19E3779F9) + (x >> np.uint64(31))
    x ^= valued * np.uint64(0xD6E8FEB86659FD93) + (x >> np.uint64(27))
    x ^= meta * np.uint64(0xFF51AFD7ED558CCD)
    x ^= x >> np.uint64(33)
    return x


@njit(cache=True)
def _fill_equivalents(hands, seat, trick_cards, n_played, q, cpts, out_vals):
    """Give the root's cards skipped as equivalent the value of the card they touch."""
    tm = q[Q_TM]
    trick = ZERO
    for j in range(n_played):
        trick |= bit(trick_cards[j])
    led = ZERO if n_played == 0 else suit_mask(trick_cards[0], tm)
    h = hands[seat]
    moves = legal(h, led, trick, q)
    outside = (hands[0] | hands[1] | hands[2] | hands[3] | trick) & ~h
    rest = moves
    while rest != ZERO:
        c = lsb(rest)
        rest &= rest - ONE
        if out_vals[c] > -INF:
            continue
        below = moves & suit_mask(c, tm) & ((ONE << np.uint64(c)) - ONE)
        x = msb(below)
        if x >= 0 and cpts[x] == cpts[c] and between(x, c, suit_mask(c, tm)) & outside == ZERO:
            out_vals[c] = out_vals[x]


@njit(cache=True, inline="always")
def holders(hands):
    """(the seats holding cards, as a mask; the most cards any seat holds)."""
    need = ZERO
    k_max = 0
    for s in range(4):
        n = popcount(hands[s])
        if n > 0:
            need |= bit(s)
        k_max = max(k_max, n)
    return need, k_max


@njit(cache=True)
def trick_state(hands, leader, trick_cards, trick_seats, n_played, tm, cpts):
    """The current trick replayed: (seats still to play, longest hand when it began, lead card,
    winning seat, its power, points in it)."""
    need, k_max = holders(hands)
    pts = 0
    lead = -1
    bseat, bpow = -1, -1
    for j in range(n_played):
        c = trick_cards[j]
        seat = trick_seats[j]
        if j == 0:
            lead = c
        pw = power(c, suit_mask(lead, tm), tm)
        if pw > bpow:
            bseat, bpow = seat, pw
        pts += cpts[c]
        need &= ~bit(seat)
        k_max = max(k_max, popcount(hands[seat]) + 1)  # it held one more when the trick began
    return need, k_max, lead, bseat, bpow, pts


@njit(cache=True)
def first_illegal(hands, trick_cards, trick_seats, n_played, q):
    """Index of the first card of the current trick its seat could not have played holding
    its present hand plus that card (-1: all legal)."""
    tm = q[Q_TM]
    trick = ZERO
    for j in range(n_played):
        c = trick_cards[j]
        led = ZERO if j == 0 else suit_mask(trick_cards[0], tm)
        if not legal(hands[trick_seats[j]] | bit(c), led, trick, q) & bit(c):
            return j
        trick |= bit(c)
    return -1


@njit(cache=True)
def first_to_play(need, leader):
    """The seat to move: the first seat still to play, clockwise from the leader (-1: none)."""
    for j in range(4):
        seat = (leader + j) & 3
        if need & bit(seat):
            return seat
    return -1


@njit(cache=True)
def remaining(hands, trick_cards, n_played, k_max, cpts, tv):
    """Everything still to be won: the cards in hands and trick, and the tricks' own values."""
    total = 0
    for k in range(1, k_max + 1):
        total += tv[k]
    for j in range(n_played):
        total += cpts[trick_cards[j]]
    return total + _points(hands[0] | hands[1] | hands[2] | hands[3], cpts)


# Contiguous arrays only: with layout "A" every row access multiplies by a stride read at run
# time, which cost the search 18%.
_V = types.Array(types.int64, 1, "C")
_U = types.Array(types.uint64, 1, "C")
_SEARCH_SIG = types.void(
    _U, types.int64, _V, _V, types.int64, _U, _V, _V, types.Array(types.uint64, 2, "C"),
    types.int64, types.Array(types.int64, 2, "C"), types.Array(types.uint64, 2, "C"),
    types.Array(types.int64, 2, "C"), types.int64, types.int64, types.int64, _V,
)


@njit(_SEARCH_SIG, cache=True)
def search(hands, leader, trick_cards, trick_seats, n_played, q, cpts, tv, tt, gen, st, su, lst,
           alpha0, beta0, max_nodes, res):
    """Alpha-beta value of the position inside the window (alpha0, beta0), fail-soft.

    The position is ``hands`` (four masks, restored on return), the current trick's leader
    and its first ``n_played`` cards and their seats in play order. ``res`` gets the value,
    the node count, 1 when solved within ``max_nodes`` and the seat to move.
    """
    tm = q[Q_TM]
    side = q[Q_SIDE]
    negative = False
    for c in range(64):
        if cpts[c] < 0:
            negative = True
    for k in range(tv.shape[0]):
        if tv[k] < 0:
            negative = True
    want_win = not negative
    tv_upto = np.zeros(tv.shape[0], dtype=np.int64)  # tv[1] + ... + tv[k]
    for k in range(1, tv.shape[0]):
        tv_upto[k] = tv_upto[k - 1] + tv[k]
    valued = ZERO
    for c in range(64):
        if cpts[c] != 0:
            valued |= bit(c)
    size_mask = np.uint64(tt.shape[0] - 1)
    # value classes 1..7 of the scoring cards, for the relative-rank key
    cls = np.zeros(64, dtype=np.int64)
    values = np.zeros(8, dtype=np.int64)
    n_cls = 0
    for c in range(64):
        if cpts[c] != 0:
            k = 1
            while k <= n_cls and values[k] != cpts[c]:
                k += 1
            if k > n_cls:
                n_cls = min(n_cls + 1, 7)  # more than 7 values cannot occur in these games
                k = n_cls
                values[k] = cpts[c]
            cls[c] = k
    specials = q[Q_ACE] | (ONE << np.uint64(63))  # A♥ and Rook: rules name them, not ranks

    # The history counts live as long as the table's generation (a deal, or one solve): kept
    # longer, they would carry over from whatever was solved before, so whether a solve fits
    # its node budget, and the play that follows, would depend on the run's chunking.
    if lst[HIST_GEN, 0] != gen:
        lst[HIST:HIST_GEN, :] = 0
        lst[HIST_GEN, 0] = gen
    need, k_max, lead, bseat, bpow, pts = trick_state(hands, leader, trick_cards, trick_seats,
                                                      n_played, tm, cpts)
    trick = ZERO
    for j in range(n_played):
        trick |= bit(trick_cards[j])
    d = 0
    st[0, F_LEADER] = leader
    st[0, F_LEAD] = lead
    st[0, F_BSEAT] = bseat
    st[0, F_BPOW] = bpow
    st[0, F_PTS] = pts
    st[0, F_K] = k_max
    rem = remaining(hands, trick_cards, n_played, k_max, cpts, tv)
    st[0, F_LO] = min(rem, 0)
    st[0, F_HI] = max(rem, 0)
    su[0, U_TRICK] = trick
    su[0, U_NEED] = need
    st[0, F_ALPHA] = alpha0
    st[0, F_BETA] = beta0
    nodes = 0
    solved = 1
    ret = 0
    mode = 0  # 0 enter ply d, 1 try the next move at d, 2 return ``ret`` from ply d
    res[RES_MOVER] = -1
    while True:
        if mode == 0:
            nodes += 1
            if nodes > max_nodes:
                solved = 0
                break
            trick = su[d, U_TRICK]
            alpha = st[d, F_ALPHA]
            beta = st[d, F_BETA]
            st[d, F_TT] = -1
            if trick == ZERO:  # a trick starts
                need, k_max = holders(hands)
                if need == ZERO:
                    ret = 0
                    mode = 2
                    continue
                su[d, U_NEED] = need
                st[d, F_K] = k_max
                ldr = st[d, F_LEADER]
                if k_max == 1:
                    ret = _last_trick(hands, need, ldr, -1, -1, -1, 0, tm, cpts, tv, side)
                    mode = 2
                    continue
                while hands[ldr] == ZERO:
                    ldr = (ldr + 1) & 3
                st[d, F_LEADER] = ldr
                slot = -1
                if k_max >= TT_MIN_K:  # the table row starts loading while the bounds are found
                    key = su[d, U_KEY:U_KEY + 7]
                    slot = np.int64(_relative_key(hands, cls, valued, specials, ldr, side, gen, key)
                                    & size_mask)
                    prefetch_row(tt, slot)
                rem = tv_upto[k_max] + _points((hands[0] | hands[1] | hands[2] | hands[3])
                                               & valued, cpts)
                lo, hi = _sure_bounds(hands, rem, negative, tm, side, valued, cpts)
                st[d, F_LO] = lo  # they hold for every line of play, so through the trick
                st[d, F_HI] = hi
                # the row only when the sure bounds leave the window open
                if slot >= 0 and lo < beta and hi > alpha and lo < hi:
                    if _probe(tt, slot, su[d, U_KEY:U_KEY + 7]):
                        b = tt[slot, T_BOUNDS]
                        lo = max(lo, np.int64(b >> np.uint64(32)) - BIAS)
                        hi = min(hi, np.int64(b & np.uint64(0xFFFFFFFF)) - BIAS)
                st[d, F_TT] = slot
            else:
                if st[d, F_K] == 1:
                    ret = _last_trick(hands, su[d, U_NEED], st[d, F_LEADER], st[d, F_LEAD],
                                      st[d, F_BSEAT], st[d, F_BPOW], st[d, F_PTS], tm, cpts, tv,
                                      side)
                    mode = 2
                    continue
                lo = st[d, F_LO]
                hi = st[d, F_HI]
            # the value lies in [lo, hi]: a cutoff, or a narrower window
            if lo >= beta or lo == hi:
                ret = lo
                mode = 2
                continue
            if hi <= alpha:
                ret = hi
                mode = 2
                continue
            alpha = max(alpha, lo)
            beta = min(beta, hi)
            if trick == ZERO and st[d, F_K] == 2:  # two tricks left: no stack needed
                ret = _two_tricks(hands, st[d, F_LEADER], q, cpts, tv, side, alpha, beta)
                slot = st[d, F_TT]
                if slot >= 0:
                    _store(tt, slot, su[d, U_KEY:U_KEY + 7], ret, alpha, beta)
                mode = 2
                continue
            # the seat to move: the first seat still to play, clockwise from the leader
            need = su[d, U_NEED]
            ldr = st[d, F_LEADER]
            seat = first_to_play(need, ldr)
            st[d, F_SEAT] = seat
            st[d, F_ALPHA] = alpha
            st[d, F_BETA] = beta
            st[d, F_A0] = alpha
            st[d, F_B0] = beta
            if d == 0:
                res[RES_MOVER] = seat
            lead = st[d, F_LEAD]
            led = ZERO if lead < 0 else suit_mask(lead, tm)
            h = hands[seat]
            moves = legal(h, led, trick, q)
            outside = (hands[0] | hands[1] | hands[2] | hands[3] | trick) & ~h
            moves = distinct_moves(moves, outside, tm, cpts)
            # order the moves: insertion sort on the score
            n = 0
            bs = st[d, F_BSEAT]
            bp = st[d, F_BPOW]
            while moves != ZERO:
                c = lsb(moves)
                moves &= moves - ONE
                sc = _score(c, seat, led, bs, bp, tm, side, want_win, cpts)
                if negative:
                    sc += lst[HIST + seat, c] * 8192
                j = n
                while j > 0 and lst[d, 2 * j - 1] < sc:
                    lst[d, 2 * j] = lst[d, 2 * j - 2]
                    lst[d, 2 * j + 1] = lst[d, 2 * j - 1]
                    j -= 1
                lst[d, 2 * j] = c
                lst[d, 2 * j + 1] = sc
                n += 1
            st[d, F_CNT] = n
            st[d, F_IDX] = 0
            st[d, F_BEST] = -INF if (side >> np.uint64(seat)) & ONE else INF
            mode = 1
        elif mode == 1:
            i = st[d, F_IDX]
            if i == st[d, F_CNT]:
                ret = st[d, F_BEST]
                slot = st[d, F_TT]
                if slot >= 0:
                    _store(tt, slot, su[d, U_KEY:U_KEY + 7], ret, st[d, F_A0], st[d, F_B0])
                mode = 2
                continue
            st[d, F_IDX] = i + 1
            c = lst[d, 2 * i]
            seat = st[d, F_SEAT]
            st[d, F_CARD] = c
            hands[seat] &= ~bit(c)
            lead = st[d, F_LEAD]
            if lead < 0:
                lead = c
            pw = power(c, suit_mask(lead, tm), tm)
            bs = st[d, F_BSEAT]
            bp = st[d, F_BPOW]
            if pw > bp:
                bs, bp = seat, pw
            trick = su[d, U_TRICK] | bit(c)
            pts = st[d, F_PTS] + cpts[c]
            need = su[d, U_NEED] & ~bit(seat)
            e = d + 1
            if need == ZERO:  # the trick is complete: its winner leads the next
                reward = 0
                if (side >> np.uint64(bs)) & ONE:
                    reward = pts + tv[st[d, F_K]]
                st[d, F_REWARD] = reward
                st[e, F_LEADER] = bs
                st[e, F_LEAD] = -1
                st[e, F_BSEAT] = -1
                st[e, F_BPOW] = -1
                st[e, F_PTS] = 0
                su[e, U_TRICK] = ZERO
            else:
                reward = 0
                st[d, F_REWARD] = 0
                st[e, F_LEADER] = st[d, F_LEADER]
                st[e, F_LEAD] = lead
                st[e, F_BSEAT] = bs
                st[e, F_BPOW] = bp
                st[e, F_PTS] = pts
                st[e, F_K] = st[d, F_K]
                st[e, F_LO] = st[d, F_LO]
                st[e, F_HI] = st[d, F_HI]
                su[e, U_TRICK] = trick
                su[e, U_NEED] = need
            st[e, F_ALPHA] = st[d, F_ALPHA] - reward
            st[e, F_BETA] = st[d, F_BETA] - reward
            d = e
            mode = 0
        else:
            if d == 0:
                break
            d -= 1
            v = ret + st[d, F_REWARD]
            seat = st[d, F_SEAT]
            c = st[d, F_CARD]
            hands[seat] |= bit(c)
            if (side >> np.uint64(seat)) & ONE:
                if v > st[d, F_BEST]:
                    st[d, F_BEST] = v
                    if v > st[d, F_ALPHA]:
                        st[d, F_ALPHA] = v
            else:
                if v < st[d, F_BEST]:
                    st[d, F_BEST] = v
                    if v < st[d, F_BETA]:
                        st[d, F_BETA] = v
            if st[d, F_ALPHA] >= st[d, F_BETA]:
                if negative:
                    lst[HIST + seat, c] = min(lst[HIST + seat, c] + st[d, F_K] * st[d, F_K],
                                              HIST_SCALE - 1)
                ret = st[d, F_BEST]
                slot = st[d, F_TT]
                if slot >= 0:
                    _store(tt, slot, su[d, U_KEY:U_KEY + 7], ret, st[d, F_A0], st[d, F_B0])
                mode = 2
                continue
            mode = 1
    if solved == 0:  # unwind: put back every card on the stack
        for j in range(d - 1, -1, -1):
            hands[st[j, F_SEAT]] |= bit(st[j, F_CARD])
    res[RES_VALUE] = ret
    res[RES_NODES] = nodes
    res[RES_SOLVED] = solved


@njit(cache=True)
def value_step(cpts, tv):
    """The greatest common divisor of every card and trick value (Rook's are all multiples
    of 5, King's of 10 or 25), so a bisection of the value range needs fewer steps."""
    g = 0
    for c in range(64):
        a, b = abs(cpts[c]), g
        while b:
            a, b = b, a % b
        g = a
    for k in range(tv.shape[0]):
        a, b = abs(tv[k]), g
        while b:
            a, b = b, a % b
        g = a
    return max(g, 1)


@njit(cache=True)
def solve_value(hands, leader, trick_cards, trick_seats, n_played, q, cpts, tv, tt, gen, st, su,
                lst, max_nodes, res, guess=NO_GUESS):
    """The exact value, by null-window searches (MTD-style): each search only asks "at least
    t?", which cuts far more than one wide window, and the bounds they leave in the table
    carry over to the next. With a ``guess`` (a sibling's value) the first two ask "at least
    the guess?" and then one step beyond it, which settles a good guess in two searches;
    otherwise, and after those, t bisects the range still open."""
    need, k_max, lead, bseat, bpow, pts = trick_state(hands, leader, trick_cards, trick_seats,
                                                      n_played, q[Q_TM], cpts)
    rem = remaining(hands, trick_cards, n_played, k_max, cpts, tv)
    lo = min(rem, 0)
    hi = max(rem, 0)
    nodes = 0
    solved = 1
    mover = first_to_play(need, leader)
    g = value_step(cpts, tv)
    probes = 0
    while lo < hi:
        t = lo + g * (((hi - lo) // g + 1) // 2)  # values are multiples of g: bisect on them
        if guess != NO_GUESS and probes < 2:
            if probes == 0:
                t = min(max(guess, lo + g), hi)
            else:
                t = lo + g if lo >= guess else hi  # the guess held: one above; else at hi
        probes += 1
        search(hands, leader, trick_cards, trick_seats, n_played, q, cpts, tv, tt, gen, st, su,
               lst, t - 1, t, max_nodes - nodes, res)
        nodes += res[RES_NODES]
        if res[RES_SOLVED] == 0:
            solved = 0
            break
        v = res[RES_VALUE]
        if v >= t:
            lo = v
        else:
            hi = v
    res[RES_VALUE] = lo
    res[RES_NODES] = nodes
    res[RES_SOLVED] = solved
    res[RES_MOVER] = mover


@njit(cache=True)
def solve_moves(hands, leader, trick_cards, trick_seats, n_played, q, cpts, tv, tt, gen, st, su,
                lst, max_nodes, res, out_vals):
    """The exact value after each legal card of the seat to move, in ``out_vals[card]``
    (-INF for cards it may not play); ``res`` as for :func:`solve_value`, with the best of
    them as the value. ``trick_cards``/``trick_seats`` need room for one more card."""
    tm = q[Q_TM]
    side = q[Q_SIDE]
    for c in range(64):
        out_vals[c] = -INF
    need, k_max, lead, bseat, bpow, pts = trick_state(hands, leader, trick_cards, trick_seats,
                                                      n_played, tm, cpts)
    seat = first_to_play(need, leader)
    if seat < 0:
        res[RES_VALUE] = 0
        res[RES_NODES] = 0
        res[RES_SOLVED] = 1
        res[RES_MOVER] = -1
        return
    trick = ZERO
    for j in range(n_played):
        trick |= bit(trick_cards[j])
    h = hands[seat]
    led = ZERO if lead < 0 else suit_mask(lead, tm)
    legal_set = legal(h, led, trick, q)
    outside = (hands[0] | hands[1] | hands[2] | hands[3] | trick) & ~h
    moves = distinct_moves(legal_set, outside, tm, cpts)
    maximise = (side >> np.uint64(seat)) & ONE
    best = -INF if maximise else INF
    nodes = 0
    solved = 1
    guess = 0
    have = False
    while moves != ZERO:
        c = lsb(moves)
        moves &= moves - ONE
        hands[seat] = h & ~bit(c)
        trick_cards[n_played] = c
        trick_seats[n_played] = seat
        if need & ~bit(seat) == ZERO:  # the card completes the trick
            lc = c if lead < 0 else lead
            pw = power(c, suit_mask(lc, tm), tm)
            win = seat if pw > bpow else bseat
            reward = pts + cpts[c] + tv[k_max] if (side >> np.uint64(win)) & ONE else 0
            solve_value(hands, win, trick_cards, trick_seats, 0, q, cpts, tv, tt, gen, st, su,
                        lst, max_nodes - nodes, res, guess - reward if have else NO_GUESS)
        else:
            reward = 0
            solve_value(hands, leader, trick_cards, trick_seats, n_played + 1, q, cpts, tv, tt,
                        gen, st, su, lst, max_nodes - nodes, res, guess if have else NO_GUESS)
        hands[seat] = h
        nodes += res[RES_NODES]
        if res[RES_SOLVED] == 0:
            solved = 0
            break
        v = res[RES_VALUE] + reward
        out_vals[c] = v
        best = max(best, v) if maximise else min(best, v)
        guess = best  # siblings are close: the best so far guesses the next
        have = True
    if solved:
        _fill_equivalents(hands, seat, trick_cards, n_played, q, cpts, out_vals)
    res[RES_VALUE] = best
    res[RES_NODES] = nodes
    res[RES_SOLVED] = solved
    res[RES_MOVER] = seat
