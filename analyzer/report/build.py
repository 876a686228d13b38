"""``build_report``: run a scenario's sections and write the report folder whole.

The folder is written under a hidden temporary name beside its target and swapped in
only when every file is there (:func:`analyzer.atomic.atomic_dir`), so a failed, interrupted
or killed run leaves the previous report as it was. It holds::

    index.html      one self-contained page
    report.md       the same, as Markdown, with the figures beside it
    figures/        every figure as PNG and SVG
    data/           every table behind the report, as Parquet and as CSV (plain header)
    manifest.json   versions, machine, command, the scenario's hash, each section's
                    rules, seed, policy, n and wall time, and the SHA-256 of every file

The data files depend only on the scenario (and bidlab's version): two runs of one
scenario write the same bytes. Wall times live in the manifest and the page only.

May import: the standard library, numpy, pandas, matplotlib, :mod:`analyzer.atomic`,
:mod:`analyzer.limits` and the report's own modules.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import platform
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import matplotlib as mpl
import pandas as pd

from .. import __version__, atomic, limits
from . import render, sections
from .findings import key_findings
from .parts import Block, Part
from .scenario import Scenario

SECTION_TITLES = {"bids": "make rate and EV by bid level", "seats": "dealer and seat "
                  "advantage", "bid_chart": "the bid guide", "hands": "example hands",
                  "variants": "variant comparisons", "ladder": "the card-player ladder",
                  "games": "whole games"}

# section -> how to run it from its tables (one each, but [[variants]]), the rows simulated
# so far (``[bids]`` and ``[seats]`` share one simulation of the same size) and a progress
RUNNERS = {
    "bids": lambda s, t, cache, progress, ex: sections.bids_part(s, t[0], cache, progress, ex),
    "seats": lambda s, t, cache, progress, ex: sections.seats_part(s, t[0], cache, progress,
                                                                   ex),
    "bid_chart": lambda s, t, cache, progress, ex: sections.chart_part(s, t[0], progress, ex),
    "hands": lambda s, t, cache, progress, ex: sections.hands_part(s, t[0], progress, ex),
    "variants": lambda s, t, cache, progress, ex: sections.variants_part(s, t, progress, ex),
    "ladder": lambda s, t, cache, progress, ex: sections.ladder_part(s, t[0], progress, ex),
    "games": lambda s, t, cache, progress, ex: sections.games_part(s, t[0], progress, ex),
}


def section_work(s: Scenario, name: str) -> tuple[int, str]:
    """(what a section's progress counts to, its work in words)."""
    cfg = s.sections[name]
    if name == "variants":  # its progress counts each variant's deals (and cheap ones)
        deals = sum(v["deals"] for v in cfg if not v["games"])
        games = sum(v["games"] or 0 for v in cfg)  # whole games: a game a step
        played = 2 * (deals + games) + sum(2 * v["base_deals"] for v in cfg
                                           if s.base is not None and not v["games"])
        return played, " and ".join(
            [f"{deals:,} deals"] * bool(deals) + [f"{games:,} whole games"] * bool(games)
        ) + " under each of two variants"
    c = cfg[0]
    if name == "hands":
        return c["deals"] * len(c["cards"]), f"{len(c['cards'])} hand(s) x {c['deals']:,} deals"
    if name == "games":
        return c["games"], f"{c['games']:,} games"
    if name == "ladder":  # its progress counts deals x card players
        return (c["deals"] * len(c["rungs"]),
                f"{c['deals']:,} deals x {len(c['rungs'])} card players")
    if name == "bid_chart" and s.base is not None:  # both parts' deals
        return (c["deals"] + c["base_deals"],
                f"{c['base_deals']:,} deals by {s.base}, the first {c['deals']:,} by "
                f"{s.policy} too")
    return c["deals"], f"{c['deals']:,} deals"


class _Opening:
    """A section's announcement and progress bar, made at its first progress (or at its
    end, where it reports none): a size refused before the section plays a deal (for
    memory, or for the pace its first batch measured) is then the one line on stderr."""

    def __init__(self, announce: Callable[[], None], make_bar: Callable[[], object] | None):
        self._announce, self._make_bar, self._update = announce, make_bar, None
        self._open = False

    def open(self) -> None:
        if not self._open:
            self._open = True
            self._announce()
            self._update = self._make_bar() if self._make_bar else None

    def progress(self, k: int) -> None:
        self.open()
        if self._update is not None:
            self._update(k)


def run_sections(s: Scenario, say: Callable[[str], None],
                 bar: Callable[[int, str], object] | None = None, ex=None) -> list[Part]:
    """Every wanted section, in order, each announced by ``say`` once it plays (see
    :class:`_Opening`); ``bar(total, label)`` makes a progress callback for a section's
    work (or None); ``ex``, a Dask executor of :mod:`analyzer.runs`, plays the deals on a
    cluster (None: here), with the same data."""
    cache: dict = {}
    parts = [sections.rules_part(s)]
    wanted = s.wanted()
    for i, name in enumerate(wanted, 1):
        total, work = section_work(s, name)
        head, title = f"[{i}/{len(wanted)}] {SECTION_TITLES[name]}", SECTION_TITLES[name]
        opening = _Opening(functools.partial(say, f"{head}: {work}"),
                           functools.partial(bar, total, title) if bar else None)
        t0 = time.perf_counter()
        with limits.asked_as(f"{s.path}: [{name}] size"):  # a refusal names the file's key
            part = RUNNERS[name](s, s.sections[name], cache, opening.progress, ex)
        opening.open()
        say(f"{head}: done in {time.perf_counter() - t0:.1f} s")
        parts.append(part)
    return parts


def build_report(s: Scenario, out: str | os.PathLike, command: str,
                 say: Callable[[str], None] = lambda line: None, bar=None, ex=None) -> Path:
    """Run ``s`` (on the cluster of ``ex``, if given) and write its report folder at ``out``
    (replaced whole); the folder."""
    out = atomic.check_out_dir(out)
    t0 = time.perf_counter()
    parts = shown_once(run_sections(s, say, bar, ex))
    with atomic.atomic_dir(out) as tmp:
        (tmp / "figures").mkdir()
        (tmp / "data").mkdir()
        for p in parts:
            _write_figures(p, tmp / "figures")
            _write_data(p, tmp / "data")
        title = s.title or f"{s.rules}: a strategy report"
        head = [s.question, f"bidlab {__version__}; rules {s.rules}; seed {s.seed}; policy "
                f"{s.policy}{'; --quick sizes' if s.quick else ''}. Every number: n and "
                "its 95% interval."]
        found = key_findings(parts)
        (tmp / "index.html").write_text(render.to_html(title, head, parts, tmp / "figures",
                                                       found), encoding="utf-8")
        (tmp / "report.md").write_text(render.to_markdown(title, head, parts, found),
                                       encoding="utf-8")
        manifest = _manifest(s, parts, tmp, command, time.perf_counter() - t0)
        (tmp / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")
    return Path(out)


def shown_once(parts: list[Part]) -> list[Part]:
    """``parts`` with a table that an earlier section already shows, row for row, replaced
    by a line that points to it (King's whole games are its seat positions' table); its
    numbers stay in ``data/`` under both sections."""
    shown: list[tuple[Part, Block]] = []
    for p in parts:
        for i, b in enumerate(p.blocks):
            if b.kind != "table":
                continue
            q = next((q for q, c in shown if c.frame.equals(b.frame)), None)
            if q is None:
                shown.append((p, b))
                continue
            p.blocks[i] = Block("see", text=f"{b.text.split('.')[0]}: the same numbers as the "
                                "table of", name=q.title, anchor=q.key)
    return parts


def _write_figures(p: Part, folder: Path) -> None:
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    from ..plotting import house_style

    with house_style(), mpl.rc_context({"svg.hashsalt": "bidlab", "svg.fonttype": "none"}):
        for name, fig in p.figures.items():
            if fig.canvas is None or not isinstance(fig.canvas, FigureCanvasAgg):
                FigureCanvasAgg(fig)
            _save_png(fig, folder / f"{p.key}-{name}.png")
            fig.savefig(folder / f"{p.key}-{name}.svg", format="svg", bbox_inches=None,
                        metadata={"Date": None, "Creator": None})


def _save_png(fig, path: Path) -> None:
    """The figure as a PNG of at most 256 colours: a chart has few, and the committed
    reports stay small (a heatmap 450 kB as RGB, about a third of that so; octree
    quantizing is the fastest of PIL's, 0.3 s on the largest)."""
    from io import BytesIO

    from PIL import Image

    buf = BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches=None, metadata={"Software": None})
    buf.seek(0)
    with Image.open(buf) as img:
        img.convert("RGB").quantize(colors=256, method=Image.Quantize.FASTOCTREE).save(
            path, format="PNG", optimize=True)


def _write_data(p: Part, folder: Path) -> None:
    for name, df in p.tables.items():
        df = _plain(df)
        df.to_parquet(folder / f"{p.key}-{name}.parquet", index=False)
        # eight significant digits: what a spreadsheet shows, at two thirds of the bytes
        # (the Parquet file keeps every bit)
        df.to_csv(folder / f"{p.key}-{name}.csv", index=False, lineterminator="\n",
                  float_format="%.8g")


def _plain(df: pd.DataFrame) -> pd.DataFrame:
    """Columns a spreadsheet and Parquet both take: text for objects (tuples, Rules)."""
    df = df.copy()
    df.attrs = {}
    for c in df.columns:
        if df[c].dtype == object:
            df[c] = df[c].map(lambda v: v if v is None or isinstance(v, str) else str(v))
    df.columns = [str(c) for c in df.columns]
    return df


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _git_commit() -> str | None:
    """The commit of the checkout bidlab runs from, "-dirty" after it where the package's
    code differs from that commit (a report built so could not be rebuilt from the commit
    alone); None outside a git checkout. Only the package counts: a report rewrites its
    own tracked folder under reports/, which says nothing of the code that built it."""
    package = Path(__file__).resolve().parents[1]

    def git(*args: str) -> subprocess.CompletedProcess | None:
        try:
            return subprocess.run(["git", *args], cwd=package, capture_output=True, text=True,
                                  timeout=5)
        except (OSError, subprocess.SubprocessError):
            return None

    head = git("rev-parse", "HEAD")
    if head is None or head.returncode != 0:
        return None
    changed = git("status", "--porcelain", "--", str(package),
                  str(package.parent / "pyproject.toml"))
    dirty = changed is None or changed.returncode != 0 or bool(changed.stdout.strip())
    return head.stdout.strip() + ("-dirty" if dirty else "")


def _cpu() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _manifest(s: Scenario, parts: list[Part], folder: Path, command: str,
              seconds: float) -> dict:
    import numba
    import numpy as np

    files = sorted(p for p in folder.rglob("*") if p.is_file())
    return {
        "bidlab_version": __version__, "git_commit": _git_commit(),
        "python": platform.python_version(), "numpy": np.__version__,
        "numba": numba.__version__, "pandas": pd.__version__,
        "platform": platform.platform(), "cpu": _cpu(), "cpu_count": os.cpu_count(),
        "threads": numba.get_num_threads(), "command": command,
        "scenario": {"file": str(s.path), "sha256": s.sha256, "name": s.name,
                     "quick": s.quick},
        "rules": str(s.rules), "seed": s.seed, "policy": s.policy,
        "seconds": round(seconds, 3),
        "sections": [{"key": p.key, "title": p.title, "model": p.model, **p.provenance}
                     for p in parts],
        "data": {str(p.relative_to(folder)): _sha256(p) for p in files
                 if p.parent.name == "data"},
        "files": {str(p.relative_to(folder)): _sha256(p) for p in files},
    }
