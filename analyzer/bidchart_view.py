"""A bid chart for people and for programs: terminal tables, and a folder of files.

Every figure carries its 95% interval; the header carries the provenance (rules, policy,
seed, deals and seat-hands, features) and one sentence says what the numbers assume.
The tables are :class:`analyzer.bidchart.BidChart`'s DataFrames; nothing is recomputed.

May import: the foundations, :mod:`.advice`, :mod:`.bidchart`, the games' registry and
plotting; never a game by name.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from . import atomic, io
from .advice import MIN_TRIALS, slight_words
from .chart_features import RARE_HALF_WIDTH, RARE_MIN_N, class_legend
from .estimate_text import ci, plus_minus
from .games import game, parse_game
from .games.common import policy_label
from .games.protocol import ChartContents
from .text import render_table, without_context


def _pm(mean: float, lo: float, hi: float, digits: int = 2, sign: bool = False) -> str:
    if not np.isfinite(mean):
        return "-"
    return plus_minus(mean, (hi - lo) / 2, digits, sign)


def _said(action: str, ctx: dict, g) -> str:
    """An action as a seat of the class's context makes it: Pedro's dealer, who bids last,
    "bid up to 10" (the hand says so; the chart said "bid 10")."""
    seat = "dealer" if ctx.get("dealer") is True else ctx.get("seat")
    verb = g.bid_words(str(seat)) if seat is not None else "bid"
    return action.replace("bid ", f"{verb} ", 1) if action.startswith("bid ") else action


def _note(c) -> str:
    """A class's note: rare (too few hands, or too wide to read), else unclear and slight."""
    if c.rare:
        return "rare"
    return ", ".join(w for w, on in (("unclear", not c.clear), ("slight", c.slight)) if on)


def _deal_points(chart) -> float:
    rules = chart.provenance["rules"]
    return game(rules).deal_points(parse_game(rules))


def _slight_legend(chart) -> str:
    return (f"slight = a gain over pass whose whole interval lies "
            f"{slight_words(_deal_points(chart))}: passing gives up little")


def _rare_legend(chart) -> str:
    points = _deal_points(chart)
    return (f"rare = under {RARE_MIN_N} hands, or the interval deciding its recommendation "
            f"wider than ±{RARE_HALF_WIDTH * points:.3g} points ({RARE_HALF_WIDTH * 14:g}/14 "
            f"of the {points:g} a deal holds): too few deals to read it")


def _unguided(chart, ctx_cols: list[str]) -> list[str]:
    """The line naming the seats the guide has no row for: no class there that is not rare
    is recommended to bid (a player would read the seat's absence as 'never bid')."""
    if ctx_cols != ["seat"]:
        return []
    guided = set(chart.guide["seat"])
    missing = [s for s in chart.classes["seat"].cat.categories if s not in guided]
    if not missing:
        return []
    return [f"No class that is not rare is recommended to bid at seat {', '.join(missing)} "
            "(more deals read more classes)."]


def header(chart) -> str:
    p = chart.provenance
    method = "" if p["method"] == game(p["rules"]).name else f" method {p['method']},"
    hands = 4 * p["n_deals"]  # a two-level chart leaves out classes with too few searched
    kept = "" if p["n"] == hands else f" ({p['n']:,} of them in the classes shown)"
    line = (f"{p['rules']} | policy {policy_label(p['policy'])} | seed {p['seed']} | "
            f"{p['n_deals']:,} deals x 4 seats = {hands:,} hands{kept} | classes by {p['by']} | "
            f"EV{method} own − opponents")
    if "base_policy" not in p:
        return line
    return (f"{line}\nestimator: {p['estimator']}: {policy_label(p['base_policy'])} on "
            f"N = {p['n_base']:,} deals, plus the correction ({p['policy']} minus it) fitted "
            f"on the first n = {p['n_search']:,}. EV(pass), the gains and the "
            f"recommendations are these; points (sole) are {p['policy']}'s own over its n deals"
            + (f"; {p['classes_unsearched']} classes had under two searched hands and are "
               f"left out" if p["classes_unsearched"] else "") + ".")


def render_bid_chart(chart, digits: int | None = None) -> str:
    """The classes per seat (strongest first), the guide and the monotonicity check."""
    rules_game = game(chart.provenance["rules"])
    digits = digits if digits is not None else rules_game.points_digits
    context = [f for f in chart.by if f in ("seat", "dealer")]
    out = [header(chart), chart.provenance["model"], ""]
    two_level = "pass_correction" in chart.classes.columns
    up_to = not rules_game.bids_are_ceilings  # Rook's bids are "up to"
    groups = (chart.classes.groupby(context, observed=True, sort=True) if context
              else [((), chart.classes)])
    for ctx, group in groups:
        ctx = ctx if isinstance(ctx, tuple) else (ctx,)
        where = dict(zip(context, ctx, strict=True))
        name = ", ".join(f"{f} {v}" if f == "seat" else (f if v else f"not {f}")
                         for f, v in zip(context, ctx, strict=True)) or "all seats"
        rows = [[without_context(c.label, ctx), f"{c.n:,}",
                 _pm(c.points, c.points_lo, c.points_hi, digits),
                 _pm(c.ev_pass, c.ev_pass_lo, c.ev_pass_hi, digits, True),
                 *([_pm(c.pass_correction, c.pass_correction_lo, c.pass_correction_hi, digits,
                        True)] if two_level else []),
                 _said(c.recommended, where, rules_game),
                 _pm(c.rec_gain, c.rec_gain_lo, c.rec_gain_hi, digits, True),
                 *([c.beats_passing_to or "-"] if up_to else []),
                 f"{_said(c.best, where, rules_game)}{'' if c.best == c.recommended else ' *'}",
                 _note(c)]
                for c in group.iloc[::-1].itertuples()]
        out += [f"{name}: classes strongest first",
                render_table(["class", "n", "points (sole)", "EV(pass)",
                              *(["of which correction"] if two_level else []), "recommended",
                              "gain over pass", *(["beats passing to"] if up_to else []), "best EV",
                              "note"], rows,
                             align="lrrr" + ("r" if two_level else "") + "lr"
                             + ("r" if up_to else "") + "ll"), ""]
    out += ["points (sole) = the side's points when the seat is the only bidder; recommended: "
            "a bid only where it beats passing, and every lower bid, beyond the noise; gain "
            "over pass is paired (same deals); "
            + ("beats passing to = highest bid that beats passing beyond the noise; "
               if up_to else "")
            + "best EV * = the highest estimate differs from the recommendation "
            "within the noise; unclear = the recommendation and its rival differ within the "
            f"noise; {_slight_legend(chart)}; {_rare_legend(chart)}."
            + (f" Of which correction = what {chart.provenance['policy']}'s play adds to the "
               f"cheap player's EV(pass), over the n paired deals (each action's: "
               f"chart.csv under --out-dir); a class with under {MIN_TRIALS} searched hands is "
               f"rare too." if two_level else ""), ""]
    if len(chart.guide):
        ctx_cols = [f for f in context if f in chart.guide.columns]
        rows = [[*(r[f] for f in ctx_cols),
                 r["bid_from"] if r["bid_from"] == r["bid_to"] else
                 f"{r['bid_from']}-{r['bid_to']}",
                 without_context(r["minimum holding"], [r[f] for f in ctx_cols]),
                 f"{r['n']:,}", _said(r["recommended"], {f: r[f] for f in ctx_cols}, rules_game),
                 _pm(r["rec_gain"], r["rec_gain_lo"], r["rec_gain_hi"], digits, True),
                 "slight" if r["slight"] else ""]
                for _, r in chart.guide.iterrows()]
        out += ["Bidding guide: the weakest class that is not rare (fewest points as sole "
                "bidder) recommended to bid at least b, for each b: read off many classes, "
                "each with its own noise, so it is not a threshold (a stronger class may read "
                "pass where its gain is within the noise, and another seed may name a "
                "neighbouring class):",
                render_table([*ctx_cols, "bid", "minimum holding", "n", "recommended",
                              "its gain over pass", "note"], rows,
                             align="l" * len(ctx_cols) + "rlrlrl"),
                *_unguided(chart, ctx_cols), ""]
    else:
        out += ["Bidding guide: no class that is not rare is recommended to bid (more deals "
                "read more classes).", ""]
    out.append(render_violations(chart, digits))
    return "\n".join(out)


def render_violations(chart, digits: int = 2) -> str:
    """The monotonicity check: where a class one card stronger is recommended a lower bid
    beyond the noise, each with its interval; the pairs within the noise are counted (all
    are in violations.csv)."""
    v = chart.violations
    beyond = v[v["beyond_noise"]]
    head = "Monotonicity (a card added to the suit never lowers the recommended bid): "
    within = (f"{len(v) - len(beyond)} pair(s) of neighbouring classes bid lower with the card "
              "by no more than the noise (violations.csv)")
    if beyond.empty:
        return f"{head}holds beyond the noise; {within}."
    rows = [[r.stronger, r.weaker, f"{r.stronger_bid or 'pass'} < {r.weaker_bid}",
             _pm(r.gain_diff, r.gain_diff_lo, r.gain_diff_hi, digits, True),
             ("*" if r.beyond_family else "") + (" rare class" if r.rare else "")]
            for r in beyond.itertuples()]
    pairs = v.attrs.get("pairs", len(v))
    family = int(beyond["beyond_family"].sum())
    return (f"{head}{len(beyond)} exception(s) beyond the noise; {within}. Interval: the "
            f"stronger class's gain over passing at the weaker class's bid, minus the weaker "
            f"class's. Of {pairs} pairs checked about {0.025 * pairs:.1f} would look beyond "
            f"the noise by chance at 95% each; {family} stay beyond it held against all "
            f"{pairs} together (Bonferroni, marked *).\n"
            + render_table(["stronger class", "weaker class", "bids", "gain difference", ""],
                           rows, align="llrrl"))


def chart_contents(chart) -> ChartContents:
    """What ``write_bid_chart`` writes and a report shows: the tables, the heatmap, the
    guide formatted for people and its headline (:func:`guide_headline`)."""
    from . import plotting

    meta = io.flat_meta(chart.provenance)
    tables = {"chart": chart.table, "classes": chart.classes, "guide": chart.guide,
              "violations": chart.violations}
    fig = plotting.bid_heatmap(
        chart.table, chart.classes,
        title=f"EV(action) − EV(pass), own − opponents; box = recommended\n"
              f"{meta['rules']}, policy {policy_label(meta['policy'])}, seed "
              f"{meta['seed']}, n={int(meta['n']):,} hands ({int(meta['n_deals']):,} "
              f"deals x 4 seats)")
    g = chart.guide
    shown = pd.DataFrame({
        **({"seat": g["seat"]} if "seat" in g else {}),
        "bids": [f"{a}" if a == b else f"{a}–{b}" for a, b in zip(g["bid_from"], g["bid_to"],
                                                                   strict=True)],
        "weakest hand that bids them": g["minimum holding"],
        "n": [f"{n:,}" for n in g["n"]],
        "gain over passing": [_pm(m, lo, hi, sign=True) for m, lo, hi in
                              zip(g["rec_gain"], g["rec_gain_lo"], g["rec_gain_hi"],
                                  strict=True)],
        "note": ["slight" if x else "" for x in g["slight"]]})
    return ChartContents(
        tables, {"heatmap": fig},
        {"heatmap": "Gain of each action over passing, by class of hand; the box marks the "
                    "advice."},
        "guide", shown,
        guide_headline(g) + _unguided(chart, _guide_context(g)),
        class_legend(game(meta["rules"]).chart_game(parse_game(meta["rules"])).features,
                     chart.by))


def _guide_context(guide: pd.DataFrame) -> list[str]:
    """The guide's columns before its bids: the seat, where the chart is by seat."""
    cols = list(guide.columns)
    return cols[:cols.index("bid_from")] if "bid_from" in cols else []


def guide_headline(guide: pd.DataFrame) -> list[str]:
    """The threshold to open, seat by seat: each seat's first row of the guide (its weakest
    class worth a bid), with the bids it makes and its gain over passing.

    >>> row = {"seat": "dealer", "bid_from": 1, "bid_to": 4, "n": 900, "rec_gain": 0.2,
    ...        "rec_gain_lo": 0.1, "rec_gain_hi": 0.3,
    ...        "minimum holding": "trumps=3, no ace, seat=dealer", "slight": False}
    >>> said, = guide_headline(pd.DataFrame([row, {**row, "bid_from": 5, "bid_to": 9}]))
    >>> said.removeprefix("The weakest hand worth a bid, by seat: ")
    'dealer: trumps=3, no ace (bids up to 4: +0.20 [+0.10, +0.30] over passing).'
    >>> guide_headline(pd.DataFrame([{**row, "rec_gain": 0.02, "rec_gain_lo": 0.01,
    ...                               "rec_gain_hi": 0.03, "slight": True}]))[0][-50:]
    '+0.02 [+0.01, +0.03] over passing, a slight gain).'
    """
    if not len(guide):
        return []
    context = _guide_context(guide)  # the seat, if any
    firsts = guide.groupby(context, sort=False, observed=True).head(1) if context else guide.head(1)
    said = []
    for r in firsts.to_dict("records"):
        holding = ", ".join(x for x in r["minimum holding"].split(", ")
                            if x not in {f"{c}={r[c]}" for c in context})
        where = " ".join(str(r[c]) if c == "seat" else f"{c}={r[c]}" for c in context)
        gain = ci(r["rec_gain"], r["rec_gain_lo"], r["rec_gain_hi"], sign=True)
        said.append(f"{where + ': ' if where else ''}{holding} (bids up to {r['bid_to']}: "
                    f"{gain} over passing{', a slight gain' if r['slight'] else ''})")
    by = f", by {' and '.join(context)}" if context else ""
    return [f"The weakest hand worth a bid{by}: " + "; ".join(said) + "."]


def write_bid_chart(chart, out: Path) -> list[Path]:
    """Write the chart's tables (Parquet and CSV), the heatmap and ``manifest.json`` as the
    folder ``out``, replaced whole (:func:`analyzer.atomic.atomic_dir`)."""
    from . import plotting

    meta = io.flat_meta(chart.provenance)
    contents = chart_contents(chart)
    with atomic.atomic_dir(out) as tmp:
        written = [io.write_table(chart.table, tmp / "chart.parquet", meta)]
        for name, df in contents.tables.items():
            written.append(io.write_table(df, tmp / f"{name}.csv", meta))
        written.append(plotting.save_figure(contents.figures["heatmap"], tmp / "heatmap.png"))
        written.append(io.write_manifest(tmp, meta, written))
    return [Path(out) / p.name for p in written]
