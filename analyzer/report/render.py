"""A report's parts as one self-contained HTML page and as Markdown.

The page carries everything inline: the CSS, and each figure as a PNG data URI, so it
opens from a file, a mail attachment or a phone with no network. Tables scroll sideways
on a narrow screen rather than squeeze; in print, the navigation and the scroll boxes go
and no figure is split across pages. The Markdown shows the same parts with the figures
beside it in ``figures/``, for reading on a code host.

May import: the standard library, pandas and :mod:`.parts`.
"""

from __future__ import annotations

import base64
import html
import re
from pathlib import Path

import pandas as pd

from .parts import Block, Part

Findings = list[tuple[Part, str]] | tuple[()]  # (section, sentence): findings.key_findings

CSS = """
:root { --ink: #1b1b1b; --muted: #5a5a5a; --rule: #d9d9d9; --accent: #0b5394; }
* { box-sizing: border-box; }
body { margin: 0; color: var(--ink); background: #fff;
  font: 16px/1.5 -apple-system, "Segoe UI", "DejaVu Sans", Helvetica, Arial, sans-serif; }
main { max-width: 62rem; margin: 0 auto; padding: 1rem 1rem 4rem; }
h1 { font-size: 1.7rem; line-height: 1.25; margin: 0.5rem 0; }
h2 { font-size: 1.3rem; margin-top: 2.5rem; border-bottom: 2px solid var(--rule); }
p.question { font-size: 1.1rem; }
p.model { font-style: italic; color: var(--muted); border-left: 3px solid var(--accent);
  padding-left: 0.7rem; }
p.meta, p.provenance, figcaption, caption { color: var(--muted); font-size: 0.85rem; }
nav ol { columns: 2; padding-left: 1.2rem; }
a { color: var(--accent); }
.scroll { overflow-x: auto; margin: 0.8rem 0; -webkit-overflow-scrolling: touch; }
table { border-collapse: collapse; font-size: 0.85rem; font-variant-numeric: tabular-nums; }
caption { text-align: left; padding-bottom: 0.3rem; caption-side: top; }
th, td { padding: 0.25rem 0.6rem; border-bottom: 1px solid var(--rule); text-align: left;
  white-space: nowrap; vertical-align: top; }
td.num { text-align: right; }
th { background: #f3f5f8; position: sticky; top: 0; }
td.wrap { white-space: normal; min-width: 14rem; }
figure { margin: 1rem 0; }
figure img { max-width: 100%; height: auto; display: block; }
pre { background: #f7f7f7; padding: 0.7rem; overflow-x: auto; font-size: 0.75rem;
  line-height: 1.35; }
details summary { cursor: pointer; color: var(--accent); }
@media (max-width: 40rem) { body { font-size: 15px; } nav ol { columns: 1; } }
@media print {
  nav, details:not([open]) { display: none; }
  main { max-width: none; padding: 0; }
  .scroll { overflow: visible; }
  h2 { break-after: avoid; }
  figure, table { break-inside: avoid; }
  a { color: inherit; text-decoration: none; }
}
"""


_NUMBER = re.compile(r"^[-+−]?[\d.,]+%?( \[.*\])?$|^-$")  # right-aligned cells


def _esc(x) -> str:
    return html.escape(str(x))


def _html_table(frame: pd.DataFrame, caption: str, anchor: str) -> str:
    head = "".join(f"<th scope=col>{_esc(c)}</th>" for c in frame.columns)
    body = []
    for row in frame.itertuples(index=False):
        cells = []
        for v in row:
            text = _esc(v)
            kind = "num" if _NUMBER.match(str(v)) else "wrap" if len(str(v)) > 40 else "text"
            cells.append(f"<td class={kind}>{text}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    ident = f' id="{anchor}"' if anchor else ""
    return (f'<div class="scroll"{ident}><table><caption>{_esc(caption)}</caption>'
            f"<thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table></div>")


def _provenance_line(p: dict) -> str:
    """The section's footer. A section of several runs (``n_each``, one per ``of``: hands,
    comparisons) names each run's n: no estimate in it has their sum."""
    if "n" not in p:
        return ""
    n = f"n = {p['n']:,} {p['unit']}"
    if len(each := p.get("n_each", ())) > 1:
        sizes = (f"{len(each)} {p['of']}s × {each[0]:,} {p['unit']} each" if len(set(each)) == 1
                 else f"{' + '.join(f'{k:,}' for k in each)} {p['unit']} (one {p['of']} each)")
        n = f"n = {sizes}"
    return f"{n}, seed {p['seed']}, policy {p['policy']}, rules {p['rules']}, {p['seconds']:.1f} s"


FINDINGS_NOTE = ("Each line is the headline of a section below, with its 95% interval; the "
                 "section says what its numbers assume.")


def to_html(title: str, head: list[str], parts: list[Part], figures: Path,
            findings: Findings = ()) -> str:
    """The page: ``head`` paragraphs under the title, the key ``findings`` (each linked to
    its section), then each part; figures are read from the folder ``figures`` (``<part
    key>-<name>.png``) and embedded."""
    out = [f"<h1>{_esc(title)}</h1>"]
    out += [f"<p class={'question' if i == 0 else 'meta'}>{_esc(h)}</p>"
            for i, h in enumerate(head) if h]
    if findings:
        out.append('<section id="findings"><h2>Key findings</h2>'
                   f'<p class="model">{_esc(FINDINGS_NOTE)}</p><ul>'
                   + "".join(f'<li>{_esc(said)} (<a href="#{p.key}">{_esc(p.title)}</a>)</li>'
                             for p, said in findings) + "</ul></section>")
    out.append("<nav><ol>" + "".join(f'<li><a href="#{p.key}">{_esc(p.title)}</a></li>'
                                     for p in parts) + "</ol></nav>")
    for p in parts:
        out.append(f'<section id="{p.key}"><h2>{_esc(p.title)}</h2>'
                   f'<p class="model">{_esc(p.model)}</p>')
        for b in p.blocks:
            if b.kind == "text":
                out.append(f"<p>{_esc(b.text)}</p>")
            elif b.kind == "see":
                out.append(f'<p>{_esc(b.text)} <a href="#{b.anchor}">{_esc(b.name)}</a>.</p>')
            elif b.kind == "table":
                out.append(_html_table(b.frame, b.text, b.anchor))
            elif b.kind == "figure":
                png = (figures / f"{p.key}-{b.name}.png").read_bytes()
                data = base64.b64encode(png).decode("ascii")
                out.append(f'<figure><img src="data:image/png;base64,{data}" '
                           f'alt="{_esc(b.text)}"><figcaption>{_esc(b.text)} '
                           f'(<a href="figures/{p.key}-{b.name}.svg">SVG</a>)</figcaption>'
                           "</figure>")
            elif b.kind == "pre":
                said = (f'<p class="meta">As <code>{_esc(b.command)}</code> prints it'
                        f'{_esc(_note(b))}.</p>' if b.command else "")
                shown = f"{said}<pre>{_esc(b.text)}</pre>"
                out.append(f"<details><summary>As text</summary>{shown}</details>"
                           if b.folded else shown)
        line = _provenance_line(p.provenance)
        if line:
            out.append(f'<p class="provenance">{_esc(line)}</p>')
        out.append("</section>")
    return ("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>{_esc(title)}</title><style>{CSS}</style></head>\n<body><main>\n"
            + "\n".join(out) + "\n</main></body></html>\n")


def _note(b: Block) -> str:
    """A text block's note after its command: where the report keeps the tables it names."""
    return f"; {b.note}" if b.note else ""


def _md_cell(v) -> str:
    return str(v).replace("|", "\\|").replace("\n", " ")


def _md_table(frame: pd.DataFrame) -> str:
    lines = ["| " + " | ".join(_md_cell(c) for c in frame.columns) + " |",
             "|" + "|".join("---" for _ in frame.columns) + "|"]
    lines += ["| " + " | ".join(_md_cell(v) for v in row) + " |"
              for row in frame.itertuples(index=False)]
    return "\n".join(lines)


def to_markdown(title: str, head: list[str], parts: list[Part],
                findings: Findings = ()) -> str:
    out = [f"# {title}", ""]
    out += [f"{h}\n" for h in head if h]
    if findings:
        out += ['<a id="findings"></a>', "", "## Key findings", "", f"*{FINDINGS_NOTE}*", ""]
        out += [f"- {_md_cell(said)} ([{p.title}](#{p.key}))" for p, said in findings] + [""]
    out += [f"{i}. [{p.title}](#{p.key})" for i, p in enumerate(parts, 1)] + [""]
    for p in parts:
        out += [f'<a id="{p.key}"></a>', "", f"## {p.title}", "", f"*{p.model}*", ""]
        for b in p.blocks:
            if b.kind == "text":
                out += [b.text, ""]
            elif b.kind == "see":
                out += [f"{b.text} [{b.name}](#{b.anchor}).", ""]
            elif b.kind == "table":
                out += [f"**{b.text}**", "", _md_table(b.frame), ""]
            elif b.kind == "figure":
                out += [f"![{b.text}](figures/{p.key}-{b.name}.png)", ""]
            elif b.kind == "pre":
                said = [f"As `{b.command}` prints it{_note(b)}.", ""] if b.command else []
                shown = [*said, "```", b.text, "```", ""]
                out += (["<details><summary>As text</summary>", "", *shown, "</details>", ""]
                        if b.folded else shown)
        line = _provenance_line(p.provenance)
        if line:
            out += [f"<sub>{line}</sub>", ""]
    return "\n".join(out)
