"""What every game's hand evaluation shares: the result's shape, stop rules, the
ranking of alternatives with P(best), and known cards at other seats.

A hand evaluation plays one seat's fixed hand against many random deals (the
counter-based generator makes deal ``i`` the same for every alternative), so the
alternatives' per-deal outcomes are paired. Each batch of deals is folded into
sufficient statistics as it is played (paired moments of the alternatives' scores,
histograms of the points), so an evaluation holds the same few numbers whether it
plays a thousand deals or a billion, and parts played on a cluster add up to the
very numbers of one run. :func:`rank_alternatives` turns the moments into a table
with P(best), and :func:`run_stop_rule` grows the sample until a stop rule is met.
Game modules: ``evaluate`` (Pedro/Cinch),
``rook.evaluate``, ``king.evaluate``.

May import: the foundations, :mod:`.advice`, :mod:`.twolevel`, the games' registry and
protocol and :mod:`.games.common`; never a game by name.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .advice import Decision, decision_looks
from .cards import JOKER, CardSet, parse_cards
from .documents import stamp
from .games.common import (
    SEARCH_BATCH,
    SEAT_OFFSETS,
    clairvoyant,
    parse_policies,
    searches,
    searching_size,
)
from .limits import (
    SEARCH_MAX_DEALS,
    ArgumentError,
    Pace,
    check_counts,
    check_positive,
    check_seed,
    require_time,
)
from .stats import PairedMoments, est_cols
from .text import ShownAsText
from .twolevel import ESTIMATOR as TWO_LEVEL
from .twolevel import TwoLevelMoments, best_split, check_budget

BATCH = 10_000  # deals per round of a stop rule (SEARCH_BATCH when a seat searches)
TOP_K = 4  # alternatives whose CIs a target-CI stop rule watches, and shown with P(best)
# deals before a target CI may stop a run: an interval met on the first 50 searched deals
# rests on a spread that was low by chance (a 3% tail of +30 points: 70% coverage when the
# first batch may stop it, 92% with this floor, as a fixed run of 500 deals covers)
TARGET_MIN_DEALS = 500


class HandError(ValueError):
    """A hand that cannot be evaluated (wrong count of cards)."""


def collapse(parts: list) -> np.ndarray:
    """The batches of one outcome as one array; collapsed in place, so asking again is free."""
    if len(parts) != 1 or parts[0].dtype != np.int64:
        parts[:] = [np.concatenate(parts).astype(np.int64)]
    return parts[0]


@dataclass(repr=False)
class HandEvaluation(ShownAsText):
    """Every table of a hand evaluation, as DataFrames, with its provenance."""

    hand: str
    seat: str
    known: dict  # cards other seats are known to hold, by seat
    rules: str
    policy: str
    seed: int
    n: int
    stopped_by: str
    points: pd.DataFrame  # per trump: the side's points (mean, CI) and beats_passing_to
    distribution: pd.DataFrame  # per trump: share of deals with 0..14 points
    bids: pd.DataFrame  # per trump and bid: P(make) and EVs under both methods
    pass_ev: pd.DataFrame  # EV(pass) under both methods
    actions: pd.DataFrame  # the best alternatives ranked, with P(best)
    recommended: str
    ceilings: pd.DataFrame | None = None  # Rook: EV of bidding up to b, auction included
    decision: Decision | None = None  # the rule behind ``recommended`` (analyzer.advice)
    base_policy: str | None = None  # two-level: the cheap policy of the N deals
    n_base: int | None = None  # two-level: N, the deals the cheap policy played

    def __post_init__(self):
        stamp(self, self.provenance)  # every table says how it was made

    def text(self) -> str:  # as ``bidlab hand`` prints it
        from .games import game

        return game(self.rules).render_hand(self)

    def _repr_extra(self) -> str:
        return f"; {self.hand} at {self.seat}: {self.recommended}"

    @property
    def estimator(self) -> str:
        """How the EVs that rank and decide were made: the searching player's own mean, or
        two-level (the cheap policy's mean over N deals plus the correction over n)."""
        return estimate_fields(self.policy, self.base_policy, self.n_base,
                               self.rules)["estimator"]

    @property
    def advice(self) -> str:
        """The recommendation in one sentence, with its margin over the alternatives."""
        if self.decision is None:
            return self.recommended
        from .games import game, parse_game

        return self.decision.sentence(deal_points=game(self.rules).deal_points(
            parse_game(self.rules)))

    @property
    def provenance(self) -> dict:
        known = "; ".join(f"{seat}={cards}" for seat, cards in self.known.items())
        return {"hand": self.hand, "seat": self.seat, "known": known, "rules": self.rules,
                "policy": self.policy, "seed": self.seed, "n": self.n,
                "stopped_by": self.stopped_by,
                **estimate_fields(self.policy, self.base_policy, self.n_base, self.rules)}


def estimate_fields(policy: str, base_policy: str | None, n_base: int | None,
                    rules: str) -> dict:
    """The provenance that says how an evaluation's ranked numbers were made: ``estimator``
    (plain, or two-level with the cheap ``base_policy`` and its N deals), and ``bound``
    when a seat plays dd: it sees every hand, so where it solves the whole play (the
    game's ``searches_whole_hand``) its numbers (and a two-level estimate of them) bound
    what play can make from above; in Rook and King it solves the last 6 tricks only."""
    from .games import game

    fields = {"estimator": "plain" if base_policy is None else TWO_LEVEL}
    if base_policy is not None:
        fields.update(base_policy=base_policy, n_base=n_base)
    if clairvoyant(policy):
        fields["bound"] = (
            "upper: dd is clairvoyant (sees every hand), not a legal player"
            if game(rules).searches_whole_hand else
            "none: dd sees every hand but solves the last 6 tricks only (the heuristic plays "
            "the first 7), so it bounds nothing; not a legal player")
    return fields


def leading(moments: PairedMoments) -> np.ndarray:
    """Indices of the TOP_K alternatives with the best estimates, the pass (the last) always
    among them. An alternative that played out as the pass on every deal (a bid the seat
    never gets to make, outbid before its turn) is the pass, not a rival of it; one that
    played out as another on every deal (the dealer's bid up to 12 and 13) is that one,
    named by the first (the lower)."""
    pass_index = moments.k - 1
    kept: list[int] = []
    for i in np.argsort(-moments.means(), kind="stable"):
        twins = (pass_index, *kept) if i != pass_index else ()
        if not any(moments.same(i, j) for j in twins):
            kept.append(int(i))
    order = np.array(kept)
    if pass_index in order[:TOP_K]:
        return order[:TOP_K]
    return np.r_[order[:TOP_K - 1], pass_index]


def leading_half_width(moments: PairedMoments) -> float:
    """The widest 95% half-width among the leading alternatives: what --target-ci watches."""
    return max(moments.estimate(i).half_width for i in leading(moments))


def two_level_cols(moments, i: int) -> dict:
    """What a table adds for alternative ``i`` of two-level moments: n (``n_paired``), the
    cheap policy's mean over N (``base``) and the correction the n paired deals estimate,
    each with its interval, the slope they fit (``beta``) and the per-deal correlation of
    the two policies (``rho``), which bounds what the cheap deals gain; nothing for plain
    moments."""
    if not isinstance(moments, TwoLevelMoments):
        return {}
    return {"n_paired": moments.n_paired, **est_cols("base", moments.base_estimate(i)),
            **est_cols("correction", moments.correction(i)), "beta": moments.betas()[i],
            "rho": moments.correlation(i)}


def rank_alternatives(moments: PairedMoments, labels: list[tuple[str, str, int]],
                      seed: int, recommended: str | None = None) -> pd.DataFrame:
    """The leading alternatives (the paired moments of their per-deal net scores, labelled
    (action, trump, bid), the pass last) ranked by their estimate, with P(best) from the
    joint normal law of their paired means (they share the same deals) and each one's
    paired gain over the pass; two-level moments add :func:`two_level_cols`. The action
    ``recommended`` (a label) is among them even when its estimate is not: the advice
    prefers the lowest bid its rivals do not beat beyond the noise, and a reader looks
    for its P(best) and gain here."""
    top = leading(moments)
    extra = [i for i, label in enumerate(labels) if label[0] == recommended]
    if extra and extra[0] not in top:  # in place of a row alike on every deal, or added
        twin = [k for k, i in enumerate(top) if moments.same(i, extra[0])]
        if twin:
            top[twin[0]] = extra[0]
        else:
            top = np.r_[top, extra[0]]
    # P(best) among every alternative, not only those shown: among the shown alone it gave
    # 51% to one of eleven equal bids (the others' share went to the shown ones); a row
    # holds the share of every alternative that played out as it on every deal (the
    # dealer's pass read 5.5% beside 13 bids never made, which held the rest of its 72%)
    every = moments.p_best(list(range(moments.k)), seed=seed)
    pb = [sum(every[j] for j in range(moments.k) if j == i or moments.same(i, j)) for i in top]
    pass_index = moments.k - 1
    rows = [{"action": labels[i][0], "trump": labels[i][1], "bid": labels[i][2],
             "n": moments.n, **est_cols("ev", moments.estimate(i)),
             **est_cols("gain", moments.diff(i, pass_index) if i != pass_index else None),
             "p_best": pb[k], **two_level_cols(moments, i)}
            for k, i in enumerate(top)]
    return (pd.DataFrame(rows).sort_values("ev", ascending=False, kind="stable")
            .reset_index(drop=True))


def batch_for(pols: np.ndarray) -> int:
    """Deals a round of a stop rule for these seat policies (BATCH or SEARCH_BATCH)."""
    return SEARCH_BATCH if searches(pols) else BATCH


def grow_part(factory, grow, args: tuple, first: int, n: int):
    """Statistics of deals ``first .. first + n - 1`` alone: ``grow(factory(), *args, first,
    n)`` (a task on a cluster worker; the whole's ``absorb`` adds them)."""
    samples = factory()
    grow(samples, *args, first, n)
    return samples


def spreader(ex, factory, grow, args: tuple, into):
    """``spread(first, n, progress)`` for :func:`analyzer.rollout.run_stop_rule`: deals
    ``first .. first + n - 1`` grown as samples on ``ex``'s workers
    (:func:`analyzer.rollout.grow_part`), a few parts a worker, added to ``into`` in order
    (its ``absorb``)."""
    part = functools.partial(grow_part, factory, grow, args)

    def spread(first: int, n: int, progress=None) -> None:
        for samples in ex.map_parts(part, first, n, progress):
            into.absorb(samples)

    return spread


def run_stop_rule(step, half_width, deals: int, target_ci: float | None,
                  time_budget: float | None, max_deals: int, batch: int = BATCH,
                  progress=None, decided=None, spread=None) -> tuple[int, str]:
    """Call ``step(first, n)`` on consecutive deals, ``batch`` at a time, until the stop
    rule says so, and ``progress(n)`` after each step when given.

    Without a rule: ``deals`` deals (the rounds only pace the progress: deal i is the same
    deal in any round). With ``target_ci`` (``half_width()`` at most it, from
    TARGET_MIN_DEALS on), ``decided`` (``decided(looks)`` true: the recommendation is clear
    with the 95% shared among ``looks`` looks, asked only at
    :func:`analyzer.advice.decision_looks`; the run's decision is reported at that level,
    :func:`stop_looks`) or ``time_budget`` (seconds): until one is met or ``max_deals``.
    Returns the deals played and the rule that stopped: "deals", "target-ci", "decided",
    "time-budget" or "max-deals". The samples are sums, whatever the deals; a run that
    would take more than the time limit on any machine, or at the pace of its first batch,
    is refused (analyzer.limits).

    ``spread(first, n, progress)``, when given, plays deals ``first .. first + n - 1`` on a
    cluster in parts, adds them in order, and reports each part: the whole run at once
    without a stop rule, else each round of ``batch`` (the rule looks at the same
    boundaries, so the result is the one ``step`` gives).
    """
    adaptive = target_ci is not None or time_budget is not None or decided is not None
    limit = max_deals if adaptive else deals
    what = "--max-deals" if adaptive else "--deals"
    if time_budget is None:  # the clock ends a budgeted run, whatever its --max-deals
        require_time(limit, what)
    if spread is not None and not adaptive:
        spread(0, limit, progress)
        return limit, "deals"
    pace = None if time_budget is not None or spread is not None else Pace(limit, what)
    looks = decision_looks(batch, limit)
    next_look = 0
    start, done = time.perf_counter(), 0
    while True:
        n = min(batch, limit - done)
        if spread is None:
            step(done, n)
        else:
            spread(done, n, None)
        done += n
        if pace is not None:
            pace.step(done)
        if progress is not None:
            progress(n)
        if not adaptive:
            if done >= limit:
                return done, "deals"
            continue
        if target_ci is not None and done >= TARGET_MIN_DEALS and half_width() <= target_ci:
            return done, "target-ci"
        if decided is not None and done >= looks[next_look]:
            next_look = sum(look <= done for look in looks)
            if decided(len(looks)):
                return done, "decided"
        if time_budget is not None and time.perf_counter() - start >= time_budget:
            return done, "time-budget"
        if done >= limit:
            return done, "max-deals"


def stop_looks(until_decided: bool, pols: np.ndarray, max_deals: int) -> int:
    """The looks at the deals that share the 95% of a run's decision: those of
    :func:`run_stop_rule` when it plays until the decision is clear (it stopped where the
    decision was clear at that level; a walk at one look's level may name another bid),
    else 1."""
    return len(decision_looks(batch_for(pols), max_deals)) if until_decided else 1


def run_two_level(grow_base, grow_paired, variances, deals: int, base_deals: int,
                  budget: float | None = None, progress=None, spread_base=None,
                  spread_paired=None, batch: int = SEARCH_BATCH) -> tuple[int, int, str]:
    """Grow the samples of a two-level estimate (:mod:`analyzer.twolevel`): the cheap
    policy's over deals 0 .. N-1 (``grow_base(first, n)``) and the paired one, both policies
    on the same deals, over 0 .. n-1 (``grow_paired(first, n)``; ``progress(n)`` after each
    batch of ``batch`` of them).

    Without ``budget``: n = ``deals`` and N = max(``base_deals``, n). With ``budget``
    (seconds): a pilot of paired deals (``batch``, doubled until it has taken a twentieth of
    the budget) and BATCH cheap ones (at least as many as the pilot: the paired deals are
    among them) measures what a deal of each costs, ``variances()`` gives a deal's variances
    of what the interval is to be narrow for, as :func:`analyzer.twolevel.best_split` takes
    them, from the samples so far (e.g. ``TwoLevelMoments.leading_variances``), and it
    chooses the N and n that make it narrowest in the whole budget. ``spread_*(first, n,
    progress)`` grow them on a cluster instead. Returns (n, N, stopped_by): "deals" or "budget".
    """
    def grow(step, spread, first: int, n: int, report=None) -> None:
        if n > 0:
            (spread or (lambda f, k, _p: step(f, k)))(first, n, report)

    def paired_to(done: int, n: int) -> None:
        if spread_paired is not None:
            spread_paired(done, n - done, progress)
            return
        while done < n:
            size = min(batch, n - done)
            grow_paired(done, size)
            done += size
            if progress is not None:
                progress(size)

    if budget is None:
        require_time(deals, "--deals")
        paired_to(0, deals)
        grow(grow_base, spread_base, 0, max(base_deals, deals))
        return deals, max(base_deals, deals), "deals"
    # the pilot doubles until it has taken a twentieth of the budget, so that a batch's
    # fixed costs do not pass for the cost of a deal when the searching player is cheap
    start = time.perf_counter()
    pilot = 0
    while pilot == 0 or (time.perf_counter() - start < budget / 20 and pilot < 2**20):
        paired_to(pilot, max(batch, 2 * pilot))
        pilot = max(batch, 2 * pilot)
    cost_paired = (time.perf_counter() - start) / pilot
    mark = time.perf_counter()
    cheap = max(BATCH, pilot)  # the paired deals are among the cheap ones
    grow(grow_base, spread_base, 0, cheap)
    cost_base = (time.perf_counter() - mark) / cheap
    split = best_split(*variances(), cost_base, cost_paired, budget)
    n = max(split.n_paired, pilot)
    big = max(split.n_base, cheap, n)
    paired_to(pilot, n)
    grow(grow_base, spread_base, cheap, big - cheap)
    return n, big, "budget"


def parse_dealt_hand(text: str, size: int, game: str, joker_message: str) -> int:
    """Mask of a dealt hand of ``size`` cards of the 52-card deck of ``game`` (its name, for
    the messages); HandError (or CardParseError) otherwise, ``joker_message`` for a joker."""
    cards = parse_cards(text)
    if JOKER in cards:
        raise HandError(joker_message)
    if len(cards) != size:
        raise HandError(f"a {game} hand is {size} cards of the 52-card deck; got {len(cards)} "
                        f"card(s) in {text!r}")
    return CardSet(cards).mask


def parse_known(known: dict[str, str], hand_offset: int,
                no_joker: str | None) -> tuple[tuple[int, int], ...]:
    """``{"second": "AH KH"}`` -> ((2, mask),); HandError for a bad seat or the hand's own seat,
    and ``no_joker`` (the game's own message; None where the deck has one) for a joker."""
    if not isinstance(known, Mapping):
        raise HandError(f"known cards are a mapping of seat to cards, such as {{\"second\": "
                        f"\"AH KH\"}}; got {known!r}")
    out = []
    for seat, text in known.items():
        if seat not in SEAT_OFFSETS:
            raise HandError(f"bad seat {seat!r} for known cards; seats: "
                            f"{', '.join(SEAT_OFFSETS)}")
        off = SEAT_OFFSETS[seat]
        if off == hand_offset:
            raise HandError(f"{seat} holds the evaluated hand; known cards go to other seats")
        if not isinstance(text, str):  # parse_cards would fail on .strip, deep in cards.py
            raise HandError(f"known cards of {seat} are a string such as \"AH KH\"; got "
                            f"{text!r}")
        cards = parse_cards(text)
        if JOKER in cards and no_joker is not None:
            raise HandError(no_joker)
        out.append((off, CardSet(cards).mask))
    return tuple(sorted(out))  # seat order, however given: one provenance for one deal


def evaluate_hand(game, hand: str, seat: str = "eldest", executor=None, **options):
    """What ``hand`` is worth at ``seat`` in any game: its game's evaluation
    (:meth:`analyzer.games.protocol.Game.evaluate_hand`; Pedro and Cinch:
    :func:`analyzer.games.pedro.evaluate.evaluate_hand`, Rook:
    :func:`analyzer.games.rook.evaluate.evaluate_rook_hand`, King:
    :func:`analyzer.games.king.evaluate.evaluate_king_hand`, whose options they take).
    ``executor`` (a Dask one of :mod:`analyzer.runs`, as ``compare_variants`` and the
    ladder take) grows the deals on its workers, with the same result.

    >>> ev = evaluate_hand("cinch", "AH KH QH 5D 2H 9C 3S JS 7C", seat="dealer", deals=2_000)
    >>> ev.recommended.endswith("naming hearts")
    True
    """
    from .games import as_rules
    from .games import game as game_of

    rules = as_rules(game)
    if not isinstance(hand, str):
        raise ArgumentError(f"hand must be a string of cards such as \"AS KS 5S\"; got "
                            f"{hand!r}")
    check_options(options)
    # a size given as None is the game's default, as bid_chart and compare_variants take it
    options = {k: v for k, v in options.items() if not (v is None and k in DEFAULTED_SIZES)}
    g = game_of(rules)
    if executor is not None:
        options["spread_with"] = functools.partial(spreader, executor)
    return g.evaluate_hand(rules, hand, seat, **search_sized(g, options))


def search_sized(g, options: dict) -> dict:
    """``options`` with the CLI's smaller defaults where a seat searches and a size was left
    out: ``deals`` (:func:`searching_size`) and a stop rule's ``max_deals``."""
    pols = parse_policies(options.get("policy", "heuristic"))
    if not searches(pols):
        return options
    small = {"deals": searching_size(g, "hand", pols, 0)}
    if any(options.get(k) for k in ("target_ci", "time_budget", "until_decided")):
        small["max_deals"] = SEARCH_MAX_DEALS
    return {**small, **options}


DEFAULTED_SIZES = ("deals", "max_deals", "base_deals")  # each absent one: the game's default


def check_options(options: dict) -> None:
    """ArgumentError for a size, seed or tolerance among a hand evaluation's ``options``
    that cannot make a run."""
    check_counts(optional=DEFAULTED_SIZES,
                 **{name: options.get(name) for name in DEFAULTED_SIZES})
    # as `bidlab hand` refuses them: a size the run would not use was ignored without a word
    adaptive = any(options.get(k) for k in ("target_ci", "time_budget", "until_decided"))
    if adaptive and options.get("deals") is not None:
        raise ArgumentError("deals is a fixed count; with target_ci, time_budget or "
                            "until_decided the run stops by the rule or at max_deals")
    if not adaptive and options.get("max_deals") is not None:
        raise ArgumentError("max_deals applies to target_ci, time_budget or until_decided; "
                            "use deals for a fixed count")
    if "seed" in options:
        check_seed(options["seed"])
    check_budget(options.get("base"), options.get("budget"), options.get("deals"),
                 options.get("base_deals"))
    for name in ("target_ci", "time_budget"):
        check_positive(name, options.get(name))
