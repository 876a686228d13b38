"""What an engine needs to seat ``dd`` and ``pimc`` players without compiling the search:
the layout of their workspace and of the policy vector, the workspace itself, their
defaults, and the voids a play reveals.

The players themselves (``search.pimc``) and the search (``search.dd``) are imported only by the
searching kernels (``pedro.search``, ``rook.search``, ``king.search``), so a
simulation whose seats play the heuristic never compiles them.

May import: :mod:`analyzer.bits` and :mod:`.params`; never a game.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...bits import ZERO, bit
from .params import NPAR, NQ, NRES, NT, NTV, Q_FREE, Q_TM, Q_TRUMP_ANY

# the searching players' workspace (``make_workspace``), by position in its tuple
(WS_TT, WS_PAR, WS_RES, WS_VALS, WS_ACC, WS_WORLD, WS_TCARDS, WS_TSEATS, WS_KN, WS_Q, WS_CPTS,
 WS_TV) = range(12)  # fmt: skip
KN_POOL, KN_FORBID, KN_KNOWN, KN_MIN, KN_MIN_MASK, KN_DISCARDS = 0, 1, 5, 9, 13, 14
NKN = 18  # KN_DISCARDS + seat: the seat's discards (Pedro), face up: every seat has seen them
POLICY_DD, POLICY_PIMC = 2, 3
# the policy vector after the four seat codes: pimc worlds, node budget per solve (0: the
# default), and 1 when the policies choose cards only (every seat bids, names trump, discards
# and in Rook drops and passes by the heuristic: the policy ladder compares card play on one
# auction)
# and the search depth: dd and pimc search once every hand holds at most this many cards and
# play the heuristic before (0: the game's default; Pedro always searches its 6 tricks)
P_WORLDS, P_NODES, P_PLAY_ONLY, P_DEPTH = 4, 5, 6, 7
# Words only the pimc benchmark sets (``parse_policies`` stops at P_DEPTH): P_PIMC_FULL 1
# plays pimc as it was before its shortcuts (every world solved, each move's search guessed
# from its sibling; the benchmark's baseline), and P_STATS the address of a counter table
# (``search.probe``; 0: no counting). P_WORLD_SALT, when not 0, moves every pimc decision's
# draws to another stream (the deals stay): ``benchmarks/control_ceiling.py`` plays the same
# deals twice to measure how much of pimc's result its own sampled worlds decide.
P_PIMC_FULL, P_STATS, P_WORLD_SALT = 8, 9, 10
DEFAULT_DEPTH = 6  # Rook and King: a 13-trick points solve takes seconds here
DEFAULT_NODES = 2_000_000


def counted(pols: np.ndarray, table: np.ndarray, full: bool = False) -> np.ndarray:
    """``pols`` (a policy vector) with the pimc benchmark's words: the address of ``table``
    (:mod:`.probe`'s counters, STAT_ROWS x NSTAT uint64, which the caller keeps alive while
    the run adds into it) and, with ``full``, pimc's search without its race (the
    baseline)."""
    out = _with_room(pols, P_STATS)
    out[P_PIMC_FULL] = int(full)
    out[P_STATS] = table.ctypes.data
    return out


def resampled(pols: np.ndarray, salt: int) -> np.ndarray:
    """``pols`` (a policy vector) whose pimc seats draw their worlds from the stream ``salt``
    names (1 .. 2**63 - 1), on the same deals: a replicate of their play."""
    if not 0 < salt < 2**63:
        raise ValueError(f"a world salt is 1 .. 2**63 - 1; got {salt}")
    out = _with_room(pols, P_WORLD_SALT)
    out[P_WORLD_SALT] = salt
    return out


def _with_room(pols: np.ndarray, word: int) -> np.ndarray:
    """A copy of ``pols`` long enough to hold ``word``, the words it lacked 0; a benchmark
    word already set (``counted`` then ``resampled``, or the other way) is kept."""
    out = np.zeros(max(len(pols), word + 1), dtype=np.int64)
    out[:len(pols)] = pols
    return out


@njit(cache=True)
def search_depth(pols):
    """Cards a hand at most before dd and pimc search (Rook, King)."""
    if pols.shape[0] > P_DEPTH and pols[P_DEPTH] > 0:
        return pols[P_DEPTH]
    return DEFAULT_DEPTH


@njit(cache=True)
def pimc_full(pols):
    """Whether pimc seats solve every world as before their shortcuts (P_PIMC_FULL)."""
    return pols.shape[0] > P_PIMC_FULL and pols[P_PIMC_FULL] == 1


@njit(cache=True)
def stats_address(pols):
    """The address of the pimc benchmark's counter table (0: none)."""
    if pols.shape[0] > P_STATS:
        return np.uint64(pols[P_STATS])
    return ZERO


@njit(cache=True)
def world_salt(pols):
    """P_WORLD_SALT: the stream pimc's worlds are moved to (0: the deal's own)."""
    if pols.shape[0] > P_WORLD_SALT:
        return np.uint64(pols[P_WORLD_SALT])
    return ZERO


@njit(cache=True)
def node_budget(pols):
    if pols.shape[0] > P_NODES and pols[P_NODES] > 0:
        return pols[P_NODES]
    return DEFAULT_NODES


@njit(cache=True, inline="always")
def any_searching(pols):
    """Whether a seat of ``pols`` plays ``dd`` or ``pimc``."""
    for s in range(4):
        if pols[s] >= POLICY_DD:
            return True
    return False


@njit(cache=True, inline="always")
def plays_only(pols):
    """Whether the policies choose cards only (P_PLAY_ONLY): every seat bids, names trump
    and discards by the heuristic."""
    return pols.shape[0] > P_PLAY_ONLY and pols[P_PLAY_ONLY] == 1


@njit(cache=True)
def search_tt_bits(pols):
    """Transposition-table size (log2 rows) for these seat policies; 0 when none searches.

    2**14 rows of 64 bytes (1 MB, about one core's L2 cache): the searching players
    solve positions of at most six tricks, and for those a larger table saves few nodes
    and no time (Pedro post-draw solves, 2,000 positions: 0.36 ms with 2**14 rows, 0.35
    to 0.37 with 2**15 and 0.36 with 2**16, for 2 to 3% fewer nodes)."""
    return 14 if any_searching(pols) else 0


@njit(cache=True)
def make_workspace(tt_bits):
    """Scratch for the searching players: (tt, par, res, vals, acc, world, tcards, tseats, kn,
    q, cpts, tv), see WS_*. Allocated once per chunk; ``tt_bits`` 0 gives a small one for
    kernels whose seats do not search."""
    rows = 1 << tt_bits if tt_bits > 0 else 1
    return (np.zeros((rows, NT), dtype=np.uint64), np.zeros(NPAR, dtype=np.uint64),
            np.zeros(NRES, dtype=np.int64), np.zeros(64, dtype=np.int64),
            np.zeros(64, dtype=np.int64), np.zeros(4, dtype=np.uint64),
            np.zeros(4, dtype=np.int64), np.zeros(4, dtype=np.int64),
            np.zeros(NKN, dtype=np.uint64), np.zeros(NQ, dtype=np.uint64),
            np.zeros(64, dtype=np.int64), np.zeros(NTV, dtype=np.int64))


@njit(cache=True, inline="always")
def workspace_for(pols):
    """The workspace the seats ``pols`` need: a full one when one of them searches."""
    return make_workspace(search_tt_bits(pols))


@njit(cache=True)
def note_play(voids, c, led, q):
    """A seat's known voids after it plays ``c`` to a trick whose led suit is ``led`` (0: it
    leads): not following shows a void, unless the card could be played anyway (a trump where
    trumping is free, Rook's free Rook)."""
    if led == ZERO or bit(c) & led or bit(c) & q[Q_FREE]:
        return voids
    if bit(c) & q[Q_TM] and q[Q_TRUMP_ANY]:
        return voids
    return voids | led


@njit(cache=True)
def note_lost(kn, seat, k):
    """``seat`` gave up ``k`` cards of those it is known to hold at least (Pedro's trumps
    dumped on trick 1): the count it is known to hold falls by as many, to 0 at least."""
    held = kn[KN_MIN + seat]
    kn[KN_MIN + seat] = held - np.uint64(k) if held > np.uint64(k) else ZERO


@njit(cache=True, inline="always")
def record_play(ws, pos, seat, c, led, q):
    """Tell the searching players that ``seat`` played ``c`` (search layout) at position
    ``pos`` of a trick led in ``led`` (0: it leads), and what voids that shows."""
    ws[WS_TCARDS][pos] = c
    ws[WS_TSEATS][pos] = seat
    kn = ws[WS_KN]
    kn[KN_FORBID + seat] = note_play(kn[KN_FORBID + seat], c, led, q)


@njit(cache=True)
def team_mask(seat):
    """The seat mask of a seat's partnership."""
    return bit(seat) | bit((seat + 2) & 3)
