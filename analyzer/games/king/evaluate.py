"""What a King hand is worth: the penalty it takes in each negative contract, and in a
positive hand the tricks it takes and the value of the trump right.

The 13 cards are fixed at one seat (counted from the dealer: the dealer leads
and, in a positive hand, is the benefited) and the other 39 dealt at random;
deal ``i`` of a seed is the same deal for every contract and alternative, so
the differences are paired.

* **Negative contracts**: the distribution of the seat's penalty and its mean
  with a 95% CI, every seat playing its policy.
* **Positive hand**: E[my tricks | I name trump t] for each suit (and no trump
  when allowed), E[my tricks | I name my policy's trump], and E[my tricks |
  another seat names trump] (each of the other three in turn, by its policy),
  with no auction and no payment. Their paired difference is the trump right's
  value in tricks: worth offering up to that many tricks, and as the benefited
  an offer is worth accepting when it exceeds it (an offer of 1 only when it
  also beats the decline it forgoes). The 4-3-3-3 decline is worth taking
  when the seat expects fewer than 4 tricks naming trump.

>>> from analyzer.games.king.rules import parse_rules
>>> ev = evaluate_king_hand(parse_rules("king"), "AH KH QH JH 2C 3C 4C 5D 6D 7D 8S 9S TS",
...                         contract="no-hearts", deals=2_000)
>>> ev.negative["contract"].tolist(), bool(ev.negative["points"].iloc[0] < 0)
(['no_hearts'], True)

May import: the foundations, the generic analyses and views, ``games.common`` and
``games.protocol``, and King's own modules; never another game.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ...advice import MIN_TRIALS
from ...cards import SUIT_NAMES, CardSet
from ...documents import dumps, provenance, records, stamp
from ...estimate_text import interval_text, pct, plus_minus
from ...moments import Histogram
from ...rollout import (
    HandError,
    batch_for,
    est_cols,
    estimate_fields,
    parse_dealt_hand,
    parse_known,
    run_stop_rule,
    two_level_cols,
)
from ...stats import Estimate, PairedMoments, held, wilson
from ...text import ShownAsText, render_table
from ...two_level_hand import HandModel, grow_tally, two_level_hand
from ...twolevel import check_budget
from .. import king
from ..common import (
    SEAT_OFFSETS,
    SEATS,
    one_policy_for_every_seat,
    parse_policies,
    policy_label,
    policy_string,
)
from .rules import POSITIVE, check_played, contract_name, parse_contract
from .view import hand_total

TRUMP_LABELS = (*SUIT_NAMES, "no trump")
NO_JOKER = "King is played with the 52-card deck: no joker"


def parse_king_hand(text: str) -> int:
    """Mask of a 13-card King hand; HandError (or CardParseError) otherwise."""
    return parse_dealt_hand(text, 13, "King", NO_JOKER)


def contracts_of(text: str, rules) -> list[int]:
    """``all`` (every contract ``rules``' games play: the negatives, joined ones included,
    then the positive hand) or one contract's code, if they play it."""
    if isinstance(text, str) and text.strip().lower() == "all":
        return list(dict.fromkeys(rules.contracts))
    code = parse_contract(text)
    check_played(code, rules)
    return [code]


@dataclass(repr=False)
class KingEvaluation(ShownAsText):
    hand: str
    seat: str
    rules: str
    policy: str
    seed: int
    n: int
    negative: pd.DataFrame  # per negative contract: the seat's points, mean and CI, P(0)
    distribution: pd.DataFrame  # per negative contract: share of deals by points taken
    positive: pd.DataFrame  # per trump choice: the seat's tricks, mean and CI
    trump_right: dict  # value of the trump right in tricks, with its CI, and the advice
    known: dict = field(default_factory=dict)  # cards other seats are known to hold, by seat
    base_policy: str | None = None  # two-level: the cheap policy of the N deals
    n_base: int | None = None  # two-level: N

    def __post_init__(self):
        stamp(self, self.provenance)  # every table says how it was made

    def text(self) -> str:  # as ``bidlab hand king`` prints it
        return render_king_hand(self)

    def _repr_extra(self) -> str:
        return f"; {self.hand} at {self.seat}"

    @property
    def advice(self) -> str:
        """The hand's one decision in King's auction, the trump right, in one sentence with
        its margin, as its seat can act: what to offer for it, or, at the dealer (the
        benefited), which offers to accept and whether to decline the hand (the text's
        "Trump right" lines, short)."""
        return trump_right_sentence(self.trump_right, self.seat)

    @property
    def estimator(self) -> str:
        return estimate_fields(self.policy, self.base_policy, self.n_base,
                               self.rules)["estimator"]

    @property
    def provenance(self) -> dict:
        known = "; ".join(f"{seat}={cards}" for seat, cards in self.known.items())
        return {"hand": self.hand, "seat": self.seat, "known": known, "rules": self.rules,
                "policy": self.policy, "seed": self.seed, "n": self.n,
                **estimate_fields(self.policy, self.base_policy, self.n_base, self.rules)}


def king_hand_work(rules, contract: str, deals: int) -> int:
    """The hands :func:`evaluate_king_hand` plays in all: ``deals`` for each negative
    contract, and for the positive hand each trump named, then the seat's own choice and
    another seat's."""
    codes = contracts_of(contract, rules)
    runs = sum(c != POSITIVE for c in codes)
    if POSITIVE in codes:
        runs += (5 if rules.allow_no_trump else 4) + 2
    return runs * deals


class _Batch:
    """One batch of hands: the seat's points in each negative contract evaluated, then its
    tricks in the positive hand under each choice (each trump it may name, its policy's
    trump, another seat naming), hand by hand."""

    def __init__(self, codes: list[int], trumps: int):
        self.codes = [c for c in codes if c != POSITIVE]
        self.trumps = trumps if POSITIVE in codes else 0
        self.columns: list = []


class _Tally:
    """A King hand evaluation's sufficient statistics, batch by batch: per negative contract,
    how often the seat took each penalty; and the paired moments of every column of a
    :class:`_Batch` (the penalties, then the positive hand's tricks by choice)."""

    def __init__(self, codes: list[int], trumps: int):
        layout = _Batch(codes, trumps)
        self.codes, self.trumps = layout.codes, layout.trumps
        self.negative = {code: Histogram(1) for code in self.codes}
        self.columns = PairedMoments(len(self.codes) + (self.trumps + 2 if self.trumps else 0))

    def add(self, batch: _Batch, rules=None) -> None:
        for code, points in zip(self.codes, batch.columns, strict=False):
            self.negative[code].add(points)
        self.columns.add_columns(batch.columns)

    def absorb(self, other: _Tally) -> None:
        for code, counts in self.negative.items():
            counts.absorb(other.negative[code])
        self.columns.absorb(other.columns)


def _simulate(batch: _Batch, rules, mask, offset, known, pols, seed, first: int,
              n: int) -> None:
    """Record hands ``first .. first + n - 1`` of every contract evaluated in ``batch``."""
    rows = np.arange(n)

    def seat_column(column, code, **kw):
        sc = king.Scenario(hand=mask, seat=offset, known=known, **kw)
        rec = king.run_batch(rules, first, n, seed, pols, contract=code, scenario=sc)[0]
        me = (rec[:, king.engine.R_DEALER].astype(np.int64) + offset) % 4
        return rec[rows, column + me].astype(np.int64)

    batch.columns = [seat_column(king.engine.R_POINTS, code) for code in batch.codes]
    if batch.trumps:
        choices = [{"trump": t} for t in range(batch.trumps)] + [{}]
        batch.columns += [seat_column(king.engine.R_TRICKS, POSITIVE, chooser="self", **kw)
                          for kw in choices]
        batch.columns.append(seat_column(king.engine.R_TRICKS, POSITIVE, chooser="other"))


def _nets(batch: _Batch, rules) -> list:
    return batch.columns


def _ranked(tally: _Tally, rules) -> PairedMoments:
    return tally.columns


def _model(codes: list[int], trumps: int) -> HandModel:
    return HandModel(functools.partial(_Tally, codes, trumps),
                     functools.partial(_Batch, codes, trumps), _simulate, _nets, _ranked)


def evaluate_king_hand(rules, hand: str, seat: str = "eldest", contract: str = "all",
                       deals: int = 20_000, seed: int = 1, policy: str = "heuristic",
                       known: dict[str, str] | None = None, progress=None,
                       spread_with=None, base: str | None = None, base_deals: int = 100_000,
                       budget: float | None = None) -> KingEvaluation:
    """Evaluate ``hand`` at ``seat`` for ``contract`` (a name, or ``all``); ``progress(n)``
    is called after each batch of n hands (:func:`king_hand_work` of them in all);
    ``spread_with`` plays them on a cluster (:func:`analyzer.evaluate_hand`). ``base``,
    ``base_deals`` and ``budget`` make the means two-level estimates (as Pedro's)."""
    if seat not in SEAT_OFFSETS:
        raise HandError(f"bad seat {seat!r}; seats: {', '.join(SEAT_OFFSETS)}")
    if deals < 1:
        raise HandError("deals must be at least 1")
    mask = parse_king_hand(hand)
    codes = contracts_of(contract, rules)
    pols = parse_policies(policy)
    one_policy_for_every_seat(pols, "a hand evaluation")
    offset = SEAT_OFFSETS[seat]
    known_cards = parse_known(known or {}, offset, NO_JOKER)
    king.Scenario(hand=mask, seat=offset, known=known_cards).vector()  # validate up front

    model = _model(codes, 5 if rules.allow_no_trump else 4)
    runs = king_hand_work(rules, contract, 1)  # hands played for each deal
    counted = progress and (lambda n: progress(n * runs))
    two_level = {}
    check_budget(base, budget)
    if base is not None:
        run = two_level_hand(model, rules, mask, offset, known_cards, pols, base, seed, deals,
                             base_deals, budget, counted, spread_with)
        tally, moments, deals, two_level = run.tally, run.moments, run.n, run.provenance
    else:
        tally = model.tally()
        grow = (model, rules, mask, offset, known_cards, pols, seed)
        run_stop_rule(lambda first, n: grow_tally(tally, *grow, first, n), None, deals, None,
                      None, deals, batch_for(pols), counted,
                      spread=spread_with(model.tally, grow_tally, grow, tally) if spread_with
                      else None)
        moments = tally.columns

    neg_rows, dist_rows = [], []
    for j, (code, counts) in enumerate(tally.negative.items()):
        zero = wilson(counts.count(lambda p: p == 0), deals)
        worst = hand_total(contract_name(code))  # one seat takes every penalty
        neg_rows.append({"contract": contract_name(code), "n": deals,
                         **est_cols("points", held(moments.estimate(j), worst, 0, deals)),
                         "p_zero": zero.p, "p_zero_lo": zero.lo, "p_zero_hi": zero.hi,
                         **two_level_cols(moments, j)})
        (values,), shares = counts.table()
        dist_rows += [{"contract": contract_name(code), "points": int(v), "share": c / deals}
                      for v, c in zip(values, shares, strict=True)]
    pos_rows, right = [], {}
    if tally.trumps:
        first = len(tally.codes)
        for t in range(tally.trumps):
            pos_rows.append({"choice": f"I name {TRUMP_LABELS[t]}", "n": deals,
                             **est_cols("tricks", held(moments.estimate(first + t), 0, 13,
                                                       deals)),
                             **two_level_cols(moments, first + t)})
        mine, other = first + tally.trumps, first + tally.trumps + 1
        own, others = (held(moments.estimate(k), 0, 13, deals) for k in (mine, other))
        pos_rows.append({"choice": "I name my policy's trump", "n": deals,
                         **est_cols("tricks", own), **two_level_cols(moments, mine)})
        pos_rows.append({"choice": "another seat names trump", "n": deals,
                         **est_cols("tricks", others), **two_level_cols(moments, other)})
        right = trump_right_advice(held(moments.diff(mine, other), -13, 13, deals), own, others,
                                   trials=moments.n_paired)  # two-level: the searched n
    return KingEvaluation(
        hand=str(CardSet(mask)), seat=seat, rules=str(rules), policy=policy_string(pols),
        seed=seed, n=deals, negative=pd.DataFrame(neg_rows), distribution=pd.DataFrame(dist_rows),
        positive=pd.DataFrame(pos_rows), trump_right=right,
        known={SEATS[o]: str(CardSet(m)) for o, m in known_cards}, **two_level)


def trump_right_advice(value: Estimate, own_tricks: Estimate, other_tricks: Estimate,
                       trials: int | None = None) -> dict:
    """What the trump right's value says, only as far as the noise allows (the rule of
    analyzer.advice): offer k tricks only while the value exceeds k beyond the noise (its
    95% lower bound), and decline (4-3-3-3) only when naming trump is expected to take
    fewer than 4 tricks beyond the noise; "either" otherwise.

    As the benefited, selling for k gives k + the tricks taken when another seat names
    trump (``other_tricks``). An offer of 2 or more is worth accepting above the value's
    upper bound, since refusing it means playing the hand. An offer of 1 must also beat
    the decline it forgoes (refused, it leaves the benefited free to decline for 4):
    it is accepted only if, beyond the noise, 1 + other_tricks beats both naming trump
    and 4 tricks. With no interval (one deal), or under ``advice.MIN_TRIALS`` deals
    (``trials``, by default ``value.n``; a two-level value's are its searched deals, the
    ``n`` it reports, as the evaluation's tables do), it gives no advice: no offer, none
    worth accepting and no word on declining (None for all three; "either" would say the
    two were measured alike).

    >>> from analyzer.stats import Estimate
    >>> a = trump_right_advice(Estimate(1.6, 0.05, 1.5, 1.7, 900), Estimate(5.1, .1, 4.9, 5.3, 900),
    ...                        Estimate(3.5, .1, 3.3, 3.7, 900))
    >>> a["offer_up_to"], a["accept_offers_above"], a["decline"]
    (1, 1, 'play')

    A weak hand worth 0.2 tricks as trump maker still refuses 1: it takes about 2 tricks
    when another names trump, so 1 + 2 falls short of the 4 its decline gives.

    >>> weak = trump_right_advice(Estimate(0.2, .01, .18, .22, 900),
    ...                           Estimate(2.2, .01, 2.18, 2.22, 900),
    ...                           Estimate(2.0, .01, 1.98, 2.02, 900))
    >>> weak["accept_offers_above"], weak["decline"]
    (1, 'decline')
    """
    trials = value.n if trials is None else trials
    known = (math.isfinite(value.lo) and math.isfinite(value.hi)  # n = 1 leaves it open
             and trials >= MIN_TRIALS)  # a handful of deals tells nothing (advice)
    accept_above = max(0, math.floor(value.hi)) if known else None
    if accept_above == 0 and not (other_tricks.lo > 3):  # 1 + other must beat the decline's 4
        accept_above = 1
    return {"value": value.mean, "value_lo": value.lo, "value_hi": value.hi, "n": trials,
            "offer_up_to": max(0, math.ceil(value.lo) - 1) if known else None,
            "accept_offers_above": accept_above,
            "own_tricks": own_tricks.mean, "own_tricks_lo": own_tricks.lo,
            "own_tricks_hi": own_tricks.hi,
            "decline": None if not known else "decline" if own_tricks.hi < 4
            else "play" if own_tricks.lo > 4 else "either"}


def _two_level_cells(row, digits: int) -> list[str]:
    """A two-level row's cheap mean over N and correction over n, each ± its 95%
    half-width (none for a plain row)."""
    if "correction" not in row:
        return []
    return [plus_minus(row["base"], (row["base_hi"] - row["base_lo"]) / 2, digits),
            plus_minus(row["correction"], (row["correction_hi"] - row["correction_lo"]) / 2,
                       digits, sign=True)]


def render_king_hand(ev: KingEvaluation) -> str:
    known = "".join(f" | {seat} holds {cards}" for seat, cards in ev.known.items())
    out = [f"hand {ev.hand} | seat {ev.seat}{known} | rules {ev.rules} | "
           f"policy {policy_label(ev.policy)} | "
           f"seed {ev.seed} | n {ev.n:,} deal{'s' * (ev.n != 1)} per contract", ""]
    parts = [] if ev.base_policy is None else [f"{ev.base_policy} (N)", "correction (n)"]
    if ev.base_policy is not None:
        out[1:1] = [f"estimator: {ev.estimator}: {policy_label(ev.base_policy)} on N = "
                    f"{ev.n_base:,} deals, plus the correction ({ev.policy} minus it) fitted "
                    f"on the first n = {ev.n:,} of them. The means, their "
                    f"intervals and the trump right are these; P(0) and the distribution are "
                    f"{ev.policy}'s own over its n deals."]
    if len(ev.negative):
        out.append("Negative contracts: my points per hand (mean ± 95% CI) and P(no penalty)")
        out.append(render_table(
            ["contract", "points", *parts, "P(0) %"],
            [[r["contract"], interval_text(r["points"], r["points_lo"], r["points_hi"], 1),
              *_two_level_cells(r, 1),
              pct(r["p_zero"], r["p_zero_lo"], r["p_zero_hi"], unit="")]
             for _, r in ev.negative.iterrows()], "lr" + "r" * len(parts) + "r"))
        out += ["", "Distribution of my points per hand, % of deals (all values: --json)"]
        for contract, rows in ev.distribution.groupby("contract", sort=False):
            rows = rows.sort_values("points", ascending=False)
            shown = "  ".join(f"{int(p):+d}: {100 * sh:.1f}" for p, sh in
                              zip(rows["points"], rows["share"], strict=True) if sh >= 0.001)
            out.append(f"  {contract:18} {shown}")
        out.append("")
    if len(ev.positive):
        out.append("Positive hand: my tricks (before any payment), mean ± 95% CI; no auction: "
                   "the seat named is given the right (another seat: each of the other three "
                   "in turn, naming by its policy)")
        out.append(render_table(
            ["who names trump", "tricks", *parts],
            [[r["choice"], interval_text(r["tricks"], r["tricks_lo"], r["tricks_hi"], 2),
              *_two_level_cells(r, 2)]
             for _, r in ev.positive.iterrows()], "lr" + "r" * len(parts)))
        out += ["", *_trump_right_lines(ev.trump_right, ev.seat)]
    return "\n".join(out)


# whether the benefited should decline the hand (4-3-3-3), by trump_right_advice's "decline"
DECLINE_WORDS = {"decline": "the 4-3-3-3 decline (4 tricks) beats naming trump beyond the noise",
                 "play": "naming trump beats the 4-3-3-3 decline (4 tricks) beyond the noise",
                 "either": "the 4-3-3-3 decline and naming trump differ by no more than the "
                           "noise"}


def _too_few(r: dict) -> str:
    few = "1 deal is" if r["n"] == 1 else f"{r['n']:,} deals are"
    return f"{few} too few to advise on it (advice needs {MIN_TRIALS})"


def _offer_words(r: dict) -> str:
    return (f"offer up to {r['offer_up_to']} trick(s) for it" if r["offer_up_to"] else
            "it is not worth an offer of 1 trick beyond the noise: do not offer")


def _acting(r: dict, seat: str | None) -> list[str]:
    """The advice a seat can act on: the dealer of a positive hand (the benefited) answers
    offers and may decline it, the others may offer for the right; with no seat, both."""
    offer = [_offer_words(r)]
    above = r["accept_offers_above"]  # "above 0" read as a puzzle beside "decline"
    answer = ["as the benefited, accept any offer (1 trick or more)" if above == 0 else
              f"as the benefited, accept an offer above {above}",
              DECLINE_WORDS[r["decline"]]]
    return answer if seat == "dealer" else offer if seat is not None else offer + answer


def trump_right_sentence(r: dict, seat: str | None = None) -> str:
    """A trump right's value and the advice (:func:`trump_right_advice`) its ``seat`` can
    act on (:func:`_acting`), in one sentence.

    >>> r = {"value": 1.32, "value_lo": 1.28, "value_hi": 1.36, "n": 2000, "offer_up_to": 1,
    ...      "accept_offers_above": 1, "decline": "play"}
    >>> trump_right_sentence(r, "eldest")
    'trump right worth 1.32 ± 0.04 tricks: offer up to 1 trick(s) for it'
    >>> trump_right_sentence(r, "dealer")  # doctest: +NORMALIZE_WHITESPACE
    'trump right worth 1.32 ± 0.04 tricks: as the benefited, accept an offer above 1;
    naming trump beats the 4-3-3-3 decline (4 tricks) beyond the noise'
    """
    if not r:
        return "no trump right to advise on: no positive hand was played"
    worth = f"trump right worth {interval_text(r['value'], r['value_lo'], r['value_hi'], 2)} tricks"
    if r["accept_offers_above"] is None:
        return f"{worth}: {_too_few(r)}"
    return f"{worth}: " + "; ".join(_acting(r, seat))


def _trump_right_lines(r: dict, seat: str | None = None) -> list[str]:
    """The trump right's value and the advice its ``seat`` can act on; under
    ``MIN_TRIALS`` deals (no advice: ``accept_offers_above`` None) a line that says so, not
    a reason of the noise."""
    own = interval_text(r["own_tricks"], r["own_tricks_lo"], r["own_tricks_hi"], 2)
    lines = [f"Trump right: worth {interval_text(r['value'], r['value_lo'], r['value_hi'], 2)} "
             "tricks (mine minus another seat's choice, paired; 95% CI)"]
    if r["accept_offers_above"] is None:
        return [*lines, f"  {_too_few(r)}; my tricks naming trump: {own}"]
    acting = _acting(r, seat)
    if DECLINE_WORDS[r["decline"]] in acting:  # the decline beside the tricks it weighs
        acting[-1] += f" (my tricks naming trump: {own})"
    who = ("" if seat is None else
           "  As the dealer of a positive hand this seat is the benefited: it answers offers "
           "and may decline the hand." if seat == "dealer" else
           "  At this seat the right is the dealer's; this seat may offer tricks for it.")
    return [*lines, *(f"  {a}" for a in acting), *([who] if who else []),
            "  Advice only where the 95% interval is clear of the line (analyzer/advice.py)."]


def king_hand_json(ev: KingEvaluation) -> str:
    """``hand --json`` of a King hand, strict (:mod:`analyzer.documents`): an interval unknown
    at n = 1, or a trump right with no positive hand, is null, never NaN."""
    return dumps({"provenance": provenance(ev.provenance),
                  "advice": ev.advice,
                  "negative": records(ev.negative),
                  "distribution": records(ev.distribution),
                  "positive": records(ev.positive),
                  "trump_right": ev.trump_right})

