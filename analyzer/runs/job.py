"""What a run plays, cut into chunks that any executor can play anywhere.

A :class:`Job` is a run without its deal range: rules, seed, policy, King's contract, and
whether its rows are kept. ``job.play(lo, n)`` plays deals ``lo .. lo + n - 1`` and returns
a :class:`Chunk`: its summary as exact statistics (:meth:`analyzer.summary.Summary.to_state`)
and, when asked, its rows. Deal ``i`` of a seed is the same deal whatever the chunk, so
chunks played on any machine, in any order, merge into the numbers of the whole run.

>>> job = Job.of("pedro", seed=1, policy="heuristic")
>>> [c.n for c in map(lambda r: job.play(*r), plan(0, 2500, 1000))]
[1000, 1000, 500]

May import: the games' registry and common module, :mod:`analyzer.summary`,
:mod:`analyzer.limits` and :mod:`analyzer._jit_cache` (the build a chunk is played by).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # a chunk's rows, in the annotations only
    import pandas as pd

from .._jit_cache import build_digest
from ..games import as_rules, common, game, parse_game
from ..limits import MAX_SEED
from ..summary import from_state, merge

KINDS = ("simulate", "bid-chart")

# what a chunk holds: the sizes are the games' common ones (compare cuts its chunks alike)
FAST_CHUNK, ROWS_CHUNK, default_chunk = common.FAST_CHUNK, common.ROWS_CHUNK, common.default_chunk


@dataclass(frozen=True)
class Job:
    """A run's rules (canonical string), seed, policy (canonical), King's ``contract``, and
    whether the rows of its deals are kept (``rows``: for ``--out``). A two-level bid chart
    (``base``, a cheap policy) plays its deals under ``base`` and its first
    ``search_deals`` under ``policy`` too (:class:`analyzer.bidchart.TwoLevelChartRun`)."""

    rules: str
    seed: int
    policy: str
    contract: str | None = None
    rows: bool = False
    kind: str = "simulate"  # or "bid-chart": every seat's hand played once per action
    by: str | None = None  # bid-chart: the features that class a hand, comma-separated
    base: str | None = None  # bid-chart: the cheap policy of a two-level chart (canonical)
    search_deals: int = 0  # its first deals, played by ``policy`` as well (n)

    @classmethod
    def of(cls, rules, seed: int, policy: str, contract: str | None = None,
           rows: bool = False, kind: str = "simulate", by=None, base: str | None = None,
           search_deals: int = 0) -> Job:
        """A job from a variant string or Rules and a policy in any spelling."""
        if kind not in KINDS:
            raise ValueError(f"unknown kind of run {kind!r}; one of {', '.join(KINDS)}")
        parsed = as_rules(rules)
        pols = common.parse_policies(policy)
        if kind == "bid-chart" and game(parsed).chart_by is not None:  # hand classes
            from ..chart_features import check_features

            by = ",".join(check_features(by or game(parsed).chart_game(parsed).default_by,
                                         parsed))
        if base is not None:
            if kind != "bid-chart":
                raise ValueError("a base policy makes a two-level bid chart; a simulation "
                                 "has none")
            game(parsed).require("two_level_charts", "--base")
            base = common.policy_string(common.parse_policies(base))
        return cls(str(parsed), int(seed), common.policy_string(pols), contract, bool(rows),
                   kind, by, base, int(search_deals) if base is not None else 0)

    @classmethod
    def from_dict(cls, d: dict) -> Job:
        """The job a run store's manifest holds (:meth:`to_dict`), checked field by field:
        ValueError naming the first that is not what ``to_dict`` writes, so an edited or
        damaged manifest is said to be so rather than read as another run."""
        fields = {"rules": str, "seed": int, "policy": str, "contract": (str, type(None)),
                  "rows": bool, "kind": str, "by": (str, type(None)),
                  "base": (str, type(None)), "search_deals": int}
        if not isinstance(d, dict) or not {"rules", "seed", "policy"} <= set(d) <= set(fields):
            raise ValueError(f"its job has fields {sorted(d) if isinstance(d, dict) else d}, "
                             f"not {sorted(fields)}")
        # a store written before a field was added holds its default (a plain simulation)
        d = {**{k: v for k, v in asdict(Job("", 0, "")).items() if k in fields}, **d}
        for name, kind in fields.items():
            v = d[name]
            if not isinstance(v, kind) or (kind is int and isinstance(v, bool)):
                raise ValueError(f"its job's {name} is {v!r}, not a {_kind_name(kind)}")
        if not 0 <= d["seed"] <= MAX_SEED or d["search_deals"] < 0:
            raise ValueError(f"its job's seed {d['seed']} or search_deals "
                             f"{d['search_deals']} is out of range")
        try:
            job = cls.of(d["rules"], d["seed"], d["policy"], d["contract"], d["rows"],
                         d["kind"], d["by"], d["base"], d["search_deals"])
        except ValueError as e:  # RuleError, PolicyError, NotOffered, a bad kind
            raise ValueError(f"its job does not parse: {e}") from None
        if job.to_dict() != d:  # the rules, policy or features not as the run wrote them
            diff = next(k for k, v in job.to_dict().items() if d[k] != v)
            raise ValueError(f"its job's {diff} {d[diff]!r} is not as a run writes it "
                             f"({getattr(job, diff)!r})")
        return job

    @property
    def searches(self) -> bool:
        """Whether a seat searches (dd, pimc): a deal then costs a tenth of a second."""
        return common.searches(common.parse_policies(self.policy))

    def chunk_for(self, deals: int) -> int:
        """Deals a chunk of a run of ``deals`` (:func:`default_chunk`); a two-level chart's
        cheap deals (its searched ones: :meth:`cuts`)."""
        if self.kind == "bid-chart":  # each deal played for every seat and action
            from ..bidchart import BATCH

            searching = self.searches and self.base is None
            return min(BATCH, default_chunk(deals, searching))
        return default_chunk(deals, self.searches, self.rows)

    def cuts(self, first: int, n: int, done: list[tuple[int, int]], chunk: int,
             ) -> Iterator[tuple[int, int]]:
        """The chunks of deals ``first .. first + n - 1`` not in ``done``
        (:func:`remaining`). A two-level chart cuts its first ``search_deals`` (searched,
        a tenth of a second or more a deal) into chunks of a searching run's size, and the
        rest into ``chunk``."""
        end = min(first + n, max(first, self.search_deals))
        if end > first:
            yield from remaining(first, end - first, done, default_chunk(self.search_deals,
                                                                         True))
        yield from remaining(end, first + n - end, done, chunk)

    def to_dict(self) -> dict:
        return asdict(self)

    def play(self, lo: int, n: int) -> Chunk:
        """Deals ``lo .. lo + n - 1``: their summary's statistics (a chart's sums by class),
        and their rows when kept."""
        rules = parse_game(self.rules)
        if self.kind == "bid-chart":
            acc = self._chart(rules)
            acc.play(lo, n)
            return Chunk(lo, n, acc.to_state(), {}, kernels=build_digest())
        g = game(rules)
        df = g.simulate(rules, n, self.seed, self.policy, lo, contract=self.contract)
        state = g.summarize(df).to_state()
        return Chunk(lo, n, state, dict(df.attrs), g.readable(df) if self.rows else None,
                     kernels=build_digest())

    def result(self, states: list[dict], attrs: dict):
        """What the chunks of ``states`` make together: a simulation's
        :class:`~analyzer.summary.Summary` (``attrs``, the rows' provenance, under its own),
        or a :class:`~analyzer.bidchart.BidChart`."""
        if self.kind == "bid-chart":
            acc = self._chart(parse_game(self.rules))
            for state in states:
                acc.add_state(state)
            return acc.result()
        summary = merge([from_state(s) for s in states])
        summary.provenance = {**attrs, **summary.provenance}
        return summary

    def _chart(self, rules):
        """The game's chart played in ranges (:meth:`~analyzer.games.protocol.Game.
        chart_run`): hand classes by ``by``, or King's own charts; two-level with a base."""
        by = tuple(self.by.split(",")) if self.by else None
        if self.base is not None:
            from ..bidchart import TwoLevelChartRun

            return TwoLevelChartRun(rules, self.seed, self.policy, self.base, self.search_deals,
                                    by)
        return game(rules).chart_run(rules, self.seed, self.policy, by)


@dataclass
class Chunk:
    """One played chunk: deals ``lo .. lo + n - 1``, their summary state, the rows' attrs
    (provenance) and the rows themselves (None unless the job keeps them)."""

    lo: int
    n: int
    state: dict
    attrs: dict
    rows: pd.DataFrame | None = None
    seconds: float = 0.0  # the time it took where it was played (a cluster sizes tasks by it)
    # the build of the players that played it (the kernels' source digest), where it was
    # played: a worker of another install plays other players
    kernels: str = ""


def plan(first: int, n: int, chunk: int) -> list[tuple[int, int]]:
    """The chunks ``(lo, n)`` of deals ``first .. first + n - 1``, ``chunk`` deals each (the
    last may be short). Chunks start at ``first + k·chunk``, so a resumed run cuts its
    missing deals where the interrupted one would have."""
    if chunk < 1:
        raise ValueError(f"a chunk needs at least one deal, got {chunk}")
    return [(lo, min(chunk, first + n - lo)) for lo in range(first, first + n, chunk)]


def spread(first: int, n: int, workers: int, per_worker: int = 4) -> list[tuple[int, int]]:
    """Deals ``first .. first + n - 1`` cut for ``workers`` workers, ``per_worker`` parts
    each (for work whose cost a deal is not measured first: a hand's samples, a ladder):
    a slow part holds up no more than a quarter of a worker's share.

    >>> spread(0, 10, 1, 4)
    [(0, 3), (3, 3), (6, 3), (9, 1)]
    """
    return plan(first, n, max(1, -(-n // (per_worker * max(1, workers)))))


def _kind_name(kind) -> str:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return " or ".join({str: "string", int: "whole number", bool: "true/false",
                        type(None): "null"}[k] for k in kinds)


def remaining(first: int, n: int, done: list[tuple[int, int]], chunk: int,
              ) -> Iterator[tuple[int, int]]:
    """The chunks of deals ``first .. first + n - 1`` not in ``done`` (ranges ``(lo, n)``),
    cut where :func:`plan` with ``chunk`` cuts the whole run; one at a time (a run may have
    more chunks than memory holds).

    >>> list(remaining(0, 10, [(0, 4), (6, 1)], 4))
    [(4, 2), (7, 1), (8, 2)]
    """
    end = first + n
    gaps, at = [], first
    for lo, k in [*sorted(done), (end, 0)]:
        if lo > at:
            gaps.append((at, min(lo, end)))
        at = max(at, lo + k)
    for a, b in gaps:
        while a < b:
            cut = min(b, first + ((a - first) // chunk + 1) * chunk)
            yield a, cut - a
            a = cut
