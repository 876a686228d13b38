"""The words of a comparison's table (``bidlab compare``, a report's variants): its counts
of deals, the row that pairs only the deals both variants define, and how many deals the
rule changed.

May import: the standard library and pandas.
"""

from __future__ import annotations

import textwrap

import pandas as pd

# a measure of some deals, on only those both variants define it on: the rule's effect there
BOTH_DEFINE = ", deals both define"


def shown_measure(name: str) -> str:
    """A measure's name as a table shows it: a row of :data:`BOTH_DEFINE` hangs under its
    measure's.

    >>> shown_measure("bid (contract deals), deals both define")
    '  └ where both variants define it'
    """
    return "  └ where both variants define it" if name.endswith(BOTH_DEFINE) else name


# under a table whose rows count deals apart (n_label): what the two counts mean
COUNTS_NOTE = ("n A / B: the {unit}s on which each variant defines the measure; where they "
               "differ, B − A is B's mean over its own less A's over its own (none where a "
               "variant has none), so it counts which {unit}s have the measure as well as "
               "their values; the row under it pairs only the {unit}s both define: the rule's "
               "effect on those")


def changed_note(table: pd.DataFrame, p: dict, unit: str, game_only: list[str],
                 width: int | None = 100) -> str:
    """How many deals the rule changed (any measure read otherwise under B), and what a
    flag acting only on whole games does here: nothing; filled to ``width`` (None: one
    line, a report's caption).

    >>> t = pd.DataFrame({"n_differ": [0, 0]})
    >>> print(changed_note(t, {"deals": 500, "changed_deals": 0}, "deal", ["target"]))
    No deal of the 500 played out differently under A and B: with these players, and under
    the other flags of A and B, the rule never came into play (each interval bounds how
    often it could). target acts only on whole games: compare plays single deals, so it
    changes nothing here; compare --games N pairs whole games to the target instead.
    """
    n, changed = p["deals"], p.get("changed_deals", int(table["n_differ"].max()))
    if p.get("whole_games"):
        text = _games_changed(n, changed, p.get("winners_changed"))
    elif changed == n:
        text = f"The rule changed the result of every one of the {n:,} {unit}s."
    elif changed:
        text = (f"The rule changed the result of {changed:,} of the {n:,} {unit}s "
                f"({100 * changed / n:.1f}%): on the others every measure reads alike under "
                "A and B.")
    else:
        text = (f"No {unit} of the {n:,} played out differently under A and B: with these "
                "players, and under the other flags of A and B, the rule never came into play "
                "(each interval bounds how often it could).")
    if game_only:
        text += (f" {', '.join(game_only)} {'acts' if len(game_only) == 1 else 'act'} only "
                 f"on whole games: compare plays single {unit}s, so "
                 f"{'it changes' if len(game_only) == 1 else 'they change'} nothing here; "
                 "compare --games N pairs whole games to the target instead.")
    return textwrap.fill(text, width) if width else text


# what every whole-games comparison assumes of its players, said under its table
SCORE_BLIND = ("bidlab's players bid and play each deal alike whatever the score (none bids "
               "to go out or to keep the other side from going out): these are games of "
               "score-blind players, which run alike under A and B until the rule first "
               "comes into play.")


def _games_changed(n: int, changed: int, winners: int | None) -> str:
    """How many whole games the rule changed, and how many of them changed winner (the
    count a tuner asks for first), then what the players assume.

    >>> text = _games_changed(5000, 5000, 1362)
    >>> text[text.index("the winner"):text.index("%)") + 2]
    'the winner of 1,362 (27.2%)'
    """
    if not changed:
        text = (f"No game of the {n:,} played out differently under A and B: the rule never "
                "came into play (each interval bounds how often it could).")
    else:
        text = (f"The rule changed {changed:,} of the {n:,} games (their length, their winner "
                "or both)" + ("" if winners is None else
                             f"; the winner of {winners:,} ({100 * winners / n:.1f}%)") + ".")
    return f"{text} {SCORE_BLIND}"


def n_label(n_a: int, n_b: int, n_paired: int) -> str:
    """The deals a row counts, as a table shows them: one number where each variant
    defines the measure on every paired deal, else A's and B's own counts.

    >>> n_label(5000, 5000, 5000), n_label(944, 5000, 5000)
    ('5,000', '944 / 5,000')
    """
    return f"{n_a:,} / {n_b:,}" if n_a != n_b or n_a < n_paired else f"{n_paired:,}"


def n_header(apart: bool) -> str:
    """The header of :func:`n_label`'s column: "n (A / B)" only where a row shows two
    counts; one number under it read as A's alone."""
    return "n (A / B)" if apart else "n"


def counts_apart(table: pd.DataFrame) -> bool:
    """Whether a row of a (plain) comparison counts each variant's deals apart, as
    :func:`n_label` shows them: the table then carries :data:`COUNTS_NOTE`."""
    apart = (table["n_a"] != table["n_b"]) | (table["n_a"] < table["n_paired"])
    return bool(apart.any())
