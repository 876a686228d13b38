"""What every game's public module shares: seat names, policy lists, input errors, the batch
driver, the rows of a batch and their text columns for tables on disk.

May import: the foundations (cards, parsing, limits, variants); never a game.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from importlib import import_module
from types import ModuleType
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:  # frames in the annotations; the functions that make one load pandas
    import pandas as pd

from ..limits import (
    MAX_SEED,
    SEARCH_SIZES,
    ArgumentError,
    Pace,
    check_count,
    check_seed,
    require_memory,
)
from ..parsing import NumberError, parse_int, plain_ascii, quoted
from ..variants import RuleError

POLICY_NAMES = ("random", "heuristic", "dd", "pimc")  # kernel codes 0..3 (search.setup)
SEARCH_POLICIES = ("dd", "pimc")
LADDER_RUNGS = ("random", "heuristic", "pimc", "dd")  # the ladder's climb by default
DEFAULT_WORLDS = 20
MAX_WORLDS = 10_000
POLICY_HELP = ("random (uniform legal), heuristic, dd (clairvoyant: solves the true deal "
               "double dummy, not a legal player; an upper bound on Pedro's and Cinch's "
               "play; Rook and King solve their last 6 tricks after the heuristic's first "
               "7) or pimc (samples up to W "
               "deals consistent with what the seat knows and solves each, stopping once "
               "one card is clearly best; pimc:W sets W, default "
               f"{DEFAULT_WORLDS})")
# Deals a parallel chunk when a seat searches. A searched deal costs 0.1-1 s, so a chunk of
# thousands would leave every thread but one idle on the runs such policies allow (a few
# thousand deals); each chunk also allocates its own 1 MB table, which is nothing beside
# four such deals.
SEARCH_CHUNK = 4
# Deals a round of progress (and of a hand evaluation's stop rule) when a seat searches: a
# few seconds of work, where the fast policies' rounds of 10,000 deals would take an hour.
SEARCH_BATCH = 50
# Deals a chunk of a long run for the fast policies: about a second of work on two cores,
# and a frame of about 140 MB. A run that writes its rows holds them with their text and
# as Arrow and Parquet buffers besides, over 1 GB at a million (100 M Pedro deals to
# Parquet, 2026-12-03): a quarter of that keeps it well under.
FAST_CHUNK = 1_000_000
ROWS_CHUNK = 250_000
SEAT_OFFSETS = {"dealer": 0, "eldest": 1, "second": 2, "third": 3}  # seats after the dealer
SEATS = tuple(SEAT_OFFSETS)


class PolicyError(ValueError):
    """A policy name or per-seat policy list the engine does not know."""


def one_policy_for_every_seat(pols: np.ndarray, what: str) -> None:
    """PolicyError unless the four seats play one policy. ``what`` (a hand evaluation, a
    bid chart) reads a seat counted from the dealer, and the dealer moves round the table
    deal by deal, so a list by table seat (0-3) gave that seat each policy in turn: "my
    side pimc, theirs heuristic" searched for both sides on half the deals each."""
    if len(set(pols[:4].tolist())) > 1:
        raise PolicyError(f"{what} reads a seat counted from the dealer, who moves round the "
                          f"table deal by deal, so a policy list by table seat would give that "
                          f"seat each policy in turn; give one policy for every seat (a list by "
                          f"table seat suits simulate, match, compare and deal)")


class ScenarioError(ValueError):
    """Known cards that cannot be dealt (too many for a seat, or one card at two seats)."""


def parse_policies(spec: str | Sequence[str], default_worlds: int = DEFAULT_WORLDS,
                   ) -> np.ndarray:
    """Seat policies: one name for all four seats, or four comma-separated names.

    The vector holds the four seat codes, then the pimc world count, a node budget per solve,
    the play-only flag and the search depth (0: defaults; see ``search.setup``);
    ``pimc:W`` sets the worlds, a bare ``pimc`` takes ``default_worlds``.

    >>> parse_policies("heuristic,random,heuristic,random").tolist()
    [1, 0, 1, 0, 20, 0, 0, 0]
    >>> parse_policies("pimc:50,heuristic,pimc:50,heuristic").tolist()
    [3, 1, 3, 1, 50, 0, 0, 0]
    """
    if not isinstance(spec, str | list | tuple):
        raise PolicyError(f"a policy is a name ({', '.join(POLICY_NAMES)}, pimc:W) or four "
                          f"separated by commas; got {spec!r}")
    given = spec.split(",") if isinstance(spec, str) else list(spec)
    if not all(isinstance(n, str) and plain_ascii(n) for n in given):
        raise PolicyError(f"bad policy {quoted(','.join(map(str, given)))}: policies are plain "
                          f"ASCII names: {', '.join(POLICY_NAMES)}")
    names = [n.strip().lower() for n in given]
    if len(names) == 1:
        names = names * 4
    worlds = set()
    codes = []
    for n in names:
        name, _, w = n.partition(":")
        if name == "pimc" and w:
            try:
                worlds.add(parse_int(w, 1, MAX_WORLDS, "pimc worlds"))
            except NumberError as e:
                raise PolicyError(f"{e}, as pimc:W") from None
        elif w:
            name = n  # only pimc takes a count
        codes.append(POLICY_NAMES.index(name) if name in POLICY_NAMES else -1)
    if len(names) != 4 or -1 in codes:
        raise PolicyError(
            f"bad policy {quoted(','.join(given))}; give one of {', '.join(POLICY_NAMES)} "
            f"(pimc:W for W worlds) or four of them separated by commas (seats 0,1,2,3)"
        )
    if len(worlds) > 1:
        raise PolicyError(f"pimc seats must use one world count, got {sorted(worlds)}")
    w = worlds.pop() if worlds else default_worlds
    return np.array([*codes, w, 0, 0, 0], dtype=np.int64)


def policy_vector(policies) -> np.ndarray:
    """The kernels' policy vector of ``policies``: names as :func:`parse_policies` reads
    them, or a vector it (or a benchmark's ``search.setup.counted``/``resampled``) made,
    checked, since the kernels read it unchecked: a vector of four words had them read
    memory past its end, and a code of 7 failed with an IndexError.

    >>> policy_vector(np.array([1, 1, 1, 7, 20, 0, 0, 0]))
    Traceback (most recent call last):
    ...
    analyzer.games.common.PolicyError: bad policy vector [1, 1, 1, 7, 20, 0, 0, 0]: ...
    >>> policy_vector(np.array([3, 1, 3, 1, 8, 0, 0, 0])).tolist() == parse_policies(
    ...     "pimc:8,heuristic,pimc:8,heuristic").tolist()
    True
    """
    if not isinstance(policies, np.ndarray):
        return parse_policies(policies)
    from .search.setup import P_DEPTH, P_NODES, P_PLAY_ONLY, P_WORLD_SALT, P_WORLDS

    v = policies
    fits = (v.ndim == 1 and P_DEPTH < len(v) <= P_WORLD_SALT + 1
            and (np.issubdtype(v.dtype, np.integer) or v.dtype == np.bool_))
    if fits:
        fits = (all(0 <= c < len(POLICY_NAMES) for c in v[:4])
                and 1 <= v[P_WORLDS] <= MAX_WORLDS and v[P_NODES] >= 0
                and v[P_PLAY_ONLY] in (0, 1) and v[P_DEPTH] >= 0)
    if not fits:
        shown = v.tolist() if v.size <= 16 else f"of shape {v.shape}"
        raise PolicyError(
            f"bad policy vector {shown}: its first four words are seat codes 0 .. 3 "
            f"({', '.join(POLICY_NAMES)}), then pimc's worlds (1 .. {MAX_WORLDS:,}), a node "
            f"budget (0: the default), the play-only flag (0 or 1) and the search depth (0: "
            f"the default), and at most {P_WORLD_SALT - P_DEPTH} benchmark words; or give "
            f"names: heuristic, pimc:20,heuristic,pimc:20,heuristic")
    return v.astype(np.int64)


def searches(pols: np.ndarray) -> bool:
    """Whether a seat plays by search (dd, pimc): then a deal costs milliseconds, not 1 us."""
    return any(POLICY_NAMES[p] in SEARCH_POLICIES for p in pols[:4])


def searching_size(g, command: str, pols: np.ndarray, usual: int) -> int:
    """``usual``, or where a seat of ``pols`` searches (:func:`searches`) the size the
    CLI's ``command`` takes then: game ``g``'s own (``Game.search_sizes``), else
    ``limits.SEARCH_SIZES``'s (the usual sizes would take hours)."""
    if not searches(pols):
        return usual
    return g.search_sizes.get(command, SEARCH_SIZES[command])


def kernels(pols: np.ndarray, engine: ModuleType) -> ModuleType:
    """The module whose kernels play ``pols``: ``engine``, whose seats never search, or, when
    a seat plays dd or pimc, the module of the same kernels with the search behind such
    seats (``engine.SEARCH_KERNELS``, relative to the engine's package). It is imported
    only then: the search compiles in a minute or two that a heuristic run should not wait
    for."""
    if not searches(pols):
        return engine
    return import_module(engine.SEARCH_KERNELS, engine.__package__)


def first_batch(pols: np.ndarray) -> int:
    """The size of a run's first batch, whose pace decides whether the run can finish in
    time: a second or so of work for the fast policies and for searching seats alike."""
    return SEARCH_BATCH if searches(pols) else 20_000


def default_chunk(deals: int, searching: bool, rows: bool = False) -> int:
    """Deals a chunk of a long run (simulate, bid-chart, compare): about a hundredth of the
    run (progress moves), at least a first batch's work (the sizes :func:`first_batch`
    gives), and for the fast policies at most :data:`FAST_CHUNK` (:data:`ROWS_CHUNK` when
    the rows are written: memory stays bounded; a searching run's chunks are small
    anyway); results never depend on it."""
    if searching:
        return max(SEARCH_BATCH, -(-deals // 100))
    return min(ROWS_CHUNK if rows else FAST_CHUNK, max(20_000, -(-deals // 100)))


def chunk_for(pols: np.ndarray, chunk: int | None, default: int) -> int:
    """The deals a parallel chunk: ``chunk`` when given, else ``default`` for the fast
    policies and SEARCH_CHUNK when a seat searches. Results never depend on it."""
    if chunk is None:
        return SEARCH_CHUNK if searches(pols) else default
    if chunk < 1:
        raise ValueError(f"need chunk >= 1; got {chunk}")
    return chunk


def policy_string(pols: np.ndarray) -> str:
    """The canonical text of a policy vector (parse_policies reads it back)."""
    names = [POLICY_NAMES[p] + (f":{pols[4]}" if POLICY_NAMES[p] == "pimc" and len(pols) > 4
                                else "") for p in pols[:4]]
    return names[0] if len(set(names)) == 1 else ",".join(names)


def clairvoyant(text: str) -> bool:
    """Whether a seat of the policy string plays ``dd``, which sees every hand: not a legal
    player (its numbers bound what play can make where it solves the whole hand)."""
    return "dd" in {n.split(":")[0] for n in str(text).split(",")}


def policy_label(text: str) -> str:
    """A policy string as shown to people: dd is marked clairvoyant wherever it appears
    (Rook's and King's dd plays the heuristic's first 7 tricks, then solves)."""
    if clairvoyant(text):
        return f"{text} (dd = clairvoyant: sees every hand where it searches)"
    return str(text)


# compare's measure of a match between teams played otherwise (the header names the players)
TEAM_MARGIN = "team 0's score less team 1's (seats 0, 2 against 1, 3)"


def teams_differ(policy: str) -> bool:
    """Whether a policy string plays the two teams (seats 0 and 2, 1 and 3) otherwise: a
    match of players, where which team a rule favours is a measure of its own.

    >>> teams_differ("heuristic,random,heuristic,random"), teams_differ("heuristic")
    (True, False)
    """
    seats = str(policy).split(",")
    return len(seats) == 4 and sorted(seats[0::2]) != sorted(seats[1::2])


def known_by_seat(hand: int, seat: int, known: tuple[tuple[int, int], ...],
                  hand_size: int) -> list[int]:
    """Masks of known cards by seat offset; ScenarioError when they cannot be dealt."""
    from ..cards import cards_of, format_card

    by_seat = [0, 0, 0, 0]
    if hand:
        by_seat[seat] = hand
    for off, mask in known:
        if off == seat and hand:
            raise ScenarioError(f"seat {SEATS[off]} holds the evaluated hand; its other "
                                "cards cannot be known")
        if by_seat[off] & mask:
            raise ScenarioError(f"a card is given twice for {SEATS[off]}")
        by_seat[off] |= mask
    total = 0
    for off, mask in enumerate(by_seat):
        if mask.bit_count() > hand_size:
            raise ScenarioError(f"{SEATS[off]} can hold {hand_size} cards, "
                                f"{mask.bit_count()} given")
        if total & mask:
            first = next(SEATS[o] for o in range(off) if by_seat[o] & total & mask)
            raise ScenarioError(f"{' '.join(format_card(c) for c in cards_of(total & mask))}"
                                f" given to two seats: {first} and {SEATS[off]}")
        total |= mask
    return by_seat


def output_arrays(n: int, rec_width: int, rec_dtype, n_hands: int,
                  out: tuple[np.ndarray, np.ndarray] | None = None,
                  ) -> tuple[np.ndarray, np.ndarray]:
    """(records, hands) for ``n`` deals: new arrays, or the first ``n`` rows of ``out``, a pair
    the caller reuses across calls (the benchmark does, so that it times the deals rather
    than the operating system mapping fresh memory)."""
    if out is None:
        return np.empty((n, rec_width), rec_dtype), np.empty((n, n_hands), np.uint64)
    rec, hands = out
    for name, a, width, dtype in (("records", rec, rec_width, np.dtype(rec_dtype)),
                                  ("hands", hands, n_hands, np.dtype(np.uint64))):
        if a.ndim != 2 or a.shape[0] < n or a.shape[1] != width or a.dtype != dtype \
                or not a.flags.c_contiguous:
            raise ValueError(f"out {name} must be C-contiguous {dtype}[>={n}, {width}], "
                             f"got {a.dtype}{list(a.shape)}")
    return rec[:n], hands[:n]


def simulate_batches(run_batch: Callable, rules, n_deals: int, seed: int, pols: np.ndarray,
                     first: int, batch: int, progress: Callable[[int], None] | None,
                     rec_shape: tuple[int, np.dtype], n_hands: int):
    """Deals ``first .. first + n_deals - 1`` in batches of ``batch``: (records, hands).

    ``run_batch(rules, first, n, seed, pols)`` is a game's kernel driver; the
    result does not depend on ``batch``. ``progress(k)`` follows each batch. A run whose
    rows would not fit in free memory is refused before any work, and one that would
    take more than a day is stopped after its first, small batch (analyzer.limits).
    """
    check_count("n_deals", n_deals, 0)
    check_count("batch", batch)
    check_count("first", first, 0)
    check_seed(seed)
    width, dtype = rec_shape
    # rows as records and hands, then as the frame built from them, with derived columns
    require_memory(n_deals, 3 * (width * np.dtype(dtype).itemsize + 8 * n_hands) + 40,
                   "--deals", parts="--first")
    pace = Pace(n_deals, "--deals")
    recs, hands = [], []
    lo = first
    while lo < first + n_deals:
        # the first batch is small, so that the pace is measured within seconds
        k = min(batch if recs else min(batch, first_batch(pols)), first + n_deals - lo)
        r, h = run_batch(rules, lo, k, seed, pols)
        recs.append(r)
        hands.append(h)
        lo += k
        pace.step(lo - first)
        if progress:
            progress(k)
    rec = np.concatenate(recs) if recs else np.empty((0, width), dtype)
    hnd = np.concatenate(hands) if hands else np.empty((0, n_hands), np.uint64)
    return rec, hnd


def deal_range(first: int, n: int) -> np.ndarray:
    """The deal indices ``first .. first + n - 1`` of a batch; ValueError when negative."""
    if n < 0 or first < 0:
        raise ValueError(f"need n >= 0 and first >= 0; got {n}, {first}")
    return np.arange(first, first + n, dtype=np.int64)


def game_rules(rules, presets: dict, parse_rules: Callable):
    """``rules`` as a game's Rules (those of its ``presets``) for its public functions: a
    variant string is parsed (``parse_rules``), as :func:`analyzer.evaluate_hand` takes one;
    anything else is a RuleError that says what is taken, not an AttributeError (or a
    StopIteration) from deep inside the game's code."""
    if isinstance(rules, str):
        return parse_rules(rules)
    if not isinstance(rules, type(next(iter(presets.values())))):
        other = getattr(rules, "game", None)
        got = f"the Rules of {other}" if isinstance(other, str) else quoted(rules)
        raise RuleError(f"rules are this game's Rules or a variant string of its presets "
                        f"({', '.join(presets)}); got {got}")
    return rules


def deal_indices(indices) -> np.ndarray:
    """``indices`` (deal numbers: a list, a range, an array, a Series) as int64; ArgumentError
    for a lone number, a number not whole, or one outside 0 .. 2**63-1 (a negative one read
    as some other deal, without a word)."""
    arr = np.asarray(indices)
    if arr.ndim != 1:
        got = repr(indices)[:40] if arr.ndim == 0 else f"{arr.ndim} dimensions"
        raise ArgumentError(f"indices are a sequence of deal numbers, such as [0, 5]; got {got}")
    if not len(arr):
        return arr.astype(np.int64)
    if arr.dtype.kind not in "iu" or arr.min() < 0 or arr.max() > MAX_SEED:
        # each as given (object): [0, 2**63] is a float array, whose 0.0 is no bad index
        bad = next(i for i in np.asarray(indices, dtype=object).tolist()
                   if isinstance(i, bool | np.bool_) or not isinstance(i, int | np.integer)
                   or not 0 <= i <= MAX_SEED)
        raise ArgumentError(f"a deal index is a whole number 0 .. 2**63-1; got {bad!r}")
    return arr.astype(np.int64)


def simulate_frame(run_batch: Callable, records_frame: Callable, rules, n_deals: int,
                   seed: int, policies, first: int, batch: int,
                   progress: Callable[[int], None] | None, rec_shape: tuple[int, np.dtype],
                   n_hands: int) -> pd.DataFrame:
    """A game's ``simulate``: :func:`simulate_batches`, then ``records_frame(rec, hands,
    first)`` with the run's provenance in its ``attrs``."""
    pols = policy_vector(policies)
    rec, hnd = simulate_batches(run_batch, rules, n_deals, seed, pols, first, batch, progress,
                                rec_shape, n_hands)
    df = records_frame(rec, hnd, first)
    df.attrs.update(provenance(rules, seed, pols, first))
    return df


def record_rows(rec: np.ndarray, columns: Sequence[str], hands: np.ndarray,
                first: int) -> pd.DataFrame:
    """A batch's rows: the deal index, a column per record field, the four dealt hands."""
    import pandas as pd

    cols = {"deal": np.arange(first, first + len(rec), dtype=np.int64)}
    for j, name in enumerate(columns):
        cols[name] = rec[:, j]
    for s in range(4):
        cols[f"hand{s}"] = hands[:, s]
    return pd.DataFrame(cols)


SEAT_NAMES = ("N", "E", "S", "W")  # seats 0..3 clockwise, as `bidlab deal` and `solve` name them
SUIT_TEXT = ("clubs", "diamonds", "hearts", "spades", "no trump")  # suit codes 0..3; 4 no trump
TEXT_SUFFIX = "_text"


def with_text(df: pd.DataFrame, columns: dict[str, str | tuple[str, ...]]) -> pd.DataFrame:
    """``df`` with a column ``<name>_text`` right after each column ``name`` of ``columns``
    that it has, for people and spreadsheets: ``"cards"`` (a uint64 mask) as "AS KS 5C",
    ``"card"`` (a card index) as "AS", ``"seat"`` as N E S W, ``"suit"`` as its name (4: no
    trump), a tuple as its names by code. A code without a name (-1: none) is left empty.
    ``df`` itself is not changed; the numbers stay as they are.

    >>> import pandas as pd
    >>> df = pd.DataFrame({"dealer": [0, 3], "trump": [3, -1], "hand0": [2**60 | 1, 0]})
    >>> out = with_text(df, {"dealer": "seat", "trump": "suit", "hand0": "cards"})
    >>> list(out.columns)
    ['dealer', 'dealer_text', 'trump', 'trump_text', 'hand0', 'hand0_text']
    >>> out[["dealer_text", "trump_text", "hand0_text"]].to_numpy().tolist()
    [['N', 'spades', 'AS 2C'], ['W', nan, '']]
    """
    from concurrent.futures import ThreadPoolExecutor

    import pandas as pd

    from ..cards import JOKER, format_card, format_masks

    wanted = [n for n in df if n in columns and f"{n}{TEXT_SUFFIX}" not in df]
    masks = [n for n in wanted if columns[n] == "cards"]
    with ThreadPoolExecutor(max(1, min(len(masks), os.cpu_count() or 1))) as pool:
        # Arrow's kernels free the GIL: the hands' columns take their turns on every core
        texts = dict(zip(masks, pool.map(
            lambda n: format_masks(df[n].to_numpy(np.uint64)), masks), strict=True))
    out = {}
    for name, values in df.items():
        out[name] = values
        if name not in wanted:
            continue
        kind = columns[name]
        if kind == "cards":
            text = pd.arrays.ArrowStringArray(texts[name])
        else:
            names = {"seat": SEAT_NAMES, "suit": SUIT_TEXT,
                     "card": tuple(format_card(c) if c == JOKER or c % 16 < 13 else None
                                   for c in range(JOKER + 1))}.get(kind, kind)
            categories = [n for n in names if n is not None]
            lookup = np.array([categories.index(n) if n is not None else -1 for n in names]
                              + [-1])  # the last: a code out of range
            codes = values.to_numpy(np.int64)
            codes = np.where((codes >= 0) & (codes < len(names)), codes, len(names))
            text = pd.Categorical.from_codes(lookup[codes], categories=categories)
        out[f"{name}{TEXT_SUFFIX}"] = pd.Series(text, index=df.index)
    result = pd.DataFrame(out, index=df.index)
    result.attrs = dict(df.attrs)
    return result


def by_side(df: pd.DataFrame, team: np.ndarray, column0: str, column1: str,
            dtype) -> tuple[np.ndarray, np.ndarray]:
    """Team columns ``column0``/``column1`` as the side ``team`` (0 or 1 a row) and the other."""
    ours = np.where(team == 0, df[column0], df[column1]).astype(dtype)
    theirs = np.where(team == 0, df[column1], df[column0]).astype(dtype)
    return ours, theirs


def policy_words(pols: np.ndarray) -> dict:
    """The words of a policy vector that its string (:func:`policy_string`) does not say,
    where set: a node budget, the play-only flag, a search depth, the pimc benchmark's
    words (a vector that :func:`policy_vector` accepts, e.g. ``search.setup.resampled``'s)."""
    from .search.setup import P_DEPTH, P_NODES, P_PIMC_FULL, P_PLAY_ONLY, P_STATS, P_WORLD_SALT

    names = {P_NODES: "nodes", P_PLAY_ONLY: "play_only", P_DEPTH: "depth",
             P_PIMC_FULL: "pimc_full", P_STATS: "stats", P_WORLD_SALT: "world_salt"}
    return {name: int(pols[i]) for i, name in names.items() if i < len(pols) and pols[i]}


def provenance(rules, seed: int, pols: np.ndarray, first: int) -> dict:
    """The ``attrs`` every simulation frame carries (with ``policy_words`` where the policy
    vector set words its string does not say: the string alone would not reproduce it)."""
    words = policy_words(pols)
    return {"game": rules.game, "rules": str(rules), "seed": int(seed),
            "policy": policy_string(pols), "first": int(first),
            **({"policy_words": words} if words else {})}
