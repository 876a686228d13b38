"""Pedro (seed 000) and Cinch / Double Pedro (seed 002): one engine, two presets.

Rules: ``docs/rules.md`` §1 (Pedro), §2 (Cinch), §5 (invariants), §7 (flags);
every flag is a field of :class:`Rules` (see ``bidlab rules pedro``). Decisions
the text leaves open are listed in ``tests/reference/PEDRO_LOG_FORMAT.md``.

The package's face is :mod:`.deals` (batches of deals as DataFrames and logs), each of
its names loaded on first use, so that the rules and ``GAME`` answer without numba or
pandas (``bidlab games``, ``rules``, a command's ``--help``). The numba code lives in
``pedro.core`` (cards and trumps), ``pedro.policies`` (random, heuristic) and
``pedro.engine`` (the deal kernel and the parallel batch driver).

>>> from analyzer.games import pedro
>>> df = pedro.simulate(pedro.parse_rules("pedro"), 1000, seed=1)
>>> len(df), df.attrs["seed"], bool((df["points0"] + df["points1"] + df["dead_points"] == 14).all())
(1000, 1, True)

May import: its rules and game modules, and the registry's :func:`~analyzer.games.lazy_member`
(which loads the rest on first use); never another game.
"""

from __future__ import annotations

from .. import lazy_member
from .rules import PRESET_NAMES, PRESETS, Rules, parse_rules

__all__ = [
    "PRESETS", "PRESET_NAMES", "POLICY_NAMES", "Rules", "parse_rules", "parse_policies",
    "policy_string", "PolicyError", "ScenarioError", "SEAT_OFFSETS", "SEATS", "Scenario",
    "simulate", "simulate_games", "play_logged", "ELEMENTS",
]  # fmt: skip


def __getattr__(name: str):
    """The rest of the package on first use: the names of :mod:`.deals`, then its submodules."""
    return lazy_member(__name__, name)


from .game import GAME as GAME  # noqa: E402 - the interface generic code uses
