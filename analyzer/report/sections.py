"""Each section of a report, run from its scenario table into a :class:`~.parts.Part`.

Every section plays deals of the scenario's seed, so deal i is the same deal in every
section, here or on a Dask cluster (``ex``: the same numbers, bit for bit); every number
carries n and its 95% interval, and every part says in one sentence what its numbers
assume. The game is asked through its :class:`~analyzer.games.protocol.
Game` interface only: no section names a game.

May import: :mod:`.parts`, :mod:`.figures`, :mod:`.commands`, :mod:`.scenario`, the
games' registry, protocol and common layer, the generic analyses (summary, bidchart,
compare, compare_text, ladder, stats, estimate_text, twolevel, variants, advice's family
quantile), and :mod:`analyzer.runs` (a cluster's executor: ``ex``, None for here).
"""

from __future__ import annotations

import functools
import json
import time
from collections.abc import Callable

import numpy as np
import pandas as pd

from ..advice import MIN_TRIALS, ladder_z
from ..estimate_text import ci, pct
from ..games import family
from ..games import game as game_of
from ..games.common import policy_label
from ..stats import interval, mean_ci, wilson
from ..twolevel import ESTIMATOR as TWO_LEVEL
from ..variants import describe_allowed, flag_fields
from . import figures
from .commands import section_command
from .parts import FEW, Block, Part, too_few, verdict
from .scenario import Scenario

Progress = Callable[[int], None] | None


def _policy(s: Scenario) -> str:
    return policy_label(s.policy)


def _stamp(part: Part, s: Scenario, rules, n: int, unit: str, t0: float, **extra) -> Part:
    part.provenance = {"rules": str(rules), "seed": s.seed, "policy": s.policy, "n": n,
                       "unit": unit, "seconds": round(time.perf_counter() - t0, 3), **extra}
    return part


def _two_level(s: Scenario, cfg: dict) -> dict:
    """The options that make a section's numbers two-level (none without the scenario's
    base), and the words that say so in its introduction."""
    if s.base is None:
        return {}
    return {"base": s.base, "base_deals": cfg["base_deals"]}


def _estimator_words(s: Scenario, cfg: dict | None) -> str:
    """One sentence on how a two-level section's numbers were made ("" for a plain one);
    without ``cfg`` (several comparisons), without the sizes."""
    if s.base is None:
        return ""
    big, small = (f"N = {cfg['base_deals']:,}", f"n = {cfg['deals']:,}") if cfg else ("N", "n")
    return (f" Two-level estimates of {_policy(s)}'s numbers: {policy_label(s.base)} plays "
            f"{big} deals and {s.policy} the first {small} of them too; each figure is the "
            f"cheap mean over N plus {s.policy}'s correction fitted on the n (regression), its "
            f"interval from both.")


def _estimator_stamp(s: Scenario, n_base) -> dict:
    """The provenance of a two-level section's numbers (none for a plain one): ``n_base``
    the cheap deals (a list of them for several comparisons)."""
    if s.base is None:
        return {}
    return {"estimator": TWO_LEVEL, "base_policy": s.base, "n_base": n_base}


# ---- the rules in force -------------------------------------------------------------------


def rules_part(s: Scenario) -> Part:
    rules = s.rules
    preset = family(rules).PRESETS[rules.game]
    g = game_of(rules)
    rows = []
    for f in flag_fields(type(rules)):
        value, default = getattr(rules, f.name), getattr(preset, f.name)
        rows.append({"flag": f.name, "value": str(value), "default": str(default),
                     "changed": value != default,
                     "allowed": describe_allowed(f, rules.game, type(rules)),
                     "meaning": f.metadata["doc"]})
    data = pd.DataFrame(rows)
    changed = data[data["changed"]]
    part = Part("rules", "The rules in force",
                f"Every section plays {rules} ({g.sources.get(rules.game, g.title)}); the "
                "rules in words are in docs/rules.md of the bidlab source.")
    if len(changed):
        part.text("These flags differ from the preset " + rules.game + ": " + "; ".join(
            f"{r.flag} = {r.value} (default {r.default})" for r in changed.itertuples()) + ".")
    else:
        part.text(f"The preset {rules.game} as it stands: no flag differs from its default.")
    shown = data.assign(value=[f"{v} *" if c else v for v, c in
                               zip(data["value"], data["changed"], strict=True)])
    part.table("flags", data, shown[["flag", "value", "default", "allowed", "meaning"]],
               "Every rule flag (* marks a value that differs from the preset).")
    part.provenance = {"rules": str(rules), "preset": rules.game}
    return part


# ---- one simulation: bid levels, dealer and seats -----------------------------------------


def simulated(s: Scenario, deals: int, cache: dict, progress: Progress, ex=None):
    """(rows, summary) of deals 0..deals-1 of the scenario's seed, simulated and summarized
    once per size: ``[bids]`` and ``[seats]`` of one size share them."""
    if deals not in cache:
        g = game_of(s.rules)
        if ex is None:
            df = g.simulate(s.rules, deals, s.seed, s.policy, progress=progress)
        else:  # in parts on the workers, joined: the same frame
            work = functools.partial(_simulated_part, s.rules, s.seed, s.policy)
            parts = list(ex.map_parts(work, 0, deals, progress))
            df = pd.concat(parts, ignore_index=True)
            df.attrs = {**parts[0].attrs, "first": 0}
        cache[deals] = df, g.summarize(df)
    return cache[deals]


def _simulated_part(rules, seed: int, policy: str, first: int, n: int) -> pd.DataFrame:
    return game_of(rules).simulate(rules, n, seed, policy, first)


def bids_part(s: Scenario, cfg: dict, cache: dict, progress: Progress, ex=None) -> Part:
    t0 = time.perf_counter()
    g = game_of(s.rules)
    df, summary = simulated(s, cfg["deals"], cache, progress, ex)
    levels = g.bid_levels(df, s.rules)
    unit = g.deal_unit  # Pedro's deals, Rook's hands
    part = Part("bids", "Make rate and EV by bid level",
                f"All four seats bid and play as {_policy(s)}; a bid level's row counts the "
                f"{unit} whose auction was won at that level, so it describes the hands that "
                "bid it under this policy, not every hand that could.")
    points = summary.points
    part.table("points", points.rename_axis("measure").reset_index(), pd.DataFrame({
        "measure": points.index, "n": [f"{n:,}" for n in points["n"]],
        "mean [95% CI]": [ci(m, lo, hi, 3) for m, lo, hi in
                          zip(points["mean"], points["lo"], points["hi"], strict=True)]}),
        f"Points per {summary.unit[:-1]}.")
    shown = pd.DataFrame({
        "bid": levels["bid"], "n": [f"{n:,}" for n in levels["n"]],
        "made": [f"{k:,}" for k in levels["made"]],
        "make rate [95% CI]": [pct(p, lo, hi) if n >= FEW else too_few(n)
                               for p, lo, hi, n in zip(levels["rate"], levels["rate_lo"],
                                                       levels["rate_hi"], levels["n"],
                                                       strict=True)],
        "EV of the bidding side [95% CI]": [ci(m, lo, hi, 2, sign=True) if n >= FEW else "-"
                                            for m, lo, hi, n in zip(levels["ev"], levels["ev_lo"],
                                                                    levels["ev_hi"], levels["n"],
                                                                    strict=True)]})
    part.table("levels", levels, shown, "Each bid level: how often the contract was made, and "
               "the bidding side's mean score change (its settlement); a level won on fewer "
               f"than {FEW} {unit} shows its count only.", anchor="bid-levels")
    if (levels["n"] >= FEW).any():
        part.figure("bid_levels", figures.bid_levels(levels[levels["n"] >= FEW], str(s.rules),
                                                     _policy(s)),
                    f"Make rate and EV by bid level (levels of {FEW} {unit} or more), with 95% "
                    "intervals.")
    return _stamp(part, s, s.rules, len(df), summary.unit, t0)


def seats_part(s: Scenario, cfg: dict, cache: dict, progress: Progress, ex=None) -> Part:
    t0 = time.perf_counter()
    g = game_of(s.rules)
    df, summary = simulated(s, cfg["deals"], cache, progress, ex)
    seats = g.seat_positions(df, s.rules)
    teams = "advantage" in seats
    per = summary.unit[:-1]  # deal, or a Rook hand
    part = Part("seats", "Dealer and seat-position advantage",
                f"Every seat plays {_policy(s)}; " + (
                    "positions count clockwise from the dealer, and an advantage is what "
                    f"that position's side gains per {per} over the others, which the deal's "
                    "rotation evens out over a game." if teams else
                    "positions count clockwise from the first dealer of a whole game, and a "
                    "position's advantage is its mean final score per game (the scores sum "
                    "to zero, so 0 is an even seat)."))
    if teams:  # partnerships: share of contracts and the team's edge
        shown = pd.DataFrame({
            "position": seats["position"],
            f"{g.maker_verb} [95% CI]": [pct(p, lo, hi) for p, lo, hi in
                                         zip(seats["share"], seats["share_lo"],
                                             seats["share_hi"], strict=True)],
            "make rate [95% CI]": [pct(p, lo, hi) for p, lo, hi in
                                   zip(seats["make_rate"], seats["make_lo"], seats["make_hi"],
                                       strict=True)],
            f"team's edge per {per} [95% CI]": [
                ci(m, lo, hi, 2, sign=True) for m, lo, hi in
                zip(seats["advantage"], seats["advantage_lo"], seats["advantage_hi"],
                    strict=True)]})
        edge = seats.iloc[-1]
        a, lo, hi = edge["advantage"], edge["advantage_lo"], edge["advantage_hi"]
        part.text("The dealer's team " + verdict(
            lo, hi, f"gains {ci(a, lo, hi)} in score a {per} over the other team, beyond the "
            "noise", f"loses {ci(-a, -hi, -lo)} in score a {per} to the other team, beyond the "
            "noise").replace("no difference", "shows no difference", 1)
            + ". Partners sit two apart, so they share the edge; it is the settlement (bids "
            "made and set, by the rules' scoring), not the card points.")
        part.figure("seats", figures.seat_edges(seats["position"], seats["advantage"],
                                                seats["advantage_lo"], seats["advantage_hi"],
                                                f"team's edge per {per} (score)"),
                    f"Each position's team edge per {per}, with 95% intervals.")
    else:  # one score per seat: the final score and the share of wins
        shown = _side_table(seats)
        part.text(_uneven_seats(seats))
        part.figure("seats", figures.seat_edges(seats["side"], seats["score"],
                                                seats["score_lo"], seats["score_hi"],
                                                "final score per game"),
                    "Each position's mean final score, with 95% intervals.")
    part.table("positions", seats, shown, "By seat position." + (TIES if "win" in seats else ""),
               anchor="seat-positions")
    return _stamp(part, s, s.rules, len(df), summary.unit, t0)


TIES = " Seats tied at the top share that game's win."  # as standings.whole_games counts


def _uneven_seats(sides: pd.DataFrame) -> str:
    """Which positions end a game ahead or behind beyond the noise, in one sentence: the
    95% held for all of them together (Bonferroni), since each of four even seats tested
    at 95% alone made some claim in 17% of runs."""
    z = ladder_z(len(sides))
    held = [(r.side, r.score, e.lo, e.hi) for r in sides.itertuples()
            for e in [interval(r.score, r.score_se, r.n, z)]]
    ahead = [f"{side} gains {ci(m, lo, hi, 1, sign=True)}" for side, m, lo, hi in held if lo > 0]
    behind = [f"{side} loses {ci(-m, -hi, -lo, 1)}" for side, m, lo, hi in held if hi < 0]
    level = f"95% for the {len(sides)} positions together"
    if not ahead and not behind:
        return (f"No position ends a game ahead or behind beyond the noise ({level}: every "
                "interval holds 0).")
    rest = ("." if len(ahead) + len(behind) == len(sides) else
            "; any other position's interval holds 0.")
    return f"Beyond the noise ({level}), per game: " + "; ".join(ahead + behind) + " points" + rest


def _side_table(sides: pd.DataFrame) -> pd.DataFrame:
    return pd.DataFrame({
        "side": sides["side"], "games": [f"{n:,}" for n in sides["n"]],
        "wins [95% CI]": [pct(p, lo, hi) for p, lo, hi in
                          zip(sides["win"], sides["win_lo"], sides["win_hi"], strict=True)],
        "final score [95% CI]": [ci(m, lo, hi, 1, sign=True) for m, lo, hi in
                                 zip(sides["score"], sides["score_lo"], sides["score_hi"],
                                     strict=True)],
        "10% / median / 90%": [f"{a:+,.0f} / {b:+,.0f} / {c:+,.0f}" for a, b, c in
                               zip(sides["score_p10"], sides["score_median"],
                                   sides["score_p90"], strict=True)]})


# ---- the bid guide ------------------------------------------------------------------------


# What every bid guide's advice assumes, in a sentence a player can follow.
OBJECTIVE = (" Each gain is in points per {unit} (it maximises a {unit}'s expected score, not "
             "the chance of winning the game) and is the best reply to these bots' bidding: "
             "against players who adapt, a gain of a tenth of a point may vanish.")


def chart_part(s: Scenario, cfg: dict, progress: Progress, ex=None) -> Part:
    from ..bidchart import bid_chart

    t0 = time.perf_counter()
    g = game_of(s.rules)
    if ex is not None:  # the chart's sums, chunk by chunk on the workers
        from .. import runs

        job = runs.Job.of(s.rules, s.seed, s.policy, kind="bid-chart", by=cfg["by"],
                          base=s.base, search_deals=cfg["deals"])
        chart = runs.play(job, 0, cfg["base_deals"] if s.base else cfg["deals"], ex,
                          progress=progress)
        if s.base and progress:  # the work counted the searched deals as well
            progress(cfg["deals"])
    else:
        chart = bid_chart(s.rules, cfg["deals"], s.seed, s.policy, by=cfg["by"],
                          progress=progress, **_two_level(s, cfg))
    contents = g.chart_contents(chart)
    model = chart.provenance.get("model") or (
        f"Every seat's hand of every deal counts, all seats playing {_policy(s)}; a class's "
        "advice stands only where its paired 95% interval excludes zero.")
    objective = OBJECTIVE.format(unit=g.compare_unit) if g.bid_tables else ""  # not King's
    part = Part("bid-chart", "The bid guide",
                model + g.chart_note(s.rules) + objective + _estimator_words(s, cfg))
    if not len(contents.shown):
        part.text(f"No class of hand gains from any bid beyond the noise on {cfg['deals']:,} "
                  "deals: the guide is empty at this size; more deals narrow the intervals.")
    guide = contents.guide
    part.table(guide, contents.tables[guide], contents.shown, g.guide_caption,
               anchor="bid-guide")
    if contents.legend:
        part.text(contents.legend)
    for name, df in contents.tables.items():
        if name != guide:
            part.tables[name] = df.reset_index(drop=True)
    for name, fig in contents.figures.items():
        part.figure(name, fig, contents.captions[name])
    part.headlines = contents.headline
    part.pre(g.render_chart(chart), command=section_command("bid-chart", s, cfg, by=cfg["by"]),
             note="the tables it names (violations.csv; chart.csv under --out-dir) are "
                  "data/bid-chart-*.csv here")
    return _stamp(part, s, s.rules, int(chart.provenance.get("n_deals",
                                                             chart.provenance.get("n", 0))),
                  "deals", t0, **_estimator_stamp(s, cfg["base_deals"]))


# ---- example hands ------------------------------------------------------------------------


def hands_part(s: Scenario, cfg: dict, progress: Progress, ex=None) -> Part:
    t0 = time.perf_counter()
    g = game_of(s.rules)
    part = Part("hands", "Example hands",
                f"Each hand is held at {cfg['seat']}; the other hands are dealt at random "
                f"from the rest of the deck, {cfg['deals']:,} times, and every seat plays "
                f"{_policy(s)}." + _estimator_words(s, cfg))
    rows = []
    options = {"deals": cfg["deals"], "seed": s.seed, "policy": s.policy,
               "progress": progress, **_two_level(s, cfg)}
    if cfg["contract"] is not None:
        options["contract"] = cfg["contract"]
    if ex is not None:  # the deals grow on the workers, with the same result
        from ..runs import spreader

        options["spread_with"] = functools.partial(spreader, ex)
    for i, text in enumerate(cfg["cards"], 1):
        ev = g.evaluate_hand(s.rules, text, cfg["seat"], **options)
        part.pre(g.render_hand(ev), folded=False,  # the evaluation itself
                 command=section_command("hand", s, cfg, text, seat=cfg["seat"],
                                         contract=cfg["contract"]),
                 note=f"the tables it names for --json and --csv are data/hands-hand{i}_*.csv "
                      f"here")
        doc = json.loads(g.hand_json(ev))
        rows.append({"hand": text, "seat": cfg["seat"], "deals": cfg["deals"],
                     **{k: v for k, v in doc.items() if isinstance(v, str)}})
        for key, value in doc.items():  # its tables: lists of rows
            if isinstance(value, list) and value and isinstance(value[0], dict):
                part.tables[f"hand{i}_{key}"] = pd.DataFrame(value)
        if g.bid_tables:
            part.figure(f"hand_{i}", g.hand_figure(ev), f"{text}: EV by bid.")
    part.tables["hands"] = pd.DataFrame(rows)
    shown = pd.DataFrame(rows).drop(columns=[c for c in ("model", "decision_rule")
                                             if c in rows[0]])
    shown["deals"] = [f"{n:,}" for n in shown["deals"]]
    part.blocks.insert(0, Block("table", text="The hands and the advice.", frame=shown,
                                name="hands", anchor="example-hands"))
    return _stamp(part, s, s.rules, cfg["deals"] * len(cfg["cards"]), g.deal_unit, t0,
                  n_each=[cfg["deals"]] * len(cfg["cards"]), of="hand",
                  **_estimator_stamp(s, cfg["base_deals"]))


# ---- variants on identical deals ----------------------------------------------------------


def variants_part(s: Scenario, tables: list[dict], progress: Progress, ex=None) -> Part:
    from ..compare import compare_variants, family_note, trials_column
    from ..compare_text import COUNTS_NOTE, counts_apart, n_header, n_label, shown_measure

    t0 = time.perf_counter()
    g = game_of(s.rules)
    part = Part("variants", "What the rule changes do", "")  # its model: once played
    frames, n_each, units = [], [], []
    for i, v in enumerate(tables):
        c = compare_variants(v["a"], v["b"], None if v["games"] else v["deals"], s.seed,
                             s.policy, executor=ex, progress=progress, **_two_level(s, v),
                             contract=v["contract"],
                             **({"games": v["games"], "max_deals": v["max_deals"]}
                                if v["games"] else {}))
        n_each.append(c.provenance["deals"])
        unit = c.unit  # what it pairs: deals, a contract's hands, or whole games
        units.append(unit)
        label = v["label"] or f"{c.a} → {c.b}"
        t = c.table.assign(comparison=i + 1, a_rules=c.a, b_rules=c.b, label=label, unit=unit)
        frames.append(t)
        differs = t["n_differ"] if "n_differ" in t else [np.nan] * len(t)  # two-level: none
        paired = "searched" if trials_column(t) == "n_search" else "paired"  # what decides
        shown = pd.DataFrame({
            f"measure (per {unit})": t["measure"].map(shown_measure),
            "A": [ci(m, lo, hi, 3) for m, lo, hi in
                  zip(t["a"], t["a_lo"], t["a_hi"], strict=True)],
            "B": [ci(m, lo, hi, 3) for m, lo, hi in
                  zip(t["b"], t["b_lo"], t["b_hi"], strict=True)],
            "B − A [paired 95% CI]": [ci(d, lo, hi, 4, sign=True) for d, lo, hi in
                                      zip(t["b_minus_a"], t["diff_lo"], t["diff_hi"],
                                          strict=True)],
            "verdict": [f"too few {unit}s to tell ({int(n):,} {paired})"
                        if (lo > 0 or hi < 0) and not beyond else
                        verdict(lo, hi, "B higher" + star, "B lower" + star, 4,
                                unchanged=unit if differ == 0 else None)
                        for lo, hi, differ, star, beyond, n in zip(
                            t["diff_lo"], t["diff_hi"], differs,
                            np.where(t["beyond_family"], "*", ""), t["beyond_noise"],
                            t[trials_column(t)], strict=True)],
            n_header(True): [n_label(*map(int, k)) if np.isfinite(k).all() else "-" for k in
                          zip(t["n_a"], t["n_b"], t["n_paired"], strict=True)]})
        apart = s.base is None and counts_apart(t)
        if s.base is not None:  # two-level: the correction of each difference, and N / n
            shown["correction of B − A [95% CI]"] = [
                ci(d, lo, hi, 4, sign=True) for d, lo, hi in
                zip(t["correction"], t["correction_lo"], t["correction_hi"], strict=True)]
            shown = shown.drop(columns=n_header(True))
            shown["N / n"] = [f"{big:,.0f} / {small:,.0f}" for big, small in
                              zip(t["n_base"], t["n_search"], strict=True)]
        else:  # one count a row reads "n", not A's alone
            shown = shown.rename(columns={n_header(True): n_header(apart)})
        part.table(f"comparison_{i + 1}", t, shown,
                   f"{label}: A = {c.a}, B = {c.b}; {c.deals_line(unit)}"
                   + ("." if v["games"] else " under both.")
                   + (" n: N cheap / n searched deals." if s.base is not None else "")
                   + f" {family_note(t)}"
                   + (f" {COUNTS_NOTE.format(unit=unit)}." if apart else "")
                   + ("" if s.base is not None or c.a == c.b else
                      " " + c.changed_text(width=None)))
        part.figure(f"comparison_{i + 1}", figures.paired_effects(t, label, unit),
                    f"{label}: B − A per measure, each on its own scale, paired 95% "
                    "intervals.")
    part.tables = {"comparisons": pd.concat(frames, ignore_index=True)}
    kinds = sorted({f"{u}s" for u in units})
    part.model = (f"Variants A and B play the same {' or '.join(kinds)} with every seat as "
                  f"{_policy(s)}; B − A is taken "
                  + (f"{units[0]} by {units[0]}" if len(kinds) == 1 else "one by one")
                  + ", so an effect beyond the noise is the rule change's, for players who "
                  "play this way."
                  + (" A comparison of whole games deals game i the same cards under A and B."
                     if any(v["games"] for v in tables) else "") + _estimator_words(s, None))
    return _stamp(part, s, s.rules, sum(n_each), " or ".join(kinds), t0,
                  headline_measures=list(g.compare_headlines),
                  variants=[(str(v["a"]), str(v["b"])) for v in tables],
                  n_each=n_each, of="comparison",
                  **_estimator_stamp(s, [v["base_deals"] for v in tables]))


# ---- the ladder: how much the card player matters -----------------------------------------


def ladder_part(s: Scenario, cfg: dict, progress: Progress, ex=None) -> Part:
    from ..ladder import label, ladder

    t0 = time.perf_counter()
    unit = game_of(s.rules).deal_unit
    lad = ladder(s.rules, cfg["deals"], s.seed, cfg["rungs"], cfg["opponents"],
                 progress=progress, contract=cfg["contract"], executor=ex)
    base = cfg["rungs"][0]
    summary = lad.summary(baseline=base).drop(columns=["seconds"])
    by_bid = lad.by_bid()
    part = Part("ladder", "How much the numbers depend on the card player",
                f"The heuristic bids for everyone, so every rung plays the same contracts; "
                f"the maker's side plays its cards as each rung in turn against "
                f"{policy_label(cfg['opponents'])}: the gap is what better card play is worth "
                f"on {cfg['deals']:,} {unit}"
                + _played_out(int(summary["n"].iloc[0]), lad.provenance.get("declined"))
                + _player_words(cfg["rungs"]))
    shown = pd.DataFrame({
        "card player": summary["rung"], "n": [f"{n:,}" for n in summary["n"]],
        f"{lad.measure} [95% CI]": [ci(m, lo, hi) for m, lo, hi in
                                    zip(summary["points"], summary["points_lo"],
                                        summary["points_hi"], strict=True)],
        "contracts": [f"{c:,}" for c in summary["contracts"]],  # the make rate's own n
        "make rate [95% CI]": [pct(p, lo, hi) for p, lo, hi in
                               zip(summary["p_make"], summary["p_make_lo"],
                                   summary["p_make_hi"], strict=True)]})
    if "diff" in summary:
        shown[f"vs {label(base)} [paired 95% CI]"] = [
            ci(d, lo, hi, 2, sign=True) for d, lo, hi in
            zip(summary["diff"], summary["diff_lo"], summary["diff_hi"], strict=True)]
        shown["verdict"] = [  # the 95% held for every player compared, on enough deals
            "baseline" if r == label(base) else f"too few {unit} to tell" if n < MIN_TRIALS
            else verdict(lo, hi, "plays better", "plays worse")
            for r, lo, hi, n in zip(summary["rung"], summary["diff_family_lo"],
                                    summary["diff_family_hi"], summary["n"], strict=True)]
    compared = len(summary) - 1
    part.table("rungs", summary, shown, "Each card player on the same contracts; the make "
               f"rate is over the contracts (the {unit} played at a bid or a price: taking "
               "at least it)." + (f" Verdict: beyond the noise with the 95% held for the "
                                  f"{compared} players compared together, on {MIN_TRIALS} "
                                  f"{unit} or more." if compared > 1 else ""),
               anchor="ladder")
    if len(by_bid):
        bias = _bias_by_bid(lad, base)
        part.table("by_bid", by_bid, bias, "What better card play adds at each bid level: "
                   f"each rung's {lad.measure} minus {label(base)}'s on the same {unit} (a "
                   f"level of fewer than {FEW} {unit} shows its count only).")
        from ..plotting import ladder_by_bid

        if (by_bid["n"] >= FEW).any():
            part.figure("ladder", ladder_by_bid(by_bid[by_bid["n"] >= FEW],
                                                measure=lad.measure),
                        f"{lad.measure} by bid level for each card player (levels of {FEW} "
                        f"{unit} or more), each player's own 95% interval: the paired "
                        "differences of the table above are narrower.")
    return _stamp(part, s, s.rules, cfg["deals"], unit, t0, rungs=list(cfg["rungs"]),
                  opponents=cfg["opponents"], measure=lad.measure,
                  seconds_by_rung={label(r): round(t, 3) for r, t in lad.seconds.items()})


PLAYER_WORDS = {  # each card player a rung may be, in a sentence a player can follow
    "random": "random plays any legal card",
    "heuristic": "heuristic plays by fixed rules of thumb",
    "pimc": "pimc:W deals the unseen cards W ways consistent with the play so far, solves "
            "each deal with every hand open, and plays the card that does best over them "
            "(Rook and King search their last 6 tricks and play the heuristic before)",
    "dd": "dd sees every hand and plays the solved best card (not a legal player: an "
          "upper bound on Pedro's and Cinch's play; Rook and King solve their last 6 tricks "
          "and play the heuristic before)",
}


def _player_words(rungs) -> str:
    names = dict.fromkeys(r.partition(":")[0] for r in rungs)
    return " The players: " + "; ".join(PLAYER_WORDS[n] for n in names if n in PLAYER_WORDS) + "."


def _played_out(n: int, declined: int | None) -> str:
    """What the ladder's provenance says of hands declined before play (King's)."""
    return (f" ({n:,} of them played out; the {declined:,} hands declined before play are "
            "not)." if declined else ".")


def _bias_by_bid(lad, base: str) -> pd.DataFrame:
    from ..ladder import label
    from ..stats import paired_diff

    df = lad.deals[lad.deals["bid"] > 0]
    rows = []
    for b, grp in df.groupby("bid"):
        row = {"bid": int(b), "n": f"{len(grp):,}"}
        for r in lad.rungs:
            if r == base:
                continue
            if len(grp) >= FEW:
                d = paired_diff(grp[f"points_{r}"], grp[f"points_{base}"])
                row[f"{label(r)} − {label(base)}"] = ci(d.mean, d.lo, d.hi, 2, sign=True)
            else:
                row[f"{label(r)} − {label(base)}"] = too_few(len(grp))
        rows.append(row)
    return pd.DataFrame(rows)


# ---- whole games --------------------------------------------------------------------------


def games_part(s: Scenario, cfg: dict, progress: Progress, ex=None) -> Part:
    from ..games.standings import whole_games

    t0 = time.perf_counter()
    g = game_of(s.rules)
    if ex is None:
        winner, deals, scores = g.whole_game_rows(s.rules, cfg["games"], s.seed, s.policy,
                                                  max_deals=cfg["max_deals"],
                                                  progress=progress)
    else:  # in parts on the workers (game g is the same game in any part), joined
        work = functools.partial(_games_part, s.rules, s.seed, s.policy, cfg["max_deals"])
        parts = list(ex.map_parts(work, 0, cfg["games"], progress))
        winner, deals, scores = (np.concatenate(a) for a in zip(*parts, strict=True))
    sides, lengths = whole_games(winner, deals, scores, g.sides)
    target = getattr(s.rules, "target", None)
    goal = f"to {target}" if target else "of all their hands"
    part = Part("games", "Whole games",
                f"{cfg['games']:,} whole games {goal}, every seat playing {_policy(s)}; "
                f"{g.game_start(s.rules)}.")
    ties = TIES if (winner == -2).any() else ""
    part.table("sides", sides, _side_table(sides), "Win rate and final score by side." + ties,
               anchor="whole-games")
    part.tables["lengths"] = lengths
    undecided = int((winner == -1).sum())
    if len(np.unique(deals)) > 1:
        e = mean_ci(deals)
        part.text(f"A game lasts {ci(e.mean, e.lo, e.hi, 2)} {g.deal_unit} (mean, 95% CI); "
                  f"{undecided:,} of {len(deals):,} were undecided at the cap"
                  + (" (counted at the cap, so the mean is a lower bound)." if undecided
                     else "."))
        part.figure("lengths", figures.game_lengths(lengths, g.deal_unit),
                    f"{g.deal_unit.capitalize()} per game.")
    decided = winner >= 0
    if g.whole_games and decided.any():  # game g's first dealer is g % 4 (King: the sides)
        won = wilson(int((winner == np.arange(len(winner)) % 2)[decided].sum()),
                     int(decided.sum()))
        part.text(f"The first dealer's team won {pct(won.p, won.lo, won.hi)} of the "
                  f"{int(decided.sum()):,} decided games (Wilson 95% CI; 50% would be no edge "
                  "from dealing first, which the rotation of first dealers shares evenly "
                  "between the sides).")
    part.figure("scores", figures.final_scores(scores, g.sides), "Final scores by side.")
    return _stamp(part, s, s.rules, len(deals), "games", t0)


def _games_part(rules, seed: int, policy: str, max_deals, first: int, n: int):
    return game_of(rules).whole_game_rows(rules, n, seed, policy, max_deals, first=first)
