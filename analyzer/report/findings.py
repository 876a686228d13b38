"""A report's key findings: one or two sentences a section's own numbers support, put at
the top of the report so a reader gets the answers before the tables.

Each sentence is read off the section's tables (the numbers written to ``data/``), here or
by the section's maker (a bid guide's headline is its game's: ``Part.headlines``), carries
its 95% interval, and says "beyond the noise" only where the interval excludes zero: a
finding is never stronger than the section below it. A section with nothing to headline
(an empty bid guide) gives none.

May import: :mod:`.parts`, :mod:`analyzer.stats`, :mod:`analyzer.estimate_text`,
:mod:`analyzer.compare` (the size of a comparison's family) and :mod:`analyzer.advice` (a
family's quantile).
"""

from __future__ import annotations

from ..advice import MIN_TRIALS, ladder_z
from ..compare import family_size
from ..estimate_text import ci, pct
from ..stats import wilson
from .parts import FEW, Part

MOST_MEASURES = 3  # per comparison: the clearest effects, the rest in its table


def apart(lo: float, hi: float, ref: float, digits: int) -> int:
    """``digits``, or more (up to 6) so that a bound other than ``ref`` does not print as
    it: a side "beyond the noise" of an even 50% must not show "[50.0%, 50.6%]", nor one
    within it "[50.0%, 50.6%]" for a bound of 49.996%.

    >>> apart(50.04, 50.6, 50.0, 1), apart(49.996, 50.6, 50.0, 1), apart(-1.0, 1.0, 0.0, 2)
    (2, 3, 2)
    """
    while digits < 6 and any(b != ref and round(b, digits) == round(ref, digits)
                             for b in (lo, hi)):
        digits += 1
    return digits


def key_findings(parts: list[Part]) -> list[tuple[Part, str]]:
    """(part, sentence) for each headline, in the report's order."""
    out = []
    for p in parts:
        read = _READERS.get(p.key)
        out += [(p, sentence) for sentence in p.headlines + (read(p) if read else [])]
    return out


def _first_text(p: Part) -> list[str]:
    """The section's own first paragraph (the rules in force, the seats' verdict)."""
    return next(([b.text] for b in p.blocks if b.kind == "text"), [])


def _bids(p: Part) -> list[str]:
    levels = p.tables["levels"]
    levels = levels[levels["n"] >= FEW]
    if not len(levels):
        return []
    unit = p.provenance["unit"]
    top = levels.loc[levels["n"].idxmax()]
    worst = levels.loc[levels["rate"].idxmin()]
    made = pct(top["rate"], top["rate_lo"], top["rate_hi"])
    scored = ci(top["ev"], top["ev_lo"], top["ev_hi"], sign=True)
    said = (f"Auctions are won most often at {int(top['bid']):,} ({int(top['n']):,} of "
            f"{p.provenance['n']:,} {unit}): made {made}, the bidding side scoring {scored} "
            f"a {unit[:-1]}")
    # the lowest rate, then the levels whose rate may be as low (their intervals reach its
    # upper bound): a wide interval may, a narrow one a little higher may not
    low = levels[(levels["rate_lo"] <= worst["rate_hi"])
                 & (levels["bid"] != worst["bid"])].sort_values("bid")
    rates = [f"{int(r.bid):,} ({pct(r.rate, r.rate_lo, r.rate_hi)})" for r in low.itertuples()]
    if len(low) or worst["bid"] != top["bid"]:
        said += (f"; the level made least often is {int(worst['bid']):,} "
                 f"({pct(worst['rate'], worst['rate_lo'], worst['rate_hi'])})")
    if len(low):
        said += (", and " + (", ".join(rates[:-1]) + " and " if len(rates) > 1 else "")
                 + f"{rates[-1]} may be as low ("
                 + ("their intervals reach" if len(rates) > 1 else "its interval reaches")
                 + " the lowest's)")
    return [said + " (a level's row describes the hands that bid it under this policy)."]


def _hands(p: Part) -> list[str]:
    hands = p.tables["hands"]
    if "advice" not in hands:  # a hand's tables with no advice in one sentence
        return []
    return [f"{r.hand} at {r.seat}: {r.advice}." for r in hands.itertuples()]


def _variants(p: Part) -> list[str]:
    headlines = tuple(p.provenance.get("headline_measures", ()))
    out = []
    for _, t in p.tables["comparisons"].groupby("comparison", sort=True):
        # a comparison's own row (a deal, a hand, a whole game); before, the section's
        unit = t["unit"].iloc[0] if "unit" in t else p.provenance["unit"][:-1]
        rules = f"B = {t['b_rules'].iloc[0]} against A = {t['a_rules'].iloc[0]}"
        label = t["label"].iloc[0] if "label" in t else ""
        head = f"{label} ({rules})" if label and label != rules else rules
        # beyond the noise as the comparison flagged it: its interval clear of zero, on
        # enough paired deals to tell (a table without the flags: the interval alone)
        moved = t[t["beyond_noise"] if "beyond_noise" in t
                  else (t["diff_lo"] > 0) | (t["diff_hi"] < 0)]
        if not len(moved):
            out.append(f"{head}: no measure of the {len(t)} moves beyond the noise.")
            continue
        shown = _shown_measures(moved, headlines)
        family = "beyond_family" in t
        out.append(f"{head}, B − A per {unit}: " + "; ".join(shown[:MOST_MEASURES])
                   + f" ({len(moved)} of {len(t)} measures "
                   f"{'moves' if len(moved) == 1 else 'move'} beyond the noise"
                   + (f", {int(t['beyond_family'].sum())} of them (*) even with the 95% "
                      f"held for all {family_size(t)} measures that have an interval together"
                      if family else "") + "; the clearest shown"
                   + "".join(f", those of a {h} first" for h in headlines
                             if any(m.startswith(h) for m in moved["measure"])) + ").")
    return out


def _shown_measures(moved, headlines: tuple[str, ...]) -> list[str]:
    """The measures beyond the noise as a finding names them: the game's headline measures
    first (King's final scores), then the clearest (the effect over its interval's width);
    a measure that only mirrors one shown (the other side's share of the same points) left
    out; a share in percentage points; * where it holds for the whole family."""
    clarity = moved["b_minus_a"].abs() / (moved["diff_hi"] - moved["diff_lo"])
    order = sorted(moved.index, key=lambda i: (  # sorted() is stable: ties keep order
        not (headlines and moved.at[i, "measure"].startswith(headlines)), -clarity[i]))
    shown, seen = [], []
    for r in moved.loc[order].itertuples():
        if any(abs(r.b_minus_a + d) <= 1e-9 * max(1.0, abs(d)) for d in seen):
            continue
        seen.append(r.b_minus_a)
        star = "*" if getattr(r, "beyond_family", False) else ""
        if getattr(r, "share", False):  # a share of deals moves by percentage points
            d, lo, hi = 100 * r.b_minus_a, 100 * r.diff_lo, 100 * r.diff_hi
            shown.append(f"{r.measure} {ci(d, lo, hi, apart(lo, hi, 0, 1), True)}{star} "
                         "percentage points")
        else:
            digits = apart(r.diff_lo, r.diff_hi, 0, 3)
            shown.append(f"{r.measure} "
                         f"{ci(r.b_minus_a, r.diff_lo, r.diff_hi, digits, True)}{star}")
    return shown


def _ladder(p: Part) -> list[str]:
    rungs = p.tables["rungs"]
    if "diff" not in rungs or len(rungs) < 2:
        return []
    base, measure = rungs["rung"].iloc[0], p.provenance.get("measure", "points")
    compared = len(rungs) - 1
    held = (f"paired, 95% for the {compared} players compared together" if compared > 1
            else "paired")
    out = []
    for r in rungs.iloc[1:].itertuples():  # on too few deals, or within the noise: no claim
        lo, hi = r.diff_family_lo, r.diff_family_hi
        how = ("cannot yet be told from" if r.n < MIN_TRIALS else "plays better than" if lo > 0
               else "plays worse than" if hi < 0 else "shows no difference beyond the noise from")
        out.append(f"Card player {r.rung} {how} {base} on the same {r.n:,} "
                   f"{p.provenance['unit']}: {measure} "
                   f"{ci(r.diff, lo, hi, apart(lo, hi, 0, 2), True)} ({held}).")
    return out


def _games(p: Part) -> list[str]:
    """Which side wins more or less often than an even share, beyond the noise (the seats
    section already says who ends ahead on points); for two teams, who are even by design
    (each deals first in every other game), how long a game lasts."""
    sides = p.tables["sides"]
    if len(sides) == 2:  # teams deal first in turn, game by game: even by design
        return [f"Whole games: {t[0].lower()}{t[1:]}" for t in _first_text(p)]
    even = 1 / len(sides)
    # the 95% held for all sides together: four even seats each at 95% made a claim in 18%
    held = {r.side: wilson(r.wins, r.n, ladder_z(len(sides))) for r in sides.itertuples()}
    rates = {side: pct(w.p, w.lo, w.hi, apart(100 * w.lo, 100 * w.hi, 100 * even, 1))
             for side, w in held.items()}
    uneven = [f"{side} wins {rates[side]}" for side, w in held.items()
              if w.lo > even or w.hi < even]
    level = f"95% for the {len(sides)} sides together"
    if not uneven:
        return [f"Whole games: no side wins more or less often than an even {even:.0%} beyond "
                f"the noise ({level}: {'; '.join(f'{s} {r}' for s, r in rates.items())})."]
    return [f"Whole games, against an even {even:.0%} of wins ({level}): " + "; ".join(uneven)
            + (" (the others within the noise)." if len(uneven) < len(sides) else ".")]


_READERS = {"rules": _first_text, "bids": _bids, "seats": _first_text,
            "hands": _hands, "variants": _variants, "ladder": _ladder, "games": _games}
