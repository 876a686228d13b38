"""The policy ladder and duplicate matches: how much the player behind a bid table moves it.

Every bid table is the value of a bid *as some player plays it*. The ladder
plays the same deals with the bidding side's cards chosen by each rung (random,
heuristic, pimc, dd) against fixed opponents, on one auction: every seat bids,
names trump and discards (in Rook: drops and passes) by the heuristic, so each
rung plays exactly the same contracts and the rungs differ only in card play.
In King the rung plays the seat holding the trump right of a positive hand (the buyer,
or the benefited dealer playing it himself; hands declined 4-3-3-3 are not played and
are left out), its "bid" is the price in tricks, and the measure is the tricks it takes:
the offer tables are priced in tricks. In a negative contract it plays one seat against
three fixed players (the seat cycles through the four positions from the dealer), and the
measure is that seat's points. ``dd`` is clairvoyant (it sees all four hands), not a legal
player: its rung is an upper bound in Pedro and Cinch; Rook and King solve the last 6
tricks only, after the heuristic's first 7.

A duplicate match plays each deal twice with the partnerships swapped (A at
seats 0 and 2, then B there), whole players this time, bidding included; A's
edge per deal is the mean of its two net scores, so the luck of the cards
cancels and the interval is tight.

>>> from analyzer.ladder import ladder, duplicate
>>> lad = ladder("pedro", deals=2_000, rungs=("random", "heuristic"))
>>> lad.summary()["rung"].tolist()
['random', 'heuristic']
>>> duplicate("pedro", "heuristic", "random", deals=2_000).net_points.lo > 0
True

May import: the foundations, the games' registry and protocol, and ``games.search.setup``
(the policy vector); never a game by name.
"""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .advice import ladder_z
from .estimate_text import interval_text
from .games import as_rules, common, parse_game
from .games import game as game_of
from .games.search.setup import P_PLAY_ONLY  # the policies choose cards only
from .limits import check_count, check_seed, require_memory, require_time
from .stats import held, interval, mean_ci, paired_diff, wilson
from .text import ShownAsText, render_table

RUNGS = common.LADDER_RUNGS
LABELS = {"dd": "dd (clairvoyant)"}


def _vector(spec: str, worlds: int, play_only: bool) -> np.ndarray:
    """The policy vector of ``spec``; ``worlds`` for a bare pimc (pimc:W keeps its W)."""
    pols = common.parse_policies(spec, default_worlds=worlds)
    pols[P_PLAY_ONLY] = int(play_only)
    return pols


def label(rung: str) -> str:
    return LABELS.get(rung.split(":")[0], rung)


@dataclass(repr=False)
class Ladder(ShownAsText):
    """Per-deal results of every rung on the same contracts, and their summaries."""

    deals: pd.DataFrame  # deal, maker, bid, then points_<rung> and made_<rung>
    rungs: tuple[str, ...]
    provenance: dict
    seconds: dict[str, float] = field(default_factory=dict)
    measure: str = "bid-side points"  # what points_<rung> counts (King: tricks or a seat's)
    span: tuple[float, float] | None = None  # what one deal's measure can read, low to high

    def __post_init__(self):
        if self.span is None and self.measure == "bid-side points":  # Pedro's 14, Rook's 200
            rules = parse_game(self.provenance["rules"])
            self.span = (0.0, float(game_of(rules).deal_points(rules)))

    def text(self) -> str:
        return render_ladder(self)

    def __repr__(self) -> str:
        p = self.provenance
        contract = f" contract {p['contract']}," if "contract" in p else ""
        return (f"<Ladder: {p['rules']},{contract} rungs {','.join(self.rungs)} against "
                f"{p['opponents']}, seed {p['seed']}, {p['deals']:,} "
                f"{game_of(p['rules']).deal_unit}>")

    def summary(self, baseline: str = "heuristic") -> pd.DataFrame:
        """One row per rung: mean bid-side points, P(make) over contract deals, and the paired
        difference in points from ``baseline`` on the same deals (95% CIs; ``diff_family_*``
        the interval held for every rung's difference together, Bonferroni: four equal
        rungs each at 95% alone made a claim in 12% of runs)."""
        df = self.deals
        contract = df["bid"] > 0
        rows = []
        for r in self.rungs:
            pts = self._held(mean_ci(df[f"points_{r}"]))
            made = df.loc[contract, f"made_{r}"]
            pm = wilson(int(made.sum()), int(contract.sum())) if contract.any() else None
            row = {"rung": label(r), "n": pts.n, "points": pts.mean, "points_lo": pts.lo,
                   "points_hi": pts.hi, "contracts": int(contract.sum()),
                   "p_make": pm.p if pm else np.nan, "p_make_lo": pm.lo if pm else np.nan,
                   "p_make_hi": pm.hi if pm else np.nan, "seconds": self.seconds.get(r, np.nan)}
            if baseline in self.rungs:
                d = paired_diff(df[f"points_{r}"], df[f"points_{baseline}"])
                held = interval(d.mean, d.se, d.n, ladder_z(len(self.rungs) - 1))
                row.update(diff=d.mean, diff_lo=d.lo, diff_hi=d.hi, diff_family_lo=held.lo,
                           diff_family_hi=held.hi)
            rows.append(row)
        return pd.DataFrame(rows)

    def _held(self, e):
        """A mean of the measure within what one deal can read (:attr:`span`: Pedro's 14
        points, a King chooser's 13 tricks): three deals of 14 read "14.00 ± 0.00", and an
        interval ran past 14 (:func:`analyzer.stats.held`)."""
        return e if self.span is None else held(e, *self.span)

    def by_bid(self) -> pd.DataFrame:
        """Per bid level and rung: n, mean bid-side points and P(make), with 95% CIs."""
        rows = []
        for b, g in self.deals[self.deals["bid"] > 0].groupby("bid"):
            for r in self.rungs:
                pts = self._held(mean_ci(g[f"points_{r}"]))
                pm = wilson(int(g[f"made_{r}"].sum()), len(g))
                rows.append({"bid": int(b), "rung": label(r), "n": len(g),
                             "points": pts.mean, "points_lo": pts.lo, "points_hi": pts.hi,
                             "p_make": pm.p, "p_make_lo": pm.lo, "p_make_hi": pm.hi})
        return pd.DataFrame(rows)


def _play_rungs(out: pd.DataFrame, rungs, opponents: str, groups, play, progress,
                weight: int) -> dict:
    """Add each rung's ``points_<rung>`` and ``made_<rung>`` to ``out`` (one row a deal) and
    return its seconds. ``groups`` splits the deals: (rows, the seats the rung plays, tag);
    ``play(rows, policy_spec, tag)`` plays them and gives their points, made flags and
    whether each played the probe's contract (the rungs' premise). ``progress(weight)``
    follows each rung (the deals asked for: a declined King hand counts too). A rung's
    seconds leave out numba's compiling of its kernels (the first run on a machine took
    25 s for 40 deals that then play in 1): one deal played first, untimed, compiles them."""
    seconds = {}
    for r in rungs:
        pts = np.zeros(len(out), dtype=np.int64)
        made = np.zeros(len(out), dtype=bool)

        def spec(mine, rung=r) -> str:  # the rung at its seats, the opponents at the others
            return ",".join(rung if s in mine else opponents for s in range(4))

        for sel, mine, tag in [g for g in groups if len(g[0])][:1]:
            play(sel[:1], spec(mine), tag)
        t0 = time.perf_counter()
        for sel, mine, tag in groups:
            pts[sel], made[sel], same = play(sel, spec(mine), tag)
            if not same.all():
                raise RuntimeError(f"rung {r!r} played other contracts than the heuristic's")
        seconds[r] = time.perf_counter() - t0
        out[f"points_{r}"] = pts
        out[f"made_{r}"] = made
        if progress:
            progress(weight)
    return seconds


def one_policy(text: str, what: str) -> str:
    """The canonical policy string of ``text`` if it names one policy, which the ladder
    gives a whole side; else one line naming ``what`` (a rung, the opponents) and the
    policies accepted."""
    names = ", ".join(common.POLICY_NAMES)
    if "," in text:
        raise common.PolicyError(f"{what} {text!r}: one policy plays the whole side, not one "
                                 f"a seat; give one of {names} (pimc:W for W worlds)")
    try:
        return common.policy_string(common.parse_policies(text))
    except common.PolicyError as e:
        if not str(e).startswith("bad policy"):  # a reason of its own: pimc's worlds
            raise
        raise common.PolicyError(f"bad {what} {text!r}; give one of {names} (pimc:W for W "
                                 "worlds)") from None


def check_rungs(rungs) -> tuple[str, ...]:
    """The rungs as canonical policy strings, checked before any deal is played: at least
    one, each a known policy (one for the whole side), none twice."""
    names = tuple(str(r).strip() for r in rungs)
    if not names or not all(names):
        raise common.PolicyError(f"no rungs given; give policies separated by commas, e.g. "
                                 f"{','.join(RUNGS)}")
    canonical = [one_policy(r, "rung") for r in names]
    twice = sorted({r for r in canonical if canonical.count(r) > 1})
    if twice:
        raise common.PolicyError(f"rung {', '.join(twice)} given more than once; give each "
                                 f"policy once (e.g. {','.join(RUNGS)})")
    return tuple(names)


def ladder(game, deals: int, seed: int = 1, rungs=RUNGS, opponents: str = "heuristic",
           worlds: int = common.DEFAULT_WORLDS, first: int = 0, progress=None,
           contract: str | None = None, executor=None) -> Ladder:
    """Play deals first .. first+deals-1 with each rung as the trump maker's side. The
    auction (and Rook's drop and pass) is the heuristic's for every rung, so rung i and
    rung j play the same contracts; ``opponents`` plays the other side's cards. King plays
    single hands of ``contract`` (default ``positive``; see the module doc).
    ``progress(k)`` counts deals x rungs. ``executor`` (a Dask one of
    :mod:`analyzer.runs`: its ``map_parts``) plays the deals in parts on its workers, with
    the same table: a deal's play depends on nothing but its index."""
    rules = as_rules(game)
    _check_span(deals, seed, first, worlds)
    rungs = check_rungs(rungs)
    one_policy(opponents, "--opponents")
    game_of(rules).check_contract(contract, rules)
    require_memory(deals, 24 * (4 + 2 * len(rungs)), "--deals")  # the per-deal table, twice
    require_time(deals * len(rungs), "--deals x rungs =")
    if executor is None:
        result = ladder_part(rules, seed, rungs, opponents, worlds, contract, first, deals,
                             progress)
    else:
        work = functools.partial(ladder_part, rules, seed, rungs, opponents, worlds, contract)
        result = _joined(list(executor.map_parts(work, first, deals, progress, len(rungs))),
                         first, deals)
    if not len(result.deals):
        raise common.PolicyError(f"all {deals:,} hands were declined (not played); the ladder "
                                 f"needs more deals")
    return result


def ladder_part(rules, seed: int, rungs: tuple[str, ...], opponents: str, worlds: int,
                contract: str | None, first: int, deals: int, progress=None) -> Ladder:
    """The ladder of deals first .. first+deals-1 (checked by :func:`ladder`): a part of a
    longer one, on any machine."""
    idx = np.arange(first, first + deals, dtype=np.int64)
    g = game_of(rules)
    if not g.partnerships:
        return g.ladder(rules, idx, seed, tuple(rungs), opponents, worlds, contract, progress)
    fam = g.module
    probe, _ = fam.run_deals(rules, idx, seed, _vector("heuristic", worlds, True))
    cols = fam.engine.REC_COLUMNS
    maker = g.makers(probe, cols)
    team = maker & 1
    bid = cols.index("bid")
    out = pd.DataFrame({"deal": idx, "maker": maker, "bid": probe[:, bid]})

    def play(sel, spec, t):
        rec, _ = fam.run_deals(rules, idx[sel], seed, _vector(spec, worlds, True))
        same = (g.makers(rec, cols) == maker[sel]) & (rec[:, bid] == probe[sel, bid])
        return rec[:, cols.index(f"points{t}")], rec[:, cols.index("made")] == 1, same

    teams = [(np.flatnonzero(team == t), (t, t + 2), t) for t in (0, 1)]
    seconds = _play_rungs(out, rungs, opponents, teams, play, progress, deals)
    prov = {"game": rules.game, "rules": str(rules), "seed": seed, "first": first,
            "deals": deals, "opponents": opponents, "worlds": worlds,
            "auction": "heuristic for every seat and rung (rungs differ in card play only)"}
    return Ladder(out, tuple(rungs), prov, seconds)


def _joined(parts: list[Ladder], first: int, deals: int) -> Ladder:
    """The ladders of consecutive parts as one: their deals in order, their seconds (on
    the workers) and their declined hands summed."""
    head = parts[0]
    prov = {**head.provenance, "first": first, "deals": deals}
    if "declined" in prov:
        prov["declined"] = sum(p.provenance["declined"] for p in parts)
    seconds = {r: sum(p.seconds[r] for p in parts) for r in head.rungs}
    return Ladder(pd.concat([p.deals for p in parts], ignore_index=True), head.rungs, prov,
                  seconds, head.measure, head.span)


@dataclass
class Duplicate:
    """A duplicate match: A's net edge per deal over B, in points and in score."""

    a: str
    b: str
    net_points: object  # stats.Estimate, per deal, A's side minus B's, mean of the two tables
    net_score: object
    provenance: dict
    seconds: float

    def row(self) -> dict:
        return {"a": label(self.a), "b": label(self.b), "n": self.net_points.n,
                "points": self.net_points.mean, "points_lo": self.net_points.lo,
                "points_hi": self.net_points.hi, "score": self.net_score.mean,
                "score_lo": self.net_score.lo, "score_hi": self.net_score.hi,
                "seconds": self.seconds}


def _check_span(deals, seed, first, worlds) -> None:
    """ArgumentError for deals, a seed, a first deal or worlds no run can take (a string
    seed reached the kernel, as numba's "No matching definition")."""
    check_count("deals", deals)
    check_seed(seed)
    check_count("first", first, 0)
    check_count("worlds", worlds)


def _team_columns(rules) -> tuple[str, str, str, str, object]:
    """Record columns (points0, points1, score0, score1) and the game's package."""
    g = game_of(rules)
    return (*g.team_columns(rules), g.module)


def duplicate(game, a: str, b: str, deals: int, seed: int = 1, first: int = 0,
              worlds: int = common.DEFAULT_WORLDS, executor=None) -> Duplicate:
    """Deals first .. first+deals-1 played twice, A at seats 0 and 2 then at 1 and 3.
    ``worlds`` is for a bare ``pimc``; ``pimc:W`` keeps its own W. ``executor`` (a Dask
    one of :mod:`analyzer.runs`) plays the deals in parts on its workers, with the same
    result."""
    rules = as_rules(game)
    _check_span(deals, seed, first, worlds)
    game_of(rules).require("partnerships", "a duplicate match")
    one_policy(a, "player a")
    one_policy(b, "player b")
    require_time(2 * deals, "--deals x 2 =")
    if executor is None:  # one deal untimed: the seconds leave out numba's compile
        duplicate_part(rules, a, b, seed, worlds, first, 1)
    t0 = time.perf_counter()
    if executor is None:
        net_pts, net_score = duplicate_part(rules, a, b, seed, worlds, first, deals)
    else:
        work = functools.partial(duplicate_part, rules, a, b, seed, worlds)
        parts = list(executor.map_parts(work, first, deals))
        net_pts, net_score = (np.concatenate(p) for p in zip(*parts, strict=True))
    prov = {"game": rules.game, "rules": str(rules), "seed": seed, "first": first,
            "deals": deals, "a": a, "b": b,
            "worlds": int(_vector(",".join((b, a, b, a)), worlds, False)[4])}
    return Duplicate(a, b, mean_ci(net_pts), mean_ci(net_score), prov,
                     time.perf_counter() - t0)


def duplicate_part(rules, a: str, b: str, seed: int, worlds: int, first: int, deals: int,
                   ) -> tuple[np.ndarray, np.ndarray]:
    """A's net edge on each of deals first .. first+deals-1: (points, score)."""
    p0, p1, s0, s1, fam = _team_columns(rules)
    cols = fam.engine.REC_COLUMNS
    tables = []
    for seats in ((a, b, a, b), (b, a, b, a)):
        rec, _ = fam.run_batch(rules, first, deals, seed, _vector(",".join(seats), worlds,
                                                                   False))
        tables.append(rec.astype(np.int64))
    t1, t2 = tables
    i0, i1, j0, j1 = (cols.index(c) for c in (p0, p1, s0, s1))
    net_pts = ((t1[:, i0] - t1[:, i1]) + (t2[:, i1] - t2[:, i0])) / 2
    net_score = ((t1[:, j0] - t1[:, j1]) + (t2[:, j1] - t2[:, j0])) / 2
    return net_pts, net_score


def baseline_of(rungs) -> str:
    """The rung the others are measured against: the heuristic, or where it plays no rung
    the first (the weakest); its column was blank under "vs heuristic" without it."""
    return "heuristic" if "heuristic" in rungs else rungs[0]


def render_ladder(lad: Ladder, summ: pd.DataFrame | None = None,
                  by_bid: pd.DataFrame | None = None) -> str:
    """The header and the tables of a ladder, as ``bidlab ladder`` prints them; ``summ`` and
    ``by_bid`` its :meth:`Ladder.summary` and :meth:`Ladder.by_bid` where the caller has
    them already."""
    p = lad.provenance
    base = baseline_of(lad.rungs)
    summ = lad.summary(base) if summ is None else summ
    by_bid = lad.by_bid() if by_bid is None else by_bid
    what = f"  contract {p['contract']}" if "contract" in p else ""
    searching = "pimc" in (*lad.rungs, p["opponents"])  # a bare pimc: pimc:W says its own
    unit = game_of(p["rules"]).deal_unit
    out = [f"bidlab ladder  {p['rules']}{what}  seed {p['seed']}  {unit} {p['deals']:,}  "
           f"opponents {p['opponents']}" + (f"  pimc worlds {p['worlds']}" if searching else "")]
    if not game_of(p["rules"]).searches_whole_hand and any(
            r.split(":")[0] in ("dd", "pimc") for r in (*lad.rungs, p["opponents"])):
        out.append("dd and pimc solve only the last 6 tricks, after the heuristic's first 7, "
                   "so dd bounds nothing here")
    contracts = bool(summ["contracts"].any())  # a negative King contract has no auction
    if contracts:
        out.append("auction: heuristic for every seat and rung; rungs differ in card play only")
    if "declined" in p:
        out.append(f"{p['declined']:,} hands declined 4-3-3-3 (not played) are left out")
    out.append("")

    def bounds(lo, hi, fmt=".3f") -> str:  # one deal leaves it unknown
        return f"[{lo:{fmt}}, {hi:{fmt}}]" if np.isfinite(lo) and np.isfinite(hi) else "n/a"

    make = ["contracts", "P(make)", "95% CI"] if contracts else []  # P(make)'s own n
    rows = [[r.rung, r.n, f"{r.points:.3f}", bounds(r.points_lo, r.points_hi),
             *((r.contracts, f"{100 * r.p_make:.1f}%",
                f"[{100 * r.p_make_lo:.1f}%, {100 * r.p_make_hi:.1f}%]")
               if contracts else ()),
             "baseline" if r.rung == label(base) else
             f"{r.diff:+z.3f} {bounds(r.diff_lo, r.diff_hi, '+z.3f')}" if "diff" in summ
             else "", f"{r.seconds:.1f}"] for r in summ.itertuples()]
    out.append(render_table(["rung", "n", lad.measure, "95% CI", *make,
                             f"vs {label(base)} (paired)", "seconds"], rows))
    if "make" in p:  # King: no contract to make; what the column counts
        out.append(f"P(make): {p['make']}")
    if len(by_bid):
        out += ["", f"by bid level: {lad.measure} (± 95% half-width; [95% CI] where held to "
                    f"what a deal can read) and P(make) % [95% CI]"]
        rows = []
        for b in sorted(by_bid["bid"].unique()):
            g = by_bid[by_bid["bid"] == b].set_index("rung")
            rows.append([int(b), int(g["n"].iloc[0])]
                        + [_points_cell(g.loc[label(r)]) for r in lad.rungs])
        out.append(render_table(["bid", "n", *[label(r) for r in lad.rungs]], rows))
    return "\n".join(out)


def _points_cell(row) -> str:
    """Points ± half-width (or [lo, hi] where the interval is held to the deal's range, as
    where every deal read the same) and P(make) [its Wilson 95% interval], fixed widths so
    that the columns line up."""
    make = f"[{100 * row['p_make_lo']:.0f}, {100 * row['p_make_hi']:.0f}]"
    points = interval_text(row["points"], row["points_lo"], row["points_hi"], 2)
    return f"{points:>15}  {100 * row['p_make']:3.0f}% {make:>10}"
