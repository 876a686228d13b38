"""Plain-text tables for the terminal: the one renderer every command and report uses.

>>> print(render_table(["flag", "n"], [["low_to", 2], ["scoring", 12]]))
flag      n
-------  --
low_to    2
scoring  12

May import: the standard library only.
"""

from __future__ import annotations

from collections.abc import Sequence


def without_context(label: str, context_values) -> str:
    """A hand class's label without the parts its table, section or panel already says
    (``seat=dealer``, and the dealer feature's words).

    >>> without_context("trumps=4, ace, seat=third", ["third"])
    'trumps=4, ace'
    """
    drop = {f"seat={v}" for v in context_values} | {"dealer", "no dealer"}
    return ", ".join(p for p in label.split(", ") if p not in drop) or "all hands"


def _is_number(v: object) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def render_table(headers: Sequence[str], rows: Sequence[Sequence[object]],
                 align: str | None = None, indent: str = "") -> str:
    """Rows under headers, columns padded to their widest cell.

    ``align`` has one letter per column, ``l`` or ``r``; by default numbers
    are right-aligned and everything else left-aligned. The last left-aligned
    column is not padded, so lines carry no trailing blanks.
    """
    cells = [[str(h) for h in headers]] + [[str(v) for v in row] for row in rows]
    ncol = len(headers)
    if any(len(r) != ncol for r in cells):
        raise ValueError("every row must have one cell per header")
    if align is None:
        align = "".join(
            "r" if rows and all(_is_number(r[j]) for r in rows) else "l" for j in range(ncol)
        )
    widths = [max(len(r[j]) for r in cells) for j in range(ncol)]
    lines = []
    for i, r in enumerate(cells):
        parts = []
        for j, c in enumerate(r):
            last = j == ncol - 1
            if align[j] == "r":
                parts.append(c.rjust(widths[j]))
            else:
                parts.append(c if last else c.ljust(widths[j]))
        lines.append(indent + "  ".join(parts).rstrip())
        if i == 0:
            lines.append(indent + "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def two_level_note(provenance: dict) -> str:
    """", two-level over heuristic (N=20,000)" for a result whose numbers are two-level
    estimates, "" for a plain one: a repr must not pass for the searching player's own."""
    if "base_policy" not in provenance:
        return ""
    return f", two-level over {provenance['base_policy']} (N={provenance['n_base']:,})"


class ShownAsText:
    """A result that shows itself as the command line prints it: ``str()`` and a notebook
    (``_repr_html_``) give the subclass's ``text()``, and ``repr()`` one line from its
    ``provenance`` (a dataclass's own repr would print every table, cell by cell).
    Dataclasses using it pass ``repr=False``."""

    def text(self) -> str:
        raise NotImplementedError

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        p = self.provenance
        n = f"n={p['n']:,}" + (f" hands of {p['n_deals']:,} deals" if "n_deals" in p else "")
        if p.get("stopped_by") not in (None, "deals"):  # n was the stop rule's, not asked for
            n += f" (stopped by {p['stopped_by']})"
        return (f"<{type(self).__name__}: {p['rules']}, policy {p['policy']}, seed "
                f"{p['seed']}, {n}{two_level_note(p)}{self._repr_extra()}>")

    def _repr_extra(self) -> str:
        return ""

    def _repr_html_(self) -> str:
        import html

        return f"<pre>{html.escape(self.text())}</pre>"
